"""What the `chronicle` command prints never holds a secret: a store URL's password is masked
wherever a URL is shown (the serve banner, errors, the projections), and a bad key or token
file stops a command with one line that does not repeat it."""

from __future__ import annotations

import base64
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from store.config import display_url, redact
from tests.cli.conftest import COMMAND, Cli, free_port
from tests.conftest import POSTGRES

PASSWORD = "hunter2-not-to-be-printed"
KEY = base64.b64encode(bytes(range(32))).decode()


def with_password(url: str) -> str:
    """The same PostgreSQL URL with a password (the test server trusts local connections, so
    the password is sent and ignored)."""
    scheme, rest = url.split("://", 1)
    user, host = rest.split("@", 1)
    return f"{scheme}://{user}:{PASSWORD}@{host}"


@pytest.mark.postgres
def test_serve_and_every_command_mask_the_password_of_a_postgresql_store_url(
    cli: Cli, postgres_url: str, tmp_path: Path
) -> None:
    assert postgres_url.startswith(POSTGRES)
    url = with_password(postgres_url)
    env = {"CHRONICLE_STORE": url, "CHRONICLE_SECRET_KEY": KEY}
    port = free_port()
    output = tmp_path / "serve.out"
    with output.open("w") as sink:
        process = subprocess.Popen(
            [*COMMAND, "serve", "--port", str(port)],
            env=cli.env | env,
            cwd=cli.home,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).json()["store"] == "postgresql":
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, output.read_text()
            assert time.monotonic() < deadline, output.read_text()
            time.sleep(0.1)
        created = httpx.post(
            f"http://127.0.0.1:{port}/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}
        )
        assert created.status_code == 201, created.text
    finally:
        process.terminate()
        process.wait(timeout=20)

    banner = output.read_text()
    assert f"(store: {url.replace(PASSWORD, '***')})" in banner.splitlines()[0]
    missing = cli.fails(1, "log", "abcdef", env=env)
    assert missing.endswith(f"in {url.replace(PASSWORD, '***')}")
    status = cli.run("projections", "status", env=env)
    bad_scheme = cli.fails(2, "games", "--store", url.replace("postgresql", "postgres-sql"))
    assert "***" in bad_scheme
    for printed in (banner, missing, status.stdout, status.stderr, bad_scheme):
        assert PASSWORD not in printed


def test_serve_refuses_a_malformed_secret_key_in_one_line_without_repeating_it(cli: Cli) -> None:
    message = cli.fails(2, "serve", "--port", str(free_port()), env={"CHRONICLE_SECRET_KEY": "sesame-open"})
    assert "CHRONICLE_SECRET_KEY" in message and "openssl rand -base64 32" in message
    assert "sesame" not in message


def test_serve_refuses_an_administrator_token_file_it_cannot_read_in_one_line(cli: Cli) -> None:
    missing = str(cli.home / "admin-token")
    message = cli.fails(2, "serve", "--port", str(free_port()), env={"CHRONICLE_ADMIN_TOKEN_FILE": missing})
    assert (
        message
        == f"chronicle: error: CHRONICLE_ADMIN_TOKEN_FILE: cannot read {missing}: No such file or directory"
    )
    both = {"CHRONICLE_ADMIN_TOKEN_FILE": missing, "CHRONICLE_ADMIN_TOKEN": "t"}
    assert "not both" in cli.fails(2, "serve", "--port", str(free_port()), env=both)


def test_a_local_store_whose_key_file_was_lost_is_refused_in_one_line(cli: Cli) -> None:
    game_id = cli.new_game("province", "--player", "Ann", "--player", "Ben")
    key_file = cli.home / "games.sqlite3.key"
    key = key_file.read_text()
    key_file.unlink()

    message = cli.fails(2, "audit", game_id)

    assert "holds encrypted secrets but its key file" in message and "is missing" in message
    key_file.write_text(key)
    assert cli.ok("audit", game_id).split()[1] == "clean"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ann:s%40cret@db:5432/games?schema=x", "postgresql://ann:***@db:5432/games?schema=x"),
        ("postgresql://ann@db/games", "postgresql://ann@db/games"),
        ("postgresql://db/games?password=sesame&schema=x", "postgresql://db/games?password=***&schema=x"),
        ("sqlite:////srv/games.sqlite3", "sqlite:////srv/games.sqlite3"),
        ("sqlite:///games.sqlite3", "sqlite:///games.sqlite3"),
    ],
)
def test_a_store_url_is_shown_with_its_password_masked_and_nothing_else_changed(url: str, shown: str) -> None:
    assert display_url(url) == shown


def test_a_message_quoting_the_password_in_either_form_has_it_masked() -> None:
    url = "postgresql://ann:s%40cret@db/games"
    assert redact("login s@cret failed (s%40cret)", url) == "login *** failed (***)"
    assert redact("nothing to hide", None) == "nothing to hide"
