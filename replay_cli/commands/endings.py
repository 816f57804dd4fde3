"""`chronicle resign` and `chronicle abandon`: end a game other than by its rules.

The user owns the local store, so they act as the table's recorder. `resign GAME SEAT` ends
the game at once, the resigning seat ranked as the ruleset ranks a resignation (by default
last, the others by their current score); `abandon GAME` ends it with no outcome (statistics
leave it out, the audit still runs). `--reason` says why, kept in the record.
"""

from __future__ import annotations

import argparse
from uuid import UUID

from replay_cli.commands import Subparsers
from replay_cli.local import game_info, open_store, resolve_game, resolve_seat
from replay_cli.reading import EventLine
from replay_cli.render import event_line, outcome_line
from replay_cli.sources import add_store_option
from store.app import ADMIN, RECORDER, Chronicle, Ended


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    resign = subparsers.add_parser("resign", help="a seat resigns: the game ends", description=__doc__)
    resign.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    resign.add_argument("seat", metavar="SEAT", help="the seat that resigns (id or player name)")
    resign.add_argument("--reason", default="", metavar="TEXT", help="why (kept in the record)")
    add_store_option(resign)
    resign.set_defaults(run=run_resign)
    abandon = subparsers.add_parser("abandon", help="end a game with no outcome", description=__doc__)
    abandon.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    abandon.add_argument("--reason", default="", metavar="TEXT", help="why (kept in the record)")
    add_store_option(abandon)
    abandon.set_defaults(run=run_abandon)


def run_resign(args: argparse.Namespace) -> int:
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        seat = resolve_seat(args.seat, app.game(game_id).config)
        _show(app, game_id, app.resign(game_id, RECORDER, seat=seat, reason=args.reason))
        return 0
    finally:
        app.close()


def run_abandon(args: argparse.Namespace) -> int:
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        _show(app, game_id, app.abandon(game_id, RECORDER, reason=args.reason))
        return 0
    finally:
        app.close()


def _show(app: Chronicle, game_id: UUID, ended: Ended) -> None:
    # a resignation appends two events (it, and the finish), an abandonment one
    for e in app.read_events(game_id, ADMIN, gt=max(0, ended.version - 2)):
        if e.type in ("resigned", "abandoned", "finished"):
            print(event_line(EventLine(e.version, e.type, e.text, e.retracted)))
    if ended.outcome is not None:
        print(outcome_line(game_info(app.game(game_id)), ended.outcome))
    print(f"the game is {ended.status} at version {ended.version}")
