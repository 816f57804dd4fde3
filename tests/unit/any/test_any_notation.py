"""The notation of `any` (rules.md section 4): every form reads as its action, refusals carry
the stable code `bad_params`, and what `format_action` writes reads back the same."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.games.any import RULESET
from domain.games.any.actions import (
    Action,
    Discard,
    Draw,
    EndGame,
    EndRound,
    EndTurn,
    Note,
    Pass,
    Reveal,
    Roll,
    Score,
    Shuffle,
)
from domain.ruleset import Rejection, Seat
from domain.suggestions import with_suggestion
from tests.unit.any.scenarios import MARKET, config, table

STATE = RULESET.initial(config(players=3))

LINES: list[tuple[str, Action]] = [
    ("roll 2d6", Roll("2d6")),
    ("roll 2d6 = 3 5", Roll("2d6", (3, 5))),
    ("roll dice", Roll("dice")),
    ("roll dice = 1 1 4 5 6", Roll("dice", (1, 1, 4, 5, 6))),
    ("roll colour = red", Roll("colour", ("red",))),
    ('roll colour = "deep red"', Roll("colour", ("deep red",))),
    ("shuffle market", Shuffle("market")),
    ("draw 2 market to Ann", Draw("market", "A", 2)),
    ("draw 1 market to table", Draw("market", "table", 1)),
    ("draw market to B", Draw("market", "B", 1)),
    ("draw 2 market to Ann = Gold Silver", Draw("market", "A", 2, ("Gold", "Silver"))),
    ('draw 1 market to table = "Gold Coin"', Draw("market", "table", 1, ("Gold Coin",))),
    ("reveal Ann Gold", Reveal("A", "Gold")),
    ("reveal Ann Gold Coin", Reveal("A", "Gold Coin")),
    ("discard Ann Gold", Discard("A", "Gold")),
    ("discard table Gold", Discard("table", "Gold")),
    ("pass Ann Gold to Ben", Pass("A", "Gold", "B")),
    ("pass ann Gold Coin to cy", Pass("A", "Gold Coin", "C")),
    ("score Ann +8", Score(8, "A")),
    ("score Ann -2", Score(-2, "A")),
    ("score Ann coins +3", Score(3, "A", "coins")),
    ("score outbreaks +1", Score(1, None, "outbreaks")),
    ("note the cat sat on the board", Note("the cat sat on the board")),
    ("end turn", EndTurn()),
    ("End Round", EndRound()),
    ("end game", EndGame()),
    ("end game Ann 32 Ben 28", EndGame(scores={"A": 32, "B": 28})),
    ("end game ranks Ann 1 Ben 2", EndGame(ranks={"A": 1, "B": 2})),
    ("end game winners Ann", EndGame(winners=("A",))),
    ("end game Ann 32 Ben 28 winners Ann", EndGame(scores={"A": 32, "B": 28}, winners=("A",))),
    ("end game won", EndGame(won=True)),
    ("end game lost", EndGame(won=False)),
]


@pytest.mark.parametrize(("line", "action"), LINES, ids=[line for line, _ in LINES])
def test_each_notation_line_reads_as_its_action_and_formats_back_to_it(line: str, action: Action) -> None:
    assert RULESET.parse_notation(line, STATE) == action
    assert RULESET.parse_notation(RULESET.format_action(action), STATE) == action


def test_a_player_named_in_several_words_is_read_whole() -> None:

    made = config(players=2)
    made = replace(made, seats=(Seat("A", "Mary Ann"), Seat("B", "Ben")))
    state = RULESET.initial(made)
    assert RULESET.parse_notation("draw 1 market to Mary Ann", state) == Draw("market", "A", 1)
    assert RULESET.parse_notation("score mary ann +2", state) == Score(2, "A")
    assert RULESET.parse_notation('pass "Mary Ann" Gold to Ben', state) == Pass("A", "Gold", "B")


@pytest.mark.parametrize(
    "line",
    [
        "",
        "jump 3",
        "roll",
        "roll 2d6 3 5",
        "shuffle",
        "draw 2 market",
        "draw 2 market to Zed",
        "reveal Zed Gold",
        "reveal Ann",
        "pass Ann Gold",
        "pass Ann Gold to Zed",
        "score Ann",
        "score Ann lots",
        "note",
        "end",
        "end turn now",
        "end game ranks",
        "end game Ann",
        'roll colour = "red',
    ],
)
def test_a_line_that_does_not_read_is_refused_with_the_notation_code(line: str) -> None:
    found = RULESET.parse_notation(line, STATE)
    assert isinstance(found, Rejection) and found.code == "bad_params" and found.rule == "any 4"


def test_a_misspelt_line_is_answered_with_the_closest_words_of_the_game() -> None:
    state = table(MARKET).state
    line = "drwa 1 markte to Ben"
    refused = RULESET.parse_notation(line, state)
    assert isinstance(refused, Rejection)
    answer = with_suggestion(refused, RULESET, state, [None], line)
    assert answer.message.endswith("Did you mean 'draw 1 market to Ben'?")
