"""Seeded random playouts of Dynasties & Kingdoms with chosen options (digital or physical),
checking on the way that every listed legal action is accepted and that folding the facts
gives the live state."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.games.dynasties import RULESET
from domain.games.dynasties.cards import DECK
from domain.games.dynasties.events import Fact
from domain.games.dynasties.state import State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Actor, Command, GameConfig, Rejection, Seat, resolve_options


@dataclass
class Game:
    config: GameConfig
    state: State
    facts: list[Fact] = field(default_factory=list)
    actions: list[Command] = field(default_factory=list)


def seed_of(game_id: str) -> bytes:
    return hashlib.sha256(game_id.encode()).digest()


def new_config(
    players: int, mode: str = "digital", options: Mapping[str, Any] | None = None, game_id: str = "dk-play"
) -> GameConfig:
    resolved = resolve_options(RULESET.meta, dict(options or {}))
    assert not isinstance(resolved, Rejection), resolved
    return GameConfig(
        game_id=game_id,
        ruleset="dynasties",
        mode="physical" if mode == "physical" else "digital",
        seats=tuple(Seat(s, s.upper()) for s in RULESET.meta.seat_ids[:players]),
        options=resolved,
    )


def check_invariants(state: State) -> None:
    """I1-I4 and I6 of dynasties-kingdoms.md section 2."""
    board = state.map
    for pdef, p in zip(board.provinces, state.provs, strict=True):
        assert not (p.armies and p.rebels), f"I1 {pdef.id}"
        assert (p.armies > 0) == (p.owner is not None), f"I2 {pdef.id}"
        assert not (pdef.barbarian and p.city), f"I3 {pdef.id}"
        assert 0 <= p.moved <= p.armies, f"I4 {pdef.id}"
        if state.phase != "expansion":
            assert p.moved == 0, f"I4 {pdef.id}"
    if state.status in ("playing", "finished") and state.draw:
        battle = state.battle
        held = (battle.attacker.cards + battle.defender.cards) if battle is not None else ()
        assert sorted(state.draw + state.discard + held) == sorted(DECK), "I6"


def play(
    config: GameConfig, seed: int, *, bot: bool = False, check_every: int = 7, limit: int = 20_000
) -> Game:
    rng: Rng = SeededRng(seed_of(config.game_id), config.game_id) if config.mode == "digital" else NoRng()
    state = RULESET.initial(config)
    game = Game(config, state)
    chooser = random.Random(seed)
    for fact in RULESET.setup(config, state, rng):
        game.facts.append(fact)
        game.state = RULESET.evolve(game.state, fact)
    steps = 0
    while RULESET.outcome(game.state) is None:
        (prompt,) = RULESET.pending(game.state)
        seat = prompt.seat
        legal = RULESET.legal_actions(game.state, seat)
        assert legal, f"no legal action for {seat}"
        by: Actor = "seat" if seat is not None else "recorder"
        if steps % check_every == 0:
            for action in legal:
                assert not isinstance(RULESET.decide(game.state, Command(action, seat, by), rng), Rejection)
        if bot:
            action = RULESET.bot_choose(game.state, seat, legal, chooser.randrange)
        else:
            action = legal[chooser.randrange(len(legal))]
        command = Command(action, seat, by)
        result = RULESET.decide(game.state, command, rng)
        assert not isinstance(result, Rejection), f"{action} refused: {result}"
        game.actions.append(command)
        for fact in result:
            game.facts.append(fact)
            game.state = RULESET.evolve(game.state, fact)
        check_invariants(game.state)
        steps += 1
        assert steps < limit, "the game did not end"
    folded = RULESET.initial(config)
    for fact in game.facts:
        folded = RULESET.evolve(folded, fact)
    assert folded == game.state
    return game
