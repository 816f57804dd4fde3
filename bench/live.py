"""Live delivery: subscribers spread over two server processes on one PostgreSQL and one
Redis, while actions are recorded at a steady rate through both.

Two uvicorn processes serve the same store with `CHRONICLE_REDIS` set; each subscriber follows
one of the games (public view, server-sent events) on one of the two; once every stream has
been answered, and two seconds more, the writers record bot actions at `--rate` per second in
all, alternating between the servers. A delivery's latency is the time from the write's answer
to the arrival of that action's last event at a subscriber (zero when it arrived first); every
arrival is counted, and so is every one missing. The servers' CPU per delivery is their CPU
time while the writers recorded (the writes and the stores' reads included) over the
deliveries: the figure a shared machine's noise moves least. The client reads its streams
through a bare protocol on uvloop, its garbage collector off while it measures: it must cost
less than the servers it measures.

The run measures twice on the same servers, each time on fresh games: first with
`--baseline` subscribers, then with `--subscribers`, and prints the second's figures with their
ratios to the first's (a shared machine's noise moves both). Then, in this process, the memory
one followed game holds (`store/live.py`: its aggregate, and what its last 16 refreshes showed
to a seat and to the public, as events and as server-sent events) after a whole Province game.

    .venv/bin/python -m bench.live [--subscribers 5000] [--baseline 1000] [--rate 100]
        [--seconds 10] [--games 20] [--store postgresql://...] [--redis redis://...]

Aims, at `--subscribers`: p99 delivery latency at most 100 ms, the write rate held (at least
95% of the rate asked); at most 100 KB per followed game.

Measured on a quiet 2-core machine, `.venv/bin/python -m bench.live`, two runs: at 5,000
subscribers p99 27.5 and 34.5 ms (aim met), 99 writes/s of 100, 250,000 deliveries of 250,000,
servers' CPU 35 and 36 us per delivery; at 1,000, p99 10.7 and 9.2 ms. This same client
against servers started from the commit before the changes below (fdb8a1c), on the same
quiet machine: p99 59.6 ms at 5,000, 41 us per delivery. (The 152.5 ms measured before
with the earlier client counted the subscribers' connecting as delivery: the writers now
start once every stream has been answered.) On a machine other benchmarks kept busy (load
average 6 to 7) latency and write rate move by half from run to run: p99 230.7 and 261.7 ms
at 5,000, 73 and 64 writes/s; the servers then got about a third of a core each.

What a spectator costs the servers: each followed game writes a batch to its caught-up streams
itself, in one pass, and each stream sends straight from its steps (store/live.py,
api/live.py), rather than a task woken per stream under Litestar's `Stream`. Against servers
started from the commit before that (fdb8a1c), in turns with this same client at 5,000
subscribers, four pairs on the busy machine: servers' CPU per delivery 38.4 us against 45.7 us
(0.84); p99 236 ms against 241 ms and 68 writes/s against 66, within that noise. What is left per
delivery is mostly the kernel's write to the socket (py-spy: four fifths of the fan-out).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import tempfile
import time
import tracemalloc
from contextlib import ExitStack
from typing import Any, NamedTuple
from urllib.parse import urlparse
from uuid import UUID, uuid4

import httpx
import psycopg
import uvloop

from bench.common import server_cpu_seconds, uvicorn_server
from bench.http_actions import ADMIN, create_games
from domain.ruleset import get_ruleset
from store.app import ANONYMOUS, RECORDER, Access, Chronicle, NewGame, Recorded

POSTGRES = os.environ.get("CHRONICLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CHRONICLE_TEST_REDIS", "redis://127.0.0.1:6379/0")
AIM_P99_MS = 100.0
AIM_RATE_HELD = 0.95
AIM_GAME_KB = 100.0


class Subscriber:
    """One server-sent events connection, read with a bare protocol (the client must not be
    the bottleneck: each chunk is taken as the loop reads it, no task woken per arrival): the
    arrival time of every event id."""

    def __init__(self, url: str, game: int, game_id: str, after: int) -> None:
        self.url, self.game, self.game_id, self.after = url, game, game_id, after
        self.arrived: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None

    async def run(self, ready: asyncio.Event) -> None:
        parsed = urlparse(self.url)
        assert parsed.hostname is not None and parsed.port is not None
        loop = asyncio.get_running_loop()
        closed: asyncio.Future[None] = loop.create_future()
        transport, _ = await loop.create_connection(
            lambda: _Arrivals(self.arrived, ready, closed), parsed.hostname, parsed.port
        )
        request = (
            f"GET /games/{self.game_id}/live?after={self.after} HTTP/1.1\r\nHost: {parsed.netloc}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        transport.write(request.encode())
        try:
            await closed
        finally:
            ready.set()
            transport.close()


class _Arrivals(asyncio.Protocol):
    def __init__(self, arrived: dict[int, float], ready: asyncio.Event, closed: asyncio.Future[None]) -> None:
        self.arrived, self.ready, self.closed = arrived, ready, closed
        self.pending = b""

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ready.set()  # answered (a refusal is counted missing)
        lines = (self.pending + data).split(b"\n")
        self.pending = lines.pop()
        for line in lines:
            if line.startswith(b"id: "):
                self.arrived.setdefault(int(line[4:]), now)

    def connection_lost(self, exc: Exception | None) -> None:
        self.ready.set()
        if not self.closed.done():
            self.closed.set_result(None)


async def write(
    urls: list[str], games: list[tuple[str, str, list[dict[str, Any]]]], rate: float, seconds: float
) -> list[tuple[int, int, float]]:
    """Record bot actions at `rate` per second in all (each game at its share), alternating
    servers; (game, version answered, time of the answer) of each."""
    answered: list[tuple[int, int, float]] = []
    per_game = rate / len(games)
    clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in urls]
    started = time.perf_counter()

    async def play(index: int) -> None:
        game_id, token, requests = games[index]
        headers = {"Authorization": f"Bearer {token}"}
        for k, body in enumerate(requests):
            due = started + (k + random.random()) / per_game
            if due - started > seconds:
                return
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            client = clients[(index + k) % len(clients)]
            answer = await client.post(f"/games/{game_id}/actions", json=body, headers=headers)
            if answer.status_code != 201:
                raise RuntimeError(f"{answer.status_code}: {answer.text}")
            answered.append((index, answer.json()["version"], time.perf_counter()))

    try:
        await asyncio.gather(*(play(i) for i in range(len(games))))
    finally:
        for client in clients:
            await client.aclose()
    return answered


async def follow_and_write(
    urls: list[str], games: list[tuple[str, str, list[dict[str, Any]]]], args: argparse.Namespace
) -> tuple[list[Subscriber], list[tuple[int, int, float]], float, float]:
    versions = []
    async with httpx.AsyncClient(timeout=30) as client:
        for game_id, _, _ in games:
            versions.append((await client.get(f"{urls[0]}/games/{game_id}")).json()["version"])
    subscribers = [
        Subscriber(urls[i % len(urls)], i % len(games), games[i % len(games)][0], versions[i % len(games)])
        for i in range(args.subscribers)
    ]
    readies = []
    for subscriber in subscribers:
        ready = asyncio.Event()
        readies.append(ready)
        subscriber.task = asyncio.create_task(subscriber.run(ready))
    # Every stream answered, then caught up and waiting: on a busy machine thousands of
    # subscribers take seconds to be let in, which must not be measured as delivery.
    await asyncio.gather(*(r.wait() for r in readies))
    await asyncio.sleep(2.0)
    before = sum(server_cpu_seconds(url) for url in urls)
    started = time.perf_counter()
    answered = await write(urls, games, args.rate, args.seconds)
    elapsed = time.perf_counter() - started
    server_cpu = sum(server_cpu_seconds(url) for url in urls) - before
    await asyncio.sleep(2.0)  # the last deliveries
    for subscriber in subscribers:
        assert subscriber.task is not None
        subscriber.task.cancel()
    await asyncio.gather(*(s.task for s in subscribers if s.task is not None), return_exceptions=True)
    return subscribers, answered, elapsed, server_cpu


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def memory_per_followed_game() -> tuple[float, float, int]:
    """KB one followed game holds after a whole seeded Province game recorded live, KB of it
    its newest aggregate, and the game's events."""
    from api.live import sse_frame
    from store.fanout import Fanout
    from store.live import LiveGames

    with tempfile.TemporaryDirectory() as tmp:
        chronicle = Chronicle(f"sqlite:///{tmp}/memory.sqlite3", admin_token=ADMIN)
        try:
            ruleset = get_ruleset("province")
            assert ruleset is not None
            new = NewGame("province", ["Ann", "Ben"], server_seed=bytes(32).hex())
            game_id = UUID(chronicle.create_game(new, admin=True).game_id)
            public_and_seat = [ANONYMOUS, Access("seat", "A")]

            async def run() -> tuple[float, float]:
                games = LiveGames(chronicle, Fanout(chronicle))
                tracemalloc.start()
                live = await games.open(game_id)
                bot = random.Random(1)
                while True:
                    game = chronicle.game(game_id)
                    if game.outcome is not None:
                        break
                    seat = ruleset.pending(game.state)[0].seat
                    legal = ruleset.legal_actions(game.state, seat)
                    action = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
                    answer: Recorded = chronicle.record(
                        game_id, ruleset.codec.encode(action), RECORDER, seat=seat
                    )
                    assert answer.version
                    await live.refresh()
                    for access in public_and_seat:
                        live.batches[-1].framed(access, sse_frame)
                del game
                # what the followed game holds: measured by letting go of it (the aggregate of
                # its newest batch, then everything)
                gc.collect()
                with_all = tracemalloc.get_traced_memory()[0]
                live.batches[-1].retire()
                gc.collect()
                without_aggregate = tracemalloc.get_traced_memory()[0]
                games.close(live)
                live.batches.clear()
                gc.collect()
                without_all = tracemalloc.get_traced_memory()[0]
                tracemalloc.stop()
                return (with_all - without_all) / 1024, (with_all - without_aggregate) / 1024

            held, aggregate = asyncio.run(run())
            return held, aggregate, chronicle.game(game_id).version
        finally:
            chronicle.close()


