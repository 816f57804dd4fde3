"""A base game recorded from a physical table through the store, in notation, then replayed
version by version and audited (dominion.md 6.4; design.md 3)."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from domain.games.dominion import RULESET
from domain.ruleset import RejectedError
from store.app import RECORDER, Chronicle, NewGame
from store.audit import audit_events

OPENING = [
    "first p1",
    "observe Copper, Copper, Copper, Estate, Estate",
    "observe Copper, Copper, Copper, Copper, Estate",
    "end",
    "play treasures Copper, Copper, Copper",
    "buy Silver",
    "end",
    "observe Copper, Copper, Copper, Copper, Estate",
]


def test_a_physical_game_recorded_in_notation_replays_step_by_step_and_audits_clean(tmp_path: Path) -> None:
    app = Chronicle(f"sqlite:///{tmp_path}/games.sqlite3")
    try:
        created = app.create_game(
            NewGame("dominion", ["Ann", "Bob"], "physical", {"kingdom": "first_game"}), admin=True
        )
        game_id = UUID(created.game_id)
        for text in OPENING:
            app.record(game_id, text, RECORDER)
        with pytest.raises(RejectedError) as impossible:
            app.record(game_id, "end", RECORDER, seat="p1")
        assert impossible.value.rejection.code == "not_your_turn"
        app.record(game_id, "end", RECORDER, seat="p2")
        app.record(game_id, "play treasures Copper, Copper, Copper, Copper", RECORDER, seat="p2")
        with pytest.raises(RejectedError) as illegal:
            app.record(game_id, "buy Gold", RECORDER, seat="p2")
        assert illegal.value.rejection.rule == "dominion 4.2"
        app.record(game_id, "buy Silver", RECORDER, seat="p2")
        app.record(game_id, "end", RECORDER, seat="p2")
        with pytest.raises(RejectedError) as drawn:
            app.record(game_id, "observe Gold", RECORDER)
        assert drawn.value.rejection.code == "card_not_in_deck"
        assert drawn.value.rejection.rule == "dominion 6.4"
        app.record(game_id, "observe Copper, Copper, Copper, Estate, Estate", RECORDER)

        latest = app.game(game_id)
        assert latest.state.turn == 3 and latest.state.seats[latest.state.current] == "p1"
        turns = []
        for version in range(1, latest.version + 1):
            turns.append(RULESET.progress(app.game(game_id, version=version).state)[0])
        assert turns == sorted(turns) and turns[-1] == 3
        report = audit_events(app.stored_events(game_id), None)
        assert report.clean, report.divergence
    finally:
        app.close()
