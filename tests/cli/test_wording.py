"""The exact lines the `chronicle` command prints for what a user types and reads: a misspelt
word's suggestion, a batch stopped by a refusal, `?` in a batch, a file that is no bundle, the
list of rules references, the score chart's marks and the width of the statistics tables."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Cli


@pytest.fixture(scope="module")
def dominion(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, str]:
    """A store with one finished digital Dominion game; its id."""
    cli = Cli(tmp_path_factory.mktemp("wording"))
    cli.ok("simulate", "dominion", "--games", "1", "--seed", "short-0")
    return cli, cli.ok("games").splitlines()[1].split()[0]


def test_a_misspelt_card_is_refused_with_the_card_suggested(cli: Cli) -> None:
    game = cli.new_game("dominion", "--player", "Ann", "--player", "Ben")
    assert cli.fails(1, "record", game, "end", "buy Silvr") == (
        "chronicle: error: rejected (unknown_pile): There is no Supply pile 'Silvr' in this game."
        " Did you mean 'buy Silver'? [dominion 4.1]"
    )


def test_a_batch_stopped_by_a_refusal_names_the_actions_it_did_not_enter(cli: Cli) -> None:
    game = cli.new_game("province", "--player", "Ann", "--player", "Ben", "--mode", "physical")
    done = cli.run("record", game, "first A white", "build mill", "reveal workers2", "undo")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].endswith("#1 the table: first A white")
    assert done.stderr.splitlines() == [
        "chronicle: error: rejected (awaiting_random_input): The table must first enter the goal token"
        " turned face up."
        " [province 7.6]; not entered: 'reveal workers2', undo 1"
    ]
    assert "#2" not in cli.ok("log", game)


def test_a_question_mark_in_a_batch_lists_the_legal_actions_there(cli: Cli) -> None:
    game = cli.new_game("province", "--player", "Ann", "--player", "Ben", "--mode", "physical")
    listed = cli.ok("record", game, "first A white", "?").splitlines()
    assert "  reveal workers2    RevealGoal" in listed
    assert "#2" not in cli.ok("log", game)


def test_verify_on_a_file_that_is_no_bundle_says_so_in_one_line(cli: Cli) -> None:
    (cli.home / "notes.txt").write_text("not a bundle\n")
    (cli.home / "other.json").write_text('{"game": 1}\n')
    assert cli.fails(2, "verify", "notes.txt") == (
        "chronicle: error: notes.txt is not an evidence bundle"
        " (it is not JSON; `chronicle dispute export` writes one)"
    )
    assert "other.json is not an evidence bundle (it is JSON without" in cli.fails(2, "verify", "other.json")


def test_rules_list_alone_names_every_reference(cli: Cli) -> None:
    listed = cli.ok("rules", "--list").splitlines()
    assert [line.split()[0] for line in listed] == [
        "any",
        "dominations",
        "dominion",
        "dynasties",
        "province",
        "records",
        "corrections",
    ]
    assert listed[4] == "province     Province: the rules as Chronicle enforces them"
    assert "--list alone lists them" in cli.fails(2, "rules")


def test_the_score_chart_marks_each_player_apart_with_a_legend(dominion: tuple[Cli, str]) -> None:
    cli, game = dominion
    lines = cli.ok("stats", "--game", game[:8]).splitlines()
    legend = next(line for line in lines if "= Bot p1" in line)
    assert legend.strip() == "1 = Bot p1, 2 = Bot p2, * = both"
    chart = [line for line in lines[: lines.index(legend)] if " |" in line]
    drawn = {mark for line in chart for mark in line.split(" |", 1)[1]}
    assert {"1", "2"} <= drawn and "p" not in drawn


def test_the_dominion_card_table_fits_120_columns_unless_wide(dominion: tuple[Cli, str]) -> None:
    cli, _game = dominion
    fitted = cli.ok("stats", "--table", "dominion_cards").splitlines()
    assert max(len(line) for line in fitted) <= 120
    assert fitted[-1].startswith("... ") and fitted[-1].endswith("on (--wide shows all)")
    wide = cli.ok("stats", "--table", "dominion_cards", "--wide").splitlines()
    assert max(len(line) for line in wide) > 120 and "--wide" not in wide[-1]
    assert wide[3].split()[0] == fitted[3].split()[0]  # the same rows, every column
