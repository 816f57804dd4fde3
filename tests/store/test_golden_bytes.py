"""The stored bytes of every event type, pinned: changing them is a migration, never an accident.

Old streams must still load after any change, so a diff here needs an upcaster, not an edit.
The sealed secrets are these bytes encrypted; as stored before encryption they still load.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from domain.events import (
    ActionRecorded,
    ActionsRetracted,
    FactRecorded,
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameResigned,
    RetractionAnswered,
    RetractionRequested,
)
from store.app import Chronicle
from store.sealing import MARK, SEALED_TOPICS, SealingMapper
from store.secrets import GameSecrets

AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
GAME = UUID(int=1)
STAMP = b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-02T03:04:05+00:00"},'


def build(event_class: Any, **fields: Any) -> Any:
    """Events are dataclasses made by the library's metaclass, which type checkers cannot see."""
    return event_class(**fields)


CASES: list[tuple[Any, str, bytes]] = [
    (
        build(
            GameCreated,
            originator_id=GAME,
            originator_version=1,
            timestamp=AT,
            originator_topic="chronicle:Game",
            ruleset="province",
            ruleset_version="1",
            mode="digital",
            seats=[{"id": "A", "name": "Ann"}, {"id": "B", "name": "Ben"}],
            options={"goal_pool": "ks5"},
            client_seed="",
            commitment="ab",
            rng_algorithm="hmac-sha256-v1",
            tags=["club"],
        ),
        "chronicle:GameCreated",
        STAMP + b'"originator_topic":"chronicle:Game","ruleset":"province","ruleset_version":"1",'
        b'"mode":"digital","seats":[{"id":"A","name":"Ann"},{"id":"B","name":"Ben"}],'
        b'"options":{"goal_pool":"ks5"},"client_seed":"","commitment":"ab",'
        b'"rng_algorithm":"hmac-sha256-v1","tags":["club"]}',
    ),
    (
        build(
            ActionRecorded,
            originator_id=GAME,
            originator_version=2,
            timestamp=AT,
            seq=1,
            action={"kind": "EndTurn"},
            seat="A",
            by="seat",
            action_id="x1",
        ),
        "chronicle:ActionRecorded",
        STAMP + b'"seq":1,"action":{"kind":"EndTurn"},"seat":"A","by":"seat","action_id":"x1"}',
    ),
    (
        build(
            FactRecorded,
            originator_id=GAME,
            originator_version=3,
            timestamp=AT,
            fact={"type": "TurnStarted", "turn": 2, "player": "B"},
        ),
        "chronicle:FactRecorded",
        STAMP + b'"fact":{"type":"TurnStarted","turn":2,"player":"B"}}',
    ),
    (
        build(
            ActionsRetracted,
            originator_id=GAME,
            originator_version=5,
            timestamp=AT,
            seqs=[3, 4],
            by="seat",
            seat="A",
            reason="meant Gold",
            approvals=["B"],
        ),
        "chronicle:ActionsRetracted",
        STAMP + b'"seqs":[3,4],"by":"seat","seat":"A","reason":"meant Gold","approvals":["B"]}',
    ),
    (
        build(
            RetractionRequested,
            originator_id=GAME,
            originator_version=5,
            timestamp=AT,
            request_id="r1",
            seqs=[3, 4],
            seat="A",
            reason="meant Gold",
            needs=["B"],
        ),
        "chronicle:RetractionRequested",
        STAMP + b'"request_id":"r1","seqs":[3,4],"seat":"A","reason":"meant Gold","needs":["B"]}',
    ),
    (
        build(
            RetractionAnswered,
            originator_id=GAME,
            originator_version=6,
            timestamp=AT,
            request_id="r1",
            seat="B",
            approved=True,
        ),
        "chronicle:RetractionAnswered",
        STAMP + b'"request_id":"r1","seat":"B","approved":true}',
    ),
    (
        build(
            GameResigned,
            originator_id=GAME,
            originator_version=7,
            timestamp=AT,
            seat="B",
            by="seat",
            reason="called away",
        ),
        "chronicle:GameResigned",
        STAMP + b'"seat":"B","by":"seat","reason":"called away"}',
    ),
    (
        build(
            GameAbandoned,
            originator_id=GAME,
            originator_version=7,
            timestamp=AT,
            by="recorder",
            reason="the table broke up",
            server_seed="00ff",
        ),
        "chronicle:GameAbandoned",
        STAMP + b'"by":"recorder","reason":"the table broke up","server_seed":"00ff"}',
    ),
    (
        build(
            GameFinished,
            originator_id=GAME,
            originator_version=4,
            timestamp=AT,
            outcome={"scores": {"A": 1}},
            server_seed="00ff",
        ),
        "chronicle:GameFinished",
        STAMP + b'"outcome":{"scores":{"A":1}},"server_seed":"00ff"}',
    ),
    (
        build(
            GameSecrets.Created,
            originator_id=GAME,
            originator_version=1,
            timestamp=AT,
            originator_topic="chronicle:GameSecrets",
            game_id=str(GAME),
            server_seed="00ff",
            token_hashes={"recorder": "aa"},
        ),
        "chronicle:GameSecrets.Created",
        STAMP
        + b'"originator_topic":"chronicle:GameSecrets","game_id":"00000000-0000-0000-0000-000000000001",'
        b'"server_seed":"00ff","token_hashes":{"recorder":"aa"}}',
    ),
]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chronicle]:
    path: Path = tmp_path_factory.mktemp("golden") / "games.sqlite3"
    application = Chronicle(f"sqlite:///{path}")
    yield application
    application.close()


@pytest.mark.parametrize(("event", "topic", "stored"), CASES, ids=[c[1] for c in CASES])
def test_each_event_type_is_stored_as_exactly_these_bytes(
    app: Chronicle, event: Any, topic: str, stored: bytes
) -> None:
    record = app.mapper.to_stored_event(event)
    assert record.topic == topic
    if topic in SEALED_TOPICS:  # these bytes, encrypted (store/sealing.py)
        assert isinstance(app.mapper, SealingMapper) and app.mapper.sealer is not None
        assert record.state.startswith(MARK)
        assert app.mapper.sealer.decrypt(record.state[len(MARK) :]) == stored
    else:
        assert record.state == stored
    assert app.mapper.to_domain_event(record) == event


@pytest.mark.parametrize(("event", "topic", "stored"), CASES, ids=[c[1] for c in CASES])
def test_each_event_stored_before_secrets_were_encrypted_still_loads(
    app: Chronicle, event: Any, topic: str, stored: bytes
) -> None:
    record = StoredEvent(event.originator_id, event.originator_version, topic, stored)
    assert app.mapper.to_domain_event(record) == event
