"""Append latency at event 10 and at event 5,000 of one stream, and their ratio.

One Province game is kept going (each turn one worker moved onto a labor space, then the turn
ended: no building, so nothing ends it) until the stream nears 5,000 events. Then its next
appends alternate with appends to fresh games, each near its 10th event. Latency is the
median time of `Chronicle.record` (load, decide, append the action with its facts) over the
appends at each point; each of `--rounds` rounds plays its own games in its own store, and the
figure is the median of the rounds. The aim is a ratio of at most 1.1: an append must not
replay, read or copy the whole stream.

    .venv/bin/python -m bench.append_latency [--store URL] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any
from uuid import UUID

from bench.common import ratio_line
from store.app import RECORDER, Chronicle, NewGame

WINDOW = 40  # appends measured at each point are 2 * WINDOW
SHORT = 4  # appends to each fresh game: the 4th still lands near its 10th event


def long_game_action(game: Any) -> dict[str, Any]:
    legal = game.ruleset.legal_actions(game.state, None)
    encoded: list[dict[str, Any]] = [game.ruleset.codec.encode(a) for a in legal]
    moves = [a for a in encoded if a["kind"] == "MoveWorker" and a["piece"] == "green"]
    if moves:  # a labor space is right or left of where the piece stands (top -> right -> left)
        labor = [m for m in moves if m["from"] in ("top", "right")]
        return (labor or moves)[0]
    return next(a for a in encoded if a["kind"] == "EndTurn")


def append(app: Chronicle, game_id: UUID) -> float:
    """Seconds one `Chronicle.record` of the next action takes."""
    action = long_game_action(app.game(game_id))
    started = time.perf_counter()
    app.record(game_id, action, RECORDER)
    return time.perf_counter() - started


def one_round(url: str) -> tuple[float, float]:
    """The median append near event 10 and near event 5,000, in ms. The long game is written
    first; then appends to it alternate with appends to fresh games near their 10th event, so
    that the disk and the machine's load weigh on both sides alike (a commit's fsync is most
    of an append, and it varies over a run far more than the stream's length could make it)."""
    app = Chronicle(url)
    try:
        long_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id)
        while app.game(long_id).version < 5000 - WINDOW:
            append(app, long_id)
        early: list[float] = []
        late: list[float] = []
        short_id = long_id
        for index in range(WINDOW * 2):
            if index % SHORT == 0:
                short_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id)
            early.append(append(app, short_id))
            late.append(append(app, long_id))
        return statistics.median(early) * 1e3, statistics.median(late) * 1e3
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--store", default=None, help="one store for every round (default: a fresh SQLite store each)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds: list[tuple[float, float]] = []
    for index in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            early, late = one_round(args.store or f"sqlite:///{tmp}/latency.sqlite3")
        rounds.append((early, late))
        print(f"round {index + 1}: near event 10 {early:.3f} ms, near event 5,000 {late:.3f} ms")
    ratios = [late / early for early, late in rounds]
    print(
        ratio_line(
            f"append latency near event 5,000 (median of {args.rounds} rounds)",
            statistics.median(late for _, late in rounds) * 1e3,
            "µs",
            statistics.median(early for early, _ in rounds) * 1e3,
            "<= 1.1",
        )
    )
    print(
        f"median of the rounds' ratios: {statistics.median(ratios):.2f} "
        f"({', '.join(f'{r:.2f}' for r in ratios)}; aim <= 1.1)"
    )


if __name__ == "__main__":
    main()
