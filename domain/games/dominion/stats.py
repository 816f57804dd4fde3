"""Statistics of Dominion, pure functions over the facts of one game and over many finished
games, in the manner of Council Room's card tables.

- `per_game`: the kingdom (the ten piles of `KingdomChosen`) and, per seat, every gain of a
  kingdom card (`Gained`, from the Supply or the trash) with the gainer's own turn number at
  the time: the count of that player's `TurnStarted` so far (a gain on another player's turn
  falls in the gainer's latest turn; one before the gainer's first turn counts as turn 1).
  A gain is keyed by its Supply pile (`Gained.pile`, else the card's name), so a split pile is
  one kingdom card.
- `tables`: `dominion_cards`, per kingdom card over the games where it was in the kingdom: the
  games and seats it was available to, the seats that gained it, the win rate of those seats
  against the seats that did not (a seat won when it was the only winner: a tie for first is
  a draw, domain/standings.py), the mean number gained by those who gained it, the mean own turn of the
  first gain, and the share of all its gains made in own turns 1-2, 3-4, 5-8 and 9+.

`metrics` and `dice` (the figures followed turn by turn, the first-player die) are the
ruleset's own (`DominionRuleset.metrics` / `.dice`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.dominion.events import Gained, KingdomChosen, TurnStarted
from domain.ruleset import GameConfig, Outcome
from domain.standings import sole_winner
from domain.stat_tables import column, ratio

# (column id, label, first own turn, last own turn or None)
BUCKETS: tuple[tuple[str, str, int, int | None], ...] = (
    ("share_turns_1_2", "Gains in turns 1-2", 1, 2),
    ("share_turns_3_4", "Gains in turns 3-4", 3, 4),
    ("share_turns_5_8", "Gains in turns 5-8", 5, 8),
    ("share_turns_9_plus", "Gains in turns 9+", 9, None),
)


def per_game(config: GameConfig, facts: Sequence[Any], outcome: Outcome | None) -> dict[str, Any]:
    """`{"kingdom": [pile, ...], "gains": {seat: {pile: [own turn of each gain, ...]}}}`."""
    kingdom: tuple[str, ...] = ()
    turns: dict[str, int] = dict.fromkeys(config.seat_ids(), 0)
    gains: dict[str, dict[str, list[int]]] = {seat: {} for seat in config.seat_ids()}
    for fact in facts:
        if isinstance(fact, TurnStarted):
            turns[fact.player] = turns.get(fact.player, 0) + 1
        elif isinstance(fact, KingdomChosen):
            kingdom = fact.piles
        elif isinstance(fact, Gained):
            pile = fact.pile or fact.card
            if pile in kingdom:
                turn = max(1, turns.get(fact.player, 0))
                gains.setdefault(fact.player, {}).setdefault(pile, []).append(turn)
    return {"kingdom": sorted(kingdom), "gains": gains}


def _bucket(turn: int) -> int:
    for i, (_, _, low, high) in enumerate(BUCKETS):
        if turn >= low and (high is None or turn <= high):
            return i
    return 0  # a turn below 1 cannot be recorded (per_game counts it as turn 1)


class _Card:
    __slots__ = ("buckets", "first", "gained_by", "gains", "games", "seats", "wins_gained", "wins_not")

    def __init__(self) -> None:
        self.games = 0
        self.seats = 0
        self.gained_by = 0
        self.wins_gained = 0
        self.wins_not = 0
        self.gains = 0
        self.first = 0  # the sum of the first-gain turns
        self.buckets = [0] * len(BUCKETS)


def tables(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`dominion_cards`, one row per kingdom card seen (row key `card`, sorted by name).
    `games` are finished games: `{"winners": [...], "extra": per_game(...)}`."""
    cards: dict[str, _Card] = {}
    for game in games:
        extra = game.get("extra") or {}
        kingdom: Sequence[str] = extra.get("kingdom") or ()
        gains: Mapping[str, Mapping[str, Sequence[int]]] = extra.get("gains") or {}
        if not kingdom or not gains:
            continue
        winner = sole_winner(tuple(game.get("winners") or ()))
        for pile in kingdom:
            card = cards.setdefault(pile, _Card())
            card.games += 1
            for seat, taken in gains.items():
                won = seat == winner
                card.seats += 1
                got = taken.get(pile) or ()
                if not got:
                    card.wins_not += won
                    continue
                card.gained_by += 1
                card.wins_gained += won
                card.gains += len(got)
                card.first += min(got)
                for turn in got:
                    card.buckets[_bucket(turn)] += 1
    rows = []
    for name, c in sorted(cards.items()):
        row: dict[str, Any] = {
            "card": name,
            "games_available": c.games,
            "seats_available": c.seats,
            "gained_by": c.gained_by,
            "gain_rate": ratio(c.gained_by, c.seats),
            "win_rate_gained": ratio(c.wins_gained, c.gained_by),
            "win_rate_not_gained": ratio(c.wins_not, c.seats - c.gained_by),
            "gains": c.gains,
            "mean_gained": ratio(c.gains, c.gained_by),
            "mean_first_turn": ratio(c.first, c.gained_by),
        }
        for (key, _, _, _), count in zip(BUCKETS, c.buckets, strict=True):
            row[key] = ratio(count, c.gains)
        rows.append(row)
    columns = [
        column("card", "Card", "text", "the kingdom card's name"),
        column("games_available", "Games in the kingdom", "count", "finished games with the card's pile"),
        column("seats_available", "Players it was available to", "count", "seats of those games"),
        column("gained_by", "Players who gained it", "count", "seats that gained at least one copy"),
        column("gain_rate", "Share who gained it", "ratio", "gained_by / seats_available"),
        column("win_rate_gained", "Win rate, gained", "ratio", "share of the gainers who won alone"),
        column(
            "win_rate_not_gained",
            "Win rate, available not gained",
            "ratio",
            "share of the seats that could have gained it, did not, and won alone",
        ),
        column("gains", "Gains", "count", "copies gained, from the Supply or the trash"),
        column("mean_gained", "Mean gained (by gainers)", "number", "gains / gained_by"),
        column(
            "mean_first_turn",
            "Mean turn of first gain",
            "number",
            "the gainer's own turn of its first gain (its own turns counted from 1), on average",
        ),
        *(
            column(key, label, "ratio", f"share of all gains made in the gainer's own {label[9:]}")
            for key, label, _, _ in BUCKETS
        ),
    ]
    return [
        {
            "id": "dominion_cards",
            "title": "Dominion kingdom cards: win rate with and without, gains and turn gained",
            "key": "card",
            "description": "One row per kingdom card seen, over the finished games whose kingdom had it.",
            "columns": columns,
            "rows": rows,
        }
    ]
