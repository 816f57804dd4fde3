"""`chronicle resign` and `chronicle abandon`: end a game other than by its rules.

The user owns the local store, so they act as the table's recorder. `resign GAME SEAT` ends
the game at once, the resigning seat ranked as the ruleset ranks a resignation (by default
last, the others by their current score); `abandon GAME` ends it with no outcome (statistics
leave it out, the audit still runs). `--reason` says why, kept in the record.

With `--server URL` the game is ended on a server, with the token from `--token`,
`--token-file` or `CHRONICLE_TOKEN`: a seat's token resigns its own seat, the recorder's (or
an administrator's) resigns any seat and abandons.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import closing
from uuid import UUID

import msgspec

from replay_cli.commands import Subparsers
from replay_cli.errors import UsageError
from replay_cli.local import game_info, open_store, resolve_game, resolve_seat
from replay_cli.reading import EventLine, GameInfo
from replay_cli.render import event_line, outcome_line
from replay_cli.sources import add_store_or_server, open_client, server_token
from store.app import ADMIN, RECORDER, Chronicle, Ended

SHOWN = ("resigned", "abandoned", "finished")


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    resign = subparsers.add_parser("resign", help="a seat resigns: the game ends", description=__doc__)
    resign.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    resign.add_argument("seat", metavar="SEAT", help="the seat that resigns (id or player name)")
    resign.add_argument("--reason", default="", metavar="TEXT", help="why (kept in the record)")
    add_store_or_server(resign, "resign on a Chronicle server, with the seat's or the recorder's token")
    resign.set_defaults(run=run_resign)
    abandon = subparsers.add_parser("abandon", help="end a game with no outcome", description=__doc__)
    abandon.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    abandon.add_argument("--reason", default="", metavar="TEXT", help="why (kept in the record)")
    add_store_or_server(abandon, "abandon on a Chronicle server, with the recorder's token")
    abandon.set_defaults(run=run_abandon)


def run_resign(args: argparse.Namespace) -> int:
    def resign(app: Chronicle, game_id: UUID) -> Ended:
        seat = resolve_seat(args.seat, app.game(game_id).config)
        return app.resign(game_id, RECORDER, seat=seat, reason=args.reason)

    return _end(args, "resign", resign)


def run_abandon(args: argparse.Namespace) -> int:
    return _end(args, "abandon", lambda app, game_id: app.abandon(game_id, RECORDER, reason=args.reason))


def _end(args: argparse.Namespace, how: str, end: Callable[[Chronicle, UUID], Ended]) -> int:
    """End the game `how` on the server, or locally with `end`, and print what that appended."""
    token = server_token(args)
    if args.server is not None:
        _end_remote(args, token, how)
        return 0
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        _show(app, game_id, end(app, game_id))
        return 0
    finally:
        app.close()


def _show(app: Chronicle, game_id: UUID, ended: Ended) -> None:
    # a resignation appends two events (it, and the finish), an abandonment one
    for e in app.read_events(game_id, ADMIN, gt=max(0, ended.version - 2)):
        if e.type in SHOWN:
            print(event_line(EventLine(e.version, e.type, e.text, e.retracted)))
    _close(game_info(app.game(game_id)), ended)


def _end_remote(args: argparse.Namespace, token: str | None, how: str) -> None:
    """`POST /games/{id}/resign` or `/abandon`, then the lines the local command prints, from
    the events the server appended."""
    from replay_cli.remote import RemoteReader, _info, _line, remote_seat

    if token is None:
        whose = "the recorder's or the seat's" if how == "resign" else "the recorder's"
        raise UsageError(f"to {how} on a server give {whose} token (--token)")
    with closing(open_client(args, token)) as client:
        game_id = RemoteReader(client, None).resolve(args.game, variations=False)
        info = _info(client.get(f"/games/{game_id}"))
        body = {"reason": args.reason}
        if how == "resign":
            body["seat"] = remote_seat(args.seat, info.seats)
        ended = msgspec.convert(client.post(f"/games/{game_id}/{how}", body), Ended)
        appended = client.get(f"/games/{game_id}/events", **{"from": max(1, ended.version - 1)})
        for event in appended["events"]:
            if event["type"] in SHOWN:
                print(event_line(_line(event)))
    _close(info, ended)


def _close(info: GameInfo, ended: Ended) -> None:
    if ended.outcome is not None:
        print(outcome_line(info, ended.outcome))
    print(f"the game is {ended.status} at version {ended.version}")
