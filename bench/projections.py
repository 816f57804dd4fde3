"""Rebuild throughput of the statistics view, in events per second, and its ratio to reading
and decoding the same rows straight from SQLite in the same run, at each store size.

`--distinct` games of Province are played by the seeded bots of `chronicle simulate`; their
streams are then copied under fresh game ids until the store holds the first of `--games`
finished games (a game's statistics do not depend on its id, and copying is much faster than
playing), measured, then copied on to the next size and measured again.
The figure is a full rebuild (`projections.runner.rebuild`: catch-up from position 0, each
finished game's stream read from the store's rows, every fact decoded and folded through
the ruleset, and the game's statistics written with the players' updated ratings and the
view's position in one transaction), timed twice, in turns with the raw read (`--turns` of
them, the median ratios kept): in one process (`workers=1`), and as `chronicle projections
rebuild` runs it, the games folded by worker processes, one per
core, while the rebuild records them in order (projections/fold_workers.py; starting the
workers is timed). Two baselines read every stored event of the same store: through the
library (pages of notifications, each decoded into its domain event by the mapper), and raw
(sqlite3 rows, each state decoded by msgspec into plain objects in one process; a game's
sealed secrets are not JSON, and only counted). The aim is a ratio of at least 0.5 to the
raw read at every size; the one-process ratio is printed beside it.

On the shared two-core machine with both cores idle (`--games 200,600 --turns 3`): 0.90 at
200 games and 0.95 at 600 with 2 worker processes, 0.48 and 0.49 in one process (before the
workers, the collector's pause and the cheaper drop of stale generations: 0.44 and 0.42 to
0.47). The workers need idle cores: with another job on one core, 0.55 to 0.64 at 200 games
and 0.61 to 0.69 at 600 (0.46 to 0.64 in one process); with both cores busy, 0.4 to 0.5
either way. Small stores, idle cores: 0.63 at 20 games and 0.77 at 40, 0.62 at 16; under 16
games (where the workers are not started: projections/fold_workers.py `FROM_GAMES`) a rebuild
takes a few milliseconds, most of them opening the view and writing its position, and the
ratio is 0.35 to 0.45.

    .venv/bin/python -m bench.projections [--games 200,600] [--distinct 40] [--turns 1] [--dir DIR]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
import uuid
from contextlib import closing
from pathlib import Path
from typing import Any

import msgspec
from eventsourcing.persistence import StoredEvent

from bench.common import ratio_line
from domain.ruleset import get_ruleset
from projections.fold_workers import default_workers
from projections.runner import open_view, rebuild
from store.app import Chronicle
from store.sealing import MARK
from store.simulation import play

PAGE = 5_000


def played(app: Chronicle, distinct: int) -> list[Any]:
    """Play `distinct` games; their stored streams."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    games = [play(app, ruleset, "bench", i, ["Ann", "Ben"], {}, 20_000) for i in range(distinct)]
    return [app.recorder.select_events(p.game_id) for p in games]


def copy(app: Chronicle, streams: list[Any], start: int, games: int) -> int:
    """Copy the streams under fresh ids from game `start` up to `games`; their events."""
    events = 0
    for number in range(start, games):
        source = streams[number % len(streams)]
        new_id = uuid.uuid4()
        app.recorder.insert_events(
            [StoredEvent(new_id, e.originator_version, e.topic, e.state) for e in source]
        )
        events += len(source)
    return events


def read_all(app: Chronicle) -> tuple[int, float]:
    """Every stored event read in pages and decoded: (events, seconds)."""
    started = time.perf_counter()
    count, position = 0, 0
    while True:
        page = app.recorder.select_notifications(start=position, limit=PAGE, inclusive_of_start=False)
        for notification in page:
            app.mapper.to_domain_event(notification)
        count += len(page)
        if len(page) < PAGE:
            break
        position = page[-1].id
    return count, time.perf_counter() - started


