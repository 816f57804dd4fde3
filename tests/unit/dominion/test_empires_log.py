"""Log lines and notation of the Empires actions and facts: debt, VP tokens, Events and
Landmarks read as a table would say them (issue: "Ann buys a City Quarter and takes 8 debt.")."""

from __future__ import annotations

import pytest

from domain.games.dominion import RULESET
from domain.games.dominion.actions import Bid, BuyCard, BuyEvent, ChooseKingdom, PayDebt
from domain.games.dominion.events import KingdomChosen
from tests.unit.dominion.scenarios import table

KINGDOM = [
    "City Quarter",
    "Temple",
    "Castles",
    "Settlers/Bustling Village",
    "Village",
    "Smithy",
    "Market",
    "Chapel",
    "Engineer",
    "Forum",
]


def test_buying_a_debt_card_logs_the_debt_taken() -> None:
    game = table(kingdom=KINGDOM, phase="buy", coins=3)
    game.do("p1", "buy City Quarter")
    assert "Ann buys a City Quarter and takes 8 debt." in game.lines()


def test_paying_off_debt_logs_the_amount() -> None:
    game = table(kingdom=KINGDOM, phase="buy", coins=3, zones={"p1": {"debt": 8}})
    game.do("p1", "pay 3")
    assert game.lines() == ["Ann pays off 3 debt."]


def test_an_event_bought_with_debt_logs_the_event_and_the_debt() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Triumph"], phase="buy", coins=0)
    game.do("p1", "buy Triumph")
    assert game.lines()[0] == "Ann buys the Event Triumph and takes 5 debt."
    assert any(line.startswith("Ann gets +") and "VP (Triumph)" in line for line in game.lines())


def test_vp_taken_from_a_landmark_names_the_landmark() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Basilica"], phase="buy", coins=4)
    game.do("p1", "buy Copper")
    assert "Ann takes 2 VP from Basilica (Basilica)." in game.lines()


def test_tax_debt_taken_from_a_pile_names_the_pile() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Tax"], phase="buy", coins=4)
    game.do("p1", "buy Village")
    assert "Ann takes 1 debt from the Village pile (Tax)." in game.lines()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("buy event Delve", BuyEvent("Delve")),
        ("buy Delve", BuyEvent("Delve")),
        ("pay 3", PayDebt(3)),
        ("pay off 2", PayDebt(2)),
        ("bid 7", Bid(7)),
        ("bid pass", Bid(None)),
        ("buy Settlers", BuyCard("Settlers")),
        ("buy settlers/bustling village", BuyCard("Settlers/Bustling Village")),
    ],
)
def test_the_notation_reads_the_empires_actions(text: str, action: object) -> None:
    game = table(kingdom=KINGDOM, landscapes=["Delve"], phase="buy")
    assert RULESET.parse_notation(text, game.state) == action


def test_a_kingdom_with_landscapes_and_obelisk_round_trips_through_the_notation() -> None:
    game = table(kingdom=KINGDOM)
    action = ChooseKingdom(tuple(KINGDOM), ("Salt the Earth", "Obelisk"), "Temple")
    assert RULESET.parse_notation(RULESET.format_action(action), game.state) == action


def test_the_kingdom_line_names_the_events_and_landmarks() -> None:
    game = table(kingdom=KINGDOM, landscapes=["Delve", "Wall"])
    chosen = KingdomChosen(tuple(sorted(KINGDOM)), "manual", events=("Delve",), landmarks=("Wall",))
    line = RULESET.describe(chosen, game.config)
    assert line.endswith("; Events: Delve; Landmarks: Wall.")
