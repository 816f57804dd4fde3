"""`chronicle new` and `chronicle record`: creating games and entering actions at the table."""

from __future__ import annotations

import json
import re

from tests.cli.conftest import PHYSICAL_OPENING, Cli, RecordedGame

PLAYERS = ("--player", "Ann", "--player", "Bob")
VECTOR_SEED = bytes(range(32)).hex()


def test_new_prints_the_game_id_the_commitment_and_one_token_per_seat(cli: Cli) -> None:
    out = cli.ok("new", "province", *PLAYERS, "--seed", VECTOR_SEED, "--tag", "club")
    assert "commitment  630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" in out
    assert "recorder" in out and "A (Ann)" in out and "B (Bob)" in out
    assert out.startswith("game        ")


def test_new_with_json_prints_one_object_with_typed_options(cli: Cli) -> None:
    created = json.loads(
        cli.ok(
            "new", "province", *PLAYERS, "--json",
            "--option", "coin_supply_total=35", "--option", "labor_carryover=true",
            "--option", "max_builds_per_turn=1",
        )
    )  # fmt: skip
    assert set(created) >= {"game_id", "commitment", "recorder_token", "seat_tokens"}
    assert len(created["commitment"]) == 64 and set(created["seat_tokens"]) == {"A", "B"}


def test_new_holds_names_and_tags_to_the_limits_of_the_http_api(cli: Cli) -> None:
    control = cli.fails(1, "new", "province", "--player", "Ann\x1b[31m", "--player", "Bob")
    long_tag = cli.fails(1, "new", "province", *PLAYERS, "--tag", "t" * 65)

    assert "control characters are not allowed - at `$.players[0]`" in control
    assert "length <= 64 - at `$.tags[0]`" in long_tag
    assert "(invalid_request)" in control


def test_a_physical_game_is_recorded_through_notation(physical_game: RecordedGame) -> None:
    actions = [re.search(r"#\d+ the table: (.*)", line) for line in physical_game.log]
    assert [found[1] for found in actions if found] == list(PHYSICAL_OPENING)
    assert any("Camp" in line for line in physical_game.log)


def test_each_recorded_action_prints_its_version_and_the_line_of_each_fact(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    out = cli.ok("record", game, "first B black").splitlines()
    assert out[0].split() == ["3", "#1", "the", "table:", "first", "B", "black"]
    assert out[1].split()[0] == "4" and "Bob" in out[1]
    assert cli.ok("log", game).splitlines()[2:] == out


def test_an_illegal_action_exits_1_with_its_code_and_rule_on_one_line(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game, "first A", "reveal labor5")
    message = cli.fails(1, "record", game, "build camp")
    assert message.startswith("chronicle: error: rejected (no_worker_moved): ")
    assert message.endswith("[province 3.2]")


def test_a_rejection_leads_to_its_rule_text_with_chronicle_rules(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game, "first A", "reveal labor5")
    rule = cli.fails(1, "record", game, "build camp").rsplit("[", 1)[1].rstrip("]")
    text = cli.ok("rules", rule)
    assert text.startswith("### 3.2 ") and "At least one worker must move" in text
    assert cli.ok("rules", "province", "3.2") == text
    assert "2b       A random outcome" in cli.ok("rules", "corrections", "--list")
    assert cli.ok("rules", "records").startswith("# Records")
    assert "no rules reference 'chess' (references: any, dominations, " in cli.fails(2, "rules", "chess")
    assert "province has no section '99' (sections: 1, 1.2," in cli.fails(2, "rules", "province", "99")


def test_the_actions_before_an_illegal_one_stay_recorded(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    done = cli.run("record", game, "first A", "reveal labor5", "move green nowhere")
    assert done.returncode == 1 and "#2 the table: reveal labor5" in done.stdout
    assert "rejected (" in done.stderr and "Traceback" not in done.stderr


def test_notation_that_cannot_be_read_is_refused_with_the_usage(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    assert "rejected (invalid_payload)" in cli.fails(1, "record", game, "dance wildly")


def test_a_game_is_named_by_a_unique_prefix_of_its_id(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    cli.ok("record", game[:6], "first A")
    assert "first A" in cli.ok("log", game[:4])


def test_a_json_action_is_recorded_like_its_notation(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    out = cli.ok("record", game, "--json", '{"kind": "DetermineFirstPlayer", "first": "A"}')
    assert "#1 the table: first A" in out
    assert "not a JSON object" in cli.fails(2, "record", game, "--json", "first A")


def test_the_interactive_loop_shows_the_choices_and_goes_on_after_an_illegal_action(cli: Cli) -> None:
    game = cli.new_game("province", *PLAYERS, "--mode", "physical")
    out = cli.ok("record", game, stdin="?\nfirst C\nfirst A white\nreveal workers2\nquit\nend\n")
    assert "waiting for:" in out and "legal: first A" in out
    assert re.search(r"^  first B black +DetermineFirstPlayer$", out, re.M)  # `?` lists every legal action
    assert "rejected (" in out
    assert "#2 the table: reveal workers2" in out
    assert "#3" not in out  # `quit` left before `end`
    assert "reveal workers2" in cli.ok("log", game)


def test_the_interactive_question_mark_says_what_each_physical_draw_means(cli: Cli) -> None:
    game = cli.new_game("dominations", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    out = cli.ok("record", game, stdin="?\nquit\n")
    assert re.search(r"^  draw P03 +an Age I province card, P03, revealed into the available row", out, re.M)
