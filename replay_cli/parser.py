"""The argument parser class of every `chronicle` command and subcommand."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any, NoReturn

from replay_cli.errors import USAGE


def file_name(text: str) -> str:
    """The `type` of an argument that names a file: any name the system allows, UTF-8 or not."""
    return text


def shown_name(text: str) -> str:
    """A file name as it can be printed and stored: bytes that are not UTF-8 become U+FFFD."""
    return os.fsencode(text).decode("utf-8", "replace")


class ChronicleParser(argparse.ArgumentParser):
    """argparse, with three changes: a usage error is one line, like every other error of the
    command; an argument that is not UTF-8 text (Python hands such bytes over as lone
    surrogates) is such an error, naming the argument, unless it names a file (`file_name`);
    and a parser marked with `intermix` takes options between its positionals
    (`chronicle record GAME --json '{...}'`), which plain argparse refuses once it has
    filled a `*` positional."""

    intermixed = False
    _parsing = False

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"chronicle: error: {message} (see '{self.prog} --help')\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # a subcommand's strings are its command's name, then what its own parser reads
        strings = arg_strings[:1] if action.nargs == argparse.PARSER else arg_strings
        if action.type is not file_name and action.nargs != argparse.REMAINDER:
            for text in strings:
                raw = os.fsencode(text)
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    shown = repr(raw if len(raw) <= 40 else raw[:40] + b"...")
                    raise argparse.ArgumentError(
                        action, f"{shown} is not UTF-8 text (byte {error.start})"
                    ) from None
        return super()._get_values(action, arg_strings)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # parse_known_intermixed_args calls back into parse_known_args; only the outer call switches.
        if not self.intermixed or self._parsing:
            return super().parse_known_args(args, namespace)
        self._parsing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._parsing = False


def intermix(parser: Any) -> None:
    """Let `parser` (made by a ChronicleParser's subparsers) mix options among positionals."""
    if isinstance(parser, ChronicleParser):
        parser.intermixed = True
