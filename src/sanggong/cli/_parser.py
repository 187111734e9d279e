"""The argument parser of every command and of every shared option: errors in one line,
exit status 2, a close match named for any mistyped name (a command, an option, a choice),
and no option silently given twice."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from typing import Any, NoReturn, TypeAlias

from .._text import did_you_mean
from ._output import one_line


@functools.cache  # (one class of each action for every parser: a command's start makes six)
def _once(action: type[argparse.Action]) -> type[argparse.Action]:
    """``action`` that refuses to be given twice: ``--rounds 10 --rounds 20`` (or an
    option and its alias) is an error naming the option, never the last one silently."""

    class Once(action):  # type: ignore[valid-type, misc]
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                     option_string: str | None = None) -> None:
            given: set[str] = namespace.__dict__.setdefault("_given_once", set())
            if self.dest in given:
                names = "/".join(self.option_strings) or self.metavar or self.dest
                parser.error(f"{names} is given twice: give it once")
            given.add(self.dest)
            super().__call__(parser, namespace, values, option_string)

    Once.__name__ = f"{action.__name__}Once"
    return Once


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The commands of a parser: each one's parser reports its own unrecognized arguments
    (argparse passes them up to the top parser, which knows nothing of the command's options)."""

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        parser = super().add_parser(name, **kwargs)
        if isinstance(parser, Parser):
            parser.command = True
        return parser


class Parser(argparse.ArgumentParser):
    """argparse, with its errors in one line (``sanggong deal: error: ...``), exit 2, a
    close match named for a mistyped command, choice or option (``--jsn``: ``did you mean
    '--json'?``, by the command that has the option), and every option that takes one
    value or sets a flag refused when it is given twice (options given again on purpose,
    ``--bet`` and ``--hand``, are ``append``: their commands refuse a bet or a position
    given twice)."""

    command = False
    """A command's parser (made by ``add_parser``): it reports what it does not recognize."""

    _sized = True
    """Whether a help formatter made now is fitted to the terminal's width (argparse's
    reads it with ``shutil``, a few ms of a start): not while an option is added, where
    argparse makes one only to check the option's metavar, which no width changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, action in (("store", argparse._StoreAction), (None, argparse._StoreAction),
                             ("store_true", argparse._StoreTrueAction), ("store_false", argparse._StoreFalseAction),
                             ("store_const", argparse._StoreConstAction)):
            self.register("action", name, _once(action))
        self.register("action", "parsers", _Commands)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self._sized = False
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            del self._sized  # (the class's again)

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._sized:
            return super()._get_formatter()
        make: Any = self.formatter_class  # (argparse's HelpFormatter takes a width; typeshed's protocol names prog alone)
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=80)  # (any width: only a metavar is formatted)
        return formatter

    def add_subparsers(self, **kwargs: Any) -> Any:
        """argparse's; its ``prog`` (the commands' prefix, ``sanggong``) given where
        argparse would format this parser's usage without positionals into it: that usage is
        ``prog`` alone, at any width (so no formatter, nor the terminal's width, is needed)."""
        if kwargs.get("prog") is None and self.usage is None and not self._get_positional_actions():
            kwargs["prog"] = self.prog
        return super().add_subparsers(**kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """A command's parser refuses what it does not recognize here, naming the closest of
        its own options; the top parser (``parse_args``) refuses what precedes the command."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self.command:
            self.unrecognized(extras)
        return parsed, extras

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.unrecognized(extras)
        return parsed

    def unrecognized(self, extras: Sequence[str]) -> NoReturn:
        """``unrecognized arguments: --jsn (did you mean '--json'?)``: the first mistyped
        option named with the closest option of this parser, where one is close."""
        known = [s for action in self._actions for s in action.option_strings]
        hint = next((h for h in (did_you_mean(e.partition("=")[0], known) for e in extras if e.startswith("-")) if h),
                    "")
        self.error(f"unrecognized arguments: {' '.join(extras)}{hint}")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """An invalid choice (a command, a preset) is named with the closest valid one."""
        choices = action.choices
        if choices is None or value in choices:
            return
        listed = ", ".join(map(repr, choices))
        hint = did_you_mean(value, [str(c) for c in choices])
        raise argparse.ArgumentError(action, f"invalid choice: {value!r}{hint} (choose from {listed})")

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


Commands: TypeAlias = "argparse._SubParsersAction[Parser]"
"""Where a command module adds its commands (``add_parser``)."""
