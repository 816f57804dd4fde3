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
from domain.games.dominion.actions import Action, ChooseKingdom
from domain.games.dominion.data import DATA
from domain.games.dominion.events import Fact
from domain.games.dominion.state import Player, State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, resolve_options

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
COUNTERS = ("vp", "debt", "turns", "donates", "lasting")


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
    zones: dict[str, dict[str, Any]] | None = None,
    supply: dict[str, int | Sequence[str]] | None = None,
    turn: int = 1,
    first: str = "p1",
    landscapes: Sequence[str] = (),
    obelisk: str | None = None,
    **options: Any,
) -> Game:
    """A game whose setup ran (seeded), then the given zones and counters imposed.

    A named kingdom (and `landscapes`, Events and Landmarks) is set up as a manual kingdom
    would be, landscape tokens included. `zones` sets a player's zones (card lists) and
    counters (`vp`, `debt`, `turns`). `supply` sets a pile by count (of the pile's card) or as
    a list of cards, top first."""
    named = not isinstance(kingdom, str)
    empires = named and (
        any(k in DATA.empires_piles for k in kingdom) or bool(landscapes) or options.get("expansions")
    )
    if empires:
        options.setdefault("expansions", "base,empires")
    cfg = config(players, kingdom="manual" if named else kingdom, **options)
    game = Game(cfg)
    if named:
        choice = ChooseKingdom(tuple(kingdom), tuple(landscapes), obelisk)
        game.do(None, choice, by="recorder")
    state = game.state
    players_ = list(state.players)
    for seat, fields in (zones or {}).items():
        p = state.index(seat)
        values = {k: (tuple(v) if k not in COUNTERS else v) for k, v in fields.items()}
        players_[p] = replace(players_[p], **values)
    state = replace(state, players=tuple(players_))
    if supply:
        piles_ = dict(state.supply)
        for name, cards in supply.items():
            piles_[name] = (name,) * cards if isinstance(cards, int) else tuple(cards)
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
