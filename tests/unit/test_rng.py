"""`hmac-sha256-v1` against the test vectors of design.md section 4."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from domain.rng import NoRng, ScriptedRng, SeededRng, _blocks, _key, _permute, _uniform, _words, commitment

SEED = bytes(range(32))
DECK = [f"Copper#{i}" for i in range(7)] + [f"Estate#{i}" for i in range(7, 10)]


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_ten_d6_on_stream_dice_counter_0_match_the_vector() -> None:
    assert SeededRng(SEED, "game-1").roll("dice", 0, 6, 10) == (1, 6, 3, 5, 4, 1, 4, 2, 5, 3)


def test_two_d6_on_stream_dice_counter_1_match_the_vector() -> None:
    assert SeededRng(SEED, "game-1").roll("dice", 1, 6, 2) == (6, 3)


def test_a_client_seed_changes_every_outcome_as_the_vector_says() -> None:
    assert SeededRng(SEED, "game-1", "alice").roll("dice", 0, 6, 10) == (4, 6, 4, 5, 5, 4, 1, 6, 1, 2)


def test_a_shuffle_of_the_starting_deck_matches_the_vector() -> None:
    assert " ".join(SeededRng(SEED, "game-1").shuffle("deck:p1", 0, DECK)) == (
        "Copper#2 Copper#4 Copper#5 Copper#1 Estate#9 Estate#8 Copper#0 Copper#6 Estate#7 Copper#3"
    )


def test_outcomes_ignore_the_global_random_module() -> None:
    first = SeededRng(SEED, "game-1").roll("dice", 5, 20, 30)
    random.seed(99)
    random.random()
    assert SeededRng(SEED, "game-1").roll("dice", 5, 20, 30) == first


def test_streams_and_counters_are_independent() -> None:
    rng = SeededRng(SEED, "game-1")
    assert rng.roll("dice", 0, 6, 10) != rng.roll("dice", 2, 6, 10)
    assert rng.roll("dice", 0, 6, 10) != rng.roll("ships", 0, 6, 10)


def test_uniform_rejects_words_above_the_largest_multiple() -> None:
    top = 2**64 - 1  # 2**64 % 3 == 1, so the last word is rejected and the next one used
    assert _uniform(iter([top, 7]), 3) == 1


def test_a_physical_game_cannot_draw() -> None:
    with pytest.raises(RuntimeError):
        NoRng().roll("dice", 0, 6)


def test_a_scripted_outcome_answers_only_its_own_stream_and_counter() -> None:
    rng = ScriptedRng(rolls={("ships", 0): (1, 2), ("ships", 1): (2, 2)})
    assert rng.roll("ships", 1, 2, 2) == (2, 2)
    assert rng.roll("ships", 0, 2, 2) == (1, 2)
    assert rng.roll("ships", 0, 2, 2) == (1, 2)  # the same counter draws the same outcome again
    with pytest.raises(AssertionError, match="n 2"):
        rng.roll("ships", 2, 2, 2)
    with pytest.raises(AssertionError, match="'dice'"):
        rng.roll("dice", 0, 2, 2)
    rng.assert_all_drawn()


def test_a_scripted_outcome_must_fit_the_dice_or_items_asked_for() -> None:
    with pytest.raises(AssertionError, match="1d6"):
        ScriptedRng(rolls={("dice", 0): (7,)}).roll("dice", 0, 6)
    with pytest.raises(AssertionError, match="2d6"):
        ScriptedRng(rolls={("dice", 0): (3,)}).roll("dice", 0, 6, 2)
    with pytest.raises(AssertionError, match="permutation"):
        ScriptedRng(shuffles={("deck", 0): ["a", "b"]}).shuffle("deck", 0, ["a", "c"])


def test_a_ruleset_that_reuses_a_counter_leaves_a_scripted_outcome_undrawn() -> None:
    rng = ScriptedRng(shuffles={("deck", 0): ["b", "a"], ("deck", 1): ["a", "b"]})
    assert rng.shuffle("deck", 0, ["a", "b"]) == ("b", "a")
    assert rng.shuffle("deck", 0, ["a", "b"]) == ("b", "a")  # counter 0 again: a reshuffle bug
    with pytest.raises(AssertionError, match=r"never drawn: \[\('shuffle', 'deck', 1\)\]"):
        rng.assert_all_drawn()


def test_a_uniform_draw_from_one_outcome_is_that_outcome_and_from_none_is_refused() -> None:
    assert _uniform(iter([2**64 - 1]), 1) == 0
    with pytest.raises(ValueError, match=r"^uniform\(\) needs at least one outcome$"):
        _uniform(iter([0]), 0)


def test_a_roll_without_a_count_rolls_one_die() -> None:
    (face,) = SeededRng(SEED, "game-1").roll("dice", 0, 6)
    assert face == 1  # the first die of the ten-d6 vector


def test_a_physical_game_names_the_stream_it_was_asked_to_draw_from() -> None:
    with pytest.raises(RuntimeError, match="cannot draw from stream 'dice'"):
        NoRng().roll("dice", 0, 6)
    with pytest.raises(RuntimeError, match="cannot shuffle stream 'deck:p1'"):
        NoRng().shuffle("deck:p1", 0, DECK)


def test_a_scripted_shuffle_keeps_the_items_it_was_given_not_copies_of_their_names() -> None:
    first, second = object(), object()
    rng = ScriptedRng(shuffles={("s", 0): [second, first]})
    order = rng.shuffle("s", 0, [first, second])
    assert order[0] is second and order[1] is first


def test_an_unscripted_shuffle_names_the_stream_and_counter_it_was_asked_for() -> None:
    rng = ScriptedRng(shuffles={("deck:p1", 1): list(DECK)})
    with pytest.raises(
        AssertionError, match=r"^no shuffle is scripted for stream 'deck:p1' n 0 \(scripted: "
    ):
        rng.shuffle("deck:p1", 0, DECK)


def test_the_word_stream_is_the_same_whatever_the_batch_hashed_at_once() -> None:
    sub = _key(SEED, "game-1", "", "deck:p1", 0)
    first = list(islice(_words(sub, 0), 13))
    assert all(list(islice(_words(sub, batch), 13)) == first for batch in (1, 2, 3, 4, 5))
    assert first[4:8] == list(_blocks(sub, 1, 1))


def test_a_shuffle_rejects_a_word_above_the_largest_multiple_and_draws_the_next() -> None:
    top = 2**64 - 1  # 2**64 % 3 == 1: rejected for three items, accepted for two
    words = iter([top, 7, top]).__next__
    assert _permute(["a", "b", "c"], words) == ("a", "c", "b")  # 7 % 3 == 1, then top % 2 == 1


def test_a_shuffle_of_one_item_or_none_draws_no_word() -> None:
    rng = SeededRng(SEED, "game-1")
    assert rng.shuffle("deck:p1", 0, ["Copper"]) == ("Copper",)
    assert rng.shuffle("deck:p1", 0, []) == ()
