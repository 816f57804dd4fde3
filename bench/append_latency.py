"""Append latency at event 10 and at event 5,000 of one stream, and their ratio.

One Province game is kept going (each turn one worker moved onto a labor space, then the turn
ended: no building, so nothing ends it) until the stream passes 5,000 events. Latency is the
median time of `Chronicle.record` (load, decide, append the action with its facts) over the
appends around each point. The aim is a ratio of at most 1.3: an append must not replay the
whole stream.

    .venv/bin/python -m bench.append_latency [--store URL]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any
from uuid import UUID

from store.app import RECORDER, Chronicle, NewGame

WINDOW = 40


def long_game_action(game: Any) -> dict[str, Any]:
    legal = game.ruleset.legal_actions(game.state, None)
    encoded: list[dict[str, Any]] = [game.ruleset.codec.encode(a) for a in legal]
    moves = [a for a in encoded if a["kind"] == "MoveWorker" and a["piece"] == "green"]
    if moves:  # a labor space is right or left of where the piece stands (top -> right -> left)
        labor = [m for m in moves if m["from"] in ("top", "right")]
        return (labor or moves)[0]
    return next(a for a in encoded if a["kind"] == "EndTurn")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = Chronicle(args.store or f"sqlite:///{tmp}/latency.sqlite3")
        created = app.create_game(NewGame("province", ["Ann", "Ben"]))
        game_id = UUID(created.game_id)
        timings: dict[int, float] = {}
        version = created.version
        while version < 5000 + WINDOW * 3:
            game = app.game(game_id)
            action = long_game_action(game)
            started = time.perf_counter()
            recorded = app.record(game_id, action, RECORDER)
            timings[version] = time.perf_counter() - started
            version = recorded.version
        app.close()

    def around(target: int) -> float:
        near = sorted(timings, key=lambda v: abs(v - target))[:WINDOW]
        return statistics.median(timings[v] for v in near) * 1e3

    early, late = around(10), around(5000)
    print(f"append latency near event 10: {early:.3f} ms (median of {WINDOW} appends)")
    print(f"append latency near event 5,000: {late:.3f} ms (median of {WINDOW} appends)")
    print(f"ratio late/early: {late / early:.2f} (aim <= 1.3)")


if __name__ == "__main__":
    main()
