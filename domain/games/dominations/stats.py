"""Statistics of Dominations + Provinces (dominations-provinces.md Appendix B), pure functions
over the facts of one game and over many finished games.

- `per_game`: per player attacks, successes, failures, knowledge conquests, conquest cards
  bought (before / after a reveal) with the Knowledge paid, strength discarded on successes,
  Influence spent in attacks and lost by failures, provinces conquered per Age, VP gained and
  lost through provinces, Spy uses; per province attempts, failures, the most rebellion cards
  faced, the last rebellion value, conqueror and Age/round/method, end-of-Age activations; per
  deck draws and reshuffles; Loci completed.
- `tables`: over many games, how often each province was revealed, attacked and conquered.
  A province's games are the games it was revealed in (digital `ProvincesRevealed`, or the
  recorder's entry of the card turned up), whether or not anyone attacked it: its conquest
  rate is conquests per game it was there to be taken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.dominations import events as ev
from domain.games.dominations.creation import tables_for
from domain.games.dominations.engine import AGE_DECKS
from domain.ruleset import GameConfig, Outcome
from domain.stat_tables import column


def _player() -> dict[str, Any]:
    return {
        "attacks": 0,
        "successes": 0,
        "failures": 0,
        "knowledge_conquests": 0,
        "cards_bought_before_reveal": 0,
        "cards_bought_after_reveal": 0,
        "knowledge_spent_on_cards": 0,
        "strength_discarded_on_successes": 0,
        "influence_spent_in_attacks": 0,
        "influence_lost_by_failures": 0,
        "provinces_per_age": {"1": 0, "2": 0, "3": 0},
        "vp_gained_from_provinces": 0,
        "vp_lost_to_provinces": 0,
        "spy_uses": 0,
        "loci_completed": 0,
    }


def _province() -> dict[str, Any]:
    return {
        "attempts": 0,
        "failures": 0,
        "most_rebellion_cards": 0,
        "last_rebellion_value": None,
        "conqueror": None,
        "conquest": None,
        "end_of_age_activations": 0,
    }


def per_game(config: GameConfig, facts: Sequence[Any], outcome: Outcome | None) -> dict[str, Any]:
    strength = tables_for(config.options).strength
    players = {seat: _player() for seat in config.seat_ids()}
    provinces: dict[str, dict[str, Any]] = {}
    draws = {"conquest": 0, "rebellion": 0}
    reshuffles: dict[str, list[int]] = {"conquest": [], "rebellion": []}
    age, round_ = 1, 1
    for fact in facts:
        if isinstance(fact, ev.AgeBegan):
            age, round_ = fact.age, 1
        elif isinstance(fact, ev.TurnEnded) and not fact.end_of_age:
            round_ = fact.round
        elif isinstance(fact, ev.ProvincesRevealed):
            for pid in fact.provinces:
                provinces.setdefault(pid, _province())
        elif isinstance(fact, ev.CardRecorded) and fact.deck in AGE_DECKS:
            provinces.setdefault(fact.card, _province())
        elif isinstance(fact, ev.ConquestAttempted):
            p, prov = players[fact.seat], provinces.setdefault(fact.province_id, _province())
            p["attacks"] += 1
            p["spy_uses"] += int(fact.use_spy)
            prov["attempts"] += 1
            prov["most_rebellion_cards"] = max(
                prov["most_rebellion_cards"], len(fact.kept_taken + fact.drawn)
            )
            prov["last_rebellion_value"] = fact.rebellion_value
            draws["rebellion"] += len(fact.drawn)
            reshuffles["rebellion"] += [r.n for r in fact.reshuffles]
        elif isinstance(fact, ev.ConquestCardBought):
            p = players[fact.seat]
            p["cards_bought_after_reveal" if fact.must_use else "cards_bought_before_reveal"] += 1
            p["knowledge_spent_on_cards"] += 2
            draws["conquest"] += 1
            reshuffles["conquest"] += [r.n for r in fact.reshuffles]
        elif isinstance(fact, ev.InfluenceSpent):
            players[fact.seat]["influence_spent_in_attacks"] += fact.amount
        elif isinstance(fact, ev.ConquestAbandoned):
            players[fact.seat]["failures"] += 1
            players[fact.seat]["influence_lost_by_failures"] += fact.influence_lost
            provinces.setdefault(fact.province_id, _province())["failures"] += 1
        elif isinstance(fact, ev.ProvinceConquered):
            p, prov = players[fact.seat], provinces.setdefault(fact.province_id, _province())
            p["successes" if fact.method == "attack" else "knowledge_conquests"] += 1
            p["strength_discarded_on_successes"] += sum(strength.get(c, 0) for c in fact.discard)
            p["provinces_per_age"][str(age)] += 1
            p["vp_gained_from_provinces"] += fact.vp
            prov["conqueror"] = fact.seat
            prov["conquest"] = {"age": age, "round": round_, "method": fact.method}
        elif isinstance(fact, ev.ProvinceAgeEffects):
            for effect in fact.effects:
                provinces.setdefault(effect.province_id, _province())["end_of_age_activations"] += 1
                for loss in effect.losses:
                    players[loss.seat]["vp_lost_to_provinces"] += loss.vp
        elif isinstance(fact, ev.TilePlaced):
            players[fact.seat]["loci_completed"] += len(fact.loci_completed)
    decks = {name: {"draws": draws[name], "reshuffles": reshuffles[name]} for name in draws}
    return {"players": players, "provinces": provinces, "decks": decks}


def tables(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`dominations_provinces`: per province, the games it was revealed in, attempts,
    failures, conquests."""
    counts: dict[str, list[int]] = {}
    for game in games:
        for pid, prov in game.get("extra", {}).get("provinces", {}).items():
            row = counts.setdefault(pid, [0, 0, 0, 0])
            row[0] += 1
            row[1] += prov.get("attempts", 0)
            row[2] += prov.get("failures", 0)
            row[3] += int(prov.get("conqueror") is not None)
    rows = [
        {"province": pid, "games": g, "attempts": a, "failures": f, "conquests": c, "conquest_rate": c / g}
        for pid, (g, a, f, c) in sorted(counts.items())
    ]
    return [
        {
            "id": "dominations_provinces",
            "title": "Dominations provinces: attempts, failures and conquests",
            "key": "province",
            "description": "One row per province revealed, over the finished games.",
            "columns": [
                column("province", "Province", "text", "the province card's id"),
                column("games", "Games", "count", "finished games the province was revealed in"),
                column("attempts", "Attempts", "count", "attacks on it, over those games"),
                column("failures", "Failures", "count", "of those, attacks abandoned"),
                column("conquests", "Conquests", "count", "games in which someone conquered it"),
                column("conquest_rate", "Conquest rate", "ratio", "conquests / games"),
            ],
            "rows": rows,
        }
    ]
