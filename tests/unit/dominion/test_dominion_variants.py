"""Named variants of dominion.md section 8 beyond the end and tie-break ones (tested with the
examples and turns): forced choices asked explicitly, 2nd-edition optional wording, open
discards and counts."""

from __future__ import annotations

from domain.games.dominion import RULESET
from domain.games.dominion.events import CleanedUp, Discarded
from domain.ruleset import PUBLIC, Viewer
from tests.unit.dominion.scenarios import table

KINGDOM = [
    "Throne Room",
    "Mine",
    "Moneylender",
    "Militia",
    "Village",
    "Smithy",
    "Cellar",
    "Moat",
    "Market",
    "Chapel",
]


def test_a_forced_choice_is_answered_by_the_engine_by_default() -> None:
    # Every card p1 might hold besides Throne Room is a Village: everyone can tell it is forced.
    game = table(kingdom=KINGDOM, zones={"p1": {"hand": ["Throne Room", "Village"], "deck": ["Village"] * 3}})
    game.do("p1", "play Throne Room")
    assert game.state.actions == 4 and game.prompts() == [("p1", "turn")]


def test_a_choice_only_its_player_knows_is_forced_is_asked_all_the_same() -> None:
    # p1 may hold other Actions as far as p2 knows: the single legal answer is asked (4.3 rule 4).
    game = table(kingdom=KINGDOM, zones={"p1": {"hand": ["Throne Room", "Village"], "deck": ["Copper"] * 3}})
    game.do("p1", "play Throne Room")
    assert game.prompts() == [("p1", "throne")]
    assert game.legal("p1") == ["select play Village"]
    game.do("p1", "select play Village")
    assert game.state.actions == 4 and game.prompts() == [("p1", "turn")]


def test_explicit_forced_choices_asks_even_a_single_answer() -> None:
    game = table(
        kingdom=KINGDOM,
        explicit_forced_choices=True,
        zones={"p1": {"hand": ["Throne Room", "Village"], "deck": ["Copper"] * 3}},
    )
    game.do("p1", "play Throne Room")
    assert game.prompts() == [("p1", "throne")]
    assert game.legal("p1") == ["select play Village"]
    game.do("p1", "select play Village")
    assert game.state.actions == 4


def test_the_first_edition_throne_room_must_play_an_action() -> None:
    game = table(kingdom=KINGDOM, zones={"p1": {"hand": ["Throne Room", "Village", "Smithy"]}})
    game.do("p1", "play Throne Room")
    assert game.refused("p1", "select play nothing").code == "wrong_count"


def test_second_edition_wording_lets_throne_room_play_nothing() -> None:
    game = table(
        kingdom=KINGDOM, base_second_edition_wording=True, zones={"p1": {"hand": ["Throne Room", "Village"]}}
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play nothing")
    assert game.player("p1").hand == ("Village",)


def test_second_edition_wording_makes_moneylender_and_mine_optional() -> None:
    game = table(
        kingdom=KINGDOM,
        base_second_edition_wording=True,
        actions=2,
        zones={"p1": {"hand": ["Moneylender", "Mine", "Copper"]}},
    )
    game.do("p1", "play Moneylender")
    game.do("p1", "no")
    assert game.state.coins == 0 and game.player("p1").hand == ("Mine", "Copper")
    game.do("p1", "play Mine")
    game.do("p1", "trash nothing")
    assert game.state.trash == () and game.prompts() == [("p1", "turn")]


def test_all_discards_public_shows_discarded_cards_to_everyone() -> None:
    game = table(
        kingdom=KINGDOM,
        all_discards_public=True,
        zones={"p1": {"hand": ["Militia"]}, "p2": {"hand": ["Copper", "Copper", "Estate", "Estate", "Gold"]}},
    )
    game.do("p1", "play Militia")
    facts = game.do("p2", "discard Estate Estate")
    discarded = next(f for f in facts if isinstance(f, Discarded))
    shown = RULESET.redact(discarded, PUBLIC)
    assert isinstance(shown, Discarded) and shown.cards == ("Estate", "Estate")
    game.do("p1", "end")
    facts = game.do("p1", "end")
    cleaned = next(f for f in facts if isinstance(f, CleanedUp))
    public = RULESET.redact(cleaned, Viewer("seat", "p2"))
    assert isinstance(public, CleanedUp) and public.hand == cleaned.hand


def test_open_counts_show_every_deck_and_discard_size() -> None:
    closed = RULESET.view(table().state, Viewer("seat", "p1"))
    assert "deck_count" not in closed["players"]["p2"]
    opened = RULESET.view(table(open_counts=True).state, Viewer("seat", "p1"))
    assert opened["players"]["p2"]["deck_count"] == 5
