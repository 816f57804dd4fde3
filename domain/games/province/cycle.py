"""The work cycle of Province (Kickstarter 2014): `MoveWorker`, province.md sections 3.2 and 7.3.

Greens and one player's own sailors are interchangeable, so a move names a kind of piece and
a space; the turn's `unmoved` counts per space say whether an unmoved piece of that kind is
still there (a piece that arrived this turn never makes another one movable twice).
"""

from __future__ import annotations

from domain.games.province.actions import MoveWorker
from domain.games.province.engine import Ctx, reject
from domain.games.province.events import LaborGained, WorkerMoved
from domain.games.province.goals import check_after_input
from domain.games.province.state import PIECES, State, piece_effect, seat_index
from domain.games.province.turns import BANK, gain_coins
from domain.ruleset import Rejection

WORKER_PIECES = ("camp", "village")


def check_move(state: State, action: MoveWorker, seat: str) -> Rejection | None:
    rules = state.rules
    if action.piece not in PIECES:
        return reject("invalid_payload", f"There is no piece called {action.piece!r}.", "7.3")
    source = rules.space_index.get(action.from_)
    if source is None:
        return reject("invalid_payload", f"There is no space called {action.from_!r}.", "7.3")
    if action.to is not None and rules.space_index.get(action.to) != rules.next_index[source]:
        target = rules.space_ids[rules.next_index[source]]
        return reject("invalid_payload", f"A piece on {action.from_} can only move to {target}.", "3.2")
    if state.phase != "labor":
        return reject("wrong_phase", "Workers move only in the labor phase.", "3.2")
    me = seat_index(seat)
    space = state.board[source]
    if space.count(action.piece, me) == 0:
        if action.piece == "sailor" and space.sailors[1 - me] > 0:
            return reject("piece_not_accessible", "Only its owner may move a sailor.", "5.3")
        return reject("piece_not_on_space", f"There is no {action.piece} piece on {action.from_}.", "3.2")
    if action.piece in WORKER_PIECES and not state.uses_effect(seat, piece_effect(action.piece)):
        return reject(
            "piece_not_accessible",
            f"You may move the {action.piece} piece only if you built or borrowed it.",
            "3.2",
        )
    if state.turn_state.unmoved[source].count(action.piece, me) == 0:
        return reject(
            "piece_already_moved", f"Every {action.piece} piece on {action.from_} has moved.", "3.2"
        )
    return None


def move(ctx: Ctx, action: MoveWorker, seat: str) -> None:
    rules = ctx.state.rules
    target = rules.next_index[rules.space_index[action.from_]]
    ctx.emit(WorkerMoved(seat, action.piece, action.from_, rules.space_ids[target]))
    if rules.coin_space[target]:
        # The Bank doubles coins from landings after it is owned or borrowed (4.2, 4.3).
        gain_coins(ctx, seat, 2 if ctx.state.uses_effect(seat, BANK) else 1, "cycle")
    else:
        ctx.emit(LaborGained(seat, 1, "cycle"))
    check_after_input(ctx)
