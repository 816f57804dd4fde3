"""`chronicle serve --workers N`: several server processes on one port and one SQLite store,
of which exactly one runs the statistics view; each request is one line of the access log on
stderr, with no token in it; SIGTERM stops them all."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx

from projections.lease import holder
from tests.cli.conftest import COMMAND, Cli, free_port
from tests.projections.support import OPENING

STARTUP = 90.0  # two processes importing everything on a shared machine


def gone(pid: int) -> bool:
    """No such process, or a zombie left for init to reap."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


def test_two_workers_answer_on_one_port_one_runs_the_view_and_sigterm_stops_both(cli: Cli) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    stderr = cli.home / "serve.err"
    with stderr.open("wb") as errors:
        process = subprocess.Popen(
            [*COMMAND, "serve", "--port", str(port), "--workers", "2"],
            env=cli.env,
            cwd=cli.home,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
    try:
        # Each request on a fresh connection: the kernel hands it to either process.
        roles: dict[int, str] = {}
        deadline = time.monotonic() + STARTUP
        while len(roles) < 2 or sorted(roles.values()) != ["running", "standby"]:
            assert process.poll() is None, stderr.read_text()
            assert time.monotonic() < deadline, f"the workers did not both answer: {roles}"
            try:
                health = httpx.get(f"{url}/health", timeout=5).json()
                roles[health["process"]] = health["projections"]
            except httpx.TransportError:
                time.sleep(0.1)
        workers = set(roles)
        [runner] = [pid for pid, role in roles.items() if role == "running"]

        created = httpx.post(
            f"{url}/games", json={"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"}
        ).json()
        game_id, recorder = created["game_id"], created["recorder_token"]
        headers = {"Authorization": f"Bearer {recorder}"}
        for action in OPENING:
            answer = httpx.post(f"{url}/games/{game_id}/actions", json={"action": action}, headers=headers)
            assert answer.status_code == 201, answer.text
        ended = httpx.post(f"{url}/games/{game_id}/resign", json={"seat": "A"}, headers=headers)
        assert ended.status_code == 200, ended.text
        for _ in range(4):  # whichever process answers reads the same game
            read = httpx.get(f"{url}/games/{game_id}", params={"token": recorder}).json()
            assert (read["version"], read["status"]) == (ended.json()["version"], "finished")
        stats = httpx.get(f"{url}/stats", params={"game": game_id, "wait": 30}, timeout=60).json()
        assert (stats["caught_up"], stats["games"]) == (True, 1)
        assert holder(cli.store) == f"chronicle serve, pid {runner} on {socket.gethostname()}"
    finally:
        process.send_signal(signal.SIGTERM)
        returncode = process.wait(timeout=30)
    assert returncode == 0
    assert all(gone(pid) for pid in workers)
    assert holder(cli.store) is None

    text = stderr.read_text()
    assert recorder not in text and "Traceback" not in text
    logged = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert {entry["pid"] for entry in logged} == workers  # both answered, each logs its own
    actions = [e for e in logged if e["method"] == "POST" and e["path"].endswith("/actions")]
    assert len(actions) == len(OPENING) and all(e["status"] == 201 for e in actions)
    assert [e["query"] for e in logged if e["path"] == f"/games/{game_id}"] == ["token=***"] * 4
