"""Opening a PostgreSQL store waits for the database with a growing pause, up to a bound, and
says so once; then it gives up with one clear error. A `?schema=NAME` that does not exist is
created, by whichever of the processes racing to open it first (store/postgres_ready.py)."""

from __future__ import annotations

import threading
from urllib.parse import urlparse

import pytest

from projections.runner import status
from store.app import Chronicle
from store.config import StoreConfigError, store_env
from store.errors import StoreUnavailable
from store.postgres_ready import ready
from tests.conftest import POSTGRES
from tests.e2e.support import free_port
from tests.postgres_support import missing_schema, schema_exists


def kwargs_of(url: str, port: int | None = None) -> dict[str, object]:
    parsed = urlparse(url)
    return {
        "host": parsed.hostname,
        "port": port or parsed.port or 5432,
        "dbname": parsed.path.lstrip("/"),
        "user": parsed.username,
        "password": parsed.password or "",
    }


class Clock:
    """Time that passes only while the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def test_a_database_that_never_answers_is_waited_for_with_a_growing_pause_then_one_error() -> None:
    port = free_port()  # nothing listens there: each attempt is refused at once
    clock, said = Clock(), list[str]()
    with pytest.raises(StoreUnavailable) as raised:
        ready(kwargs_of(POSTGRES, port), "games", 20, say=said.append, clock=clock, sleep=clock.sleep)
    assert clock.pauses == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 2.25]  # the last one up to the bound
    assert said == [
        f"chronicle: waiting up to 20 s for PostgreSQL at 127.0.0.1:{port}/test (Connection refused)"
    ]
    assert raised.value.code == "store_unavailable"
    assert raised.value.detail == (
        f"PostgreSQL at 127.0.0.1:{port}/test did not answer within 20 s (Connection refused); "
        "CHRONICLE_PG_WAIT sets how long to wait"
    )


def test_no_wait_at_all_fails_at_the_first_refusal_without_the_waiting_line() -> None:
    clock, said = Clock(), list[str]()
    with pytest.raises(StoreUnavailable, match="did not answer within 0 s"):
        ready(kwargs_of(POSTGRES, free_port()), "games", 0, say=said.append, clock=clock, sleep=clock.sleep)
    assert (clock.pauses, said) == ([], [])


@pytest.mark.parametrize("given", ["-1", "soon", "nan", "inf"])
def test_a_wait_that_is_not_a_number_of_seconds_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("CHRONICLE_PG_WAIT", given)
    with pytest.raises(
        StoreConfigError, match=rf"^CHRONICLE_PG_WAIT takes a number of seconds, 0 or more, not '{given}'$"
    ):
        store_env("postgresql://chronicle@db:5432/chronicle")


@pytest.mark.postgres
def test_a_missing_schema_is_created_when_the_store_is_opened() -> None:
    with missing_schema() as (name, url):
        app = Chronicle(url)
        try:
            assert schema_exists(name)
            assert app.recorder.max_notification_id() is None  # its tables are there too
        finally:
            app.close()


@pytest.mark.postgres
def test_the_statistics_status_of_a_missing_schema_creates_it_and_finds_no_views() -> None:
    with missing_schema() as (name, url):
        assert status(url) == []
        assert schema_exists(name)


@pytest.mark.postgres
def test_threads_racing_to_create_one_schema_all_find_it() -> None:
    with missing_schema() as (name, url):
        barrier, failures = threading.Barrier(6), list[Exception]()

        def open_it() -> None:
            barrier.wait(timeout=30)
            try:
                ready(kwargs_of(url), name, 5)
            except Exception as error:
                failures.append(error)

        threads = [threading.Thread(target=open_it) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert failures == []
        assert schema_exists(name)
