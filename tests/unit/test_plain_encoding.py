"""Which rulesets' actions and facts encode as plain JSON (`encodes_plain`), so that the hash
chain digests them without walking each one for a float (store/chain.py)."""

from __future__ import annotations

import enum
from typing import Any, Literal

import msgspec
import pytest

from domain.builtin_games import BUILTIN_RULESETS
from domain.ruleset import Codec, encodes_plain, get_ruleset


class Suit(enum.Enum):  # msgspec takes enums and literals of text or integers only
    CUPS = "cups"
    COINS = "coins"


class Card(msgspec.Struct, tag="card"):
    suit: Suit
    rank: int
    face: Literal["up", "down"] | None = None


class Pile(msgspec.Struct, tag="pile"):
    cards: list[Card]
    below: Pile | None = None  # a Struct that holds itself
    counts: dict[str, tuple[int, bool]] = {}
    seen: frozenset[str] = frozenset()


class Scored(msgspec.Struct, tag="scored"):
    points: float


@pytest.mark.parametrize("tp", [Card, Pile, Card | Pile, list[Pile], dict[str, list[int | None]]])
def test_text_integers_booleans_none_lists_and_text_keyed_objects_are_plain(tp: Any) -> None:
    assert encodes_plain(tp)


@pytest.mark.parametrize(
    "tp",
    [
        Scored,  # 1e16 is written one way by msgspec, another by json.dumps
        Card | Scored,
        dict[int, str],  # a key that is not text
        Any,
        bytes,
        list[object],
    ],
)
def test_a_float_a_key_of_another_type_or_anything_unknown_is_not_plain(tp: Any) -> None:
    assert not encodes_plain(tp)


def test_a_codec_is_plain_only_when_its_actions_and_facts_both_are() -> None:
    assert Codec(Card, Pile).plain
    assert not Codec(Card, Card | Scored).plain
    assert not Codec(Scored, Pile).plain


@pytest.mark.parametrize("ruleset_id", sorted(BUILTIN_RULESETS))
def test_every_built_in_ruleset_encodes_its_actions_and_facts_as_plain_json(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None and ruleset.codec.plain
