"""`chronicle replay`: a stepper driven in a real terminal, or line by line from a pipe."""

from __future__ import annotations

import re

import pexpect

from tests.cli.conftest import COMMAND, RecordedGame


def _screen_for(game: RecordedGame, version: int) -> str:
    """What the screen must show at `version`: the position and the event line."""
    last = len(game.log)
    return rf"version {version} / {last}\b[^\n]*\r?\n{re.escape(game.line_of(version))}"


def test_replay_steps_back_and_jumps_in_a_real_terminal(physical_game: RecordedGame) -> None:
    game = physical_game
    child = pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], "replay", game.game_id, "--plain"],
        env=game.cli.env,
        cwd=str(game.cli.home),
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=15,
    )
    try:
        child.expect(_screen_for(game, 1))
        child.send("n")
        child.expect(_screen_for(game, 2))
        child.send("b")
        child.expect(_screen_for(game, 1))
        child.send("j5\r")
        child.expect(_screen_for(game, 5))
        child.send(" ")
        child.expect(_screen_for(game, 6))
        child.send("\x1b[D")  # left arrow
        child.expect(_screen_for(game, 5))
        child.send("t2\r")  # turn 2 starts when Bob's turn does
        child.expect(r"version \d+ / \d+   turn 2, Bob \(B\) to act")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_replay_reads_the_same_commands_one_per_line_without_a_terminal(physical_game: RecordedGame) -> None:
    game = physical_game
    out = game.cli.ok("replay", game.game_id, "--at", "3", stdin="n\nb\nj 7\nj999\nq\n")
    positions = re.findall(r"^version (\d+) / ", out, flags=re.M)
    assert positions == ["3", "4", "3", "7", "7"]
    assert game.line_of(7) in out
    assert "no version 999" in out
