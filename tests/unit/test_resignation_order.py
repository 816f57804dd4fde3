"""A resignation ranks the players who stay by each game's own end-of-game order, tie-breaks
included (domain/endings.py): one scenario per ruleset."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.endings import resignation_outcome
from domain.games.dominations import RULESET as DOMINATIONS
from domain.games.dominion import RULESET as DOMINION
from domain.games.dynasties import RULESET as DYNASTIES
from domain.games.dynasties.state import Player as DkPlayer
from domain.games.province import RULESET as PROVINCE
from domain.ruleset import Outcome, Ruleset
from tests.unit.dominations.scenarios import make as dominations_state
from tests.unit.dominion.scenarios import table as dominion_table
from tests.unit.dynasties.scenarios import start as dynasties_state
from tests.unit.province.scenarios import make_state as province_state


def holding(*cards: str, turns: int = 0) -> dict[str, Any]:
    """A Dominion player's zones: the starting 7 Copper and 3 Estate in the deck, `cards` in
    hand."""
    return {"deck": ["Copper"] * 7 + ["Estate"] * 3, "hand": list(cards), "discard": [], "turns": turns}


def resign(ruleset: Ruleset[Any, Any, Any], state: Any, seat: str, seats: tuple[str, ...]) -> Outcome:
    return resignation_outcome(ruleset, state, seat, seats)


def test_dominion_players_tied_on_vp_after_a_resignation_are_split_by_fewer_turns() -> None:
    # Cid resigns ahead on VP; Ann and Bob have 3 VP each, but Ann has taken one turn more.
    zones = {"p1": holding(turns=3), "p2": holding(turns=2), "p3": holding("Duchy", "Duchy", turns=2)}
    game = dominion_table(players=3, zones=zones)
    outcome = resign(DOMINION, game.state, "p3", ("p1", "p2", "p3"))
    assert outcome.scores == {"p1": 3, "p2": 3, "p3": 9}
    assert outcome.winners == ("p2",)
    assert outcome.ranks == {"p1": 2, "p2": 1, "p3": 3}
    assert outcome.details["turns"] == {"p1": 3, "p2": 2, "p3": 2}


def test_dominion_players_tied_on_vp_and_turns_after_a_resignation_share_the_win() -> None:
    zones = {"p1": holding(turns=2), "p2": holding(turns=2), "p3": holding(turns=2)}
    game = dominion_table(players=3, zones=zones)
    outcome = resign(DOMINION, game.state, "p1", ("p1", "p2", "p3"))
    assert outcome.winners == ("p2", "p3") and outcome.ranks == {"p1": 3, "p2": 1, "p3": 1}


def test_dominion_under_the_later_seat_variant_the_tie_goes_to_the_later_seat() -> None:
    zones = {"p1": holding(), "p2": holding(turns=2), "p3": holding()}
    game = dominion_table(players=3, zones=zones, tiebreak_earlier_seat_loses=True)
    outcome = resign(DOMINION, game.state, "p1", ("p1", "p2", "p3"))
    assert outcome.winners == ("p3",) and outcome.ranks == {"p1": 3, "p2": 2, "p3": 1}


def test_dominion_a_resignation_counts_the_landmarks_as_the_end_of_game_does() -> None:
    # Orchard: 4 VP per Action pile of which the player has 3 or more (dominion.md 5.6).
    game = dominion_table(
        players=3,
        kingdom=(
            "Village",
            "Smithy",
            "Market",
            "Festival",
            "Laboratory",
            "Cellar",
            "Chapel",
            "Moat",
            "Mine",
            "Witch",
        ),
        landscapes=("Orchard",),
        zones={"p1": holding("Village", "Village", "Village"), "p2": holding(), "p3": holding("Duchy")},
    )
    outcome = resign(DOMINION, game.state, "p2", ("p1", "p2", "p3"))
    assert outcome.scores == {"p1": 7, "p2": 3, "p3": 6}
    assert outcome.winners == ("p1",)


def test_dominations_a_tie_for_most_vp_after_a_resignation_goes_to_most_influence_under_the_variant() -> None:
    players = {"p1": {"vp": 12, "influence": 2}, "p2": {"vp": 12, "influence": 5}, "p3": {"vp": 20}}
    tied = dominations_state(options={"final_tie_rule": "most_influence"}, players=players)
    outcome = resign(DOMINATIONS, tied, "p3", ("p1", "p2", "p3"))
    assert outcome.winners == ("p2",) and outcome.ranks == {"p1": 2, "p2": 1, "p3": 3}
    shared = dominations_state(players=players)
    outcome = resign(DOMINATIONS, shared, "p3", ("p1", "p2", "p3"))
    assert outcome.winners == ("p1", "p2") and outcome.ranks == {"p1": 1, "p2": 1, "p3": 3}


def test_dominations_influence_breaks_only_a_tie_for_first_as_at_the_end() -> None:
    players = {
        "p1": {"vp": 15, "influence": 0},
        "p2": {"vp": 9, "influence": 1},
        "p3": {"vp": 9, "influence": 6},
        "p4": {"vp": 30},
    }
    state = dominations_state(seats=4, options={"final_tie_rule": "most_influence"}, players=players)
    outcome = resign(DOMINATIONS, state, "p4", ("p1", "p2", "p3", "p4"))
    assert outcome.winners == ("p1",) and outcome.ranks == {"p1": 1, "p2": 2, "p3": 2, "p4": 4}


def test_dynasties_the_last_player_standing_wins_when_a_resignation_leaves_it_alone() -> None:
    state = dynasties_state(
        players=("red", "blue", "green"),
        active="red",
        phase="city",
        provinces={"kaifeng": "red 2"},
        options={"elimination": "last_player_standing_wins"},
    )
    players = (DkPlayer("red", 10), DkPlayer("blue", 40, eliminated=True), DkPlayer("green", 60))
    state = replace(state, players=players)
    outcome = resign(DYNASTIES, state, "green", ("red", "blue", "green"))
    assert outcome.winners == ("red",) and outcome.ranks == {"red": 1, "blue": 2, "green": 3}
    # Without the variant the eliminated player keeps its VT and the most VT win.
    plain = replace(state, opts=replace(state.opts, elimination="continue"))
    outcome = resign(DYNASTIES, plain, "green", ("red", "blue", "green"))
    assert outcome.winners == ("blue",) and outcome.ranks == {"red": 2, "blue": 1, "green": 3}


def test_province_the_player_who_stays_wins_behind_on_score_with_the_score_broken_down() -> None:
    state = province_state(
        {"turn": 5, "active": "A", "phase": "move", "players": {"A": {"coins": 10}, "B": {"coins": 5}}}
    )
    outcome = resign(PROVINCE, state, "A", ("A", "B"))
    assert outcome.winners == ("B",) and outcome.ranks == {"A": 2, "B": 1}
    assert outcome.scores == {"A": 2, "B": 1}  # a VP per 5 coins (province.md 8.2)
    assert outcome.details["scores"]["A"]["coin_vp"] == 2 and outcome.details["resigned"] == "A"
