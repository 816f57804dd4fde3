"""The simple bot of Province for `chronicle simulate`: builds nine times in ten when it can,
otherwise a random legal choice. Random play alone rarely builds, and a game of Province only
ends through buildings and goals."""

from __future__ import annotations

from collections.abc import Callable

from domain.games.province.actions import Action, Build
from domain.games.province.state import State


def choose(state: State, seat: str | None, legal: tuple[Action, ...], draw: Callable[[int], int]) -> Action:
    builds = [a for a in legal if isinstance(a, Build)]
    pool = builds if builds and draw(10) < 9 else legal
    return pool[draw(len(pool))]
