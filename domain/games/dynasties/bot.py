"""The simple bot of Dynasties & Kingdoms for `chronicle simulate`. Expansion: take empty
provinces and fight only with a clear edge, then end the phase; draw round: keep pairs (the
automatic rebels' policy); otherwise a random legal choice."""

from __future__ import annotations

from collections.abc import Callable

from domain import templates
from domain.games.dynasties import legal as legal_moves
from domain.games.dynasties import notation
from domain.games.dynasties.actions import Action, DiscardAndDraw, EndPhase, MoveArmy
from domain.games.dynasties.battle import rebel_policy
from domain.games.dynasties.state import Source, State


def choose(state: State, seat: str | None, legal: tuple[Action, ...], draw: Callable[[int], int]) -> Action:
    moves = [a for a in legal if isinstance(a, MoveArmy)]
    if moves:
        scored = [m for m in moves if _score(state, m) > 0]
        if scored and draw(10) < 8:
            best = max(_score(state, m) for m in scored)
            pool = [m for m in scored if _score(state, m) == best]
            return _count(state, seat, pool[draw(len(pool))], draw)
        ends = [a for a in legal if isinstance(a, EndPhase)]
        if ends:
            return ends[0]
    draws = [a for a in legal if isinstance(a, DiscardAndDraw)]
    if draws and state.battle is not None:
        side = state.battle.attacker if draws[0].side == "attacker" else state.battle.defender
        wanted = set(rebel_policy(side, state))
        for a in draws:
            if set(a.discard) == wanted:
                return a
    return legal[draw(len(legal))]


def _score(state: State, move: MoveArmy) -> int:
    """A score for a move: occupy empty land, attack with an edge, never feed weak attacks."""
    target = state.prov(move.to)
    group = sum(s.count for s in move.from_)
    if target.owner == state.active:
        return -1
    defenders = target.armies + target.rebels
    if defenders == 0:
        return 3 if group <= 2 else 2
    return 2 if group >= defenders + 2 else -1


def _count(state: State, seat: str | None, move: MoveArmy, draw: Callable[[int], int]) -> MoveArmy:
    """The bot reads the move templates (domain/templates.py) like any client: a one-province
    move may send any count from the listed one up to the most its template allows."""
    if len(move.from_) != 1:
        return move
    text = notation.format_action(move)
    for shape in legal_moves.legal_templates(state, seat):
        spans = templates.ranges(shape)
        if len(spans) == 1 and templates.matches(shape, text):
            sent = move.from_[0]
            count = sent.count + draw(spans[0][1] - sent.count + 1)
            return MoveArmy(move.to, (Source(sent.province, count),))
    return move
