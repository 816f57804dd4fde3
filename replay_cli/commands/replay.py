"""`chronicle replay`: step through a game, version by version (see `stepper.py` for keys).

On a terminal it reads single keys and redraws the screen; with stdin not a terminal (a
script, a test, a pipe) it reads the same commands one per line (`n`, `b`, `j5`, `t3`, `q`;
an empty line is `n`) and prints the screen after each.

An action later retracted is still a version of the record: its line is struck through (or
marked `~~text~~`) and tagged `[retracted later]`; the retraction's own version shows the
state it restored, and play goes on from there.
"""

from __future__ import annotations

import argparse
import sys

from replay_cli.commands import Subparsers
from replay_cli.errors import UsageError
from replay_cli.render import can_strike
from replay_cli.sources import add_reading_options, open_reader
from replay_cli.stepper import Stepper


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("replay", help="step through a game", description=__doc__)
    parser.add_argument("game", metavar="GAME", help="game id (locally also a unique prefix)")
    parser.add_argument("--at", type=int, metavar="N", help="the version to start at (default 1)")
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        timeline = reader.timeline(reader.resolve(args.game))
        start = 1 if args.at is None else args.at
        if not 1 <= start <= timeline.last:
            raise UsageError(f"--at {start} is outside this game's versions 1..{timeline.last}")
        stepper = Stepper(timeline, start)
        if sys.stdin.isatty() and sys.stdout.isatty():
            _interactive(stepper)
        else:
            _by_lines(stepper)
    finally:
        reader.close()
    return 0


def _interactive(stepper: Stepper) -> None:
    from replay_cli.terminal import Terminal, raw_terminal

    stepper.strike = can_strike(sys.stdout)
    with raw_terminal(sys.stdin.fileno()) as terminal:
        while True:
            width, height = Terminal.size()
            terminal.draw(stepper.screen(width, height))
            try:
                if not stepper.press(terminal.key()):
                    return
            except KeyboardInterrupt:
                return


def _by_lines(stepper: Stepper) -> None:
    while True:
        print("\n".join(stepper.screen(width=10_000, height=10_000)), flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        for key in _keys(line.strip()):
            if not stepper.press(key):
                return
        if stepper.entering is not None:  # a line ends any number left half typed
            stepper.press("ESC")
        print()


def _keys(line: str) -> list[str]:
    """The keys one line stands for: `j 12` and `j12` alike end with Enter."""
    if not line:
        return ["n"]
    if line[0] in ("j", "t"):
        return [line[0], *line[1:].replace(" ", ""), "ENTER"]
    return list(line)
