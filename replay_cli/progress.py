"""A progress bar on stderr for long work (`audit --all`, `simulate`).

It draws only on a terminal: redirected to a file or a pipe, stderr stays free of carriage
returns, and the work reports itself in its summary instead.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 30


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self.enabled = self.stream.isatty() and self.total > 1
        self._last_draw = 0.0

    def advance(self, steps: int = 1) -> None:
        self.done = min(self.done + steps, self.total)
        now = time.monotonic()
        # Redraw at most 20 times a second, and always at the end.
        if self.enabled and (now - self._last_draw > 0.05 or self.done == self.total):
            self._last_draw = now
            self._draw()

    def _draw(self) -> None:
        filled = WIDTH * self.done // self.total if self.total else WIDTH
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "-" * (WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} ({rate:.1f}/s)")
        self.stream.flush()

    def clear(self) -> None:
        """Rub the bar out, so that a line can be printed where it was."""
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def print_above(self, line: str, out: TextIO | None = None) -> None:
        self.clear()
        print(line, file=out or sys.stdout, flush=True)
        if self.enabled and self.done:
            self._draw()

    def finish(self) -> None:
        self.clear()
