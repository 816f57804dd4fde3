"""`chronicle simulate` plays seeded bot games into the store; `chronicle audit` checks them."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from uuid import UUID

from tests.cli.conftest import Cli, RecordedGame

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
