"""A physical Dominion game whose recorder entered `?` (JSON null) for every card of one seat
it did not see, recorded through the store, audits clean and ends with the game's scores, on
both stores (dominion.md 6.4)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.games.dominion import RULESET
from store.app import RECORDER, Chronicle, NewGame
from store.audit import audit_events
from tests.unit.dominion.unseen_table import OPTIONS, record


def _as_json(action: Any) -> dict[str, Any]:
    """The action as a client sends it: an unseen card is null."""
    data: dict[str, Any] = RULESET.codec.encode(action)
    if "cards" in data:
        data["cards"] = [None if c == "?" else c for c in data["cards"]]
    return data


def test_a_game_recorded_with_unseen_cards_audits_clean_with_the_scores_of_the_game(app: Chronicle) -> None:
    recorded = record(3)
    game_id = UUID(
        app.create_game(NewGame("dominion", ["Ann", "Bob"], mode="physical", options=OPTIONS)).game_id
    )
    nulls = 0
    for command in recorded.commands:
        data = _as_json(command.action)
        nulls += sum(1 for c in data.get("cards", ()) if c is None)
        app.record(game_id, data, RECORDER, seat=command.seat)
    assert nulls > 50
    game = app.game(game_id)
    assert game.outcome is not None
    truth = RULESET.outcome(recorded.truth.state)
    assert truth is not None and game.outcome.scores == truth.scores
    report = audit_events(app.stored_events(game_id), None)
    assert report.clean, report.divergence
