"""What handlers get injected: the application object, the game index and the caller's token.

The application (`Chronicle`) and the one `GameIndex` live on `app.state` (set by `create_app`).
A handler names what it takes by parameter name, with the types below (`chronicle: ChronicleDep`).
"""

from __future__ import annotations

import threading
from typing import Any

from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide

from api.auth import bearer_token
from api.settings import EdgeSettings
from projections.games_index import GameIndex
from projections.runner import StatsReader
from store.app import Chronicle

ChronicleDep = NamedDependency[Chronicle]
TokenDep = NamedDependency[str | None]  # None: no `Authorization` header, the public
SettingsDep = NamedDependency[EdgeSettings]
StatsDep = NamedDependency[StatsReader]


def provide_chronicle(state: State) -> Chronicle:
    chronicle: Chronicle = state.chronicle
    return chronicle


def provide_index(state: State) -> GameIndex:
    index: GameIndex = state.index
    return index


_STATS_LOCK = threading.Lock()


def provide_stats(state: State) -> StatsReader:
    """The reader of the statistics view, opened on first use."""
    with _STATS_LOCK:
        reader: StatsReader | None = state.get("stats")
        if reader is None:
            reader = state.stats = StatsReader(state.chronicle)
        return reader


def provide_settings(state: State) -> EdgeSettings:
    settings: EdgeSettings = state.settings
    return settings


def provide_token(request: Request[Any, Any, Any]) -> str | None:
    return bearer_token(request)


DEPENDENCIES = {
    "chronicle": Provide(provide_chronicle, sync_to_thread=False),
    "index": Provide(provide_index, sync_to_thread=False),
    "token": Provide(provide_token, sync_to_thread=False),
    "settings": Provide(provide_settings, sync_to_thread=False),
    "stats": Provide(provide_stats, sync_to_thread=True),
}
