"""How a game ends other than by its rules: a resignation, or the game abandoned.

A resignation ends the game at once with an outcome: the resigner takes the last place (its
rank is the number of seats), and the ones who stayed are ordered as the game stood, by the
game's own end-of-game order, tie-breaks included (Dominion's fewest turns, Dominations'
most Influence under its variant): a tie on score the rules break at the end is broken the
same way here. A ruleset gives that order with an optional `resign_outcome(state, seat) ->
Outcome`, most simply through `ranked_resignation` and a sort key per seat; without one the
others rank by their current score (the "vp" figure of the ruleset's `metrics`, every seat 0
without it), equal scores sharing a rank, the best of them winning. The ruling follows what
tables do (and what Dominion Online did): leaving concedes, the rest finish as they stood.

An abandoned game ends with no outcome (domain/game.py): statistics leave it out, the audit
still re-decides what was played.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    return score_ranking(ruleset, state, seat, seats)


def score_ranking(ruleset: Ruleset[Any, Any, Any], state: Any, seat: str, seats: tuple[str, ...]) -> Outcome:
    """`seat` last, the others by their current "vp" metric alone: the default, and the ruling
    every game's resignations were recorded under before they followed the game's own order
    (the audit accepts a resignation recorded so)."""
    metrics = getattr(ruleset, "metrics", None)
    vp: dict[str, float] = metrics(state).get("vp", {}) if metrics is not None else {}
    scores = {s: int(vp.get(s, 0)) for s in seats}
    return ranked_resignation(scores, seat)


def ranked_resignation(
    scores: dict[str, int],
    seat: str,
    order: Mapping[str, tuple[int, ...]] | None = None,
    details: Mapping[str, Any] | None = None,
) -> Outcome:
    """`seat` last, the others by `order` (a sort key per seat, the smaller first; by default
    the higher score first): equal keys share a rank, the next rank counts the seats ahead
    (1, 1, 3), the seats ranked 1 win. `details` are added to the outcome's."""
    keys = order if order is not None else {s: (-score,) for s, score in scores.items()}
    others = [s for s in scores if s != seat]
    ranks = {s: 1 + sum(1 for o in others if keys[o] < keys[s]) for s in others}
    ranks[seat] = len(scores)
    winners = tuple(s for s in others if ranks[s] == 1)
    return Outcome(
        scores=scores,
        ranks=ranks,
        winners=winners,
        details={**(details or {}), RESIGNED: seat},
        reason=RESIGNED,
    )
