"""A finished game in BG Stats' play-import format: its players, scores, winners and duration.

One JSON object with the app's three lists: `games` (the ruleset's title; a game of `any`: its
own title and BoardGameGeek id), `players` (each
seat's player, by name) and `plays` (this one: `playDate` when the game was created, as
`YYYY-MM-DD HH:MM:SS` in UTC, `durationMin` from its creation to its end, rounded to whole
minutes, and `playerScores` with each player's score as text, rank and whether they won, as the
ruleset's outcome says). The play's `uuid` is the game id, so
importing the file twice into the app finds the same play. Only a finished game has scores: a
running or abandoned one is refused (`game_not_finished`). It shows what everyone sees at the
end and nothing hidden.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.events import GameCreated, GameFinished
from store.core import Core
from store.errors import InvalidRequest


def bgstats(app: Core, game_id: UUID) -> dict[str, Any]:
    game = app.game(game_id)
    if game.outcome is None:
        raise InvalidRequest(
            "Only a finished game has the scores BG Stats imports.", code="game_not_finished"
        )
    events = app.stored_events(game_id)
    created = next(e for e in events if isinstance(e, GameCreated))
    finished = next(e for e in events if isinstance(e, GameFinished))
    outcome = game.outcome
    minutes = round((finished.timestamp - created.timestamp).total_seconds() / 60)
    players = [{"id": i, "name": seat.name} for i, seat in enumerate(game.config.seats, start=1)]
    scores = [
        {
            "playerRefId": i,
            "score": str(outcome.scores.get(seat.id, "")),
            "rank": outcome.ranks.get(seat.id, 0),
            "winner": seat.id in outcome.winners,
        }
        for i, seat in enumerate(game.config.seats, start=1)
    ]
    # a game of many titles (`any`) is BG Stats' game of its title and BoardGameGeek id
    options = game.config.options
    title = " ".join(str(options.get("title", "")).split())
    entry: dict[str, Any] = {"id": 1, "name": title or game.ruleset.meta.title, "uuid": game.ruleset.meta.id}
    bgg_id = options.get("bgg_id")
    if isinstance(bgg_id, int) and not isinstance(bgg_id, bool) and bgg_id > 0:
        entry["bggId"] = bgg_id
    return {
        "games": [entry],
        "players": players,
        "plays": [
            {
                "uuid": str(game_id),
                "gameRefId": 1,
                "playDate": created.timestamp.strftime("%Y-%m-%d %H:%M:%S"),
                "durationMin": minutes,
                "playerScores": scores,
                "ignored": False,
                "manualWinner": False,
            }
        ],
    }
