"""A helper process of `chronicle simulate --jobs N` (store/simulation_processes.py): it plays
the games the asking process hands it, over the two pipes named on its command line (the one
it reads its orders from, the one it answers on)."""

from __future__ import annotations

import sys
from multiprocessing.connection import Connection

from store.simulation_processes import helper

if __name__ == "__main__":
    helper(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