class Figures(NamedTuple):
    subscribers: int
    actions: int
    seconds: float
    deliveries: int
    missing: int
    p50: float
    p99: float
    mean: float
    server_cpu: float  # seconds, both server processes, while the writers recorded

    @property
    def cpu_per_delivery_us(self) -> float:
        return self.server_cpu / max(1, self.deliveries) * 1e6

    @property
    def rate(self) -> float:
        return self.actions / self.seconds


def measure(urls: list[str], args: argparse.Namespace, subscribers: int) -> Figures:
    """One measurement on fresh games: `subscribers` follow while the writers record."""
    games = create_games(urls[0], args.games)
    # The measuring client must not pause: its collector would stop every arrival at once
    # and count the pause as the servers' latency.
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        run = argparse.Namespace(**{**vars(args), "subscribers": subscribers})
        followers, answered, elapsed, server_cpu = uvloop.run(follow_and_write(urls, games, run))
    finally:
        gc.enable()
        gc.unfreeze()
    latencies, missing = [], 0
    by_game: dict[int, list[Subscriber]] = {}
    for subscriber in followers:
        by_game.setdefault(subscriber.game, []).append(subscriber)
    for game, version, at in answered:
        for subscriber in by_game.get(game, []):
            arrived = subscriber.arrived.get(version)
            if arrived is None:
                missing += 1
            else:
                latencies.append(max(0.0, arrived - at) * 1000)
    return Figures(
        subscribers,
        len(answered),
        elapsed,
        len(latencies),
        missing,
        percentile(latencies, 50),
        percentile(latencies, 99),
        statistics.fmean(latencies or [0]),
        server_cpu,
    )


