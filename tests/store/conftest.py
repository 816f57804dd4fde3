"""The store tests' application: a `Chronicle` on the store under test (`store_url`: SQLite,
and PostgreSQL for tests that run on both), holding the administrator's token of
tests/api/support.py, closed after the test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing

import pytest

from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    with closing(Chronicle(store_url, admin_token=ADMIN_TOKEN)) as application:
        yield application
