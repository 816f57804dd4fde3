"""A real server process for the end-to-end tests: `uvicorn api.asgi:app` on a store URL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def clean_env(**chronicle: str) -> dict[str, str]:
    """This process's environment without any `CHRONICLE_*` setting, plus `chronicle`'s."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    return kept | chronicle


class Server:
    """One `uvicorn api.asgi:app` process on a store, started again on the same port after a
    kill (`start`), so clients keep their address."""

    def __init__(self, store_url: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.store_kind = "sqlite" if urlparse(store_url).scheme == "sqlite" else "postgresql"
        self.env = clean_env(CHRONICLE_STORE=store_url, **(env or {}))
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "api.asgi:app",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        self._wait_until_healthy()

    def _wait_until_healthy(self, timeout: float = 30.0) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                answer = httpx.get(f"{self.url}/health", timeout=1.0).json()
                if answer["status"] == "ok" and answer["store"] == self.store_kind:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"the server did not answer /health within {timeout} s:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, as in a crash or a power cut."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM: a clean shutdown."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
