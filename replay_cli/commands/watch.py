"""`chronicle watch`: follow a game live, one line per event as it is recorded.

The lines are those of `chronicle log`, shown as the viewer may see them: on the local store
`--as` picks the viewer (default omniscient) and the store is read again every quarter
second; against `--server` the token decides and the server's live stream
(`GET /games/{id}/live`) brings each event, resuming where it stopped if the connection
drops. It ends when the game does (after the finishing event); Ctrl-C leaves earlier.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import Any

import msgspec

from domain import reading
from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import CliError, UsageError
from replay_cli.local import line_of, open_store, resolve_game, resolve_viewer
from replay_cli.reading import EventLine
from replay_cli.render import can_strike, event_line
from replay_cli.sources import add_reading_options, server_token

POLL = 0.25  # seconds between reads of the local store
RETRIES = 30  # reconnections in a row before giving up on a server


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(subparsers, "watch", "follow a game live", __doc__)
    parser.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    parser.add_argument(
        "--after",
        type=int,
        default=0,
        metavar="VERSION",
        help="start after this version (default: from the start)",
    )
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.after < 0:
        raise UsageError("--after takes a version, 0 or more")
    token = server_token(args)
    lines = _remote(args, token) if args.server is not None else _local(args)
    strike = can_strike(sys.stdout)
    for line in lines:
        print(event_line(line, strike), flush=True)
    return 0


def _local(args: argparse.Namespace) -> Iterator[EventLine]:
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        position = args.after
        while True:
            game = app.game(game_id)
            viewer = resolve_viewer(args.viewer, game.config)
            if game.version > position:
                shown = reading.present_all(game, app.stored_events(game_id, gt=position), viewer)
                for event in shown:
                    yield line_of(event)
                position = game.version
            if game.outcome is not None:
                return
            time.sleep(POLL)
    finally:
        app.close()


def _remote(args: argparse.Namespace, token: str | None) -> Iterator[EventLine]:
    import httpx

    from replay_cli.remote import RemoteClient, RemoteReader, _problem

    if args.store is not None:
        raise UsageError("give --store or --server, not both")
    if args.viewer not in (None, "public"):
        raise UsageError("over a server the token decides what you see; --as takes only 'public' there")
    client = RemoteClient(args.server, None if args.viewer == "public" else token)
    position, failures = args.after, 0
    try:
        game_id = RemoteReader(client, None).resolve(args.game, variations=False)
        while True:
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(position)}
            try:
                with client.http.stream(
                    "GET", f"/games/{game_id}/live", headers=headers, timeout=None
                ) as answer:
                    if answer.status_code >= 400:
                        answer.read()
                        raise _problem(answer)
                    for kind, data in _server_sent(answer.iter_lines()):
                        failures = 0
                        event: dict[str, Any] = msgspec.json.decode(data)
                        position = int(event["version"])
                        yield EventLine(position, event["type"], event["text"], bool(event.get("retracted")))
                        if kind == "finished":
                            return
            except httpx.HTTPError as error:
                failures += 1
                if failures > RETRIES:
                    raise CliError(
                        f"lost the server at {client.base_url}: {error or type(error).__name__}"
                    ) from None
            time.sleep(min(0.2 * 2**failures, 2.0))
    finally:
        client.close()


def _server_sent(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(event type, data) of each server-sent event; comments and `retry:` skipped."""
    kind, data = "message", list[str]()
    for line in lines:
        if not line:
            if data:
                yield kind, "\n".join(data)
            kind, data = "message", []
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
