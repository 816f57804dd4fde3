"""Setup of the base game for 2, 3 and 4 players (dominion.md 1.2-1.5, 1.9, 6.1)."""

from __future__ import annotations

import pytest

from domain.games.dominion import RULESET
from domain.games.dominion.data import DATA
from domain.games.dominion.events import FirstPlayerChosen, KingdomChosen, Shuffled, TurnStarted
from tests.unit.dominion.scenarios import Game, config

SIZES = {
    2: {
        "Copper": 46,
        "Silver": 40,
        "Gold": 30,
        "Estate": 8,
        "Duchy": 8,
        "Province": 8,
        "Curse": 10,
        "Gardens": 8,
    },
    3: {
        "Copper": 39,
        "Silver": 40,
        "Gold": 30,
        "Estate": 12,
        "Duchy": 12,
        "Province": 12,
        "Curse": 20,
        "Gardens": 12,
    },
    4: {
        "Copper": 32,
        "Silver": 40,
        "Gold": 30,
        "Estate": 12,
        "Duchy": 12,
        "Province": 12,
        "Curse": 30,
        "Gardens": 12,
    },
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_supply_follows_the_player_count(players: int) -> None:
    game = Game(config(players, kingdom="size_distortion"))
    for pile, size in SIZES[players].items():
        assert game.pile(pile) == size, pile
    assert game.pile("Witch") == 10
    assert len(game.state.supply) == 17


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_seven_coppers_and_three_estates_and_draws_five(players: int) -> None:
    game = Game(config(players))
    for pl in game.state.players:
        assert len(pl.hand) == 5 and len(pl.deck) == 5
        assert sorted(pl.hand + pl.deck) == ["Copper"] * 7 + ["Estate"] * 3
    assert sum(isinstance(f, Shuffled) for f in game.facts) == players


def test_the_first_player_is_drawn_from_the_seed_and_takes_turn_one() -> None:
    firsts = set()
    for i in range(12):
        game = Game(config(3, game_id=f"first-{i}"))
        chosen = next(f for f in game.facts if isinstance(f, FirstPlayerChosen))
        started = next(f for f in game.facts if isinstance(f, TurnStarted))
        assert chosen.stream == "first-player" and chosen.n == 0
        assert started.player == chosen.player and started.turn == 1
        firsts.add(chosen.player)
    assert firsts == {"p1", "p2", "p3"}


def test_a_random_kingdom_is_ten_distinct_piles_drawn_with_the_seeded_rng() -> None:
    a = Game(config(2, game_id="kingdom-a"))
    b = Game(config(2, game_id="kingdom-a"))
    c = Game(config(2, game_id="kingdom-c"))
    chosen = next(f for f in a.facts if isinstance(f, KingdomChosen))
    assert chosen.method == "random" and chosen.stream == "kingdom"
    assert len(set(a.state.kingdom)) == 10 and set(a.state.kingdom) <= set(DATA.kingdom)
    assert a.state.kingdom == b.state.kingdom
    assert a.state.kingdom != c.state.kingdom


@pytest.mark.parametrize("preset", sorted(DATA.presets))
def test_each_recommended_kingdom_is_a_preset(preset: str) -> None:
    game = Game(config(2, kingdom=preset))
    assert game.state.kingdom == tuple(sorted(DATA.presets[preset]))
    assert game.state.method == preset


def test_the_first_game_preset_names_the_spec_cards() -> None:
    assert sorted(DATA.presets["first_game"]) == [
        "Cellar",
        "Market",
        "Militia",
        "Mine",
        "Moat",
        "Remodel",
        "Smithy",
        "Village",
        "Woodcutter",
        "Workshop",
    ]


def test_a_manual_kingdom_is_named_by_the_recorder_and_checked() -> None:
    game = Game(config(2, kingdom="manual"))
    assert game.prompts() == [(None, "kingdom")]
    assert (
        game.refused(
            None, "kingdom Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Bogus"
        ).code
        == "unknown_pile"
    )
    assert (
        game.refused(
            None,
            "kingdom Cellar, Cellar, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop",
        ).code
        == "kingdom_size"
    )
    game.do(
        None, "kingdom Witch, Gardens, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop"
    )
    assert game.state.method == "manual" and game.state.status == "playing"
    assert game.pile("Gardens") == 8


def test_the_game_refuses_turn_actions_from_a_player_whose_turn_it_is_not() -> None:
    game = Game(config(2, kingdom="first_game", game_id="turns"))
    other = "p2" if game.state.current == 0 else "p1"
    rejection = game.refused(other, "end")
    assert rejection.code == "not_your_turn" and rejection.rule == "dominion 4.2"


def test_the_metadata_names_seats_p1_to_p6_for_two_to_six_players() -> None:
    meta = RULESET.meta
    assert meta.seat_ids == ("p1", "p2", "p3", "p4", "p5", "p6")
    assert (meta.min_players, meta.max_players) == (2, 6)
    assert {o.name for o in meta.options} >= {
        "four_piles_at_four_players",
        "tiebreak_earlier_seat_loses",
        "kingdom",
    }


def test_the_card_data_is_checked_when_it_is_loaded() -> None:
    from msgspec.structs import replace

    from domain.games.dominion.data import CardDataError, _check

    raw = DATA.raw
    _check(raw)
    with pytest.raises(CardDataError, match="preset"):
        _check(replace(raw, presets={**raw.presets, "bad": ("Cellar",) * 10}))
    # a 2nd-edition preset may not hold a card the 2nd edition removed
    with pytest.raises(CardDataError, match="2nd-edition preset"):
        _check(replace(raw, presets_2e={**raw.presets_2e, "first_game": raw.presets["first_game"]}))
    with pytest.raises(CardDataError, match="unique"):
        _check(replace(raw, kingdom=(*raw.kingdom, raw.kingdom[0])))
    assert DATA.cost["Province"] == (8, 0) and DATA.pile_size("Copper", 4) == 32
