"""`chronicle resign` and `chronicle abandon`, and how such games show in `games`, `stats` and
`audit` (domain/endings.py)."""

from __future__ import annotations

import json

from tests.cli.conftest import PHYSICAL_OPENING, Cli


def test_a_resigned_and_an_abandoned_game_in_games_stats_and_audit(cli: Cli) -> None:
    resigned = cli.new_game("province", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    cli.ok("record", resigned, *PHYSICAL_OPENING)
    out = cli.ok("resign", resigned, "Ann", "--reason", "called away")
    assert "Ann resigns (called away), entered by the recorder." in out
    assert "Bob won (resigned)" in out and "the game is finished" in out
    abandoned = cli.new_game("province", "--player", "Cy", "--player", "Di")
    cli.ok("abandon", abandoned, "--reason", "power cut")
    assert "The game is abandoned (power cut), by the recorder." in cli.ok("log", abandoned)

    rows = {line.split()[0]: line.split()[-2:] for line in cli.ok("games").splitlines()[1:]}
    assert rows[resigned] == ["finished", "Bob"] and rows[abandoned] == ["abandoned", "-"]
    only = cli.ok("games", "--status", "abandoned")
    assert abandoned in only and resigned not in only

    assert cli.ok("stats").splitlines()[0].startswith("1 finished games")
    (records,) = json.loads(cli.ok("stats", "--json", "--table", "player_records"))
    rows_by_player = {r["player"]: r for r in records["rows"]}
    assert set(rows_by_player) == {"Ann", "Bob"}  # the abandoned game's players count nowhere
    assert rows_by_player["Bob"]["wins"] == 1 and rows_by_player["Ann"]["losses"] == 1

    assert "clean" in cli.ok("audit", resigned)
    assert "clean" in cli.ok("audit", abandoned)


def test_resigning_a_finished_game_is_refused_in_one_line(cli: Cli) -> None:
    game = cli.new_game("province", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    cli.ok("abandon", game)
    assert "game_over" in cli.fails(1, "resign", game, "Bob")
    assert "is not a seat" in cli.fails(2, "resign", game, "Zed")
