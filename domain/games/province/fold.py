"""`evolve` for Province (Kickstarter 2014): applies one fact to the state (province.md 2, 7.4).

Pure and total: it never validates and never draws. Every function takes the state and one fact
and returns the next state, built with `msgspec.structs.replace` (no copies of untouched parts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.games.province import events as ev
from domain.games.province.state import (
    Draws,
    End,
    Goals,
    Ships,
    Space,
    State,
    TurnState,
    seat_index,
)


def _player(state: State, seat: str, **changes: Any) -> State:
    a, b = state.players
    if seat == "A":
        return replace(state, players=(replace(a, **changes), b))
    return replace(state, players=(a, replace(b, **changes)))


def _labor(state: State, seat: str, delta: int) -> State:
    """The seat's labor changed by `delta` (the commonest facts, so spelled out)."""
    a, b = state.players
    if seat == "A":
        return replace(state, players=(replace(a, labor=a.labor + delta), b))
    return replace(state, players=(a, replace(b, labor=b.labor + delta)))


def _coins(state: State, seat: str, delta: int) -> State:
    a, b = state.players
    if seat == "A":
        return replace(state, players=(replace(a, coins=a.coins + delta), b))
    return replace(state, players=(a, replace(b, coins=b.coins + delta)))


def _first_player(state: State, fact: ev.FirstPlayerDetermined) -> State:
    draws = state.draws if fact.n is None else replace(state.draws, first_player=fact.n + 1)
    return replace(state, first_player=fact.first, awaiting=None, draws=draws)


def _goal_order(state: State, fact: ev.GoalOrderDrawn) -> State:
    goals = replace(state.goals, hidden=fact.order, hidden_count=fact.count)
    return replace(state, goals=goals, draws=replace(state.draws, goals=fact.n + 1))


def _ships(state: State, fact: ev.ShipsTossed) -> State:
    draws: Draws = state.draws if fact.n is None else replace(state.draws, ships=fact.n + 1)
    turn_state = replace(state.turn_state, toss_due=False, toss_reason=fact.reason)
    return replace(
        state,
        ships=Ships(fact.faces, fact.result),
        awaiting=None,
        draws=draws,
        turn_state=turn_state,
    )


def _requested(state: State, fact: ev.RandomInputRequested) -> State:
    if fact.awaiting == "ship_toss":
        return replace(
            state, awaiting=fact.awaiting, turn_state=replace(state.turn_state, toss_reason=fact.reason)
        )
    return replace(state, awaiting=fact.awaiting)


def _setup_completed(state: State, fact: ev.SetupCompleted) -> State:
    players = (
        replace(state.players[0], coins=fact.coins.get("A", 0)),
        replace(state.players[1], coins=fact.coins.get("B", 0)),
    )
    return replace(state, players=players, status="in_progress")


def _turn_started(state: State, fact: ev.TurnStarted) -> State:
    return replace(state, turn=fact.turn, active=fact.player, phase="turn_start", turn_state=TurnState())


def _phase(state: State, fact: ev.PhaseChanged) -> State:
    if fact.phase == "labor":
        return replace(state, phase=fact.phase, turn_state=replace(state.turn_state, unmoved=state.board))
    return replace(state, phase=fact.phase)


def _labor_gained(state: State, fact: ev.LaborGained) -> State:
    seat, amount = fact.player, fact.amount
    if seat != state.active or (
        # D18: Union conversions may be left out of the labor goal's count.
        fact.source == "union" and not state.rules.variants.labor_goal_counts_conversions
    ):
        return _labor(state, seat, amount)
    a, b = state.players
    if seat == "A":
        players = (replace(a, labor=a.labor + amount), b)
    else:
        players = (a, replace(b, labor=b.labor + amount))
    ts = state.turn_state
    return replace(state, players=players, turn_state=replace(ts, labor_gained=ts.labor_gained + amount))


def _labor_spent(state: State, fact: ev.LaborSpent) -> State:
    return _labor(state, fact.player, -fact.amount)


def _coins_gained(state: State, fact: ev.CoinsGained) -> State:
    return _coins(state, fact.player, fact.amount)


def _coins_paid(state: State, fact: ev.CoinsPaid) -> State:
    # One Union conversion is one payment with reason "union" (UnionConvert emits one per unit).
    if fact.reason != "union":
        return _coins(state, fact.player, -fact.amount)
    a, b = state.players
    if fact.player == "A":
        players = (replace(a, coins=a.coins - fact.amount), b)
    else:
        players = (a, replace(b, coins=b.coins - fact.amount))
    ts = state.turn_state
    return replace(state, players=players, turn_state=replace(ts, union_uses=ts.union_uses + 1))


def _set_space(spaces: tuple[Space, ...], index: int, space: Space) -> tuple[Space, ...]:
    return (*spaces[:index], space, *spaces[index + 1 :])


