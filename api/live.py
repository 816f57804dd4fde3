"""Live streams: a game's events as they are recorded, and a feed of every game's summary.

- `GET /games/{id}/live`: server-sent events, one per game event (`id:` its version,
  `event:` its type, `data:` the event as `GET /games/{id}/events` shows it to the caller).
  The same path answers a WebSocket, one JSON text message per event. Either resumes after
  the version in `Last-Event-ID` or `?after=VERSION`: what the client missed is read from the
  store, then the stream goes live, each version sent once and in order. Retractions and the
  finishing event arrive like any other; the stream ends after the finishing event.
- `GET /live`: server-sent events, one per game that changed (`id:` its position in the
  store's sequence, `event: game`, `data:` its public summary with its version), resuming
  after `Last-Event-ID` / `?after=POSITION`; without one it starts now, with an
  `event: position` naming the current position.

Every subscriber gets its own redacted view, through the one redaction (store/live.py): each
batch of events is redacted and framed (`sse_frame`, `socket_frame`) once per viewer (the
public, each seat, the omniscient), and the subscribers who see it so are sent that one
frame. News of appends comes from this process's writes, Redis when `CHRONICLE_REDIS` is set,
and the store's sequence (store/fanout.py). A server-sent events stream (`EventStream`) is
written to by its game's fan-out once caught up, and sends straight from its steps otherwise:
thousands of spectators cost each batch little more than a write to each socket.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, WebSocket, websocket
from litestar.background_tasks import BackgroundTask, BackgroundTasks
from litestar.datastructures import Cookie
from litestar.di import NamedDependency
from litestar.exceptions import WebSocketDisconnect
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.response.streaming import ASGIStreamingResponse
from litestar.types import HTTPResponseBodyEvent, Receive, Send, TypeEncodersMap

from api.auth import bearer_token, game_access, parse_game_id
from api.concern import Concern
from api.settings import EdgeSettings
from projections.games_index import GameIndex
from projections.live_feed import follow_feed
from store.app import Chronicle
from store.errors import InvalidRequest, ServiceError
from store.fanout import Fanout
from store.limits import INT64_MAX
from store.live import LiveGames, Shown, Write

EVENT_STREAM = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RETRY = b"retry: 1000\n\n"  # a browser reconnects after a second, sending Last-Event-ID
KEEPALIVE = b": keepalive\n\n"
_encode = msgspec.json.Encoder().encode


@dataclass
class Live:
    """What this process's live streams share (on `app.state.live`)."""

    fanout: Fanout
    games: LiveGames


def live_lifespan(settings: EdgeSettings) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        chronicle: Chronicle = app.state.chronicle
        fanout = Fanout(chronicle, settings.redis_url, settings.redis_namespace)
        await fanout.start()
        app.state.live = Live(fanout, LiveGames(chronicle, fanout))
        try:
            yield
        finally:
            await fanout.stop()

    return lifespan


def resume_after(last_event_id: str | None, after: int | None) -> int | None:
    """Where a stream resumes: `Last-Event-ID` (what a reconnecting browser sends) wins over
    `?after=`."""
    if last_event_id is None or not last_event_id.strip():
        return after
    text = last_event_id.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > INT64_MAX:
        raise InvalidRequest(
            "Last-Event-ID names a version (or, for the feed, a position): a whole number.",
            code="invalid_last_event_id",
        )
    return int(text)


def _sse(event_id: int, kind: str, data: bytes) -> bytes:
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (event_id, kind.encode(), data)


def sse_frame(events: list[Shown]) -> bytes:
    """Events as server-sent events, one after the other."""
    return b"".join([_sse(e.version, e.type, e.json) for e in events])


def socket_frame(events: list[Shown]) -> tuple[str, ...]:
    """Events as WebSocket text messages, one per event."""
    return tuple(e.json.decode() for e in events)


# What an event stream sends, step by step: a step's frames go out as one message, [] as a
# keepalive. A stream's steps are made from how it writes a step (`Write`): a live game's
# fan-out writes to the stream itself (store/live.py).
Steps = AsyncGenerator[list[bytes], None]


