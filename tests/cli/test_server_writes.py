"""Writing to a real `chronicle serve` with `chronicle` alone: a whole game recorded to its
end, a rejection followed to its rule text, games resigned and abandoned, exported, imported
and imported from a Dominion Online log, each by a game id prefix (`--server URL`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from replay_cli.reading import EventLine
from replay_cli.render import event_line
from store.app import ADMIN, Chronicle
from tests.cli.conftest import Cli, Server, serving
from tests.short_games import plan

ADMIN_TOKEN = "cli-write-administrator"
LOGS = Path(__file__).parents[1] / "data" / "dominion-logs"
EVENT = re.compile(r"^ *\d+  ")  # an event line: its version, then its text


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("server-writes"))


@pytest.fixture(scope="module")
def server(table: Cli) -> Iterator[Server]:
    with serving(table, {"CHRONICLE_ADMIN_TOKEN": ADMIN_TOKEN}) as running:
        yield running


def create(cli: Cli, server: Server, *args: str) -> dict[str, Any]:
    players = ("--player", "Ann", "--player", "Ben")
    created: dict[str, Any] = json.loads(
        cli.ok("new", "province", *players, *args, "--json", "--server", server.url)
    )
    return created


def test_a_whole_game_is_recorded_remotely_and_a_rejection_leads_to_its_rule(
    table: Cli, server: Server
) -> None:
    created = create(table, server, "--mode", "physical")  # the table's draws: a game of known length
    game, recorder = created["game_id"][:8], ("--server", server.url, "--token", created["recorder_token"])
    refused = table.fails(1, "record", game, "build mill", *recorder)
    assert refused.startswith("chronicle: error: rejected (")
    rule = refused.rsplit("[", 1)[1].rstrip("]")  # "province 3.2": the labour phase moves workers
    ruleset, number = rule.split()
    assert ruleset == "province"
    # pasted as the rejection gives it: the section's own text
    assert re.match(rf"#+ {re.escape(number)} \S", table.ok("rules", rule))

    # The store the server serves is this one: plan the rest of the game on the rules there.
    with Chronicle(table.store) as app:
        steps = plan(app, UUID(created["game_id"]), 1_000, "s7", one_seat=True)  # 131 actions
    assert len(steps) < 200
    out = table.ok("record", game, *(s.notation for s in steps), *recorder)

    shown = [line for line in out.splitlines() if EVENT.match(line)]
    with Chronicle(table.store) as app:
        stored = app.read_events(UUID(created["game_id"]), ADMIN)
    log = [event_line(EventLine(e.version, e.type, e.text, e.retracted)) for e in stored]
    # Every event the actions appended, once each and in order: from the first action to the
    # last fact (the game's end, which closes the record, is not an action's).
    assert "#1 the table: " in shown[0]
    assert shown == log[log.index(shown[0]) : len(log) - 1]
    assert stored[-1].type == "finished" and "Game over" in shown[-1]


def test_resign_and_abandon_on_a_server(table: Cli, server: Server) -> None:
    first = create(table, server, "--mode", "physical")
    game = first["game_id"][:8]
    seat_b = {"CHRONICLE_TOKEN": first["seat_tokens"]["B"]}
    wrong = table.fails(1, "resign", game, "Ann", "--server", server.url, env=seat_b)
    assert wrong.endswith("(wrong_seat)")
    out = table.ok("resign", game, "ben", "--reason", "left early", "--server", server.url, env=seat_b)
    lines = out.splitlines()
    assert "resign" in lines[0] and "left early" in lines[0], out
    assert lines[-2].startswith("outcome: ") and "Ann won" in lines[-2]
    assert re.fullmatch(r"the game is finished at version \d+", lines[-1])
    assert "(game_over)" in table.fails(1, "resign", game, "B", "--server", server.url, env=seat_b)

    second = create(table, server, "--mode", "physical")
    game = second["game_id"][:8]
    seat_a = {"CHRONICLE_TOKEN": second["seat_tokens"]["A"]}
    refused = table.fails(1, "abandon", game, "--server", server.url, env=seat_a)
    assert refused.endswith("(recorder_required)")
    out = table.ok("abandon", game, "--server", server.url, "--token", second["recorder_token"])
    assert re.fullmatch(r"the game is abandoned at version \d+", out.splitlines()[-1])
    assert "abandoned" in table.ok("games", "--server", server.url, "--status", "abandoned")


def test_ending_on_a_server_needs_a_token_and_one_place(table: Cli, server: Server) -> None:
    game = create(table, server, "--mode", "physical")["game_id"][:8]
    assert "give the recorder's token" in table.fails(2, "abandon", game, "--server", server.url)
    both = table.fails(2, "abandon", game, "--server", server.url, "--token", "t", "--store", table.store)
    assert both.endswith("give --store or --server, not both")
    assert "--token goes with --server" in table.fails(2, "resign", game, "A", "--token", "t")


def test_export_from_and_import_into_a_server(table: Cli, server: Server, tmp_path: Path) -> None:
    created = create(table, server, "--mode", "physical")
    game, recorder = created["game_id"], created["recorder_token"]
    # a running game is its recorder's to export
    assert table.fails(1, "export", game[:8], "--server", server.url).endswith("(export_not_allowed)")
    exported = tmp_path / "game.ndjson"
    remote = ("--server", server.url, "--token", recorder)
    table.ok("export", game[:8], "--format", "ndjson", "--out", str(exported), *remote)
    # the served export is the stored game, as the store's owner exports it
    assert exported.read_text() == table.ok("export", game, "--format", "ndjson")

    # a game from another store goes into the server, and is recorded on there
    elsewhere = Cli(tmp_path / "elsewhere")
    elsewhere.home.mkdir()
    other = elsewhere.new_game("province", "--player", "Cy", "--player", "Di", "--mode", "physical")
    carried = tmp_path / "other.json"
    elsewhere.ok("export", other, "--out", str(carried))
    out = table.ok("import", str(carried), "--server", server.url, "--token", ADMIN_TOKEN).splitlines()
    assert out[0].startswith(f"game      {other}  running, ")
    assert out[2].startswith("recorder  ")
    new_recorder = out[2].split()[1]
    moved = table.ok("record", other[:8], "first B black", "--server", server.url, "--token", new_recorder)
    assert "the table: first B black" in moved
    again = table.fails(1, "import", str(carried), "--server", server.url, "--token", ADMIN_TOKEN)
    assert again.endswith("(game_exists)")


def test_import_log_into_a_server_prints_the_tokens_and_goes_on_past_a_refused_log(
    table: Cli, server: Server
) -> None:
    left = str(LOGS / "log.51919af0e4b0d001ef25b885.1368496912009.txt")
    refused = str(LOGS / "log.4fec9f5b30c40b085b22e3fe.1344218998422.txt")
    remote = ("--server", server.url, "--token", ADMIN_TOKEN)
    done = table.run("import-log", "dominion", left, refused, *remote)
    assert done.returncode == 1 and done.stderr.startswith("chronicle: error: 1 of 2 logs")
    assert "left: guest2666.0000 left the online game after line 76" in done.stdout
    assert "not imported (cards_not_implemented): " in done.stdout
    tokens = re.findall(r"^  (recorder|seat p\d) +(\S+)$", done.stdout, flags=re.M)
    assert [who for who, _ in tokens] == ["recorder", "seat p1", "seat p2", "seat p3", "seat p4"]
    game = re.search(r"^  game     (\S+)", done.stdout, flags=re.M)
    assert game is not None
    assert "dominion" in table.ok("games", "--server", server.url, "--ruleset", "dominion")
    as_json = table.run("import-log", "dominion", "--json", refused, *remote)
    assert json.loads(as_json.stdout)["refused"] == "cards_not_implemented"
