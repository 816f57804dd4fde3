"""Recordable actions of Province (Kickstarter 2014): province.md sections 7.2 and 7.3.

One Struct per action kind, tagged by `kind` with the spec's input names. Ids (pieces,
spaces, buildings, goals) and faces are plain strings so that `decide` can answer an unknown
id with the spec's own code (`invalid_payload`, `invalid_random_result`, `goal_not_in_pool`)
instead of a decoding error. `DrawGoalOrder` exists only to be refused: the engine draws the
goal order itself in digital mode and physical games reveal goals one by one (7.2).
"""

from __future__ import annotations

import msgspec


class _Action(msgspec.Struct, frozen=True, tag_field="kind", tag=True, forbid_unknown_fields=True):
    pass


class MoveWorker(_Action, frozen=True):
    piece: str
    from_: str = msgspec.field(name="from")
    to: str | None = None


class Build(_Action, frozen=True):
    building: str


class Grind(_Action, frozen=True):
    count: int = 1


class UnionConvert(_Action, frozen=True):
    count: int = 1


class HireSailor(_Action, frozen=True):
    pass


class UseLender(_Action, frozen=True):
    target: str


class RepayLender(_Action, frozen=True):
    pass


class EndTurn(_Action, frozen=True):
    pass


class DetermineFirstPlayer(_Action, frozen=True):
    first: str
    face: str | None = None


class DrawGoalOrder(_Action, frozen=True):
    order: tuple[str, ...] = ()


class RevealGoal(_Action, frozen=True):
    goal: str


class TossShips(_Action, frozen=True):
    faces: tuple[str, ...]
    result: str | None = None
    reason: str | None = None


Action = (
    MoveWorker
    | Build
    | Grind
    | UnionConvert
    | HireSailor
    | UseLender
    | RepayLender
    | EndTurn
    | DetermineFirstPlayer
    | DrawGoalOrder
    | RevealGoal
    | TossShips
)

PLAYER_ACTIONS = (MoveWorker, Build, Grind, UnionConvert, HireSailor, UseLender, RepayLender, EndTurn)
RANDOM_INPUTS = (DetermineFirstPlayer, DrawGoalOrder, RevealGoal, TossShips)
SPENDING_ACTIONS = (Build, Grind, UnionConvert, HireSailor, RepayLender)
