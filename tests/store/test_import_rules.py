"""What an import may not do (store/transfer.py, store/import_ids.py), on both stores: take an
id another stream of the store has or derives, smuggle a field an event type does not have,
bring a game whose actions were rewritten and re-chained, or a dispute whose verdict or rulings
are not what the engine and its store decided. Each is refused whole, with a stable code, and
the game it aimed at keeps working."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.notes import annotations_id
from domain.ruleset import get_ruleset
from domain.variations import list_id
from replay_cli.main import main
from store import chain, deals, disputes, evidence, variations
from store.app import ADMIN, RECORDER, Chronicle, NewGame
from store.audit import audit_game
from store.deals import deal_id
from store.errors import ServiceError
from store.notes import NewAnnotation, annotate_as, issue_review_token, reviewers_id
from store.secrets import secrets_id
from store.transfer import Export, decode, encode, export_game, import_game
from store.variations import BranchRequest, branch
from tests.api.support import ADMIN_TOKEN, assert_problem
from tests.store.tampering import record_game


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Chronicle]:
    with closing(Chronicle(f"sqlite:///{tmp_path}/source.sqlite3", admin_token=ADMIN_TOKEN)) as app:
        yield app


def _game(app: Chronicle, mode: str, key: str, cap: int) -> UUID:
    ruleset = get_ruleset("province")
    assert ruleset is not None
    return record_game(app, ruleset, mode, key, {}, cap).game_id


def _copy(exported: Export) -> Export:
    return decode(encode(exported, "json"))


def _rechained(exported: Export, game_id: UUID | None = None) -> Export:
    """The export with every digest recomputed (under `game_id`, if given), as a forger would."""
    forged = _copy(exported)
    gid = game_id or UUID(forged.game_id)
    forged.game_id = str(gid)
    previous = chain.GENESIS
    for event in forged.events:
        fields = {k: v for k, v in event.fields.items() if k != chain.KEY}
        previous = chain.link(previous, gid, event.version, event.topic, fields)
        event.fields = {**fields, chain.KEY: previous}
    forged.chain.head = previous
    return forged


def _at_rest(app: Chronicle, game_id: UUID) -> int:
    """A version a variation may branch at: the last one before an action, past the setup."""
    events = app.stored_events(game_id)
    found: int = next(e.originator_version - 1 for e in events[4:] if type(e).__name__ == "ActionRecorded")
    return found


def _refused(app: Chronicle, exported: Export, status: int, code: str) -> ServiceError:
    """The import is refused with `status` and `code`, and nothing of it is stored."""
    before = app.recorder.max_notification_id()
    with pytest.raises(ServiceError) as refused:
        import_game(app, exported)
    assert (refused.value.status, refused.value.code) == (status, code), refused.value.detail
    assert app.recorder.max_notification_id() == before
    return refused.value


DERIVED: list[tuple[str, Callable[[UUID], UUID]]] = [
    ("annotations", annotations_id),
    ("variation list", list_id),
    ("reviewers", reviewers_id),
    ("deal", deal_id),
    ("secrets", secrets_id),
]


def test_an_import_under_an_id_the_store_derives_from_a_game_is_refused_and_the_game_keeps_working(
    app: Chronicle, source: Chronicle
) -> None:
    victim = _game(app, "digital", "import rules victim", 400)
    if not app.game(victim).closed:
        app.resign(victim, RECORDER, seat="B")
    created = app.create_game(NewGame("province", ["Vi", "Vo"], "physical"))
    attacker = export_game(source, _game(source, "physical", "import rules squatter", 12), ADMIN)
    for name, derive in DERIVED:
        for target in (victim, UUID(created.game_id)):
            squat = _rechained(attacker, derive(target))
            refused = _refused(app, squat, 409, "id_taken")
            assert str(derive(target)) in refused.detail, name
    assert len(app.recorder.select_events(secrets_id(victim))) == 1

    # everything the squatter aimed at still works: annotations, review tokens, variations,
    # a table replaying the deal, the export
    note = annotate_as(app, victim, "recorder", NewAnnotation(at=3, text="the turn that decided it"))
    assert note.text == "the turn that decided it"
    recorder = created.recorder_token
    assert issue_review_token(app, UUID(created.game_id), recorder, "Rita").review_token
    study = branch(app, victim, BranchRequest(at=_at_rest(app, victim)), "anyone")
    replay = app.create_game(NewGame("province", ["Cy", "Di"], same_deal_as=str(victim)))
    exported = export_game(app, victim, ADMIN)
    assert [v.variation_id for v in exported.variations] == [study.variation_id]
    assert [n.topic for n in exported.annotations][-1] == "chronicle:AnnotationAdded"
    assert replay.commitment == app.game(victim).commitment


def test_an_import_whose_dispute_or_variation_takes_a_stream_s_id_is_refused_whole(
    app: Chronicle, source: Chronicle
) -> None:
    victim = _game(app, "physical", "import rules held", 12)
    held = app.game(victim).version
    game_id = _game(source, "physical", "import rules carrier", 14)
    source.resign(game_id, RECORDER, seat="B")  # finished, so that it may be branched
    disputes.open_dispute(source, game_id, RECORDER, 3, 5, "the workers moved twice")
    branch(source, game_id, BranchRequest(at=_at_rest(source, game_id)), "anyone")
    exported = export_game(source, game_id, ADMIN)

    over_a_game = _copy(exported)
    over_a_game.disputes[0].stream_id = str(victim)
    assert str(victim) in _refused(app, over_a_game, 409, "id_taken").detail
    branching_a_game = _copy(exported)
    branching_a_game.variations[0].variation_id = str(victim)
    assert str(victim) in _refused(app, branching_a_game, 409, "id_taken").detail
    derived = _copy(exported)
    derived.disputes[0].stream_id = str(annotations_id(victim))
    _refused(app, derived, 409, "id_taken")
    twice = _copy(exported)
    twice.disputes[0].stream_id = twice.variations[0].variation_id
    _refused(app, twice, 409, "id_taken")

    assert import_game(app, exported).game_id == str(game_id)
    assert app.game(victim).version == held and audit_game(app, victim, ADMIN).clean


def test_a_collision_answers_409_over_http_and_one_line_from_the_command(
    app: Chronicle, source: Chronicle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = _game(app, "physical", "import rules http victim", 12)
    attacker = export_game(source, _game(source, "physical", "import rules http", 12), ADMIN)
    squat = _rechained(attacker, annotations_id(victim))
    with TestClient(create_app(app)) as client:
        body = assert_problem(client.post("/games/import", content=encode(squat, "json")), 409, "id_taken")
        assert str(annotations_id(victim)) in body["detail"]
    path = tmp_path / "squat.json"
    path.write_bytes(encode(squat, "ndjson"))
    assert main(["import", str(path), "--store", app.url]) == 1
    error = capsys.readouterr().err.strip().splitlines()[-1]  # after the test client's log
    assert error.startswith("chronicle: error: ") and error.endswith("(id_taken)") and "\n" not in error
    assert not app.recorder.select_events(annotations_id(victim), limit=1)


def test_every_stored_event_type_refuses_a_field_it_does_not_have(app: Chronicle, source: Chronicle) -> None:
    game_id = _game(source, "physical", "import rules fields", 14)
    annotate_as(source, game_id, "recorder", NewAnnotation(at=2, text="a note"))
    shown = disputes.open_dispute(source, game_id, RECORDER, 3, 5, "the workers moved twice")
    source.resign(game_id, RECORDER, seat="A")
    disputes.rule(source, UUID(shown.dispute_id), RECORDER, "It stands.")
    branch(source, game_id, BranchRequest(at=_at_rest(source, game_id)), "anyone")
    exported = export_game(source, game_id, ADMIN)
    topics = {e.topic for e in exported.events}
    assert {"chronicle:ActionsRetracted", "chronicle:GameResigned", "chronicle:GameFinished"} <= topics

    def smuggled(fields: dict[str, Any]) -> dict[str, Any]:
        return {**fields, "verdict_by": "administrator"}

    seen: set[str] = set()
    for index, event in enumerate(exported.events):
        if event.topic in seen:
            continue
        seen.add(event.topic)
        forged = _copy(exported)
        forged.events[index].fields = smuggled(forged.events[index].fields)
        refused = _refused(app, _rechained(forged), 400, "export_invalid")
        assert "verdict_by" in refused.detail
    streams: list[Callable[[Export], list[Any]]] = [
        lambda e: e.annotations,
        lambda e: e.variations[0].events,
        lambda e: e.disputes[0].events,
    ]
    for stream in streams:
        for index in range(len(stream(exported))):
            forged = _copy(exported)
            stream(forged)[index].fields = smuggled(stream(forged)[index].fields)
            _refused(app, forged, 400, "export_invalid")
    # a declared field missing, or of another type, is refused too
    missing = _copy(exported)
    del missing.disputes[0].events[0].fields["claim"]
    _refused(app, missing, 400, "export_invalid")
    mistyped = _copy(exported)
    mistyped.annotations[-1].fields["at"] = "2"
    _refused(app, mistyped, 400, "export_invalid")
    assert import_game(app, exported).status == "finished"


def test_a_finished_game_whose_actions_were_rewritten_and_re_chained_is_refused(
    app: Chronicle, source: Chronicle
) -> None:
    game_id = _game(source, "digital", "import rules forged finish", 400)
    assert source.game(game_id).status == "finished"
    exported = export_game(source, game_id, ADMIN)
    actions = [i for i, e in enumerate(exported.events) if e.topic == "chronicle:ActionRecorded"]
    first, other = next(
        (a, b)
        for a in actions[5:]
        for b in actions[5:]
        if exported.events[a].fields["action"] != exported.events[b].fields["action"]
    )
    forged = _copy(exported)
    forged.events[first].fields = {
        **forged.events[first].fields,
        "action": exported.events[other].fields["action"],
    }
    _refused(app, _rechained(forged), 400, "export_unclean")

    # a study's line is re-decided too, with its stated seed
    study = UUID(branch(source, game_id, BranchRequest(at=_at_rest(source, game_id)), "anyone").variation_id)
    for _ in range(3):
        line = variations.line(source, study)
        seat = line.game.ruleset.pending(line.game.state)[0].seat
        legal = line.game.ruleset.legal_actions(line.game.state, seat)
        variations.record(source, study, line.game.ruleset.codec.encode(legal[-1]), RECORDER, seat=seat)
    exported = export_game(source, game_id, ADMIN)
    [carried] = exported.variations
    assert [e.topic for e in carried.events].count("chronicle:VariationActionRecorded") == 3
    facts = [i for i, e in enumerate(carried.events) if e.topic == "chronicle:VariationFactRecorded"]
    forged = _copy(exported)
    fact = forged.variations[0].events[facts[-1]].fields
    fact["fact"] = forged.variations[0].events[facts[0]].fields["fact"]
    if fact["fact"] == carried.events[facts[-1]].fields["fact"]:
        forged.variations[0].events.pop(facts[-1])
        for event in forged.variations[0].events[facts[-1] :]:
            event.version -= 1
    assert "does not audit clean" in _refused(app, forged, 400, "export_unclean").detail
    assert import_game(app, exported).status == "finished"
    assert variations.audit(app, study, ADMIN).clean


def test_an_imported_dispute_is_judged_again_and_its_rulings_keep_their_provenance(
    app: Chronicle, source: Chronicle, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = _game(source, "physical", "import rules dispute", 14)
    shown = disputes.open_dispute(source, game_id, RECORDER, 3, 6, "the workers moved twice")
    assert shown.verdict.holds
    disputes.rule(source, UUID(shown.dispute_id), ADMIN, "The moves stand.")
    exported = export_game(source, game_id, ADMIN)
    origin = exported.origin
    assert origin and origin == disputes.show(source, UUID(shown.dispute_id), ADMIN).rulings[0].store

    # the file flips the verdict and adds a ruling in the administrator's name
    forged = _copy(exported)
    opened, ruled = (e.fields for e in forged.disputes[0].events)
    opened["verdict"] = {**opened["verdict"], "holds": False, "summary": "The record does not hold."}
    for finding in opened["verdict"]["findings"]:
        finding["verdict"] = "illegal"
    forged.disputes[0].events.append(
        msgspec.convert(
            {"version": 3, "topic": "chronicle:Dispute.Ruled", "fields": {**ruled, "text": "Overturned."}},
            type(forged.disputes[0].events[0]),
        )
    )
    impostor = _copy(forged)
    impostor.disputes[0].events[-1].fields["by"] = "administrator"
    _refused(app, impostor, 400, "export_invalid")
    beyond = _copy(exported)  # a range the game did not have when the dispute was opened
    beyond.disputes[0].events[0].fields["last"] = shown.game_version + 1
    _refused(app, beyond, 400, "export_invalid")
    import_game(app, forged)

    dispute_id = UUID(shown.dispute_id)
    here = disputes.show(app, dispute_id, ADMIN)
    assert msgspec.to_builtins(here.verdict) == msgspec.to_builtins(shown.verdict)  # the engine's
    assert here.verdict.holds and all(f.verdict == "legal" for f in here.verdict.findings)
    assert app.stored_events(dispute_id)[0].verdict == msgspec.to_builtins(shown.verdict)  # as stored
    assert [(r.text, r.by, r.store) for r in here.rulings] == [
        ("The moves stand.", "admin", origin),
        ("Overturned.", "admin", origin),
    ]
    assert all(r.imported_at for r in here.rulings)
    mine = disputes.rule(app, dispute_id, RECORDER, "Stands, as judged here.")
    local = mine.rulings[-1]
    assert local.store != origin and local.store and not local.imported_at

    # wherever a ruling is shown: the evidence bundle, and `chronicle dispute show`
    bundle = msgspec.to_builtins(evidence.build(app, dispute_id, ADMIN))
    assert [(r["store"], bool(r["imported_at"])) for r in bundle["dispute"]["rulings"]] == [
        (origin, True),
        (origin, True),
        (local.store, False),
    ]
    assert main(["dispute", "show", str(dispute_id), "--store", app.url]) == 0
    out = capsys.readouterr().out
    [carried, *_, made_here] = [line for line in out.splitlines() if line.startswith("ruling")]
    assert carried.startswith(f"ruling    The moves stand.  (admin, in store {origin}, ")
    assert f", imported {here.rulings[0].imported_at})" in carried
    assert made_here.startswith(f"ruling    Stands, as judged here.  (recorder, in store {local.store}, ")
    assert "imported" not in made_here


def test_import_creates_the_store_it_is_told_to_store_into(
    source: Chronicle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = _game(source, "physical", "import rules new store", 12)
    path = tmp_path / "game.json"
    path.write_bytes(encode(export_game(source, game_id, ADMIN), "json"))
    new = f"sqlite:///{tmp_path}/new.sqlite3"
    assert main(["import", str(path), "--store", new]) == 0
    assert f"game      {game_id}  running" in capsys.readouterr().out
    with closing(Chronicle(new, admin_token=ADMIN_TOKEN)) as moved:
        assert audit_game(moved, game_id, ADMIN).clean


def test_the_games_of_a_deal_import_in_either_order_and_join_their_deal(
    app: Chronicle, source: Chronicle
) -> None:
    first = _game(source, "digital", "import rules deal", 400)
    if not source.game(first).closed:
        source.resign(first, RECORDER, seat="B")
    replay = UUID(source.create_game(NewGame("province", ["Cy", "Di"], same_deal_as=str(first))).game_id)
    source.resign(replay, RECORDER, seat="A")
    files = {g: export_game(source, g, ADMIN) for g in (first, replay)}
    import_game(app, files[replay])  # the replay first: the deal's list starts with it
    assert deals.games_of(app, first) == [str(first), str(replay)]
    import_game(app, files[first])  # then the game it replays, whose deal that list is
    assert deals.games_of(app, first) == [str(first), str(replay)]
    assert app.game(replay).commitment == app.game(first).commitment
