"""The exact words a user reads in logs and pictures: counts agree with their nouns, nothing
reads `None`, and no line shows a raw JSON object or a poker key vector."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.dominations import actions as dom_actions
from domain.games.dominations import events as dom_events
from domain.games.dominations.describe import describe as dominations_line
from domain.games.dominations.notation import format_action, parse_notation
from domain.games.dominion import events as dominion_events
from domain.games.dominion.describe import describe as dominion_line
from domain.games.dynasties import events as dyn_events
from domain.games.dynasties.cards import evaluate
from domain.games.dynasties.describe import describe as dynasties_line
from domain.picture import picture_of
from domain.ruleset import GameConfig, Seat

CONFIG = GameConfig("g", "test", "physical", (Seat("p1", "Ann"), Seat("p2", "Ben")), {})


def test_a_dominion_card_the_table_sees_reads_as_the_next_card_named() -> None:
    seen = dominion_events.Observed("p1", ("Silver",), 1)
    assert dominion_line(seen, CONFIG) == "The table sees Ann's next card: a Silver."
    two = dominion_events.Observed("p1", ("Copper", "Copper"), 2)
    assert dominion_line(two, CONFIG) == "The table sees Ann's next 2 cards: 2 Coppers."
    hidden = dominion_events.Observed("p2", (), 1)
    assert dominion_line(hidden, CONFIG) == "The table sees Ben's next card."


def _seat_row(picture: Any, label: str) -> tuple[str, ...]:
    rows = [row for section in picture.sections if hasattr(section, "rows") for row in section.rows]
    return next(row.cells for row in rows if row.cells[0] == label)


@pytest.mark.parametrize(("count", "words"), [(1, "1 card"), (0, "0 cards"), (5, "5 cards")])
def test_a_hidden_dominion_hand_counts_its_cards_in_number(count: int, words: str) -> None:
    view = {"players": {"p1": {"hand_count": count}}, "supply": {}, "current": "p1"}
    picture = picture_of("dominion", view, {"p1": "Ann"})
    assert _seat_row(picture, "Ann")[1] == words


def test_dominations_counts_read_in_number() -> None:
    entry = dom_actions.ScoreEntry("p1", "Moche", vp=3)
    lines = [
        dominations_line(dom_events.BaseScoringDeclared(1, (entry,), {}), CONFIG),
        dominations_line(dom_events.BaseScoringDeclared(2, (entry, entry), {}), CONFIG),
        dominations_line(dom_events.FinalScoringDeclared(()), CONFIG),
        dominations_line(dom_events.LandDealt("p1", (), 1, redacted=True), CONFIG),
        dominations_line(dom_events.KeptCardsReset(("R01",)), CONFIG),
        dominations_line(dom_events.GameEnded({"p1": 3, "p2": 5}, ("p2",)), CONFIG),
    ]
    assert lines == [
        "End of Age 1: 1 base-game scoring entry declared.",
        "End of Age 2: 2 base-game scoring entries declared.",
        "Final scoring: no entries declared.",
        "Ann drew 1 land tile.",
        "1 kept rebellion card goes to the discard pile.",
        "The game ends; winner: Ben.",
    ]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (dom_actions.AgeEndBaseScoring(), "score age"),
        (dom_actions.FinalScoring(), "score final"),
        (
            dom_actions.AgeEndBaseScoring(
                (
                    dom_actions.ScoreEntry("p1", "Moche", {"SCI": 2}, influence=1, vp=3),
                    dom_actions.ScoreEntry("p2", "FX1", vp=-2),
                ),
                {"p1": 2},
                True,
                3,
            ),
            "score age p1 Moche 3 VP 1 Influence SCI:2; p2 FX1 -2 VP; dominance p1:2; hegemon 3",
        ),
        (dom_actions.AgeEndBaseScoring(dominance_vp={"p2": 1}), "score age dominance p2:1"),
        (
            dom_actions.FinalScoring((dom_actions.ScoreEntry("p2", "Recuay", vp=4),)),
            "score final p2 Recuay 4 VP",
        ),
    ],
)
def test_a_dominations_scoring_reads_in_words_and_back(action: Any, words: str) -> None:
    assert format_action(action) == words
    assert parse_notation(words) == action


def test_a_dynasties_showdown_names_each_hand_as_players_say_it() -> None:
    attacker, defender = ("2C", "2S", "TS", "QD", "8D"), ("5H", "7H", "8H", "9H", "6H")
    fact = dyn_events.BattleResolved(
        "defender", False, attacker, defender, evaluate(attacker), evaluate(defender), "over"
    )
    assert dynasties_line(fact, CONFIG) == (
        "Showdown: attacker 2C 2S TS QD 8D, a pair of twos (Q 10 8); defender 5H 7H 8H 9H 6H,"
        " a straight flush to the nine: defender wins."
    )


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (("KH", "8D", "4C"), "king high (8 4)"),
        (("AS",), "ace high"),
        (("5S", "5D", "KC", "KD", "9H"), "two pair, kings and fives (9)"),
        (("7S", "7D", "7C"), "three sevens"),
        (("6S", "6D", "6C", "JD", "JH"), "a full house, sixes over jacks"),
        (("AS", "2D", "3C", "4D", "5H"), "a straight to the five"),
        (("KH", "JH", "8H", "5H", "2H"), "a flush, king high (J 8 5 2)"),
        (("9S", "9D", "9C", "9H", "3H"), "four nines (3)"),
    ],
)
def test_each_poker_hand_reads_in_words(cards: tuple[str, ...], words: str) -> None:
    from domain.games.dynasties.cards import hand_words

    assert hand_words(evaluate(cards)) == words


def test_the_first_province_screen_says_the_table_is_setting_up() -> None:
    view = {"status": "setup", "mode": "physical", "turn": 0, "active": None, "phase": None, "players": {}}
    headline = picture_of("province", view, {}).headline
    assert headline == "Setting up: the table decides who goes first"
    assert "None" not in picture_of("province", view | {"mode": "digital"}, {}).headline


def test_the_first_dynasties_screen_says_who_picks_a_homeland() -> None:
    view = {"status": "setup_homelands", "round": 0, "active_player": None, "next_picker": "p2"}
    assert picture_of("dynasties", view, {"p2": "Ben"}).headline == "Setting up: Ben picks a homeland"
