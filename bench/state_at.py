"""The state at a random version of a 5,000-event game, against the latest state.

One Province game is kept going as in `bench.append_latency` until its stream passes 5,000
events. Then `Chronicle.view` (what `GET /games/{id}/state` answers) is timed for the latest
state and for the state at random versions of the stream (`?at=`), each the median of
`--reads` reads. The aim is a ratio of at most 2: a reader stepping through an old game must
not wait for the whole stream to be folded again at every step. Then what the kept copies
(store/kept_versions.py) save: `--plain` reads at random versions with nothing kept, each
reading and folding the stream up to its version, against the same latest state.

    .venv/bin/python -m bench.state_at [--store URL] [--reads 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from uuid import UUID

from bench.append_latency import long_game_action
from bench.common import ratio_line
from store.app import RECORDER, Chronicle, NewGame
from store.kept_versions import KeptVersions

EVENTS = 5_000


def long_game(app: Chronicle, events: int) -> UUID:
    created = app.create_game(NewGame("province", ["Ann", "Ben"]))
    game_id = UUID(created.game_id)
    version = created.version
    while version < events:
        version = app.record(game_id, long_game_action(app.game(game_id)), RECORDER).version
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", type=int, default=20, help="reads with nothing kept")
    args = parser.parse_args()
    pick = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.store or f"sqlite:///{tmp}/state_at.sqlite3"
        writer = Chronicle(url)
        started = time.perf_counter()
        game_id = long_game(writer, EVENTS)
        writer.close()
        print(f"one game of {EVENTS:,} events written in {time.perf_counter() - started:.1f} s")
        # A fresh application, as a server reading a game some other process wrote.
        app = Chronicle(url)
        try:
            latest = app.game(game_id).version
            first = time.perf_counter()
            app.view(game_id, RECORDER, at=pick.randint(1, latest))
            first_ms = (time.perf_counter() - first) * 1e3
            at_times, latest_times = [], []
            for _ in range(args.reads):
                started = time.perf_counter()
                app.view(game_id, RECORDER)
                latest_times.append(time.perf_counter() - started)
                at = pick.randint(1, latest)
                started = time.perf_counter()
                app.view(game_id, RECORDER, at=at)
                at_times.append(time.perf_counter() - started)
            plain_times = []
            for _ in range(args.plain):
                app.kept_versions = KeptVersions()  # nothing kept: the stream read and folded
                at = pick.randint(1, latest)
                started = time.perf_counter()
                app.view(game_id, RECORDER, at=at)
                plain_times.append(time.perf_counter() - started)
        finally:
            app.close()
    at_us = statistics.median(at_times) * 1e6
    latest_us = statistics.median(latest_times) * 1e6
    print(f"first read at a random version: {first_ms:.1f} ms (the game folded up to it)")
    print(
        ratio_line(
            f"state at a random version of {latest:,} (median of {args.reads})",
            at_us,
            "µs",
            latest_us,
            "<= 2",
        )
    )
    print(
        ratio_line(
            f"the same with nothing kept (median of {args.plain})",
            statistics.median(plain_times) * 1e6,
            "µs",
            latest_us,
            "what the kept copies save",
        )
    )


if __name__ == "__main__":
    main()
