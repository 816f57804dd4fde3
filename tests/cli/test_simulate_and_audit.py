"""`chronicle simulate` plays seeded bot games into the store; `chronicle audit` checks them."""

from __future__ import annotations

import base64
import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from uuid import UUID

import pytest

from domain.events import FactRecorded
from store.app import Chronicle
from tests.cli.conftest import Cli, RecordedGame
from tests.store.tampering import StoredRows

KEY = base64.b64encode(bytes(range(32))).decode()  # a PostgreSQL store's key for its secrets
CLEAN = re.compile(r"^(?P<id>[0-9a-f-]{36})  clean  \((?P<actions>\d+) actions, (?P<facts>\d+) facts\)$")


def test_simulated_games_end_are_stored_and_pass_the_audit(cli: Cli) -> None:
    summary = cli.ok("simulate", "province", "--games", "3", "--seed", "1").splitlines()
    assert summary[0].startswith("simulated 3 province games (seed 1): 3 finished, ")
    assert "actions/s" in summary[0] and summary[1].startswith("wins per seat: A ")
    games = cli.ok("games", "--tag", "simulated").splitlines()[1:]
    assert len(games) == 3 and all("finished" in row for row in games)

    audit = cli.run("audit", "--all")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    lines = audit.stdout.splitlines()
    assert len(lines) == 3 and all(CLEAN.match(line) for line in lines), lines


def test_the_same_seed_plays_the_same_game_in_another_store(cli: Cli) -> None:
    """In one process or several (`--jobs`): the same games."""
    other = Cli(cli.home / "other")
    other.home.mkdir()
    for each, jobs in ((cli, "1"), (other, "3")):
        each.ok("simulate", "province", "--games", "4", "--seed", "same", "--jobs", jobs)
    first = sorted(row.split()[0] for row in cli.ok("games").splitlines()[1:])
    second = sorted(row.split()[0] for row in other.ok("games").splitlines()[1:])
    assert first == second and len(first) == 4
    for game in first:
        assert cli.ok("log", game) == other.ok("log", game)
    assert "already simulated" in cli.fails(1, "simulate", "province", "--games", "1", "--seed", "same")
    assert "--jobs take positive numbers" in cli.fails(
        2, "simulate", "province", "--games", "1", "--seed", "none", "--jobs", "0"
    )


def test_a_game_that_does_not_end_within_the_cap_is_reported_and_fails(cli: Cli) -> None:
    done = cli.run("simulate", "province", "--games", "1", "--seed", "cap", "--max-actions", "5")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "0 finished" in done.stdout and "did not end within 5 actions" in done.stderr


def test_the_audit_of_a_recorded_physical_game_is_clean(physical_game: RecordedGame) -> None:
    line = physical_game.cli.ok("audit", physical_game.game_id[:8]).strip()
    found = CLEAN.match(line)
    assert found and found["id"] == physical_game.game_id and found["actions"] == "9"


def test_one_seed_simulates_every_ruleset_into_one_store(cli: Cli) -> None:
    cli.ok("simulate", "province", "--games", "1", "--seed", "shared")
    cli.ok("simulate", "dominations", "--games", "1", "--seed", "shared")
    rows = cli.ok("games", "--tag", "simulation:shared").splitlines()[1:]
    assert sorted(row.split()[1] for row in rows) == ["dominations", "province"]
    assert cli.run("audit", "--all").returncode == 0


def test_dominion_with_empires_is_simulated_and_audited_clean(cli: Cli) -> None:
    summary = cli.ok("simulate", "dominion", "--games", "4", "--seed", "2", "--expansions", "base,empires")
    assert summary.startswith("simulated 4 dominion games (seed 2): 4 finished, ")
    audit = cli.run("audit", "--all")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert all(CLEAN.match(line) for line in audit.stdout.splitlines())
    rows = cli.ok("games", "--tag", "simulation:2").splitlines()[1:]
    assert len(rows) == 4 and all("dominion" in row and "finished" in row for row in rows)


