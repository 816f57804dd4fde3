"""Fixtures of the API tests: every test runs once on SQLite and once on PostgreSQL.

The SQLite store is a file in the test's temporary directory. The PostgreSQL store is a fresh
schema (`t_<hex>`) in the `test` database of the local server, dropped after the test. Without
a reachable PostgreSQL server those runs are skipped, unless `CI` is set: then they fail, so a
CI run cannot pass by silently testing one store. `CHRONICLE_TEST_POSTGRES` names another
server.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from uuid import uuid4

import psycopg
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, Api

POSTGRES = os.environ.get("CHRONICLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@cache
def postgres_unreachable() -> str | None:
    try:
        with psycopg.connect(POSTGRES, connect_timeout=3):
            return None
    except psycopg.OperationalError as error:
        return str(error).strip() or "no answer"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('store')}/games.db"
        return
    reason = postgres_unreachable()
    if reason is not None:
        message = f"PostgreSQL at {POSTGRES} is unreachable: {reason}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    schema = f"t_{uuid4().hex}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def chronicle(store_url: str) -> Iterator[Chronicle]:
    app = Chronicle(store_url, admin_token=ADMIN_TOKEN)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def client(chronicle: Chronicle) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(chronicle)) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient[Litestar], chronicle: Chronicle) -> Api:
    return Api(client, chronicle)
