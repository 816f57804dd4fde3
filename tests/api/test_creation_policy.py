"""Who may create games: anyone by default, or with `CHRONICLE_CREATE=token` the administrator
and the holders of a creation token (`CHRONICLE_CREATE_TOKENS`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from api.settings import EdgeSettings, Rate, SettingsError
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, assert_problem, bearer

BODY = {"ruleset": "province", "players": ["Ann", "Ben"]}
CLUB = "club-creation-token"


@pytest.fixture
def client(chronicle: Chronicle) -> Iterator[TestClient[Litestar]]:
    settings = EdgeSettings(create="token", create_tokens=(CLUB, "second-token"))
    with TestClient(create_app(chronicle, settings=settings)) as test_client:
        yield test_client


def games(client: TestClient[Litestar]) -> int:
    total: int = client.get("/games").json()["total"]
    return total


def test_with_creation_by_token_a_creation_token_or_the_administrator_creates_a_game(
    client: TestClient[Litestar],
) -> None:
    for token in (CLUB, "second-token", ADMIN_TOKEN):
        response = client.post("/games", json=BODY, headers=bearer(token))
        assert response.status_code == 201, response.text

    assert games(client) == 3


def test_with_creation_by_token_no_token_or_another_token_creates_nothing(
    client: TestClient[Litestar],
) -> None:
    seat_token = client.post("/games", json=BODY, headers=bearer(CLUB)).json()["seat_tokens"]["A"]

    assert_problem(client.post("/games", json=BODY), 401, "token_required")
    for token in (seat_token, "club-creation-token-2", CLUB[:-1]):
        assert_problem(client.post("/games", json=BODY, headers=bearer(token)), 403, "creation_not_allowed")
    assert games(client) == 1


def test_a_creation_token_does_not_fix_the_server_seed(client: TestClient[Litestar]) -> None:
    body = {**BODY, "server_seed": "00" * 32}

    assert_problem(client.post("/games", json=body, headers=bearer(CLUB)), 403, "admin_required")


def test_the_settings_come_from_the_environment() -> None:
    settings = EdgeSettings.from_env(
        {
            "CHRONICLE_CREATE": "token",
            "CHRONICLE_CREATE_TOKENS": " one, two ,,",
            "CHRONICLE_WRITE_LIMIT_TOKEN": "20/second",
            "CHRONICLE_WRITE_LIMIT_ADDRESS": "off",
            "CHRONICLE_REDIS": "redis://127.0.0.1:6379/3",
        }
    )

    assert settings == EdgeSettings(
        create="token",
        create_tokens=("one", "two"),
        token_rate=Rate(20, "second"),
        address_rate=None,
        redis_url="redis://127.0.0.1:6379/3",
    )
    assert EdgeSettings.from_env({}) == EdgeSettings()
    assert str(EdgeSettings().token_rate) == "6000/minute"


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"CHRONICLE_CREATE": "closed"}, "CHRONICLE_CREATE takes open or token"),
        ({"CHRONICLE_CREATE": "token"}, "needs CHRONICLE_CREATE_TOKENS or CHRONICLE_ADMIN_TOKEN"),
        ({"CHRONICLE_WRITE_LIMIT_TOKEN": "600"}, "CHRONICLE_WRITE_LIMIT_TOKEN takes COUNT/UNIT"),
        ({"CHRONICLE_WRITE_LIMIT_ADDRESS": "0/minute"}, "CHRONICLE_WRITE_LIMIT_ADDRESS takes COUNT/UNIT"),
        ({"CHRONICLE_WRITE_LIMIT_ADDRESS": "5/week"}, "CHRONICLE_WRITE_LIMIT_ADDRESS takes COUNT/UNIT"),
        ({"CHRONICLE_REDIS": "127.0.0.1:6379"}, "CHRONICLE_REDIS takes a redis:// URL"),
    ],
)
def test_a_setting_the_server_cannot_start_with_is_named(env: dict[str, str], names: str) -> None:
    with pytest.raises(SettingsError, match=names):
        EdgeSettings.from_env(env)


def test_creation_by_token_with_only_the_administrator_token_is_a_valid_setting() -> None:
    env = {"CHRONICLE_CREATE": "token", "CHRONICLE_ADMIN_TOKEN": "adm"}

    assert EdgeSettings.from_env(env).create == "token"
