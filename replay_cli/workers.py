"""A local store's games worked on across worker processes, for `audit --all --jobs N`.

Each worker opens the store itself (an SQLite file or a PostgreSQL database: no connection
crosses a process) and does the work of a game exactly as the command's own process does it,
handed the games a few at a time; the answers come back in the order of the games, so the
command prints what one process prints. Where processes fork, the workers are forked from the
command once every ruleset is loaded: they start in milliseconds instead of importing
everything again, which matters as much as the work itself for a store of a few dozen games.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import util
from typing import Any, TypeVar

from domain.ruleset import all_rulesets
from replay_cli.local import LocalReader, open_store

T = TypeVar("T")
Work = Callable[[LocalReader, str], T]


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def in_workers(url: str, game_ids: Sequence[str], jobs: int, work: Work[T]) -> Iterator[T]:
    """`work(reader, game_id)` for each of `game_ids` on the store at `url`, across `jobs`
    processes, in the order of `game_ids`. An exception `work` raises is raised here, at its
    game's turn."""
    all_rulesets()  # loaded before the workers fork, so that none loads them again
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    jobs = max(1, min(jobs, len(game_ids)))
    # Several games a task keep the handing over cheap; enough tasks a worker keep the
    # workers busy to the end.
    chunk = max(1, min(32, len(game_ids) // (jobs * 4)))
    pool = context.Pool(jobs, initializer=_open, initargs=(url, work))
    try:
        yield from pool.imap(_work, game_ids, chunk)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


_worker: tuple[LocalReader, Work[Any]] | None = None


def _open(url: str, work: Work[Any]) -> None:
    global _worker
    # What the worker was forked with stays as long as it does: kept out of the collector's
    # reach, it is neither looked through at each collection nor copied page by page for it.
    gc.freeze()
    reader = LocalReader(open_store(url), None)
    util.Finalize(reader, reader.close, exitpriority=10)  # when the worker ends
    _worker = (reader, work)


def _work(game_id: str) -> Any:
    assert _worker is not None
    reader, work = _worker
    return work(reader, game_id)
