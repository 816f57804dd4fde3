"""Several real `chronicle serve` processes on one store (and one Redis), for the tests of
what happens between processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.support import ROOT, Server


class ServeProcess(Server):
    """One `chronicle serve` process. With `wait=False` it is launched and left to come up,
    so that several can start at the same moment (`wait_until_healthy` afterwards)."""

    def __init__(
        self, store_url: str, log: Path, env: dict[str, str] | None = None, *, wait: bool = True
    ) -> None:
        self._wait = wait
        super().__init__(store_url, log, env)

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "replay_cli.main", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        if self._wait:
            self._wait_until_healthy()

    def wait_until_healthy(self, timeout: float = 120.0) -> None:
        """Several processes starting at once on a shared machine take a while."""
        self._wait = True
        self._wait_until_healthy(timeout)
