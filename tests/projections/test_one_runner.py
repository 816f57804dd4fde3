"""One runner of the views at a time, on both stores: of several hosts on one store, the one
holding the runner's lease runs the views and the others stand by; when it stops another
takes over and the view goes on from its position, counting nothing twice."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest

from projections.lease import NAME_PREFIX, describe, holder
from projections.runner import ProjectionHost, StatsReader
from store.app import Chronicle
from tests.projections.support import resigned_games
from tests.projections.test_runner import figures, head, until


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    chronicle = Chronicle(store_url)
    yield chronicle
    chronicle.close()


def test_one_host_runs_the_views_and_another_takes_over_when_it_stops(app: Chronicle) -> None:
    resigned_games(app, 2)
    assert holder(app.url) is None
    first = ProjectionHost(app.url, poll=0.05, role="first").start()
    until(lambda: first.leading)
    second = ProjectionHost(app.url, poll=0.05, role="second").start()
    reader = StatsReader(app)
    try:
        until(lambda: second.leading is not None)
        assert second.leading is False and not second.runners  # standing by: nothing opened
        assert holder(app.url) == describe("first")
        assert reader.wait(head(app), timeout=30)
        before = figures(reader)

        first.stop()
        until(lambda: second.leading)
        assert holder(app.url) == describe("second")
        resigned_games(app, 1, names=("Cy", "Di"))
        assert reader.wait(head(app), timeout=30)
        view = reader.view()
        assert view is not None and view.count() == 3
        assert figures(reader) != before  # the third game is counted, once
    finally:
        first.stop()
        second.stop()
        reader.close()
    assert holder(app.url) is None
    assert first.error is None and second.error is None


@pytest.mark.postgres
def test_a_standby_asks_again_on_the_session_it_keeps(postgres_url: str) -> None:
    """Each poll of a standby is a query on its own session, not a new PostgreSQL backend."""
    conninfo = postgres_url.split("?", 1)[0]

    def runner_sessions() -> set[int]:
        with psycopg.connect(conninfo, autocommit=True) as pg:
            rows = pg.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name IN (%s, %s)",
                ((NAME_PREFIX + describe("first"))[:63], (NAME_PREFIX + describe("second"))[:63]),
            ).fetchall()
        return {int(row[0]) for row in rows}

    first = ProjectionHost(postgres_url, poll=0.02, role="first").start()
    second = ProjectionHost(postgres_url, poll=0.02, role="second").start()
    try:
        until(lambda: first.leading is not None and second.leading is not None)
        assert {first.leading, second.leading} == {True, False}
        sessions = runner_sessions()
        assert len(sessions) == 2
        time.sleep(0.3)  # some fifteen polls each
        assert runner_sessions() == sessions
    finally:
        first.stop()
        second.stop()
    until(lambda: runner_sessions() == set())  # the server lists a closed session a moment longer
