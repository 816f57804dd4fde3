"""What the web pages draw and offer for `any`: the picture of the table from a redacted view
(a seat's own hand face up, the others' as backs) and the shipped definitions a New game form
offers."""

from __future__ import annotations

from domain.games.any import RULESET
from domain.games.any.definition import EXAMPLES, definition_json, load_toml, parse_definition
from domain.picture import Cards, Table, picture_of
from domain.ruleset import PUBLIC, Rejection, Viewer, example_options, setup_choices
from tests.unit.any.scenarios import MARKET, table

NAMES = {"A": "Ann", "B": "Ben"}


def _hand(picture: object, seat: str) -> Cards:
    return next(s for s in picture.sections if isinstance(s, Cards) and s.seat == seat)  # type: ignore[attr-defined]


def test_the_picture_shows_scores_decks_the_last_roll_and_only_the_viewers_own_hand() -> None:
    game = table(MARKET)
    game.play("roll 2d6", "draw 2 market to Ann", "draw 1 market to Ben", "score Ben +4")
    mine = picture_of("any", RULESET.view(game.state, Viewer("seat", "A")), NAMES)
    assert mine.headline == "Game night" and dict(mine.facts)["Last roll"].startswith("2d6 = ")
    players = next(s for s in mine.sections if isinstance(s, Table) and s.id == "players")
    assert [row.cells for row in players.rows] == [("Ann", "0", "2 cards"), ("Ben", "4", "1 card")]
    own = _hand(mine, "A").zones[0]
    assert sorted(c.name for c in own.cards for _ in range(c.count or 1)) == sorted(
        game.state.hands["A"].cards
    )
    assert own.backs == 0
    other = _hand(mine, "B").zones[0]
    assert other.cards == () and other.backs == 1
    public = picture_of("any", RULESET.view(game.state, PUBLIC), NAMES)
    assert all(_hand(public, seat).zones[0].cards == () for seat in NAMES)
    decks = next(s for s in public.sections if isinstance(s, Cards) and s.id == "decks")
    pile, discard = decks.zones
    assert pile.pile and pile.size == 2 and pile.backs == 0  # one card drawn with its count
    assert discard.pile and discard.size == 0 and discard.cards == ()


def test_the_new_game_form_is_offered_every_shipped_definition_as_plain_data() -> None:
    offered = setup_choices(RULESET, {})["definitions"]
    assert set(offered) == set(EXAMPLES)
    for name, data in offered.items():
        parsed = parse_definition(data)
        assert not isinstance(parsed, Rejection) and parsed == load_toml(EXAMPLES[name])


def test_a_demonstration_game_plays_the_five_dice_example_with_its_title() -> None:
    five = load_toml(EXAMPLES["five-dice"])
    assert not isinstance(five, Rejection)
    assert example_options(RULESET) == {"title": "Five dice", "definition": definition_json(five)}
