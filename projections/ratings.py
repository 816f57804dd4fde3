"""Player ratings across games: openskill's Plackett-Luce model, every seat its own team,
updated game by game in the order the games finished. A player is a name within a ruleset
(projections/players.py: a game of `any` within its title) unless the ratings are asked
across rulesets.

The statistics view keeps the ratings of all its games up to date as each game finishes, in
the same transaction as the game's row and position (projections/views.py), so a read of
the unfiltered tables only reads them; `replay` recomputes them from a list of games, for the
filters the stored ratings cannot answer. Both go through `rate`, so they agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec
from openskill.models import PlackettLuce

from projections.game_stats import GameStatistics
from projections.players import player_id, split_player_id, stats_group

MODEL = PlackettLuce()


class PlayerRating(msgspec.Struct, frozen=True):
    player: str  # the player's id (projections/players.py): `province/Ann`, or `Ann` across rulesets
    games: int
    mu: float
    sigma: float

    def ordinal(self) -> float:
        """mu - 3 sigma, as openskill computes it."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


def rated_players(stats: GameStatistics, across: bool = False) -> list[str]:
    """The ids of the players a game rates, in seat order; none when one player held two
    seats (they cannot be rated against themself) or fewer than two seats played."""
    ruleset = stats_group(stats.ruleset, stats.options)
    names = [player_id(ruleset, name, across) for name in stats.seats.values()]
    if len(set(names)) != len(names) or len(names) < 2:
        return []
    return names


def rate(
    current: Mapping[str, PlayerRating], stats: GameStatistics, across: bool = False
) -> list[PlayerRating]:
    """The new ratings of a finished game's players, from their ratings before it (a player
    missing from `current` starts at the model's default)."""
    names = rated_players(stats, across)
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


def history(
    games: Iterable[GameStatistics], across: bool = False
) -> Iterator[tuple[GameStatistics, list[PlayerRating]]]:
    """Each of `games` (in finishing order) with the ratings of its players just after it (a
    player's rating over time: projections/player_record.py); a game that rates nobody
    comes with none."""
    current: dict[str, PlayerRating] = {}
    for stats in games:
        rated = rate(current, stats, across)
        for rating in rated:
            current[rating.player] = rating
        yield stats, rated


def replay(games: Iterable[GameStatistics], across: bool = False) -> list[PlayerRating]:
    """The ratings after `games` (in finishing order), each player in order of first rating."""
    current: dict[str, PlayerRating] = {}
    for _, rated in history(games, across):
        for rating in rated:
            current[rating.player] = rating
    return list(current.values())


def ranked(ratings: Sequence[PlayerRating], across: bool = False) -> list[dict[str, Any]]:
    """The rows of the ratings table, ruleset by ruleset: best `ordinal` first (ties by id,
    then by first rating), with their rank within the ruleset."""
    rows: list[dict[str, Any]] = []
    for r in ratings:
        ruleset, name = split_player_id(r.player, across)
        rows.append(
            {
                "player_id": r.player,
                "ruleset": ruleset,
                "player": name,
                "games": r.games,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal(),
            }
        )
    rows.sort(key=lambda row: (row["ruleset"], -row["ordinal"], row["player_id"].casefold()))
    ranks: dict[str, int] = {}
    for row in rows:
        ranks[row["ruleset"]] = row["rank"] = ranks.get(row["ruleset"], 0) + 1
    return rows
