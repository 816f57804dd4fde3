"""Two real `chronicle projections run` processes on one PostgreSQL store: one runs the
statistics view, the other stands by; killed with SIGKILL (no shutdown hook runs), the holder's
session ends, the standby takes over and the view catches up with the same figures a fresh
build gives."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projections.lease import holder
from projections.runner import StatsReader, rebuild
from replay_cli.commands.projections import LEADING, STANDING_BY
from store.app import Chronicle
from tests.e2e.support import ROOT, clean_env
from tests.projections.support import resigned_games
from tests.projections.test_runner import figures, head


def start_runner(url: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "replay_cli.main", "projections", "run", "--poll", "0.1"],
            cwd=ROOT,
            env=clean_env(CHRONICLE_STORE=url) | {"PYTHONUNBUFFERED": "1"},
            stdout=output,
            stderr=subprocess.STDOUT,
        )


def wait_for(condition: object, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def holder_pid(url: str) -> int | None:
    who = holder(url)
    found = re.search(r"pid (\d+)", who or "")
    return int(found.group(1)) if found else None


@pytest.mark.postgres
def test_one_runner_runs_and_the_standby_takes_over_when_it_is_killed(
    postgres_url: str, tmp_path: Path
) -> None:
    app = Chronicle(postgres_url)
    reader = StatsReader(app)
    logs = [tmp_path / "runner0.log", tmp_path / "runner1.log"]
    runners = [start_runner(postgres_url, log) for log in logs]
    try:
        resigned_games(app, 2)
        wait_for(
            lambda: all(STANDING_BY in log.read_text() or LEADING in log.read_text() for log in logs), "both"
        )
        [leader] = [i for i, log in enumerate(logs) if LEADING in log.read_text()]  # exactly one
        standby = 1 - leader
        assert STANDING_BY in logs[standby].read_text()
        assert holder_pid(postgres_url) == runners[leader].pid
        assert reader.wait(head(app), timeout=30)
        view = reader.view()
        assert view is not None and view.count() == 2

        runners[leader].send_signal(signal.SIGKILL)
        runners[leader].wait(timeout=10)
        resigned_games(app, 2, names=("Cy", "Di"))
        wait_for(lambda: LEADING in logs[standby].read_text(), "the standby to take over")
        assert holder_pid(postgres_url) == runners[standby].pid
        assert reader.wait(head(app), timeout=30)
        assert view.count() == 4
        caught_up = figures(reader)
    finally:
        for runner in runners:
            if runner.poll() is None:
                runner.send_signal(signal.SIGINT)
                try:
                    runner.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    runner.kill()
                    runner.wait()
    assert holder(postgres_url) is None  # the survivor released the lease as it stopped
    rebuild(postgres_url)  # a fresh generation, built from the first event by this process
    reader._active = (0.0, None)
    try:
        assert figures(reader) == caught_up
    finally:
        reader.close()
        app.close()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()
