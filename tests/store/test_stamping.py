"""The writer process gives each game event its digest in the hash chain (store/stamping.py):
the chain it writes is the one the audit recomputes, over the very bytes the library's mapper
stores, and each digest follows the stored event before it, whether that was stored long ago,
before the chain existed, earlier in the same transaction, or by another process meanwhile."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import Mapper, StoredEvent

from domain.events import ActionRecorded, FactRecorded
from store import chain, stamping
from store.app import RECORDER, Chronicle, NewGame
from store.group_commit import Append, GroupCommitSQLiteRecorder
from store.stamping import Stamper
from tests.store.test_writer_process import OPENING, served

FACT = FactRecorded.TOPIC
WHEN = b'"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-02T03:04:05+00:00"}'


def fact(n: Any) -> bytes:
    return b'{%s,"fact":{"kind":"Moved","n":%s}}' % (WHEN, json.dumps(n).encode())


def rows(stream: UUID, *versions: int, value: Any = 1) -> list[tuple[str, int, str, bytes]]:
    return [(stream.hex, v, FACT, fact(value)) for v in versions]


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/stamping.sqlite3"


@pytest.fixture
def store(url: str) -> Iterator[Chronicle]:
    with closing(Chronicle(url)) as chronicle:
        yield chronicle


def chain_of(store: Chronicle, stream: UUID) -> chain.ChainCheck:
    return chain.check(stream, chain.records_of_rows(store.recorder.select_events(stream)))


def test_a_game_recorded_through_the_writer_carries_the_chain_the_audit_recomputes(url: str) -> None:
    with closing(Chronicle(url, writer_process=True)) as app:
        game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)

        async def play() -> None:
            for action in OPENING:
                await app.record_async(game_id, action, RECORDER)

        asyncio.run(play())
        stored = app.recorder.select_events(game_id)
        checked = chain_of(app, game_id)
        assert checked.intact and checked.stored == checked.events == len(stored) > 4
        library: Mapper[Any] = Mapper(transcoder=app.mapper.transcoder)
        topics = set()
        for row in stored:
            event = app.mapper.to_domain_event(row)
            topics.add(type(event))
            # the bytes the library's mapper writes for the event, digest and all, digest last
            assert library.to_stored_event(event).state == row.state
            digest = chain.digest_of(event)
            assert digest is not None and row.state.endswith(b',"chain":"%s"}' % digest.encode())
        assert {ActionRecorded, FactRecorded} <= topics
        assert app.game(game_id).version == stored[-1].originator_version


def test_appends_of_one_game_in_one_transaction_follow_each_other(url: str, store: Chronicle) -> None:
    game = uuid4()
    answers = served(url, [[rows(game, 1, 2), rows(game, 3)], [rows(game, 4, value=0.5)]])
    assert [a[0] for batch in answers for a in batch] == ["ok", "ok", "ok"]
    checked = chain_of(store, game)
    assert checked.intact and checked.stored == checked.events == 4


def test_a_clash_in_a_batch_leaves_the_other_appends_stamped_from_what_is_stored(
    url: str, store: Chronicle
) -> None:
    taken, free = uuid4(), uuid4()
    served(url, [[rows(taken, 1, 2), rows(free, 1)]])
    before = [e.state for e in store.recorder.select_events(taken)]
    # the refused append's events are not followed: the next one of its game follows the stored
    answers = served(url, [[rows(free, 2), rows(taken, 2, value=7), rows(taken, 3), rows(free, 3)]])
    assert [a[0] for a in answers[0]] == ["ok", "error", "ok", "ok"]
    assert [e.state for e in store.recorder.select_events(taken)][:2] == before
    for stream in (taken, free):
        checked = chain_of(store, stream)
        assert checked.intact and checked.stored == checked.events == 3


def test_an_event_stored_before_the_chain_is_covered_by_the_first_digest_after_it(
    url: str, store: Chronicle
) -> None:
    game = uuid4()
    store.recorder.insert_events([StoredEvent(game, 1, FACT, fact(1)), StoredEvent(game, 2, FACT, fact(2))])
    served(url, [[rows(game, 3)]])
    checked = chain_of(store, game)
    assert checked.intact and (checked.events, checked.stored) == (3, 1)
    # the digest covers the two before it: the first one edited breaks the chain there
    records = chain.records_of_rows(store.recorder.select_events(game))
    records[0].fields["fact"]["n"] = 9
    assert chain.check(game, records).broken_at == 3


def test_events_of_other_streams_are_stored_as_sent(url: str, store: Chronicle) -> None:
    stream = uuid4()
    served(url, [[[(stream.hex, 1, "test:Event", b'{"a":1}')]]])
    assert [e.state for e in store.recorder.select_events(stream)] == [b'{"a":1}']


def test_a_batch_written_again_append_by_append_is_stamped_append_by_append(store: Chronicle) -> None:
    recorder = store.recorder
    assert isinstance(recorder, GroupCommitSQLiteRecorder)
    recorder.prepare = Stamper()
    good, bad = uuid4(), uuid4()
    unreadable = StoredEvent(bad, 1, FACT, b"{not json}")
    batch = [
        Append([StoredEvent(good, 1, FACT, fact(1))], {}),
        Append([unreadable], {}),
        Append([StoredEvent(good, 2, FACT, fact(2))], {}),
    ]
    recorder._write_batch(batch)
    assert [a.error is None for a in batch] == [True, False, True]
    assert recorder.select_events(bad) == []
    checked = chain_of(store, good)
    assert checked.intact and checked.stored == checked.events == 2


@pytest.mark.parametrize("state", [b'{"chain":"ab","a":1}', b"{}", b"[1]", b'{"a":1} '])
def test_only_an_object_without_a_digest_is_stamped(state: bytes) -> None:
    with pytest.raises(ValueError, match="without its digest"):
        chain.stamped(chain.GENESIS, StoredEvent(uuid4(), 1, FACT, state))


def test_a_digest_kept_in_a_stored_event_is_read_whatever_else_it_holds() -> None:
    assert chain.kept_digest(b'{"a":NaN,"chain":"ab"}') == "ab"  # JSON only the library writes
    assert chain.kept_digest(b'{"a":1,"chain":"cd"}') == "cd"
    assert chain.kept_digest(b'{"a":1}') is None
    assert chain.kept_digest(b'{"chain":1}') is None


@pytest.mark.parametrize(
    "value",
    [
        0.5,
        1e16,
        2**70,
        -(2**70),
        float("nan"),
        float("inf"),
        "Zoë 😀",
        [1.0, {"b": None}],
        [0.5, float("nan")],
    ],
)
def test_a_stored_value_is_digested_as_the_audit_reads_it(value: Any) -> None:
    state = b'{%s,"fact":%s}' % (WHEN, json.dumps({"kind": "Moved", "v": value}).encode())
    game = uuid4()
    event, digest = chain.stamped(chain.GENESIS, StoredEvent(game, 1, FACT, state))
    assert digest == chain.link(chain.GENESIS, game, 1, FACT, json.loads(state))
    assert json.loads(event.state) == {**json.loads(state), chain.KEY: digest} or value != value


def written(recorder: GroupCommitSQLiteRecorder, stamper: Stamper, *appends: list[StoredEvent]) -> list[bool]:
    """Each append's success, written as one batch stamped by `stamper`."""
    batch = [Append(events, {}) for events in appends]
    recorder._write_batch(batch)
    stamper.written(batch)
    return [append.error is None for append in batch]


