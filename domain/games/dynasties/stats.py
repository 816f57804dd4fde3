"""Statistics hooks of Dynasties & Kingdoms (rules version dk-1, dynasties-kingdoms.md 5.6):
per-seat figures turn by turn, every die of a random fact for the fairness tests, and per game
the battles fought and won, the VT by source and every battle's hand sizes; over many games the
table `dynasties_battles_by_hand_size`.

Observed (physical) rolls are reported under the stream a digital game would have used
(`turn-order` for the roll-off, `dice` for City, Province and city destruction rolls), so both
modes feed the same per-stream tables. Province rolls report both dice in order (first,
second)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.dynasties.events import (
    BattleResolved,
    BattleStarted,
    CityDestructionRolled,
    CityRolled,
    Fact,
    ProvinceRolled,
    TurnOrderRolled,
    VtGained,
)
from domain.games.dynasties.state import State, hand_size
from domain.ruleset import GameConfig, Outcome
from domain.stat_tables import INTERVAL_COLUMNS, column
from domain.stat_tables import wilson_interval as wilson_interval  # importable from here, as before

Die = tuple[str, int, tuple[int, ...]]


def metrics(state: State) -> dict[str, dict[str, float]]:
    seats = state.seats
    provinces = {s: 0.0 for s in seats}
    armies = {s: 0.0 for s in seats}
    cities = {s: 0.0 for s in seats}
    for p in state.provs:
        if p.owner is not None:
            provinces[p.owner] += 1
            armies[p.owner] += p.armies
            cities[p.owner] += 1 if p.city else 0
    return {
        "vp": {p.id: float(p.vt) for p in state.players},
        "provinces": provinces,
        "armies": armies,
        "cities": cities,
    }


def dice(fact: Fact) -> tuple[Die, ...]:
    if isinstance(fact, TurnOrderRolled):
        return ((fact.stream or "turn-order", 6, (fact.value,)),)
    if isinstance(fact, ProvinceRolled):
        return ((fact.stream or "dice", 6, (fact.first, fact.second)),)
    if isinstance(fact, CityRolled | CityDestructionRolled):
        return ((fact.stream or "dice", 6, (fact.value,)),)
    return ()


def per_game(config: GameConfig, facts: Sequence[Fact], outcome: Outcome | None) -> dict[str, Any]:
    """Per seat the battles fought and won and the VT by source; `battles`, one record per
    decided battle in the order fought: `context` (expansion / uprising), the sides' kinds
    (player / rebels), `attacker_hand` and `defender_hand` (hand sizes, 4.2: one card plus one
    per army or rebel, at most 7), `winner` (attacker / defender), `redeals` (tied showdowns
    dealt again under `tie_rule = redeal`) and `tie` (the deciding showdown was tied and the
    tie rule settled it). A battle still open when the facts end is left out."""
    seats = config.seat_ids()
    fought = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0)
    vt: dict[str, dict[str, int]] = {s: {} for s in seats}
    battles: list[dict[str, Any]] = []
    sides: tuple[str | None, str | None] = (None, None)
    current: dict[str, Any] | None = None
    for fact in facts:
        if isinstance(fact, BattleStarted):
            a = fact.attacker_player if fact.attacker_kind == "player" else None
            d = fact.defender_player if fact.defender_kind == "player" else None
            sides = (a, d)
            for seat in sides:
                if seat is not None:
                    fought[seat] = fought.get(seat, 0) + 1
            current = {
                "context": fact.context,
                "attacker_kind": fact.attacker_kind,
                "defender_kind": fact.defender_kind,
                "attacker_hand": hand_size(fact.attacker_strength),
                "defender_hand": hand_size(fact.defender_strength),
                "winner": None,
                "redeals": 0,
                "tie": False,
            }
        elif isinstance(fact, BattleResolved):
            if fact.winner == "tie":
                if current is not None:
                    current["redeals"] += 1
                continue
            seat = sides[0] if fact.winner == "attacker" else sides[1]
            if seat is not None:
                won[seat] = won.get(seat, 0) + 1
            if current is not None:
                current["winner"] = fact.winner
                current["tie"] = fact.tie
                battles.append(current)
                current = None
        elif isinstance(fact, VtGained):
            by_source = vt.setdefault(fact.player, {})
            by_source[fact.source] = by_source.get(fact.source, 0) + fact.amount
    return {"battles_fought": fought, "battles_won": won, "vt_by_source": vt, "battles": battles}


def tables(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`dynasties_battles_by_hand_size`: one row per (attacker hand size, defender hand size)
    pair, key `<attacker>v<defender>` (`3v2`), rows ordered by attacker then defender size.

    Pairs, not the difference of sizes: the hand-size effect is not linear (the best five cards
    of 7 against 6 is a far closer fight than 2 against 1; the 7-card cap folds every larger
    army together; `card_limit = total_7` leaves 7 - size replacements), and a reader can sum
    pair rows into differences (the `difference` column) but not the reverse.

    Every decided battle counts once, whatever its context (expansion or uprising, where the
    rebels attack) and however many redeals it took. Columns: `battles`, `attacker_wins`,
    `attacker_win_rate`, its 95% Wilson interval `ci_low` / `ci_high`, and `tied` (battles whose
    deciding showdown was tied and settled by the tie rule). `games` are finished games
    `{"extra": per_game(...)}`; a game recorded without `battles` adds nothing."""
    counts: dict[tuple[int, int], list[int]] = {}
    for game in games:
        battles: Sequence[Mapping[str, Any]] = game.get("extra", {}).get("battles", ())
        for battle in battles:
            if battle.get("winner") not in ("attacker", "defender"):
                continue
            row = counts.setdefault((int(battle["attacker_hand"]), int(battle["defender_hand"])), [0, 0, 0])
            row[0] += 1
            row[1] += int(battle["winner"] == "attacker")
            row[2] += int(bool(battle.get("tie", False)))
    rows = []
    for (a, d), (n, wins, tied) in sorted(counts.items()):
        low, high = wilson_interval(wins, n)
        rows.append(
            {
                "hands": f"{a}v{d}",
                "attacker_hand": a,
                "defender_hand": d,
                "difference": a - d,
                "battles": n,
                "attacker_wins": wins,
                "attacker_win_rate": wins / n,
                "ci_low": low,
                "ci_high": high,
                "tied": tied,
            }
        )
    return [
        {
            "id": "dynasties_battles_by_hand_size",
            "title": "Dynasties battles by hand size (attacker v defender, 95% Wilson interval)",
            "key": "hands",
            "description": "One row per pair of hand sizes (attacker, defender), over the decided "
            "battles of the finished games, whatever their context and redeals.",
            "columns": [
                column("hands", "Hands (attacker v defender)", "text", "the two hand sizes"),
                column("attacker_hand", "Attacker hand", "count", "cards in the attacker's hand (4.2)"),
                column("defender_hand", "Defender hand", "count", "cards in the defender's hand (4.2)"),
                column("difference", "Difference", "number", "attacker hand - defender hand"),
                column("battles", "Battles", "count", "decided battles with these hands"),
                column("attacker_wins", "Attacker wins", "count", "of those, battles the attacker won"),
                column("attacker_win_rate", "Attacker win rate", "ratio", "attacker wins / battles"),
                *INTERVAL_COLUMNS,
                column(
                    "tied",
                    "Settled by tie rule",
                    "count",
                    "battles whose deciding showdown was tied and settled by the tie rule",
                ),
            ],
            "rows": rows,
        }
    ]
