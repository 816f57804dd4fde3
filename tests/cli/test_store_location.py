"""The default store lives in the user's data directory, whatever folder a command runs in;
`chronicle info` names the store in use; a reading command never creates a missing store."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.cli.conftest import COMMAND, Cli


def run(args: list[str], cwd: Path, data: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    env |= {"XDG_DATA_HOME": str(data), "HOME": str(data.parent)}
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_the_default_store_is_found_from_any_folder(tmp_path: Path) -> None:
    data, here, there = tmp_path / "data", tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    info = run(["info"], here, data).stdout
    assert "from    the default, in your data directory" in info and "does not exist yet" in info
    created = run(["new", "province", "--player", "Ann", "--player", "Ben"], here, data)
    assert created.returncode == 0, created.stderr
    assert (data / "chronicle" / "games.sqlite3").exists()
    listed = run(["games"], there, data)
    assert listed.returncode == 0 and "Ann" in listed.stdout
    assert "(exists)" in run(["info"], there, data).stdout
    assert not list(there.iterdir()) and not (here / ".chronicle").exists()


def test_a_reading_command_on_a_missing_store_says_so_and_creates_nothing(cli: Cli) -> None:
    store = cli.home / "games.sqlite3"
    for args in (("games",), ("log", "abcd"), ("stats",), ("audit", "--all"), ("projections", "status")):
        message = cli.fails(1, *args)
        assert message.startswith(f"chronicle: error: there is no store at {store} (CHRONICLE_STORE)"), (
            message
        )
    assert not store.exists()
    assert "from    CHRONICLE_STORE" in cli.ok("info")
    assert "from    --store" in cli.ok("info", "--store", f"sqlite:///{cli.home / 'other.sqlite3'}")
