"""Actions recorded per second through HTTP, against a bare Litestar POST handler.

Both servers run as real uvicorn processes with the same settings (one worker, uvloop,
httptools); the same client sends the same request bodies to each. Our figure: Province games
on an SQLite store, each action validated, appended with its facts and answered. The ratio to
the bare handler is the figure that matters; the aim is at least 0.3.

    .venv/bin/python -m bench.http_actions [--games 16] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import tempfile
import time
from typing import Any

import httpx

from bench.common import bot_playout, ratio_line, uvicorn_server
from domain.rng import SeededRng
from domain.ruleset import GameConfig, Seat, get_ruleset, resolve_options

ADMIN = "bench-admin-token"


def create_games(url: str, games: int) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Create the games over HTTP with fixed seeds, and work out each one's bot playout."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {})
    assert isinstance(options, dict)
    out = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {ADMIN}"}) as client:
        for i in range(games):
            seed = hashlib.sha256(f"bench:{i}".encode()).digest()
            body = {"ruleset": "province", "players": ["Ann", "Ben"], "server_seed": seed.hex()}
            created = client.post("/games", json=body).raise_for_status().json()
            config = GameConfig(
                created["game_id"], "province", "digital", (Seat("A", "Ann"), Seat("B", "Ben")), options
            )
            played = bot_playout(ruleset, config, SeededRng(seed, config.game_id), i)
            requests = [{"action": ruleset.codec.encode(a), "seat": seat} for a, seat in played]
            out.append((created["game_id"], created["recorder_token"], requests))
    return out


async def drive(
    url: str, games: list[tuple[str, str, list[dict[str, Any]]]], clients: int
) -> tuple[int, float]:
    queue: asyncio.Queue[tuple[str, str, list[dict[str, Any]]]] = asyncio.Queue()
    for game in games:
        queue.put_nowait(game)
    sent = 0

    async def client_loop() -> None:
        nonlocal sent
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            while not queue.empty():
                game_id, token, requests = queue.get_nowait()
                headers = {"Authorization": f"Bearer {token}"}
                for body in requests:
                    response = await client.post(f"/games/{game_id}/actions", json=body, headers=headers)
                    if response.status_code != 201:
                        raise RuntimeError(f"{response.status_code}: {response.text}")
                    sent += 1

    started = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(clients)))
    return sent, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CHRONICLE_STORE": f"sqlite:///{tmp}/bench.sqlite3", "CHRONICLE_ADMIN_TOKEN": ADMIN}
        with uvicorn_server("api.asgi:app", env) as url:
            games = create_games(url, args.games)
            sent, seconds = asyncio.run(drive(url, games, args.clients))
        ours = sent / seconds
        with uvicorn_server("bench.bare_app:app") as url:
            sent_bare, seconds_bare = asyncio.run(drive(url, games, args.clients))
        bare = sent_bare / seconds_bare
    print(
        f"province actions recorded: {sent} in {seconds:.2f} s "
        f"over {args.games} games, {args.clients} clients"
    )
    print(ratio_line("HTTP actions recorded", ours, "actions/s", bare, ">= 0.3"))


if __name__ == "__main__":
    main()
