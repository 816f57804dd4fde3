"""What handlers get injected: the application object, the game index and the caller's token.

The application (`Chronicle`) and the one `GameIndex` live on `app.state` (set by `create_app`).
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.datastructures import State
from litestar.di import Provide

from api.auth import bearer_token
from projections.games_index import GameIndex
from store.app import Chronicle


def provide_chronicle(state: State) -> Chronicle:
    chronicle: Chronicle = state.chronicle
    return chronicle


def provide_index(state: State) -> GameIndex:
    index: GameIndex = state.index
    return index


def provide_token(request: Request[Any, Any, Any]) -> str | None:
    return bearer_token(request)


DEPENDENCIES = {
    "chronicle": Provide(provide_chronicle, sync_to_thread=False),
    "index": Provide(provide_index, sync_to_thread=False),
    "token": Provide(provide_token, sync_to_thread=False),
}
