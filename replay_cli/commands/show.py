"""`chronicle show`: a game's state at one version, as one viewer sees it."""

from __future__ import annotations

import argparse

from replay_cli.commands import Subparsers
from replay_cli.render import snapshot_lines
from replay_cli.sources import add_reading_options, open_reader


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("show", help="show the state at a version", description=__doc__)
    parser.add_argument("game", metavar="GAME", help="game id (locally also a unique prefix)")
    parser.add_argument("--at", type=int, metavar="N", help="the version (default: the latest)")
    parser.add_argument(
        "--picture", action="store_true", help="the table as `replay` draws it, not the state's fields"
    )
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        snapshot = reader.snapshot(reader.resolve(args.game), args.at)
    finally:
        reader.close()
    if args.picture:
        from replay_cli.picture_text import print_picture

        print_picture(snapshot)
        return 0
    print("\n".join(snapshot_lines(snapshot)))
    return 0
