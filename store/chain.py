"""The hash chain over a game's events: each event's digest covers the one before it.

    digest(v) = SHA-256( "chronicle-chain-v1" LF  digest(v-1)  LF  game id  LF  v  LF  topic  LF
                         canonical(stored fields of event v) )

in lowercase hex, with `digest(0)` = 64 zeros, the game id in its 32 hex digits, the version
in decimal and `canonical` the event's stored JSON object (the library's transcoding: a
timestamp is `{"_type_": "datetime_iso", "_data_": ...}`) without its `chain` key, written with
sorted keys, no spaces and UTF-8 (Python's `json.dumps(x, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`). Anyone holding the stored events recomputes it without a server.

Each event is stored with its own digest (the `chain` key of its JSON). The digest is stamped
when the event is saved, from the digest of the event before it, so editing, removing,
inserting or reordering a stored event breaks the chain at that version unless the forger
rewrites every later digest too; a forger who does that still changes the head (the last
digest), which an export, a backup or anyone who noted it holds. Events stored before the
chain existed carry no digest: theirs is computed when read, and the first stored digest after
them covers them; once one event carries a digest every later one must.

Who sees the digests. A digest is a deterministic function of the stored event, hidden facts
included: shown to a reader who may not see a hidden fact, it would let that reader test
guesses of it (the five cards of a Dominion hand are few enough to try them all). So the
digests are served to a viewer who sees the stored events whole, the recorder and an
administrator while the game runs, and everyone once it has ended; others get `null`. A
reader who noted the digests while the game ran, or the head once it ended, holds a
commitment: the same game exported later must reproduce them. Recomputing the chain needs the
stored form (an export, or the store), never the redacted events, whose `data` is the shown
form; `chronicle audit` and the audit endpoint do it on the store, `chronicle import` on a file.
What no chain can show is a tail cut off a running game, or a game rewritten with every digest
after the edit recomputed, to someone who kept no earlier head.

Mutants judged equivalent (bench/mutation.py, group news): `canonical` copying the fields
whether or not they hold a digest (the copy is the same), and its fallback's `ensure_ascii`
as None (false alike).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import JSONTranscoder, Transcoder
from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.events import STREAM_EVENTS, ActionRecorded, FactRecorded

ALGORITHM = "chronicle-chain-v1"
GENESIS = "0" * 64
KEY = "chain"  # where a stored event keeps its digest
TOPICS = frozenset(cls.TOPIC for cls in STREAM_EVENTS)
RECORD_TOPICS = frozenset({ActionRecorded.TOPIC, FactRecorded.TOPIC})


def canonical(fields: Mapping[str, Any], plain: bool = False) -> bytes:
    """`fields` in the canonical form; `plain`: known to be plain JSON (`_plain`) already."""
    body = {k: v for k, v in fields.items() if k != KEY} if KEY in fields else fields
    if plain or _plain(body):  # msgspec writes these alike, several times faster
        return msgspec.json.encode(body, order="sorted")
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _plain(value: Any) -> bool:
    """Whether `value` holds only strings, integers, booleans, None, lists and objects with
    string keys: the values msgspec's sorted JSON writes exactly as `json.dumps` above does. A
    float (written `1e+16` by one and `1e16` by the other) or a key of another type is not."""
    waiting = [value]
    while waiting:
        item = waiting.pop()
        kind = type(item)
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            waiting.extend(item.values())
        elif kind is list or kind is tuple:
            waiting.extend(item)
        elif not (kind is str or kind is int or kind is bool or item is None):
            return False
    return True


def link(
    previous: str,
    game_id: UUID | str,
    version: int,
    topic: str,
    fields: Mapping[str, Any],
    plain: bool = False,
) -> str:
    """The digest of the event at `version` whose stored fields are `fields`, after `previous`
    (`game_id` a UUID, or its 32 hex digits as the store keeps them)."""
    stream = game_id.hex if isinstance(game_id, UUID) else game_id
    head = f"{ALGORITHM}\n{previous}\n{stream}\n{version}\n{topic}\n".encode()
    return hashlib.sha256(head + canonical(fields, plain)).hexdigest()


def _transcoder() -> Transcoder:
    """The library's JSON transcoding as every Chronicle application registers it."""
    from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, UUIDAsHex

    transcoder = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        transcoder.register(transcoding)
    return transcoder


