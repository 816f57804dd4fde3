"""The access log: one JSON line per request, as it ends.

    {"time": "2026-12-02T01:20:03.114Z", "pid": 812, "remote": "10.0.0.7", "method": "POST",
     "path": "/games/0c4e.../actions", "status": 201, "duration_ms": 4.21, "bytes": 311}

`query` is added when the request had one. A token must never reach a log, and tokens travel
in the `Authorization` header (never read here) but a client may also put one in a query
string (`?token=...`), so a query parameter's value is written only for the parameters the API
takes, whose values are filters and positions (`QUERY_SHOWN`); any other parameter's value is
written as `***`. Paths hold game ids, never tokens. A live stream's line is written when the
stream ends (its duration is how long it was followed); a WebSocket's status is 101 once
accepted.

`CHRONICLE_ACCESS_LOG` (or `chronicle serve --access-log`) says where the lines go: `stderr`
(the default of `chronicle serve`), `off` (the default of the bare ASGI app), or a file path
(appended to; with several worker processes each line is one `write` to a file opened for
appending, so lines never interleave).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any
from urllib.parse import parse_qsl, quote

import msgspec
from litestar.types import ASGIApp, Message, Receive, Scope, Send

MASK = "***"
# The query parameters of the API's routes (a test holds this to the OpenAPI document): their
# values are filters, pages and positions.
QUERY_SHOWN = frozenset(
    {
        "across_rulesets",
        "after",
        "at",
        "format",
        "from",
        "game",
        "hide_retracted",
        "limit",
        "mode",
        "offset",
        "player",
        "position",
        "ruleset",
        "seat",
        "since",
        "status",
        "tag",
        "to",
        "until",
        "variant",
        "wait",
    }
)


def shown_query(query: str) -> str:
    """`query` with the value of every parameter outside `QUERY_SHOWN` replaced by `***`."""
    pairs = parse_qsl(query, keep_blank_values=True)
    return "&".join(
        f"{quote(name, safe='')}={quote(value, safe='') if name in QUERY_SHOWN else MASK}"
        for name, value in pairs
    )


class AccessLog:
    """Where the lines go; `write` is safe from any thread."""

    def __init__(self, stream: IO[str], owned: bool = False) -> None:
        self.stream = stream
        self.owned = owned
        self._lock = threading.Lock()

    @classmethod
    def to(cls, destination: str) -> AccessLog | None:
        """`stderr`, `off` (None) or a file path (appended to); OSError if it cannot be opened."""
        if destination == "off":
            return None
        if destination == "stderr":
            return cls(sys.stderr)
        return cls(Path(destination).open("a", buffering=1, encoding="utf-8"), owned=True)

    def write(self, entry: dict[str, Any]) -> None:
        line = msgspec.json.encode(entry).decode() + "\n"
        with self._lock:
            self.stream.write(line)
            self.stream.flush()

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def access_logging(log: AccessLog) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware (the outermost): one line per HTTP request or WebSocket."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def logged(scope: Scope, receive: Receive, send: Send) -> None:
            kind = scope["type"]
            if kind not in ("http", "websocket"):
                await app(scope, receive, send)
                return
            started = time.perf_counter()
            status = 0
            sent = 0

            async def sending(message: Message) -> None:
                nonlocal status, sent
                match message["type"]:
                    case "http.response.start":
                        status = message["status"]
                    case "http.response.body":
                        sent += len(message.get("body", b""))
                    case "websocket.accept":
                        status = 101
                    case "websocket.send":
                        # A live stream hands many sockets one text: counted, not encoded, when
                        # it is ASCII (its length in UTF-8 is then its length)
                        text = message.get("text") or ""
                        sent += len(message.get("bytes") or b"") + (
                            len(text) if text.isascii() else len(text.encode())
                        )
                    case "websocket.close" if status == 0:
                        status = 403  # closed before it was accepted
                await send(message)

            try:
                await app(scope, receive, sending)
            except BaseException:
                status = status or 500
                raise
            finally:
                log.write(_entry(scope, status, started, sent))

        return logged

    return middleware


def _entry(scope: Scope, status: int, started: float, sent: int) -> dict[str, Any]:
    client = scope.get("client")
    entry: dict[str, Any] = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "pid": os.getpid(),
        "remote": client[0] if client else None,
        "method": scope.get("method", "GET"),
        "path": scope.get("path", ""),
        "status": status,
        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
        "bytes": sent,
    }
    query = scope.get("query_string", b"")
    if query:
        entry["query"] = shown_query(query.decode("latin-1"))
    return entry
