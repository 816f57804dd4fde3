"""Secrets at rest: the events of `GameSecrets` (server seed, token hashes) stored encrypted.

The eventsourcing library's cipher (`CIPHER_TOPIC`, `CIPHER_KEY`: AES-256-GCM from the
`cryptography` package) is given to the application's mapper as usual, but this mapper
(`MAPPER_TOPIC`) applies it to the sealed topics only. The game streams stay plain JSON:
everything in them is public once a game ends, audits and evidence read them, and the
statistics decode their rows directly; a lost key then costs the running games' seeds and
tokens, not the record of every game.

Where the key comes from:

- `CHRONICLE_SECRET_KEY`: 16, 24 or 32 bytes in base64 (`openssl rand -base64 32`); it wins;
- else, on SQLite, the key file beside the store (`games.sqlite3.key`), created with mode 0600
  on first use. A store that already holds sealed secrets never gets a fresh key silently:
  with its key file gone it refuses to open;
- else (PostgreSQL without the variable) new secrets are stored unencrypted and a warning is
  logged: refusing to start would break every deployment set up before encryption existed.

A sealed record is `MARK` followed by the cipher's text (nonce, tag, ciphertext), so a record
stored before encryption (plain JSON, which starts with `{`) still opens, with or without a
key: old stores keep working and only secrets written from then on are encrypted.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import secrets
import sqlite3
from contextlib import closing, suppress
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from uuid import UUID

import msgspec
from eventsourcing.persistence import Cipher, Compressor, Mapper, StoredEvent, Transcoder

from domain.events import ActionRecorded, FactRecorded
from store.chain import iso
from store.config import StoreConfigError, store_env
from store.errors import SecretsLocked
from store.group_commit import stream_hex
from store.secrets import GameSecrets

KEY_VARIABLE = "CHRONICLE_SECRET_KEY"
KEY_SIZES = (16, 24, 32)
CIPHER_TOPIC = "eventsourcing.cryptography:AESCipher"
SEALED_TOPICS = frozenset({GameSecrets.Created.TOPIC})
MARK = b"\x00sealed:aes-gcm:"

log = logging.getLogger("chronicle.store")
_warned = False


# The events of every recorded action: their fields are JSON values and a timestamp, which
# msgspec writes byte for byte as the library's JSON transcoder does (keys in their order, no
# spaces, UTF-8), in a tenth of its time; a test holds the two to the same bytes.
PLAIN_EVENTS = frozenset({ActionRecorded, FactRecorded})


def _plain_state(event: Any) -> bytes:
    state = dict(vars(event))
    del state["originator_id"], state["originator_version"]
    state["timestamp"] = {"_type_": "datetime_iso", "_data_": iso(state["timestamp"])}
    return msgspec.json.encode(state)


def _plain_stored_event(event: Any) -> StoredEvent:
    return StoredEvent(event.originator_id, event.originator_version, type(event).TOPIC, _plain_state(event))


_PLAIN_TOPICS: dict[str, type[Any]] = {ActionRecorded.TOPIC: ActionRecorded, FactRecorded.TOPIC: FactRecorded}


def _no_float(literal: str) -> Any:
    raise ValueError(literal)


# reads JSON as `json.loads` does, refusing a float literal (msgspec and `json` read them alike,
# but the event is then read the library's way, which needs no argument)
_PLAIN_JSON = msgspec.json.Decoder(dict[str, Any], float_hook=_no_float)


def _plain_domain_event(cls: type[Any], stored_event: StoredEvent) -> Any:
    """An action's or fact's stored event read back as the library's mapper reads it (its
    fields as `json.loads` gives them, the timestamp as a datetime, then the stream's id and
    version), several times faster; None for what only the library's way reads: an event
    written otherwise (a float in it, a timestamp in another form, JSON msgspec refuses)."""
    try:
        state = _PLAIN_JSON.decode(stored_event.state)
    except (ValueError, msgspec.DecodeError):
        return None
    return plain_event_of(cls, state, stored_event.originator_id, stored_event.originator_version)


def plain_event_of(cls: type[Any], state: dict[str, Any], originator_id: UUID | str, version: int) -> Any:
    """`_plain_domain_event` of a stored JSON object already read as it reads one (text keys,
    no float): the event, made of `state` itself, or None."""
    when = state.get("timestamp")
    if type(when) is not dict or len(when) != 2 or when.get("_type_") != "datetime_iso":
        return None
    try:
        state["timestamp"] = datetime.fromisoformat(when["_data_"])
    except (KeyError, TypeError, ValueError):
        return None
    if "class_version" in state:
        return None
    state["originator_id"] = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
    state["originator_version"] = version
    event = object.__new__(cls)
    object.__setattr__(event, "__dict__", state)
    return event


class SealingMapper(Mapper[UUID]):
    """The library's mapper, with its cipher applied to the sealed topics only."""

    def __init__(
        self, transcoder: Transcoder, compressor: Compressor | None = None, cipher: Cipher | None = None
    ) -> None:
        # The base mapper would encrypt every event; `cipher` stays None there, so readers that
        # check it (projections/game_stats.py) know the game streams are plain JSON.
        super().__init__(transcoder, compressor=compressor, cipher=None)
        self.sealer = cipher

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if type(domain_event) in PLAIN_EVENTS and self.compressor is None:
            return _plain_stored_event(domain_event)
        stored = super().to_stored_event(domain_event)
        if self.sealer is None or stored.topic not in SEALED_TOPICS:
            return stored
        sealed = MARK + self.sealer.encrypt(stored.state)
        return StoredEvent(stored.originator_id, stored.originator_version, stored.topic, sealed)

    def to_row(self, domain_event: Any) -> tuple[str, int, str, bytes]:
        """`to_stored_event` as the writer process takes it (store/writer_process.py): the
        stream id in its 32 hex digits, the version, the topic and the stored state."""
        if type(domain_event) in PLAIN_EVENTS and self.compressor is None:
            return (
                domain_event.originator_id.hex,
                domain_event.originator_version,
                type(domain_event).TOPIC,
                _plain_state(domain_event),
            )
        stored = self.to_stored_event(domain_event)
        return (stream_hex(stored.originator_id), stored.originator_version, stored.topic, stored.state)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        cls = _PLAIN_TOPICS.get(stored_event.topic)
        if cls is not None and self.compressor is None:
            fast = _plain_domain_event(cls, stored_event)
            if fast is not None:
                return fast
        if stored_event.state.startswith(MARK):
            stored_event = StoredEvent(
                stored_event.originator_id,
                stored_event.originator_version,
                stored_event.topic,
                self._unseal(stored_event.state[len(MARK) :]),
            )
        return super().to_domain_event(stored_event)

    def _unseal(self, sealed: bytes) -> bytes:
        if self.sealer is None:
            raise SecretsLocked(
                f"This game's secrets are encrypted and no key is set: set {KEY_VARIABLE} "
                "to the key they were sealed with."
            )
        try:
            return self.sealer.decrypt(sealed)
        except ValueError:
            raise SecretsLocked(
                "This game's secrets were sealed with another key than this server's "
                f"({KEY_VARIABLE} or the store's key file)."
            ) from None


