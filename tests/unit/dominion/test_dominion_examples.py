"""The base-game worked examples of dominion.md section 9 (S7 and S19), one test each part."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.dominion import RULESET
from tests.unit.dominion.scenarios import Game, table

S7_KINGDOM = "village_square"  # holds Throne Room, Market, Village and Smithy


def test_s7_throne_room_on_market_counts_actions_buys_and_coins_twice() -> None:
    game = table(
        kingdom=S7_KINGDOM,
        zones={
            "p1": {
                "hand": ["Throne Room", "Market", "Village"],
                "deck": ["Copper", "Smithy", "Estate", "Gold"],
            }
        },
    )
    game.do("p1", "play Throne Room")
    assert game.state.actions == 0
    assert game.prompts() == [("p1", "throne")]
    assert sorted(game.legal("p1")) == ["select play Market", "select play Village"]
    game.do("p1", "select play Market")
    assert (game.state.actions, game.state.buys, game.state.coins) == (2, 3, 2)
    game.do("p1", "play Village")
    p1 = game.player("p1")
    assert (game.state.actions, game.state.buys, game.state.coins) == (3, 3, 2)
    assert p1.hand == ("Copper", "Smithy", "Estate")
    assert p1.play == ("Throne Room", "Market", "Village")
    assert p1.deck == ("Gold",)


def _s19(
    current: str,
    turn: int,
    p1_turns: int,
    p2_turns: int,
    p1_estates: int,
    p2_estates: int,
    tiebreak: bool = False,
) -> Game:
    p1_cards = ["Estate"] * p1_estates + ["Province"] * 3 + ["Duchy"] * 3 + ["Curse"] * 3 + ["Copper"] * 7
    p2_cards = ["Estate"] * p2_estates + ["Province"] * 4 + ["Duchy"] + ["Curse"] * 3 + ["Copper"] * 7
    game = table(
        kingdom=[
            "Cellar",
            "Chapel",
            "Moat",
            "Village",
            "Woodcutter",
            "Workshop",
            "Smithy",
            "Militia",
            "Market",
            "Mine",
        ],
        current=current,
        phase="buy",
        coins=2,
        turn=turn,
        zones={
            "p1": {"hand": [], "deck": ["Silver"] * 5, "discard": p1_cards, "play": []},
            "p2": {"hand": [], "deck": ["Silver"] * 5, "discard": p2_cards, "play": []},
        },
        supply={"Curse": 0, "Village": 0, "Estate": 1, "Province": 1},
        tiebreak_earlier_seat_loses=tiebreak,
    )
    players = list(game.state.players)
    players[0] = replace(players[0], turns=p1_turns)
    players[1] = replace(players[1], turns=p2_turns, vp=1)
    game.state = replace(game.state, players=tuple(players))
    return game


def test_s19_a_third_empty_pile_ends_the_game_and_fewer_turns_win_a_tie() -> None:
    game = _s19("p1", 31, 16, 15, 5, 5)
    game.do("p1", "buy Estate")
    assert game.pile("Estate") == 0
    game.do("p1", "end")
    outcome = RULESET.outcome(game.state)
    assert outcome is not None
    assert outcome.scores == {"p1": 30, "p2": 30}
    assert outcome.winners == ("p2",)
    assert outcome.reason == "piles_empty"
    assert RULESET.pending(game.state) == ()


def test_s19_the_earlier_seat_loses_variant_also_gives_p2_the_win() -> None:
    game = _s19("p1", 31, 16, 15, 5, 5, tiebreak=True)
    game.do("p1", "buy Estate")
    game.do("p1", "end")
    outcome = RULESET.outcome(game.state)
    assert outcome is not None and outcome.winners == ("p2",)


def test_s19_b_a_tie_after_equal_turns_is_a_shared_victory() -> None:
    game = _s19("p2", 32, 16, 16, 6, 4)
    game.do("p2", "buy Estate")
    game.do("p2", "end")
    outcome = RULESET.outcome(game.state)
    assert outcome is not None
    assert outcome.scores == {"p1": 30, "p2": 30}
    assert outcome.winners == ("p1", "p2")
    assert outcome.ranks == {"p1": 1, "p2": 1}


def test_s19_b_under_the_earlier_seat_loses_variant_p2_wins_outright() -> None:
    game = _s19("p2", 32, 16, 16, 6, 4, tiebreak=True)
    game.do("p2", "buy Estate")
    game.do("p2", "end")
    outcome = RULESET.outcome(game.state)
    assert outcome is not None
    assert outcome.winners == ("p2",)
    assert outcome.ranks == {"p1": 2, "p2": 1}
