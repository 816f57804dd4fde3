"""Corrections at the table through the real command: `chronicle record GAME undo [K]`, and
`log` and `replay` showing the retracted actions struck through (domain/corrections.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pexpect
import pytest

from replay_cli.commands.record import split_undos
from replay_cli.errors import UsageError
from tests.cli.conftest import COMMAND, Cli, Server, serving

PLAYERS = ("--player", "Ann", "--player", "Ben")
# Ann moves every green worker and then builds the Camp, when she meant the Mill.
MISTAKE = (
    "first A white",
    "reveal workers2",
    "move green top",
    "move green right",
    "move green left",
    "build camp",
)
STRUCK = re.compile(r"\x1b\[9m(.*?)\x1b\[0m")


@dataclass(frozen=True)
class CorrectedGame:
    """A physical Province game: the Camp built by mistake, undone, the Mill
    built instead, and the turn ended."""

    cli: Cli
    game_id: str
    undo_out: str  # what `record GAME undo` printed
    redo_out: str  # what `record GAME "build mill" end` printed
    log: list[str]  # `chronicle log` to a pipe
    camp: int  # the version of the mistaken `build camp`
    retraction: int  # the version of the retraction

    def terminal(self, *args: str) -> pexpect.spawn:
        """`chronicle ARGS` in a real terminal that may show strikethrough."""
        env = {k: v for k, v in self.cli.env.items() if k != "NO_COLOR"} | {"TERM": "xterm-256color"}
        return pexpect.spawn(
            COMMAND[0],
            [*COMMAND[1:], *args],
            env=env,
            cwd=str(self.cli.home),
            encoding="utf-8",
            dimensions=(60, 160),
            timeout=15,
        )


def _version_of(log: list[str], text: str) -> int:
    found = [line for line in log if text in line]
    assert len(found) == 1, (text, log)
    return int(found[0].strip("~ ").split()[0])


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> CorrectedGame:
    cli = Cli(tmp_path_factory.mktemp("corrections"))
    game_id = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game_id, *MISTAKE)
    undo_out = cli.ok("record", game_id, "undo")
    redo_out = cli.ok("record", game_id, "build mill", "end")
    log = cli.ok("log", game_id).splitlines()
    camp = _version_of(log, "#6 the table: build camp")
    retraction = _version_of(log, "The table retracts #6")
    return CorrectedGame(cli, game_id, undo_out, redo_out, log, camp, retraction)


@pytest.fixture(scope="module")
def server(corrected: CorrectedGame) -> Iterator[Server]:
    with serving(corrected.cli) as running:
        yield running


def test_undo_retracts_the_mistaken_build_and_the_game_goes_on(corrected: CorrectedGame) -> None:
    game = corrected
    assert game.undo_out.splitlines() == [
        f"{game.retraction:>4}  The table retracts #6.",
        f"retracted #6 (build camp); the game is at version {game.retraction}",
    ]
    assert "#7 the table: build mill" in game.redo_out and "Ann builds the Mill" in game.redo_out
    assert "#8 the table: end" in game.redo_out and "Turn 2: Ben to play." in game.redo_out
    # `show` follows the corrected line: the Mill stands, the Camp does not.
    shown = game.cli.ok("show", game.game_id)
    assert "built=[mill]" in shown and "built=[camp]" not in shown


def test_the_log_marks_the_retracted_build_and_its_facts_and_shows_the_retraction(
    corrected: CorrectedGame,
) -> None:
    game = corrected
    marked = [line for line in game.log if line.startswith("~")]
    assert marked == [line for line in game.log if line.endswith("~~")]
    assert marked[0] == f"~{game.camp:>3}  ~~#6 the table: build camp~~"
    assert any("Ann builds the Camp" in line for line in marked)
    # The build and each of its facts, up to the retraction; the retraction itself is plain.
    assert [int(line[1:].split()[0]) for line in marked] == list(range(game.camp, game.retraction))
    assert game.log[game.retraction - 1] == f"{game.retraction:>4}  The table retracts #6."


def test_the_log_strikes_the_retracted_lines_through_on_a_terminal(corrected: CorrectedGame) -> None:
    child = corrected.terminal("log", corrected.game_id)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    struck = STRUCK.findall(child.before)
    assert struck[0] == "#6 the table: build camp"
    assert len(struck) == corrected.retraction - corrected.camp
    assert "~~" not in child.before


def test_hide_retracted_leaves_out_the_build_but_keeps_the_retraction(corrected: CorrectedGame) -> None:
    game = corrected
    hidden = game.cli.ok("log", game.game_id, "--hide-retracted").splitlines()
    assert hidden == [line for line in game.log if not line.startswith("~")]
    assert not any("Camp" in line for line in hidden)
    assert f"{game.retraction:>4}  The table retracts #6." in hidden


def test_the_corrected_game_audits_clean(corrected: CorrectedGame) -> None:
    out = corrected.cli.ok("audit", corrected.game_id)
    assert out.split()[:2] == [corrected.game_id, "clean"]


def test_replay_in_a_real_terminal_strikes_the_build_and_restores_the_state_at_the_retraction(
    corrected: CorrectedGame,
) -> None:
    game = corrected
    before = game.cli.ok("show", game.game_id, "--at", str(game.camp - 1))
    ann_before = next(line for line in before.splitlines() if line.startswith("  A: "))
    assert "built=[]" in ann_before
    last = len(game.log)
    child = game.terminal("replay", game.game_id, "--plain")
    try:
        child.expect(rf"version 1 / {last}\b")
        child.send(f"j{game.camp}\r")
        child.expect(rf"version {game.camp} / {last}\b[^\r\n]*\[retracted later\]")
        child.expect(rf"{game.camp:>4}  \x1b\[9m#6 the table: build camp\x1b\[0m")
        child.send(f"j{game.retraction - 1}\r")
        child.expect(rf"version {game.retraction - 1} / {last}\b")
        child.expect(r"  A: [^\r\n]*built=\[camp\]")
        child.send(f"j{game.retraction}\r")
        child.expect(rf"version {game.retraction} / {last}\b[^\r\n]*\r?\n")
        child.expect(rf"{game.retraction:>4}  The table retracts #6\.")
        child.expect(re.escape(ann_before))  # the Camp is gone: Ann has her coins and labor back
        child.expect(r"Ann \(A\): Turn 1: labor phase\.")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_replay_without_a_terminal_marks_the_retracted_line(corrected: CorrectedGame) -> None:
    game = corrected
    out = game.cli.ok("replay", game.game_id, "--at", str(game.camp), stdin="q\n")
    assert f"~{game.camp:>3}  ~~#6 the table: build camp~~" in out.splitlines()
    assert "[retracted later]" in out


def test_undoing_more_actions_than_were_played_exits_1_with_the_code_and_rule(
    corrected: CorrectedGame,
) -> None:
    message = corrected.cli.fails(1, "record", corrected.game_id, "undo", "99")
    assert message.startswith("chronicle: error: rejected (nothing_to_retract): ")
    assert message.endswith("[corrections 1]")
    assert corrected.cli.ok("log", corrected.game_id).splitlines() == corrected.log


def test_the_log_over_a_server_marks_the_same_lines(corrected: CorrectedGame, server: Server) -> None:
    game = corrected
    assert game.cli.ok("log", game.game_id, "--server", server.url).splitlines() == game.log
    hidden = game.cli.ok("log", game.game_id, "--server", server.url, "--hide-retracted")
    assert hidden == game.cli.ok("log", game.game_id, "--hide-retracted")


def test_undo_k_retracts_the_last_k_actions_in_one_correction_with_its_reason(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game, *MISTAKE[:4])
    out = cli.ok("record", game, "undo", "2", "--reason", "wrong worker").splitlines()
    assert out[0].endswith("The table retracts #3, #4 (wrong worker).")
    assert out[1].startswith("retracted #3 (move green top), #4 (move green right); the game is at version ")
    # Redoing is recording again: the same moves are legal once more.
    assert "#5 the table: move green top" in cli.ok("record", game, "move green top")


def test_the_interactive_loop_undoes_refuses_with_the_rule_and_goes_on(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game, *MISTAKE[:3])
    out = cli.ok("record", game, stdin="undo 1 slipped\nundo 9\nmove green top\nquit\n")
    assert "The table retracts #3 (slipped)." in out
    assert "retracted #3 (move green top); the game is at version " in out
    assert "rejected (nothing_to_retract): " in out and "[corrections 1]" in out
    assert "#4 the table: move green top" in out


def test_undo_words_on_the_command_line_become_retraction_counts() -> None:
    assert split_undos(["undo", "2", "end", "UNDO", "undo 3", "undo", "build camp"]) == [
        2,
        "end",
        1,
        3,
        1,
        "build camp",
    ]
    with pytest.raises(UsageError):
        split_undos(["undo two"])
