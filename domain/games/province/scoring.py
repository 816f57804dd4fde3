"""Final scoring of Province (Kickstarter 2014): province.md section 8.2.

`tie_break` is true whenever the totals were equal, whether or not the building count then
decided the game; equal totals and equal building counts are a draw (`winner` None).
"""

from __future__ import annotations

from domain.games.province.events import GameEnded
from domain.games.province.state import SEATS, Score, State


def score(state: State, seat: str) -> Score:
    data = state.rules.data
    player = state.player(seat)
    by_id = state.rules.by_id
    goal_by_id = state.rules.goal_by_id
    building_vp = sum([by_id[b].vp for b in player.first])
    goal_vp = sum([goal_by_id[g].vp for g in player.goals if g in goal_by_id])
    coin_vp = player.coins // data.coins_per_vp
    lender_vp = -data.lender_penalty_vp if state.lender_coin == seat else 0
    return Score(
        building_vp=building_vp,
        goal_vp=goal_vp,
        coin_vp=coin_vp,
        lender_vp=lender_vp,
        total=building_vp + goal_vp + coin_vp + lender_vp,
        buildings=len(player.built),
    )


def totals(state: State) -> tuple[int, int]:
    """The two seats' `score(...).total`, without the breakdown (sampled at every turn end;
    plain loops, as comprehensions each cost a call here)."""
    rules = state.rules
    by_id, goal_by_id, per_vp = rules.by_id, rules.goal_by_id, rules.data.coins_per_vp
    penalty = rules.data.lender_penalty_vp
    lender = state.lender_coin
    found = [0, 0]
    for index, (seat, player) in enumerate(zip(SEATS, state.players, strict=True)):
        total = player.coins // per_vp - (penalty if lender == seat else 0)
        for building in player.first:
            total += by_id[building].vp
        for goal in player.goals:
            if goal in goal_by_id:
                total += goal_by_id[goal].vp
        found[index] = total
    return found[0], found[1]


def game_ended(state: State, reasons: tuple[str, ...]) -> GameEnded:
    scores = {seat: score(state, seat) for seat in SEATS}
    a, b = scores["A"], scores["B"]
    tie_break = a.total == b.total
    if a.total != b.total:
        winner: str | None = "A" if a.total > b.total else "B"
    elif a.buildings != b.buildings:
        winner = "A" if a.buildings > b.buildings else "B"
    else:
        winner = None
    return GameEnded(reasons=reasons, scores=scores, winner=winner, tie_break=tie_break)
