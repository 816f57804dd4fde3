"""An annotation's coordinate names what the annotated game holds: a card of its Supply, a
space of its board, a province of its map, one of its seats; a near miss is refused with the
closest name (400 `invalid_coordinate`), and nothing is written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from domain.notes import annotations_id
from store import notes, variations
from store.app import Chronicle, NewGame
from store.errors import ServiceError
from store.notes import AnnotationEdit, NewAnnotation
from tests.short_games import finished_game


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    found = Chronicle(store_url)
    yield found
    found.close()


def _refused(app: Chronicle, game: UUID, coordinate: str) -> str:
    with pytest.raises(ServiceError) as refused:
        notes.annotate_as(app, game, "recorder", NewAnnotation(at=2, text="x", coordinate=coordinate))
    assert refused.value.code == "invalid_coordinate"
    return refused.value.detail


def test_a_dominion_card_outside_the_kingdom_or_misspelt_is_refused_with_the_closest(app: Chronicle) -> None:
    game = finished_game(app, "dominion")
    kingdom = app.game(game).state.kingdom
    card = kingdom[0]
    wrong = card[:-1]
    assert (
        _refused(app, game, f"card:{wrong}") == f"This game has no card {wrong!r}. Did you mean card:{card}?"
    )
    absent = next(c for c in ("Chapel", "Moat", "Cellar", "Market") if c not in kingdom)
    assert _refused(app, game, f"card:{absent}").startswith(f"This game has no card {absent!r}")
    kept = notes.annotate_as(app, game, "recorder", NewAnnotation(at=2, text="x", coordinate=f"card:{card}"))
    with pytest.raises(ServiceError):
        notes.edit_as(
            app, game, "recorder", kept.annotation_id, AnnotationEdit(text="y", coordinate="card:Nope")
        )
    assert [n.coordinate for n in notes.shown(app, variations.line(app, game), "admin")] == [f"card:{card}"]


def test_a_province_space_a_dynasties_province_and_a_seat_are_checked(app: Chronicle) -> None:
    province = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    assert _refused(app, province, "space:tpo") == "This game has no space 'tpo'. Did you mean space:top?"
    assert _refused(app, province, "seat:Bne") == "This game has no seat 'Bne'. Did you mean seat:Ben?"
    notes.annotate_as(app, province, "recorder", NewAnnotation(at=2, text="x", coordinate="seat:ben"))
    dynasties = finished_game(app, "dynasties")
    assert _refused(app, dynasties, "province:chengdo").endswith("Did you mean province:chengdu?")


def test_an_annotation_stored_before_arrows_still_loads_without_one(app: Chronicle) -> None:
    """An `Added` or `Edited` event written before annotations had arrows holds no `to`: it
    reads as no arrow, in the stored form every store keeps."""
    province = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    kept = notes.annotate_as(app, province, "recorder", NewAnnotation(at=1, text="x", coordinate="space:top"))
    notes.edit_as(
        app, province, "recorder", kept.annotation_id, AnnotationEdit(text="y", coordinate="space:top")
    )
    stream = annotations_id(province)
    aggregate: Any = None
    for stored in app.recorder.select_events(stream):
        state = app.mapper.transcoder.decode(
            app.mapper.cipher.decrypt(stored.state) if app.mapper.cipher else stored.state
        )
        state.pop("to", None)  # as every event was written before arrows
        older = StoredEvent(
            stored.originator_id, stored.originator_version, stored.topic, app.mapper.transcoder.encode(state)
        )
        event: Any = app.mapper.to_domain_event(older)
        aggregate = event.mutate(aggregate)
    loaded = aggregate.notes[kept.annotation_id]
    assert (loaded.text, loaded.coordinate, loaded.to) == ("y", "space:top", None)
    assert "->" not in loaded.line()
