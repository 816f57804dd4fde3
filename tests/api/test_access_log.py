"""The access log (api/access_log.py): one JSON line per request with its method, path, status,
duration, size and client, and never a token, whether it came in a header or in a query."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from litestar.openapi.spec import Parameter
from litestar.testing import TestClient

from api.access_log import MASK, QUERY_SHOWN, shown_query
from api.app import create_app
from api.settings import EdgeSettings, SettingsError
from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN, Api, bearer


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_request_writes_one_line_and_no_token_reaches_it(chronicle: Chronicle, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    with TestClient(create_app(chronicle, settings=EdgeSettings(access_log=str(log)))) as client:
        api = Api(client, chronicle)
        game = api.create(token=ADMIN_TOKEN)
        seat = game.seat("A")
        read = client.get(f"/games/{game.id}", params={"token": seat, "at": 1, "seat_token": seat})
        assert read.status_code == 200
        resigned = client.post(f"/games/{game.id}/resign", json={"seat": "B"}, headers=bearer(game.recorder))
        assert resigned.status_code == 200
        client.get("/health", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert client.get("/games/nope").status_code == 404

    text = log.read_text()
    for secret in (seat, game.seat("B"), game.recorder, ADMIN_TOKEN):
        assert secret not in text
    entries = lines(log)
    assert [(e["method"], e["path"], e["status"]) for e in entries] == [
        ("POST", "/games", 201),
        ("GET", f"/games/{game.id}", 200),
        ("POST", f"/games/{game.id}/resign", 200),
        ("GET", "/health", 200),
        ("GET", "/games/nope", 404),
    ]
    assert entries[1]["query"] == f"token={MASK}&at=1&seat_token={MASK}"
    assert "query" not in entries[0]
    assert entries[1]["bytes"] == len(read.content)
    assert entries[2]["bytes"] == len(resigned.content)
    assert all(e["remote"] == "testclient" and e["duration_ms"] >= 0 for e in entries)
    assert all(e["time"].endswith("Z") and isinstance(e["pid"], int) for e in entries)


def test_the_values_shown_are_those_of_the_api_s_own_query_parameters(chronicle: Chronicle) -> None:
    # A parameter the API grows is masked until it is added to QUERY_SHOWN, on purpose.
    app = create_app(chronicle)
    taken = {
        parameter.name
        for item in (app.openapi_schema.paths or {}).values()
        for operation in (item.get, item.post, item.delete, item.put)
        if operation is not None
        for parameter in operation.parameters or []
        if isinstance(parameter, Parameter) and parameter.param_in == "query"
    }
    assert taken == QUERY_SHOWN
    assert not {name for name in QUERY_SHOWN if "token" in name or "key" in name}
    assert shown_query("ruleset=province&key=k%20x&token=") == f"ruleset=province&key={MASK}&token={MASK}"


def test_the_log_is_off_unless_asked_for_and_a_bad_destination_is_one_line(tmp_path: Path) -> None:
    assert EdgeSettings.from_env({}).access_log == "off"
    assert EdgeSettings.from_env({"CHRONICLE_ACCESS_LOG": "STDERR"}).access_log == "stderr"
    with pytest.raises(SettingsError, match="CHRONICLE_ACCESS_LOG takes stderr, off or a file"):
        EdgeSettings.from_env({"CHRONICLE_ACCESS_LOG": str(tmp_path / "missing" / "access.log")})
