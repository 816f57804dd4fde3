"""`chronicle export GAME` and `chronicle import FILE`: a game carried whole into another store.

The export is the game's stream as stored, with each event's digest in the hash chain and its
head (store/transfer.py): corrections stay as they were recorded. The local store's owner sees
everything, so any game exports; a running digital game's export holds no seed and does not
import until the game has ended. The import checks the chain and audits the game before it
stores anything, and prints the game's new recorder and seat tokens (and each variation's new
recorder token: its annotations and variations travel with it). `--format bgstats` writes
a finished game as a play for BG Stats' import (players, scores, winners, duration).

With `--server URL` (token from `--token`, `--token-file` or `CHRONICLE_TOKEN`) the export
comes from a server (`GET /games/{id}/export`: a running game for its recorder's or an
administrator's token, an ended one for anyone) and the import goes to one
(`POST /games/import`, under the server's policy for creating games).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path

import msgspec

from replay_cli.commands import Subparsers
from replay_cli.errors import CliError
from replay_cli.local import open_store, resolve_game
from replay_cli.sources import add_server_options, add_store_option, open_client, server_token
from store.app import ADMIN
from store.bgstats import bgstats
from store.transfer import Imported, decode, encode, export_game, import_game


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    exporting = subparsers.add_parser(
        "export", help="write a game as stored, to carry it elsewhere", description=__doc__
    )
    exporting.add_argument("game", metavar="GAME", help="game id or a unique prefix")
    exporting.add_argument(
        "--format",
        choices=("json", "ndjson", "bgstats"),
        default="json",
        help="one JSON object (default), one event a line, or a finished game as a BG Stats play",
    )
    exporting.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    add_store_option(exporting)
    add_server_options(exporting, "export from a Chronicle server")
    exporting.set_defaults(run=run_export)
    importing = subparsers.add_parser(
        "import", help="store a game exported by `chronicle export`", description=__doc__
    )
    importing.add_argument("file", metavar="FILE", help="the export (JSON or NDJSON); - reads standard input")
    add_store_option(importing)
    add_server_options(importing, "import into a Chronicle server")
    importing.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    token = server_token(args)
    if args.server is not None:
        data = _export_remote(args, token)
    else:
        app = open_store(args.store)
        try:
            game_id = resolve_game(app, args.game)
            if args.format == "bgstats":
                data = msgspec.json.encode(bgstats(app, game_id))
            else:
                data = encode(export_game(app, game_id, ADMIN), args.format)
        finally:
            app.close()
    if args.out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        Path(args.out).write_bytes(data)
    except OSError as error:
        raise CliError(f"cannot write {args.out}: {error.strerror or error}") from None
    return 0


def run_import(args: argparse.Namespace) -> int:
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {args.file}: {error.strerror or error}") from None
    export = decode(data)
    token = server_token(args)
    if args.server is not None:
        with closing(open_client(args, token)) as client:
            answer = client.post("/games/import", msgspec.to_builtins(export))
        imported = msgspec.convert(answer, Imported)
    else:
        app = open_store(args.store)
        try:
            imported = import_game(app, export)
        finally:
            app.close()
    print(f"game      {imported.game_id}  {imported.status}, {imported.version} events")
    print(f"chain     {imported.head}")
    print(f"recorder  {imported.recorder_token}")
    for seat, token in imported.seat_tokens.items():
        print(f"seat {seat:<4} {token}")
    for variation, token in imported.variation_tokens.items():
        print(f"variation {variation}  recorder {token}")
    return 0


def _export_remote(args: argparse.Namespace, token: str | None) -> bytes:
    from replay_cli.remote import RemoteReader

    with closing(open_client(args, token)) as client:
        game_id = RemoteReader(client, None).resolve(args.game)
        return client.get_bytes(f"/games/{game_id}/export", format=args.format)
