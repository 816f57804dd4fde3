"""A physical Dynasties & Kingdoms session recorded through the `chronicle` command with
hand-rolled dice and hand-dealt cards: impossible inputs are refused with the rule cited, the
game replays step by step and audits clean; a short digital simulation audits clean too."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Cli

OPENING = (
    "order p1 4",
    "order p2 4",
    "order p1 2",
    "order p2 6",
    "pick kaifeng",
    "pick chengdu",
    "shuffle",
    "city kaifeng 5",
    "end city",
    "province kaifeng 3 6",
    "end province",
    "move luoyang kaifeng:4",
    "end expansion",
    "end scoring",
    "city chengdu 2",
    "end city",
    "province chengdu 1 2",
    "rebels p2",
    "deal QH,QC,5S / KD,KS,4C,2H,3H",
    "draw attacker 5S > 9C",
    "draw defender 4C,2H > 7H,KH",
    "resolve defender",
    "end province",
    "move fengxiang chengdu:2",
    "end expansion",
    "end scoring",
)


def test_a_physical_session_recorded_by_hand_replays_step_by_step_and_audits_clean(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    game = cli.new_game("dynasties", "--player", "Li Cunxu", "--player", "Qian Liu", "--mode", "physical")
    cli.ok("record", game, *OPENING)
    line = cli.fails(1, "record", game, "city kaifeng 7")
    assert "BAD_PARAMETER" in line and "dynasties 5.2" in line
    line = cli.fails(1, "record", game, "move kaifeng luoyang:4")
    assert "WRONG_PHASE" in line
    cli.ok(
        "record",
        game,
        "city kaifeng 4",
        "end city",
        "province kaifeng 3 1",
        "province luoyang 3 2",
        "end province",
    )
    line = cli.fails(1, "record", game, "move xiangzhou luoyang:4")
    assert "LAST_ARMY" in line and "dynasties 3.4" in line
    line = cli.fails(1, "record", game, "move xiangzhou luoyang:1", "move chengdu xiangzhou:1")
    assert "NOT_ENOUGH_UNMOVED" in line
    log = cli.ok("log", game)
    assert "Petty Warlord" in log and "three kings" in log and "(observed)" in log
    screens = cli.ok("replay", game, "--events", stdin="n\n" * 80 + "q\n")  # every version
    assert "version 2 /" in screens and "xiangzhou: armies=1, army_owner=p2" in screens
    assert "clean" in cli.ok("audit", game)


def test_a_digital_simulation_audits_clean(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    out = cli.ok("simulate", "dynasties", "--games", "3", "--seed", "3", "--players", "4")
    assert "3 finished" in out
    lines = cli.ok("audit", "--all").splitlines()
    assert len(lines) == 3 and all("  clean  " in line for line in lines)
