"""What each viewer sees of a game of `any` (rules.md section 7): a secret draw's cards are the
drawer's, a pass's card the two seats', a shuffled deck's order nobody's; the omniscient viewer
sees everything. Facts, actions and views alike."""

from __future__ import annotations

from domain.games.any import RULESET
from domain.games.any.actions import Draw, Pass
from domain.games.any.events import CardPassed, CardsDrawn, DeckShuffled
from domain.ruleset import OMNISCIENT, PUBLIC, Viewer
from tests.unit.any.scenarios import MARKET, table

ANN, BEN, CY = Viewer("seat", "A"), Viewer("seat", "B"), Viewer("seat", "C")


def test_a_secret_draw_shows_its_cards_to_the_drawer_and_the_count_to_the_others() -> None:
    game = table(MARKET, mode="physical", players=3)
    (drawn,) = game.play("draw 2 market to Ann = Gold Silver")
    assert RULESET.redact(drawn, ANN) == drawn == RULESET.redact(drawn, OMNISCIENT)
    hidden = CardsDrawn("market", "A", 2, (), redacted=True)
    assert RULESET.redact(drawn, PUBLIC) == hidden == RULESET.redact(drawn, BEN)
    # an unknown draw looks the same to the others: whether the record knows the cards is hidden
    (unknown,) = game.play("draw 2 market to Ann")
    assert RULESET.redact(unknown, BEN) == hidden and RULESET.redact(unknown, ANN) == unknown
    action = Draw("market", "A", 2, ("Gold", "Silver"))
    assert RULESET.redact_action(action, None, game.state, BEN) == Draw("market", "A", 2)
    assert RULESET.redact_action(action, None, game.state, ANN) == action
    assert "Gold" not in RULESET.describe(RULESET.redact(drawn, PUBLIC), game.config)


def test_a_draw_to_the_table_is_seen_by_everyone() -> None:
    game = table(MARKET, mode="physical")
    (drawn,) = game.play("draw 1 market to table = Gold")
    assert RULESET.redact(drawn, PUBLIC) == drawn


def test_a_passed_card_is_the_two_seats_alone() -> None:
    game = table(MARKET, mode="physical", players=3)
    game.play("draw 1 market to Ann = Gold")
    (passed,) = game.play("pass Ann Gold to Ben")
    assert passed == CardPassed("A", "B", "Gold", "market")
    for viewer in (ANN, BEN, OMNISCIENT):
        assert RULESET.redact(passed, viewer) == passed
    for viewer in (CY, PUBLIC):
        assert RULESET.redact(passed, viewer) == CardPassed("A", "B", redacted=True)
        assert RULESET.redact_action(Pass("A", "Gold", "B"), None, game.state, viewer) == Pass("A", "?", "B")
    assert RULESET.describe(CardPassed("A", "B", redacted=True), game.config) == "Ann passes a card to Ben."


def test_a_shuffled_decks_order_is_the_omniscient_viewers_alone() -> None:
    game = table(MARKET)
    (shuffled,) = game.facts
    assert isinstance(shuffled, DeckShuffled) and shuffled.order
    assert RULESET.redact(shuffled, OMNISCIENT) == shuffled
    for viewer in (PUBLIC, ANN):
        seen = RULESET.redact(shuffled, viewer)
        assert isinstance(seen, DeckShuffled) and seen.order == () and seen.redacted and seen.count == 5


def test_the_view_shows_a_seat_its_own_hand_and_every_other_hand_as_a_count() -> None:
    game = table(MARKET, players=3)
    game.play("draw 2 market to Ann", "draw 1 market to Ben")
    mine = RULESET.view(game.state, ANN)
    assert mine["hands"]["A"] == {"count": 2, "cards": list(game.state.hands["A"].cards), "unknown": 0}
    assert mine["hands"]["B"] == {"count": 1}
    public = RULESET.view(game.state, PUBLIC)
    assert all(set(hand) == {"count"} for hand in public["hands"].values())
    assert public["decks"]["market"] == {"count": 2, "discard": []}
    everything = RULESET.view(game.state, OMNISCIENT)
    assert everything["decks"]["market"]["pile"] == list(game.state.decks["market"].pile)
