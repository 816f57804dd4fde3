"""Fixtures for the worked examples of dynasties-kingdoms.md section 9.

`start(...)` builds a playing state from an example's **Start** (province notation such as
"blue 4, city" or "3 rebels"); players the example does not place get one army in a far
province, as the examples' conventions allow, so nobody is eliminated by accident.
`Table.act(action, expect)` feeds a spec-shaped action dict through `decide` ("ok" or an error
code), folds the facts and keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.games.dynasties import RULESET
from domain.games.dynasties.actions import Action
from domain.games.dynasties.cards import DECK, canonical
from domain.games.dynasties.events import Fact
from domain.games.dynasties.maps import DEFAULT_MAP
from domain.games.dynasties.state import Battle, Player, Prov, State
from domain.rng import NoRng, Rng
from domain.ruleset import Command, GameConfig, Rejection, Seat, resolve_options

FAR = ("guangzhou", "fuzhou", "youzhou", "changsha", "fengxiang", "qingzhou", "hangzhou", "taiyuan")


def config(
    players: Sequence[str] = ("red", "blue"), mode: str = "physical", options: Mapping[str, Any] | None = None
) -> GameConfig:
    resolved = resolve_options(RULESET.meta, dict(options or {}))
    assert not isinstance(resolved, Rejection), resolved
    return GameConfig(
        game_id="g-dk",
        ruleset="dynasties",
        mode="physical" if mode == "physical" else "digital",
        seats=tuple(Seat(p, p.title()) for p in players),
        options=resolved,
    )


def parse_prov(text: str) -> Prov:
    parts = [p.strip() for p in text.split(",")]
    prov = Prov()
    for part in parts:
        words = part.split()
        if part == "city":
            prov = replace(prov, city=True)
        elif part.startswith("moved"):
            prov = replace(prov, moved=int(words[1]))
        elif len(words) == 2 and words[1] == "rebels":
            prov = replace(prov, rebels=int(words[0]))
        elif len(words) == 2:
            prov = replace(prov, owner=words[0], armies=int(words[1]))
    return prov


def start(
    *,
    players: Sequence[str] = ("red", "blue"),
    active: str,
    phase: str,
    provinces: Mapping[str, str],
    vt: Mapping[str, int] | None = None,
    to_roll: Sequence[str] = (),
    round_no: int = 1,
    mode: str = "physical",
    options: Mapping[str, Any] | None = None,
    draw: Sequence[str] | None = None,
    discard: Sequence[str] | None = None,
) -> State:
    cfg = config(players, mode, options)
    base = RULESET.initial(cfg)
    provs = list(base.provs)
    for i, pdef in enumerate(DEFAULT_MAP.provinces):
        provs[i] = Prov(rebels=3) if pdef.barbarian and pdef.id not in provinces else Prov()
    for pid, text in provinces.items():
        provs[DEFAULT_MAP.index[pid]] = parse_prov(text)
    listed = set(provinces)
    near = {a for pid in listed for a in DEFAULT_MAP.provinces[DEFAULT_MAP.index[pid]].adjacent}
    spare = [p for p in FAR if p not in listed and p not in near]
    for pl in players:
        if pl != active and not any(p.owner == pl for p in provs):
            provs[DEFAULT_MAP.index[spare.pop(0)]] = Prov(armies=1, owner=pl)
    vt = vt or {}
    draw_pile = tuple(draw) if draw is not None else DECK
    discard_pile = tuple(discard) if discard is not None else ()
    if mode == "physical":
        draw_pile = canonical(draw_pile)
    return replace(
        base,
        status="playing",
        provs=tuple(provs),
        players=tuple(Player(p, vt.get(p, 0)) for p in players),
        turn_order=tuple(players),
        groups=tuple((p,) for p in players),
        round=round_no,
        active=active,
        phase=phase,
        to_roll=tuple(to_roll),
        draw=draw_pile,
        discard=discard_pile,
    )


def action(spec: Mapping[str, Any]) -> tuple[Action, str | None]:
    fields = dict(spec)
    kind = fields.pop("type")
    player = fields.pop("player", None)
    fields.pop("seed", None)
    if kind == "roll_turn_order":
        fields["player"], player = player, None
    for key in ("reshuffle", "shuffle"):
        if key in fields:
            fields[key] = True
    return msgspec.convert({"kind": kind, **fields}, Action), player


class Table:
    """A game in progress, fed with spec-shaped actions by the recorder."""

    def __init__(self, state: State, rng: Rng | None = None, config_: GameConfig | None = None) -> None:
        self.state = state
        self.rng: Rng = rng or NoRng()
        self.facts: list[Fact] = []
        self.config = config_

    def act(self, spec: Mapping[str, Any], expect: str = "ok", by: str = "recorder") -> list[Fact]:
        act, player = action(spec)
        result = RULESET.decide(self.state, Command(act, player, by), self.rng)  # type: ignore[arg-type]
        if expect == "ok":
            assert not isinstance(result, Rejection), f"{spec} refused: {result}"
            for fact in result:
                self.state = RULESET.evolve(self.state, fact)
            self.facts.extend(result)
            return list(result)
        assert isinstance(result, Rejection), f"{spec} accepted, expected {expect}"
        assert result.code == expect, f"{spec}: {result.code} ({result.message}), expected {expect}"
        assert result.rule.startswith("dynasties ")
        return []

    def now(self) -> State:
        return self.state

    def battle(self) -> Battle:
        assert self.state.battle is not None
        return self.state.battle

    def prov(self, pid: str) -> Prov:
        return self.state.prov(pid)

    def vt(self, pid: str) -> int:
        return self.state.player(pid).vt

    def holds(self, pid: str, text: str) -> None:
        """`text` in the examples' notation, with an optional "moved N"."""
        want = parse_prov(text)
        got = self.prov(pid)
        got_cmp = replace(got, blocked_by=None, sent_out=0, start_armies=0)
        if "moved" not in text:
            got_cmp = replace(got_cmp, moved=0)
        assert got_cmp == want, f"{pid}: {got} != {text}"
