"""The cyclic garbage collector paused while one game is played or folded in memory.

Playing or folding a game makes hundreds of thousands of short-lived objects (states, facts,
events), none in a reference cycle: the collector's passes over them free nothing, and cost a
rebuild's fold about a tenth of its time and `chronicle simulate` about as much. Reference
counting frees them as before; a cycle made meanwhile waits for the next pass, once the game
is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector paused for the block, unless it is paused already (a worker process that
    keeps it off, or another game on another thread), in which case it is left as it is."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# `chronicle simulate`'s objects allocated and not yet freed between two young collections
SIMULATE_YOUNG_OBJECTS = 50_000


@contextmanager
def fewer_collections(young: int) -> Iterator[None]:
    """Young collections every `young` allocations rather than 700, for the block: a server
    (api/app.py) or a simulation (store/simulation_processes.py). A run of bot games keeps its
    games' events and stored rows alive until their transaction commits, and with 700 the
    collector walked them over and over, about a tenth of `chronicle simulate` (`bench.engine`
    with two jobs: 0.44 to 0.47 of the engine alone's rate before, 0.48 to 0.50 after).
    Garbage in reference cycles waits longer to be freed."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
