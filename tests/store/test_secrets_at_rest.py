"""Secrets at rest on both stores: the server seed and the token hashes are stored encrypted.

The key is `CHRONICLE_SECRET_KEY`, else (SQLite) a key file beside the store made on first
use; PostgreSQL without the variable stores new secrets unencrypted and warns. Secrets stored
before encryption existed still open.
"""

from __future__ import annotations

import base64
import logging
import sqlite3
import stat
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import psycopg
import pytest
from eventsourcing.persistence import Mapper

from store import sealing
from store.app import RECORDER, Access, Chronicle, NewGame
from store.config import StoreConfigError, store_env
from store.errors import SecretsLocked
from store.sealing import KEY_VARIABLE, MARK, key_file, secret_key
from store.secrets import hash_token, new_token, secrets_id

SEED = bytes(range(100, 132))
KEY = base64.b64encode(bytes(range(32))).decode()
OTHER_KEY = base64.b64encode(bytes(range(1, 33))).decode()
MOVE = {"kind": "MoveWorker", "piece": "green", "from": "top"}


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite:")


@pytest.fixture
def keyed(store_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The store with its usual key: the key file on SQLite, the variable on PostgreSQL."""
    if is_sqlite(store_url):
        monkeypatch.delenv(KEY_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(KEY_VARIABLE, KEY)
    return store_url


@pytest.fixture
def app(keyed: str) -> Iterator[Chronicle]:
    application = Chronicle(keyed, admin_token="admin")
    yield application
    application.close()


def stored_bytes(url: str) -> bytes:
    """Every byte the store keeps: the SQLite file and its journals (not the key file), or
    every row of the PostgreSQL events table."""
    if is_sqlite(url):
        database = Path(store_env(url)["SQLITE_DBNAME"])
        files = [p for p in database.parent.glob(database.name + "*") if p.is_file() and p.suffix != ".key"]
        assert database in files
        return b"".join(p.read_bytes() for p in files)
    schema = parse_qs(urlparse(url).query)["schema"][0]
    with psycopg.connect(url.split("?")[0]) as connection:
        rows = connection.execute(f'SELECT state FROM "{schema}".chronicle_events').fetchall()
    return b"".join(bytes(state) for (state,) in rows)


def rewrite_state(url: str, originator_id: UUID, version: int, state: bytes) -> None:
    """Put other bytes in one stored event, as an older version of Chronicle wrote it."""
    if is_sqlite(url):
        with sqlite3.connect(store_env(url)["SQLITE_DBNAME"]) as connection:
            changed = connection.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (state, originator_id.hex, version),
            ).rowcount
    else:
        schema = parse_qs(urlparse(url).query)["schema"][0]
        with psycopg.connect(url.split("?")[0]) as connection:
            changed = connection.execute(
                f'UPDATE "{schema}".chronicle_events SET state = %s '
                "WHERE originator_id = %s AND originator_version = %s",
                (state, originator_id, version),
            ).rowcount
    assert changed == 1


def digital_game(app: Chronicle) -> tuple[UUID, dict[str, str]]:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], server_seed=SEED.hex()), admin=True)
    return UUID(created.game_id), created.seat_tokens | {"recorder": created.recorder_token}


def test_the_seed_and_the_token_hashes_never_appear_in_the_stored_bytes(app: Chronicle, keyed: str) -> None:
    game_id, tokens = digital_game(app)
    app.record(game_id, MOVE, Access("seat", app.prompts(game_id, RECORDER)[0]["seat"]))

    stored = stored_bytes(keyed)

    assert app.game(game_id).commitment.encode() in stored  # the game itself is stored as JSON
    assert SEED.hex().encode() not in stored and SEED not in stored
    for token in tokens.values():
        assert hash_token(token).encode() not in stored
        assert token.encode() not in stored
    assert MARK in stored


def test_sealed_secrets_open_again_in_a_new_process_with_the_same_key(app: Chronicle, keyed: str) -> None:
    game_id, tokens = digital_game(app)
    again = Chronicle(keyed, admin_token="admin")
    try:
        assert again.access(game_id, tokens["A"]) == Access("seat", "A")
        assert again.seed_for_audit(again.game(game_id), again.access(game_id, "admin")) == SEED
    finally:
        again.close()


def test_secrets_stored_before_encryption_still_open_and_deal_the_same_game(
    app: Chronicle, keyed: str
) -> None:
    game_id, tokens = digital_game(app)
    (sealed,) = app.events.get(secrets_id(game_id))
    plain = Mapper[UUID](transcoder=app.mapper.transcoder).to_stored_event(sealed)  # as stored before
    assert plain.state.startswith(b"{")
    rewrite_state(keyed, secrets_id(game_id), 1, plain.state)

    older = Chronicle(keyed, admin_token="admin")
    try:
        assert older.access(game_id, tokens["B"]) == Access("seat", "B")
        seat = older.prompts(game_id, RECORDER)[0]["seat"]
        recorded = older.record(game_id, MOVE, Access("seat", seat))
        assert recorded.seq == 1
        assert older.seed_for_audit(older.game(game_id), older.access(game_id, "admin")) == SEED
    finally:
        older.close()


def test_secrets_sealed_with_another_key_are_refused_as_locked_not_misread(
    app: Chronicle, keyed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, tokens = digital_game(app)
    monkeypatch.setenv(KEY_VARIABLE, OTHER_KEY)  # the variable wins over a key file too

    other = Chronicle(keyed)
    try:
        with pytest.raises(SecretsLocked) as locked:
            other.access(game_id, tokens["A"])
    finally:
        other.close()

    assert locked.value.code == "secrets_locked" and OTHER_KEY not in locked.value.detail


def test_a_malformed_key_is_refused_when_the_store_opens_without_repeating_it(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_VARIABLE, "not-a-key-of-any-size")

    with pytest.raises(StoreConfigError) as refused:
        Chronicle(store_url)

    assert KEY_VARIABLE in str(refused.value) and "not-a-key" not in str(refused.value)


def test_an_sqlite_store_makes_its_key_file_beside_it_readable_by_its_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_VARIABLE, raising=False)
    url = f"sqlite:///{tmp_path}/games.sqlite3"

    Chronicle(url).close()

    path = tmp_path / "games.sqlite3.key"
    assert path == key_file(tmp_path / "games.sqlite3")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(base64.b64decode(path.read_text().strip())) == 32
    assert secret_key(url) == path.read_text().strip()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no draft left


def test_processes_opening_a_new_sqlite_store_at_once_agree_on_one_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_VARIABLE, raising=False)
    url = f"sqlite:///{tmp_path}/games.sqlite3"

    with ThreadPoolExecutor(8) as pool:
        keys = [f.result(timeout=30) for f in [pool.submit(secret_key, url) for _ in range(8)]]

    assert len(set(keys)) == 1 and keys[0] == (tmp_path / "games.sqlite3.key").read_text().strip()


def test_an_sqlite_store_whose_key_file_is_lost_refuses_to_open_instead_of_making_a_new_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_VARIABLE, raising=False)
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    with Chronicle(url) as first:
        digital_game(first)
    (tmp_path / "games.sqlite3.key").unlink()

    with pytest.raises(StoreConfigError) as refused:
        Chronicle(url)

    assert "games.sqlite3.key is missing" in str(refused.value)
    assert not (tmp_path / "games.sqlite3.key").exists()


@pytest.mark.postgres
def test_postgresql_without_a_key_keeps_working_and_warns_that_secrets_are_stored_unencrypted(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store_url = postgres_url
    monkeypatch.delenv(KEY_VARIABLE, raising=False)
    monkeypatch.setattr(sealing, "_warned", False)

    with caplog.at_level(logging.WARNING, logger="chronicle.store"):
        app = Chronicle(store_url)
    try:
        game_id, tokens = digital_game(app)
        assert app.access(game_id, tokens["A"]) == Access("seat", "A")
    finally:
        app.close()

    assert any(KEY_VARIABLE in r.getMessage() and "unencrypted" in r.getMessage() for r in caplog.records)
    assert SEED.hex().encode() in stored_bytes(store_url)
    # a key set later seals new games; the old one still opens
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    keyed = Chronicle(store_url)
    try:
        assert keyed.access(game_id, tokens["B"]) == Access("seat", "B")
        later, _ = digital_game(keyed)
        (sealed,) = keyed.recorder.select_events(secrets_id(later))
        assert sealed.state.startswith(MARK)
    finally:
        keyed.close()


def test_a_token_never_begins_with_a_dash_so_a_command_line_reads_it_whole() -> None:
    issued = [new_token() for _ in range(2000)]  # about 1 in 64 draws begins with a dash
    assert all(len(t) == 32 and not t.startswith("-") for t in issued)
    assert len(set(issued)) == len(issued)
