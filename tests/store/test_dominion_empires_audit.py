"""A Dominion game with Empires recorded through the store audits clean, digital and physical
(the recorder entering the kingdom, the first player and every card seen), on both stores."""

from __future__ import annotations

import random
from uuid import UUID

from domain.ruleset import get_ruleset
from store.app import ADMIN, RECORDER, Chronicle, NewGame
from store.audit import audit_events

KINGDOM = (
    "kingdom Archive, Castles, Catapult/Rocks, City Quarter, Crown, Engineer, Farmers' Market, "
    "Overlord, Patrician/Emporium, Villa; Tax, Aqueduct, Mountain Pass"
)
CAP = 3_000


def _play(app: Chronicle, game_id: UUID, key: str) -> int:
    """Bot answers (the ruleset's own bot) until the game ends; the recorder answers the table's
    questions. Returns the number of actions."""
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    bot = random.Random(key)
    for actions in range(CAP):
        game = app.game(game_id)
        if game.outcome is not None:
            return actions
        seat = bot.choice(ruleset.pending(game.state)).seat
        legal = ruleset.legal_actions(game.state, seat)
        choice = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
        app.record(game_id, ruleset.codec.encode(choice), RECORDER, seat=seat)
    raise AssertionError("the game did not end")


def test_a_digital_empires_game_recorded_through_the_store_audits_clean(app: Chronicle) -> None:
    new = NewGame(
        "dominion", ["Ann", "Ben", "Cid"], options={"expansions": "base,empires"}, server_seed="ab" * 32
    )
    game_id = UUID(app.create_game(new, admin=True).game_id)
    assert _play(app, game_id, "digital") > 50
    report = audit_events(app.stored_events(game_id), app.seed_for_audit(app.game(game_id), ADMIN))
    assert report.clean, report


def test_a_physical_empires_game_recorded_through_the_store_audits_clean(app: Chronicle) -> None:
    options = {"expansions": "base,empires", "kingdom": "manual"}
    game_id = UUID(
        app.create_game(NewGame("dominion", ["Ann", "Ben"], mode="physical", options=options)).game_id
    )
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    game = app.game(game_id)
    kingdom = ruleset.parse_notation(KINGDOM, game.state)
    app.record(game_id, ruleset.codec.encode(kingdom), RECORDER)
    assert _play(app, game_id, "physical") > 50
    game = app.game(game_id)
    assert game.state.landmarks == ("Aqueduct", "Mountain Pass") and game.state.events == ("Tax",)
    assert audit_events(app.stored_events(game_id), None).clean
