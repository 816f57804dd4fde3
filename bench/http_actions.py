"""Actions recorded per second through HTTP, against a bare Litestar POST handler.

Both servers run as real uvicorn processes with the same settings (one worker, uvloop,
httptools); the same load (bench/load.py) sends the same request bodies to each. Our figure:
Province games on an SQLite store, each action validated, appended with its facts and
answered. The ratio to the bare handler is the figure that matters; the aim is at least 0.25.

The load is `--games` tables at once, one connection each playing its game's first
`--actions` actions in order, dealt to `--processes` client processes that each run their own
event loop and a hand-written HTTP/1.1 client (bench/load.py). The bare handler is measured
with that many processes and with one more: when the extra process does not raise the bare
rate, and the clients' share of the machine's CPU (printed beside each rate) stays small, the
client is not what limits it. The bare handler keeps no games, so it is sent the same
requests `--rounds` times over, to be timed over seconds rather than a moment. On a two-core
machine the server and the clients share the cores, so more client processes than cores only
add scheduling: one process per core is the default. The best of the two bare rates is the
baseline.

The two servers run side by side and are measured in turn, `--pairs` times: our server on
fresh tables, then the bare handler. On a shared machine the speed of the cores drifts by a
fifth and more within a minute, so each pair's ratio compares rates measured seconds apart,
and the pair with the median ratio is the result.

Beside each rate: the server process's CPU time per request (every thread of it; our commits'
writer process is apart) and how busy that made it over the run. A server busy all the time is
limited by its CPU alone; the share it is not busy, our server spends waiting for commits.

    .venv/bin/python -m bench.http_actions [--games 32] [--actions 300] [--processes 2]
        [--rounds 4] [--pairs 3]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
from typing import Any

import httpx

from bench.common import bot_playout, ratio_line, server_cpu_seconds, uvicorn_server
from bench.load import Load, drive
from domain.rng import SeededRng
from domain.ruleset import GameConfig, Seat, get_ruleset, resolve_options

ADMIN = "bench-admin-token"


Game = tuple[str, str, list[dict[str, Any]]]  # its id, its recorder's token, the requests to send


def new_game(i: int) -> tuple[bytes, dict[str, Any]]:
    """The `i`th bench game's fixed seed and the body that creates it."""
    seed = hashlib.sha256(f"bench:{i}".encode()).digest()
    return seed, {"ruleset": "province", "players": ["Ann", "Ben"], "server_seed": seed.hex()}


def bot_game(created: dict[str, Any], seed: bytes, i: int) -> Game:
    """A created game (the answer to `POST /games`) with its bot playout's requests."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {})
    assert isinstance(options, dict)
    config = GameConfig(
        created["game_id"], "province", "digital", (Seat("A", "Ann"), Seat("B", "Ben")), options
    )
    played = bot_playout(ruleset, config, SeededRng(seed, config.game_id), i)
    requests = [{"action": ruleset.codec.encode(a), "seat": seat} for a, seat in played]
    return created["game_id"], created["recorder_token"], requests


def create_games(url: str, games: int) -> list[Game]:
    """Create the games over HTTP with fixed seeds, and work out each one's bot playout."""
    out = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {ADMIN}"}) as client:
        for i in range(games):
            seed, body = new_game(i)
            out.append(bot_game(client.post("/games", json=body).raise_for_status().json(), seed, i))
    return out


def describe(load: Load, server_cpu: float) -> str:
    return (
        f"{load.rate:,.1f} actions/s ({load.requests} in {load.seconds:.2f} s, "
        f"{load.processes} client processes using {load.client_cpu_share:.0%} of the CPU); "
        f"server: {server_cpu / load.requests * 1e6:,.0f} us of CPU per request, "
        f"busy {server_cpu / load.seconds:.0%} of the run"
    )


def measured(url: str, games: list[Game], processes: int, rounds: int = 1) -> tuple[Load, float]:
    """The load driven at the server at `url`, and the CPU time the server spent meanwhile."""
    before = server_cpu_seconds(url)
    load = drive(url, games, processes, rounds=rounds)
    return load, server_cpu_seconds(url) - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="tables recording at once")
    parser.add_argument("--actions", type=int, default=300, help="actions sent per game, at most")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 2, help="client processes")
    parser.add_argument("--rounds", type=int, default=4, help="times the bare handler gets the same load")
    parser.add_argument("--pairs", type=int, default=3, help="times each server is measured, in turn")
    args = parser.parse_args()
    pairs: list[tuple[tuple[Load, float], list[tuple[Load, float]]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "CHRONICLE_STORE": f"sqlite:///{tmp}/bench.sqlite3",
            "CHRONICLE_ADMIN_TOKEN": ADMIN,
            # The whole load comes from one address at more than a table's pace: the limits
            # are raised out of its way, not turned off, so that their counting is still paid.
            "CHRONICLE_WRITE_LIMIT_ADDRESS": "100000000/minute",
            "CHRONICLE_WRITE_LIMIT_TOKEN": "100000000/minute",
        }
        with uvicorn_server("api.asgi:app", env) as url, uvicorn_server("bench.bare_app:app") as bare_url:
            tables = [
                [(g, t, bodies[: args.actions]) for g, t, bodies in create_games(url, args.games)]
                for _ in range(args.pairs)
            ]
            for number, games in enumerate(tables, 1):
                ours = measured(url, games, args.processes)
                counts = (args.processes, args.processes + 1)
                bare = [measured(bare_url, games, n, args.rounds) for n in counts]
                pairs.append((ours, bare))
                rate, baseline = ours[0].rate, best(bare).rate
                shown = f"ours {rate:,.1f} actions/s, bare {baseline:,.1f}"
                print(f"pair {number}: {shown}, ratio {rate / baseline:.2f}")
    pairs.sort(key=lambda pair: pair[0][0].rate / best(pair[1]).rate)
    ours, bare = pairs[len(pairs) // 2]
    print(f"the pair of the median ratio, of {len(pairs)}:")
    print(f"ours: {describe(*ours)}, {args.games} games at once")
    for load, cpu in bare:
        print(f"bare: {describe(load, cpu)}")
    print(ratio_line("HTTP actions recorded", ours[0].rate, "actions/s", best(bare).rate, ">= 0.25"))


def best(bare: list[tuple[Load, float]]) -> Load:
    return max(bare, key=lambda measure: measure[0].rate)[0]


if __name__ == "__main__":
    main()
