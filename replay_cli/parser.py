"""The argument parser class of every `chronicle` command and subcommand."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from replay_cli.errors import USAGE


class ChronicleParser(argparse.ArgumentParser):
    """argparse, with two changes: a usage error is one line, like every other error of the
    command; and a parser marked with `intermix` takes options between its positionals
    (`chronicle record GAME --json '{...}'`), which plain argparse refuses once it has
    filled a `*` positional."""

    intermixed = False
    _parsing = False

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"chronicle: error: {message} (see '{self.prog} --help')\n")

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
