"""A `chronicle projections rebuild` process killed part-way: the runner that keeps the views
finishes its generation and switches readers to it, a later rebuild drops what an abandoned
one left, and the status's counts add up to the games finished (both stores, real processes)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest

from projections.runner import (
    Catalog,
    ProjectionHost,
    close_view,
    generation_name,
    open_view,
    rebuild,
    status,
    views_dir,
)
from projections.views import SQLiteStatsView
from store.app import Chronicle
from tests.cli.conftest import COMMAND
from tests.projections.support import resigned_games

GAMES = 15  # a rebuild of this many takes long enough to be stopped part-way, not minutes


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    chronicle = Chronicle(store_url)
    yield chronicle
    chronicle.close()


def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def counted(url: str, generation: int) -> int:
    view = open_view(url, "stats", generation)
    try:
        return view.count()
    finally:
        close_view(view)


def counted_now(url: str, generation: int) -> int | None:
    """The games a generation holds, read without creating its tables or waiting on a lock a
    stopped process holds (None: not there yet, or held)."""
    name = generation_name("stats", generation)
    if url.startswith("sqlite:"):
        path = views_dir(url) / f"{name}.sqlite3"
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.1)) as db:
                return int(db.execute(f"SELECT COUNT(*) FROM {SQLiteStatsView.TABLE}").fetchone()[0])
        except sqlite3.Error:
            return None
    parsed = urlparse(url)
    schema = parse_qs(parsed.query)["schema"][0]
    try:
        with psycopg.connect(parsed._replace(query="").geturl(), autocommit=True) as pg:
            pg.execute("SET lock_timeout = '200ms'")
            row = pg.execute(f'SELECT COUNT(*) FROM "{schema}"."{name}_games"').fetchone()
    except psycopg.Error:
        return None
    return int(row[0]) if row else None


def views_now(url: str) -> set[int]:
    """The generations whose view exists, read without the catalog, whose lock a stopped
    process may hold."""
    prefix = generation_name("stats", 0)[:-1]
    if url.startswith("sqlite:"):
        names = [path.stem for path in views_dir(url).glob(f"{prefix}*.sqlite3")]
    else:
        parsed = urlparse(url)
        schema = parse_qs(parsed.query)["schema"][0]
        with psycopg.connect(parsed._replace(query="").geturl(), autocommit=True) as pg:
            rows = pg.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchall()
        names = [str(name).removesuffix("_games") for (name,) in rows if str(name).endswith("_games")]
    return {
        int(name[len(prefix) :])
        for name in names
        if name.startswith(prefix) and name[len(prefix) :].isdigit()
    }


def killed_rebuild(url: str, catalog: Catalog) -> int:
    """A rebuild process stopped once it has counted a game and killed; its generation."""
    for _attempt in range(3):
        generation = _stop_a_rebuild(url, catalog)
        if dict(catalog.generations("stats"))[generation] == "building" and counted(url, generation) < GAMES:
            return generation
    raise AssertionError("the rebuild finished every time before it could be stopped")


def _stop_a_rebuild(url: str, catalog: Catalog) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")} | {"CHRONICLE_STORE": url}
    before = {g for g, _ in catalog.generations("stats")} | views_now(url)

    def new() -> set[int]:
        return {g for g, _ in catalog.generations("stats")} - before

    process = subprocess.Popen(
        [*COMMAND, "projections", "rebuild", "stats"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    generation: int | None = None
    try:
        # Let it run a few milliseconds at a time from its start, and look while it is
        # stopped: a rebuild of GAMES resigned games may otherwise finish between two looks on
        # a busy machine, or before its generation is seen at all.
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            process.send_signal(signal.SIGSTOP)
            if generation is None and (found := views_now(url) - before):
                (generation,) = found
            if generation is not None and (counted_now(url, generation) or 0) >= 1:
                break
            process.send_signal(signal.SIGCONT)
            time.sleep(0.003)
    finally:
        process.kill()
        process.wait()
    if generation is None:
        (generation,) = new()
    return generation


def adds_up(row: dict[str, Any]) -> bool:
    return bool(row["finished"] == row["games"] + row["left_out"] + row["games_behind"])


def test_a_rebuild_killed_part_way_is_finished_by_the_runner_and_the_counts_add_up(app: Chronicle) -> None:
    resigned_games(app, GAMES)
    catalog = Catalog(app.url)
    first = rebuild(app.url)
    stopped = killed_rebuild(app.url, catalog)
    rows = {row["generation"]: row for row in status(app=app)}
    assert rows[stopped]["state"] == "building" and 1 <= rows[stopped]["games"] < GAMES
    assert rows[stopped]["finished"] == rows[first]["finished"] == GAMES
    assert all(adds_up(row) for row in rows.values())

    host = ProjectionHost(app.url, poll=0.05).start()
    try:
        until(lambda: catalog.active("stats") == stopped)
    finally:
        host.stop()
    assert host.error is None
    rows = {row["generation"]: row for row in status(app=app)}
    assert rows[stopped]["state"] == "active" and rows[stopped]["games"] == GAMES
    assert rows[stopped]["caught_up"] and all(adds_up(row) for row in rows.values())
    assert "building" not in {row["state"] for row in rows.values()}

    # Another rebuild stopped part-way, then one that finishes: the abandoned generation is
    # dropped, and were its process still running it could not take readers back to it.
    abandoned = killed_rebuild(app.url, catalog)
    latest = rebuild(app.url)
    generations = dict(catalog.generations("stats"))
    assert abandoned not in generations and generations[latest] == "active"
    catalog.activate("stats", abandoned)
    assert catalog.active("stats") == latest
