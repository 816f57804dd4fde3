"""Corrections at the table: which retractions may happen at once, and which need approval.

A recorder will mis-enter a legal action (Silver for Gold, the wrong province). The log is
append-only, so a correction is itself an event: it retracts the last K live actions, which
stay in the stream marked as retracted, and the state, prompts, log, replay and audit follow
the corrected line. Redoing a retracted action is a new action.

The policy, as online tables practise it (rules cited by rejections as "corrections N"):

1. Only live actions of a running game can be retracted, the most recent first; setup is not
   an action, and a finished record never changes.
2. A seat may retract at once only its own actions that revealed nothing and drew nothing.
   A retraction that crosses (a) another seat's action, (b) a random outcome (a die, a shuffle,
   a draw, a toss) or (c) a piece of hidden information turned visible needs either the
   recorder's token (the physical table, where everyone agreed) or the approval of every other
   seat's token on a pending request.
3. A retraction never re-rolls: random outcomes are drawn from (stream, counter), and the
   counters live in the state that the retraction restores, so replaying the same actions
   draws the same outcomes again.
4. A pending request lapses when another action is recorded, or when any seat declines it.
"""

from __future__ import annotations

import msgspec

from domain.ruleset import Rejection


class LiveAction(msgspec.Struct, frozen=True):
    """What the policy needs to know about one live action."""

    seq: int
    seat: str | None
    boundaries: frozenset[str]


class Crossing(msgspec.Struct, frozen=True):
    code: str
    message: str
    rule: str


class Plan(msgspec.Struct, frozen=True):
    """The actions a retraction would undo, what it crosses, and whose approval it needs."""

    seqs: tuple[int, ...]
    crossings: tuple[Crossing, ...]
    needs: tuple[str, ...]

    def refusal(self) -> Rejection:
        first = self.crossings[0]
        return Rejection(first.code, first.message, first.rule)


def plan(
    live: list[LiveAction], count: int, by: str, seat: str | None, seats: tuple[str, ...]
) -> Plan | Rejection:
    """Plan retracting the last `count` live actions for a requester (`by` recorder or seat)."""
    if count < 1:
        return Rejection("invalid_retraction", "Retract at least one action.", "corrections 1")
    if count > len(live):
        return Rejection(
            "nothing_to_retract",
            f"Only {len(live)} action(s) can be retracted: the live actions recorded so far.",
            "corrections 1",
        )
    targets = live[-count:]
    crossings: list[Crossing] = []
    if by != "recorder":
        if any(t.seat != seat for t in targets):
            crossings.append(
                Crossing(
                    "retraction_crosses_another_seat",
                    "This would undo another seat's action; every other seat must approve.",
                    "corrections 2a",
                )
            )
        if any("random" in t.boundaries for t in targets):
            crossings.append(
                Crossing(
                    "retraction_crosses_random_outcome",
                    "This would undo a random outcome (a roll, a draw, a toss); every other seat "
                    "must approve.",
                    "corrections 2b",
                )
            )
        if any("reveal" in t.boundaries for t in targets):
            crossings.append(
                Crossing(
                    "retraction_crosses_reveal",
                    "This would undo hidden information already revealed; every other seat must approve.",
                    "corrections 2c",
                )
            )
    needs = tuple(s for s in seats if s != seat) if crossings else ()
    return Plan(tuple(t.seq for t in targets), tuple(crossings), needs)
