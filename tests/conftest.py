"""Fixtures shared by every suite: the two real stores.

`store_url` runs a test once on an SQLite file and once on PostgreSQL (a fresh schema per
test, dropped afterwards). Without a reachable PostgreSQL the second run is skipped, except
under CI, where it fails: CI must prove both stores.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_DSN = os.environ.get("CHRONICLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _pg_connect() -> object:
    import psycopg

    return psycopg.connect(PG_DSN.replace("postgresql://", "postgresql://", 1), autocommit=True, connect_timeout=3)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/games.sqlite3"
        return
    try:
        conn = _pg_connect()
    except Exception as error:  # the server is simply not there
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL is not reachable: {error}")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    conn.execute(f"CREATE SCHEMA {schema}")  # type: ignore[attr-defined]
    try:
        yield f"{PG_DSN}?schema={schema}"
    finally:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[attr-defined]
        conn.close()  # type: ignore[attr-defined]
