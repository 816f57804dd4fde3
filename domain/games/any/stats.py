"""Figures of `any` for the statistics: the score progression and every die rolled."""

from __future__ import annotations

from domain.games.any import ending
from domain.games.any.events import DiceRolled, Fact
from domain.games.any.state import State
from domain.ruleset import Die


def metrics(state: State) -> dict[str, dict[str, float]]:
    """ "vp": each seat's value on the ending's per-player track; every per-player track by its
    own name as well."""
    scores = ending.track_scores(state.definition, state.seats, state.player_tracks)
    out: dict[str, dict[str, float]] = {"vp": {s: float(v) for s, v in scores.items()}}
    for name, values in state.player_tracks.items():
        if name != "vp":
            out[name] = {s: float(v) for s, v in values.items()}
    return out


def dice(fact: Fact) -> tuple[Die, ...]:
    """Every die of a roll, drawn from the seed or entered by the table (stream `dice`)."""
    if not isinstance(fact, DiceRolled):
        return ()
    return ((fact.stream or "dice", fact.faces, fact.values),)
