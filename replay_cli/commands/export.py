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

To move a whole store: `chronicle export --all --out DIR` writes every game of the local store
to DIR, one file per game named by its id, and `chronicle import DIR/*.json --store NEW` stores
each file in turn (creating the store NEW names if it does not exist yet, as `import-log`
does). Each import stands alone: a file refused (a running digital game, a game the store
holds already, an id the store holds or derives) is named with its reason, the others are
stored, and the exit status is 1 when any was refused.

`chronicle import` also reads a BG Stats export (JSON with the lists `games`, `players` and
`plays`): each play becomes a finished physical game of `any` (store/bgstats_import.py). It
prints how many plays were imported, skipped (imported before, or ignored by BG Stats) and
refused, each refused play with its index and reason; the exit status is 1 when any was
refused. Importing the same file again adds nothing: a play's game id is derived from its uuid
(version 5), which is also why such a game moves to another store by importing the BG Stats
file there rather than by `export`/`import`. With `--server` the file goes to
`POST /games/import/bgstats`.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec

from projections.games_index import GameIndex
from replay_cli.commands import Subparsers
from replay_cli.errors import CliError, UsageError
from replay_cli.local import open_store, resolve_game
from replay_cli.parser import file_name
from replay_cli.sources import add_store_or_server, open_client, server_token
from store.app import ADMIN, Chronicle
from store.bgstats import bgstats
from store.bgstats_import import BgStatsReport, import_bgstats, is_bgstats
from store.errors import ServiceError
from store.transfer import Imported, decode, encode, export_game, import_game

if TYPE_CHECKING:
    from replay_cli.remote import RemoteClient


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    exporting = subparsers.add_parser(
        "export", help="write a game as stored, to carry it elsewhere", description=__doc__
    )
    exporting.add_argument("game", metavar="GAME", nargs="?", help="game id or a unique prefix")
    exporting.add_argument(
        "--all", action="store_true", help="every game of the local store, one file each in the --out folder"
    )
    exporting.add_argument(
        "--format",
        choices=("json", "ndjson", "bgstats"),
        default="json",
        help="one JSON object (default), one event a line, or a finished game as a BG Stats play",
    )
    exporting.add_argument(
        "--out",
        metavar="FILE",
        type=file_name,
        help="write to FILE instead of standard output (with --all: a folder)",
    )
    add_store_or_server(exporting, "export from a Chronicle server")
    exporting.set_defaults(run=run_export)
    importing = subparsers.add_parser(
        "import",
        help="store a game exported by `chronicle export`, or the plays of a BG Stats export",
        description=__doc__,
    )
    importing.add_argument(
        "file",
        metavar="FILE",
        nargs="+",
        type=file_name,
        help="the export (JSON or NDJSON) or a BG Stats export, or several; - reads standard input",
    )
    add_store_or_server(importing, "import into a Chronicle server")
    importing.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    if args.all:
        return _export_all(args)
    if args.game is None:
        raise UsageError("export needs a GAME, or --all --out DIR")
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
    token = server_token(args)
    store: Chronicle | RemoteClient = (
        open_client(args, token) if args.server is not None else open_store(args.store, create=True)
    )
    refused = 0
    try:
        for name in args.file:
            try:
                if not _import_one(store, name):
                    refused += 1
            except (CliError, ServiceError) as error:
                if len(args.file) == 1:
                    raise
                refused += 1
                why = (
                    error.message
                    if isinstance(error, CliError)
                    else f"{error.detail.rstrip('.')} ({error.code})"
                )
                print(f"{name}: refused: {why}", file=sys.stderr)
    finally:
        store.close()
    if refused and len(args.file) > 1:
        print(f"{len(args.file) - refused} imported, {refused} refused", file=sys.stderr)
    return 1 if refused else 0


def _import_one(store: Chronicle | RemoteClient, name: str) -> bool:
    """Import one file; False when it was a BG Stats file some of whose plays were refused."""
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {name}: {error.strerror or error}") from None
    bgstats_file = _bgstats(data)
    if bgstats_file is not None:
        return _import_bgstats(store, name, bgstats_file)
    export = decode(data)
    if isinstance(store, Chronicle):
        imported = import_game(store, export)
    else:
        imported = msgspec.convert(store.post("/games/import", msgspec.to_builtins(export)), Imported)
    print(f"game      {imported.game_id}  {imported.status}, {imported.version} events")
    print(f"chain     {imported.head}")
    print(f"recorder  {imported.recorder_token}")
    for seat, seat_token in imported.seat_tokens.items():
        print(f"seat {seat:<4} {seat_token}")
    for variation, variation_token in imported.variation_tokens.items():
        print(f"variation {variation}  recorder {variation_token}")
    return True


def _bgstats(data: bytes) -> Any | None:
    """The decoded JSON of a BG Stats export, None for anything else (an export, NDJSON)."""
    try:
        decoded = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    return decoded if is_bgstats(decoded) else None


def _import_bgstats(store: Chronicle | RemoteClient, name: str, data: Any) -> bool:
    if isinstance(store, Chronicle):
        report = import_bgstats(store, data)
    else:
        report = msgspec.convert(store.post("/games/import/bgstats", {"file": data}), BgStatsReport)
    for play in report.plays:
        if play.status == "refused":
            title = f" ({play.title})" if play.title else ""
            print(f"{name}: plays[{play.index}]{title}: refused: {play.message}", file=sys.stderr)
    print(f"{name}: {report.imported} plays imported, {report.skipped} skipped, {report.refused} refused")
    return report.refused == 0


def _export_all(args: argparse.Namespace) -> int:
    if args.game is not None or args.out is None or args.server is not None:
        raise UsageError("export --all takes no GAME and no --server, and needs --out DIR")
    if args.format == "bgstats":
        raise UsageError("export --all writes json or ndjson")
    folder = Path(args.out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"cannot create {folder}: {error.strerror or error}") from None
    app = open_store(args.store)
    try:
        ids = GameIndex(app).all_ids()
        for game_id in ids:
            export = export_game(app, UUID(game_id), ADMIN)
            target = folder / f"{game_id}.{args.format}"
            try:
                target.write_bytes(encode(export, args.format))
            except OSError as error:
                raise CliError(f"cannot write {target}: {error.strerror or error}") from None
            print(f"{game_id}  {export.status:<9} {target}")
    finally:
        app.close()
    print(f"{len(ids)} games written to {folder}")
    return 0


def _export_remote(args: argparse.Namespace, token: str | None) -> bytes:
    from replay_cli.remote import RemoteReader

    with closing(open_client(args, token)) as client:
        game_id = RemoteReader(client, None).resolve(args.game, variations=False)
        return client.get_bytes(f"/games/{game_id}/export", format=args.format)
