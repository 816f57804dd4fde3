"""Statistics of `any`: the figures followed turn by turn, the dice, and the game's own tables,
title by title. Pure functions over states, facts and plain data.

- `metrics(state)`: "vp", each seat's value on the ending's per-player track, and every
  per-player track by its own name;
- `dice(fact)`: every die of a roll, drawn from the seed or entered by the table (stream `dice`).

A game of `any` is of one title (the option `title`: Azul, Catan, ...), so its figures mean
something only beside other games of that title:

- `title(options)`: the title a game is of, its spaces tidied (projections/players.py counts
  each title as a ruleset of its own: Ann's rating at Azul never mixes with hers at Catan);
- `per_game`: the title, the BoardGameGeek id, the date it was played on (games entered
  afterwards) and how its ending ranks (highest, lowest, ranks, cooperative);
- `tables`: `any_titles`, one row per title (games, players, the games a cooperative table
  won, the mean and best score), and `any_title_players`, one row per title and player
  (games, wins, shared firsts, the mean and best score).

Rulings: a game's scores count only where it kept scores (a track moved, or a final score
other than 0 was entered): a result of winners or won/lost alone has none. A title's best
score is its highest, or its lowest where the game's ending ranks the
lowest first (the definition's `ending.kind = "lowest"`, which the BG Stats import sets for a
lowest-wins game); a game whose ending is not one of those reads highest. A title is told
apart from another by its text alone (spaces tidied, case kept): "Azul" with BoardGameGeek id
230802 and "Azul" without one are one title; the id shown is the last one seen. Wins and
shared firsts follow domain/standings.py: a tie for first, or a cooperative game the table
won, is shared by every seat that won it.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.any import ending
from domain.games.any.events import DiceRolled, Fact, Scored
from domain.games.any.state import State
from domain.ruleset import Die, GameConfig, Outcome
from domain.standings import seat_result
from domain.stat_tables import column, ratio

ENDINGS = ("highest", "lowest", "ranks", "cooperative")


def metrics(state: State) -> dict[str, dict[str, float]]:
    """ "vp": each seat's value on the ending's per-player track; every per-player track by its
    own name as well."""
    scores = ending.track_scores(state.definition, state.seats, state.player_tracks)
    out: dict[str, dict[str, float]] = {"vp": {s: float(v) for s, v in scores.items()}}
    for name, values in state.player_tracks.items():
        if name != "vp":
            out[name] = {s: float(v) for s, v in values.items()}
    return out


def dice(fact: Fact) -> tuple[Die, ...]:
    """Every die of a roll, drawn from the seed or entered by the table (stream `dice`)."""
    if not isinstance(fact, DiceRolled):
        return ()
    return ((fact.stream or "dice", fact.faces, fact.values),)


def title(options: Mapping[str, Any]) -> str:
    """The title a game of `any` is of (its option `title`, spaces tidied)."""
    return " ".join(str(options.get("title", "")).split())


def ending_kind(options: Mapping[str, Any]) -> str:
    """How the game's ending ranks, from its definition (`highest` without one)."""
    text = options.get("definition", "")
    if not isinstance(text, str) or not text:
        return "highest"
    try:
        data = json.loads(text)
    except ValueError:
        return "highest"
    ending = data.get("ending") if isinstance(data, dict) else None
    kind = ending.get("kind") if isinstance(ending, dict) else None
    return kind if kind in ENDINGS else "highest"


def per_game(config: GameConfig, facts: Sequence[Any], outcome: Outcome | None) -> dict[str, Any]:
    """The game's title, BoardGameGeek id (0: none), the date it was played on ("" for a game
    recorded as it was played), its ending's kind, and whether it kept scores: a track moved,
    or a final score other than 0 was entered. A result of winners, ranks or won/lost alone
    leaves every score at 0, which no table should average."""
    options = config.options
    bgg_id = options.get("bgg_id", 0)
    moved = any(isinstance(f, Scored) for f in facts)
    entered = outcome is not None and any(outcome.scores.values())
    return {
        "title": title(options),
        "bgg_id": bgg_id if isinstance(bgg_id, int) and not isinstance(bgg_id, bool) else 0,
        "played_on": str(options.get("played_on", "")),
        "ending": ending_kind(options),
        "scored": moved or entered,
    }


