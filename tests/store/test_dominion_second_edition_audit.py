"""A physical Dominion game of the 2nd-edition base set recorded through the store audits clean,
on both stores: the recorder enters the kingdom (Sentry, Vassal and Merchant among its piles),
the first player and every card seen, Sentry's looks and Vassal's and Bandit's reveals included."""

from __future__ import annotations

from uuid import UUID

from domain.games.dominion import events as ev
from domain.ruleset import get_ruleset
from store.app import RECORDER, Chronicle, NewGame
from store.audit import audit_events
from tests.store.test_dominion_empires_audit import _play

KINGDOM = "kingdom Sentry, Vassal, Merchant, Artisan, Bandit, Harbinger, Poacher, Throne Room, Mine, Moat"


def test_a_physical_second_edition_game_recorded_through_the_store_audits_clean(app: Chronicle) -> None:
    options = {"base_edition": 2, "kingdom": "manual"}
    new = NewGame("dominion", ["Ann", "Ben"], mode="physical", options=options)
    game_id = UUID(app.create_game(new).game_id)
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    kingdom = ruleset.parse_notation(KINGDOM, app.game(game_id).state)
    app.record(game_id, ruleset.codec.encode(kingdom), RECORDER)
    assert _play(app, game_id, "second-edition") > 50
    assert audit_events(app.stored_events(game_id), None).clean
    facts = [ruleset.codec.decode_fact(e.fact) for e in app.stored_events(game_id) if hasattr(e, "fact")]
    played = {f.card for f in facts if isinstance(f, ev.Played)}
    assert {"Sentry", "Vassal", "Merchant"} <= played
    assert any(isinstance(f, ev.Looked) for f in facts)
