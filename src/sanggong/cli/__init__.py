"""The ``sanggong`` command line.

Exit status: 0 on success; 2 for bad input of any kind (a malformed card, an unknown
option, a stake, a size beyond the limits of ``sanggong.limits``, a rule file, an
environment value), with one line on standard error naming the bad value and never a
traceback; 1 when ``verify`` finds a bad record; 130 after Ctrl-C (with the partial
result where there is one). Every ``--json`` output is strict JSON (no NaN or Infinity).

Its modules: ``_main`` (the parser and ``main``), ``_parser`` (one-line errors, no option
given twice), ``_options`` (the options several commands share, each declared once as an
argparse parent parser, and what they yield), ``_output`` (JSON, tables, progress bars,
plots), ``_version``, and one module per command group: ``_hands`` (eval, compare),
``_settle``, ``_logs`` (deal, verify, detect), ``_analyze``, ``_simulate``, ``_shoes``
(protect, design), ``_rules`` (rules, bets).
"""

from __future__ import annotations

from ._logs import VERIFY_STATUS
from ._main import build_parser, main
from ._options import DEFAULT_PRESET, MAX_KEY_BYTES

__all__ = ["DEFAULT_PRESET", "MAX_KEY_BYTES", "VERIFY_STATUS", "build_parser", "main"]
