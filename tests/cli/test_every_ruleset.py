"""Every ruleset through the real `chronicle` command, on SQLite and on PostgreSQL: a short game
of each registered game is created with `new`, entered in its notation with `record` (an
action undone and entered again on the way), read with `log` and `show` as each kind of
viewer, listed by `games`, audited, and read again over a real `chronicle serve`.

Each store holds one game per ruleset, digital or physical; the two stores take the modes the
other way round, so every game goes through both. The actions are the ruleset's seeded bot's,
planned on the rules from the stored state (tests/short_games.py) and entered as notation.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pytest

from store.app import Chronicle
from store.sealing import KEY_VARIABLE
from tests.cli.conftest import Cli, Server, serving
from tests.conftest import postgres_schema
from tests.short_games import RULESET_IDS, Step, option_args, plan, players, ruleset_named

STEPS = 5  # actions entered per game, the last one undone and entered again
KEY = base64.b64encode(bytes(range(40, 72))).decode()  # a PostgreSQL store's key for its secrets


@dataclass(frozen=True)
class Recorded:
    game_id: str
    mode: str
    steps: list[Step]
    out: str  # what `chronicle record` printed


@dataclass(frozen=True)
class Table:
    """One store with one game of each ruleset."""

    cli: Cli
    games: dict[str, Recorded]


def record_game(cli: Cli, ruleset: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> Recorded:
    names = [arg for name in players(ruleset) for arg in ("--player", name)]
    game_id = cli.new_game(ruleset, *names, "--mode", mode, *option_args(ruleset))
    # The store's own key, as its commands have it: not one another module-scoped table of
    # this worker left in the environment.
    monkeypatch.delenv(KEY_VARIABLE, raising=False)
    for name, value in cli.settings.items():
        monkeypatch.setenv(name, value)
    with Chronicle(cli.store) as app:
        steps = plan(app, UUID(game_id), STEPS, f"cli-{ruleset}-{mode}", one_seat=True)
    assert len(steps) == STEPS, f"{ruleset} prompts several seats at once within {len(steps)} actions"
    notation = [s.notation for s in steps]
    out = cli.ok("record", game_id, *notation, "undo", notation[-1])
    return Recorded(game_id, mode, steps, out)


def recorded_table(kind: str, home: Path) -> Iterator[Table]:
    flip = kind == "postgresql"
    with pytest.MonkeyPatch.context() as monkeypatch, postgres_or_sqlite(kind, home) as url:
        cli = Cli(home, url, {} if url.startswith("sqlite") else {KEY_VARIABLE: KEY})
        games = {
            ruleset: record_game(cli, ruleset, "physical" if (i % 2 == 0) != flip else "digital", monkeypatch)
            for i, ruleset in enumerate(RULESET_IDS)
        }
        yield Table(cli, games)


@pytest.fixture(scope="module")
def sqlite_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    yield from recorded_table("sqlite", tmp_path_factory.mktemp("every-ruleset-sqlite"))


@pytest.fixture(scope="module")
def postgresql_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    yield from recorded_table("postgresql", tmp_path_factory.mktemp("every-ruleset-postgresql"))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def table(request: pytest.FixtureRequest) -> Table:
    found: Table = request.getfixturevalue(f"{request.param}_table")
    return found


@pytest.fixture(scope="module")
def server(sqlite_table: Table) -> Iterator[Server]:
    with serving(sqlite_table.cli) as running:
        yield running


@contextmanager
def postgres_or_sqlite(kind: str, home: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{home / 'games.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_record_enters_each_action_in_the_notation_of_each_ruleset_and_undo_takes_one_back(
    table: Table, ruleset: str
) -> None:
    game = table.games[ruleset]
    lines = game.out.splitlines()
    entered = [line for line in lines if re.match(r"^\s*\d+\s+#\d+ ", line)]
    seqs = [int(re.search(r"#(\d+) ", line)[1]) for line in entered]  # type: ignore[index]
    assert seqs == [*range(1, STEPS + 1), STEPS + 1]
    for line, step in zip(entered, [*game.steps, game.steps[-1]], strict=True):
        assert line.endswith(f": {step.notation}"), (line, step)
    assert f"retracted #{STEPS} ({game.steps[-1].notation}); the game is at version " in game.out


def test_games_lists_one_game_of_each_ruleset_and_audit_finds_each_clean(table: Table) -> None:
    rows = table.cli.ok("games").splitlines()[1:]
    assert sorted(row.split()[1] for row in rows) == sorted(RULESET_IDS)
    audit = table.cli.run("audit", "--all")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    clean = {line.split()[0] for line in audit.stdout.splitlines() if line.split()[1] == "clean"}
    assert clean == {game.game_id for game in table.games.values()}


# The reading commands read both stores alike (the audit above read every event of each): the
# tests below run on SQLite only, to keep the suite short.
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_log_and_show_give_each_viewer_what_it_may_see_here_and_over_the_server(
    sqlite_table: Table, server: Server, ruleset: str
) -> None:
    cli, game = sqlite_table.cli, sqlite_table.games[ruleset]
    seat = ruleset_named(ruleset).meta.seat_ids[len(players(ruleset)) - 1]
    public = cli.ok("log", game.game_id, "--as", "public").splitlines()
    shown = cli.ok("show", game.game_id, "--as", seat).splitlines()
    remote = cli.ok("log", game.game_id, "--server", server.url).splitlines()

    # Every version has its line; the undone action's (and its facts') are marked.
    assert [int(line.strip("~ ").split()[0]) for line in public] == list(range(1, len(public) + 1))
    marked = [line.strip("~ ").split()[1].strip("~") for line in public if line.startswith("~")]
    assert marked[0] == f"#{STEPS}" and not any(word.startswith("#") for word in marked[1:])
    last = len(public)
    assert shown[0].startswith(f"game {game.game_id}  {ruleset} ({game.mode})")
    assert shown[1] == f"version {last} of {last}  running  seen as player:{seat}"
    # The server gives the public the same lines as the store does.
    assert remote == public


def test_the_server_lists_the_same_games(sqlite_table: Table, server: Server) -> None:
    assert sqlite_table.cli.ok("games", "--server", server.url) == sqlite_table.cli.ok("games")
