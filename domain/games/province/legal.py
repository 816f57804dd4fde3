"""Prompts and legal actions of Province (Kickstarter 2014): who must answer what now, and with
which actions (province.md sections 3, 7.2 and 7.3).

`legal_actions` filters candidate actions through the very checks `decide` runs, so the two
cannot disagree. `probe_actions` adds deliberately bad candidates (unknown ids, counts of 0 and
one too many, impossible faces) for the contract suite to prove that `decide` refuses them.
A move that names its destination (`to`) is accepted like the same move without it; the
listings give the short form only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from domain.games.province.actions import (
    Action,
    Build,
    DetermineFirstPlayer,
    DrawGoalOrder,
    EndTurn,
    Grind,
    HireSailor,
    MoveWorker,
    RepayLender,
    RevealGoal,
    TossShips,
    UnionConvert,
    UseLender,
)
from domain.games.province.lender import use_gate
from domain.games.province.rules import PLAYER_RULES
from domain.games.province.spending import build_gate
from domain.games.province.state import FACES, PIECES, SEATS, State, other, seat_index
from domain.games.province.table_inputs import AWAITING_TEXT, RandomInput
from domain.games.province.table_inputs import check as check_table_input
from domain.ruleset import Prompt

UNKNOWN = "unknown"
PROMPT_KINDS = {"first_player": "DetermineFirstPlayer", "goal_reveal": "RevealGoal", "ship_toss": "TossShips"}


def _random_candidates(state: State) -> list[RandomInput]:
    if state.awaiting == "first_player":
        return [DetermineFirstPlayer(seat, face) for seat in SEATS for face in (None, *FACES)]
    if state.awaiting == "goal_reveal":
        return [RevealGoal(goal.id) for goal in state.rules.goals]
    if state.awaiting == "ship_toss":
        return [TossShips((a, b)) for a in FACES for b in FACES]
    return []


def _player_candidates(state: State, seat: str) -> Iterator[tuple[str, Iterable[Action]]]:
    """Candidate actions grouped by kind, built lazily and pre-filtered by cheap necessary
    conditions (the full checks of `decide` still decide legality)."""
    rules = state.rules
    player = state.player(seat)
    me = seat_index(seat)
    playing = state.phase in ("labor", "spending")
    if state.phase == "labor":
        unmoved = state.turn_state.unmoved
        yield (
            "MoveWorker",
            (
                MoveWorker(piece, space_id)
                for space_id, space in zip(rules.space_ids, unmoved, strict=True)
                for piece in PIECES
                if space.count(piece, me)
            ),
        )
    # A kind whose target-independent checks fail has no legal action at all: skip its targets.
    if playing and use_gate(state, seat) is None:
        rival = state.player(other(seat)).built
        own_too = rules.variants.lender_targets != "not_own"
        yield (
            "UseLender",
            (UseLender(b) for b in rules.by_id if b in rival and (own_too or b not in player.built)),
        )
    if playing and state.turn_state.moves:
        if build_gate(state, seat) is None:
            yield (
                "Build",
                (
                    Build(b.id)
                    for b in rules.data.buildings
                    if b.cost_labor <= player.labor
                    and b.cost_coins <= player.coins
                    and b.id not in player.built
                ),
            )
        grind = rules.data.grind
        most = player.labor // grind.labor
        if rules.variants.grind_on_empty_supply == "reject":
            most = min(most, state.supply() // grind.coins) if grind.coins else most
        yield "Grind", (Grind(n) for n in range(1, most + 1))
        yield "UnionConvert", (UnionConvert(n) for n in range(1, player.coins // rules.data.union.coins + 1))
        yield "HireSailor", (HireSailor(),)
    if playing and state.lender_coin == seat:
        yield "RepayLender", (RepayLender(),)
    if playing and state.turn_state.moves:
        yield "EndTurn", (EndTurn(),)


def _is_legal(state: State, action: Action, seat: str) -> bool:
    return PLAYER_RULES[type(action)][0](state, action, seat) is None


def legal_actions(state: State, seat: str | None) -> tuple[Action, ...]:
    """Every action `decide` accepts now from `seat` (None: whoever is prompted)."""
    if state.status == "finished":
        return ()
    if state.awaiting is not None:
        if seat is not None:
            return ()
        return tuple(a for a in _random_candidates(state) if check_table_input(state, a, "recorder") is None)
    active = state.active
    if active is None or (seat is not None and seat != active):
        return ()
    return tuple(
        action
        for _, candidates in _player_candidates(state, active)
        for action in candidates
        if _is_legal(state, action, active)
    )


def legal_kinds(state: State, seat: str) -> tuple[str, ...]:
    """The kinds of the legal actions, stopping at the first legal action of each kind."""
    return tuple(
        kind
        for kind, candidates in _player_candidates(state, seat)
        if any(_is_legal(state, action, seat) for action in candidates)
    )


def probe_actions(state: State) -> tuple[Action, ...]:
    """A finite superset of the legal actions, with out-of-bounds variants of each kind."""
    rules = state.rules
    spaces = (*rules.space_ids, UNKNOWN)
    buildings = (*rules.by_id, UNKNOWN)
    labor = max((p.labor for p in state.players), default=0)
    coins = max((p.coins for p in state.players), default=0)
    out: list[Action] = []
    for space_id in spaces:
        for piece in (*PIECES, UNKNOWN):
            out.append(MoveWorker(piece, space_id))
        out.append(MoveWorker("green", space_id, space_id))
    out.extend(Build(b) for b in buildings)
    out.extend(UseLender(b) for b in buildings)
    out.extend(Grind(n) for n in range(0, labor // rules.data.grind.labor + 2))
    out.extend(UnionConvert(n) for n in range(0, coins // rules.data.union.coins + 2))
    out.extend((HireSailor(), RepayLender(), EndTurn()))
    out.extend(DetermineFirstPlayer(seat, face) for seat in (*SEATS, "C") for face in (None, *FACES, "grey"))
    out.append(DrawGoalOrder(tuple(goal.id for goal in rules.goals)))
    out.extend(RevealGoal(goal_id) for goal_id in (*rules.goal_by_id, UNKNOWN))
    out.extend(TossShips((a, b)) for a in FACES for b in FACES)
    out.extend((TossShips(("white", "grey")), TossShips(("white",)), TossShips(("white", "white", "black"))))
    out.append(TossShips(("white", "white"), result="BB"))
    reasons = ("harbor_built", "harbor_master_turn")
    out.extend(TossShips(("white", "black"), reason=r) for r in reasons if r != state.turn_state.toss_reason)
    return tuple(out)


def pending(state: State) -> tuple[Prompt, ...]:
    if state.status == "finished":
        return ()
    if state.awaiting is not None:
        kind = PROMPT_KINDS[state.awaiting]
        bounds: dict[str, object] = {}
        if state.awaiting == "goal_reveal":
            bounds["goals"] = [g.id for g in state.rules.goals if g.id not in state.goals.seen]
        elif state.awaiting == "ship_toss":
            bounds = {"faces": list(FACES), "count": 2, "reason": state.turn_state.toss_reason}
        else:
            bounds = {"first": list(SEATS), "faces": list(FACES)}
        return (Prompt(None, state.awaiting, f"Enter {AWAITING_TEXT[state.awaiting]}.", (kind,), bounds),)
    if state.active is None:
        return ()
    text = f"Turn {state.turn}: {state.phase} phase."
    return (Prompt(state.active, "turn", text, legal_kinds(state, state.active), {"phase": state.phase}),)
