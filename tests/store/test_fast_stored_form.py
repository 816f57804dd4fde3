"""The recording path writes its hot events with msgspec (store/sealing.py) and digests them
with msgspec (store/chain.py): both must give exactly the bytes the library's JSON transcoder
and `json.dumps` give, for every event every game writes, or old digests would stop matching
and stored rows would change. Seeded bot games of every ruleset, checked event by event."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import Mapper

from domain.events import ActionRecorded, FactRecorded
from domain.ruleset import all_rulesets
from store import chain
from store.app import Chronicle
from store.sealing import PLAIN_EVENTS, SealingMapper
from store.simulation import play


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chronicle]:
    path: Path = tmp_path_factory.mktemp("fast") / "games.sqlite3"
    with closing(Chronicle(f"sqlite:///{path}")) as app:
        yield app


def json_canonical(fields: dict[str, Any]) -> bytes:
    body = {k: v for k, v in fields.items() if k != chain.KEY}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.meta.id)
def test_every_recorded_event_is_stored_and_digested_as_the_library_and_json_would(
    app: Chronicle, ruleset: Any
) -> None:
    names = [f"P{i}" for i in range(ruleset.meta.min_players)]
    played = play(app, ruleset, "fast-form", 0, names, {}, cap=120)
    library: Mapper[Any] = Mapper(transcoder=app.mapper.transcoder)
    assert isinstance(app.mapper, SealingMapper)
    rows = list(app.recorder.select_events(played.game_id))
    plain = 0
    for row in rows:
        event = app.mapper.to_domain_event(row)
        assert library.to_stored_event(event).state == row.state
        assert app.mapper.to_stored_event(event).state == row.state
        # the form the writer process takes (store/writer_process.py)
        stored = (UUID(str(row.originator_id)).hex, row.originator_version, row.topic, row.state)
        assert app.mapper.to_row(event) == stored
        fields = json.loads(row.state)
        assert chain.canonical(fields) == json_canonical(fields)
        plain += type(event) in PLAIN_EVENTS
    assert plain > 20 and {ActionRecorded, FactRecorded} == PLAIN_EVENTS


@pytest.mark.parametrize(
    "value",
    [
        {"x": 1e16, "y": 0.5},  # floats: json writes 1e+16, msgspec 1e16
        {"z": 0.5, "a": "Zoë", "m": {"y": 1, "b": "ü"}},  # sorted and UTF-8 on json's way too
        {"n": float("inf")},
        {"k": {1: "an integer key", 2: "json sorts these as numbers"}},
        {"t": ("a", 1), "u": [None, True, "\u2028\x00\x1f\x7f é 😀"]},
        {"a": [{"b": ["c", [1, 2.5]]}], "z": "a float deep in lists and objects"},
        {"a": [{"b": {"c": {3: "an integer key deep inside"}}}]},
    ],
)
def test_a_value_outside_json_s_plain_subset_is_digested_by_json_itself(value: dict[str, Any]) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert chain.canonical(value) == expected


def test_only_json_s_plain_subset_is_taken_for_msgspec() -> None:
    deep = {"a": [{"b": ("c", [1, -2, True, None, {"d": "e"}])}], "f": {}}
    assert chain._plain(deep)
    assert not chain._plain({**deep, "g": [[[0.0]]]})
    assert not chain._plain({**deep, "g": [{"h": {None: 1}}]})
    assert not chain._plain({**deep, "g": {"h": b"bytes"}})
