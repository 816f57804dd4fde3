"""A scenario harness for Dominion (dominion.md section 9 conventions).

`table(...)` starts a real game (setup run with a seeded RNG, a preset or named kingdom) and
then sets the zones and counters a worked example gives; everything else stays as setup left
it. `Game` then feeds actions (objects or notation) through `decide`, folds the facts, and
keeps them for the assertions. `refused` checks that an action is rejected and leaves the
state unchanged. Decks are top first, discard piles bottom first, as in the spec.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.actions import Action
from domain.games.dominion.events import Fact
from domain.games.dominion.state import Player, State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, resolve_options

NAMES = ("Ann", "Bob", "Cid", "Dee")


def config(players: int = 2, mode: str = "digital", game_id: str = "g-test", **options: Any) -> GameConfig:
    resolved = resolve_options(RULESET.meta, options)
    assert not isinstance(resolved, Rejection), resolved
    return GameConfig(
        game_id=game_id,
        ruleset="dominion",
        mode="physical" if mode == "physical" else "digital",
        seats=tuple(Seat(f"p{i + 1}", NAMES[i]) for i in range(players)),
        options=resolved,
    )


def rng_for(cfg: GameConfig) -> Rng:
    if cfg.mode == "physical":
        return NoRng()
    return SeededRng(hashlib.sha256(cfg.game_id.encode()).digest(), cfg.game_id)


class Game:
    def __init__(self, cfg: GameConfig, state: State | None = None, rng: Rng | None = None) -> None:
        self.config = cfg
        self.rng = rng or rng_for(cfg)
        self.facts: list[Fact] = []
        if state is None:
            state = RULESET.initial(cfg)
            for fact in RULESET.setup(cfg, state, self.rng):
                self.facts.append(fact)
                state = RULESET.evolve(state, fact)
        self.state = state

    # -- recording -------------------------------------------------------------------------

    def _command(self, action: Action | str, seat: str | None, by: str) -> Command:
        if isinstance(action, str):
            parsed = RULESET.parse_notation(action, self.state)
            assert not isinstance(parsed, Rejection), parsed
            action = parsed
        return Command(action, seat, by)  # type: ignore[arg-type]

    def do(self, seat: str | None, action: Action | str, by: str = "seat") -> list[Fact]:
        command = self._command(action, seat, by if seat is not None else "recorder")
        out = RULESET.decide(self.state, command, self.rng)
        assert not isinstance(out, Rejection), f"{action} refused: {out}"
        for fact in out:
            self.state = RULESET.evolve(self.state, fact)
        self.facts.extend(out)
        return list(out)

    def refused(self, seat: str | None, action: Action | str, by: str = "seat") -> Rejection:
        before = self.state
        command = self._command(action, seat, by if seat is not None else "recorder")
        out = RULESET.decide(self.state, command, self.rng)
        assert isinstance(out, Rejection), f"{action} was accepted: {out}"
        assert self.state == before
        return out

    def lines(self, facts: Sequence[Fact] | None = None) -> list[str]:
        return [RULESET.describe(f, self.config) for f in (self.facts if facts is None else facts)]

    # -- reading ---------------------------------------------------------------------------

    def player(self, seat: str) -> Player:
        return self.state.players[self.state.index(seat)]

    def pile(self, name: str) -> int:
        return len(self.state.supply[name])

    def prompts(self) -> list[tuple[str | None, str]]:
        return [(p.seat, p.kind) for p in RULESET.pending(self.state)]

    def legal(self, seat: str | None) -> list[str]:
        return [RULESET.format_action(a) for a in RULESET.legal_actions(self.state, seat)]


def table(
    players: int = 2,
    kingdom: Sequence[str] | str = "first_game",
    current: str = "p1",
    phase: str = "action",
    actions: int = 1,
    buys: int = 1,
    coins: int = 0,
    zones: dict[str, dict[str, Sequence[str]]] | None = None,
    supply: dict[str, int] | None = None,
    turn: int = 1,
    first: str = "p1",
    **options: Any,
) -> Game:
    """A game whose setup ran (seeded), then the given zones and counters imposed."""
    named = not isinstance(kingdom, str)
    cfg = config(players, kingdom="first_game" if named else kingdom, **options)
    game = Game(cfg)
    state = game.state
    if named:
        piles = tuple(sorted(kingdom))
        full = {
            name: (name,) * len(state.supply.get(name, ()))
            for name in state.supply
            if name in ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
        }
        full.update(
            {
                name: (name,) * (8 if name == "Gardens" and players == 2 else 12 if name == "Gardens" else 10)
                for name in piles
            }
        )
        state = replace(state, kingdom=piles, supply=full)
    players_ = list(state.players)
    for seat, fields in (zones or {}).items():
        p = state.index(seat)
        values = {k: tuple(v) for k, v in fields.items() if k != "vp"}
        players_[p] = replace(players_[p], **values)
    state = replace(state, players=tuple(players_))
    if supply:
        piles_ = dict(state.supply)
        for name, count in supply.items():
            piles_[name] = (name,) * count
        state = replace(state, supply=piles_)
    state = replace(
        state,
        current=state.index(current),
        phase=phase,
        actions=actions,
        buys=buys,
        coins=coins,
        window=phase == "buy",
        turn=turn,
        first=state.index(first),
    )
    game.state = state
    game.facts = []
    return game
