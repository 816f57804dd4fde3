"""One player's record: the games a name sat in, their results, placings and win streaks, and
the rating after each game, per ruleset or across rulesets (projections/players.py).

It reads what the statistics read and nothing more: the finished games of the statistics view
(results, places, ratings) and the game index (running and abandoned games, and finished
games the view has yet to count), both without the games the caller withholds (same-deal
games while their deal is in play, store/deals.py), so a player's page never tells more than
`/stats` and `/games` do.

Rulings:
- A game of `any` counts within its title (`any:Azul`, projections/players.py): Ann's record
  at Azul is not her record at Catan.
- A name matches case-insensitively, as the games list's `player` filter does; but a record
  is keyed as the statistics key a player (`province/Ann`, or `Ann` across rulesets), so a
  name spelled two ways ("Ann", "ann") has two records, as it has two rows and two ratings in
  the statistics tables.
- A player who held more than one seat of a game won it if any of those seats won, and is
  placed at the best of their seats; such a game rates nobody (projections/ratings.py).
- The ratings replay every counted game of the ruleset (of every ruleset across rulesets),
  not only this player's: a rating moves with the opponents' ratings.
- Streaks run over finished games in finishing order; an abandoned game neither extends nor
  breaks one. A finished game the view has not counted yet has its winners (from the index)
  but no place and no rating until it is counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from projections.game_stats import GameStatistics
from projections.games_index import GameSummary
from projections.players import ACROSS, game_title, player_id, split_player_id, stats_group, titled
from projections.ratings import history


class RatingPoint(msgspec.Struct):
    """The player's rating just after one game (openskill, projections/ratings.py)."""

    game_id: str
    date: str
    games: int  # rated games so far
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the ratings table ranks by


class PlayerGame(msgspec.Struct):
    game_id: str
    date: str  # when it finished or was abandoned; when it was created while it runs
    ruleset: str
    status: str  # running, finished or abandoned
    result: str  # won, lost, running or abandoned
    players: list[str]  # every seat's name, in seat order
    place: int | None = None  # 1 for first (ties share a place); None until the view counts it
    score: float | None = None
    title: str = ""  # the game's title where the ruleset records many (`any`), else ""


class PlayerRecord(msgspec.Struct):
    key: str  # the statistics' player id: `province/Ann`, `any:Azul/Ann`, or `Ann` across rulesets
    ruleset: str  # `*` across rulesets; a game of `any` reads `any:Azul` (projections/players.py)
    player: str  # the name as the games spell it
    played: int  # every game the name sat in: running, finished and abandoned
    finished: int
    won: int
    abandoned: int
    running: int
    placings: dict[str, int]  # place ("1", "2", ...) -> finished games ended there
    current_streak: int  # wins in a row up to the last finished game
    longest_streak: int
    ratings: list[RatingPoint]  # in finishing order
    games: list[PlayerGame]  # newest first


def _date(summary: GameSummary) -> str:
    return summary.finished_at or summary.created_at


def _seats_of(seats: dict[str, str], wanted: str) -> list[str]:
    return [seat for seat, name in seats.items() if name.casefold() == wanted]


def _spelling(seats: dict[str, str], wanted: str) -> str:
    return next(name for name in seats.values() if name.casefold() == wanted)


def _counted_game(stats: GameStatistics, wanted: str) -> PlayerGame:
    mine = _seats_of(stats.seats, wanted)
    places = [stats.ranks[s] for s in mine if s in stats.ranks]
    scores = [stats.scores[s] for s in mine if s in stats.scores]
    won = any(s in stats.winners for s in mine)
    return PlayerGame(
        game_id=stats.game_id,
        date=stats.finished_at or stats.created_at,
        ruleset=stats.ruleset,
        status="finished",
        result="won" if won else "lost",
        players=list(stats.seats.values()),
        place=min(places) if places else None,
        score=max(scores) if scores else None,
        title=game_title(stats.ruleset, stats.options),
    )


def _listed_game(summary: GameSummary, wanted: str) -> PlayerGame:
    if summary.status == "finished":
        won = any(name.casefold() == wanted for name in summary.winners)
        result = "won" if won else "lost"
    else:
        result = summary.status
    return PlayerGame(
        game_id=summary.game_id,
        date=_date(summary),
        ruleset=summary.ruleset,
        status=summary.status,
        result=result,
        players=list(summary.seats.values()),
        title=summary.title,
    )


def _streaks(results: Iterable[str]) -> tuple[int, int]:
    """(current, longest) run of wins among finished games' results, oldest first."""
    current = longest = 0
    for result in results:
        current = current + 1 if result == "won" else 0
        longest = max(longest, current)
    return current, longest


def player_records(
    name: str,
    counted: Sequence[GameStatistics],
    listed: Sequence[GameSummary],
    across: bool = False,
) -> list[PlayerRecord]:
    """The records of `name` (case-insensitive): `counted` is every finished game the
    statistics count (in finishing order, the rulesets asked for), `listed` every game of the
    index (any order, the same rulesets), both without the withheld games. One record per
    statistics player id, ordered by ruleset then spelling; none when the name sat in none."""
    wanted = name.casefold()
    games: dict[str, dict[str, PlayerGame]] = {}  # player id -> game id -> the game
    spelled: dict[str, str] = {}
    ratings: dict[str, list[RatingPoint]] = {}
    for stats, rated in history(counted, across):
        mine = _seats_of(stats.seats, wanted)
        if not mine:
            continue
        key = player_id(stats_group(stats.ruleset, stats.options), _spelling(stats.seats, wanted), across)
        spelled[key] = _spelling(stats.seats, wanted)
        games.setdefault(key, {})[stats.game_id] = _counted_game(stats, wanted)
        for rating in rated:
            if rating.player == key:
                ratings.setdefault(key, []).append(
                    RatingPoint(
                        stats.game_id,
                        stats.finished_at or stats.created_at,
                        rating.games,
                        rating.mu,
                        rating.sigma,
                        rating.ordinal(),
                    )
                )
    for summary in listed:
        if not _seats_of(summary.seats, wanted):
            continue
        key = player_id(titled(summary.ruleset, summary.title), _spelling(summary.seats, wanted), across)
        spelled.setdefault(key, _spelling(summary.seats, wanted))
        # a game the view counts is already there, with its place and score
        games.setdefault(key, {}).setdefault(summary.game_id, _listed_game(summary, wanted))
    records: list[PlayerRecord] = []
    for key, found in games.items():
        oldest_first = sorted(found.values(), key=lambda g: g.date)
        finished = [g for g in oldest_first if g.status == "finished"]
        placings: dict[str, int] = {}
        for g in finished:
            if g.place is not None:
                placings[str(g.place)] = placings.get(str(g.place), 0) + 1
        current, longest = _streaks(g.result for g in finished)
        ruleset, _ = split_player_id(key, across)
        records.append(
            PlayerRecord(
                key=key,
                ruleset=ACROSS if across else ruleset,
                player=spelled[key],
                played=len(oldest_first),
                finished=len(finished),
                won=sum(1 for g in finished if g.result == "won"),
                abandoned=sum(1 for g in oldest_first if g.status == "abandoned"),
                running=sum(1 for g in oldest_first if g.status == "running"),
                placings=dict(sorted(placings.items(), key=lambda item: int(item[0]))),
                current_streak=current,
                longest_streak=longest,
                ratings=ratings.get(key, []),
                games=oldest_first[::-1],
            )
        )
    records.sort(key=lambda r: (r.ruleset, r.player.casefold(), r.player))
    return records
