"""Actions recorded per second on SQLite by many tables at once, with group commit against
one transaction per action.

`--tables` threads each keep one Province game going through `Chronicle.record` (decide, then
commit), `--actions` actions each, in a fresh store. The same load runs once with the store's
recorder (store/group_commit.py: appends that arrive together share one transaction, so one
sync to disk) and once with the library's recorder beneath it, each action in its own
transaction. The figure is the first's rate against the second's, the median of `--rounds`
rounds run in turn (aim: above 1, and the more tables the larger).

    .venv/bin/python -m bench.group_commit [--tables 16] [--actions 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock
from uuid import UUID

from bench.append_latency import long_game_action
from bench.common import ratio_line
from store import core
from store.app import RECORDER, Chronicle, NewGame
from store.config import store_env

PLAIN = "store.polling:PollingSQLiteApplicationRecorder"  # the one beneath, without grouping


@contextmanager
def plain_recorder() -> Iterator[None]:
    def env(url: str) -> dict[str, str]:
        return store_env(url) | {"APPLICATION_RECORDER_TOPIC": PLAIN}

    with mock.patch.object(core, "store_env", env):
        yield


def rate(url: str, tables: int, actions: int) -> float:
    """Actions per second recorded by `tables` threads at once."""
    app = Chronicle(url)
    try:
        games = [UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id) for _ in range(tables)]
        start = threading.Barrier(tables + 1)

        def play(game_id: UUID) -> None:
            start.wait()
            for _ in range(actions):
                app.record(game_id, long_game_action(app.game(game_id)), RECORDER)

        threads = [threading.Thread(target=play, args=(g,)) for g in games]
        for thread in threads:
            thread.start()
        start.wait()
        started = time.perf_counter()
        for thread in threads:
            thread.join()
        return tables * actions / (time.perf_counter() - started)
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    grouped: list[float] = []
    plain: list[float] = []
    for index in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            grouped.append(rate(f"sqlite:///{tmp}/grouped.sqlite3", args.tables, args.actions))
            with plain_recorder():
                plain.append(rate(f"sqlite:///{tmp}/plain.sqlite3", args.tables, args.actions))
        print(f"round {index + 1}: {grouped[-1]:,.0f} actions/s grouped, {plain[-1]:,.0f} one by one")
    print(
        ratio_line(
            f"actions recorded per second by {args.tables} tables at once",
            statistics.median(grouped),
            "actions/s",
            statistics.median(plain),
            "> 1",
        )
    )


if __name__ == "__main__":
    main()
