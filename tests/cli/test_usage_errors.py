"""Bad command lines end with one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Cli, RecordedGame


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["fly"],
        ["new", "province"],
        ["new", "province", "--player", "Ann"],
        ["new", "chess", "--player", "Ann", "--player", "Bob"],
        ["new", "province", "--player", "Ann", "--player", "Bob", "--option", "no-equals-sign"],
        ["new", "province", "--player", "Ann", "--player", "Bob", "--option", "coin_supply_total=many"],
        ["new", "province", "--player", "Ann", "--player", "Bob", "--option", "no_such_option=1"],
        ["new", "province", "--player", "Ann", "--player", "Bob", "--seed", "abc"],
        ["rng", "roll", "--seed", "00", "--game", "g", "--stream", "dice", "--faces", "0"],
        ["audit"],
        ["log", "some-game", "--server", "localhost:8000"],
        ["log", "some-game", "--token", "t"],
        ["log", "some-game", "--token-file", "t"],
        ["stats", "--token-file", "t"],
        ["log", "some-game", "--server", "http://127.0.0.1:9", "--token", "t", "--token-file", "t"],
        ["simulate", "province", "--games", "0", "--seed", "1"],
        ["serve", "--access-log", "no-such-directory/access.log"],
    ],
    ids=lambda args: " ".join(args) or "no command",
)
def test_a_bad_command_line_exits_2_with_one_line(cli: Cli, args: list[str]) -> None:
    cli.fails(2, *args)


def test_an_unknown_viewer_is_a_usage_error_that_names_the_seats(physical_game: RecordedGame) -> None:
    message = physical_game.cli.fails(2, "show", physical_game.game_id, "--as", "Zoe")
    assert "A (Ann)" in message and "B (Bob)" in message


def test_a_version_outside_the_game_is_a_usage_error(physical_game: RecordedGame) -> None:
    physical_game.cli.fails(2, "show", physical_game.game_id, "--at", "999")


def test_a_game_prefix_under_four_characters_is_a_usage_error(physical_game: RecordedGame) -> None:
    physical_game.cli.fails(2, "show", "abc")


def test_a_game_that_does_not_exist_exits_1(physical_game: RecordedGame) -> None:
    assert "ffffffff" in physical_game.cli.fails(1, "log", "ffffffff")