TRANSCODER = _transcoder()


def stored_fields(event: Any) -> dict[str, Any]:
    """A domain event's fields as its stored JSON object holds them (the mapper's form)."""
    state = {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version")}
    decoded: dict[str, Any] = json.loads(TRANSCODER.encode(state))
    return decoded


_last_iso: tuple[datetime | None, str] = (None, "")


def iso(when: datetime) -> str:
    """`when.isoformat()`, remembered for the last one asked: every event of an action
    carries the action's timestamp, written twice each (its digest and its stored form)."""
    global _last_iso
    last, text = _last_iso
    if last is not when:
        text = when.isoformat()
        _last_iso = (when, text)
    return text


def _event_digest(previous: str, event: Any, plain: bool = False) -> str:
    """`link` over a new event (`plain`: its fields are known to be plain JSON once its
    timestamp is written). A game event's fields are JSON values and its timestamp, so
    they are written as the transcoder would store them without a round trip through it; any
    other value takes the transcoder's way."""
    fields = {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version")}
    when = fields.get("timestamp")
    if when is not None:
        fields["timestamp"] = {"_type_": "datetime_iso", "_data_": iso(when)}
    topic = type(event).TOPIC
    try:
        return link(previous, event.originator_id, event.originator_version, topic, fields, plain)
    except TypeError:
        return link(previous, event.originator_id, event.originator_version, topic, stored_fields(event))


class Record(msgspec.Struct, frozen=True):
    """One stored event as the chain reads it: version, topic, stored fields (with `chain`)."""

    version: int
    topic: str
    fields: dict[str, Any]


def records_of(events: Iterable[Any]) -> list[Record]:
    """Domain events read from a game's stream, in the stored form."""
    return [Record(e.originator_version, type(e).TOPIC, stored_fields(e)) for e in events]


def records_of_rows(rows: Iterable[StoredRecord]) -> list[Record]:
    return [Record(r.originator_version, r.topic, json.loads(r.state)) for r in rows]


class ChainCheck(msgspec.Struct):
    """The chain recomputed over a stream: `head` is the last digest; `broken_at` the first
    version whose stored digest is not the one recomputed (or missing after a stored one)."""

    algorithm: str
    events: int
    head: str
    stored: int  # events that carry their digest (the rest were stored before the chain existed)
    intact: bool = True
    broken_at: int | None = None
    what: str = ""


def check(game_id: UUID, records: Iterable[Record]) -> ChainCheck:
    """Recompute the chain over `records` (in version order) and compare each stored digest."""
    return _check(game_id, ((r.version, r.topic, *_body(r.fields, False)) for r in records))


def check_rows(game_id: UUID, rows: Iterable[StoredRecord]) -> ChainCheck:
    """`check` over a stream's stored rows, read as `records_of_rows` reads them but several
    times faster: msgspec reads each row and tells whether it is plain JSON, so its canonical
    form needs no second look (`_read_fields`)."""
    return _check(game_id, ((r.originator_version, r.topic, *_body(*_object_of(r))) for r in rows))


Body = tuple[int, str, "bytes | Exception", Any]
"""A stored event as the chain digests it: version, topic, its fields in the canonical form
(without the digest) or the error writing them raised, and the digest its fields keep."""


def check_bodies(game_id: UUID, bodies: Iterable[Body]) -> ChainCheck:
    """`check` over events whose canonical form was written already (store/audit_reading.py):
    an error in its place is raised when the chain reaches it, as `check_rows` raises it."""
    return _check(game_id, (_written(body) for body in bodies))


def _written(body: Body) -> tuple[int, str, bytes, Any]:
    version, topic, written, kept = body
    if isinstance(written, Exception):
        raise written
    return version, topic, written, kept


def body_of(version: int, topic: str, fields: Any, plain: bool) -> Body:
    """A stored event's `Body`, from its JSON as `read_fields` read it."""
    try:
        if not isinstance(fields, dict):
            raise ValueError(f"the event at version {version} is not a JSON object")
        return version, topic, *_body(fields, plain)
    except Exception as error:  # raised again where `check_rows` raises it
        return version, topic, error, None


def _body(fields: Mapping[str, Any], plain: bool) -> tuple[bytes, Any]:
    return canonical(fields, plain), fields.get(KEY)


def _object_of(row: StoredRecord) -> tuple[Mapping[str, Any], bool]:
    fields, plain = _read_fields(row.state)
    if not isinstance(fields, dict):
        raise ValueError(f"the event at version {row.originator_version} is not a JSON object")
    return fields, plain


def _check(game_id: UUID, records: Iterable[tuple[int, str, bytes, Any]]) -> ChainCheck:
    """`check` over (version, topic, canonical form of the stored fields, the digest kept)."""
    result = ChainCheck(ALGORITHM, 0, GENESIS, 0)
    previous = GENESIS
    stream = game_id.hex  # `link`'s, written once for the whole stream
    sha256 = hashlib.sha256
    for version, topic, body, kept in records:
        head = f"{ALGORITHM}\n{previous}\n{stream}\n{version}\n{topic}\n".encode()
        digest = sha256(head + body).hexdigest()
        result.events += 1
        if kept is not None:
            result.stored += 1
        if result.intact and kept != digest and (kept is not None or result.stored > 0):
            result.intact = False
            result.broken_at = version
            result.what = (
                f"the event at version {version} carries no digest after digested ones"
                if kept is None
                else f"the digest stored at version {version} is not the one its event and "
                "the event before it give"
            )
        previous = digest
    result.head = previous
    return result


def digests(game_id: UUID, records: Iterable[Record]) -> list[str]:
    """Every event's digest, recomputed (for events stored before the chain, the only source)."""
    found: list[str] = []
    previous = GENESIS
    for record in records:
        previous = link(previous, game_id, record.version, record.topic, record.fields)
        found.append(previous)
    return found


def stamp(
    previous: str, events: list[Any], plain_records: bool = False, states: dict[int, bytes] | None = None
) -> str:
    """Give each new event of one game (in order, following the digest `previous`) its digest,
    kept in the event's fields so the mapper stores it; returns the new head. `plain_records`:
    the game's ruleset encodes every action and fact as plain JSON (`Codec.plain`), so an
    action's or a fact's event needs no look for a float: its other fields are text, integers
    and None. With `states`, each action's and fact's event is also written in its stored
    form, digest included, as `states[id(event)]` (`_Writing`)."""
    writing = _Writing(events[0].originator_id, plain_records) if states is not None and events else None
    for event in events:
        record = type(event).TOPIC in RECORD_TOPICS
        if writing is not None and states is not None and record:
            digest, states[id(event)] = writing.stamped(previous, event)
        else:
            digest = _event_digest(previous, event, plain_records and record)
        vars(event)[KEY] = digest  # the event's own dict: the dataclass is frozen to setattr only
        previous = digest
    return previous


class _Writing:
    """New actions' and facts' events of one game, each digested and written in its stored
    form from one reading of its fields: the JSON the store's mapper writes for it
    (store/sealing.py `PLAIN_EVENTS`: its fields in their order, the timestamp as the
    transcoder writes it) with the digest added as its last key, as `stamped` adds it to a
    row. The stream's id and the timestamp (every event of an action carries the action's)
    are written once."""

    def __init__(self, game_id: UUID, plain: bool) -> None:
        self.stream = game_id.hex.encode()
        self.plain = plain
        self.when: datetime | None = None
        self.written: dict[str, str] = {}

    def stamped(self, previous: str, event: Any) -> tuple[str, bytes]:
        fields = vars(event).copy()
        del fields["originator_id"], fields["originator_version"]
        when = fields["timestamp"]
        if when is not self.when:
            self.when, self.written = when, {"_type_": "datetime_iso", "_data_": when.isoformat()}
        fields["timestamp"] = self.written
        if KEY in fields or not (self.plain or _plain(fields)):  # `link`'s way, floats and all
            digest = link(previous, event.originator_id, event.originator_version, type(event).TOPIC, fields)
            if KEY in fields:  # digested before: the new digest where the old one stood
                fields[KEY] = digest
                return digest, _encode(fields)
            return digest, _with_digest(_encode(fields), digest)
        version, topic = event.originator_version, type(event).TOPIC.encode()
        hashing = _sha256(
            b"%s\n%s\n%s\n%d\n%s\n" % (_ALGORITHM, previous.encode(), self.stream, version, topic)
        )
        hashing.update(_encode(fields, order="sorted"))
        digest = hashing.hexdigest()
        fields[KEY] = digest  # the last key, as `_with_digest` writes it
        return digest, _encode(fields)


_encode = msgspec.json.encode
_sha256 = hashlib.sha256


_ALGORITHM = ALGORITHM.encode()


def _with_digest(state: bytes, digest: str) -> bytes:
    return b'%s,"%s":"%s"}' % (state[:-1], KEY.encode(), digest.encode())


def stamped(previous: str, event: StoredRecord) -> tuple[StoredRecord, str]:
    """A stored game event written without its digest, with it: the digest after `previous`,
    of the fields its stored JSON holds (read as `check` reads them, so the two agree by
    construction), added to that JSON as its last key, where the library's transcoder writes
    a digest kept in the event's fields (`stamp`). Returns the event and its digest."""
    fields, plain = _read_fields(event.state)
    if not isinstance(fields, dict) or not fields or KEY in fields or not event.state.endswith(b"}"):
        raise ValueError(f"not a stored event without its digest: {event.state[:80]!r}")
    digest = link(previous, event.originator_id, event.originator_version, event.topic, fields, plain)
    state = b'%s,"%s":"%s"}' % (event.state[:-1], KEY.encode(), digest.encode())
    return StoredRecord(event.originator_id, event.originator_version, event.topic, state), digest


class _Float(Exception):
    """A float literal: its canonical form is `json.dumps`'s, not msgspec's."""


def _no_float(literal: str) -> Any:
    raise _Float(literal)


_PLAIN_JSON = msgspec.json.Decoder(float_hook=_no_float)


def _read_fields(state: bytes) -> tuple[Any, bool]:
    """A stored JSON's value as `json.loads` reads it, and whether it is plain (`_plain`):
    decoded JSON has only text keys, so it is plain unless it holds a float."""
    try:
        return _PLAIN_JSON.decode(state), True  # as `json.loads` reads it, several times faster
    except _Float:
        with contextlib.suppress(msgspec.DecodeError):
            return msgspec.json.decode(state), False
    except msgspec.DecodeError:  # what only `json.loads` reads (NaN, a lone surrogate), or no JSON
        pass
    return json.loads(state), False


read_fields = _read_fields  # the audit's one reading of each row (store/audit_reading.py)


class _Kept(msgspec.Struct):
    digest: str | None = msgspec.field(default=None, name=KEY)


_KEPT = msgspec.json.Decoder(_Kept)


def kept_digest(state: bytes) -> str | None:
    """The digest a stored event's JSON carries (None if it was stored before the chain)."""
    try:
        return _KEPT.decode(state).digest
    except msgspec.MsgspecError:  # JSON msgspec does not read (NaN) or a digest not text
        found = json.loads(state).get(KEY)
        return found if isinstance(found, str) else None


def head_of(rows: list[StoredRecord], game_id: UUID) -> str:
    """The digest of the last of `rows` (a stream's events up to some version, in order)."""
    if not rows:
        return GENESIS
    kept = kept_digest(rows[-1].state)
    if kept is not None:
        return kept
    return digests(game_id, records_of_rows(rows))[-1]


def digest_of(event: Any) -> str | None:
    """The digest an event read from the store carries (None if stored before the chain)."""
    found = vars(event).get(KEY)
    return found if isinstance(found, str) else None
