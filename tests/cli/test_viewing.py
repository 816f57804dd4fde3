"""`show`, `log` and `games` on the local store: each viewer sees what the rules let them."""

from __future__ import annotations

from tests.cli.conftest import Cli, RecordedGame

PLAYERS = ("--player", "Ann", "--player", "Bob")


def test_show_at_a_version_prints_the_state_and_prompts_then(physical_game: RecordedGame) -> None:
    game = physical_game
    out = game.cli.ok("show", game.game_id, "--at", "2").splitlines()
    assert out[0] == f"game {game.game_id}  province (physical)  Ann (A), Bob (B)"
    assert out[1] == f"version 2 of {len(game.log)}  running  seen as omniscient"
    assert "waiting for:" in out and any(line.startswith("  the table: ") for line in out)
    latest = game.cli.ok("show", game.game_id)
    assert f"version {len(game.log)} of {len(game.log)}" in latest and "Ann (A): " in latest


def test_the_hidden_goal_order_shows_only_to_the_omniscient_viewer(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS)
    assert "\n  hidden: " in cli.ok("show", game)
    for viewer in ("public", "Bob", "A"):
        shown = cli.ok("show", game, "--as", viewer)
        assert "hidden: " not in shown and "hidden_count" in shown
    omniscient, seen_by_bob = cli.ok("log", game), cli.ok("log", game, "--as", "player:B")
    assert "(top first)" in omniscient and "(top first)" not in seen_by_bob
    assert len(omniscient.splitlines()) == len(seen_by_bob.splitlines())


def test_games_lists_every_game_and_filters_them(cli: Cli) -> None:
    first = cli.new_game("province", *PLAYERS, "--mode", "physical", "--tag", "club")
    second = cli.new_game("province", "--player", "Cleo", "--player", "Dan")
    rows = cli.ok("games").splitlines()
    assert rows[0].split() == ["GAME", "RULESET", "PLAYERS", "STATUS", "WINNERS"]
    assert [row.split()[0] for row in rows[1:]] == [second, first]  # newest first
    assert [row.split()[0] for row in cli.ok("games", "--tag", "club").splitlines()[1:]] == [first]
    assert [row.split()[0] for row in cli.ok("games", "--player", "dan").splitlines()[1:]] == [second]
    assert cli.run("games", "--status", "finished").stdout == ""
