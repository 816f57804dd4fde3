"""The hash chain over each game's events (store/chain.py), on both stores: stamped as events
are saved, served to whoever sees the stored events whole, and checked by the audit, which
now also sees edits the rules never re-decide (a timestamp, a retraction's reason)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.events import ActionRecorded
from domain.ruleset import get_ruleset
from store import chain
from store.app import ADMIN, Chronicle, NewGame
from store.audit import audit_game
from tests.api.support import bearer, play_to_end
from tests.store.tampering import FACT, RETRACTION, Event, StoredRows, record_game

NDJSON = "application/x-ndjson"


def _province(app: Chronicle, mode: str, key: str, cap: int = 14) -> UUID:
    ruleset = get_ruleset("province")
    assert ruleset is not None
    return record_game(app, ruleset, mode, key, {}, cap).game_id


def _rows(app: Chronicle, game_id: UUID) -> list[chain.Record]:
    return chain.records_of_rows(app.recorder.select_events(game_id))


def test_the_digest_of_an_event_is_the_documented_formula() -> None:
    game = UUID(int=1)
    fields = {"timestamp": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}, "seq": 1}
    text = (
        "chronicle-chain-v1\n" + "0" * 64 + "\n" + game.hex + "\n2\nchronicle:ActionRecorded\n"
        '{"seq":1,"timestamp":{"_data_":"2026-01-02T03:04:05+00:00","_type_":"datetime_iso"}}'
    )
    expected = hashlib.sha256(text.encode()).hexdigest()
    assert chain.link(chain.GENESIS, game, 2, "chronicle:ActionRecorded", fields) == expected
    assert (
        chain.link(chain.GENESIS, game, 2, "chronicle:ActionRecorded", {**fields, "chain": "x"}) == expected
    )
    assert chain.link(expected, game, 2, "chronicle:ActionRecorded", fields) != expected


def test_every_stored_event_carries_the_digest_that_covers_the_one_before(app: Chronicle) -> None:
    game_id = _province(app, "digital", "chain stamped")
    records = _rows(app, game_id)
    digests = chain.digests(game_id, records)
    assert [r.fields["chain"] for r in records] == digests
    assert len(set(digests)) == len(records) > 20
    report = audit_game(app, game_id, ADMIN)
    assert report.clean and report.chain is not None and report.chain.intact
    assert report.chain.head == digests[-1] and report.chain.stored == len(records)


def test_the_digests_are_served_to_who_sees_the_stored_events_whole(app: Chronicle) -> None:
    created = app.create_game(NewGame(ruleset="province", players=["Ann", "Ben"]))
    game_id = UUID(created.game_id)
    digests = chain.digests(game_id, _rows(app, game_id))
    path = f"/games/{game_id}/events"
    with TestClient(create_app(app)) as client:
        recorder = client.get(path, headers=bearer(created.recorder_token)).json()["events"]
        assert [e["digest"] for e in recorder] == digests
        lines = client.get(path, headers={"accept": NDJSON, **bearer(created.recorder_token)}).text
        assert [json.loads(line)["digest"] for line in lines.splitlines()] == digests
        # a digest over hidden facts would let a seat or the public test guesses of them
        for token in (None, created.seat_tokens["A"]):
            assert {e["digest"] for e in client.get(path, headers=bearer(token)).json()["events"]} == {None}
        play_to_end(app, game_id)
        finished = chain.digests(game_id, _rows(app, game_id))
        assert [e["digest"] for e in client.get(path).json()["events"]] == finished
        assert finished[: len(digests)] == digests  # what a reader noted stays the record's


def _tampered(app: Chronicle, game_id: UUID, index: int, event: Event) -> tuple[str, int, str]:
    rows = StoredRows(app)
    try:
        original = rows.read(game_id)
        events = list(original)
        events[index] = event
        rows.rewrite(game_id, events, index + 1)
        report = audit_game(app, game_id, ADMIN)
        rows.rewrite(game_id, original, index + 1)
    finally:
        rows.close()
    assert report.divergence is not None and report.chain is not None
    assert audit_game(app, game_id, ADMIN).clean
    return report.divergence.code, report.divergence.version, report.divergence.rule


def test_a_timestamp_or_a_reason_edited_breaks_the_chain_where_it_lies(app: Chronicle) -> None:
    game_id = _province(app, "physical", "chain reason")
    events = StoredRows(app)
    try:
        stored = events.read(game_id)
    finally:
        events.close()
    fact = next(i for i, e in enumerate(stored) if e.topic == FACT and i > 5)
    stamp = dict(stored[fact].body["timestamp"], _data_="1999-01-01T00:00:00+00:00")
    assert _tampered(app, game_id, fact, stored[fact].edited(timestamp=stamp)) == (
        "chain_broken",
        fact + 1,
        "records 3.1",
    )
    retraction = next(i for i, e in enumerate(stored) if e.topic == RETRACTION)
    edited = stored[retraction].edited(reason="it was never entered")
    assert _tampered(app, game_id, retraction, edited)[:2] == ("chain_broken", retraction + 1)
    # the last event without its digest: nothing after it could show the edit otherwise
    last = len(stored) - 1
    body = {k: v for k, v in stored[last].body.items() if k != "chain"}
    assert _tampered(app, game_id, last, Event(stored[last].topic, body))[:2] == ("chain_broken", last + 1)


def test_a_forger_who_rewrites_every_later_digest_still_changes_the_head(app: Chronicle) -> None:
    game_id = _province(app, "physical", "chain forger")
    before = audit_game(app, game_id, ADMIN)
    assert before.chain is not None
    rows = StoredRows(app)
    try:
        original = rows.read(game_id)
        index = next(i for i, e in enumerate(original) if e.topic == FACT and i > 8)
        events = list(original)
        events[index] = original[index].edited(
            timestamp=dict(original[index].body["timestamp"], _data_="2001-02-03T04:05:06+00:00")
        )
        previous = original[index - 1].body["chain"]
        for i in range(index, len(events)):  # the careful forger recomputes the chain from there
            body = {k: v for k, v in events[i].body.items() if k != "chain"}
            previous = chain.link(previous, game_id, i + 1, events[i].topic, body)
            events[i] = Event(events[i].topic, {**body, "chain": previous})
        rows.rewrite(game_id, events, index + 1)
        after = audit_game(app, game_id, ADMIN)
        rows.rewrite(game_id, original, index + 1)
    finally:
        rows.close()
    assert after.clean and after.chain is not None and after.chain.intact
    assert after.chain.head != before.chain.head  # whoever kept the head sees the edit


def test_a_game_stored_before_the_chain_gets_digests_from_its_next_event_on(app: Chronicle) -> None:
    game_id = _province(app, "physical", "chain legacy", cap=8)
    rows = StoredRows(app)
    try:
        stored = rows.read(game_id)
        bare = [Event(e.topic, {k: v for k, v in e.body.items() if k != "chain"}) for e in stored]
        rows.rewrite(game_id, bare)
    finally:
        rows.close()
    app = Chronicle(app.url)  # no cached aggregate remembers the old digests
    try:
        report = audit_game(app, game_id, ADMIN)
        assert report.chain is not None and report.chain.intact and report.chain.stored == 0
        game = app.game(game_id)
        ruleset = game.ruleset
        seat = ruleset.pending(game.state)[0].seat
        action = ruleset.legal_actions(game.state, seat)[0]
        app.record(game_id, ruleset.codec.encode(action), ADMIN, seat=seat)
        records = _rows(app, game_id)
        assert records[-1].fields["chain"] == chain.digests(game_id, records)[-1]
        report = audit_game(app, game_id, ADMIN)
        assert report.chain is not None and report.chain.intact and report.chain.stored >= 1
    finally:
        app.close()


def test_the_digest_is_stored_last_in_the_event_json(app: Chronicle) -> None:
    event = ActionRecorded(  # type: ignore[call-arg]
        originator_id=UUID(int=1),
        originator_version=2,
        timestamp=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        seq=1,
        action={"kind": "EndTurn"},
        seat="A",
        by="seat",
        action_id="x1",
    )
    chain.stamp(chain.GENESIS, [event])
    stored = app.mapper.to_stored_event(event).state
    body = (
        b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-01-02T03:04:05+00:00"},'
        b'"seq":1,"action":{"kind":"EndTurn"},"seat":"A","by":"seat","action_id":"x1","chain":"'
    )
    assert stored.startswith(body) and stored.endswith(b'"}')
    fields = json.loads(stored)
    assert stored[len(body) : -2].decode() == chain.link(
        chain.GENESIS, UUID(int=1), 2, "chronicle:ActionRecorded", fields
    )


@pytest.mark.parametrize("ruleset_id", ["province", "dynasties"])  # a Dynasties table starts with one event
def test_a_process_that_did_not_write_the_last_event_chains_onto_the_stored_one(
    app: Chronicle, ruleset_id: str
) -> None:
    """Another server process appended last (or this one restarted): the digest of the event
    before is read from the store, also when the stream holds its creation alone."""
    created = app.create_game(NewGame(ruleset_id, ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    for _ in range(2):
        other = Chronicle(app.url)
        try:
            game = other.game(game_id)
            prompt = game.ruleset.pending(game.state)[0]
            action = game.ruleset.legal_actions(game.state, prompt.seat)[0]
            other.record(game_id, game.ruleset.codec.encode(action), ADMIN, seat=prompt.seat)
        finally:
            other.close()
    records = _rows(app, game_id)
    assert len(records) > 2
    assert [r.fields["chain"] for r in records] == chain.digests(game_id, records)
    report = audit_game(app, game_id, ADMIN)
    assert report.chain is not None and report.chain.intact


def test_only_an_action_s_or_a_fact_s_event_is_digested_as_plain_for_a_plain_ruleset() -> None:
    """A ruleset whose actions and facts encode as plain JSON (`Codec.plain`) has its actions'
    and facts' events digested without a look for floats; any other event, whose fields the
    ruleset's codec does not make (an outcome), is still looked at, and digested as documented."""
    from domain.events import FactRecorded, GameFinished

    made_by: dict[str, Any] = {"fact": FactRecorded, "finished": GameFinished}  # the library's metaclass
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    game = UUID(int=7)

    def made() -> list[object]:
        fact = made_by["fact"](originator_id=game, originator_version=2, timestamp=at, fact={"n": 1})
        finished = made_by["finished"](
            originator_id=game, originator_version=3, timestamp=at, outcome={"score": 1e16}, server_seed=""
        )
        return [fact, finished]

    plain, looked_at = made(), made()
    assert chain.stamp(chain.GENESIS, plain, True) == chain.stamp(chain.GENESIS, looked_at, False)
    records = chain.records_of(plain)
    assert chain.check(game, records).intact  # as recomputed with json.dumps, floats and all
    assert [r.fields[chain.KEY] for r in records] == chain.digests(game, records)