def sealing_env(url: str) -> dict[str, str]:
    """The library environment that seals secrets for the store at `url`. The names carry the
    application's prefix (`CHRONICLE_`), which the library reads before the bare ones, so a
    stray `CIPHER_KEY` in the process environment cannot take over."""
    key = secret_key(url)
    env = {"CHRONICLE_MAPPER_TOPIC": f"{__name__}:SealingMapper"}
    if key is None:
        _warn_unsealed()
        return env | {"CHRONICLE_CIPHER_TOPIC": "", "CHRONICLE_CIPHER_KEY": ""}
    return env | {"CHRONICLE_CIPHER_TOPIC": CIPHER_TOPIC, "CHRONICLE_CIPHER_KEY": key}


def secret_key(url: str) -> str | None:
    """The key secrets are sealed with (base64), or None on PostgreSQL without one."""
    given = os.environ.get(KEY_VARIABLE)
    if given:
        return checked_key(given, KEY_VARIABLE)
    if urlparse(url).scheme != "sqlite":
        return None
    database = Path(store_env(url)["SQLITE_DBNAME"])
    path = key_file(database)
    try:
        return checked_key(path.read_text(), f"the key file {path}")
    except FileNotFoundError:
        pass
    if holds_sealed_secrets(database):
        raise StoreConfigError(
            f"the store {database} holds encrypted secrets but its key file {path} is missing: "
            f"restore the file, or set {KEY_VARIABLE} to the key"
        )
    return checked_key(_create_key_file(path), f"the key file {path}")


def key_file(database: Path) -> Path:
    return database.with_name(database.name + ".key")


def checked_key(text: str, source: str) -> str:
    """A base64 key of an AES size; the message never repeats the key."""
    key = text.strip()
    try:
        size = len(base64.b64decode(key, validate=True))
    except (binascii.Error, ValueError):
        size = -1
    if size not in KEY_SIZES:
        raise StoreConfigError(
            f"{source} must hold 16, 24 or 32 bytes in base64 (make one with: openssl rand -base64 32)"
        )
    return key


def holds_sealed_secrets(database: Path) -> bool:
    """Whether an SQLite store already holds secrets sealed with some key (read only)."""
    if not database.exists():
        return False
    topics = ",".join("?" * len(SEALED_TOPICS))
    query = (
        f"SELECT 1 FROM stored_events WHERE topic IN ({topics}) AND substr(state, 1, {len(MARK)}) = ? LIMIT 1"
    )
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as connection:
        try:
            return connection.execute(query, (*SEALED_TOPICS, MARK)).fetchone() is not None
        except sqlite3.OperationalError:  # no events table yet
            return False


def _create_key_file(path: Path) -> str:
    """Write a new random key to `path` (mode 0600) unless another process got there first;
    either way return the key the file holds. The file is complete before it has its name
    (linked from a private temporary file) and on disk before any secret is sealed with it."""
    key = base64.b64encode(secrets.token_bytes(32)).decode()
    draft = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(descriptor, 0o600)  # whatever the umask
        os.write(descriptor, f"{key}\n".encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    try:
        with suppress(FileExistsError):  # another process made the key first: use theirs
            os.link(draft, path)
    finally:
        draft.unlink()
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return path.read_text()


def _warn_unsealed() -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning(
            "%s is not set: the server seeds and token hashes of new games are stored unencrypted",
            KEY_VARIABLE,
        )
