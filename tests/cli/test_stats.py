"""`chronicle stats` and `chronicle projections`, run for real on a store of simulated games."""

from __future__ import annotations

import csv
import io
import json
import shutil
import signal
import subprocess
import time

import httpx
import pytest

from tests.cli.conftest import COMMAND, Cli, serving


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """Four simulated games, played once for the module (a simulation takes a while)."""
    made = Cli(tmp_path_factory.mktemp("simulated"))
    made.ok("simulate", "province", "--games", "4", "--seed", "stats")
    return made


@pytest.fixture
def games(cli: Cli, simulated: Cli) -> Cli:
    """A store of its own for each test: a copy of the simulated one (its file and its key)."""
    for stored in simulated.home.glob("games.sqlite3*"):
        shutil.copy2(stored, cli.home / stored.name)
    return cli


def test_stats_prints_every_table_aligned_without_colour_in_a_pipe(games: Cli) -> None:
    out = games.ok("stats")
    assert "\x1b[" not in out
    assert out.splitlines()[0].startswith("4 finished games (view generation 1, position ")
    for table_id in (
        "games_played",
        "game_length",
        "win_rate_by_seat",
        "player_records",
        "head_to_head",
        "rating",
        "decision_time",
        "dice_chi_square",
        "province_opening_orders",
    ):
        assert f"[{table_id}]" in out
    block = out.split("[win_rate_by_seat]")[1].split("\n\n")[0].splitlines()[1:]
    # The table's legend first: what a row is, then each column's definition.
    legend = [line for line in block if line.startswith("  ")]
    assert legend[0] == "  One row per ruleset, player count and seat, over the finished games."
    assert "  Wins: games the seat won alone" in legend
    length = out.split("[game_length]")[1].split("\n\n")[0]
    assert "  Mean actions: actions per game, on average: those recorded for a seat" in length
    header, row_a, row_b = block[len(legend) :]
    assert header.split()[:5] == ["Ruleset", "Players", "Seat", "Games", "Wins"]
    assert row_a.split()[:4] == ["province", "2", "A", "4"] and row_b.split()[:4] == [
        "province",
        "2",
        "B",
        "4",
    ]
    assert len(row_a) == len(header)  # aligned columns
    assert "\x1b[1m" in games.ok("stats", "--color", "always")


def test_stats_as_csv_and_json_with_filters(games: Cli) -> None:
    rows = list(csv.DictReader(io.StringIO(games.ok("stats", "--table", "win_rate_by_seat", "--csv"))))
    assert [r["seat"] for r in rows] == ["A", "B"]
    assert sum(int(r["wins"]) + int(r["draws"]) for r in rows) - int(rows[1]["draws"]) == 4
    tables = json.loads(games.ok("stats", "--json", "--player", "nobody"))
    assert next(t for t in tables if t["id"] == "games_played")["rows"] == []
    tables = json.loads(
        games.ok("stats", "--json", "--ruleset", "province", "--variant", "end_check=end_of_turn")
    )
    assert next(t for t in tables if t["id"] == "games_played")["rows"][0]["games"] == 4
    assert "no table 'nope'" in games.fails(2, "stats", "--table", "nope")
    assert "is not a date: use an ISO 8601 date" in games.fails(2, "stats", "--since", "yesterday")
    unknown = games.fails(2, "stats", "--variant", "foo=bar")
    assert "no installed ruleset has a variant option 'foo'" in unknown
    records = json.loads(games.ok("stats", "--json", "--table", "player_records", "--across-rulesets"))
    assert [r["player_id"] for r in records[0]["rows"]] == ["Bot A", "Bot B"]


def test_one_game_has_its_progression_chart(games: Cli) -> None:
    game_id = games.ok("games").splitlines()[1].split()[0]
    out = games.ok("stats", "--game", game_id[:8])
    assert "vp by turn (turns 0.." in out
    assert "A = Bot A, B = Bot B" in out
    assert "[activity]" in out and "[game_dice]" in out
    assert "first-player/d2" in out
    assert json.loads(games.ok("stats", "--game", game_id, "--json"))["status"] == "finished"


def test_killing_the_runner_midway_changes_no_figure(games: Cli) -> None:
    games.ok("simulate", "province", "--games", "3", "--seed", "more")
    runner = subprocess.Popen(
        [*COMMAND, "projections", "run", "--poll", "0.05"],
        env=games.env,
        cwd=games.home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)
    runner.send_signal(signal.SIGKILL)
    runner.wait(timeout=10)
    games.ok("projections", "run", "--once")
    resumed = games.ok("stats", "--json", "--no-update")
    status = games.ok("projections", "status")
    assert status.startswith("runner: nobody runs the views now")  # the killed one's lock went with it
    assert "stats generation 1 (active): 7 of 7 finished games counted, at position " in status
    assert status.rstrip().endswith("caught up; nothing after it")
    rebuilt = games.ok("projections", "rebuild", "stats")
    assert "generation 2 built" in rebuilt
    assert json.loads(games.ok("stats", "--json", "--no-update")) == json.loads(resumed)
    assert next(t for t in json.loads(resumed) if t["id"] == "games_played")["rows"][0]["games"] == 7
    assert "there is no view 'nope'" in games.fails(2, "projections", "rebuild", "nope")


def test_the_server_runs_the_view_in_process_unless_told_otherwise(games: Cli) -> None:
    game_id = games.ok("games").splitlines()[1].split()[0]
    with serving(games) as server:
        body = httpx.get(f"{server.url}/stats", params={"game": game_id, "wait": 30}, timeout=60).json()
        assert (body["caught_up"], body["games"]) == (True, 4)
        remote = games.ok("stats", "--server", server.url, "--table", "win_rate_by_seat")
        assert remote.startswith("4 finished games (server ") and "[win_rate_by_seat]" in remote
        assert remote.split("\n\n")[1] == games.ok("stats", "--table", "win_rate_by_seat").split("\n\n")[1]
        one = json.loads(games.ok("stats", "--server", server.url, "--game", game_id, "--json"))
        assert one["game_id"] == game_id and one["status"] == "finished"
        assert "vp by turn" in games.ok("stats", "--server", server.url, "--game", game_id)
        health = httpx.get(f"{server.url}/health", timeout=10).json()
        assert health["projections"] == "running"
        runner = games.ok("projections", "status").splitlines()[0]
        assert runner.startswith(f"runner: chronicle serve, pid {health['process']} on ")
    external = Cli(games.home / "external")
    external.home.mkdir()
    external.ok("simulate", "province", "--games", "1", "--seed", "ext")
    game_id = external.ok("games").splitlines()[1].split()[0]
    with serving(external, env={"CHRONICLE_PROJECTIONS": "external"}) as server:
        body = httpx.get(f"{server.url}/stats", params={"game": game_id, "wait": 0.5}, timeout=60).json()
        assert (body["caught_up"], body["games"]) == (False, 0)
        assert httpx.get(f"{server.url}/health", timeout=10).json()["projections"] == "external"
        external.ok("projections", "run", "--once")
        body = httpx.get(f"{server.url}/stats", params={"game": game_id, "wait": 5}, timeout=60).json()
        assert (body["caught_up"], body["games"]) == (True, 1)
