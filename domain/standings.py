"""What a finished game means for each seat: a win, a draw or a loss. One definition, used by
every statistics table (projections/tables.py, each game's `stats.tables`) and by `simulate`.

First place belongs to the outcome's `winners`:

- one winner: a win for that seat, a loss for every other;
- several winners (a tie for first the rules did not break): a draw for those tied, a loss
  for every other seat;
- no winner (the game ended without one, such as a Province tie): a draw for every seat.

Between two seats (head to head) first place decides first: a winner finishes ahead of a
seat that did not win, two winners draw; between two seats that did not win, the lower rank
is ahead and equal ranks draw.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Literal

Result = Literal["win", "draw", "loss"]


def seat_result(winners: Collection[str], seat: str) -> Result:
    """The game's result for `seat`, given the outcome's winners."""
    if not winners:
        return "draw"
    if seat not in winners:
        return "loss"
    return "win" if len(winners) == 1 else "draw"


def sole_winner(winners: Collection[str]) -> str | None:
    """The seat that won alone, or None when first place was shared or nobody won."""
    if len(winners) != 1:
        return None
    return next(iter(winners))


def pair_result(winners: Collection[str], ranks: Mapping[str, int], seat: str, other: str) -> Result:
    """How `seat` finished against `other` in one game."""
    mine, theirs = seat in winners, other in winners
    if mine != theirs:
        return "win" if mine else "loss"
    if mine:
        return "draw"
    rank, other_rank = ranks.get(seat, 0), ranks.get(other, 0)
    if rank == other_rank:
        return "draw"
    return "win" if rank < other_rank else "loss"
