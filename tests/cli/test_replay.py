"""`chronicle replay`: a stepper driven in a real terminal, or line by line from a pipe. It steps
by action by default (an action and every fact it caused at once), by event with `e` or
`--events`."""

from __future__ import annotations

import re

import pexpect

from tests.cli.conftest import COMMAND, RecordedGame


def _screen_for(game: RecordedGame, version: int) -> str:
    """What the screen must show at `version`: the position and the event line."""
    last = len(game.log)
    return rf"version {version} / {last}\b[^\n]*\r?\n{re.escape(game.line_of(version))}"


def _actions(game: RecordedGame) -> list[int]:
    """The versions of the recorded actions: their log lines read `  12  #4 the table: end`."""
    return [v for v, line in enumerate(game.log, start=1) if re.match(r"\s*\d+\s+#\d+ ", line)]


def _stops(game: RecordedGame) -> list[int]:
    """Where stepping by action stops: the version before each action (the setup's end and each
    action's last fact), and the last."""
    return [v - 1 for v in _actions(game) if v > 1] + [len(game.log)]


def _step_screen(game: RecordedGame, stop: int) -> str:
    """By action the screen at `stop` shows the line of the action that began its step."""
    head = max([1, *(v for v in _actions(game) if v <= stop)])
    caused = rf"   \+{stop - head} events? it caused" if stop > head else ""
    return rf"version {stop} / {len(game.log)}\b[^\n]*{caused}[^\n]*\r?\n{re.escape(game.line_of(head))}"


def test_replay_steps_by_action_in_a_real_terminal(physical_game: RecordedGame) -> None:
    game = physical_game
    stops = _stops(game)
    assert stops[:3] == [2, 5, 10]  # the facts between two actions go by in one step
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
        for stop in stops[:4]:
            child.send("n")
            child.expect(_step_screen(game, stop))
        child.send("\x1b[D")  # left arrow: back one action
        child.expect(_step_screen(game, stops[2]))
        child.send("e")  # by event: the next version, a fact
        child.send("n")
        child.expect(_screen_for(game, stops[2] + 1))
        child.send("e")
        child.send(" ")  # by action again: on to the end of that action's step
        child.expect(_step_screen(game, stops[3]))
        child.send("t2\r")  # turn 2, where Bob finds it: after the facts that began it
        child.expect(r"version \d+ / \d+   turn 2, Bob \(B\) to act   \+\d+ event")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_replay_steps_back_and_jumps_by_event_in_a_real_terminal(physical_game: RecordedGame) -> None:
    game = physical_game
    child = pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], "replay", game.game_id, "--plain", "--events"],
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
    out = game.cli.ok("replay", game.game_id, "--at", "3", "--events", stdin="n\nb\nj 7\nj999\nq\n")
    positions = re.findall(r"^version (\d+) / ", out, flags=re.M)
    assert positions == ["3", "4", "3", "7", "7"]
    assert game.line_of(7) in out
    assert "no version 999" in out


def test_replay_by_lines_steps_by_action_and_e_switches_to_events(physical_game: RecordedGame) -> None:
    game = physical_game
    stops = _stops(game)
    out = game.cli.ok("replay", game.game_id, stdin="n\nn\n\nb\ne\nn\ne\nn\nq\n")
    positions = [int(v) for v in re.findall(r"^version (\d+) / ", out, flags=re.M)]
    # n n (empty line) b, then e n by event, then e n by action again
    by_action, by_event = [1, stops[0], stops[1], stops[2], stops[1]], [stops[1], stops[1] + 1]
    assert positions == [*by_action, *by_event, stops[1] + 1, stops[2]]
    assert "stepping by event" in out and "stepping by action" in out
    # past the last step, the stepper says so and stays
    end = game.cli.ok("replay", game.game_id, "--at", str(stops[-1]), stdin="n\nq\n")
    assert re.findall(r"^version (\d+) / ", end, flags=re.M) == [str(stops[-1])] * 2
    assert "this is the last version" in end
