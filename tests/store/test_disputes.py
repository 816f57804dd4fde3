"""Disputes on both stores (store/disputes.py, store/verdict.py, store/evidence.py): the
engine's verdict over a range, rulings as events, the evidence bundle and its offline check,
which finds an edited event, a broken chain, a seed that is not the committed one and an edited
transcript; a running game's bundles hold only what their reader may see; disputes travel with
their game through export and import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest

from domain.ruleset import Command, Rejection
from store import chain, disputes, evidence
from store.app import ADMIN, RECORDER, Access, Chronicle, NewGame
from store.audit import audit_game
from store.errors import Forbidden, InvalidRequest, Unauthorized
from store.references import reference
from store.transfer import decode, encode, export_game, import_game
from tests.api.support import ADMIN_TOKEN
from tests.short_games import plan
from tests.store.disputed import battle_range, dynasties_with_battle


def _bundle(app: Chronicle, dispute_id: str, access: Access = ADMIN) -> dict[str, Any]:
    built: dict[str, Any] = msgspec.to_builtins(evidence.build(app, UUID(dispute_id), access))
    return built


def _verify(bundle: dict[str, Any]) -> evidence.Report:
    return evidence.verify(json.dumps(bundle).encode())


def test_a_dispute_over_a_dynasties_battle_re_decides_every_action_and_its_bundle_verifies(
    app: Chronicle,
) -> None:
    game_id = dynasties_with_battle(app)
    first, last = battle_range(app, game_id)
    shown = disputes.open_dispute(app, game_id, RECORDER, first, last, "the defender's cards were stacked")
    verdict = shown.verdict
    assert verdict.holds and verdict.random_checked
    actions = [e for e in app.stored_events(game_id, gt=first - 1, lte=last) if hasattr(e, "action")]
    assert [f.version for f in verdict.findings] == [e.originator_version for e in actions]
    assert all(f.verdict == "legal" and reference(f.rule.split()[0]) is not None for f in verdict.findings)
    assert sum(f.facts for f in verdict.findings) > 0
    assert shown.opened_by == "recorder" and shown.claim == "the defender's cards were stacked"

    ruled = disputes.rule(app, UUID(shown.dispute_id), RECORDER, "The deal stands.")
    assert [r.text for r in ruled.rulings] == ["The deal stands."]
    assert len(app.stored_events(UUID(shown.dispute_id))) == 2  # opened, ruled: its own stream
    assert [str(d) for d in disputes.disputes_of(app, game_id)] == [shown.dispute_id]

    bundle = _bundle(app, shown.dispute_id)
    assert bundle["form"] == "stored" and bundle["seed"] == app.game(game_id).revealed_seed
    assert bundle["game"]["ruleset_version"] == app.game(game_id).ruleset.meta.version
    report = _verify(bundle)
    assert report.ok, report.divergence
    assert report.unchecked == []
    assert report.verdict == verdict


def _edit_fact(bundle: dict[str, Any], version: int, change: Any) -> None:
    fields = bundle["events"][version - 1]["fields"]
    fields["fact"] = change(fields["fact"])


def _rechain(bundle: dict[str, Any]) -> None:
    """What a forger who rewrites every digest after an edit does."""
    game_id = UUID(bundle["game"]["game_id"])
    previous = chain.GENESIS
    for event in bundle["events"]:
        previous = chain.link(previous, game_id, event["version"], event["topic"], event["fields"])
        event["fields"]["chain"] = previous
    bundle["chain"]["head"] = previous


def test_verify_reports_the_first_divergence_of_a_tampered_bundle(app: Chronicle) -> None:
    game_id = dynasties_with_battle(app)
    first, last = battle_range(app, game_id)
    shown = disputes.open_dispute(app, game_id, ADMIN, first, last, "claim")
    clean = _bundle(app, shown.dispute_id)
    dealt = next(
        e["version"] for e in clean["events"] if e["fields"].get("fact", {}).get("type") == "BattleDealt"
    )

    def swap_cards(fact: dict[str, Any]) -> dict[str, Any]:
        return fact | {"attacker_cards": fact["defender_cards"][:2], "defender_cards": fact["attacker_cards"]}

    edited = json.loads(json.dumps(clean))
    _edit_fact(edited, dealt, swap_cards)
    report = _verify(edited)
    assert report.divergence is not None
    assert (report.divergence.check, report.divergence.version) == ("chain", dealt)

    # the forger recomputes the chain: the head changes from the one the dispute recorded
    forged = json.loads(json.dumps(edited))
    _rechain(forged)
    report = _verify(forged)
    assert report.divergence is not None
    opened_at = forged["dispute"]["game_version"]
    assert (report.divergence.check, report.divergence.version) == ("chain", opened_at)
    # ... and with that head forged too, the rules still see the edit
    forged["dispute"]["game_head"] = forged["chain"]["head"]
    report = _verify(forged)
    assert report.divergence is not None and report.divergence.check == "verdict"
    assert report.divergence.version is not None and report.divergence.version < dealt

    broken = json.loads(json.dumps(clean))
    broken["events"][5]["fields"]["chain"] = "0" * 64
    report = _verify(broken)
    assert report.divergence is not None and (report.divergence.check, report.divergence.version) == (
        "chain",
        6,
    )

    reseeded = json.loads(json.dumps(clean))
    reseeded["seed"] = "11" * 32
    report = _verify(reseeded)
    assert report.divergence is not None and report.divergence.check == "seed"

    transcript = json.loads(json.dumps(clean))
    transcript["verdict"]["findings"][1]["verdict"] = "illegal"
    report = _verify(transcript)
    assert report.divergence is not None
    assert report.divergence.check == "verdict"
    assert report.divergence.version == transcript["verdict"]["findings"][1]["version"]
    assert "'illegal'" in report.divergence.what and "'legal'" in report.divergence.what

    assert _verify(clean).ok


def test_verify_finds_a_bundle_cut_short_and_a_transcript_with_its_last_finding_dropped(
    app: Chronicle,
) -> None:
    game_id = dynasties_with_battle(app)
    first, last = battle_range(app, game_id)
    shown = disputes.open_dispute(app, game_id, ADMIN, first, last, "claim")
    clean = _bundle(app, shown.dispute_id)
    stored = app.stored_events(game_id)
    assert clean["dispute"]["game_head"] == chain.digest_of(stored[-1]) == clean["chain"]["head"]
    assert shown.game_head == clean["dispute"]["game_head"]
    assert any("the head at version" in v for v in _verify(clean).verified)

    # the last event (the game's end) dropped: the events no longer reach the version the
    # dispute was opened at
    cut = json.loads(json.dumps(clean))
    del cut["events"][-1]
    report = _verify(cut)
    assert report.divergence is not None
    assert (report.divergence.check, report.divergence.version) == ("events", len(stored))
    # ... with that version restated: the chain's head is not the bundle's
    cut["dispute"]["game_version"] = len(stored) - 1
    report = _verify(cut)
    assert report.divergence is not None and "head is not the one the bundle states" in report.divergence.what
    # ... with the chain's head restated too: not the head the dispute recorded when opened
    _rechain(cut)
    report = _verify(cut)
    assert report.divergence is not None and "the head the dispute recorded" in report.divergence.what
    assert (report.divergence.check, report.divergence.version) == ("chain", len(stored) - 1)
    # ... nor when that head is forged as well: the game has ended, its end is missing
    cut["dispute"]["game_head"] = cut["chain"]["head"]
    report = _verify(cut)
    assert report.divergence is not None and report.divergence.check == "events"
    assert "closed it" in report.divergence.what
    cut["game"]["status"] = "running"
    report = _verify(cut)
    assert report.divergence is not None and report.divergence.check == "seed"

    dropped = json.loads(json.dumps(clean))
    gone = dropped["verdict"]["findings"].pop()
    report = _verify(dropped)
    assert report.divergence is not None and report.divergence.check == "verdict"
    assert report.divergence.version == gone["version"]


def _running_dominion(app: Chronicle) -> tuple[UUID, dict[str, str]]:
    created = app.create_game(NewGame("dominion", ["Ann", "Ben"]))
    game_id = UUID(created.game_id)
    for step in plan(app, game_id, 6, "running", one_seat=True):
        app.record(game_id, app.game(game_id).ruleset.codec.encode(step.action), RECORDER, seat=step.seat)
    return game_id, created.seat_tokens


def test_a_seat_disputes_a_running_game_and_learns_nothing_hidden(app: Chronicle) -> None:
    game_id, _tokens = _running_dominion(app)
    version = app.game(game_id).version
    seat = Access("seat", "p1")
    shown = disputes.open_dispute(app, game_id, seat, 1, version, "Ben drew too well")
    assert shown.verdict.holds and shown.verdict.random_checked  # re-decided with the sealed seed
    assert shown.opened_by == "seat:p1" and shown.view == "player:p1"
    seen = {e.version: e.text for e in app.read_events(game_id, seat)}
    assert [f.action for f in shown.verdict.findings] == [seen[f.version] for f in shown.verdict.findings]
    assert all(f.detail == "" for f in shown.verdict.findings)

    bundle = _bundle(app, shown.dispute_id, seat)
    assert bundle["form"] == "redacted" and bundle["seed"] is None and bundle["chain"] is None
    assert bundle["events"] == msgspec.to_builtins(app.read_events(game_id, seat))
    sealed = app.secrets(game_id).server_seed
    assert sealed not in json.dumps(bundle)
    report = _verify(bundle)
    assert report.ok, report.divergence
    assert any("hash chain" in u for u in report.unchecked)
    assert any("re-decision" in u for u in report.unchecked)

    lied = json.loads(json.dumps(bundle))
    lied["verdict"]["findings"][0]["action"] = "#1 Ann: buy Province"
    report = _verify(lied)
    assert report.divergence is not None and report.divergence.check == "verdict"

    # a seat's bundle holds no digest, not even the head the dispute recorded
    assert bundle["dispute"]["game_head"] == "" and shown.game_head == ""
    dropped = json.loads(json.dumps(bundle))
    gone = dropped["verdict"]["findings"].pop()
    report = _verify(dropped)
    assert report.divergence is not None
    assert (report.divergence.check, report.divergence.version) == ("verdict", gone["version"])
    cut = json.loads(json.dumps(bundle))
    del cut["events"][-1]
    cut["dispute"]["last"] = cut["verdict"]["last"] = version - 1  # the range kept within
    report = _verify(cut)
    assert report.divergence is not None
    assert (report.divergence.check, report.divergence.version) == ("events", version)

    # the recorder's bundle of the running game: stored events and chain, but no seed
    full = _bundle(app, shown.dispute_id, RECORDER)
    assert full["form"] == "stored" and full["seed"] is None
    report = _verify(full)
    assert report.ok, report.divergence
    assert any("seed is sealed" in u for u in report.unchecked)
    assert sealed not in json.dumps(full)
    assert full["dispute"]["game_head"] == chain.digest_of(app.stored_events(game_id)[version - 1])
    dropped = json.loads(json.dumps(full))
    gone = dropped["verdict"]["findings"].pop()
    report = _verify(dropped)
    assert report.divergence is not None
    assert (report.divergence.check, report.divergence.version) == ("verdict", gone["version"])
    said = json.loads(json.dumps(full))
    said["verdict"]["holds"] = False
    report = _verify(said)
    assert report.divergence is not None and report.divergence.check == "verdict"


def test_who_may_open_and_rule_and_what_a_range_may_be(app: Chronicle) -> None:
    game_id, _tokens = _running_dominion(app)
    version = app.game(game_id).version
    with pytest.raises(Unauthorized):
        disputes.open_dispute(app, game_id, Access("public"), 1, 2, "claim")
    for first, last in ((0, 1), (3, 2), (1, version + 1)):
        with pytest.raises(InvalidRequest) as refused:
            disputes.open_dispute(app, game_id, RECORDER, first, last, "claim")
        assert refused.value.code == "invalid_range"
    with pytest.raises(InvalidRequest) as refused:
        disputes.open_dispute(app, game_id, RECORDER, 1, 2, "   ")
    assert refused.value.code == "invalid_claim"
    shown = disputes.open_dispute(app, game_id, Access("seat", "p2"), 1, 2, "claim")
    with pytest.raises(Forbidden) as forbidden:
        disputes.rule(app, UUID(shown.dispute_id), Access("seat", "p2"), "I win")
    assert forbidden.value.code == "recorder_required"
    with pytest.raises(disputes.DisputeNotFound):
        disputes.show(app, game_id, ADMIN)  # a game's id names no dispute


def test_an_illegal_action_in_the_stored_record_is_found_with_its_rule(app: Chronicle) -> None:
    """The verdict is the rules' word on the stored facts: an action that the rules refuse
    where it stands (written behind the store's back) is named with the rejection's rule."""
    created = app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    app.record(game_id, "first A white", RECORDER)
    app.record(game_id, "reveal workers2", RECORDER)
    game = app.game(game_id)
    action = game.ruleset.parse_notation("build camp", game.state)
    assert not isinstance(action, Rejection)
    refused = game.ruleset.decide(game.state, Command(action, None, "recorder"), None)  # type: ignore[arg-type]
    assert isinstance(refused, Rejection)
    events = app.stored_events(game_id)
    forged = events[-1]
    from domain.events import ActionRecorded

    last_action = max(e.seq for e in events if isinstance(e, ActionRecorded))
    bad = ActionRecorded(  # type: ignore[call-arg]
        originator_id=game_id,
        originator_version=len(events) + 1,
        timestamp=forged.timestamp,
        seq=last_action + 1,
        action=game.ruleset.codec.encode(action),
        seat=None,
        by="recorder",
        action_id=None,
    )
    from store.verdict import verdict

    found = verdict([*events, bad], None, 1, len(events) + 1)
    assert not found.holds
    last = found.findings[-1]
    assert (last.version, last.verdict, last.code, last.rule) == (
        len(events) + 1,
        "illegal",
        refused.stable_code,
        refused.rule,
    )
    assert reference(refused.rule.split()[0]) is not None


def test_disputes_travel_with_their_game_through_export_and_import(app: Chronicle, tmp_path: Path) -> None:
    source = Chronicle(f"sqlite:///{tmp_path}/source.sqlite3", admin_token=ADMIN_TOKEN)
    try:
        game_id = dynasties_with_battle(source)
        first, last = battle_range(source, game_id)
        shown = disputes.open_dispute(source, game_id, ADMIN, first, last, "claim")
        disputes.rule(source, UUID(shown.dispute_id), RECORDER, "stands")
        exported = export_game(source, game_id, ADMIN)
        before = disputes.show(source, UUID(shown.dispute_id), ADMIN)
    finally:
        source.close()
    assert [s.stream_id for s in exported.disputes] == [shown.dispute_id]
    assert decode(encode(exported, "json")) == exported
    assert decode(encode(exported, "ndjson")) == exported
    import_game(app, decode(encode(exported, "ndjson")))
    after = msgspec.to_builtins(disputes.show(app, UUID(shown.dispute_id), ADMIN))
    # the same dispute and verdict; its ruling names the store it was made in, and when it came
    [ruling] = after.pop("rulings")
    assert ruling.pop("imported_at") and not before.rulings[0].imported_at
    assert ruling | {"imported_at": ""} == msgspec.to_builtins(before.rulings[0])
    assert ruling["store"] == exported.origin
    assert after == {k: v for k, v in msgspec.to_builtins(before).items() if k != "rulings"}
    assert audit_game(app, game_id, ADMIN).clean
    again = export_game(app, game_id, ADMIN)
    assert (again.events, again.annotations, again.variations) == (
        exported.events,
        exported.annotations,
        exported.variations,
    )
    [carried] = again.disputes
    assert carried.events[:-1] == exported.disputes[0].events
    assert carried.events[-1].topic == "chronicle:Dispute.Imported"
    assert carried.events[-1].fields["store"] == exported.origin != again.origin
    assert _verify(_bundle(app, shown.dispute_id)).ok

    # a dispute stored without the head it was opened at still reads, and its bundle verifies
    # with that head named as unchecked
    older = decode(encode(exported, "json"))
    del older.disputes[0].events[0].fields["game_head"]
    target = Chronicle(f"sqlite:///{tmp_path}/older.sqlite3", admin_token=ADMIN_TOKEN)
    try:
        import_game(target, older)
        assert disputes.show(target, UUID(shown.dispute_id), ADMIN).game_head == ""
        report = _verify(_bundle(target, shown.dispute_id))
        assert report.ok, report.divergence
        assert any("the dispute recorded none" in u for u in report.unchecked)
    finally:
        target.close()

    # a dispute that claims to be over another game is refused before anything is stored
    stray = decode(encode(exported, "json"))
    stray.disputes[0].events[0].fields["game_id"] = str(UUID(int=7))
    target = Chronicle(f"sqlite:///{tmp_path}/target.sqlite3", admin_token=ADMIN_TOKEN)
    try:
        with pytest.raises(InvalidRequest) as refused:
            import_game(target, stray)
        assert refused.value.code == "export_invalid"
        assert not target.recorder.select_events(game_id, limit=1)
    finally:
        target.close()
