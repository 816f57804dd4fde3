"""`chronicle replay`: step through a game, action by action (see `stepper.py` for keys).

A step is one recorded action with everything it caused (`steps.py`): the position after it.
`e` (or `--events`) steps by event instead, every fact and bookkeeping event a version of its own.

On a terminal it is a full-screen app (`tui.py`: the game's picture, the move list, what each
step changed; `--plain` keeps the one-screen stepper); with stdin not a terminal (a script, a
test, a pipe) it reads the stepper's commands one per line (`n`, `b`, `e`, `j5`, `t3`, `q`;
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
from replay_cli.reading import Reader, Timeline
from replay_cli.render import can_strike
from replay_cli.sources import add_reading_options, open_reader
from replay_cli.stepper import Stepper


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("replay", help="step through a game", description=__doc__)
    parser.add_argument("game", metavar="GAME", help="game id (locally also a unique prefix)")
    parser.add_argument("--at", type=int, metavar="N", help="the version to start at (default 1)")
    parser.add_argument(
        "--plain", action="store_true", help="the one-screen stepper, not the full-screen app"
    )
    parser.add_argument(
        "--events",
        action="store_true",
        help="step by event (every fact a step of its own), not by action; e switches",
    )
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        timeline = reader.timeline(reader.resolve(args.game))
        start = 1 if args.at is None else args.at
        if not 1 <= start <= timeline.last:
            raise UsageError(f"--at {start} is outside this game's versions 1..{timeline.last}")
        stepper = Stepper(timeline, start, by_event=args.events)
        if sys.stdin.isatty() and sys.stdout.isatty() and not args.plain:
            _full_screen(reader, args.game, timeline, start, args.events)
        elif sys.stdin.isatty() and sys.stdout.isatty():
            _interactive(stepper)
        else:
            _by_lines(stepper)
    finally:
        reader.close()
    return 0


def _full_screen(reader: Reader, game: str, timeline: Timeline, start: int, by_event: bool) -> None:
    from replay_cli.local import LocalReader
    from replay_cli.tui import run_app

    if not isinstance(reader, LocalReader):  # over a server the token decides the view
        run_app(timeline, start, by_event=by_event)
        return
    local = reader
    game_id = reader.resolve(game)

    def reopen(viewer: str) -> Timeline:
        local.viewer_spec = viewer
        return local.timeline(game_id)

    first = local.viewer_spec or "omniscient"
    others = [v for v in ("omniscient", "public", *timeline.info.seats) if v != first]
    run_app(timeline, start, [first, *others], reopen, by_event)


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
