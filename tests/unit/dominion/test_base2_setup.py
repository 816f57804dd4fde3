"""Setup under `base_edition` (dominion-2e.md 1): the pool of random kingdoms per edition, named
kingdoms mixing both editions, the recommended kingdoms of each edition (rules.md 1.5), Empires
with either edition, and the option itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.games import dominion
from domain.games.dominion import RULESET
from domain.games.dominion.actions import ChooseKingdom
from domain.games.dominion.data import DATA
from domain.games.dominion.events import KingdomChosen
from domain.ruleset import GameConfig, Mode, Rejection, Seat, resolve_options
from tests.unit.dominion.scenarios import Game, config

NEW = {"Artisan", "Bandit", "Harbinger", "Merchant", "Poacher", "Sentry", "Vassal"}
REMOVED = {"Adventurer", "Chancellor", "Feast", "Spy", "Thief", "Woodcutter"}
# Every card kept with the same effect: excluding them leaves exactly the 10 cards edition 2
# added or changed.
KEPT = (
    "Bureaucrat,Cellar,Chapel,Council Room,Festival,Gardens,Laboratory,Library,Market,Militia,"
    "Moat,Remodel,Smithy,Village,Witch,Workshop"
)
# The six kingdoms the 2nd edition's (2016) base rulebook recommends, copied from the rulebook.
PRESETS_2E = {
    "first_game": "Cellar, Market, Merchant, Militia, Mine, Moat, Remodel, Smithy, Village, Workshop",
    "size_distortion": (
        "Artisan, Bandit, Bureaucrat, Chapel, Festival, Gardens, Sentry, Throne Room, Witch, Workshop"
    ),
    "deck_top": (
        "Artisan, Bureaucrat, Council Room, Festival, Harbinger, Laboratory, Moneylender, Sentry, Vassal, "
        "Village"
    ),
    "sleight_of_hand": (
        "Cellar, Council Room, Festival, Gardens, Harbinger, Library, Militia, Poacher, Smithy, Throne Room"
    ),
    "improvements": "Artisan, Cellar, Market, Merchant, Mine, Moat, Moneylender, Poacher, Remodel, Witch",
    "silver_and_silver": (
        "Bandit, Bureaucrat, Chapel, Harbinger, Laboratory, Merchant, Mine, Moneylender, Throne Room, Vassal"
    ),
}
ONLY_2E = ("deck_top", "sleight_of_hand", "improvements", "silver_and_silver")


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


def _piles(preset: str) -> set[str]:
    return set(PRESETS_2E[preset].split(", "))


def test_a_second_edition_table_is_offered_its_six_kingdoms_and_no_first_edition_one() -> None:
    first, first_legal = _offered(Game(config(2, mode="physical", kingdom="manual")))
    assert first == {"big_money", "first_game", "interaction", "size_distortion", "village_square"}
    assert any("Woodcutter" in k for k in first_legal)
    second_game = Game(config(2, mode="physical", kingdom="manual", base_edition=2))
    second, second_legal = _offered(second_game)
    assert second == set(PRESETS_2E)
    (prompt,) = RULESET.pending(second_game.state)
    assert {name: set(piles) for name, piles in prompt.bounds["presets"].items()} == {
        name: _piles(name) for name in PRESETS_2E
    }
    assert sorted(map(sorted, second_legal)) == sorted(sorted(_piles(name)) for name in PRESETS_2E)
    assert all(not k & REMOVED for k in second_legal)
    with_empires = Game(
        config(2, mode="physical", kingdom="manual", base_edition=2, expansions="base,empires")
    )
    presets, legal = _offered(with_empires)
    assert presets == {*PRESETS_2E, "basic_intro", "advanced_intro"} and all(not k & REMOVED for k in legal)


def _creatable(mode: Mode, **options: object) -> GameConfig:
    """A config the ruleset accepts at creation (`check_config`), as the API would create it."""
    resolved = resolve_options(RULESET.meta, options)
    assert not isinstance(resolved, Rejection), resolved
    cfg = GameConfig("g-preset", "dominion", mode, (Seat("p1", "A"), Seat("p2", "B")), resolved)
    assert RULESET.check_config(cfg) is None, options
    return cfg


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("preset", sorted(PRESETS_2E))
def test_each_second_edition_kingdom_sets_up_exactly_its_ten_piles(preset: str, mode: Mode) -> None:
    game = Game(_creatable(mode, base_edition=2, kingdom=preset))
    chosen = next(f for f in game.facts if isinstance(f, KingdomChosen))
    assert set(chosen.piles) == _piles(preset) and len(chosen.piles) == 10
    assert chosen.method == preset and chosen.events == chosen.landmarks == ()
    assert set(game.state.kingdom) == _piles(preset) and not _piles(preset) & REMOVED
    assert set(game.state.supply) == _piles(preset) | set(DATA.basic)
    assert game.state.variants.base_second_edition_wording
    if mode == "physical":  # the kingdom is laid out; the table names its first player next
        (prompt,) = RULESET.pending(game.state)
        assert prompt.kind == "first_player"


def test_a_preset_name_keeps_its_first_edition_set_under_the_first_edition() -> None:
    for name in ("first_game", "size_distortion"):
        first = Game(_creatable("digital", kingdom=name))
        assert set(first.state.kingdom) == set(DATA.presets[name]) and "Woodcutter" in first.state.kingdom
        second = Game(_creatable("digital", kingdom=name, base_edition=2))
        assert set(second.state.kingdom) == _piles(name) != set(first.state.kingdom)


@pytest.mark.parametrize("preset", ONLY_2E)
def test_a_second_edition_only_kingdom_is_refused_under_the_first_edition(preset: str) -> None:
    for options in ({}, {"expansions": "base,empires"}):
        resolved = resolve_options(RULESET.meta, {"kingdom": preset, **options})
        assert not isinstance(resolved, Rejection)  # a name the option knows
        cfg = GameConfig("g-preset", "dominion", "digital", (Seat("p1", "A"), Seat("p2", "B")), resolved)
        refused = RULESET.check_config(cfg)
        assert isinstance(refused, Rejection) and refused.code == "preset_needs_base_edition_2"
        assert refused.rule == "dominion 1.5"
        assert repr(preset) in refused.message and "base_edition=2" in refused.message
    _creatable("digital", kingdom=preset, base_edition=2, expansions="base,empires")


def test_the_kingdom_option_names_every_preset_of_either_edition() -> None:
    option = RULESET.meta.option("kingdom")
    assert option is not None and option.choices is not None
    assert set(option.choices) == {"random", "manual", *DATA.presets, *PRESETS_2E}
    assert "1.5" in option.description


def test_a_preset_outside_the_game_s_sets_and_edition_is_refused_at_creation() -> None:
    for options in ({"base_edition": 2, "kingdom": "big_money"}, {"kingdom": "basic_intro"}):
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


def test_the_rules_list_every_base_preset_of_both_editions_with_its_piles() -> None:
    text = " ".join((Path(dominion.__file__).parent / "rules.md").read_text(encoding="utf-8").split())
    section = text[text.index("### 1.5 ") : text.index("### 1.6 ")]
    first, second = section.split("- 2nd edition")
    for name, piles in DATA.presets.items():
        if name not in ("basic_intro", "advanced_intro"):
            assert f"`{name}` ({', '.join(piles)})" in first, name
    for name, piles in DATA.presets_2e.items():
        assert f"`{name}` ({PRESETS_2E[name]})" in second and PRESETS_2E[name] == ", ".join(piles), name
