"""Where a command reads from: the options that choose it and the opening of the source.

Every command takes `--store URL` (else `CHRONICLE_STORE`, else the default file); the reading
commands also take `--server URL [--token T]` (the token else from `CHRONICLE_TOKEN`) and
`--as VIEWER`.
"""

from __future__ import annotations

import argparse
import os

from replay_cli.errors import UsageError
from replay_cli.local import LocalReader, open_store
from replay_cli.reading import Reader


def add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="URL",
        help="event store URL (default: $CHRONICLE_STORE, else sqlite:///.chronicle/games.sqlite3)",
    )


def add_reading_options(parser: argparse.ArgumentParser, *, viewer: bool = True) -> None:
    add_store_option(parser)
    parser.add_argument(
        "--server", metavar="URL", help="read from a Chronicle server instead of the local store"
    )
    parser.add_argument("--token", metavar="T", help="bearer token for --server (default: $CHRONICLE_TOKEN)")
    if viewer:
        parser.add_argument(
            "--as",
            dest="viewer",
            metavar="VIEWER",
            help="whose eyes: omniscient (default on the local store), public, or a seat id or player name",
        )


def open_reader(args: argparse.Namespace) -> Reader:
    viewer: str | None = getattr(args, "viewer", None)
    if args.server is None:
        if args.token is not None:
            raise UsageError("--token goes with --server; the local store needs no token")
        return LocalReader(open_store(args.store), viewer)
    if args.store is not None:
        raise UsageError("give --store or --server, not both")
    from replay_cli.remote import RemoteClient, RemoteReader  # httpx is only loaded for a server

    return RemoteReader(RemoteClient(args.server, args.token or os.environ.get("CHRONICLE_TOKEN")), viewer)
