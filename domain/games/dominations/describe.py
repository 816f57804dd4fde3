"""One log line per fact of Dominations + Provinces (dominations-provinces.md sections 4-6),
using seat names; redacted facts render without their hidden parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.dominations import events as ev
from domain.ruleset import GameConfig


def _k(m: Mapping[str, int]) -> str:
    return ", ".join(f"{v} {d}" for d, v in m.items()) or "nothing"


def _count(n: int, one: str, many: str | None = None) -> str:
    """ "1 drawn card", "2 drawn cards", "no entries": a count with its noun in number."""
    word = one if n == 1 else many or one + "s"
    return f"{n} {word}" if n else f"no {many or one + 's'}"


def describe(fact: Any, config: GameConfig) -> str:
    n = config.seat_name
    if isinstance(fact, ev.GameSetUp):
        return f"Game set up with catalog {fact.catalog_version}."
    if isinstance(fact, ev.DeckShuffled):
        return f"The {fact.deck} deck ({fact.count} cards) was shuffled (n={fact.n})."
    if isinstance(fact, ev.DrawsRequested):
        return f"The table must enter {_count(len(fact.requests), 'drawn card')}."
    if isinstance(fact, ev.CardRecorded):
        card = fact.card or "a card"
        return f"Recorded {card} drawn from the {fact.deck} pile ({fact.target})."
    if isinstance(fact, ev.ProvincesRevealed):
        return f"Provinces revealed for Age {fact.age}: {', '.join(fact.provinces) or 'none'}."
    if isinstance(fact, ev.LandDealt):
        shown = f": {', '.join(fact.tiles)}" if fact.tiles else ""
        return f"{n(fact.seat)} drew {_count(fact.count, 'land tile')}{shown}."
    if isinstance(fact, ev.LandHandsBoxed):
        return "Every land hand was returned to the box."
    if isinstance(fact, ev.AgeBegan):
        return f"Age {fact.age} begins; {n(fact.first_player)} plays first."
    if isinstance(fact, ev.TilePlaced):
        done = len(fact.loci_completed)
        loci = f", completing {_count(done, 'Locus', 'Loci')}" if done else ""
        where = f"{fact.cell} (rotation {fact.rotation})"
        return f"{n(fact.seat)} placed {fact.tile} on {where}, producing {_k(fact.produced)}{loci}."
    if isinstance(fact, ev.ConquestCardBought):
        strength = f" ({fact.card})" if fact.card else ""
        return f"{n(fact.seat)} bought 1 conquest card paying 2 {fact.domain}{strength}."
    if isinstance(fact, ev.ConquestAttempted):
        kept = f" took the kept {', '.join(fact.kept_taken)} and" if fact.kept_taken else ""
        drawn = f"drew {', '.join(fact.drawn)}" if fact.drawn else "drew nothing yet"
        spy = " (with the Spy)" if fact.use_spy else ""
        return f"{n(fact.seat)} attacked {fact.province_id}{spy}:{kept} {drawn}; R = {fact.rebellion_value}."
    if isinstance(fact, ev.SiegeEnginesUsed):
        return f"{n(fact.seat)} used Engins de Siege (paid 1 {fact.paid}): +2 conquest value."
    if isinstance(fact, ev.InfluenceSpent):
        return f"{n(fact.seat)} spent {fact.amount} Influence on the attack."
    if isinstance(fact, ev.ProvinceConquered):
        how = "by attack" if fact.method == "attack" else f"with Knowledge ({_k(fact.payment)})"
        return (
            f"{n(fact.seat)} conquered {fact.province_id} {how}: +{fact.vp} VP, {_k(fact.knowledge)},"
            f" +{fact.influence} Influence."
        )
    if isinstance(fact, ev.ConquestAbandoned):
        return (
            f"{n(fact.seat)} failed against {fact.province_id}, discarding"
            f" {', '.join(fact.discarded) or 'no cards'} and losing {fact.influence_lost} Influence."
        )
    if isinstance(fact, ev.CorsairesExchanged):
        return f"{n(fact.seat)} used Corsaires: 1 {fact.from_} for 1 {fact.to}."
    if isinstance(fact, ev.SpyPeeked):
        seen = f": {', '.join(fact.cards)}" if fact.cards else ""
        return f"{n(fact.seat)} used the Spy to look at the rebellion deck{seen}."
    if isinstance(fact, ev.MonumentContributed):
        return (
            f"{n(fact.seat)} contributed {fact.level_card_id} to monument {fact.monument_id}"
            f" for {_k(fact.cost)} (+{fact.vp} VP)."
        )
    if isinstance(fact, ev.CityBuilt):
        return f"{n(fact.seat)} built a level-{fact.level} City on {fact.cell} for {_k(fact.cost)}."
    if isinstance(fact, ev.MasteryAcquired):
        return f"{n(fact.seat)} acquired mastery {fact.card} at {fact.pos} for {_k(fact.cost)}."
    if isinstance(fact, ev.BaseEffectApplied):
        deltas = f"{fact.vp:+} VP, {fact.influence:+} Influence, {_k(fact.knowledge)}"
        return f"{n(fact.seat)}: {fact.source} ({fact.source_kind}): {deltas}."
    if isinstance(fact, ev.TurnEnded):
        tail = "; the Age ends" if fact.end_of_age else f"; {n(fact.next_seat or '')} is next"
        return f"{n(fact.seat)} ended the turn{tail}."
    if isinstance(fact, ev.ProvinceAgeEffects):
        return f"End of Age {fact.age}: {_count(len(fact.effects), 'province effect')} applied."
    if isinstance(fact, ev.BaseScoringDeclared):
        entries = _count(len(fact.entries), "base-game scoring entry", "base-game scoring entries")
        return f"End of Age {fact.age}: {entries} declared."
    if isinstance(fact, ev.DominanceAwarded):
        held = ", ".join(f"{c}: {n(s)}" for c, s in fact.holders.items() if s) or "none"
        return f"Dominance cards for the next Age: {held}."
    if isinstance(fact, ev.HegemonScored):
        if fact.scorer is None:
            return f"Hegemon token (Age {fact.age}): nobody scores."
        return f"Hegemon token (Age {fact.age}): {n(fact.scorer)} scores {fact.vp} VP."
    if isinstance(fact, ev.KnowledgeReset):
        return "Every player's Knowledge returns to 0."
    if isinstance(fact, ev.KeptCardsReset):
        kept = _count(len(fact.cards), "kept rebellion card")
        return f"{kept[0].upper()}{kept[1:]} {'goes' if len(fact.cards) == 1 else 'go'} to the discard pile."
    if isinstance(fact, ev.FinalScoringDeclared):
        return f"Final scoring: {_count(len(fact.entries), 'entry', 'entries')} declared."
    if isinstance(fact, ev.GameEnded):
        won = "winner" if len(fact.winners) == 1 else "winners"
        return f"The game ends; {won}: {', '.join(n(s) for s in fact.winners) or 'none'}."
    return type(fact).__name__
