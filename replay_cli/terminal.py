"""Key-at-a-time input and full-screen drawing on a real terminal (POSIX termios).

The terminal runs in cbreak mode (no echo, no line buffering, but Ctrl-C still interrupts)
on the alternate screen, and is always restored on the way out, whatever happens.
"""

from __future__ import annotations

import os
import select
import shutil
import sys
import termios
import tty
from collections.abc import Iterator
from contextlib import contextmanager

ARROWS = {"C": "RIGHT", "D": "LEFT", "A": "UP", "B": "DOWN", "H": "HOME", "F": "END"}
ESCAPE_WAIT = 0.05  # seconds: a lone Escape versus the start of an arrow's sequence


class Terminal:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def key(self) -> str:
        """The next key: a character, or RIGHT, LEFT, ESC, ENTER, BACKSPACE."""
        char = self._read()
        if char == "\x1b":
            if not self._ready():
                return "ESC"
            second = self._read()
            if second not in "[O":
                return "ESC"
            final = self._read()
            while not final.isalpha() and final != "~" and self._ready():
                final = self._read()  # parameters of longer sequences, e.g. ESC [ 1 ; 5 C
            return ARROWS.get(final, "ESC")
        if char in ("\r", "\n"):
            return "ENTER"
        if char in ("\x7f", "\b"):
            return "BACKSPACE"
        if char == "\x03":
            raise KeyboardInterrupt
        if char == "\x04":
            return "q"
        return char

    def _read(self) -> str:
        data = os.read(self.fd, 1)
        if not data:
            return "\x04"  # end of input: treat as quit
        return data.decode("utf-8", errors="replace")

    def _ready(self) -> bool:
        readable, _, _ = select.select([self.fd], [], [], ESCAPE_WAIT)
        return bool(readable)

    @staticmethod
    def size() -> tuple[int, int]:
        # The terminal itself first: inherited COLUMNS/LINES variables go stale on a resize.
        try:
            columns, lines = os.get_terminal_size(sys.stdout.fileno())
        except OSError:
            columns, lines = shutil.get_terminal_size((100, 40))
        return columns or 100, lines or 40

    @staticmethod
    def draw(lines: list[str]) -> None:
        # Home, then each line over the old one (erasing its tail), then erase below: no flicker.
        sys.stdout.write(
            "\x1b[H" + "".join(f"{line}\x1b[K\n" for line in lines[:-1]) + lines[-1] + "\x1b[K\x1b[J"
        )
        sys.stdout.flush()


@contextmanager
def raw_terminal(fd: int) -> Iterator[Terminal]:
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stdout.write("\x1b[?1049h\x1b[?25l")  # alternate screen, hide the cursor
        sys.stdout.flush()
        yield Terminal(fd)
    finally:
        sys.stdout.write("\x1b[?25h\x1b[?1049l")
        sys.stdout.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
