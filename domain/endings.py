"""How a game ends other than by its rules: a resignation, or the game abandoned.

A resignation ends the game at once with an outcome. A ruleset says how it ranks with an
optional `resign_outcome(state, seat) -> Outcome`; without one the resigner ranks last and
the other seats rank by their current score (the "vp" figure of the ruleset's `metrics`, every
seat 0 without it), equal scores sharing a rank, the best of them winning. The ruling follows
what tables do: leaving concedes, and the ones who stayed are ordered as the game stood.

An abandoned game ends with no outcome (domain/game.py): statistics leave it out, the audit
still re-decides what was played.
"""

from __future__ import annotations

from typing import Any

from domain.ruleset import Outcome, Ruleset

RESIGNED = "resigned"


def resignation_outcome(
    ruleset: Ruleset[Any, Any, Any], state: Any, seat: str, seats: tuple[str, ...]
) -> Outcome:
    """The outcome when `seat` resigns from `state` (deterministic: the audit recomputes it)."""
    custom = getattr(ruleset, "resign_outcome", None)
    if custom is not None:
        found: Outcome = custom(state, seat)
        return found
    metrics = getattr(ruleset, "metrics", None)
    vp: dict[str, float] = metrics(state).get("vp", {}) if metrics is not None else {}
    scores = {s: int(vp.get(s, 0)) for s in seats}
    return ranked_resignation(scores, seat)


def ranked_resignation(scores: dict[str, int], seat: str) -> Outcome:
    """The default ranking: `seat` last, the others by score (higher is better, ties share)."""
    others = sorted((s for s in scores if s != seat), key=lambda s: -scores[s])
    ranks: dict[str, int] = {}
    for position, s in enumerate(others, start=1):
        tied = next((o for o in others[: position - 1] if scores[o] == scores[s]), None)
        ranks[s] = ranks[tied] if tied is not None else position
    ranks[seat] = len(scores)
    winners = tuple(s for s in others if ranks[s] == 1)
    return Outcome(scores=scores, ranks=ranks, winners=winners, details={RESIGNED: seat}, reason=RESIGNED)
