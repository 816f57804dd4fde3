"""What each legal answer means, in a sentence, for the table's `?` (dominations-provinces.md).

A physical draw is offered by the card's id or strength alone (`draw 3`); the sentence says
which pile it comes from and where it goes, so the recorder knows what the table should show.
"""

from __future__ import annotations

from typing import Any

from domain.games.dominations import actions as ac
from domain.games.dominations.state import State

_DECKS = {
    "rebellion": "a rebellion card",
    "conquest": "a conquest card",
    "land": "a land tile",
    "province-I": "an Age I province card",
    "province-II": "an Age II province card",
    "province-III": "an Age III province card",
}


def _destination(state: State, target: str) -> str:
    kind, _, seat = target.partition(":")
    if kind == "attack":
        attack = state.attack
        return (
            f"drawn for the attack on {attack.province_id}" if attack is not None else "drawn for the attack"
        )
    if kind == "avail":
        return "revealed into the available row"
    if kind == "land":
        return f"dealt to {seat}'s land hand"
    if kind == "hand":
        return f"bought into {seat}'s hand"
    if kind == "must":
        return f"bought into {seat}'s hand, to be used in the next attack"
    return target


def explain_action(state: State, action: Any) -> str:
    if isinstance(action, ac.RecordDraw) and state.awaiting:
        req = state.awaiting[0]
        deck = _DECKS.get(req.deck, f"a card of the {req.deck} pile")
        card = f"strength {action.card}" if action.card.lstrip("-").isdigit() else action.card
        left = len(state.awaiting)
        more = f" ({left} card(s) still to enter)" if left > 1 else ""
        return f"{deck}, {card}, {_destination(state, req.target)}{more}"
    if isinstance(action, ac.PlaceTile):
        what = "land tile" if action.source == "hand" else "province tile"
        return f"place {what} {action.tile} at {action.cell}, turned {action.rotation}"
    if isinstance(action, ac.AttemptConquest):
        spy = ", looking at the rebellion pile with the Spy first" if action.use_spy else ""
        return f"attack province {action.province} as this turn's Grow{spy}"
    if isinstance(action, ac.BuyConquestCard):
        return f"buy a conquest card with {action.domain} Knowledge"
    if isinstance(action, ac.ConquerWithKnowledge):
        return f"conquer {action.province} by paying its Knowledge price"
    if isinstance(action, ac.ResolveConquest):
        return "win the attack, discarding these conquest cards"
    if isinstance(action, ac.AbandonConquest):
        return "give up the attack (the drawn rebellion cards stay with the province)"
    if isinstance(action, ac.SpendInfluence):
        return f"add {action.amount} Influence to the attack"
    if isinstance(action, ac.UseSiegeEngines):
        return "use the Siege Engines: +2 to this attack"
    if isinstance(action, ac.BuildCity):
        return f"build a level {action.new_level} City at {action.cell}"
    if isinstance(action, ac.ContributeMonument):
        return f"contribute to monument {action.monument_id}"
    if isinstance(action, ac.AcquireMastery):
        return f"take mastery {action.card} into the tree at {action.pos[0]},{action.pos[1]}"
    if isinstance(action, ac.CorsairesExchange):
        return "exchange with the Corsaires mastery"
    if isinstance(action, ac.SpyPeek):
        return "look at the top of the rebellion pile with the Spy"
    if isinstance(action, ac.EndTurn):
        return "end the turn"
    return str(action.__struct_config__.tag).replace("_", " ")
