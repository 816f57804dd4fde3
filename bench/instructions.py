"""Instructions the event loop's thread executes per recorded action, against the bare handler.

`bench/http_actions.py` times real servers, and on a shared two-core machine its figures move by
a fifth from one run to the next: a change worth a few percent cannot be seen there. This
counts instead, under valgrind's callgrind, the machine instructions each request costs, which
vary by well under one percent between runs. The application is called in process through
its ASGI interface (no socket, no uvicorn: the same for both sides), with `--games` tables
recording at once on an SQLite store, after each table's first `--warmup` actions; counting
starts and stops around the measured actions only (`callgrind_control`), each thread apart.

Printed: the event loop's thread (where every request is decided, and what limits the rate)
and all threads (the commit thread, the pollers), for our application and for the bare
handler of `bench/bare_app.py` given the same requests. Instructions are not time: our
requests touch more memory than the bare handler's, so the time ratio is worse than this one.

Needs valgrind (`apt-get install valgrind`).

    .venv/bin/python -m bench.instructions [--games 16] [--actions 40] [--warmup 5]
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from bench.http_actions import ADMIN, Game, bot_game, new_game


async def _create(app: Any, games: int) -> list[Game]:
    import httpx

    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {ADMIN}"}
    out = []
    async with httpx.AsyncClient(transport=transport, base_url="http://bench", headers=headers) as client:
        for i in range(games):
            seed, body = new_game(i)
            out.append(bot_game((await client.post("/games", json=body)).raise_for_status().json(), seed, i))
    return out


async def _request(app: Callable[..., Awaitable[None]], scope: dict[str, Any], body: bytes) -> None:
    """One request to `app`, its body whole at once; anything but a 201 stops the bench."""
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # the request is whole: nothing more comes
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(scope, receive, send)
    if status != [201]:
        raise RuntimeError(f"an unexpected answer: {status}")


def _table(app: Callable[..., Awaitable[None]], game: Game) -> Callable[[int, int], Awaitable[None]]:
    """Send the game's requests from `start` to `stop` to `app`, each answered before the next."""
    game_id, token, bodies = game
    path = f"/games/{game_id}/actions"
    headers = [(b"host", b"bench"), (b"authorization", f"Bearer {token}".encode())]
    headers.append((b"content-type", b"application/json"))

    async def play(start: int, stop: int) -> None:
        for body in bodies[start:stop]:
            data = msgspec.json.encode(body)
            scope = {
                "type": "http",
                "asgi": {"version": "3.0"},
                "http_version": "1.1",
                "method": "POST",
                "scheme": "http",
                "path": path,
                "raw_path": path.encode(),
                "query_string": b"",
                "root_path": "",
                "headers": [*headers, (b"content-length", str(len(data)).encode())],
                "client": ("127.0.0.1", 40000),
                "server": ("127.0.0.1", 80),
            }
            await _request(app, scope, data)

    return play


def _counting(on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], check=True, capture_output=True
    )


async def _child(side: str, games: int, warmup: int, actions: int) -> None:
    from api.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CHRONICLE_ADMIN_TOKEN"] = ADMIN
        os.environ["CHRONICLE_WRITE_LIMIT_ADDRESS"] = "100000000/minute"  # paid, never reached
        os.environ["CHRONICLE_WRITE_LIMIT_TOKEN"] = "100000000/minute"
        app = create_app(store=f"sqlite:///{tmp}/bench.sqlite3")
        async with app.lifespan():
            created = await _create(app, games)
            target: Any = app
            if side == "bare":
                from bench.bare_app import app as target
            tables = [_table(target, game) for game in created]
            await asyncio.gather(*(play(0, warmup) for play in tables))
            _counting(True)
            await asyncio.gather(*(play(warmup, warmup + actions) for play in tables))
            _counting(False)


def _count(side: str, args: argparse.Namespace) -> tuple[float, float]:
    """Instructions per request: the event loop's thread, and all threads."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--separate-threads=yes",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}/counts",
            sys.executable,
            "-m",
            "bench.instructions",
            "--child",
            side,
            "--games",
            str(args.games),
            "--actions",
            str(args.actions),
            "--warmup",
            str(args.warmup),
        ]
        subprocess.run(command, check=True, capture_output=True)
        totals = {}
        for path in glob.glob(f"{out}/counts-*"):
            with open(path) as file:
                for line in file:
                    if line.startswith("totals:"):
                        totals[path.rsplit("-", 1)[1]] = int(line.split()[1])
    requests = args.games * args.actions
    return totals["01"] / requests, sum(totals.values()) / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="tables recording at once")
    parser.add_argument("--actions", type=int, default=40, help="actions counted per table")
    parser.add_argument("--warmup", type=int, default=5, help="actions per table before counting")
    parser.add_argument("--child", choices=("ours", "bare"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import uvloop  # the servers' event loop (bench/common.py)

        uvloop.run(_child(args.child, args.games, args.warmup, args.actions))
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("bench.instructions: valgrind is not installed (apt-get install valgrind)")
    ours_loop, ours_all = _count("ours", args)
    bare_loop, bare_all = _count("bare", args)
    print(f"ours: {ours_loop:,.0f} instructions per action on the event loop, {ours_all:,.0f} in all threads")
    print(
        f"bare: {bare_loop:,.0f} instructions per request on the event loop, {bare_all:,.0f} in all threads"
    )
    print(
        f"bare / ours: {bare_loop / ours_loop:.3f} on the event loop, {bare_all / ours_all:.3f} in all "
        "threads (instructions, not time: bench.http_actions times them)"
    )


if __name__ == "__main__":
    main()
