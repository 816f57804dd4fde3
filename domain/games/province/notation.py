"""Table notation of Province (Kickstarter 2014): one short line per action (province.md 7.2, 7.3).

    move green top [right]    build camp        grind 2        union 2       hire
    lend union                repay             end            first A [white]
    reveal labor5             toss white black [result=WB] [reason=harbor_built]
    draw-goals coins5 labor5 ...

Verbs are case-insensitive; ids are kept as written, so that `decide` can name a wrong one.
`format_action` and `parse_notation` round-trip every action.
"""

from __future__ import annotations

from collections.abc import Callable

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
from domain.games.province.engine import reject
from domain.games.province.state import PIECES, State
from domain.ruleset import Rejection

USAGE = (
    "move PIECE FROM [TO] | build BUILDING | grind [N] | union [N] | hire | lend BUILDING | repay | end"
    " | first SEAT [FACE] | reveal GOAL | toss FACE FACE [result=R] [reason=R]"
)


def format_action(action: Action) -> str:
    if isinstance(action, MoveWorker):
        return " ".join(
            ("move", action.piece, action.from_, *((action.to,) if action.to is not None else ()))
        )
    if isinstance(action, Build):
        return f"build {action.building}"
    if isinstance(action, Grind):
        return f"grind {action.count}"
    if isinstance(action, UnionConvert):
        return f"union {action.count}"
    if isinstance(action, UseLender):
        return f"lend {action.target}"
    if isinstance(action, DetermineFirstPlayer):
        return " ".join(("first", action.first, *((action.face,) if action.face is not None else ())))
    if isinstance(action, RevealGoal):
        return f"reveal {action.goal}"
    if isinstance(action, DrawGoalOrder):
        return " ".join(("draw-goals", *action.order))
    if isinstance(action, TossShips):
        extra = [
            f"{key}={value}" for key, value in (("result", action.result), ("reason", action.reason)) if value
        ]
        return " ".join(("toss", *action.faces, *extra))
    return _BARE_NAMES[type(action)]


_BARE_NAMES: dict[type, str] = {HireSailor: "hire", RepayLender: "repay", EndTurn: "end"}
_BARE: dict[str, Action] = {"hire": HireSailor(), "repay": RepayLender(), "end": EndTurn()}


def _count(args: list[str]) -> int | None:
    if not args:
        return 1
    if len(args) == 1 and args[0].lstrip("-").isdigit():
        return int(args[0])
    return None


def _move(args: list[str]) -> Action | None:
    if len(args) in (2, 3):
        return MoveWorker(args[0], args[1], args[2] if len(args) == 3 else None)
    return None


def _one(make: Callable[[str], Action]) -> Callable[[list[str]], Action | None]:
    return lambda args: make(args[0]) if len(args) == 1 else None


def _grind(args: list[str]) -> Action | None:
    n = _count(args)
    return None if n is None else Grind(n)


def _union(args: list[str]) -> Action | None:
    n = _count(args)
    return None if n is None else UnionConvert(n)


def _first(args: list[str]) -> Action | None:
    if len(args) in (1, 2):
        return DetermineFirstPlayer(args[0], args[1] if len(args) == 2 else None)
    return None


def _toss(args: list[str]) -> Action | None:
    faces = tuple(a for a in args if "=" not in a)
    options = dict(a.split("=", 1) for a in args if "=" in a)
    if set(options) - {"result", "reason"}:
        return None
    return TossShips(faces, options.get("result") or None, options.get("reason") or None)


_PARSERS: dict[str, Callable[[list[str]], Action | None]] = {
    "move": _move,
    "build": _one(Build),
    "grind": _grind,
    "union": _union,
    "lend": _one(UseLender),
    "first": _first,
    "reveal": _one(RevealGoal),
    "toss": _toss,
    "draw-goals": lambda args: DrawGoalOrder(tuple(args)),
}


def parse_notation(text: str) -> Action | Rejection:
    words = text.split()
    if not words:
        return reject("invalid_payload", f"Empty notation; use {USAGE}.", "7.3")
    verb, args = words[0].lower(), words[1:]
    if verb in _BARE and not args:
        return _BARE[verb]
    parser = _PARSERS.get(verb)
    action = parser(args) if parser is not None else None
    if action is None:
        return reject("invalid_payload", f"Cannot read {text!r}; use {USAGE}.", "7.3")
    return action


def notation_words(state: State) -> tuple[str, ...]:
    """The words of the notation, for the suggestion of a misspelt one (domain/suggestions.py):
    the verbs, pieces, spaces, buildings and goals of this game, all public."""
    rules = state.rules
    return (
        *_PARSERS,
        *_BARE,
        *PIECES,
        *rules.space_ids,
        *rules.by_id,
        *(g.id for g in rules.goals),
        "white",
        "black",
    )
