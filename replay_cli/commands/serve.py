"""`chronicle serve`: the HTTP API on uvicorn, over the chosen store."""

from __future__ import annotations

import argparse
import importlib.util
import os

from replay_cli.commands import Subparsers
from replay_cli.errors import CliError, UsageError
from replay_cli.sources import add_store_option
from store.config import (
    StoreConfigError,
    admin_token_from_env,
    display_url,
    sqlite_file,
    store_env,
    store_url,
)
from store.sealing import secret_key

APP = "api.asgi:app"
SHUTDOWN = 3  # seconds open connections get to finish when the server stops


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the HTTP API", description="Serve the HTTP API with uvicorn."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on the one port (default 1); one of them runs the statistics view",
    )
    parser.add_argument(
        "--projections",
        choices=("inprocess", "external"),
        default=None,
        help="run the statistics view in the server (default) or leave it to `chronicle projections run`",
    )
    parser.add_argument(
        "--access-log",
        metavar="DEST",
        default=None,
        help="one JSON line per request to stderr (default), a FILE, or off (env CHRONICLE_ACCESS_LOG)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default=None,
        help="proxies trusted to name the client in X-Forwarded-For: addresses or networks, "
        "comma-separated, or * (default none; env CHRONICLE_TRUSTED_PROXIES)",
    )
    add_store_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = store_url(args.store)
    try:  # what would stop the server as it starts, told here in one line
        store_env(url)
        secret_key(url)
        admin_token_from_env()
    except StoreConfigError as error:
        raise UsageError(str(error)) from None
    if args.workers < 1:
        raise UsageError("--workers takes a number of processes, at least 1")
    if importlib.util.find_spec("api.asgi") is None:
        raise CliError("the HTTP API is not installed (no module api.asgi)")
    if sqlite_file(url) is None:  # waited for once here, and its schema made, before any worker
        from store.postgres import wait_for_store

        wait_for_store(url)
    import uvicorn

    from api.settings import EdgeSettings, SettingsError

    # The application (and each worker process) opens the store named by the environment.
    os.environ["CHRONICLE_STORE"] = url
    if args.projections is not None:
        os.environ["CHRONICLE_PROJECTIONS"] = args.projections
    if args.access_log is not None:
        os.environ["CHRONICLE_ACCESS_LOG"] = args.access_log
    else:
        os.environ.setdefault("CHRONICLE_ACCESS_LOG", "stderr")
    if args.forwarded_allow_ips is not None:
        os.environ["CHRONICLE_TRUSTED_PROXIES"] = args.forwarded_allow_ips
    try:  # a destination it cannot write to, told here in one line rather than by each worker
        settings = EdgeSettings.from_env()
    except SettingsError as error:
        raise UsageError(str(error)) from None
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Chronicle is serving on http://{host}:{args.port} (store: {display_url(url)})", flush=True)
    # Live streams never end by themselves: on shutdown they get a few seconds, then are cut
    # (their clients reconnect elsewhere and resume where they were).
    # uvicorn's own access log is off: it prints query strings whole (api/access_log.py masks them).
    # Forwarded headers are read only from the proxies named: uvicorn's default trusts them from
    # 127.0.0.1, where any local client could name itself any address.
    proxies = settings.trusted_proxies
    uvicorn.run(
        APP,
        host=args.host,
        port=args.port,
        workers=args.workers,
        timeout_graceful_shutdown=SHUTDOWN,
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies) if proxies else None,
    )
    return 0
