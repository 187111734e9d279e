"""The exit statuses of every command, in one table: what a status means is the same for
each command that can end with it (``main`` returns them; docs/cli.md lists them)."""

from __future__ import annotations

import enum


class Status(enum.IntEnum):
    """``sanggong``'s exit statuses.

    >>> [(s.name, int(s)) for s in Status]
    [('OK', 0), ('FINDING', 1), ('USAGE', 2), ('UNCHECKED', 3), ('INTERRUPTED', 130)]
    """

    OK = 0
    """Done as asked; for a command that checks data (``verify``, ``detect``): nothing found wrong."""
    FINDING = 1
    """A finding about the data: a log with a bad record (changed, forged, or not a log at
    all), for ``verify`` and for ``detect``, which reads a log through the same checks."""
    USAGE = 2
    """Bad usage or input, found before any result: an unknown command or option, a bad
    value, a missing or unreadable file (a key, a rule file), a size beyond the limits; one
    line on standard error names it, never a traceback."""
    UNCHECKED = 3
    """A log that stops at a record this implementation cannot check (nothing was found
    wrong before it): ``verify`` and ``detect``."""
    INTERRUPTED = 130
    """Ctrl-C (128 + SIGINT, as shells report it), after the partial result where there is one."""


VERIFY_STATUS = {"ok": Status.OK, "bad": Status.FINDING, "unchecked": Status.UNCHECKED}
"""The status of a log check by its report's ``status`` (``verify``, and ``detect``, which
reads a log through the same checks): 0 every record checked and good, 1 a finding about
the log (a bad record: changed, moved, removed, not a record; a record after the seal;
with --require-seal a log without its seal; with --expect-last a last hash that is not the
one given), 3 a record this implementation cannot check (nothing found wrong); 2 is the
command line's own (bad usage or input: an unreadable log or key file, a malformed
--expect-last)."""
