"""Scenario tests of `any` per rule of rules.md sections 1, 3 and 5: dice, decks, tracks and who
may record, in digital games (drawn from the seed, as domain/rng.py draws) and physical ones
(entered, and refused when the table could not have seen it)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.any import RULESET
from domain.games.any.definition import parse_definition
from domain.games.any.events import CardsDrawn, DeckShuffled, DiceRolled, Noted, Scored
from domain.rng import SeededRng
from domain.ruleset import Rejection
from tests.unit.any.scenarios import MARKET, SEED, config, table

RNG = SeededRng(SEED, "game-1")


def test_a_game_needs_its_title_a_readable_definition_and_a_calendar_date() -> None:
    assert RULESET.check_config(config()) is None
    untitled = config(title=" ")
    assert RULESET.check_config(untitled).code == "title_required"  # type: ignore[union-attr]
    for options, code in (
        ({"played_on": "2024-02-30"}, "bad_date"),
        ({"played_on": "yesterday"}, "bad_date"),
        ({"definition": '{"dice":[{"name":"die","faces":1}]}'}, "bad_definition"),
    ):
        made = config()
        made = replace(made, options={**made.options, **options})
        refused = RULESET.check_config(made)
        assert refused is not None and refused.code == code
    dated = config()
    assert RULESET.check_config(replace(dated, options={**dated.options, "played_on": "2024-02-29"})) is None


def test_digital_dice_are_the_seeds_rolls_stream_by_stream_and_counter_by_counter() -> None:
    game = table()
    first = game.play("roll 2d6")
    second = game.play("roll 3d20")
    assert first == [DiceRolled("2d6", 6, RNG.roll("dice", 0, 6, 2), (), None, "dice", 0)]
    assert isinstance(second[0], DiceRolled) and second[0].values == RNG.roll("dice", 1, 20, 3)
    assert second[0].n == 1


def test_a_declared_set_rolls_its_dice_and_named_faces_read_as_their_names() -> None:
    game = table(
        {
            "dice": [
                {"name": "dice", "count": 5, "faces": 6},
                {"name": "colour", "faces": ["red", "blue", "green"]},
            ]
        }
    )
    rolled = game.play("roll dice", "roll colour")
    assert isinstance(rolled[0], DiceRolled) and rolled[0].values == RNG.roll("dice", 0, 6, 5)
    colour = rolled[1]
    assert isinstance(colour, DiceRolled) and colour.values == RNG.roll("dice", 1, 3, 1)
    assert colour.shown == (("red", "blue", "green")[colour.values[0] - 1],)


def test_free_dice_stay_allowed_beside_declared_sets_unless_turned_off() -> None:
    game = table({"dice": [{"name": "dice", "count": 2, "faces": 6}]})
    game.play("roll 1d8")
    off = table({"dice": [{"name": "dice", "count": 2, "faces": 6}], "free_dice": False})
    assert off.refused("roll 1d8").code == "free_dice_off"
    assert off.refused("roll pool").code == "unknown_dice"
    assert table().refused("roll 0d6").code == "bad_dice"
    assert table().refused("roll 1d1001").code == "bad_dice"


def test_a_physical_table_enters_its_dice_and_a_face_off_the_die_is_refused() -> None:
    game = table({"dice": [{"name": "colour", "faces": ["red", "blue"]}]}, mode="physical")
    assert game.play("roll 2d6 = 3 5") == [DiceRolled("2d6", 6, (3, 5), observed=True)]
    assert game.refused("roll 1d6 = 7").code == "off_the_die"
    assert game.refused("roll 2d6 = 3").code == "wrong_count"
    assert game.refused("roll 2d6").code == "values_required"
    assert game.play("roll colour = Blue") == [DiceRolled("colour", 2, (2,), ("blue",), observed=True)]
    assert game.refused("roll colour = green").code == "off_the_die"


def test_a_digital_game_refuses_entered_dice_and_cards() -> None:
    game = table(MARKET)
    assert game.refused("roll 2d6 = 3 5").code == "entered_in_digital"
    assert game.refused("draw 1 market to A = Gold").code == "entered_in_digital"


def test_a_digital_deck_is_shuffled_at_setup_from_its_canonical_order() -> None:
    game = table(MARKET)
    order = RNG.shuffle("deck:market", 0, ("Gold", "Gold", "Silver", "Silver", "Silver"))
    assert game.facts == [DeckShuffled("market", 5, order, 0, "deck:market", 0)]
    drawn = game.play("draw 2 market to A")
    assert drawn == [CardsDrawn("market", "A", 2, order[:2])]
    assert game.state.hands["A"].cards == order[:2] and game.state.decks["market"].count == 3


def test_a_shuffle_gathers_the_discard_pile_and_draws_the_new_order_from_the_seed() -> None:
    game = table(MARKET)
    game.play("draw 2 market to A")
    card = game.state.hands["A"].cards[0]
    game.play(f"discard A {card}")
    assert game.state.decks["market"].discard == (card,)
    shuffled = game.play("shuffle market")
    pile = tuple(sorted((*game.facts[0].order[2:], card)))  # type: ignore[union-attr]
    assert shuffled == [DeckShuffled("market", 4, RNG.shuffle("deck:market", 1, pile), 1, "deck:market", 1)]
    assert not game.state.decks["market"].discard


def test_drawing_more_than_the_pile_holds_is_refused_and_never_reshuffles() -> None:
    game = table(MARKET)
    assert game.refused("draw 6 market to A").code == "deck_short"
    game.play("draw 5 market to table")
    assert game.refused("draw 1 market to B").code == "deck_short"
    assert game.refused("draw 0 market to B").code == "bad_count"
    assert game.refused("draw 1 pool to B").code == "unknown_deck"


def test_a_physical_draw_enters_its_cards_and_a_card_the_deck_no_longer_holds_is_refused() -> None:
    game = table(MARKET, mode="physical")
    assert game.facts == []  # nothing is drawn at setup: the table shuffles its own cards
    game.play("draw 2 market to A = Gold gold")
    assert game.state.hands["A"].cards == ("Gold", "Gold")
    assert game.refused("draw 1 market to B = Gold").code == "card_gone"
    assert game.refused("draw 1 market to B = Copper").code == "not_in_deck"
    assert game.refused("draw 2 market to B = Silver").code == "wrong_count"
    assert game.refused("draw 1 market to table").code == "cards_required"


def test_a_physical_draw_may_leave_the_cards_unknown_until_one_is_named() -> None:
    game = table(MARKET, mode="physical")
    assert game.play("draw 2 market to B") == [CardsDrawn("market", "B", 2, (), unknown=True)]
    assert game.state.hands["B"].count == 2 and game.state.decks["market"].count == 3
    game.play("discard B Silver")
    assert game.state.decks["market"].pile == ("Gold", "Gold", "Silver", "Silver")
    assert game.state.hands["B"].unknown == {"market": 1}
    game.play("draw 2 market to A = Gold Gold")
    assert game.refused("reveal B Gold").code == "not_in_hand"  # both Golds are known elsewhere
    game.play("reveal B Silver")
    assert game.state.hands["B"].count == 0 and game.state.table == ("Silver",)


def test_a_shuffle_of_a_physical_deck_draws_nothing_and_gathers_the_discards() -> None:
    game = table(MARKET, mode="physical")
    game.play("draw 1 market to A = Gold", "discard A Gold")
    assert game.play("shuffle market") == [DeckShuffled("market", 5, (), 1, observed=True)]
    assert game.state.decks["market"].pile == ("Gold", "Gold", "Silver", "Silver", "Silver")


def test_reveal_lays_a_card_on_the_table_discard_takes_it_away_and_pass_moves_it() -> None:
    game = table(MARKET, mode="physical", players=3)
    game.play("draw 3 market to A = Gold Silver Silver")
    game.play("reveal A Gold")
    assert game.state.table == ("Gold",) and game.state.hands["A"].cards == ("Silver", "Silver")
    game.play("discard table Gold")
    assert not game.state.table and game.state.decks["market"].discard == ("Gold",)
    assert game.refused("discard table Gold").code == "not_on_table"
    game.play("pass A Silver to Cy")
    assert game.state.hands["C"].cards == ("Silver",)
    assert game.refused("pass A Silver to A").code == "same_seat"
    assert game.refused("pass B Silver to A").code == "not_in_hand"


def test_scores_move_per_player_and_table_tracks_within_their_bounds() -> None:
    game = table(
        {"tracks": [{"name": "vp", "min": 0}, {"name": "coins"}, {"name": "doom", "per": "table", "max": 3}]}
    )
    assert game.play("score Ann +8") == [Scored("vp", 8, 8, "A")]
    assert game.play("score B coins -2") == [Scored("coins", -2, -2, "B")]
    assert game.play("score doom +3") == [Scored("doom", 3, 3)]
    assert game.refused("score doom +1").code == "beyond_track"
    assert game.refused("score A -9").code == "beyond_track"
    assert game.refused("score A +0").code == "nothing_scored"
    assert game.refused("score A gold +1").code == "unknown_track"
    assert game.refused("score coins +1").code == "unknown_track"  # a per-player track needs its seat
    assert game.state.player_tracks == {"vp": {"A": 8, "B": 0}, "coins": {"A": 0, "B": -2}}


SHEET = {
    "dice": [{"name": "dice", "count": 5, "faces": 6}],
    "tracks": [
        {"name": "fours", "min": 0, "max": 20, "once": True},
        {"name": "chance", "min": 0, "max": 30, "once": True},
    ],
    "ending": {"kind": "highest", "track": "total"},
}


def test_a_row_of_the_sheet_is_scored_once_0_crossing_it_out_and_the_total_ranks() -> None:
    game = table(SHEET)
    assert game.play("score Ann fours +12") == [Scored("fours", 12, 12, "A")]
    assert game.refused("score Ann fours +4").code == "row_scored"
    assert game.play("score Ben fours +0") == [Scored("fours", 0, 0, "B")]  # crossed out
    assert game.refused("score Ben fours +8").code == "row_scored"
    assert game.refused("score Ann chance +31").code == "beyond_track"
    game.play("score Ann chance +7", "score Ben chance +22")
    legal = [RULESET.format_action(a) for a in RULESET.legal_actions(game.state, None)]
    assert not any(line.startswith("score ") for line in legal)  # every row is filled
    ended = game.play("end game")[-1]
    assert ended.scores == {"A": 19, "B": 22} and ended.winners == ("B",)  # type: ignore[union-attr]


def test_a_sheet_ranks_on_its_total_only_in_a_highest_or_lowest_ending() -> None:
    refused = parse_definition({**SHEET, "ending": {"kind": "ranks", "track": "total"}})
    assert isinstance(refused, Rejection) and refused.message.startswith("ending.track")
    table_row = {"tracks": [{"name": "doom", "per": "table", "once": True}]}
    found = parse_definition(table_row)
    assert isinstance(found, Rejection) and found.message.startswith("tracks[0].once")
    taken = parse_definition({"tracks": [{"name": "total"}]})
    assert isinstance(taken, Rejection)  # `total` is the ending's word


def test_a_note_keeps_one_to_five_hundred_characters_of_remark() -> None:
    game = table()
    [noted] = game.play("note  the cat sat on the board ")
    assert noted == Noted("the cat sat on the board")
    assert game.play("note " + "x" * 500)[0] == Noted("x" * 500)
    assert game.refused("note " + "x" * 501).code == "bad_note"


def test_a_seat_records_its_own_actions_and_the_tables_and_the_recorder_anything() -> None:
    game = table(MARKET)
    game.play("roll 2d6", "draw 1 market to A", "draw 1 market to table", "score A +1", seat="A", by="seat")
    card = game.state.hands["A"].cards[0]
    game.play(f"pass A {card} to B", "note nice", "end turn", seat="A", by="seat")
    assert game.refused("draw 1 market to B", seat="A", by="seat").code == "not_your_seat"
    assert game.refused("score B +1", seat="A", by="seat").code == "not_your_seat"
    assert game.refused(f"discard B {card}", seat="A", by="seat").code == "not_your_seat"
    assert game.refused("end game A 1 B 2", seat="A", by="seat").code == "recorder_only"
    game.play("draw 1 market to B", f"discard B {card}")


def test_turns_and_rounds_count_what_the_table_declares() -> None:
    game = table(players=3)
    assert RULESET.progress(game.state) == (1, "A")
    game.play("end turn", "end turn", "end round")
    assert RULESET.progress(game.state) == (3, "C") and game.state.round == 2
    game.play("end turn")
    assert RULESET.progress(game.state) == (4, "A")
    prompts = RULESET.pending(game.state)
    assert len(prompts) == 1 and prompts[0].seat is None


def test_nothing_is_recorded_after_the_end() -> None:
    game = table()
    game.play("end game")
    assert RULESET.pending(game.state) == () and RULESET.legal_actions(game.state, None) == ()
    assert game.refused("roll 2d6").code == "game_over"
    assert game.refused("note a").code == "game_over"
