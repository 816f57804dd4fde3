"""A load generator cheap enough not to be the limit: several client processes, each with its
own uvloop event loop and a hand-written HTTP/1.1 client over keep-alive connections.

Each table (one connection) plays its games' requests in order, one in flight at a time, as a
table recording a game would; the tables are dealt out to the processes. The requests are
encoded to bytes before the clock starts, and an answer is read by its status line and
Content-Length alone, so a request costs the client a write, a read and a few slices:
much less than an HTTP library's request objects (httpx spends more per request than the
bare handler does).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from typing import Any
from urllib.parse import urlsplit

import msgspec

# One table's work: its game id, its token and the request bodies, in the order to send them.
Game = tuple[str, str, list[dict[str, Any]]]


@dataclass(frozen=True)
class Load:
    """What one run of the load achieved: requests answered as expected, over what time, and
    what the client processes spent doing it."""

    requests: int
    seconds: float
    client_cpu_seconds: float
    processes: int

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def client_cpu_share(self) -> float:
        """The clients' CPU time as a share of the machine's (every core) over the run."""
        return self.client_cpu_seconds / (self.seconds * (os.cpu_count() or 1))


def encode(host: str, game_id: str, token: str, bodies: list[dict[str, Any]]) -> list[bytes]:
    head = (
        f"POST /games/{game_id}/actions HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
    ).encode()
    out = []
    for body in bodies:
        data = msgspec.json.encode(body)
        out.append(head + b"Content-Length: %d\r\n\r\n" % len(data) + data)
    return out


async def _table(host: str, port: int, requests: list[bytes], expect: bytes) -> tuple[int, str | None]:
    """Send `requests` one after another on one connection; the count answered with `expect`
    (a status code), and the first other answer, which stops the table."""
    reader, writer = await asyncio.open_connection(host, port)
    answered = 0
    try:
        for request in requests:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            if head[9:12] != expect:
                return answered, f"{head[:12].decode()} {body[:300].decode(errors='replace')}"
            answered += 1
    finally:
        writer.close()
    return answered, None


def _client(url: str, tables: list[list[bytes]], expect: bytes, ready: Any, go: Event, results: Any) -> None:
    import uvloop

    parsed = urlsplit(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 80

    async def run() -> tuple[int, str | None, float]:
        ready.put(None)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        answers = await asyncio.gather(*(_table(host, port, t, expect) for t in tables))
        failures = [f for _, f in answers if f is not None]
        return sum(n for n, _ in answers), (failures[0] if failures else None), time.monotonic()

    start = os.times()
    answered, failure, finished = uvloop.run(run())
    end = os.times()
    cpu = (end.user - start.user) + (end.system - start.system)
    results.put((answered, failure, finished, cpu))


def drive(url: str, games: Sequence[Game], processes: int, *, expect: int = 201, rounds: int = 1) -> Load:
    """Play every game at once, one connection each, the tables dealt round-robin to
    `processes` client processes; time from the common start to the last answer. With
    `rounds` above one each table sends its requests that many times over (for a server
    that does not keep the games, so that a fast one is timed over more than a moment)."""
    host = urlsplit(url).netloc
    tables = [encode(host, game_id, token, bodies) * rounds for game_id, token, bodies in games]
    context = multiprocessing.get_context("spawn")
    ready, results, go = context.Queue(), context.Queue(), context.Event()
    workers = [
        context.Process(
            target=_client, args=(url, tables[i::processes], str(expect).encode(), ready, go, results)
        )
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    try:
        for _ in workers:
            ready.get(timeout=60)
        started = time.monotonic()
        go.set()
        answers = [results.get() for _ in workers]
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
    failures = [a[1] for a in answers if a[1] is not None]
    if failures:
        raise RuntimeError(f"an unexpected answer: {failures[0]}")
    return Load(
        requests=sum(a[0] for a in answers),
        seconds=max(a[2] for a in answers) - started,
        client_cpu_seconds=sum(a[3] for a in answers),
        processes=processes,
    )
