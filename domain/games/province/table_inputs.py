"""Random and setup inputs of Province (Kickstarter 2014): province.md sections 1.2, 5.1, 7.2 and 7.5.

Digital games draw with `hmac-sha256-v1` (records 4) inside `setup` and `decide`:
stream `first-player` n 0 (one 2-faced die: 1 white → A first, 2 black → B first), stream
`goals` n 0 (one shuffle of the pool in rules-data order, index 0 on top), stream `ships` n 0, 1,
… (two 2-faced dice per toss). Physical games wait for the recorder's entries instead.

Rulings:
- In a digital game every submitted random input is refused (`random_input_not_allowed`),
  whoever sends it: the engine draws at the moment the rules call for it, and the audit
  re-runs `decide` to compare. `DrawGoalOrder` is refused in both modes for the same reason.
- Physical random inputs come from the recorder only; a seat's token gets
  `random_input_not_allowed`.
- Value checks (`invalid_random_result`, `goal_not_in_pool`, `invalid_payload`) come before
  the "is anything pending" checks, following the order of 7.6. `DetermineFirstPlayer` when
  the first player is already known gives `wrong_phase` (7.6 has no dedicated code).
- Physical games enter the first player even under `first_player_method: chosen` (D24), but
  without a face: a face then is `invalid_payload`. The `first_player` option is read only
  by digital games.
"""

from __future__ import annotations

from domain.games.province.actions import DetermineFirstPlayer, DrawGoalOrder, RevealGoal, TossShips
from domain.games.province.engine import Ctx, reject
from domain.games.province.events import (
    FirstPlayerDetermined,
    GoalOrderDrawn,
    GoalRevealed,
    RandomInputRequested,
    ShipsTossed,
)
from domain.games.province.state import FACES, SEATS, State
from domain.games.province.turns import after_reveal, after_toss, deal, ship_result
from domain.ruleset import Rejection

AWAITS = {DetermineFirstPlayer: "first_player", RevealGoal: "goal_reveal", TossShips: "ship_toss"}
AWAITING_TEXT = {
    "first_player": "who goes first",
    "goal_reveal": "the goal token turned face up",
    "ship_toss": "the faces of the ship toss",
}

RandomInput = DetermineFirstPlayer | DrawGoalOrder | RevealGoal | TossShips


def draw_setup(ctx: Ctx) -> None:
    """Digital setup (1.2 steps 2-7): first player, goal order, then the deal."""
    state = ctx.state
    variants = state.rules.variants
    if variants.first_player_method == "chosen":
        ctx.emit(FirstPlayerDetermined(first=variants.first_player, chosen=True))
    else:
        n = state.draws.first_player
        dice = ctx.rng.roll("first-player", n, 2, 1)
        ctx.emit(
            FirstPlayerDetermined(
                first=SEATS[dice[0] - 1], face=FACES[dice[0] - 1], stream="first-player", n=n, outcome=dice
            )
        )
    pool = tuple(goal.id for goal in state.rules.goals)
    n = ctx.state.draws.goals
    order = ctx.rng.shuffle("goals", n, pool)[: state.rules.data.goals_in_play]
    ctx.emit(GoalOrderDrawn(order=order, count=len(order), stream="goals", n=n))
    deal(ctx, order[0])


def check(state: State, action: RandomInput, by: str) -> Rejection | None:
    if isinstance(action, DrawGoalOrder):
        return reject(
            "random_input_not_allowed",
            "The goal order is never entered: the engine draws it in digital games, "
            "and physical games reveal goals one at a time.",
            "7.2",
        )
    if state.mode == "digital":
        return reject(
            "random_input_not_allowed", "In a digital game the engine draws every random outcome.", "7.2"
        )
    if by != "recorder":
        return reject("random_input_not_allowed", "Only the recorder enters what the table saw.", "7.2")
    wanted = AWAITS[type(action)]
    if state.awaiting is not None and state.awaiting != wanted:
        return reject("awaiting_random_input", f"Enter {AWAITING_TEXT[state.awaiting]} first.", "7.6")
    if isinstance(action, DetermineFirstPlayer):
        return _check_first(state, action)
    if isinstance(action, RevealGoal):
        return _check_reveal(state, action)
    return _check_toss(state, action)


def _check_first(state: State, action: DetermineFirstPlayer) -> Rejection | None:
    if action.first not in SEATS:
        return reject("invalid_payload", f"There is no seat {action.first!r}.", "7.2")
    if action.face is not None:
        if state.rules.variants.first_player_method == "chosen":
            return reject("invalid_payload", "The first player is chosen, not tossed: enter no face.", "D24")
        if action.face not in FACES:
            return reject(
                "invalid_random_result", f"A ship shows white or black, not {action.face!r}.", "7.6"
            )
    if state.awaiting != "first_player":
        return reject("wrong_phase", "The first player has already been determined.", "1.2")
    return None


def _check_reveal(state: State, action: RevealGoal) -> Rejection | None:
    if action.goal not in state.rules.goal_by_id:
        return reject("goal_not_in_pool", f"{action.goal!r} is not a goal of this game's pool.", "7.2")
    if state.awaiting != "goal_reveal":
        return reject("no_reveal_pending", "No goal token is waiting to be turned face up.", "7.2")
    if action.goal in state.goals.seen:
        return reject("goal_already_seen", f"The {action.goal} goal has already been revealed.", "7.2")
    return None


def _check_toss(state: State, action: TossShips) -> Rejection | None:
    if len(action.faces) != 2 or any(face not in FACES for face in action.faces):
        return reject("invalid_random_result", "Enter the two ships' faces, each white or black.", "7.6")
    if action.result is not None and action.result != ship_result(action.faces):
        return reject("invalid_random_result", f"Those faces give {ship_result(action.faces)}.", "7.2")
    if state.awaiting != "ship_toss":
        return reject("no_toss_pending", "No ship toss is due now.", "5.1")
    if action.reason is not None and action.reason != state.turn_state.toss_reason:
        return reject("invalid_random_result", f"This toss is for {state.turn_state.toss_reason}.", "7.2")
    return None


def apply(ctx: Ctx, action: RandomInput) -> None:
    if isinstance(action, DetermineFirstPlayer):
        ctx.emit(FirstPlayerDetermined(first=action.first, face=action.face, observed=True))
        ctx.emit(RandomInputRequested("goal_reveal"))
    elif isinstance(action, RevealGoal):
        if ctx.state.status == "setup":
            deal(ctx, action.goal)
        else:
            ctx.emit(GoalRevealed(action.goal))
            after_reveal(ctx)
    elif isinstance(action, TossShips):
        reason = ctx.state.turn_state.toss_reason or "harbor_master_turn"
        ctx.emit(ShipsTossed(action.faces, ship_result(action.faces), reason, observed=True))
        after_toss(ctx)
