"""Rebuild throughput of the statistics view, in events per second, and its ratio to reading
and decoding the same rows straight from SQLite in the same run.

`--distinct` games of Province are played by the seeded bots of `chronicle simulate`; their
streams are then copied under fresh game ids until the store holds `--games` finished games
(a game's statistics do not depend on its id, and copying is much faster than playing).
The figure is a full rebuild (`projections.runner.rebuild`: catch-up from position 0, each
finished game's stream read from the store's rows, every fact decoded and folded through
the ruleset, and the game's statistics written with the players' updated ratings and the
view's position in one transaction). Two baselines read every stored event of the same
store: through the library (pages of notifications, each decoded into its domain event by
the mapper), and raw (sqlite3 rows, each state decoded by msgspec into plain objects; a
game's sealed secrets are not JSON, and only counted). The aim is a ratio of at least 0.5 to
the raw read.

    .venv/bin/python -m bench.projections [--games 2000] [--distinct 40] [--dir DIR]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
import uuid
from contextlib import closing
from pathlib import Path

import msgspec
from eventsourcing.persistence import StoredEvent

from bench.common import ratio_line
from domain.ruleset import get_ruleset
from projections.runner import open_view, rebuild
from store.app import Chronicle
from store.sealing import MARK
from store.simulation import play

PAGE = 5_000


def fill(app: Chronicle, games: int, distinct: int) -> int:
    """Play `distinct` games, copy them up to `games`; returns the events of game streams."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    played = [play(app, ruleset, "bench", i, ["Ann", "Ben"], {}, 20_000) for i in range(distinct)]
    streams = [app.recorder.select_events(p.game_id) for p in played]
    events = sum(len(s) for s in streams)
    for copy in range(distinct, games):
        source = streams[copy % distinct]
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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--dir", help="where the SQLite store goes (default: a temporary directory)")
    args = parser.parse_args()
    directory = Path(args.dir or tempfile.mkdtemp(prefix="chronicle-bench-"))
    url = f"sqlite:///{directory / 'bench.sqlite3'}"
    app = Chronicle(url)
    try:
        started = time.perf_counter()
        game_events = fill(app, args.games, min(args.distinct, args.games))
        seconds = time.perf_counter() - started
        print(f"store: {args.games} finished games, {game_events:,} game events ({seconds:.1f} s)")
        stored, read_seconds = read_all(app)
        baseline = stored / read_seconds
        print(f"read and decode (the library's mapper): {stored:,} stored events in {read_seconds:.2f} s")
        raw_stored, raw_seconds = read_raw(str(directory / "bench.sqlite3"))
        raw = raw_stored / raw_seconds
        print(f"read and decode (sqlite3 and msgspec): {raw_stored:,} stored events in {raw_seconds:.2f} s")
        started = time.perf_counter()
        generation = rebuild(url)
        rebuild_seconds = time.perf_counter() - started
        view = open_view(url, "stats", generation)
        counted = view.count()
        view.datastore.close()  # type: ignore[attr-defined]
        assert counted == args.games, (counted, args.games)
        print(f"rebuild: {counted} games, {game_events:,} events in {rebuild_seconds:.2f} s")
        rate = game_events / rebuild_seconds
        print(ratio_line("rebuild throughput vs the library's read", rate, "events/s", baseline, ">= 0.5"))
        print(ratio_line("rebuild throughput vs the raw read", rate, "events/s", raw, ">= 0.5"))
    finally:
        app.close()


if __name__ == "__main__":
    main()