class EventStream(Stream):
    """Server-sent events from `steps(write)`, each step's frames written in one ASGI message,
    after `RETRY`. Litestar's `Stream` runs each stream in a task group of its own and passes
    every chunk through a generator of its own: per subscriber a few dozen more objects for
    the collector to walk and a few more hops per event, which thousands of spectators pay
    for every event. This sends straight from the steps, and one task per stream listens for
    the client leaving."""

    def __init__(self, steps: Callable[[Write[bytes]], Steps]) -> None:
        super().__init__((), media_type=EVENT_STREAM, headers=HEADERS)
        self.steps = steps

    def to_asgi_response(
        self,
        app: Litestar | None,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        return _EventStreamResponse(
            self.steps,
            background=self.background or background,
            content_length=0,
            cookies=self.cookies if cookies is None else itertools.chain(self.cookies, cookies),
            encoded_headers=encoded_headers,
            headers={**headers, **self.headers} if headers is not None else self.headers,
            is_head_response=is_head_response,
            iterator=(),
            media_type=EVENT_STREAM,
            status_code=self.status_code or status_code,
        )


class _EventStreamResponse(ASGIStreamingResponse):
    __slots__ = ("steps",)

    def __init__(self, steps: Callable[[Write[bytes]], Steps], **options: Any) -> None:
        super().__init__(**options)
        self.steps = steps

    async def send_body(self, send: Send, receive: Receive) -> None:
        streaming = asyncio.current_task()
        assert streaming is not None
        left = False

        async def watch() -> None:
            nonlocal left
            while (await receive())["type"] != "http.disconnect":
                pass
            left = True
            streaming.cancel()

        async def write(frames: list[bytes]) -> None:
            # one batch (the usual step): its frame as it is, shared with the viewer's others
            await send(_body((frames[0] if len(frames) == 1 else b"".join(frames)) if frames else KEEPALIVE))

        watcher = asyncio.get_running_loop().create_task(watch())
        steps = self.steps(write)
        try:
            await send(_body(RETRY))
            async for frames in steps:
                await write(frames)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not left:
                raise
            streaming.uncancel()  # the client left: the stream is over, nothing failed
        finally:
            watcher.cancel()
            await steps.aclose()  # the follower lets go of its game


def _body(chunk: bytes) -> HTTPResponseBodyEvent:
    return {"type": "http.response.body", "body": chunk, "more_body": True}


route = Concern("live", sync_to_thread=None)
SERVER_SENT = {200: ResponseSpec(None, description="server-sent events", media_type=EVENT_STREAM)}
AFTER = QueryParameter(ge=0, le=INT64_MAX, description="resume after this version (the feed: this position)")


@route.get("/games/{game_id:str}/live", 400, 401, 404, answers=SERVER_SENT)
async def live_events(
    request: Request[Any, Any, Any],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
    after: Annotated[int | None, AFTER] = None,
) -> EventStream:
    """The game's events as server-sent events, redacted for the caller: first those after
    `Last-Event-ID` (or `after`, default from the start) read from the store, then each as
    it is recorded. Ends after the finishing event."""
    gid = parse_game_id(game_id)
    start = resume_after(request.headers.get("last-event-id"), after) or 0
    access = await asyncio.to_thread(game_access, chronicle, gid, token)  # 404 for no such game
    live: Live = request.app.state.live
    return EventStream(lambda write: live.games.follow(gid, access, start, sse_frame, push=write))


@websocket("/games/{game_id:str}/live")
async def live_socket(socket: WebSocket[Any, Any, Any], game_id: FromPath[str]) -> None:
    """The same stream over a WebSocket: one JSON text message per event (`?after=VERSION`
    resumes). A refusal closes the socket with code 4400, 4401 or 4404 and the problem's
    detail as the reason."""
    chronicle: Chronicle = socket.app.state.chronicle
    live: Live = socket.app.state.live
    await socket.accept()
    try:
        gid = parse_game_id(game_id)
        start = resume_after(None, _query_int(socket.query_params.get("after")))
        token = bearer_token(socket)
        access = await asyncio.to_thread(game_access, chronicle, gid, token)
    except ServiceError as error:
        await socket.close(code=4000 + error.status, reason=error.detail[:120])
        return

    async def send() -> None:
        async for frames in live.games.follow(gid, access, start or 0, socket_frame):
            for messages in frames:
                for message in messages:
                    await socket.send_text(message)
        await socket.close(code=1000, reason="the game is over")

    sender = asyncio.create_task(send())
    try:
        while not sender.done():
            receiving = asyncio.create_task(_receive(socket))
            done, _ = await asyncio.wait({receiving, sender}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                if receiving.result()["type"] == "websocket.disconnect":
                    break
            else:
                receiving.cancel()
        if sender.done():
            sender.result()
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await sender


async def _receive(socket: WebSocket[Any, Any, Any]) -> Any:
    return await socket.receive()


def _query_int(text: str | None) -> int | None:
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > INT64_MAX:
        raise InvalidRequest("after takes a version: a whole number.", code="invalid_after")
    return int(text)


@route.get("/live", 400, answers=SERVER_SENT)
async def live_feed(
    request: Request[Any, Any, Any],
    chronicle: NamedDependency[Chronicle],
    index: NamedDependency[GameIndex],
    after: Annotated[int | None, AFTER] = None,
) -> EventStream:
    """Every game's public summary as it changes (one `game` event per game that moved,
    its `id` the position in the store's sequence). Without `Last-Event-ID` or `after` it
    starts now, with a `position` event."""
    start = resume_after(request.headers.get("last-event-id"), after)
    live: Live = request.app.state.live

    async def steps(write: Write[bytes]) -> Steps:
        async for item in follow_feed(chronicle, index, live.fanout, start):
            if isinstance(item, int):
                yield [_sse(item, "position", _encode({"position": item}))]
            else:
                yield [_sse(s.position, "game", _encode(s)) for s in item]

    return EventStream(steps)


ROUTES = [live_events, live_socket, live_feed]