def test_expansions_are_refused_for_a_ruleset_without_them(cli: Cli) -> None:
    message = cli.fails(
        2, "simulate", "province", "--games", "1", "--seed", "x", "--expansions", "base,empires"
    )
    assert "province has no expansions" in message and "Traceback" not in message
    wrong = cli.fails(2, "simulate", "dominion", "--games", "1", "--seed", "x", "--expansions", "empires")
    assert "expansions" in wrong


def test_dominion_second_edition_is_simulated_and_audited_clean(cli: Cli) -> None:
    summary = cli.ok("simulate", "dominion", "--games", "3", "--seed", "9", "--option", "base_edition=2")
    assert summary.startswith("simulated 3 dominion games (seed 9): 3 finished, ")
    both = ("--expansions", "base,empires", "--option", "base_edition=2")
    assert "1 finished" in cli.ok("simulate", "dominion", "--games", "1", "--seed", "9e", *both)
    audit = cli.run("audit", "--all")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    lines = audit.stdout.splitlines()
    assert len(lines) == 4 and all(CLEAN.match(line) for line in lines)
    wrong = cli.fails(2, "simulate", "dominion", "--games", "1", "--seed", "x", "--option", "base_edition=3")
    assert "base_edition" in wrong and "Traceback" not in wrong


def test_audit_all_still_finds_an_event_edited_in_the_store(cli: Cli) -> None:
    """The audit reads each game's rows in one query and re-decides it in memory: an edited
    fact is still reported where it lies, and the other games stay clean."""
    cli.ok("simulate", "province", "--games", "2", "--seed", "edit")
    with closing(sqlite3.connect(cli.home / "games.sqlite3")) as db, db:
        stream, version, state = db.execute(
            "SELECT originator_id, originator_version, state FROM stored_events "
            "WHERE topic = 'chronicle:FactRecorded' AND originator_version > 10 LIMIT 1"
        ).fetchone()
        edited = json.loads(state)
        edited["fact"]["edited"] = True
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(edited).encode(), stream, version),
        )
    audit = cli.run("audit", "--all")
    assert audit.returncode == 1 and "Traceback" not in audit.stderr
    lines = audit.stdout.splitlines()
    [diverged] = [line for line in lines if "DIVERGED" in line]
    assert diverged.startswith(str(UUID(stream))) and f"at version {version}:" in diverged
    assert sum(bool(CLEAN.match(line)) for line in lines) == 1


def test_audit_all_across_worker_processes_prints_what_one_process_prints(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--jobs N`: each worker opens the store itself (an SQLite file or a PostgreSQL schema),
    and the lines, their order, the summary and the exit status are those of one process:
    clean games, a running one audited with its sealed seed, and an edited one."""
    monkeypatch.setenv("CHRONICLE_SECRET_KEY", KEY)  # the PostgreSQL store's, for this process too
    cli = Cli(tmp_path, store_url, {"CHRONICLE_SECRET_KEY": KEY})
    cli.ok("simulate", "province", "--games", "4", "--seed", "jobs")
    running = cli.new_game("province", "--player", "Ann", "--player", "Ben")
    finished = [line.split()[0] for line in cli.ok("games", "--status", "finished").splitlines()[1:]]
    with closing(Chronicle(store_url)) as app:
        rows = StoredRows(app)
        try:
            events = rows.read(UUID(finished[1]))
            index = next(i for i, e in enumerate(events) if i > 10 and e.topic == FactRecorded.TOPIC)
            events[index] = events[index].edited(fact={**events[index].body["fact"], "edited": True})
            rows.rewrite(UUID(finished[1]), events, index + 1)
        finally:
            rows.close()

    one = cli.run("audit", "--all", "--jobs", "1")
    assert one.returncode == 1 and "Traceback" not in one.stderr, one.stderr
    lines = one.stdout.splitlines()
    assert len(lines) == 5 and sum(bool(CLEAN.match(line)) for line in lines) == 4
    assert any(line.startswith(f"{running}  clean") for line in lines)
    assert any(line.startswith(f"{finished[1]}  DIVERGED at version {index + 1}:") for line in lines)
    for jobs in (["--jobs", "2"], ["--jobs", "3"], []):
        many = cli.run("audit", "--all", *jobs)
        assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr), jobs
    assert "--jobs takes a positive number" in cli.fails(2, "audit", "--all", "--jobs", "0")
