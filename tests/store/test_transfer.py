"""Export and import (store/transfer.py): a game carried from one store into another (an SQLite
file into each store under test, PostgreSQL included) reproduces every stored event, byte for
byte its fields and digests, and every read path, for every ruleset; and what would break the
record or leak a seed is refused before anything is stored."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.ruleset import get_ruleset
from replay_cli.main import main
from store import chain
from store.app import ADMIN, ANONYMOUS, Access, Chronicle
from store.audit import audit_game
from store.errors import Forbidden, InvalidRequest
from store.transfer import Format, GameExists, decode, encode, export_game, import_game
from tests.api.support import ADMIN_TOKEN, assert_problem, bearer
from tests.store.tampering import record_game

EXAMPLES = int(os.environ.get("CHRONICLE_PROPERTY_EXAMPLES", "1"))

# ruleset, mode, options, action cap: a finished digital game of each ruleset where a short one
# exists, and a running physical game of each
GAMES: list[tuple[str, str, dict[str, Any], int]] = [
    ("province", "digital", {}, 400),
    ("province", "physical", {}, 20),
    ("dominion", "physical", {}, 30),
    ("dynasties", "digital", {"victory_vt": 15}, 200),
    ("dynasties", "physical", {"victory_vt": 15}, 25),
    ("dominations", "digital", {"turns_per_age": 1}, 200),
    ("dominations", "physical", {"turns_per_age": 1}, 25),
]


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Chronicle]:
    app = Chronicle(f"sqlite:///{tmp_path}/source.sqlite3", admin_token=ADMIN_TOKEN)
    yield app
    app.close()


@pytest.fixture
def target(store_url: str) -> Iterator[Chronicle]:
    app = Chronicle(store_url, admin_token=ADMIN_TOKEN)
    yield app
    app.close()


def _record(app: Chronicle, ruleset_id: str, mode: str, options: dict[str, Any], cap: int, key: str) -> UUID:
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None
    return record_game(app, ruleset, mode, key, options, cap).game_id


def _read_paths(app: Chronicle, game_id: UUID) -> dict[str, Any]:
    """What every reader gets: events, the state at sampled versions, prompts, legal actions
    and the audit, for the omniscient eye, each seat and the public."""
    game = app.game(game_id)
    viewers = [ADMIN, ANONYMOUS, *(Access("seat", s) for s in game.config.seat_ids())]
    versions = sorted({1, game.version, *range(1, game.version + 1, max(1, game.version // 3))})
    found: dict[str, Any] = {}
    for access in viewers:
        key = f"{access.role}:{access.seat}"
        found[f"events {key}"] = msgspec.to_builtins(app.read_events(game_id, access))
        found[f"state {key}"] = [app.view(game_id, access, at) for at in versions]
        found[f"prompts {key}"] = app.prompts(game_id, access)
    found["legal"] = {s: app.legal_actions(game_id, ADMIN, s) for s in game.config.seat_ids()}
    report = audit_game(app, game_id, ADMIN)
    found["audit"] = (report.clean, report.actions, report.facts, report.retracted, report.chain)
    return found


@pytest.mark.parametrize(
    ("ruleset_id", "mode", "options", "cap"), GAMES, ids=[f"{r}-{m}" for r, m, *_ in GAMES]
)
def test_import_of_an_export_reproduces_every_event_and_every_read_path(
    source: Chronicle, target: Chronicle, ruleset_id: str, mode: str, options: dict[str, Any], cap: int
) -> None:
    for example in range(EXAMPLES):
        game_id = _record(source, ruleset_id, mode, options, cap, f"transfer {ruleset_id} {mode} {example}")
        exported = export_game(source, game_id, ADMIN)
        form: Format = "ndjson" if (example + len(ruleset_id) + len(mode)) % 2 else "json"
        imported = import_game(target, decode(encode(exported, form)))
        assert imported.head == exported.chain.head and imported.version == len(exported.events)
        again = export_game(target, game_id, ADMIN)
        assert encode(again, "json") == encode(exported, "json")
        assert chain.records_of_rows(target.recorder.select_events(game_id)) == chain.records_of_rows(
            source.recorder.select_events(game_id)
        )
        assert _read_paths(target, game_id) == _read_paths(source, game_id)
        if imported.status == "running":  # a physical game goes on where it was imported
            game = target.game(game_id)
            seat = game.ruleset.pending(game.state)[0].seat
            action = game.ruleset.legal_actions(game.state, seat)[0]
            recorder = target.access(game_id, imported.recorder_token)
            target.record(game_id, game.ruleset.codec.encode(action), recorder, seat=seat)
            assert audit_game(target, game_id, ADMIN).clean


def test_what_would_break_the_record_or_leak_a_seed_is_refused_before_anything_is_stored(
    source: Chronicle, target: Chronicle
) -> None:
    running = _record(source, "province", "digital", {}, 12, "transfer refused running")
    with pytest.raises(Forbidden) as refused:
        export_game(source, running, Access("seat", "A"))
    assert refused.value.code == "export_not_allowed"
    exported = export_game(source, running, ADMIN)
    assert "server_seed" not in json.dumps([e.fields for e in exported.events])
    _refused(target, exported, "game_running_digital")

    physical = _record(source, "province", "physical", {}, 15, "transfer refused edits")
    exported = export_game(source, physical, ADMIN)
    index = next(i for i, e in enumerate(exported.events) if e.topic == "chronicle:FactRecorded" and i > 6)
    fields = exported.events[index].fields
    edited = decode(encode(exported, "json"))
    edited.events[index].fields = {
        **fields,
        "timestamp": {**fields["timestamp"], "_data_": "2001-01-01T00:00:00+00:00"},
    }
    _refused(target, edited, "chain_broken")
    # the forger recomputes every digest: the audit still finds the illegal record
    action = next(i for i, e in enumerate(exported.events) if e.topic == "chronicle:ActionRecorded" and i > 6)
    forged = decode(encode(exported, "json"))
    forged.events[action].fields = {**forged.events[action].fields, "seq": 99}
    previous = forged.events[action - 1].fields["chain"]
    for event in forged.events[action:]:
        previous = chain.link(previous, physical, event.version, event.topic, event.fields)
        event.fields = {**event.fields, "chain": previous}
    forged.chain.head = previous
    _refused(target, forged, "export_unclean")
    assert not target.recorder.select_events(physical, limit=1)

    import_game(target, exported)
    with pytest.raises(GameExists):
        import_game(target, exported)


def _refused(app: Chronicle, exported: Any, code: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        import_game(app, exported)
    assert refused.value.code == code, refused.value.detail
    assert not app.recorder.select_events(UUID(exported.game_id), limit=1)


def test_the_commands_and_the_endpoints_carry_a_game_between_stores(
    source: Chronicle, target: Chronicle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = _record(source, "dynasties", "digital", {"victory_vt": 15}, 200, "transfer commands")
    path = tmp_path / "game.ndjson"
    assert (
        main(["export", str(game_id)[:8], "--format", "ndjson", "--out", str(path), "--store", source.url])
        == 0
    )
    assert main(["import", str(path), "--store", target.url]) == 0
    out = capsys.readouterr().out
    assert f"game      {game_id}  finished" in out and "recorder  " in out
    assert main(["import", str(path), "--store", target.url]) == 1
    assert "(game_exists)" in capsys.readouterr().err
    path.write_text("not an export\n")
    assert main(["import", str(path), "--store", target.url]) == 1
    error = capsys.readouterr().err.strip()
    assert error.startswith("chronicle: error: This is not a Chronicle export") and "\n" not in error
    assert main(["export", str(game_id), "--store", source.url]) == 0
    exported = capsys.readouterr().out

    assert main(["export", str(game_id), "--format", "bgstats", "--store", source.url]) == 0
    play = json.loads(capsys.readouterr().out)
    outcome = source.game(game_id).outcome
    assert outcome is not None
    seats = source.game(game_id).config.seats
    assert [p["name"] for p in play["players"]] == [s.name for s in seats]
    [scores] = [p["playerScores"] for p in play["plays"]]
    assert [(x["score"], x["winner"]) for x in scores] == [
        (str(outcome.scores[s.id]), s.id in outcome.winners) for s in seats
    ]
    assert play["plays"][0]["uuid"] == str(game_id) and play["plays"][0]["durationMin"] >= 0

    other = _record(source, "province", "physical", {}, 10, "transfer http")
    with (
        closing(Chronicle(target.url, admin_token=ADMIN_TOKEN)) as served,
        TestClient(create_app(served)) as client,
    ):
        body = client.get(f"/games/{game_id}/export").json()  # finished: anyone may export
        assert body == json.loads(exported)
        lines = client.get(f"/games/{game_id}/export", params={"format": "ndjson"}).text.splitlines()
        assert (
            json.loads(lines[0])["chain"]["head"] == body["chain"]["head"]
            and len(lines) == len(body["events"]) + 1
        )
        answer = client.post(
            "/games/import", json=json.loads(encode(export_game(source, other, ADMIN), "json"))
        )
        assert answer.status_code == 201, answer.text
        recorder = answer.json()["recorder_token"]
        assert_problem(client.get(f"/games/{other}/export"), 403, "export_not_allowed")
        bgstats = client.get(f"/games/{other}/export", params={"format": "bgstats"})
        assert_problem(bgstats, 400, "game_not_finished")
        assert client.get(f"/games/{other}/export", headers=bearer(recorder)).status_code == 200
        assert_problem(client.post("/games/import", json=body), 409, "game_exists")
        body["chain"]["head"] = "0" * 64
        body["game_id"] = str(UUID(int=7))
        assert_problem(client.post("/games/import", json=body), 400, "chain_broken")
