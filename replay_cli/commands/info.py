"""`chronicle info`: which store the commands use and where that choice came from (`--store`,
`CHRONICLE_STORE`, or the default file in your data directory), whether it exists, and the
version of Chronicle."""

from __future__ import annotations

import argparse

from replay_cli.commands import Subparsers
from replay_cli.sources import add_store_option
from store.config import display_url, sqlite_file, store_source, store_url


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("info", help="which store the commands use", description=__doc__)
    add_store_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from replay_cli.main import version

    url = store_url(args.store)
    path = sqlite_file(url)
    print(f"chronicle {version()}")
    print(f"store   {display_url(url)}")
    print(f"from    {store_source(args.store)}")
    if path is not None:
        state = "exists" if path.exists() else "does not exist yet: chronicle new or simulate creates it"
        print(f"file    {path.resolve()} ({state})")
    return 0
