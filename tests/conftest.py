"""Fixtures shared by every suite: the two real stores, and Redis.

`store_url` runs a test once on an SQLite file and once on PostgreSQL: a fresh schema
(`t_<hex>`) in the `test` database of the local server, dropped after the test. Without a
reachable PostgreSQL server those runs are skipped, unless `CI` is set: then they fail, so a
CI run cannot pass by silently testing one store. `CHRONICLE_TEST_POSTGRES` names another
server.

The store goes away last, after every fixture that uses it: a thread the test started (a
projection runner, a rebuild, a poller) that still runs then fails the test, after a grace
period, instead of writing into a dropped schema or a deleted file.

`redis_namespace` is the local Redis (`CHRONICLE_TEST_REDIS`, default
`redis://127.0.0.1:6379/0`), skipped or failed like PostgreSQL when it does not answer, with a
key namespace of the test's own, deleted after the test.

The longest tests run first (`SLOW_FIRST`): with `pytest -n 2` (`--dist worksteal`) a worker
that runs out of tests takes half of the other's queue, so the run ends on short tests and
neither worker waits long for the other.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from uuid import uuid4

import psycopg
import pytest
import redis

POSTGRES = os.environ.get("CHRONICLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CHRONICLE_TEST_REDIS", "redis://127.0.0.1:6379/0")
GRACE = 10.0  # seconds a thread left running gets to finish before its store goes away

# The files whose tests take longest, longest first (measured with --durations): each keeps its
# own order, so its module-scoped fixtures are still set up once.
SLOW_FIRST = (
    "tests/contract/test_rulesets.py",
    "tests/e2e/test_table_page.py",
    "tests/e2e/test_pages_fit.py",
    "tests/cli/test_stats.py",
    "tests/unit/dominations/test_dominations_playouts.py",
    "tests/cli/test_simulate_and_audit.py",
    "tests/projections/test_runner.py",
    "tests/cli/test_server_writes.py",
    "tests/cli/test_new_and_record.py",
    "tests/cli/test_server_mode.py",
    "tests/store/test_state_at_version.py",
    "tests/unit/dynasties/test_dynasties_cli.py",
    "tests/unit/dominion/test_dominion_interface.py",
    "tests/e2e/test_hidden_information_paths.py",
    "tests/cli/test_moving_a_store.py",
    "tests/cli/test_id_prefixes.py",
    "tests/store/test_store.py",
    "tests/cli/test_replay_app.py",
    "tests/cli/test_store_location.py",
    "tests/store/test_postgres_connections.py",
    "tests/e2e/test_many_servers.py",
    "tests/e2e/test_sqlite_shared_by_processes.py",
    "tests/api/test_fuzzing.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: place for place, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@cache
def postgres_unreachable() -> str | None:
    try:
        with psycopg.connect(POSTGRES, connect_timeout=3):
            return None
    except psycopg.OperationalError as error:
        return str(error).strip() or "no answer"


def _threads_left(before: set[threading.Thread]) -> list[str]:
    """The threads started since `before` that are still running after a grace period. Litestar
    leaves one logging listener per application running (it only moves log records): not ours."""
    left = [t for t in threading.enumerate() if t not in before and not t.name.endswith("(_monitor)")]
    for thread in left:
        thread.join(timeout=GRACE)
    return [t.name for t in left if t.is_alive()]


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A store URL on a fresh schema of the test database, dropped afterwards."""
    _unreachable("PostgreSQL", POSTGRES, postgres_unreachable())
    schema = f"t_{uuid4().hex}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    before = set(threading.enumerate())
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('store')}/games.db"
    else:
        with postgres_schema() as url:
            yield url
            left = _threads_left(before)
            assert not left, f"threads still running when the store goes away: {left}"
            return
    left = _threads_left(before)
    assert not left, f"threads still running when the store goes away: {left}"


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def module_store_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One store of each kind for a whole module, for tests that each leave it as they found
    it (refusals that write nothing) and so need no store of their own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('store')}/games.db"
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL store only, for what concerns PostgreSQL alone (mark the test `postgres`)."""
    with postgres_schema() as url:
        yield url


def _unreachable(what: str, url: str, reason: str | None) -> None:
    if reason is not None:
        message = f"{what} at {url} is unreachable: {reason}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@cache
def redis_unreachable() -> str | None:
    try:
        with redis.Redis.from_url(REDIS, socket_connect_timeout=3) as client:
            client.ping()
            return None
    except redis.RedisError as error:
        return str(error).strip() or "no answer"


@pytest.fixture
def redis_namespace() -> Iterator[tuple[str, str]]:
    """The Redis URL and a namespace of this test's own, emptied afterwards."""
    _unreachable("Redis", REDIS, redis_unreachable())
    namespace = f"chronicle-test-{uuid4().hex}"
    try:
        yield REDIS, namespace
    finally:
        with redis.Redis.from_url(REDIS) as client:
            keys = list(client.scan_iter(match=f"{namespace}*"))
            if keys:
                client.delete(*keys)
