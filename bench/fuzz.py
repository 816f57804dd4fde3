"""Fuzzing the HTTP API at length: the suite's schemathesis run (tests/api/fuzzing.py) with a
large example count, against a real uvicorn process on a fresh store.

The games are seeded through the store directly (a digital and a physical game of every
ruleset, a finished one); the server then answers the generated requests, and the store's
head is read from this process before and after each one. Rate limits are off (one client
sends everything). Prints the examples run, the requests sent, the 5xx found, the other
failures (a traceback in a body, a rejected request that appended), and the time. With
`--checks all`, every check schemathesis has also judges each answer, the coverage phase's
requests are sent too (`--coverage N` per operation and mode), and the failures are counted
by check.

    .venv/bin/python -m bench.fuzz [--examples 300] [--checks all] [--coverage 50] [--seed N] [--store URL]
"""

from __future__ import annotations

import argparse
import logging
import random
import tempfile

import requests
import schemathesis
from schemathesis.core.transport import Response

from bench.common import uvicorn_server
from store.app import Chronicle
from tests.api.fuzzing import AnyCase, Checking, all_checks, fuzz, seed_games

ADMIN = "fuzz-admin-token"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="per operation and generation mode")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: a random one)")
    parser.add_argument("--store", default=None, help="store URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--checks",
        choices=("default", "all"),
        default="default",
        help="default: no 5xx, no traceback, no partial write; all: every schemathesis check besides",
    )
    parser.add_argument(
        "--coverage", type=int, default=50, help="with --checks all: coverage requests per operation and mode"
    )
    parser.add_argument("--quiet", action="store_true", help="no line per operation")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or f"sqlite:///{tmp}/fuzz.sqlite3"
        chronicle = Chronicle(store, admin_token=ADMIN)
        games = seed_games(chronicle, ADMIN)
        env = {
            "CHRONICLE_STORE": store,
            "CHRONICLE_ADMIN_TOKEN": ADMIN,
            "CHRONICLE_WRITE_LIMIT_TOKEN": "off",
            "CHRONICLE_WRITE_LIMIT_ADDRESS": "off",
        }
        with uvicorn_server("api.asgi:app", env) as url, requests.Session() as session:
            schema = schemathesis.openapi.from_url(f"{url}/schema/openapi.json")

            def send(case: AnyCase) -> Response:
                return case.call(base_url=url, session=session, timeout=30)

            def head() -> int:
                return chronicle.recorder.max_notification_id() or 0

            checking = (
                Checking(all_checks(), {"base_url": url, "session": session}, args.coverage)
                if args.checks == "all"
                else None
            )
            figures = fuzz(
                schema,
                send,
                head,
                games,
                args.examples,
                seed=seed,
                progress=None if args.quiet else print,
                checking=checking,
            )
        chronicle.close()
    print(
        f"fuzzing: seed {seed}, {args.examples} examples per operation and mode, store {store.split(':')[0]}"
    )
    print(f"examples run: {figures.examples:,}; requests: {figures.requests:,} ({figures.by_class()})")
    print(
        f"5xx found: {figures.server_errors}; other failures: {len(figures.failures) - figures.server_errors}"
    )
    rate = figures.requests / figures.seconds if figures.seconds else 0.0
    print(f"time: {figures.seconds:.1f} s ({rate:,.1f} requests/s)")
    if args.checks == "all":
        counted = ", ".join(f"{name} {n}" for name, n in sorted(figures.by_check.items())) or "none"
        print(f"failures by check: {counted}")
    for failure in figures.failures:
        print("FAILURE", failure)


if __name__ == "__main__":
    main()
