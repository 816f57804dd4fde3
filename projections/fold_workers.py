"""Folding finished games in worker processes, for a rebuild of a large store.

A rebuild's time goes mostly to folding games (each fact decoded and folded through the
ruleset), and one game's fold depends on no other: worker processes each read a game's rows
from the store file and fold it, and the parent records the games in the order they finished,
exactly as one process would (a player's rating depends on the games before), each worker's
statistics already encoded as the view stores them (`views.game_row`).

Only where it is cheap and safe, else the caller folds in its own process:

- an SQLite store in a file whose events are plain JSON: a worker reads a game's rows with a
  connection of its own, the query of `game_stats.stored_rows`;
- a process running no other thread: the workers are forked, with the modules and rulesets
  loaded already (a fresh interpreter takes half a second to import them), and a fork copies
  no other thread, whose locks it could find held. The server's rebuild in the background, on
  a thread of its own, folds in its process;
- more than one core, and enough games to pay for starting the workers (`FROM_GAMES`).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import sqlite3
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any
from uuid import UUID

from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.ruleset import all_rulesets
from projections.game_stats import fold_rows, plain_rows
from projections.views import GameRow, game_row
from store.config import sqlite_file

log = logging.getLogger("chronicle.projections")

# Fewer finished games to count are folded in the caller's process. From 16 games the workers
# pay for their start (`bench.projections --games 4,8,16,20,40 --turns 3`, idle cores: 0.62 at
# 16 games with them, 0.46 without); below, a rebuild takes milliseconds, mostly opening and
# closing the view, and they do not (0.36 to 0.47 with them or without).
FROM_GAMES = 16
MAX_WORKERS = 8
AHEAD = 16  # games handed to each worker ahead of the one waited for


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Folders:
    """Worker processes folding the games of one SQLite store file. A worker that dies (killed,
    out of memory) breaks the pool: the rebuild stops with `BrokenProcessPool` rather than wait
    for its game forever."""

    def __init__(self, path: str, table: str, workers: int) -> None:
        all_rulesets()  # every ruleset loaded once, here, rather than in each worker
        self.workers = workers
        # Forked all at once on the first game handed out, before the pool starts its thread.
        self.pool = ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_start,
            initargs=(path, table),
        )

    def fold(self, games: Iterable[tuple[UUID, int]]) -> Iterator[tuple[int, GameRow | None]]:
        """Each game's position and row (None when it is left out), in the order of `games`,
        (id, position) each. `games` is read as the workers need more: up to `AHEAD` games a
        worker are handed out before the first of them is waited for."""
        pending: deque[Future[tuple[int, GameRow | None]]] = deque()
        for game_id, position in games:
            pending.append(self.pool.submit(_fold, (game_id.hex, position)))
            if len(pending) >= AHEAD * self.workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def default_workers(games: int) -> int:
    """The processes that fold `games` finished games by default: one per core (1: none)."""
    return min(usable_cores(), MAX_WORKERS) if games >= FROM_GAMES else 1


def _alone() -> bool:
    """Whether this process runs no other thread (a fork copies only the calling one)."""
    return threading.active_count() == 1


def folders(app: Any, games: int, workers: int | None) -> Folders | None:
    """Workers to fold `games` finished games of `app`'s store, or None where the caller
    folds them itself. `workers` asks for that many processes (1: none); None lets the
    cores decide."""
    if workers is None:
        workers = default_workers(games)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods() or not _alone():
        return None
    recorder, path = app.recorder, sqlite_file(app.url)
    if not isinstance(recorder, SQLiteAggregateRecorder) or path is None or not path.is_file():
        return None
    if not plain_rows(app):  # compressed or encrypted: the mapper reads them, in this process
        return None
    return Folders(str(path), recorder.events_table_name, workers)


# -- in a worker ----------------------------------------------------------------------

_reader: sqlite3.Connection | None = None
_statement = ""


def _start(path: str, table: str) -> None:
    global _reader, _statement
    # A worker only folds games, whose objects form no reference cycle: the collector would
    # walk millions of them and free nothing.
    gc.disable()
    _reader = sqlite3.connect(path, timeout=10)
    _statement = f"SELECT topic, state FROM {table} WHERE originator_id=? ORDER BY originator_version"


def _fold(task: tuple[str, int]) -> tuple[int, GameRow | None]:
    game_hex, position = task
    game_id = UUID(game_hex)
    assert _reader is not None
    try:
        rows = _reader.execute(_statement, (game_hex,)).fetchall()
        return position, game_row(fold_rows(rows, game_id, position=position))
    except Exception:
        # As in one process (runner.count_game): a game its ruleset cannot fold is left out
        # (logged) rather than stop the rebuild on it.
        log.exception("game %s left out of the statistics", game_id)
        return position, None
