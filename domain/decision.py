"""What every ruleset's `decide` shares: collecting the facts of one action while each rule
reads the state the facts so far lead to, and rejections that cite the game's spec."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from domain.rng import Rng
from domain.ruleset import Rejection

S = TypeVar("S")
F = TypeVar("F")


class Decision(Generic[S, F]):
    """The facts of one action so far, and the state they lead to: a rule emits a fact and
    the next rule sees its effect, exactly as `evolve` will apply it on every replay."""

    __slots__ = ("_evolve", "facts", "rng", "state")

    def __init__(self, state: S, rng: Rng, evolve: Callable[[S, F], S]) -> None:
        self.state = state
        self.rng = rng
        self.facts: list[F] = []
        self._evolve = evolve

    def emit(self, fact: F) -> None:
        self.facts.append(fact)
        self.state = self._evolve(self.state, fact)


def rejecter(spec: str) -> Callable[[str, str, str], Rejection]:
    """`reject(code, message, section)` for one spec file: the rule reads "<spec> <section>"."""

    def reject(code: str, message: str, section: str) -> Rejection:
        return Rejection(code, message, f"{spec} {section}")

    return reject
