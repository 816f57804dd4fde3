"""`chronicle games`: the games in the store (or on a server), newest first."""

from __future__ import annotations

import argparse
import sys

from replay_cli.commands import Subparsers
from replay_cli.reading import Filters, GameRow
from replay_cli.sources import add_reading_options, open_reader


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("games", help="list games", description=__doc__)
    parser.add_argument("--ruleset", metavar="R")
    parser.add_argument("--player", metavar="P", help="a player's name (case-insensitive)")
    parser.add_argument("--status", choices=("running", "finished", "abandoned"))
    parser.add_argument("--tag", metavar="T")
    add_reading_options(parser, viewer=False)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        rows = reader.games(Filters(args.ruleset, args.player, args.status, args.tag))
    finally:
        reader.close()
    if not rows:
        print("no games match", file=sys.stderr)
        return 0
    for line in table(rows):
        print(line)
    return 0


def table(rows: list[GameRow]) -> list[str]:
    cells = [["GAME", "RULESET", "PLAYERS", "STATUS", "WINNERS"]] + [
        [
            row.game_id,
            f"{row.ruleset} ({row.mode}): {row.title}" if row.title else f"{row.ruleset} ({row.mode})",
            ", ".join(row.players),
            row.status,
            (", ".join(row.winners) or "nobody") if row.status == "finished" else "-",  # a game all lost
        ]
        for row in rows
    ]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]) - 1)]
    return ["  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]]) for r in cells]
