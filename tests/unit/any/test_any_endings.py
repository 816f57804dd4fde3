"""How a game of `any` ends and ranks (rules.md section 6): each ending, each tiebreak, and each
result a table may enter for a game recorded afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.any import RULESET
from domain.games.any.events import GameEnded
from domain.ruleset import Outcome
from tests.unit.any.scenarios import Table, table


def ended(game: Table, line: str = "end game") -> Outcome:
    game.play(line)
    found = RULESET.outcome(game.state)
    assert found is not None
    return found


def scored(definition: dict[str, Any], *lines: str, players: int = 3) -> Table:
    game = table(definition, players=players)
    game.play(*lines)
    return game


def test_the_highest_score_wins_and_equal_scores_share_a_rank() -> None:
    game = scored({}, "score A +5", "score B +5", "score C +2")
    result = ended(game)
    assert result.scores == {"A": 5, "B": 5, "C": 2}
    assert result.ranks == {"A": 1, "B": 1, "C": 3} and result.winners == ("A", "B")


def test_the_lowest_score_wins_under_a_lowest_ending() -> None:
    game = scored({"ending": {"kind": "lowest"}}, "score A +5", "score B +1", "score C +3")
    result = ended(game)
    assert result.ranks == {"A": 3, "B": 1, "C": 2} and result.winners == ("B",)


def test_a_tiebreak_track_separates_tied_players_in_the_same_direction() -> None:
    definition = {"tracks": [{"name": "vp"}, {"name": "coins"}], "ending": {"tiebreak": "coins"}}
    game = scored(definition, "score A +5", "score B +5", "score B coins +2", "score C +5")
    result = ended(game)
    assert result.ranks == {"A": 2, "B": 1, "C": 2} and result.winners == ("B",)
    lowest = {**definition, "ending": {"kind": "lowest", "tiebreak": "coins"}}
    game = scored(lowest, "score A +1", "score B +1", "score B coins +2", "score C +3")
    assert ended(game).ranks == {"A": 1, "B": 2, "C": 3}


def test_an_entered_tiebreak_asks_the_table_for_the_ranks_when_players_are_tied() -> None:
    game = scored({"ending": {"tiebreak": "entered"}}, "score A +5", "score B +5")
    assert game.refused("end game").code == "tie_to_break"
    result = ended(game, "end game ranks A 2 B 1 C 3")
    assert result.ranks == {"A": 2, "B": 1, "C": 3} and result.winners == ("B",)
    untied = scored({"ending": {"tiebreak": "entered"}}, "score A +5", "score B +4")
    assert ended(untied).winners == ("A",)


def test_a_ranks_ending_takes_the_ranks_the_table_enters() -> None:
    game = table({"ending": {"kind": "ranks"}}, players=3)
    assert game.refused("end game").code == "ranks_required"
    assert game.refused("end game ranks A 1 B 2").code == "incomplete_result"
    assert game.refused("end game ranks A 2 B 3 C 3").code == "bad_ranks"
    result = ended(game, "end game ranks A 2 B 1 C 2")
    assert result.ranks == {"A": 2, "B": 1, "C": 2} and result.winners == ("B",)


COOPERATIVE = {
    "tracks": [{"name": "outbreaks", "per": "table", "min": 0, "max": 3}],
    "ending": {"kind": "cooperative"},
}


def test_a_cooperative_game_is_won_or_lost_by_everyone() -> None:
    game = table(COOPERATIVE, players=3)
    assert game.refused("end game").code == "result_required"
    assert game.refused("end game winners A").code == "cooperative_result"
    won = ended(game, "end game won")
    assert won.winners == ("A", "B", "C") and won.ranks == dict.fromkeys("ABC", 1) and won.details["won"]
    lost = ended(table(COOPERATIVE, players=3), "end game lost")
    assert lost.winners == () and lost.ranks == dict.fromkeys("ABC", 1) and lost.details["won"] is False


def test_reaching_the_loss_tracks_maximum_ends_a_cooperative_game_lost_at_once() -> None:
    game = table(COOPERATIVE, players=2)
    game.play("score outbreaks +2")
    assert RULESET.outcome(game.state) is None
    facts = game.play("score outbreaks +1")
    assert isinstance(facts[-1], GameEnded) and facts[-1].won is False
    result = RULESET.outcome(game.state)
    assert result is not None and result.winners == () and result.reason == "the outbreaks track reached 3"
    assert RULESET.pending(game.state) == ()


def test_entered_final_scores_rank_as_the_ending_ranks_its_track() -> None:
    result = ended(table(players=3), "end game Ann 32 Ben 28 Cy 32")
    assert result.scores == {"A": 32, "B": 28, "C": 32} and result.ranks == {"A": 1, "B": 3, "C": 1}
    assert result.details["entered"] is True
    lowest = ended(table({"ending": {"kind": "lowest"}}, players=2), "end game A 3 B 9")
    assert lowest.winners == ("A",)
    assert table(players=3).refused("end game A 32 B 28").code == "incomplete_result"


def test_entered_winners_alone_rank_first_and_everybody_else_second() -> None:
    result = ended(table(players=3), "end game winners Ben")
    assert result.winners == ("B",) and result.ranks == {"A": 2, "B": 1, "C": 2}
    nobody = ended(table(players=2), "end game winners")
    assert nobody.winners == () and nobody.ranks == {"A": 1, "B": 1}


def test_entered_winners_with_scores_stand_as_given_and_the_others_rank_by_score() -> None:
    result = ended(table(players=3), "end game A 10 B 30 C 20 winners A")
    assert result.scores == {"A": 10, "B": 30, "C": 20}
    assert result.winners == ("A",) and result.ranks == {"A": 1, "B": 2, "C": 3}


def test_a_cooperative_games_winners_say_whether_it_was_won() -> None:
    assert ended(table(COOPERATIVE, players=2), "end game winners A B").details["won"] is True
    assert ended(table(COOPERATIVE, players=2), "end game winners").details["won"] is False


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("end game won", "not_cooperative"),
        ("end game ranks A 1 B 2 winners", "bad_params"),
        ("end game Zed 3", "bad_params"),
    ],
)
def test_a_result_that_does_not_fit_the_game_is_refused(line: str, code: str) -> None:
    assert table().refused(line).code == code
