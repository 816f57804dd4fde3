"""The baseline server for `bench/http_actions.py`: a Litestar POST handler that decodes the
same request body and answers a small JSON object, and nothing else."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar, get, post
from litestar.params import FromPath, JSONBody


class Body(msgspec.Struct):
    action: dict[str, Any] | str
    seat: str | None = None
    action_id: str | None = None
    expected_version: int | None = None


@post("/games/{game_id:str}/actions", status_code=201)
async def record(game_id: FromPath[str], data: JSONBody[Body]) -> dict[str, Any]:
    return {"game_id": game_id, "seq": 1, "version": 2, "facts": [], "finished": False}


@get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


app = Litestar(route_handlers=[record, health], openapi_config=None)
