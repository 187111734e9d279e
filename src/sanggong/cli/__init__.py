"""The ``sanggong`` command line.

Exit status: one table for every command, ``_status.Status`` (0 ok, 1 a finding about
the data, 2 bad usage or input with one line on standard error naming the bad value and
never a traceback, 3 a log record this implementation cannot check, 130 after Ctrl-C).
Every ``--json`` output is strict JSON (no NaN or Infinity).

Its modules: ``_main`` (the parser, ``main`` and ``run``, the command itself), ``_parser`` (one-line errors, no option
given twice), ``_options`` (the options several commands share, each declared once as an
argparse parent parser, and what they yield), ``_output`` (JSON, tables, progress bars,
plots), ``_progress`` (progress bars only where shown), ``_status`` (the exit statuses),
``_version``, and one module per command group: ``_hands`` (eval, compare),
``_settle``, ``_logs`` (deal, verify, detect), ``_analyze``, ``_simulate``, ``_shoes``
(protect, design), ``_rules`` (rules, bets).
"""

from __future__ import annotations

from ._main import build_parser, main, run
from ._options import DEFAULT_PRESET, MAX_KEY_BYTES
from ._status import VERIFY_STATUS

__all__ = ["DEFAULT_PRESET", "MAX_KEY_BYTES", "VERIFY_STATUS", "build_parser", "main", "run"]
