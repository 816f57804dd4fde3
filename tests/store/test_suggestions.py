"""A word misspelt in notation is refused with the closest word the game knows, in every game,
whether the notation does not parse or names something the game does not have."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from uuid import UUID

import pytest

from domain.ruleset import RejectedError
from store.app import RECORDER, Chronicle, NewGame
from tests.short_games import RULESET_IDS, new_options, plan, players


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    found = Chronicle(store_url)
    yield found
    found.close()


def _refusal(record: Callable[[], object]) -> str:
    with pytest.raises(RejectedError) as refused:
        record()
    return refused.value.rejection.message


def _misspelt(word: str) -> str:
    """The word with its last two letters swapped (`top` -> `tpo`, `Silver` -> `Silvre`)."""
    return word[:-2] + word[-1] + word[-2]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_misspelt_word_of_a_legal_action_is_refused_with_that_action_suggested(
    app: Chronicle, ruleset_id: str
) -> None:
    new = NewGame(ruleset_id, players(ruleset_id), mode="physical", options=new_options(ruleset_id))
    game_id = UUID(app.create_game(new).game_id)
    for step in plan(app, game_id, 12, "suggest", one_seat=True):
        # a word whose last two letters differ, so that swapping them misspells it (not `roll`)
        words = [
            w
            for w in re.split(r"[\s,;]+", step.notation)
            if re.fullmatch(r"[A-Za-z]{4,}", w) and w[-1] != w[-2]
        ]
        if words:
            wrong = step.notation.replace(words[-1], _misspelt(words[-1]), 1)
            seat = step.seat
            message = _refusal(lambda: app.record(game_id, wrong, RECORDER, seat=seat))  # noqa: B023
            assert message.endswith(f"Did you mean {step.notation!r}?"), (wrong, message)
            return
        app.record(game_id, step.notation, RECORDER, seat=step.seat)
    pytest.fail(f"no {ruleset_id} action of the plan has a word to misspell")


def test_a_card_misspelt_in_dominion_is_suggested_even_when_it_is_not_affordable(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("dominion", ["Ann", "Ben"])).game_id)
    app.record(game_id, "end", RECORDER)
    assert _refusal(lambda: app.record(game_id, "buy Provnce", RECORDER)) == (
        "There is no Supply pile 'Provnce' in this game. Did you mean 'buy Province'?"
    )
    assert _refusal(lambda: app.record(game_id, "byu Silver", RECORDER)).endswith(
        "Did you mean 'buy Silver'?"
    )


def test_a_word_far_from_every_known_one_gets_no_suggestion(app: Chronicle) -> None:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    assert "Did you mean" not in _refusal(lambda: app.record(game_id, "xyzzy plugh", RECORDER))
