"""The reading commands against a real `chronicle serve` process (`--server URL`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.conftest import Cli, RecordedGame, Server, free_port, serving

ADMIN_TOKEN = "cli-test-administrator"


@pytest.fixture(scope="module")
def server(physical_game: RecordedGame, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server reads its administrator token from a file (`CHRONICLE_ADMIN_TOKEN_FILE`)."""
    token_file = tmp_path_factory.mktemp("secrets") / "admin-token"
    token_file.write_text(ADMIN_TOKEN + "\n")
    with serving(physical_game.cli, {"CHRONICLE_ADMIN_TOKEN_FILE": str(token_file)}) as running:
        yield running


def test_serve_prints_its_url_and_store_first(server: Server, physical_game: RecordedGame) -> None:
    assert server.first_line == f"Chronicle is serving on {server.url} (store: {physical_game.cli.store})"


def test_log_over_the_server_matches_the_local_log(server: Server, physical_game: RecordedGame) -> None:
    remote = physical_game.cli.ok("log", physical_game.game_id, "--server", server.url)
    assert remote.splitlines() == physical_game.log


def test_show_over_the_server_prints_the_state_then(server: Server, physical_game: RecordedGame) -> None:
    game = physical_game
    remote = game.cli.ok("show", game.game_id, "--at", "20", "--server", server.url, "--token", ADMIN_TOKEN)
    local = game.cli.ok("show", game.game_id, "--at", "20")
    assert remote.splitlines()[1].startswith(f"version 20 of {len(game.log)}  running  seen as omniscient")
    # The same state as the local store shows (the server serves past prompts not at all).
    assert remote.split("waiting for:")[0].strip() == local.split("waiting for:")[0].strip()
    public = game.cli.ok("show", game.game_id, "--server", server.url, "--as", "public")
    assert "seen as public" in public and "waiting for:" in public


def test_audit_over_the_server_with_the_admin_token(server: Server, physical_game: RecordedGame) -> None:
    game = physical_game
    remote = game.cli.ok("audit", game.game_id, "--server", server.url, "--token", ADMIN_TOKEN)
    assert remote == game.cli.ok("audit", game.game_id)
    assert remote.split()[1] == "clean"


def test_audit_all_over_the_server_skips_running_games_and_counts_them(
    server: Server, physical_game: RecordedGame
) -> None:
    game = physical_game
    done = game.cli.run("audit", "--all", "--server", server.url)
    assert done.returncode == 0, done.stderr
    assert f"{game.game_id}  skipped: still running" in done.stdout + done.stderr
    assert re.search(r"\d+ games audited: all clean; \d+ running games skipped", done.stderr)
    with_admin = game.cli.run("audit", "--all", "--server", server.url, "--token", ADMIN_TOKEN)
    assert with_admin.returncode == 0 and "skipped" not in with_admin.stderr


