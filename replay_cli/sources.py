"""Where a command reads from: the options that choose it and the opening of the source.

Every command takes `--store URL` (else `CHRONICLE_STORE`, else the default file); the reading
commands also take `--server URL` with a token (`--token T`, or `--token-file PATH` so it stays
out of the process list and the shell history, else `CHRONICLE_TOKEN`) and `--as VIEWER`.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from replay_cli.errors import UsageError
from replay_cli.local import LocalReader, open_store
from replay_cli.parser import file_name
from replay_cli.reading import Reader
from store.config import StoreConfigError, read_token_file

if TYPE_CHECKING:
    from replay_cli.remote import RemoteClient


def add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="URL",
        help="event store URL (default: $CHRONICLE_STORE, else games.sqlite3 in your data directory: "
        "chronicle info)",
    )


def add_reading_options(parser: argparse.ArgumentParser, *, viewer: bool = True) -> None:
    add_store_or_server(parser, "read from a Chronicle server instead of the local store")
    if viewer:
        parser.add_argument(
            "--as",
            dest="viewer",
            metavar="VIEWER",
            help="whose eyes: omniscient (default on the local store), public, or a seat id or player name",
        )


def add_token_options(parser: argparse.ArgumentParser) -> None:
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--token", metavar="T", help="bearer token for --server (default: $CHRONICLE_TOKEN)")
    given.add_argument(
        "--token-file", metavar="PATH", type=file_name, help="read the bearer token for --server from a file"
    )


def add_store_or_server(parser: argparse.ArgumentParser, server_help: str) -> None:
    """`--store URL`, and `--server URL` with its token, for a command that works on either."""
    add_store_option(parser)
    parser.add_argument("--server", metavar="URL", help=server_help)
    add_token_options(parser)


def open_client(args: argparse.Namespace, token: str | None) -> RemoteClient:
    """The server of `--server`, asked with `token`; `--store` beside it is a usage error."""
    if args.store is not None:
        raise UsageError("give --store or --server, not both")
    from replay_cli.remote import RemoteClient  # httpx is only loaded for a server

    return RemoteClient(args.server, token)


def server_token(args: argparse.Namespace) -> str | None:
    """The bearer token for `--server`: `--token`, else `--token-file`, else
    `CHRONICLE_TOKEN`. Either option without `--server` is a usage error."""
    if args.server is None:
        if args.token is not None or args.token_file is not None:
            option = "--token" if args.token is not None else "--token-file"
            raise UsageError(f"{option} goes with --server; the local store needs no token")
        return None
    if args.token_file is not None:
        try:
            return read_token_file(args.token_file, "--token-file")
        except StoreConfigError as error:
            raise UsageError(str(error)) from None
    return args.token or os.environ.get("CHRONICLE_TOKEN") or None


def open_reader(args: argparse.Namespace) -> Reader:
    viewer: str | None = getattr(args, "viewer", None)
    token = server_token(args)
    if args.server is None:
        return LocalReader(open_store(args.store), viewer)
    if args.store is not None:
        raise UsageError("give --store or --server, not both")
    from replay_cli.remote import RemoteClient, RemoteReader  # httpx is only loaded for a server

    return RemoteReader(RemoteClient(args.server, token), viewer)
