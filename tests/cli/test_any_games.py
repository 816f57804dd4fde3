"""`chronicle new any` with its title, BoardGameGeek id and definition; `chronicle import` of a
BG Stats export (each play a finished game of `any`, a second import adding nothing, a bad play
refused alone); `chronicle stats any` listing every title."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from projections.games_index import GameIndex, GameSummary
from store.app import Chronicle
from tests.cli.conftest import Cli, serving

FIXTURE = Path(__file__).parents[1] / "data" / "bgstats" / "game-nights.json"


@contextmanager
def _store(cli: Cli) -> Iterator[Chronicle]:
    app = Chronicle(cli.store)
    try:
        yield app
    finally:
        app.close()


def _games(cli: Cli) -> list[GameSummary]:
    with _store(cli) as app:
        return GameIndex(app).search(limit=100)[0]


def _options(cli: Cli, *args: str) -> dict[str, Any]:
    game_id = cli.new_game("any", "--player", "Ann", "--player", "Ben", *args)
    with _store(cli) as app:
        return dict(app.game(UUID(game_id)).config.options)


def test_new_any_takes_a_title_a_bgg_id_and_a_definition(cli: Cli) -> None:
    assert _options(cli, "--title", "Azul")["title"] == "Azul"
    options = _options(cli, "--title", "Azul", "--bgg-id", "230802", "--definition", "five-dice")
    assert (options["title"], options["bgg_id"]) == ("Azul", 230802)
    definition = json.loads(options["definition"])
    assert definition["dice"][0]["count"] == 5 and definition["dice"][0]["faces"] == 6
    canonical = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert options["definition"] == canonical
    # a file's own title serves when --title is absent; --title wins over it
    toml = cli.home / "farkle.toml"
    toml.write_text('title = "Farkle night"\nbgg_id = 3181\n[[dice]]\nname = "dice"\ncount = 6\nfaces = 6\n')
    options = _options(cli, "--definition", str(toml))
    assert (options["title"], options["bgg_id"]) == ("Farkle night", 3181)
    assert json.loads(options["definition"])["dice"][0]["count"] == 6
    assert _options(cli, "--definition", str(toml), "--title", "Farkle")["title"] == "Farkle"
    as_json = cli.home / "colours.json"
    as_json.write_text(json.dumps({"dice": [{"name": "colour", "count": 1, "faces": ["red", "blue"]}]}))
    options = _options(cli, "--title", "Colours", "--definition", str(as_json))
    assert json.loads(options["definition"])["dice"][0]["name"] == "colour"


def test_a_bad_definition_is_one_line_and_creates_nothing(cli: Cli) -> None:
    new = ("new", "any", "--player", "Ann", "--title", "Azul", "--definition")
    missing = cli.fails(2, *new, "nowhere.toml")
    assert "cannot read the definition nowhere.toml" in missing and "five-dice" in missing
    broken = cli.home / "broken.toml"
    broken.write_text('[[dice]]\nname = "dice"\ncount = \n')
    assert "not valid TOML" in cli.fails(2, *new, str(broken)) and "line 3" in cli.fails(2, *new, str(broken))
    bad_json = cli.home / "bad.json"
    bad_json.write_text('{"dice": [\n  {"name": "dice",}\n]}')
    assert "not valid JSON" in (line := cli.fails(2, *new, str(bad_json))) and "line 2" in line
    wrong = cli.home / "wrong.toml"
    wrong.write_text(
        '[[dice]]\nname = "dice"\ncount = 5\nfaces = 6\n[[dice]]\nname = "more"\ncount = 0\nfaces = 6\n'
    )
    refused = cli.fails(2, *new, str(wrong))
    assert "is refused" in refused and "dice[1]" in refused and "(bad_definition)" in refused
    province = ("new", "province", "--player", "A", "--player", "B")
    assert "--title applies to a ruleset" in cli.fails(2, *province, "--title", "X")
    assert _games(cli) == []


def test_a_game_without_a_title_is_refused(cli: Cli) -> None:
    done = cli.run("new", "any", "--player", "Ann")
    assert done.returncode != 0 and "title_required" in done.stderr


def _bad_copy(cli: Cli) -> Path:
    data = json.loads(FIXTURE.read_text())
    bad = json.loads(json.dumps(data["plays"][0]))
    bad["uuid"] = "0F3C1E4A-5B6D-4C7E-8F90-A1B2C3D4E5F6"
    bad["playerScores"][0]["score"] = "lots"
    data["plays"].insert(2, bad)
    path = cli.home / "with-a-bad-play.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    cli = Cli(tmp_path_factory.mktemp("bgstats"))
    out = cli.ok("import", str(FIXTURE))
    assert out.strip().endswith("8 plays imported, 0 skipped, 0 refused")
    return cli


def test_a_bgstats_file_imports_once_and_a_bad_play_is_refused_alone(imported: Cli) -> None:
    again = imported.ok("import", str(FIXTURE))
    assert again.strip().endswith("0 plays imported, 8 skipped, 0 refused")
    done = imported.run("import", str(_bad_copy(imported)))
    assert done.returncode == 1
    assert done.stdout.strip().endswith("0 plays imported, 8 skipped, 1 refused")
    assert "plays[2] (Azul): refused:" in done.stderr and "'lots'" in done.stderr
    listed = _games(imported)
    assert len(listed) == 8  # the bad play stored nothing
    assert {g.status for g in listed} == {"finished"}
    assert {g.title for g in listed} == {"Azul", "Catan", "Pandemic", "Golf", "Codenames"}
    lines = imported.ok("games").splitlines()
    assert any("any (physical): Azul" in line for line in lines)
    # the cooperative game lost: nobody won it, the one won names every player
    assert [line for line in lines if line.endswith("  nobody")] == [
        line for line in lines if "Pandemic" in line and line.endswith("  nobody")
    ]
    assert any("Pandemic" in line and line.endswith("  nobody") for line in lines)


def test_an_imported_play_keeps_its_players_options_and_results(imported: Cli) -> None:
    listed = _games(imported)
    # the start player (Ben) sits first
    first = next(g for g in listed if g.title == "Azul" and g.players == ["Ben", "Ann"])
    golf_id = next(g.game_id for g in listed if g.title == "Golf")
    with _store(imported) as app:
        game = app.game(UUID(first.game_id))
        golf = app.game(UUID(golf_id))
    assert game.config.mode == "physical" and game.config.options["bgg_id"] == 230802
    assert game.config.options["played_on"] == "2024-03-01" and "bgstats" in game.tags
    assert game.outcome is not None and game.outcome.scores == {"A": 65, "B": 72}
    assert game.outcome.winners == ("B",)
    assert json.loads(golf.config.options["definition"])["ending"]["kind"] == "lowest"
    assert golf.outcome is not None and golf.outcome.winners == ("A",)


def _table(tables: list[dict[str, Any]], table_id: str) -> dict[str, dict[str, Any]]:
    table = next(t for t in tables if t["id"] == table_id)
    return {row[table["key"]]: row for row in table["rows"]}


def test_stats_any_lists_every_title_with_its_plays_and_wins(imported: Cli) -> None:
    stats = json.loads(imported.ok("stats", "any", "--json", "--limit", "0"))
    titles = _table(stats, "any_titles")
    assert {t: row["games"] for t, row in titles.items()} == {
        "Azul": 3,
        "Catan": 1,
        "Codenames": 1,
        "Golf": 1,
        "Pandemic": 2,
    }
    assert titles["Pandemic"]["won"] == 1 and titles["Azul"]["won"] is None
    assert titles["Golf"]["best_score"] == 12 and titles["Azul"]["best_score"] == 72
    assert titles["Codenames"]["mean_score"] is None  # winners alone: no scores
    players = _table(stats, "any_title_players")
    assert (players["Azul/Ann"]["wins"], players["Azul/Ann"]["shared"]) == (1, 1)
    assert (players["Azul/Ben"]["wins"], players["Azul/Ben"]["shared"]) == (1, 1)
    assert players["Azul/Cy"]["wins"] == 0
    assert players["Codenames/Ann"]["shared"] == 1 and players["Pandemic/Di"]["shared"] == 0
    ratings = _table(stats, "rating")
    assert {"any:Azul/Ann", "any:Catan/Ann", "any:Golf/Ann"} <= set(ratings)
    assert ratings["any:Azul/Ann"]["games"] == 3 and ratings["any:Catan/Ann"]["games"] == 1
    text = imported.ok("stats", "any", "--table", "any_titles")
    for title in ("Azul", "Catan", "Codenames", "Golf", "Pandemic"):
        assert title in text


def test_new_any_and_a_bgstats_import_over_a_server(cli: Cli) -> None:
    """`--server` posts the same options (the definition read here) and the file as it is."""
    with serving(cli) as server:
        created = json.loads(
            cli.ok(
                "new", "any", "--definition", "five-dice", "--player", "Ann", "--server", server.url, "--json"
            )
        )
        game = httpx.get(f"{server.url}/games/{created['game_id']}").json()
        assert game["options"]["title"] == "Five dice"
        assert json.loads(game["options"]["definition"])["dice"][0]["count"] == 5
        out = cli.ok("import", str(FIXTURE), "--server", server.url)
        assert out.strip().endswith("8 plays imported, 0 skipped, 0 refused")
        again = cli.ok("import", str(FIXTURE), "--server", server.url)
        assert again.strip().endswith("0 plays imported, 8 skipped, 0 refused")


def test_a_game_exported_for_bg_stats_names_its_title_and_comes_back_as_itself(imported: Cli) -> None:
    golf = next(g.game_id for g in _games(imported) if g.title == "Golf")
    out = imported.home / "golf.json"
    imported.ok("export", golf, "--format", "bgstats", "--out", str(out))
    exported = json.loads(out.read_text())
    assert exported["games"][0]["name"] == "Golf" and exported["games"][0]["bggId"] == 6634
    again = imported.ok("import", str(out))
    assert again.strip().endswith("0 plays imported, 1 skipped, 0 refused")
    assert len(_games(imported)) == 8
