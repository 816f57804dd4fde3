"""`chronicle variation`: what-if lines branching from a position of a finished game.

    chronicle variation new GAME --at N           a study: a what-if line from version N
    chronicle variation new GAME --at N --play    play on from here: a new game from version N
    chronicle variation record VAR ACTION...      record into a variation, by the same rules
    chronicle variation list GAME                 the variations of a game (and of its variations)

GAME may itself be a variation, so a new game can start from any position of a variation. A
variation reads like any game: `chronicle log VAR`, `show VAR --at N`, `replay VAR` and
`annotate VAR` take its id. A study of a digital game draws from a seed derived for it from
the game's revealed seed (`HMAC-SHA256(key=game seed, msg="chronicle-variation|" + id)`), stated
when it is made, so anyone can check its random outcomes; a game played on from a position gets
a fresh seed, sealed behind its commitment until it ends, and tokens for its seats. A running
game is branched once it has ended: its position holds its seats' secrets.

The local store's owner records into a variation as its recorder (any seat; `--seat` names
one). With `--server URL`, the variation's recorder or seat token records (`--token`).
"""

from __future__ import annotations

import argparse
import json
from contextlib import closing
from typing import Any
from uuid import UUID

import msgspec

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.commands.record import parse_action
from replay_cli.errors import UsageError
from replay_cli.local import open_store, resolve_line, resolve_seat
from replay_cli.parser import intermix
from replay_cli.reading import EventLine
from replay_cli.render import event_line
from replay_cli.sources import add_store_or_server, server_token
from store import variations
from store.app import RECORDER, Chronicle
from store.variations import Branched, BranchRequest, Summary


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "variation", "branch, record and list what-if lines of a game", __doc__
    )
    commands = parser.add_subparsers(dest="variation_command", required=True, metavar="SUBCOMMAND")
    new = commands.add_parser("new", help="branch a variation (or a new game with --play)")
    new.add_argument("game", metavar="GAME", help="game (or variation) id, or a unique prefix")
    new.add_argument("--at", type=int, required=True, metavar="N", help="the version it branches at")
    new.add_argument("--play", action="store_true", help="play on from here: a new game with seat tokens")
    new.add_argument(
        "--player", dest="players", action="append", metavar="NAME", help="with --play, per seat"
    )
    new.add_argument("--json", action="store_true", help="print the answer as a JSON object")
    add_store_or_server(new, "on a Chronicle server")
    new.set_defaults(run=run_new)
    record = commands.add_parser("record", help="record actions into a variation")
    record.add_argument("variation", metavar="VAR", help="the variation's id, or a unique prefix")
    record.add_argument("actions", nargs="+", metavar="ACTION", help="in the ruleset's notation")
    record.add_argument("--seat", metavar="S", help="the seat the actions are for (id or player name)")
    record.add_argument("--json", action="store_true", help="each action is a JSON object, not notation")
    add_store_or_server(record, "on a Chronicle server")
    intermix(record)
    record.set_defaults(run=run_record)
    listed = commands.add_parser("list", help="the variations of a game")
    listed.add_argument("game", metavar="GAME", help="game id, or a unique prefix")
    listed.add_argument("--json", action="store_true", help="print them as a JSON object")
    add_store_or_server(listed, "on a Chronicle server")
    listed.set_defaults(run=run_list)


def _line_id(app: Any, text: str) -> UUID:
    """A game or a variation by its id or a unique prefix."""
    return resolve_line(app, text)


def _client(args: argparse.Namespace) -> closing[Any]:
    """The server of `--server`, closed when the command is done with it."""
    from replay_cli.remote import RemoteClient

    if args.store is not None:
        raise UsageError("give --store or --server, not both")
    return closing(RemoteClient(args.server, server_token(args)))


def _local_store(args: argparse.Namespace) -> closing[Chronicle]:
    """The local store, closed when the command is done with it; a token given without
    `--server` is a usage error first."""
    server_token(args)
    return closing(open_store(args.store))


def _remote_line(client: Any, text: str) -> str:
    """A game or a variation on the server, by its id or a unique prefix."""
    from replay_cli.remote import RemoteReader

    return RemoteReader(client, None).resolve(text)


def run_new(args: argparse.Namespace) -> int:
    if args.players and not args.play:
        raise UsageError("--player goes with --play (a study keeps the game's players)")
    request = BranchRequest(at=args.at, purpose="game" if args.play else "study", players=args.players)
    if args.server is not None:
        with _client(args) as client:
            body = {k: v for k, v in msgspec.to_builtins(request).items() if v is not None}
            base = _remote_line(client, args.game)
            branched = msgspec.convert(client.post(f"/games/{base}/variations", body), Branched)
    else:
        with _local_store(args) as app:
            branched = variations.branch(app, _line_id(app, args.game), request, "recorder")
    if args.json:
        print(json.dumps(msgspec.to_builtins(branched), indent=2))
        return 0
    kind = "new game" if branched.purpose == "game" else "variation"
    print(f"{kind:<11} {branched.variation_id}")
    print(f"branches    {branched.base_id} at version {branched.at}")
    if branched.seed:
        print(f"seed        {branched.seed}")
        print(f"derived as  {branched.derivation}")
    print(f"commitment  {branched.commitment or 'none (a physical game: the table makes its own luck)'}")
    tokens = {"recorder": branched.recorder_token} | {
        f"{seat} ({branched.seats[seat]})": token for seat, token in branched.seat_tokens.items()
    }
    print("tokens:")
    width = max(map(len, tokens))
    for who, token in tokens.items():
        print(f"  {who:<{width}}  {token}")
    return 0


def run_record(args: argparse.Namespace) -> int:
    actions = [parse_action(text, args.json) for text in args.actions]
    if args.server is not None:
        with _client(args) as client:
            served = _remote_line(client, args.variation)
            for action in actions:
                body = {"action": action} | ({"seat": args.seat} if args.seat else {})
                answer = client.post(f"/variations/{served}/actions", body)
                for event in answer["events"]:
                    print(event_line(EventLine(event["version"], event["type"], event["text"])), flush=True)
        return 0
    with _local_store(args) as app:
        vid = _line_id(app, args.variation)
        found = variations.line(app, vid)
        if found.variation is None:
            raise UsageError(
                f"{args.variation} is a game, not a variation: `chronicle record` records into it"
            )
        seat = resolve_seat(args.seat, found.game.config) if args.seat is not None else None
        for action in actions:
            shown = variations.record(app, vid, action, RECORDER, seat=seat)
            for event in shown:
                print(event_line(EventLine(event.version, event.type, event.text)), flush=True)
    return 0


def run_list(args: argparse.Namespace) -> int:
    if args.server is not None:
        with _client(args) as client:
            found = client.get(f"/games/{_remote_line(client, args.game)}/variations")["variations"]
            listed = [msgspec.convert(v, Summary) for v in found]
    else:
        with _local_store(args) as app:
            listed = variations.variations_of(app, _line_id(app, args.game))
    if args.json:
        print(json.dumps({"variations": msgspec.to_builtins(listed)}, indent=2))
        return 0
    if not listed:
        print("no variations")
    for v in listed:
        kind = "game" if v.purpose == "game" else "study"
        print(
            f"{v.variation_id}  {kind:<5}  from {v.base_id[:8]} at {v.at:<5}  {v.actions} actions  {v.status}"
        )
    return 0
