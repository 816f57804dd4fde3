"""Helpers shared by the benchmark scripts: servers on free ports, a bot, timing."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from domain.ruleset import Command, GameConfig, Rejection, Ruleset


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# each running server's process id, by its URL (`server_cpu_seconds`)
SERVER_PIDS: dict[str, int] = {}


def server_cpu_seconds(url: str) -> float:
    """The CPU time the server process at `url` has used so far, every thread of it (Linux)."""
    with open(f"/proc/{SERVER_PIDS[url]}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def uvicorn_server(app: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real server process with the settings both sides of a comparison share."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            app,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/health", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"{app} did not start") from None
                time.sleep(0.1)
        SERVER_PIDS[url] = process.pid
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        process.terminate()
        process.wait(timeout=10)


def bot_playout(
    ruleset: Ruleset[Any, Any, Any], config: GameConfig, rng: Any, seed: int
) -> list[tuple[Any, str | None]]:
    """The actions a seeded bot plays in one game, computed from the rules alone."""
    bot = random.Random(seed)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, rng):
        state = ruleset.evolve(state, fact)
    played: list[tuple[Any, str | None]] = []
    while ruleset.outcome(state) is None:
        seat = ruleset.pending(state)[0].seat
        action = bot.choice(ruleset.legal_actions(state, seat))
        facts = ruleset.decide(state, Command(action, seat, "recorder"), rng)
        assert not isinstance(facts, Rejection), facts
        for fact in facts:
            state = ruleset.evolve(state, fact)
        played.append((action, seat))
    return played


def ratio_line(name: str, value: float, unit: str, baseline: float, aim: str) -> str:
    ratio = value / baseline
    return f"{name}: {value:,.1f} {unit}; baseline {baseline:,.1f} {unit}; ratio {ratio:.2f} (aim {aim})"
