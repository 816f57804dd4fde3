"""The `chronicle` command run for real, as a subprocess, on a temporary SQLite store."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

# The installed console script when it sits beside this interpreter, else the module itself.
_SCRIPT = Path(sys.executable).with_name("chronicle")
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "replay_cli.main"]

# Ann goes first, the table turns up workers2, Ann moves every green worker and builds the
# Camp (province.md E3), Bob moves one worker and ends his turn.
PHYSICAL_OPENING = (
    "first A white",
    "reveal workers2",
    "move green top",
    "move green right",
    "move green left",
    "build camp",
    "end",
    "move green top",
    "end",
)


@dataclass
class Cli:
    """`chronicle` run in `home`, on the store `url` (default: an SQLite file in `home`) with
    the further settings `settings` (say, the key of a PostgreSQL store's secrets)."""

    home: Path
    url: str | None = None
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def store(self) -> str:
        return self.url or f"sqlite:///{self.home / 'games.sqlite3'}"

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
        return env | {"CHRONICLE_STORE": self.store, "PYTHONUNBUFFERED": "1"} | self.settings

    def run(
        self, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*COMMAND, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env | (env or {}),
            cwd=self.home,
            timeout=120,
        )

    def ok(self, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
        done = self.run(*args, stdin=stdin, env=env)
        assert done.returncode == 0, f"chronicle {' '.join(args)} failed: {done.stderr}"
        return done.stdout

    def fails(
        self, status: int, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
    ) -> str:
        """Run a command that must fail with `status`; its one-line message on stderr."""
        done = self.run(*args, stdin=stdin, env=env)
        assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("chronicle: error: "), done.stderr
        return lines[0]

    def new_game(self, *args: str) -> str:
        created = json.loads(self.ok("new", *args, "--json"))
        game_id: str = created["game_id"]
        return game_id


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


@dataclass(frozen=True)
class RecordedGame:
    cli: Cli
    game_id: str
    log: list[str]  # the lines of `chronicle log`

    def line_of(self, version: int) -> str:
        return self.log[version - 1]


@pytest.fixture(scope="session")
def physical_game(tmp_path_factory: pytest.TempPathFactory) -> RecordedGame:
    """One physical Province game, opened through notation; for tests that only read it."""
    cli = Cli(tmp_path_factory.mktemp("physical"))
    game_id = cli.new_game("province", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    cli.ok("record", game_id, *PHYSICAL_OPENING)
    return RecordedGame(cli, game_id, cli.ok("log", game_id).splitlines())


@dataclass(frozen=True)
class Server:
    url: str
    first_line: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(cli: Cli, env: dict[str, str] | None = None, *options: str) -> Iterator[Server]:
    """A real `chronicle serve` on `cli`'s store (with `options`), answering /health, stopped
    on the way out."""
    port = free_port()
    process = subprocess.Popen(
        [*COMMAND, "serve", "--port", str(port), *options],
        env=cli.env | (env or {}),
        cwd=cli.home,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline().strip()
        # Read whatever else it prints (a request log), so a full pipe never stops the server.
        threading.Thread(target=process.stdout.read, daemon=True).start()
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, "chronicle serve exited"
            assert time.monotonic() < deadline, "chronicle serve did not answer /health"
            time.sleep(0.1)
        yield Server(url, first_line)
    finally:
        process.terminate()
        process.wait(timeout=10)
