"""A process holds at most its bound of PostgreSQL sessions (store/config.py,
store/postgres_pool.py): everything it opens on a store shares one pool of N - 1, the runner's
lease takes the last one; the bound comes from `?connections=N`, else
`CHRONICLE_PG_CONNECTIONS`, else the default, which lets twelve servers and a projections
runner share a default PostgreSQL."""

from __future__ import annotations

import os
from typing import Any

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder

from projections.runner import ProjectionHost, StatsReader, close_view, open_view, status
from projections.service import snapshot
from projections.views import Filters, PostgresStatsView
from store.app import Chronicle
from store.config import CONNECTIONS, MIN_CONNECTIONS, StoreConfigError, store_env
from store.postgres import shared_datastore
from tests.postgres_support import Sampler, sessions
from tests.projections.support import simulate

URL = "postgresql://chronicle@db:5432/chronicle?schema=games"


def pool_of(app: Chronicle) -> Any:
    recorder = app.recorder
    assert isinstance(recorder, PostgresApplicationRecorder)
    return recorder.datastore.pool


def pool_bounds(env: dict[str, str]) -> tuple[int, int]:
    """The fewest and the most sessions the environment's pool keeps."""
    least = int(env["POSTGRES_POOL_SIZE"])
    return least, least + int(env["POSTGRES_MAX_OVERFLOW"])


def test_a_default_postgresql_holds_twelve_servers_and_a_runner_with_room_to_spare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CHRONICLE_PG_CONNECTIONS", raising=False)
    available = 100 - 3  # PostgreSQL's default max_connections, less superuser_reserved_connections
    servers, runner, spare = 12, 1, 10  # spare: CLI commands, an administrator's psql
    held = (servers + runner) * CONNECTIONS
    assert held + spare <= available
    assert pool_bounds(store_env(URL)) == (1, CONNECTIONS - 1)  # and the lease's session


def test_the_bound_comes_from_the_url_else_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHRONICLE_PG_CONNECTIONS", raising=False)
    assert pool_bounds(store_env(URL + "&connections=9")) == (1, 8)
    monkeypatch.setenv("CHRONICLE_PG_CONNECTIONS", "5")
    assert pool_bounds(store_env(URL)) == (1, 4)
    assert pool_bounds(store_env(URL + "&connections=12")) == (1, 11)


@pytest.mark.parametrize("given", ["3", "0", "-6", "six", "4.5"])
def test_a_bound_too_small_or_not_a_number_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    with pytest.raises(
        StoreConfigError, match=rf"^\?connections= .*at least {MIN_CONNECTIONS}, not '{given}'$"
    ):
        store_env(f"{URL}&connections={given}")
    monkeypatch.setenv("CHRONICLE_PG_CONNECTIONS", given)
    with pytest.raises(StoreConfigError, match=r"^CHRONICLE_PG_CONNECTIONS takes a number of connections"):
        store_env(URL)


@pytest.mark.postgres
def test_what_a_process_opens_on_one_store_shares_one_pool_which_the_last_close_closes(
    postgres_url: str,
) -> None:
    app = Chronicle(postgres_url)
    view = open_view(postgres_url, "stats", 1)
    catalog = shared_datastore(postgres_url)
    pool = pool_of(app)
    assert isinstance(view, PostgresStatsView)
    assert view.datastore.pool is pool and catalog.pool is pool
    assert app.recorder.max_notification_id() is None
    app.close()
    app.close()  # closing twice gives back one share
    assert view.max_tracking_id("Chronicle") is None  # the others still read
    catalog.close()
    assert not pool.closed
    close_view(view)
    assert pool.closed
    assert sessions([os.getpid()]) == {os.getpid(): []}
    again = Chronicle(postgres_url)  # a store opened again gets a fresh pool
    try:
        assert pool_of(again) is not pool
        assert again.recorder.max_notification_id() is None
    finally:
        again.close()


@pytest.mark.postgres
def test_a_process_running_and_reading_the_view_holds_at_most_its_bound(postgres_url: str) -> None:
    bound = MIN_CONNECTIONS
    url = f"{postgres_url}&connections={bound}"
    app = Chronicle(url)
    sampler = Sampler([os.getpid()])
    sampler.start()
    host = ProjectionHost(url, poll=0.05).start()
    reader = StatsReader(app)
    try:
        simulate(app, 3)
        head = app.recorder.max_notification_id()
        read = snapshot(reader, Filters(), position=head, wait=30)
        assert read is not None and (read.caught_up, read.games) == (True, 3)
        assert [row["games"] for row in status(app=app)] == [3]
        sampler.stop()
    finally:
        sampler.stopping.set()
        host.stop()
        reader.close()
        app.close()
    most = sampler.most[os.getpid()]
    assert 2 <= most <= bound, sorted(sampler.names)
    pid = os.getpid()  # every session says whose it is: the pool's and the runner's lease's
    assert all(f"pid {pid} on " in name for _, name in sampler.names), sampler.names
    assert sessions([pid]) == {pid: []}  # all closed: none left behind