class _Title:
    """What the tables count of one title."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.bgg_id = 0
        self.games = 0
        self.won = 0  # cooperative games the table won
        self.lowest = False
        self.cooperative = False
        self.players: dict[str, str] = {}  # casefolded name -> spelling seen first
        self.scores: list[float] = []
        self.per_player: dict[str, list[Any]] = {}  # name -> [games, wins, shared, scores]


def _extra(game: Mapping[str, Any]) -> Mapping[str, Any]:
    extra: Mapping[str, Any] = game.get("extra", {})
    if extra.get("title"):
        return extra
    options = game.get("options", {})
    return {
        "title": title(options),
        "bgg_id": options.get("bgg_id", 0),
        "ending": ending_kind(options),
        "scored": any(game.get("scores", {}).values()),
    }


def _count(games: Sequence[Mapping[str, Any]]) -> list[_Title]:
    titles: dict[str, _Title] = {}
    for game in games:
        extra = _extra(game)
        name = extra.get("title") or "(untitled)"
        found = titles.setdefault(name, _Title(name))
        found.games += 1
        if extra.get("bgg_id"):
            found.bgg_id = int(extra["bgg_id"])
        kind = extra.get("ending", "highest")
        found.lowest = found.lowest or kind == "lowest"
        winners = tuple(game.get("winners", ()))
        seats: Mapping[str, str] = game.get("seats", {})
        scores: Mapping[str, float] = game.get("scores", {}) if extra.get("scored", True) else {}
        if kind == "cooperative":
            found.cooperative = True
            found.won += 1 if winners else 0
        for seat, player in seats.items():
            found.players.setdefault(player.casefold(), player)
            row = found.per_player.setdefault(player, [0, 0, 0, []])
            row[0] += 1
            # a cooperative game lost is lost by all: nobody shares a first place
            lost_together = kind == "cooperative" and not winners
            result = "loss" if lost_together else seat_result(winners, seat)
            row[1] += result == "win"
            row[2] += result == "draw"
            if seat in scores:
                row[3].append(float(scores[seat]))
                found.scores.append(float(scores[seat]))
    return sorted(titles.values(), key=lambda t: (t.name.casefold(), t.name))


def _best(scores: Sequence[float], lowest: bool) -> float | None:
    if not scores:
        return None
    return min(scores) if lowest else max(scores)


SCORE_COLUMNS = (
    column("mean_score", "Mean score", "number", "the final scores entered, on average"),
    column(
        "best_score",
        "Best score",
        "number",
        "the highest final score, or the lowest where the game's ending ranks the lowest first",
    ),
)


def tables(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`any_titles` and `any_title_players` over the finished games of `any`: `games` are
    `{"seats", "winners", "scores", "options", "extra": per_game(...)}`."""
    counted = _count(games)
    title_rows = [
        {
            "title": t.name,
            "bgg_id": t.bgg_id or None,
            "games": t.games,
            "players": len(t.players),
            "won": t.won if t.cooperative else None,
            "mean_score": statistics.fmean(t.scores) if t.scores else None,
            "best_score": _best(t.scores, t.lowest),
        }
        for t in counted
    ]
    player_rows = []
    for t in counted:
        for player, (n, wins, shared, scores) in sorted(
            t.per_player.items(), key=lambda item: (item[0].casefold(), item[0])
        ):
            player_rows.append(
                {
                    "title_player": f"{t.name}/{player}",
                    "title": t.name,
                    "player": player,
                    "games": n,
                    "wins": wins,
                    "shared": shared,
                    "win_rate": ratio(wins, n),
                    "mean_score": statistics.fmean(scores) if scores else None,
                    "best_score": _best(scores, t.lowest),
                }
            )
    return [
        {
            "id": "any_titles",
            "title": "Games of any title",
            "key": "title",
            "description": "One row per title recorded with `any` (the option `title`), over the "
            "finished games.",
            "columns": [
                column("title", "Title", "text", "the game's title"),
                column("bgg_id", "BGG id", "count", "the title's BoardGameGeek id, where one was given"),
                column("games", "Games", "count", "finished games of the title"),
                column("players", "Players", "count", "the different names that played it"),
                column(
                    "won",
                    "Won",
                    "count",
                    "for a cooperative game: the games the table won; empty for the others",
                ),
                *SCORE_COLUMNS,
            ],
            "rows": title_rows,
        },
        {
            "id": "any_title_players",
            "title": "Players by title",
            "key": "title_player",
            "description": "One row per title and player (a name as the games spell it), over the "
            "finished games of `any`.",
            "columns": [
                column("title_player", "Title/player", "text", "the title and the player"),
                column("title", "Title", "text", "the game's title"),
                column("player", "Player", "text", "the player's name"),
                column("games", "Games", "count", "finished games of the title the player sat in"),
                column("wins", "Wins", "count", "games the player won alone"),
                column(
                    "shared",
                    "Shared",
                    "count",
                    "games the player shared first place in: a tie, a cooperative game the table "
                    "won, or a competitive game nobody won",
                ),
                column("win_rate", "Win rate", "ratio", "wins / games"),
                *SCORE_COLUMNS,
            ],
            "rows": player_rows,
        },
    ]