def test_a_whole_game_is_created_and_recorded_on_a_server_with_chronicle_alone(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    with serving(cli, {"CHRONICLE_ADMIN_TOKEN": ADMIN_TOKEN}) as server:
        new = ("new", "province", "--player", "Ann", "--player", "Ben", "--mode", "physical", "--json")
        created = json.loads(cli.ok(*new, "--server", server.url))
        game, recorder = created["game_id"], created["recorder_token"]
        remote = ("--server", server.url, "--token", recorder)
        out = cli.ok("record", game[:8], "first A white", "reveal workers2", "move green top", *remote)
        assert "#3 the table: move green top" in out
        message = cli.fails(1, "record", game[:8], "build mill", *remote)
        assert message.startswith("chronicle: error: rejected (") and message.endswith("[province 4.1]")
        undone = cli.ok("record", game[:8], "undo", *remote).splitlines()[-1]
        assert undone.startswith("retracted #3 (move green top); the game is at version")
        session = cli.ok("record", game[:8], *remote, stdin="move green top\n?\nundo\nquit\n")
        assert "legal: move green top" in session and "#4 the table: move green top" in session
        assert "retracted #4 (move green top)" in session
        seat_token = {"CHRONICLE_TOKEN": created["seat_tokens"]["A"]}
        assert "#5 " in cli.ok("record", game[:8], "move green top", "--server", server.url, env=seat_token)
        audit = cli.ok("audit", game[:8], "--server", server.url, "--token", ADMIN_TOKEN)
        assert audit.split()[1] == "clean"
        served = json.loads(cli.ok("log", game[:8], "--json", "--server", server.url, "--as", "public"))
        local = json.loads(cli.ok("log", game[:8], "--json", "--as", "public"))
        assert [e["text"] for e in served["events"]] == [e["text"] for e in local["events"]]
        lines = cli.ok("log", game[:8], "--ndjson").splitlines()
        assert [json.loads(line)["version"] for line in lines] == list(range(1, len(lines) + 1))
        assert "a unique prefix of at least 4" in cli.fails(2, "log", "7e", "--server", server.url)
        assert "no game on the server starts with" in cli.fails(1, "log", "ffffffff", "--server", server.url)


def test_rulesets_lists_games_players_and_options_locally_and_from_a_server(server: Server) -> None:
    cli = Cli(Path("."))
    listing = cli.run("rulesets").stdout
    assert "dominion      2-6 players" in listing and "province        2 players" in listing
    full = cli.run("rulesets", "province").stdout
    assert "players: 2; seats A, B" in full and "  end_check = end_of_turn (end_of_turn | immediate" in full
    assert json.loads(cli.run("rulesets", "province", "--json", "--server", server.url).stdout)["id"] == (
        "province"
    )
    assert cli.run("--version").stdout.startswith("chronicle ")


def test_the_token_can_come_from_a_file_or_the_environment_instead_of_the_command_line(
    server: Server, physical_game: RecordedGame, tmp_path: Path
) -> None:
    game = physical_game
    token_file = tmp_path / "token"
    token_file.write_text(ADMIN_TOKEN + "\n")
    on_command_line = game.cli.ok("audit", game.game_id, "--server", server.url, "--token", ADMIN_TOKEN)

    from_file = game.cli.ok("audit", game.game_id, "--server", server.url, "--token-file", str(token_file))
    from_env = game.cli.ok(
        "audit", game.game_id, "--server", server.url, env={"CHRONICLE_TOKEN": ADMIN_TOKEN}
    )
    stats = game.cli.ok("stats", "--server", server.url, "--token-file", str(token_file), "--json")

    assert from_file == from_env == on_command_line
    assert on_command_line.split()[1] == "clean"
    assert stats.startswith("[")
    # without the administrator's token the server keeps a running game's audit to itself
    assert "(game_running)" in game.cli.fails(1, "audit", game.game_id, "--server", server.url)


def test_a_token_file_that_cannot_be_read_is_a_usage_error(
    server: Server, physical_game: RecordedGame
) -> None:
    game = physical_game
    missing = str(game.cli.home / "no-such-token")
    message = game.cli.fails(2, "log", game.game_id, "--server", server.url, "--token-file", missing)
    assert message == f"chronicle: error: --token-file: cannot read {missing}: No such file or directory"
    empty = game.cli.home / "empty-token"
    empty.write_text("\n")
    assert "holds no token" in game.cli.fails(2, "games", "--server", server.url, "--token-file", str(empty))


def test_games_and_replay_over_the_server(server: Server, physical_game: RecordedGame) -> None:
    game = physical_game
    listed = game.cli.ok("games", "--server", server.url).splitlines()
    assert [row.split()[0] for row in listed[1:]] == [game.game_id]
    out = game.cli.ok("replay", game.game_id, "--server", server.url, stdin="n\nj 12\nq\n")
    assert re.findall(r"^version (\d+) / ", out, flags=re.M) == ["1", "2", "12"]
    assert game.line_of(12) in out


def test_a_missing_game_on_the_server_is_one_line_and_exit_1(
    server: Server, physical_game: RecordedGame
) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    assert "game_not_found" in physical_game.cli.fails(1, "log", missing, "--server", server.url)


def test_an_unreachable_server_is_one_line_and_exit_1(physical_game: RecordedGame) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    assert "cannot reach" in physical_game.cli.fails(1, "games", "--server", url)
