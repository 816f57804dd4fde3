"""A whole store carried to PostgreSQL with `chronicle export --all` and `chronicle import`:
every game arrives with its annotations, and audits clean there; what cannot
move (a running digital game, whose seed never leaves its store) is named and the rest moves."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.cli.conftest import Cli

KEY = base64.b64encode(bytes(range(32))).decode()  # the PostgreSQL store's key for its secrets


@pytest.mark.postgres
def test_every_game_moves_from_sqlite_to_postgresql_and_audits_clean_there(
    cli: Cli, postgres_url: str, tmp_path: Path
) -> None:
    cli.ok("simulate", "province", "--games", "2", "--seed", "moving")
    cli.ok("simulate", "dominion", "--games", "1", "--seed", "moving")
    finished = [line.split()[0] for line in cli.ok("games", "--status", "finished").splitlines()[1:]]
    assert len(finished) == 3
    dominion = next(g for g in finished if g in cli.ok("games", "--ruleset", "dominion"))
    cli.ok("annotate", dominion, "--at", "5", "a quiet opening", "--glyph", "!?")
    physical = cli.new_game("province", "--player", "Ann", "--player", "Ben", "--mode", "physical")
    cli.ok("record", physical, "first A white")
    running = cli.new_game("province", "--player", "Ann", "--player", "Ben")

    folder = tmp_path / "moved"
    written = cli.ok("export", "--all", "--out", str(folder))
    assert written.strip().endswith(f"5 games written to {folder}")
    assert sorted(p.stem for p in folder.iterdir()) == sorted([*finished, physical, running])

    target = Cli(cli.home, postgres_url, {"CHRONICLE_SECRET_KEY": KEY})
    files = sorted(str(p) for p in folder.iterdir())
    done = target.run("import", *files)
    assert done.returncode == 1, done.stderr
    assert f"{running}.json: refused: " in done.stderr and "4 imported, 1 refused" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.count("game      ") == 4

    audited = target.ok("audit", "--all")
    for game_id in [*finished, physical]:
        assert game_id in audited
    assert "DIVERGED" not in audited
    assert "a quiet opening" in target.ok("log", dominion)
    again = target.run("import", str(folder / f"{physical}.json"))
    assert again.returncode != 0 and again.stderr.startswith("chronicle: error: ")