def _worker_moved(state: State, fact: ev.WorkerMoved) -> State:
    index = state.rules.space_index
    source, target = index[fact.from_], index[fact.to]
    seat = seat_index(fact.player)
    spaces = list(state.board)
    spaces[source] = spaces[source].add(fact.piece, seat, -1)
    spaces[target] = spaces[target].add(fact.piece, seat, 1)
    board = tuple(spaces)
    ts = state.turn_state
    unmoved = ts.unmoved
    if unmoved:
        unmoved = _set_space(unmoved, source, unmoved[source].add(fact.piece, seat, -1))
    turn_state = replace(
        ts,
        unmoved=unmoved,
        moves=ts.moves + 1,
        nongreen_moved=ts.nongreen_moved + (fact.piece != "green"),
    )
    return replace(state, board=board, turn_state=turn_state)


def _worker_placed(state: State, fact: ev.WorkerPlaced) -> State:
    index = state.rules.space_index[fact.space]
    seat = seat_index(fact.owner) if fact.owner is not None else 0
    board = _set_space(state.board, index, state.board[index].add(fact.piece, seat, 1))
    return replace(state, board=board)


def _building_built(state: State, fact: ev.BuildingBuilt) -> State:
    player = state.player(fact.player)
    first = (*player.first, fact.building) if fact.first else player.first
    new = _player(state, fact.player, built=(*player.built, fact.building), first=first)
    ts = state.turn_state
    harbor = state.rules.by_id[fact.building].effect == "harbor"
    # 3.4 step 4 / D10: the first Harbor (or any Harbor under the variant) tosses at turn end.
    toss = ts.toss_due or (harbor and (fact.first or state.rules.variants.harbor_toss_on_any_build))
    return replace(new, turn_state=replace(ts, builds=ts.builds + 1, toss_due=toss))


def _harbor_master(state: State, fact: ev.HarborMasterSet) -> State:
    return replace(state, harbor_master=fact.player)


def _sailor_hired(state: State, fact: ev.SailorHired) -> State:
    new = _player(state, fact.player, sailors=state.player(fact.player).sailors + 1)
    return replace(new, turn_state=replace(state.turn_state, hired_sailor=True))


def _lender_used(state: State, fact: ev.LenderUsed) -> State:
    ts = state.turn_state
    return replace(state, turn_state=replace(ts, lender_used=(*ts.lender_used, fact.target)))


def _lender_coin(state: State, fact: ev.LenderCoinMoved) -> State:
    return replace(state, lender_coin=fact.to)


def _goal_revealed(state: State, fact: ev.GoalRevealed) -> State:
    goals = state.goals
    hidden = goals.hidden[1:] if goals.hidden and goals.hidden[0] == fact.goal else goals.hidden
    new_goals = replace(
        goals,
        revealed=fact.goal,
        hidden=hidden,
        hidden_count=max(goals.hidden_count - 1, 0),
        seen=(*goals.seen, fact.goal),
    )
    awaiting = None if state.awaiting == "goal_reveal" else state.awaiting
    return replace(state, goals=new_goals, awaiting=awaiting)


def _goal_claimed(state: State, fact: ev.GoalClaimed) -> State:
    new = _player(state, fact.player, goals=(*state.player(fact.player).goals, fact.goal))
    return replace(new, goals=replace(state.goals, revealed=None))


def _goal_removed(state: State, fact: ev.GoalRemoved) -> State:
    goals: Goals = state.goals
    return replace(state, goals=replace(goals, revealed=None, removed=(*goals.removed, fact.goal)))


def _labor_discarded(state: State, fact: ev.LaborDiscarded) -> State:
    return _labor(state, fact.player, -fact.amount)


def _final_turn(state: State, fact: ev.FinalTurnSet) -> State:
    return replace(state, final_turn=True)


def _game_ended(state: State, fact: ev.GameEnded) -> State:
    end = End(reasons=fact.reasons, scores=fact.scores, winner=fact.winner, tie_break=fact.tie_break)
    return replace(state, status="finished", end=end, awaiting=None, phase=None)


_APPLY: dict[type[Any], Callable[[State, Any], State]] = {
    ev.FirstPlayerDetermined: _first_player,
    ev.GoalOrderDrawn: _goal_order,
    ev.ShipsTossed: _ships,
    ev.RandomInputRequested: _requested,
    ev.SetupCompleted: _setup_completed,
    ev.TurnStarted: _turn_started,
    ev.PhaseChanged: _phase,
    ev.LaborGained: _labor_gained,
    ev.LaborSpent: _labor_spent,
    ev.CoinsGained: _coins_gained,
    ev.CoinsPaid: _coins_paid,
    ev.WorkerMoved: _worker_moved,
    ev.WorkerPlaced: _worker_placed,
    ev.BuildingBuilt: _building_built,
    ev.HarborMasterSet: _harbor_master,
    ev.SailorHired: _sailor_hired,
    ev.LenderUsed: _lender_used,
    ev.LenderCoinMoved: _lender_coin,
    ev.GoalRevealed: _goal_revealed,
    ev.GoalClaimed: _goal_claimed,
    ev.GoalRemoved: _goal_removed,
    ev.LaborDiscarded: _labor_discarded,
    ev.FinalTurnSet: _final_turn,
    ev.GameEnded: _game_ended,
}


def evolve(state: State, fact: ev.Fact) -> State:
    """Apply one fact. Unknown fact types leave the state as it is (total by construction)."""
    apply = _APPLY.get(type(fact))
    return state if apply is None else apply(state, fact)
