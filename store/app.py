"""The Chronicle application as the server and the command line open it: the core
(store/core.py) with the capabilities it asks of plugged in. The deals (store/deals.py) lend a
finished game's deal to a new game and withhold a game while another table plays its deal; the
annotations (store/notes.py) know the review tokens, which read a game as the public; and on
SQLite, with `writer_process`, a writer process of its own (store/writer_process.py) commits
what is recorded on an event loop.

The requests and answers of the core's operations (store/requests.py) are named here too, as
its callers have always imported them.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from store import deals, notes
from store.core import Core
from store.requests import (
    ADMIN,
    ANONYMOUS,
    RECORDER,
    Access,
    Appended,
    CreatedGame,
    Ended,
    NewGame,
    Recorded,
    Retraction,
)
from store.started import Dealt
from store.writer_process import WriterProcess

__all__ = [
    "ADMIN",
    "ANONYMOUS",
    "RECORDER",
    "Access",
    "Appended",
    "Chronicle",
    "CreatedGame",
    "Ended",
    "NewGame",
    "Recorded",
    "Retraction",
]


class Chronicle(Core):
    """The whole application: the core, its deals, its review tokens and its writer process."""

    writer: WriterProcess | None

    def __init__(
        self, url: str | None = None, admin_token: str | None = None, *, writer_process: bool = False
    ) -> None:
        """`writer_process`: on SQLite, the commits awaited on an event loop are written by a
        process of their own (store/writer_process.py), as the server's are."""
        super().__init__(url, admin_token, writer=WriterProcess if writer_process else None)

    def withhold(self, subject_id: UUID, token: str | None) -> None:
        deals.withhold(self, subject_id, token)

    def is_reviewer(self, game_id: UUID, token: str) -> bool:
        return notes.is_reviewer(self, game_id, token)

    def lend_deal(self, new: NewGame, token: str | None, admin: bool) -> Dealt:
        return deals.lend(self, new, token, admin=admin)

    def save_dealt(self, first_game: UUID, game_id: UUID, *aggregates: Any) -> bool:
        return deals.save_game_of_deal(self, first_game, game_id, *aggregates)
