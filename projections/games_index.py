"""The game index: which games exist, with their ruleset (and title, for `any`), players, tags
and status.

It follows the application sequence (creation, finishing and abandoning events only), from its last
position, each time it is read; so every server process and the CLI see the same list,
derived from the log and never written anywhere else.
"""

from __future__ import annotations

import threading
from typing import Any

import msgspec

from domain.events import GameAbandoned, GameCreated, GameFinished
from projections.players import game_title
from store.app import Chronicle


class GameSummary(msgspec.Struct):
    game_id: str
    ruleset: str
    mode: str
    players: list[str]
    seats: dict[str, str]
    tags: list[str]
    status: str
    created_at: str
    position: int
    winners: list[str] = []
    finished_at: str | None = None
    # the game's title where its ruleset records many (`any`: the option `title`), else ""
    title: str = ""


class GameIndex:
    _TOPICS = (GameCreated.TOPIC, GameFinished.TOPIC, GameAbandoned.TOPIC)

    def __init__(self, app: Chronicle) -> None:
        self.app = app
        self.position = 0
        self.games: dict[str, GameSummary] = {}
        self._order: list[str] = []
        self._lock = threading.Lock()

    def catch_up(self) -> None:
        with self._lock:
            while True:
                batch = self.app.recorder.select_notifications(
                    start=self.position, limit=500, topics=self._TOPICS, inclusive_of_start=False
                )
                for notification in batch:
                    self._apply(self.app.mapper.to_domain_event(notification), notification.id)
                    self.position = notification.id
                if len(batch) < 500:
                    return

    def _apply(self, event: Any, position: int) -> None:
        game_id = str(event.originator_id)
        if isinstance(event, GameCreated):
            self.games[game_id] = GameSummary(
                game_id=game_id,
                ruleset=event.ruleset,
                mode=event.mode,
                players=[s["name"] for s in event.seats],
                seats={s["id"]: s["name"] for s in event.seats},
                tags=list(event.tags),
                status="running",
                created_at=event.timestamp.isoformat(),
                position=position,
                title=game_title(event.ruleset, event.options),
            )
            self._order.append(game_id)
        elif isinstance(event, GameFinished) and game_id in self.games:
            summary = self.games[game_id]
            summary.status = "finished"
            summary.finished_at = event.timestamp.isoformat()
            summary.winners = [summary.seats.get(w, w) for w in event.outcome.get("winners", [])]
        elif isinstance(event, GameAbandoned) and game_id in self.games:
            summary = self.games[game_id]
            summary.status = "abandoned"
            summary.finished_at = event.timestamp.isoformat()

    def search(
        self,
        *,
        ruleset: str | None = None,
        player: str | None = None,
        status: str | None = None,
        tag: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[GameSummary], int]:
        """Games matching every given filter, newest first, and how many match in all."""
        self.catch_up()
        with self._lock:
            rows = [self.games[g] for g in reversed(self._order)]
        wanted = player.casefold() if player else None
        rows = [
            g
            for g in rows
            if (ruleset is None or g.ruleset == ruleset)
            and (status is None or g.status == status)
            and (tag is None or tag in g.tags)
            and (wanted is None or any(p.casefold() == wanted for p in g.players))
        ]
        return rows[offset : offset + limit], len(rows)

    def all_ids(self) -> list[str]:
        self.catch_up()
        with self._lock:
            return list(self._order)
