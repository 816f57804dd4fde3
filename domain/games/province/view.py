"""Views and redaction of Province (Kickstarter 2014): province.md 1.2 step 3 and design.md 2.

The only hidden information is the face-down goal stack of a digital game: players and the
public see how many tokens are left (`hidden_count`), never their order. `GoalOrderDrawn` is
redacted the same way (its order emptied, the count kept). Everything else is open.

Mutation testing (bench/mutation.py, group redaction) leaves survivors judged equivalent: the
`strict` flag of zips over the board's spaces (the lists are always as long as each other). Not
reached by the tests' games, and not equivalent: sailors that differ between the seats on one
space, and ships in the state.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games.province.actions import Action
from domain.games.province.events import Fact, GoalOrderDrawn
from domain.games.province.state import SEATS, Space, State, seat_index
from domain.ruleset import Prompt, Viewer


def _plain(value: object) -> Any:
    """JSON-shaped builtins: lists rather than tuples."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _space(space: Space) -> dict[str, Any]:
    return {
        "green": space.green,
        "camp": space.camp,
        "village": space.village,
        "sailors": {seat: space.sailors[seat_index(seat)] for seat in SEATS},
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    rules = state.rules
    goals = state.goals
    goal_view: dict[str, Any] = {
        "revealed": goals.revealed,
        "hidden_count": goals.hidden_count,
        "removed": list(goals.removed),
    }
    if viewer.kind == "omniscient" and state.mode == "digital":
        goal_view["hidden"] = list(goals.hidden)
    ts = state.turn_state
    return {
        "status": state.status,
        "mode": state.mode,
        "rules_data_version": rules.data.version,
        "awaiting": state.awaiting,
        "final_turn": state.final_turn,
        "first_player": state.first_player,
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "supply": state.supply(),
        "players": {seat: _plain(state.player(seat)) for seat in SEATS},
        "board": {
            space_id: _space(space) for space_id, space in zip(rules.space_ids, state.board, strict=True)
        },
        "lender_coin": state.lender_coin,
        "ships": _plain(state.ships),
        "harbor_master": state.harbor_master,
        "goals": goal_view,
        "turn_state": {
            "moves": ts.moves,
            "unmoved": {sid: _space(space) for sid, space in zip(rules.space_ids, ts.unmoved, strict=False)},
            "labor_gained": ts.labor_gained,
            "builds": ts.builds,
            "hired_sailor": ts.hired_sailor,
            "union_uses": ts.union_uses,
            "lender_used": list(ts.lender_used),
            "nongreen_moved": ts.nongreen_moved,
            "harbor_first_built": ts.toss_due,
            "toss_reason": ts.toss_reason,
        },
        "end": _plain(state.end),
    }


def redact(fact: Fact, viewer: Viewer) -> Fact:
    if isinstance(fact, GoalOrderDrawn) and viewer.kind != "omniscient" and not fact.redacted:
        return msgspec.structs.replace(fact, order=(), redacted=True)
    return fact


def redact_action(action: Action, seat: str | None, state: State, viewer: Viewer) -> Action:
    return action


def redact_prompt(prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
    return prompt
