"""Who wins Dominations (dominations-provinces.md 6.2, 7.44): the most VP; a tie for the most
is shared (`final_tie_rule = shared`) or goes to the most Influence among the tied
(`most_influence`, still shared if that ties too). The end of the game and a resignation
(the players who stay, as the game stands) name the winners the same way."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.dominations.state import Player


def winners(players: Sequence[Player], tie_rule: str) -> tuple[str, ...]:
    best = max(p.vp for p in players)
    leaders = [p for p in players if p.vp == best]
    if tie_rule == "most_influence" and len(leaders) > 1:
        most = max(p.influence for p in leaders)
        leaders = [p for p in leaders if p.influence == most]
    return tuple(p.seat for p in leaders)
