"""Games of `any` at the table, for scenario tests: a configuration from a definition, a state
after its setup, and actions entered in notation by the recorder or a seat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.games.any import RULESET
from domain.games.any.definition import definition_json, parse_definition
from domain.games.any.events import Fact
from domain.games.any.state import State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Actor, Command, GameConfig, Rejection, Seat

SEED = bytes(range(32))
NAMES = ("Ann", "Ben", "Cy")


def config(
    definition: Mapping[str, Any] | None = None,
    mode: str = "digital",
    players: int = 2,
    title: str = "Game night",
    game_id: str = "game-1",
) -> GameConfig:
    found = parse_definition(definition or {})
    assert not isinstance(found, Rejection), found
    options = {"title": title, "bgg_id": 0, "definition": definition_json(found), "played_on": ""}
    seats = tuple(Seat(chr(ord("A") + i), NAMES[i]) for i in range(players))
    return GameConfig(game_id, "any", "physical" if mode == "physical" else "digital", seats, options)


@dataclass
class Table:
    """A game being played: its state, its facts so far and its randomness."""

    config: GameConfig
    rng: Rng
    state: State
    facts: list[Fact] = field(default_factory=list)

    def apply(self, facts: Any) -> None:
        for fact in facts:
            self.facts.append(fact)
            self.state = RULESET.evolve(self.state, fact)

    def decide(self, text: str, seat: str | None = None, by: Actor = "recorder") -> list[Fact] | Rejection:
        """`text` parsed and decided, without applying it."""
        action = RULESET.parse_notation(text, self.state)
        if isinstance(action, Rejection):
            return action
        found = RULESET.decide(self.state, Command(action, seat, by), self.rng)
        return found if isinstance(found, Rejection) else list(found)

    def play(self, *lines: str, seat: str | None = None, by: Actor = "recorder") -> list[Fact]:
        """Each line entered and applied; a refusal fails the test."""
        out: list[Fact] = []
        for line in lines:
            facts = self.decide(line, seat, by)
            assert not isinstance(facts, Rejection), f"{line}: {facts}"
            self.apply(facts)
            out += facts
        return out

    def refused(self, line: str, seat: str | None = None, by: Actor = "recorder") -> Rejection:
        found = self.decide(line, seat, by)
        assert isinstance(found, Rejection), f"{line} was accepted: {found}"
        return found


def table(definition: Mapping[str, Any] | None = None, mode: str = "digital", players: int = 2) -> Table:
    made = config(definition, mode, players)
    rng: Rng = SeededRng(SEED, made.game_id) if mode == "digital" else NoRng()
    state = RULESET.initial(made)
    played = Table(made, rng, state)
    played.apply(RULESET.setup(made, state, rng))
    return played


MARKET = {"decks": [{"name": "market", "cards": {"Gold": 2, "Silver": 3}}]}
