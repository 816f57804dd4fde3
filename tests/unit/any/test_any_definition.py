"""Definitions of `any` (rules.md section 2): each component, the validation naming the field
at fault, the canonical text, and the shipped examples."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.any.definition import (
    EXAMPLES,
    DeckSpec,
    Definition,
    DiceSet,
    TrackSpec,
    definition_json,
    load_definition,
    load_toml,
    parse_definition,
)
from domain.ruleset import Rejection


def parsed(data: dict[str, Any]) -> Definition:
    found = parse_definition(data)
    assert not isinstance(found, Rejection), found
    return found


def test_the_empty_definition_rolls_free_dice_and_keeps_one_score_each_highest_wins() -> None:
    empty = parsed({})
    assert empty == load_definition("") == Definition()
    assert empty.free_dice and empty.dice == ()
    assert [t.name for t in empty.all_tracks()] == ["score"]
    assert empty.ending.kind == "highest" and empty.ending.tiebreak == "shared"
    assert definition_json(empty) == "{}"


def test_dice_sets_take_a_number_of_faces_or_named_faces() -> None:
    found = parsed(
        {"dice": [{"name": "dice", "count": 5, "faces": 6}, {"name": "colour", "faces": ["red", "blue"]}]}
    )
    assert found.dice == (DiceSet("dice", 5, 6), DiceSet("colour", 1, 2, ("red", "blue")))
    assert found.dice_set("COLOUR") == found.dice[1]


def test_decks_take_counts_or_a_list_of_names_in_the_canonical_order() -> None:
    found = parsed(
        {
            "decks": [
                {"name": "market", "cards": {"Silver": 2, "Gold": 1}},
                {"name": "hand", "cards": ["b", "a", "b"]},
            ]
        }
    )
    assert found.decks[0] == DeckSpec("market", {"Gold": 1, "Silver": 2})
    assert found.decks[0].canonical() == ("Gold", "Silver", "Silver")
    assert found.decks[1].canonical() == ("a", "b", "b")
    assert found.deck_of("a") == found.decks[1] and found.card_named("gold") == "Gold"


def test_tracks_are_per_player_or_the_tables_with_bounds_and_a_start() -> None:
    found = parsed(
        {
            "tracks": [
                {"name": "vp"},
                {"name": "doom", "per": "table", "min": 0, "max": 8},
                {"name": "hp", "min": 0, "max": 10, "start": 10},
            ]
        }
    )
    assert found.tracks == (
        TrackSpec("vp"),
        TrackSpec("doom", "table", 0, 8),
        TrackSpec("hp", "player", 0, 10, 10),
    )
    assert found.score_track() == TrackSpec("vp") and [t.name for t in found.table_tracks()] == ["doom"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"dice": [{"name": "die", "count": 1, "faces": 6}, {"name": "coin", "faces": 1}]}, "dice[1].faces"),
        ({"dice": [{"name": "colour", "faces": ["red", "Red"]}]}, "dice[0].faces"),
        ({"dice": [{"name": "2d6", "faces": 6}]}, "dice[0].name"),
        ({"dice": [{"name": "to", "faces": 6}]}, "dice[0].name"),
        ({"dice": [{"name": "die", "count": 0, "faces": 6}]}, "dice[0].count"),
        ({"decks": [{"name": "market", "cards": {"Gold": 0}}]}, "decks[0].cards.Gold"),
        ({"decks": [{"name": "red", "cards": ["X"]}, {"name": "blue", "cards": ["X"]}]}, "decks[1].cards.X"),
        ({"decks": [{"name": "red", "cards": ["Card?"]}]}, "decks[0].cards[0]"),
        ({"tracks": [{"name": "vp", "min": 5, "max": 1}]}, "tracks[0].max"),
        ({"tracks": [{"name": "vp", "per": "team"}]}, "tracks[0].per"),
        ({"tracks": [{"name": "B"}]}, "tracks[0].name"),
        ({"tracks": [{"name": "vp"}, {"name": "VP"}]}, "tracks[1].name"),
        ({"ending": {"kind": "best"}}, "ending.kind"),
        ({"ending": {"track": "gold"}}, "ending.track"),
        ({"ending": {"tiebreak": "coins"}}, "ending.tiebreak"),
        ({"tracks": [{"name": "doom", "per": "table"}]}, "ending.track"),
        ({"colour": 1}, "colour"),
    ],
)
def test_a_bad_definition_is_refused_naming_the_field(data: dict[str, Any], field: str) -> None:
    found = parse_definition(data)
    assert isinstance(found, Rejection) and found.code == "bad_definition"
    assert found.message.startswith(f"{field}: "), found.message
    assert found.rule == "any 2"


def test_the_canonical_text_reads_back_as_the_same_definition() -> None:
    for name, text in EXAMPLES.items():
        found = load_toml(text)
        assert not isinstance(found, Rejection), (name, found)
        canonical = definition_json(found)
        assert " " not in canonical.replace("Five dice", "").replace("Card game", "").replace(
            "Cooperative game", ""
        )
        assert load_definition(canonical) == found
        assert definition_json(parsed(__import__("json").loads(canonical))) == canonical


def test_the_shipped_examples_parse_and_declare_what_they_are_named_for() -> None:
    assert {"five-dice", "card-deck", "cooperative"} <= set(EXAMPLES)
    five = load_toml(EXAMPLES["five-dice"])
    deck = load_toml(EXAMPLES["card-deck"])
    coop = load_toml(EXAMPLES["cooperative"])
    assert isinstance(five, Definition) and isinstance(deck, Definition) and isinstance(coop, Definition)
    assert five.dice == (DiceSet("dice", 5, 6),) and five.ending.track == "total"
    assert len(five.player_tracks()) == 14 and all(t.once for t in five.player_tracks())
    assert sum(deck.decks[0].cards.values()) == 52 and not deck.free_dice
    loss = coop.loss_track()
    assert coop.ending.kind == "cooperative" and loss is not None and loss.max == 8


def test_unreadable_text_is_refused_as_a_bad_definition() -> None:
    assert isinstance(load_definition("{not json"), Rejection)
    assert isinstance(load_toml("dice = ["), Rejection)
