"""Fixtures of the API tests: an application on each store (`store_url`, tests/conftest.py)
and a test client over it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, Api


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


@pytest.fixture(scope="module")
def module_api(module_store_url: str) -> Iterator[Api]:
    """`api` shared by a module's tests (`module_store_url`)."""
    app = Chronicle(module_store_url, admin_token=ADMIN_TOKEN)
    try:
        with TestClient(create_app(app)) as test_client:
            yield Api(test_client, app)
    finally:
        app.close()
