"""Annotations and variations in the store (store/notes.py, store/variations.py), on each store
under test: a variation's randomness is checkable from what it states, its audit finds what
was forged, a game played on from a position keeps its seats' secrets, and a game's
annotations and variations travel with its export and import."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest

from domain.rng import commitment
from domain.variations import Variation, derive_seed
from store import notes, variations
from store.app import ADMIN, ANONYMOUS, RECORDER, Access, Chronicle
from store.errors import SeedSealed
from store.notes import AnnotationEdit, NewAnnotation
from store.transfer import decode, encode, export_game, import_game
from store.variations import BranchRequest
from tests.api.support import ADMIN_TOKEN
from tests.short_games import finished_game


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Chronicle]:
    found = Chronicle(f"sqlite:///{tmp_path}/source.sqlite3", admin_token=ADMIN_TOKEN)
    yield found
    found.close()


def _position(app: Chronicle, game_id: UUID, share: float = 0.5) -> int:
    game = app.game(game_id)
    return game.actions[int(len(game.actions) * share)].last_version


def _play(app: Chronicle, line_id: UUID, count: int, access: Access = RECORDER) -> None:
    """`count` legal actions into the variation, each the first its prompted seat may take."""
    for _ in range(count):
        game = variations.line(app, line_id).game
        seat = game.ruleset.pending(game.state)[0].seat
        action = game.ruleset.legal_actions(game.state, seat)[0]
        variations.record(app, line_id, game.ruleset.codec.encode(action), access, seat=seat)


def test_a_study_draws_from_its_stated_derived_seed_and_its_audit_rechecks_every_draw(app: Chronicle) -> None:
    game_id = finished_game(app, "dominion")
    stored = len(app.stored_events(game_id))
    study = variations.branch(app, game_id, BranchRequest(at=_position(app, game_id)), "public")
    vid = UUID(study.variation_id)
    revealed = app.game(game_id).revealed_seed
    assert revealed is not None
    assert study.seed == derive_seed(bytes.fromhex(revealed), vid).hex() != revealed
    assert study.commitment == commitment(bytes.fromhex(study.seed))
    _play(app, vid, 12)  # through a turn's end: its cleanup draws from the derived seed
    report = variations.audit(app, vid, ANONYMOUS)
    assert report.clean and report.random_checked and report.actions == 12, report
    drawn = [e for e in variations.events(app, vid, ANONYMOUS) if e.version > study.at and e.type == "fact"]
    assert any(e.data.get("type") == "drew" for e in drawn)
    assert len(app.stored_events(game_id)) == stored  # the game's own stream is untouched
    # a fact forged into the variation's stream is found where it stands
    variation: object = app.repository.get(vid)
    assert isinstance(variation, Variation)
    game = variations.line(app, vid).game
    seat = game.ruleset.pending(game.state)[0].seat
    action = game.ruleset.codec.encode(game.ruleset.legal_actions(game.state, seat)[0])
    variation.record(len(game.actions) + 1, action, seat, "recorder", [], variation.modified_on)  # no facts
    app.save(variation)
    forged = variations.audit(app, vid, ANONYMOUS)
    assert not forged.clean and forged.divergence is not None
    assert (forged.divergence.code, forged.divergence.version) == ("fact_differs", game.version + 1)


def _written_out(key_hex: str, variation_id: str) -> str:
    """The README's derivation, computed here rather than by the code under test:
    HMAC-SHA256(key=game seed, msg="chronicle-variation|" + variation id)."""
    message = ("chronicle-variation|" + variation_id).encode("utf-8")
    return hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()


def test_a_study_s_seed_is_the_hmac_of_its_own_id_under_the_seed_it_branches_from(app: Chronicle) -> None:
    """Each input of the derivation moves the seed: two studies at one position differ by
    their ids alone, and a study of a study is keyed by the study's seed, not the game's."""
    game_id = finished_game(app, "dominion")
    revealed = app.game(game_id).revealed_seed
    assert revealed is not None
    at = _position(app, game_id)
    first = variations.branch(app, game_id, BranchRequest(at=at), "public")
    second = variations.branch(app, game_id, BranchRequest(at=at), "public")
    assert first.seed == _written_out(revealed, first.variation_id)
    assert second.seed == _written_out(revealed, second.variation_id)
    assert first.seed != second.seed
    deeper = variations.branch(app, UUID(first.variation_id), BranchRequest(at=at), "public")
    assert deeper.seed == _written_out(first.seed, deeper.variation_id)
    assert deeper.seed != _written_out(revealed, deeper.variation_id)
    assert variations.audit(app, UUID(deeper.variation_id), ANONYMOUS).clean


def test_a_game_played_on_from_a_position_keeps_each_seats_hand_and_its_seed_sealed(app: Chronicle) -> None:
    game_id = finished_game(app, "dominion")
    new = variations.branch(
        app, game_id, BranchRequest(at=_position(app, game_id, 0.3), purpose="game"), "recorder"
    )
    pid = UUID(new.variation_id)
    assert new.seed == "" and set(new.seat_tokens) == {"p1", "p2"}
    p1 = app.access(pid, new.seat_tokens["p1"])
    _play(app, pid, 6)
    seat_view = variations.view(app, pid, p1)["state"]["players"]
    public_view = variations.view(app, pid, ANONYMOUS)["state"]["players"]
    recorder_view = variations.view(app, pid, app.access(pid, new.recorder_token))["state"]["players"]
    assert "hand" in seat_view["p1"] and "hand" not in seat_view["p2"]
    assert "hand" not in public_view["p1"] and "hand" not in public_view["p2"]
    assert "hand" in recorder_view["p2"]
    sealed = app.secrets(pid).server_seed
    for access in (p1, ANONYMOUS):
        shown = json.dumps(msgspec.to_builtins(variations.events(app, pid, access)))
        assert sealed not in shown
    with pytest.raises(SeedSealed):
        variations.audit(app, pid, p1)
    assert variations.audit(app, pid, ADMIN).clean
    # annotations on the running game stay with their author's side
    notes.annotate_as(app, pid, "seat:p1", NewAnnotation(at=new.at + 1, text="my plan"))
    assert [n.text for n in notes.annotations_of(app, pid, new.seat_tokens["p1"])] == ["my plan"]
    assert notes.annotations_of(app, pid, new.seat_tokens["p2"]) == []
    assert notes.annotations_of(app, pid, None) == []


def _family(app: Chronicle, game_id: UUID) -> dict[str, Any]:
    """What readers get of the game's annotations and variations once it has ended."""
    found: dict[str, Any] = {"notes": notes.as_builtins(notes.annotations_of(app, game_id, None))}
    for summary in variations.variations_of(app, game_id):
        vid = UUID(summary.variation_id)
        found[summary.variation_id] = (
            msgspec.to_builtins(summary),
            msgspec.to_builtins(variations.events(app, vid, ANONYMOUS)),
            notes.as_builtins(notes.annotations_of(app, vid, None)),
        )
    return found


