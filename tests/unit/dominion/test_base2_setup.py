"""Setup under `base_edition` (dominion-2e.md 1): the pool of random kingdoms per edition, named
kingdoms mixing both editions, Empires with either edition, and the option itself."""

from __future__ import annotations

from domain.games.dominion import RULESET
from domain.games.dominion.actions import ChooseKingdom
from domain.games.dominion.data import DATA
from domain.games.dominion.events import KingdomChosen
from domain.ruleset import GameConfig, Rejection, Seat, resolve_options
from tests.unit.dominion.scenarios import Game, config

NEW = {"Artisan", "Bandit", "Harbinger", "Merchant", "Poacher", "Sentry", "Vassal"}
REMOVED = {"Adventurer", "Chancellor", "Feast", "Spy", "Thief", "Woodcutter"}
# Every card kept with the same effect: excluding them leaves exactly the 10 cards edition 2
# added or changed.
KEPT = (
    "Bureaucrat,Cellar,Chapel,Council Room,Festival,Gardens,Laboratory,Library,Market,Militia,"
    "Moat,Remodel,Smithy,Village,Witch,Workshop"
)


def kingdom(game: Game) -> set[str]:
    return set(next(f for f in game.facts if isinstance(f, KingdomChosen)).piles)


def test_the_first_edition_is_the_default_and_its_kingdom_draw_is_unchanged() -> None:
    cfg = config(2, game_id="g-edition")
    assert cfg.options["base_edition"] == 1
    assert DATA.randomizers("base") == DATA.kingdom and len(DATA.kingdom) == 25
    assert not NEW & set(DATA.kingdom)
    drawn = [kingdom(Game(config(2, game_id=f"g-{i}"))) for i in range(30)]
    assert all(not k & NEW for k in drawn)
    assert any(k & REMOVED for k in drawn)


def test_the_second_edition_draws_from_its_26_cards_never_a_removed_one() -> None:
    assert len(DATA.kingdom_2e) == 26 and set(DATA.kingdom_2e) == (set(DATA.kingdom) - REMOVED) | NEW
    drawn = [kingdom(Game(config(2, game_id=f"g-{i}", base_edition=2))) for i in range(30)]
    assert all(len(k) == 10 and not k & REMOVED for k in drawn)
    assert set().union(*drawn) >= NEW


def test_excluding_the_kept_cards_leaves_the_ten_new_or_changed_ones() -> None:
    game = Game(config(2, base_edition=2, exclude=KEPT))
    assert kingdom(game) == NEW | {"Throne Room", "Moneylender", "Mine"}
    assert game.state.variants.base_second_edition_wording


def test_an_exclusion_is_judged_against_the_pool_of_the_edition() -> None:
    meta = RULESET.meta

    def check(**options: object) -> Rejection | None:
        resolved = resolve_options(meta, options)
        assert not isinstance(resolved, Rejection)
        seats = (Seat("p1", "Ann"), Seat("p2", "Bob"))
        return RULESET.check_config(GameConfig("g", "dominion", "digital", seats, resolved))

    assert check(base_edition=2, exclude=KEPT) is None
    # Edition 1 has no new cards to fill the kingdom: excluding its kept cards leaves 9.
    refused = check(exclude=KEPT)
    assert refused is not None and refused.code == "bad_exclude"
    # A removed card may be named in an exclusion under edition 2 (it is a base pile).
    assert check(base_edition=2, exclude="Thief") is None
    unknown = check(base_edition=2, exclude="Bogus")
    assert unknown is not None and unknown.code == "bad_exclude"
    assert isinstance(resolve_options(meta, {"base_edition": 3}), Rejection)


def test_a_named_kingdom_may_mix_both_editions_under_either() -> None:
    mixed = "kingdom Sentry, Vassal, Merchant, Thief, Adventurer, Chancellor, Feast, Spy, Woodcutter, Cellar"
    for edition in (1, 2):
        game = Game(config(2, kingdom="manual", base_edition=edition))
        game.do(None, mixed)
        assert {"Sentry", "Thief"} <= set(game.state.supply)


def test_empires_plays_with_either_edition() -> None:
    seen_first: set[str] = set()
    seen_second: set[str] = set()
    for i in range(20):
        first = kingdom(Game(config(2, game_id=f"e-{i}", expansions="base,empires")))
        second = kingdom(Game(config(2, game_id=f"e-{i}", expansions="base,empires", base_edition=2)))
        assert not first & NEW and not second & REMOVED
        seen_first |= first
        seen_second |= second
    assert seen_second & NEW and seen_second & set(DATA.empires_piles)
    assert seen_first & REMOVED
    assert len(DATA.randomizers("base,empires", 2)) == 26 + 24


def test_the_option_is_listed_with_its_choices() -> None:
    option = RULESET.meta.option("base_edition")
    assert option is not None and option.default == 1 and option.choices == (1, 2)


def _offered(game: Game) -> tuple[set[str], list[set[str]]]:
    """The presets a physical game's kingdom prompt names, and the kingdoms its legal actions
    offer the recorder."""
    (prompt,) = RULESET.pending(game.state)
    legal = RULESET.legal_actions(game.state, None)
    return set(prompt.bounds["presets"]), [set(a.piles) for a in legal if isinstance(a, ChooseKingdom)]


def test_a_second_edition_table_is_offered_no_first_edition_preset() -> None:
    first, first_legal = _offered(Game(config(2, mode="physical", kingdom="manual")))
    assert {"first_game", "big_money", "size_distortion"} <= first
    assert any("Woodcutter" in k for k in first_legal)
    second, second_legal = _offered(Game(config(2, mode="physical", kingdom="manual", base_edition=2)))
    # No preset fits: the prompt offers one kingdom of the 2nd-edition pool to show the shape.
    assert second == set() and len(second_legal) == 1 and not second_legal[0] & REMOVED
    with_empires = Game(
        config(2, mode="physical", kingdom="manual", base_edition=2, expansions="base,empires")
    )
    presets, legal = _offered(with_empires)
    assert presets == {"basic_intro", "advanced_intro"} and all(not k & REMOVED for k in legal)


def test_a_preset_outside_the_game_s_sets_and_edition_is_refused_at_creation() -> None:
    for options in ({"base_edition": 2, "kingdom": "first_game"}, {"kingdom": "basic_intro"}):
        resolved = resolve_options(RULESET.meta, options)
        assert not isinstance(resolved, Rejection)
        cfg = GameConfig("g-preset", "dominion", "physical", (Seat("p1", "A"), Seat("p2", "B")), resolved)
        refused = RULESET.check_config(cfg)
        assert isinstance(refused, Rejection) and refused.code == "preset_not_in_sets", options
        assert "kingdom=manual" in refused.message
    resolved = resolve_options(RULESET.meta, {"kingdom": "first_game"})
    assert not isinstance(resolved, Rejection)
    cfg = GameConfig("g-preset", "dominion", "physical", (Seat("p1", "A"), Seat("p2", "B")), resolved)
    assert RULESET.check_config(cfg) is None
