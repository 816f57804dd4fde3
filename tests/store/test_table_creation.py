"""Processes opening a fresh PostgreSQL schema at the same moment all open it: table creation
is safe to race (store/postgres.py). Without the lock, most rounds end with one process dying
on `UniqueViolation ... pg_type_typname_nsp_index` or `tuple concurrently updated`."""

from __future__ import annotations

import multiprocessing
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from tests.conftest import POSTGRES

PROCESSES = 4
ROUNDS = 2


def open_everything(url: str, barrier: Any) -> str:
    """Open the store, the views' catalog and a view generation, as a starting server does."""
    from projections.runner import Catalog, close_view, open_view
    from store.app import Chronicle

    barrier.wait(timeout=60)
    try:
        Chronicle(url).close()
        Catalog(url)
        close_view(open_view(url, "stats", 1))
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return "opened"


@pytest.mark.postgres
def test_processes_opening_a_fresh_schema_together_all_open_it(postgres_url: str) -> None:
    # `postgres_url` checks that the server answers; each round takes a fresh schema of its own
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(PROCESSES) as pool:
        for _round in range(ROUNDS):
            schema = f"t_{uuid4().hex}"
            with psycopg.connect(POSTGRES, autocommit=True) as connection:
                connection.execute(f'CREATE SCHEMA "{schema}"')
            try:
                barrier = manager.Barrier(PROCESSES)
                url = f"{POSTGRES}?schema={schema}"
                results = pool.starmap(open_everything, [(url, barrier)] * PROCESSES, chunksize=1)
            finally:
                with psycopg.connect(POSTGRES, autocommit=True) as connection:
                    connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
            assert results == ["opened"] * PROCESSES
