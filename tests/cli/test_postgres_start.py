"""Commands on a PostgreSQL store that does not answer wait for it up to `CHRONICLE_PG_WAIT`
seconds, saying so in one line, then fail with one line; a `?schema=NAME` that does not exist
is created by the first command that opens it."""

from __future__ import annotations

import base64

import pytest

from tests.cli.conftest import Cli, free_port
from tests.postgres_support import missing_schema, schema_exists

KEY = base64.b64encode(bytes(range(32))).decode()  # the store's key for its secrets


def closed(cli: Cli) -> tuple[Cli, str]:
    """`cli` on a PostgreSQL URL nothing answers at, waiting a second for it."""
    port = free_port()
    url = f"postgresql://chronicle:sesame@127.0.0.1:{port}/games?schema=games"
    return Cli(
        cli.home, url, {"CHRONICLE_SECRET_KEY": KEY, "CHRONICLE_PG_WAIT": "1"}
    ), f"127.0.0.1:{port}/games"


@pytest.mark.parametrize("command", [["games"], ["serve", "--port", "0"], ["projections", "status"]])
def test_a_store_that_does_not_answer_is_waited_for_then_one_line_and_exit_1(
    cli: Cli, command: list[str]
) -> None:
    waiting, where = closed(cli)
    done = waiting.run(*command)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr.splitlines() == [
        f"chronicle: waiting up to 1 s for PostgreSQL at {where} (Connection refused)",
        f"chronicle: error: PostgreSQL at {where} did not answer within 1 s (Connection refused); "
        "CHRONICLE_PG_WAIT sets how long to wait (store_unavailable)",
    ]
    assert "sesame" not in done.stdout + done.stderr


@pytest.mark.postgres
def test_the_first_command_on_a_schema_that_does_not_exist_creates_it(cli: Cli) -> None:
    with missing_schema() as (name, url):
        on_it = Cli(cli.home, url, {"CHRONICLE_SECRET_KEY": KEY})
        assert on_it.ok("projections", "status").splitlines()[-1].startswith("no view has been built yet")
        assert schema_exists(name)
    with missing_schema() as (name, url):
        on_it = Cli(cli.home, url, {"CHRONICLE_SECRET_KEY": KEY})
        game_id = on_it.new_game("province", "--player", "Ann", "--player", "Ben", "--mode", "physical")
        assert game_id in on_it.ok("games")
