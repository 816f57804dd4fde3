"""`chronicle log`: one human line per event, numbered by version."""

from __future__ import annotations

import argparse

from replay_cli.commands import Subparsers
from replay_cli.render import event_line
from replay_cli.sources import add_reading_options, open_reader


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("log", help="list a game's events", description=__doc__)
    parser.add_argument("game", metavar="GAME", help="game id (locally also a unique prefix)")
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        events = reader.events(reader.resolve(args.game))
    finally:
        reader.close()
    for event in events:
        print(event_line(event))
    return 0
