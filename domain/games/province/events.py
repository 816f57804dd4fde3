"""Facts of Province (Kickstarter 2014): the derived events of province.md 7.4 and the random facts.

Every state change is one of these, so `evolve` rebuilds the whole state from facts alone.
Random facts record the stream and counter of `hmac-sha256-v1` (design.md 4, spec 7.5) in
digital mode, or `observed: true` in physical mode. Besides the facts listed in 7.4 there are:

- `PhaseChanged`: the implicit phase changes of 3.1-3.4 (turn start → labor → spending → turn end);
- `LaborSpent`: labor paid for a building or a Grind (7.4 lists only coin payments);
- `RandomInputRequested`: a physical game waits for the table (first player, goal reveal, toss);
- `FinalTurnSet`: under `end_check: end_of_round` the second player takes one more turn (D23).
"""

from __future__ import annotations

import msgspec

from domain.games.province.state import Score


class _Fact(msgspec.Struct, frozen=True, tag_field="type", tag=True, forbid_unknown_fields=True):
    pass


class FirstPlayerDetermined(_Fact, frozen=True):
    first: str
    face: str | None = None
    stream: str | None = None
    n: int | None = None
    outcome: tuple[int, ...] | None = None
    observed: bool = False
    chosen: bool = False


class GoalOrderDrawn(_Fact, frozen=True):
    """The face-down stack, top first. Redacted copies keep only `count`."""

    order: tuple[str, ...]
    count: int
    stream: str = "goals"
    n: int = 0
    redacted: bool = False


class ShipsTossed(_Fact, frozen=True):
    faces: tuple[str, ...]
    result: str
    reason: str
    stream: str | None = None
    n: int | None = None
    outcome: tuple[int, ...] | None = None
    observed: bool = False


class RandomInputRequested(_Fact, frozen=True):
    awaiting: str
    reason: str | None = None


class SetupCompleted(_Fact, frozen=True):
    coins: dict[str, int]


class TurnStarted(_Fact, frozen=True):
    turn: int
    player: str


class PhaseChanged(_Fact, frozen=True):
    player: str
    phase: str


class LaborGained(_Fact, frozen=True):
    player: str
    amount: int
    source: str


class LaborSpent(_Fact, frozen=True):
    player: str
    amount: int
    reason: str


class CoinsGained(_Fact, frozen=True):
    player: str
    amount: int
    requested: int
    source: str


class CoinsPaid(_Fact, frozen=True):
    player: str
    amount: int
    reason: str


class WorkerMoved(_Fact, frozen=True):
    player: str
    piece: str
    from_: str = msgspec.field(name="from")
    to: str = ""


class WorkerPlaced(_Fact, frozen=True):
    piece: str
    space: str
    owner: str | None = None


class BuildingBuilt(_Fact, frozen=True):
    player: str
    building: str
    first: bool
    vp_scored: int


class HarborMasterSet(_Fact, frozen=True):
    player: str


class SailorHired(_Fact, frozen=True):
    player: str


class LenderUsed(_Fact, frozen=True):
    player: str
    target: str


class LenderCoinMoved(_Fact, frozen=True):
    from_: str = msgspec.field(name="from")
    to: str = ""


class GoalRevealed(_Fact, frozen=True):
    goal: str


class GoalClaimed(_Fact, frozen=True):
    player: str
    goal: str


class GoalRemoved(_Fact, frozen=True):
    goal: str


class LaborDiscarded(_Fact, frozen=True):
    player: str
    amount: int


class FinalTurnSet(_Fact, frozen=True):
    player: str
    reasons: tuple[str, ...]


class GameEnded(_Fact, frozen=True):
    reasons: tuple[str, ...]
    scores: dict[str, Score]
    winner: str | None
    tie_break: bool


Fact = (
    FirstPlayerDetermined
    | GoalOrderDrawn
    | ShipsTossed
    | RandomInputRequested
    | SetupCompleted
    | TurnStarted
    | PhaseChanged
    | LaborGained
    | LaborSpent
    | CoinsGained
    | CoinsPaid
    | WorkerMoved
    | WorkerPlaced
    | BuildingBuilt
    | HarborMasterSet
    | SailorHired
    | LenderUsed
    | LenderCoinMoved
    | GoalRevealed
    | GoalClaimed
    | GoalRemoved
    | LaborDiscarded
    | FinalTurnSet
    | GameEnded
)