def facts(stream: UUID, *versions: int, value: Any = 1) -> list[StoredEvent]:
    return [StoredEvent(stream, v, FACT, fact(value)) for v in versions]


@pytest.fixture
def stamped_store(store: Chronicle) -> tuple[GroupCommitSQLiteRecorder, Stamper]:
    recorder = store.recorder
    assert isinstance(recorder, GroupCommitSQLiteRecorder)
    recorder.prepare = stamper = Stamper()
    return recorder, stamper


def test_a_committed_head_is_followed_without_reading_the_store(
    store: Chronicle, stamped_store: tuple[GroupCommitSQLiteRecorder, Stamper]
) -> None:
    recorder, stamper = stamped_store
    game = uuid4()
    assert written(recorder, stamper, facts(game, 1, 2)) == [True]
    kept = chain.kept_digest(recorder.select_events(game)[-1].state)
    assert kept is not None and stamper.committed == {game.hex: (2, kept)}
    # the stored head edited behind the writer's back: the next event follows the one it wrote
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            "UPDATE stored_events SET state = replace(state, ?, ?) WHERE originator_version = 2",
            (kept.encode(), b"0" * 64),
        )
    assert written(recorder, stamper, facts(game, 3)) == [True]
    rows = recorder.select_events(game)
    assert chain.kept_digest(rows[-1].state) == chain.link(kept, game, 3, FACT, json.loads(fact(1)))
    assert chain_of(store, game).broken_at == 2  # the edit, and nothing after it


def test_an_append_refused_beside_a_committed_one_of_its_version_leaves_the_committed_head(
    store: Chronicle, stamped_store: tuple[GroupCommitSQLiteRecorder, Stamper]
) -> None:
    recorder, stamper = stamped_store
    game = uuid4()
    assert written(recorder, stamper, facts(game, 1), facts(game, 1, value=2)) == [True, False]
    assert written(recorder, stamper, facts(game, 2)) == [True]
    checked = chain_of(store, game)
    assert checked.intact and checked.stored == checked.events == 2


def test_an_append_after_another_process_appended_follows_the_stored_head(
    store: Chronicle, stamped_store: tuple[GroupCommitSQLiteRecorder, Stamper]
) -> None:
    recorder, stamper = stamped_store
    game = uuid4()
    assert written(recorder, stamper, facts(game, 1)) == [True]
    assert written(recorder, Stamper(), facts(game, 2, value=5)) == [True]  # as another process
    assert written(recorder, stamper, facts(game, 2), facts(game, 3)) == [False, True]
    checked = chain_of(store, game)
    assert checked.intact and checked.stored == checked.events == 3


def test_the_writer_remembers_the_heads_of_the_latest_streams_only(
    monkeypatch: pytest.MonkeyPatch, stamped_store: tuple[GroupCommitSQLiteRecorder, Stamper]
) -> None:
    recorder, stamper = stamped_store
    monkeypatch.setattr(stamping, "HEADS_KEPT", 2)
    games = [uuid4() for _ in range(3)]
    assert written(recorder, stamper, *(facts(game, 1) for game in games)) == [True] * 3
    assert list(stamper.committed) == [games[1].hex, games[2].hex]
    assert written(recorder, stamper, facts(games[1], 2)) == [True]
    assert list(stamper.committed) == [games[2].hex, games[1].hex]


def test_an_append_of_other_events_and_game_events_stores_them_all(
    store: Chronicle, stamped_store: tuple[GroupCommitSQLiteRecorder, Stamper]
) -> None:
    recorder, stamper = stamped_store
    game = uuid4()
    other = StoredEvent(game, 1, "test:Event", b'{"a":1}')
    assert written(recorder, stamper, [other, *facts(game, 2, 3)]) == [True]
    rows = recorder.select_events(game)
    assert [row.state for row in rows][:1] == [b'{"a":1}']
    assert [chain.kept_digest(row.state) is not None for row in rows] == [False, True, True]