@pytest.mark.parametrize("form", ["json", "ndjson"])
def test_annotations_and_variations_travel_with_the_export_and_import_whole(
    source: Chronicle, app: Chronicle, form: Any
) -> None:
    game_id = finished_game(source, "dominion")
    kept = notes.annotate_as(source, game_id, "recorder", NewAnnotation(at=17, text="fine", glyph="!"))
    notes.edit_as(source, game_id, "recorder", kept.annotation_id, AnnotationEdit(text="finer", glyph="!!"))
    gone = notes.annotate_as(source, game_id, "seat:p1", NewAnnotation(at=29, text="oops"))
    notes.delete_as(source, game_id, "seat:p1", gone.annotation_id)
    notes.annotate_as(
        source, game_id, "reviewer:Coach", NewAnnotation(at=40, coordinate="card:Chapel", text="buy")
    )
    study = variations.branch(source, game_id, BranchRequest(at=_position(source, game_id)), "public")
    vid = UUID(study.variation_id)
    _play(source, vid, 5)
    notes.annotate_as(source, vid, "recorder", NewAnnotation(at=study.at + 1, glyph="?!"))
    inside = variations.line(source, vid).game.actions[-3].last_version  # after the study's 3rd action
    deeper = variations.branch(source, vid, BranchRequest(at=inside), "public")
    _play(source, UUID(deeper.variation_id), 2)
    # a running digital game played on from here keeps its seed on this server: it stays behind
    variations.branch(source, vid, BranchRequest(at=inside, purpose="game"), "recorder")

    exported = export_game(source, game_id, ANONYMOUS)
    assert len(exported.variations) == 2 and len(exported.annotations) == 6
    imported = import_game(app, decode(encode(exported, form)))
    assert set(imported.variation_tokens) == {study.variation_id, deeper.variation_id}
    before, after = _family(source, game_id), _family(app, game_id)
    left_behind = {k for k in before if k not in after}
    assert len(left_behind) == 1 and before[next(iter(left_behind))][0]["purpose"] == "game"
    assert after == {k: v for k, v in before.items() if k not in left_behind}
    assert [n["text"] for n in after["notes"]] == ["finer", "buy"]
    for line_id in (vid, UUID(deeper.variation_id)):
        assert variations.audit(app, line_id, ANONYMOUS).clean
    # the imported study records on with its new recorder token
    recorder = app.access(vid, imported.variation_tokens[study.variation_id])
    _play(app, vid, 1, recorder)
    assert variations.summary(app, vid).actions == 6