def report(figures: Figures, args: argparse.Namespace) -> None:
    print(
        f"{figures.subscribers} subscribers on 2 processes: {figures.actions} actions in "
        f"{figures.seconds:.1f} s ({figures.rate:.0f}/s, asked {args.rate:.0f}/s) over {args.games} games; "
        f"deliveries {figures.deliveries:,}, missing {figures.missing:,}; latency p50 {figures.p50:.1f} ms, "
        f"p99 {figures.p99:.1f} ms, mean {figures.mean:.1f} ms; servers' CPU "
        f"{figures.cpu_per_delivery_us:.0f} us per delivery (writes and reads included)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=5000)
    parser.add_argument("--baseline", type=int, default=1000, help="subscribers of the first measurement")
    parser.add_argument("--rate", type=float, default=100.0, help="actions per second, in all")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--store", help="a PostgreSQL URL (default: a fresh schema of the test database)")
    parser.add_argument("--redis", default=REDIS)
    args = parser.parse_args()
    with ExitStack() as stack:
        store = args.store
        if store is None:
            schema = f"bench_{uuid4().hex[:12]}"
            with psycopg.connect(POSTGRES, autocommit=True) as connection:
                connection.execute(f'CREATE SCHEMA "{schema}"')

            def drop() -> None:
                with psycopg.connect(POSTGRES, autocommit=True) as connection:
                    connection.execute(f'DROP SCHEMA "{schema}" CASCADE')

            stack.callback(drop)
            store = f"{POSTGRES}?schema={schema}"
        env = {
            "CHRONICLE_STORE": store,
            "CHRONICLE_REDIS": args.redis,
            "CHRONICLE_ADMIN_TOKEN": ADMIN,
            "CHRONICLE_PROJECTIONS": "external",
            "CHRONICLE_WRITE_LIMIT_TOKEN": "off",
            "CHRONICLE_WRITE_LIMIT_ADDRESS": "off",
        }
        urls = [stack.enter_context(uvicorn_server("api.asgi:app", env)) for _ in range(2)]
        baseline = measure(urls, args, args.baseline)
        report(baseline, args)
        target = measure(urls, args, args.subscribers)
        report(target, args)
    held_kb, aggregate_kb, events = memory_per_followed_game()
    print(
        f"at {target.subscribers} subscribers: p99 {target.p99:.1f} ms (aim <= {AIM_P99_MS:.0f} ms), "
        f"{target.p99 / baseline.p99:.2f}x the p99 at {baseline.subscribers}; mean {target.mean:.1f} ms, "
        f"{target.mean / baseline.mean:.2f}x"
    )
    print(
        f"at {target.subscribers} subscribers: write rate {target.rate:.0f}/s, {target.rate / args.rate:.2f} "
        f"of the rate asked (aim >= {AIM_RATE_HELD}), {target.rate / baseline.rate:.2f}x the rate at "
        f"{baseline.subscribers}; delivered {target.deliveries:,} of "
        f"{target.deliveries + target.missing:,}"
    )
    print(
        f"memory per followed game: {held_kb:.0f} KB after {events} events, {aggregate_kb:.0f} KB of it "
        f"the aggregate (aim <= {AIM_GAME_KB:.0f} KB)"
    )


if __name__ == "__main__":
    main()
