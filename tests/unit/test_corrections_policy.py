"""The retraction policy (domain/corrections.py) on its own: what each request crosses, the
rejection and messages the table reads, and whose approval a crossing needs."""

from __future__ import annotations

from domain.corrections import Crossing, LiveAction, Plan, plan
from domain.ruleset import Rejection

SEATS = ("A", "B", "C")
ANOTHER_SEAT = Crossing(
    "retraction_crosses_another_seat",
    "This would undo another seat's action; every other seat must approve.",
    "corrections 2a",
)
RANDOM = Crossing(
    "retraction_crosses_random_outcome",
    "This would undo a random outcome (a roll, a draw, a toss); every other seat must approve.",
    "corrections 2b",
)
REVEAL = Crossing(
    "retraction_crosses_reveal",
    "This would undo hidden information already revealed; every other seat must approve.",
    "corrections 2c",
)


def act(seq: int, seat: str | None, *boundaries: str) -> LiveAction:
    return LiveAction(seq, seat, frozenset(boundaries))


def test_fewer_than_one_action_is_no_retraction() -> None:
    for count in (0, -1):
        assert plan([act(1, "A")], count, "A", "A", SEATS) == Rejection(
            "invalid_retraction", "Retract at least one action.", "corrections 1"
        )


def test_more_actions_than_are_live_is_refused_with_how_many_are() -> None:
    assert plan([act(1, "A"), act(2, "A")], 3, "A", "A", SEATS) == Rejection(
        "nothing_to_retract",
        "Only 2 action(s) can be retracted: the live actions recorded so far.",
        "corrections 1",
    )


def test_a_seats_own_plain_actions_need_nobody() -> None:
    assert plan([act(1, "B"), act(2, "A"), act(3, "A")], 2, "A", "A", SEATS) == Plan((2, 3), (), ())


def test_each_crossing_is_named_in_the_policys_order_and_needs_every_other_seat() -> None:
    live = [act(1, "A"), act(2, "B", "reveal"), act(3, "A", "random")]
    found = plan(live, 2, "A", "A", SEATS)
    assert found == Plan((2, 3), (ANOTHER_SEAT, RANDOM, REVEAL), ("B", "C"))
    assert isinstance(found, Plan)
    assert found.refusal() == Rejection(ANOTHER_SEAT.code, ANOTHER_SEAT.message, ANOTHER_SEAT.rule)


def test_each_crossing_alone() -> None:
    assert plan([act(1, "B")], 1, "A", "A", SEATS) == Plan((1,), (ANOTHER_SEAT,), ("B", "C"))
    assert plan([act(1, "A", "random")], 1, "A", "A", SEATS) == Plan((1,), (RANDOM,), ("B", "C"))
    assert plan([act(1, "A", "reveal")], 1, "A", "A", SEATS) == Plan((1,), (REVEAL,), ("B", "C"))


def test_an_action_entered_for_no_seat_is_another_seats_to_a_seat() -> None:
    assert plan([act(1, None), act(2, "A")], 2, "A", "A", SEATS) == Plan((1, 2), (ANOTHER_SEAT,), ("B", "C"))


def test_the_recorder_crosses_nothing_and_needs_nobody() -> None:
    live = [act(1, "A", "random"), act(2, "B", "reveal")]
    assert plan(live, 2, "recorder", None, SEATS) == Plan((1, 2), (), ())