def read_raw(path: str) -> tuple[int, float]:
    """Every stored event's row read with sqlite3 and its JSON decoded by msgspec, bypassing
    the library: (events, seconds)."""
    started = time.perf_counter()
    count = 0
    decode = msgspec.json.decode
    with closing(sqlite3.connect(path)) as connection:
        cursor = connection.execute(
            "SELECT originator_id, originator_version, topic, state FROM stored_events"
        )
        while rows := cursor.fetchmany(PAGE):
            for row in rows:
                if not row[3].startswith(MARK):  # a game's secrets, sealed: not JSON
                    decode(row[3])
            count += len(rows)
    return count, time.perf_counter() - started


def measure(
    app: Chronicle, url: str, path: str, games: int, game_events: int, turns: int
) -> tuple[float, float]:
    """The library's read once, then `turns` turns of the raw read and two full rebuilds of
    the store as it is, in one process and with worker processes; the median of each
    rebuild's ratios to the raw read of its turn."""
    stored, read_seconds = read_all(app)
    baseline = stored / read_seconds
    print(f"read and decode (the library's mapper): {stored:,} stored events in {read_seconds:.2f} s")
    ratios: tuple[list[float], list[float]] = ([], [])
    for _turn in range(turns):
        raw_stored, raw_seconds = read_raw(path)
        raw = raw_stored / raw_seconds
        print(f"read and decode (sqlite3 and msgspec): {raw_stored:,} stored events in {raw_seconds:.2f} s")
        kinds = ((1, "in one process"), (None, f"with {default_workers(games)} worker processes"))
        for (workers, label), found in zip(kinds, ratios, strict=True):
            started = time.perf_counter()
            generation = rebuild(url, workers=workers)
            rebuild_seconds = time.perf_counter() - started
            view = open_view(url, "stats", generation)
            counted = view.count()
            view.datastore.close()  # type: ignore[attr-defined]
            assert counted == games, (counted, games)
            print(f"rebuild {label}: {counted} games, {game_events:,} events in {rebuild_seconds:.2f} s")
            rate = game_events / rebuild_seconds
            print(ratio_line("  throughput vs the library's read", rate, "events/s", baseline, ">= 0.5"))
            print(ratio_line("  throughput vs the raw read", rate, "events/s", raw, ">= 0.5"))
            found.append(rate / raw)
    return statistics.median(ratios[0]), statistics.median(ratios[1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="200,600", help="store sizes, in finished games, rising")
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--dir", help="where the SQLite store goes (default: a temporary directory)")
    parser.add_argument(
        "--turns", type=int, default=1, help="raw reads and rebuilds at each size, in turns (median kept)"
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.games.split(",")]
    if sizes != sorted(sizes) or sizes[0] < 1:
        parser.error("--games takes rising store sizes, e.g. 200,600")
    if args.turns < 1:
        parser.error("--turns takes 1 or more")
    directory = Path(args.dir or tempfile.mkdtemp(prefix="chronicle-bench-"))
    path = str(directory / "bench.sqlite3")
    url = f"sqlite:///{path}"
    app = Chronicle(url)
    ratios = []
    try:
        started = time.perf_counter()
        streams = played(app, min(args.distinct, sizes[0]))
        game_events = sum(len(s) for s in streams)
        held = len(streams)
        for size in sizes:
            game_events += copy(app, streams, held, size)
            held = size
            seconds = time.perf_counter() - started
            print(f"store: {size} finished games, {game_events:,} game events ({seconds:.1f} s)")
            ratios.append(measure(app, url, path, size, game_events, args.turns))
            started = time.perf_counter()
    finally:
        app.close()
    median = "" if args.turns == 1 else f", median of {args.turns} turns"
    print(
        f"rebuild vs the raw read{median}: "
        + ", ".join(
            f"{many:.2f} at {size} games ({one:.2f} in one process)"
            for size, (one, many) in zip(sizes, ratios, strict=True)
        )
        + " (aim >= 0.5 at every size)"
    )


if __name__ == "__main__":
    main()
