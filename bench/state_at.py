"""The state at a random version of a 5,000-event game, against the latest state.

One Province game is kept going as in `bench.append_latency` until its stream passes 5,000
events. Then `Chronicle.view` (what `GET /games/{id}/state` answers) is timed for the latest
state and for the state at random versions of the stream (`?at=`), each the median of
`--reads` reads. The aim is a ratio of at most 2: a reader stepping through an old game must
not wait for the whole stream to be folded again at every step. Then what the kept copies
(store/kept_versions.py) save: `--plain` reads at random versions with nothing kept, each
reading and folding the stream up to its version, against the same latest state.

Last (`--long`, 15,000 by default), a long game opened at once: one Province game of that many
events, played in memory and stored whole (`Core.start_game`, `Core.save_started`), then each
path that opens a game timed once on a fresh application (as a new command or a server that
never read the game): `chronicle log` (`LocalReader.events`), `chronicle show --at`
(`LocalReader.snapshot`), the terminal replay (`LocalReader.timeline`), and the web page of the
game (`GET /games/{id}` and `GET /games/{id}/picture?at=`), each beside the raw read of the
game's rows in the same run. The aim is under a second each.

    .venv/bin/python -m bench.state_at [--store URL] [--reads 200] [--seed 1] [--long 15000]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from uuid import UUID

from bench.append_latency import long_game_action
from bench.common import ratio_line
from domain.ruleset import Command, Rejection
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


def long_game_in_memory(app: Chronicle, events: int) -> UUID:
    """A Province game of `events` events or a few more, played in memory and stored whole."""
    started = app.start_game(NewGame("province", ["Ann", "Ben"]))
    game = started.game
    while game.version < events:
        action = game.ruleset.codec.decode_action(long_game_action(game))
        decided = started.record(Command(action, None, "recorder"))
        assert not isinstance(decided, Rejection), decided
    app.save_started(started)
    return game.id


def open_long_game(url: str, events: int) -> None:
    """Each path that opens a long game, timed once on a fresh application, beside the raw
    read of its rows."""
    from litestar.testing import TestClient

    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request

    from api.app import create_app
    from replay_cli.local import LocalReader

    writer = Chronicle(url)
    game_id = long_game_in_memory(writer, events)
    writer.close()
    at = events // 2

    def fresh(path: Callable[[Chronicle], object]) -> float:
        app = Chronicle(url)
        try:
            started = time.perf_counter()
            path(app)
            return time.perf_counter() - started
        finally:
            app.close()

    raw = fresh(lambda app: list(app.recorder.select_events(game_id)))
    text = str(game_id)

    def web(path: str) -> Callable[[Chronicle], object]:
        def get(app: Chronicle) -> object:
            with TestClient(create_app(app)) as client:
                answer = client.get(path, headers={"Accept": "text/html"})
                assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
                return answer

        return get

    paths: dict[str, Callable[[Chronicle], object]] = {
        "chronicle log": lambda app: LocalReader(app, None).events(text),
        f"chronicle show --at {at}": lambda app: LocalReader(app, None).snapshot(text, at),
        "the terminal replay": lambda app: LocalReader(app, None).timeline(text),
        "GET /games/{id}": web(f"/games/{text}"),
        f"GET /games/{{id}}/picture?at={at}": web(f"/games/{text}/picture?at={at}"),
    }
    print(f"a game of {events:,} events; its rows read raw in {raw * 1e3:.0f} ms")
    for name, path in paths.items():
        print(ratio_line(f"{name} opens it in", fresh(path) * 1e3, "ms", raw * 1e3, "under 1,000 ms"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", type=int, default=20, help="reads with nothing kept")
    parser.add_argument("--long", type=int, default=15_000, help="events of the long game opened (0: none)")
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
        if args.long:
            open_long_game(url if args.store else f"sqlite:///{tmp}/long.sqlite3", args.long)
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
