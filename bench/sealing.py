"""What sealing the secrets costs, and what encrypting every event would cost instead.

1. Games created per second (each stores its sealed secrets) on an SQLite store, against the
   same with the secrets stored plain (the mapper's cipher taken away), alternating rounds.
2. One finished Dominion game's stored events mapped back to event objects as stored now (plain
   JSON), against the same events had the library's cipher encrypted every one of them.
3. The statistics' fold straight from the stored JSON (projections/game_stats.py), which an
   encrypted stream rules out, against mapping the encrypted rows as in (2).

    .venv/bin/python -m bench.sealing
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.cryptography import AESCipher
from eventsourcing.persistence import Mapper
from eventsourcing.utils import Environment

from bench.common import ratio_line
from domain.ruleset import get_ruleset
from projections.game_stats import fold_rows
from store.app import Chronicle, NewGame
from store.sealing import SealingMapper
from store.simulation import play

ROUNDS = 5
GAMES_PER_ROUND = 40
REPEAT = 20


def create_rate(app: Chronicle, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        app.create_game(NewGame("province", ["Ann", "Ben"]))
    return count / (time.perf_counter() - started)


def best_seconds(work: Callable[[], Any]) -> float:
    runs = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(REPEAT):
            work()
        runs.append((time.perf_counter() - started) / REPEAT)
    return min(runs)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = Chronicle(f"sqlite:///{tmp}/sealing.sqlite3")
        mapper = app.mapper
        assert isinstance(mapper, SealingMapper) and mapper.sealer is not None
        sealer = mapper.sealer
        sealed_rate = plain_rate = 0.0
        for _ in range(ROUNDS):
            mapper.sealer = sealer
            sealed_rate = max(sealed_rate, create_rate(app, GAMES_PER_ROUND))
            mapper.sealer = None
            plain_rate = max(plain_rate, create_rate(app, GAMES_PER_ROUND))
        mapper.sealer = sealer

        ruleset = get_ruleset("dominion")
        assert ruleset is not None
        game_id: UUID = play(app, ruleset, "sealing", 0, ["Ann", "Ben"], {}, 20_000).game_id
        stored = app.recorder.select_events(game_id)
        everything = Mapper[UUID](
            transcoder=mapper.transcoder,
            cipher=AESCipher(Environment(env={"CIPHER_KEY": AESCipher.create_key(32)})),
        )
        encrypted = [everything.to_stored_event(mapper.to_domain_event(e)) for e in stored]
        rows = [(e.topic, e.state) for e in stored]
        as_stored = best_seconds(lambda: [mapper.to_domain_event(e) for e in stored])
        all_encrypted = best_seconds(lambda: [everything.to_domain_event(e) for e in encrypted])
        direct = best_seconds(lambda: fold_rows(rows, game_id))
        app.close()

    per_event = 1e6 / len(stored)
    print(ratio_line("games created, secrets sealed", sealed_rate, "games/s", plain_rate, "about 1"))
    print(f"one finished Dominion game, {len(stored)} events, mapped back to event objects:")
    print(f"  as stored (plain JSON): {as_stored * per_event:.1f} us/event")
    print(
        f"  had every event been encrypted: {all_encrypted * per_event:.1f} us/event; "
        f"ratio {all_encrypted / as_stored:.2f} to as stored"
    )
    print(
        f"  the statistics' direct fold of the plain rows: {direct * per_event:.1f} us/event; "
        f"encrypted mapping is {all_encrypted / direct:.2f} times that"
    )


if __name__ == "__main__":
    main()
