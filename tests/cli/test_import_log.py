"""`chronicle import-log dominion FILE...`: real Dominion Online logs into the local store."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Cli

LOGS = Path(__file__).parents[1] / "data" / "dominion-logs"
QUIT = str(LOGS / "log.51919af0e4b0d001ef25b885.1368496912009.txt")
EXPANSIONS = str(LOGS / "log.4fec9f5b30c40b085b22e3fe.1344218998422.txt")
TODAY = str(LOGS / "today-162962491.txt")
TODAY_MILITIA = str(LOGS / "today-183266643.txt")
MILITIA_KINGDOM = "Remodel, Smithy, Laboratory, Market, Workshop, Militia, Moneylender, Poacher, Cellar, Moat"


def test_import_log_prints_turns_actions_scores_and_where_a_player_left(cli: Cli) -> None:
    done = cli.run("import-log", "dominion", QUIT, EXPANSIONS, TODAY)
    assert done.returncode == 1
    why = "were refused or did not reach their end with the log's scores"
    assert done.stderr == f"chronicle: error: 2 of 3 logs {why}\n"
    out = done.stdout
    assert "left: guest2666.0000 left the online game after line 76" in out
    assert "players  p1 Villager Bot, p2 guest2666.0000, p3 Defender Bot, p4 Banker Bot" in out
    assert "turns    10 (log 10)" in out
    assert "guest2666.0000 7 (log 7)" in out and ": equal" in out
    assert "refused  nothing" in out
    assert "not imported (cards_not_implemented): " in out and "Secret Chamber" in out
    assert "not imported (log_kingdom): " in out and "name the 10 piles" in out
    games = cli.ok("games")
    assert len([line for line in games.splitlines() if "dominion" in line]) == 1


def test_import_log_with_json_prints_one_object_per_log(cli: Cli) -> None:
    done = cli.run("import-log", "dominion", "--json", QUIT, EXPANSIONS)
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["status"] == "left" and first["scores"] == first["scores_log"]
    assert first["turns"] == 10 and first["refusal"] is None
    assert second == {"source": EXPANSIONS, "refused": "cards_not_implemented", "detail": second["detail"]}


def test_import_log_refuses_a_missing_file_in_one_line_before_importing_any(cli: Cli) -> None:
    missing = cli.fails(2, "import-log", "dominion", QUIT, "no-such-file.txt")
    assert missing.strip() == "chronicle: error: cannot read no-such-file.txt: No such file or directory"


def test_import_log_takes_the_kingdom_of_a_log_of_todays_format(cli: Cli) -> None:
    out = cli.ok("import-log", "dominion", "--kingdom", MILITIA_KINGDOM, TODAY_MILITIA)
    assert "finished: The game is over." in out
    assert "turns    33 (log 33)" in out
    assert "scores   Lord Rattington 39 (log 39), domibot_v1.4 28 (log 28): equal" in out
