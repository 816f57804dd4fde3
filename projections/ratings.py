"""Player ratings across games: openskill's Plackett-Luce model, every seat its own team,
updated game by game in the order the games finished.

The statistics view keeps the ratings of all its games up to date as each game finishes, in
the same transaction as the game's row and position (projections/views.py), so a read of
the unfiltered tables only reads them; `replay` recomputes them from a list of games, for the
filters the stored ratings cannot answer. Both go through `rate`, so they agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
from openskill.models import PlackettLuce

from projections.game_stats import GameStatistics

MODEL = PlackettLuce()


class PlayerRating(msgspec.Struct, frozen=True):
    player: str
    games: int
    mu: float
    sigma: float

    def ordinal(self) -> float:
        """mu - 3 sigma, as openskill computes it."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


def rated_players(stats: GameStatistics) -> list[str]:
    """The players a game rates, in seat order; none when one player held two seats (they
    cannot be rated against themself) or fewer than two seats played."""
    names = list(stats.seats.values())
    if len(set(names)) != len(names) or len(names) < 2:
        return []
    return names


def rate(current: Mapping[str, PlayerRating], stats: GameStatistics) -> list[PlayerRating]:
    """The new ratings of a finished game's players, from their ratings before it (a player
    missing from `current` starts at the model's default)."""
    names = rated_players(stats)
    if not names:
        return []
    teams = [
        [
            MODEL.rating(mu=r.mu, sigma=r.sigma, name=name)
            if (r := current.get(name))
            else MODEL.rating(name=name)
        ]
        for name in names
    ]
    ranks = [float(stats.ranks.get(seat, 1)) for seat in stats.seats]
    rated = MODEL.rate(teams, ranks=ranks)
    return [
        PlayerRating(name, (current[name].games if name in current else 0) + 1, team[0].mu, team[0].sigma)
        for name, team in zip(names, rated, strict=True)
    ]


def replay(games: Iterable[GameStatistics]) -> list[PlayerRating]:
    """The ratings after `games` (in finishing order), each player in order of first rating."""
    current: dict[str, PlayerRating] = {}
    for stats in games:
        for rating in rate(current, stats):
            current[rating.player] = rating
    return list(current.values())


def ranked(ratings: Sequence[PlayerRating]) -> list[dict[str, Any]]:
    """The rows of the ratings table: best `ordinal` first (ties by name, then by first
    rating), with their rank."""
    rows: list[dict[str, Any]] = [
        {"player": r.player, "games": r.games, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for r in ratings
    ]
    rows.sort(key=lambda row: (-row["ordinal"], row["player"].casefold()))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows
