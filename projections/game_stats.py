"""The statistics of one game, folded from its stream.

The fold follows corrections: an action named by a retraction, and every fact it caused, is
left out, so the statistics see the live line only (a retraction always undoes the last live
actions, so the live line is the stream without them). Along the way it samples the ruleset's
`metrics` at the end of every turn (the score and resource progression), counts each seat's
actions and decision time (from the event before an action to the action), and collects the
dice of every random fact (`Ruleset.dice`). A game package's `stats.per_game` adds the game's
own figures (`extra`).

Running games are folded on demand; finished games are folded once, by the statistics view.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from itertools import islice
from operator import itemgetter
from types import ModuleType
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import JSONTranscoder
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.events import ActionRecorded, ActionsRetracted, FactRecorded, GameCreated, GameFinished
from domain.ruleset import OMNISCIENT, GameConfig, Outcome, Ruleset, Viewer, get_ruleset
from store.collector import collector_paused


class TurnSample(msgspec.Struct):
    """The metrics at the end of a turn (turn 0 is the state after setup)."""

    turn: int
    seat: str | None
    metrics: dict[str, dict[str, float]]


class DiceCount(msgspec.Struct):
    """How often each face came up: `counts[0]` is face 1."""

    stream: str
    faces: int
    counts: list[int]

    @property
    def rolls(self) -> int:
        return sum(self.counts)


class SeatActivity(msgspec.Struct):
    seat: str
    player: str
    actions: int
    decision_seconds: float


class GameStatistics(msgspec.Struct):
    game_id: str
    ruleset: str
    mode: str
    options: dict[str, Any]
    seats: dict[str, str]  # seat -> player name
    tags: list[str]
    created_at: str
    status: str
    turns: int  # turns started, every player's counted (the ruleset's `progress`)
    actions: int  # actions recorded for a seat: the table's entries when no seat was asked are not
    retracted_actions: int
    activity: list[SeatActivity]
    progression: list[TurnSample]
    dice: list[DiceCount]
    extra: dict[str, Any]
    finished_at: str | None = None
    duration_seconds: float = 0.0
    scores: dict[str, float] = {}
    ranks: dict[str, int] = {}
    winners: list[str] = []
    position: int = 0  # the finishing event's position in the store (0 while running)
    rounds: int | None = None  # where the ruleset counts rounds (`StatisticsHooks.rounds`)


_DECODERS: dict[str, Callable[[Any], Any]] = {}


def fact_decoder(ruleset: Ruleset[Any, Any, Any]) -> Callable[[Any], Any]:
    """The ruleset's fact decoding, fast: a typed JSON decoder of the stored dict re-encoded
    (msgspec converts a dict into a tagged union far more slowly than it decodes JSON)."""
    found = _DECODERS.get(ruleset.meta.id)
    if found is None:
        try:
            decoder = msgspec.json.Decoder(ruleset.codec.fact_type)
        except TypeError:
            found = ruleset.codec.decode_fact
        else:
            encode = msgspec.json.encode

            def found(data: Any) -> Any:
                return decoder.decode(encode(data))

        _DECODERS[ruleset.meta.id] = found
    return found


_RAW_DECODERS: dict[str, Callable[[msgspec.Raw], Any]] = {}


def raw_fact_decoder(ruleset: Ruleset[Any, Any, Any]) -> Callable[[msgspec.Raw], Any]:
    """Decode a fact's JSON text straight into the ruleset's fact type."""
    found = _RAW_DECODERS.get(ruleset.meta.id)
    if found is None:
        try:
            decoder = msgspec.json.Decoder(ruleset.codec.fact_type)
        except TypeError:
            plain = fact_decoder(ruleset)

            def found(raw: msgspec.Raw) -> Any:
                return plain(msgspec.json.decode(raw))

        else:

            def found(raw: msgspec.Raw) -> Any:
                return decoder.decode(raw)

        _RAW_DECODERS[ruleset.meta.id] = found
    return found


def stats_module(ruleset: Ruleset[Any, Any, Any]) -> ModuleType | None:
    """The game package's `stats` module, if it has one."""
    module = type(ruleset).__module__
    parts = module.split(".")
    package = ".".join(parts[:3]) if parts[:2] == ["domain", "games"] else module
    try:
        return importlib.import_module(f"{package}.stats")
    except ModuleNotFoundError:
        return None


# One event of a stream, reduced to what the fold reads: (kind, at, data). `kind` is created,
# action, fact, retracted, finished or other; `at` is a datetime or its ISO text; `data` is
# the creation's fields, an action's (seq, seat), a fact (decoded into the ruleset's fact
# type: `_entry` leaves the stored dict, which `game_statistics` decodes), a retraction's
# seqs, or the finishing outcome. Plain tuples: a rebuild makes millions of them.
Entry = tuple[str, Any, Any]

_KINDS = {
    GameCreated.TOPIC: "created",
    ActionRecorded.TOPIC: "action",
    FactRecorded.TOPIC: "fact",
    ActionsRetracted.TOPIC: "retracted",
    GameFinished.TOPIC: "finished",
}


def _entry(event: Any) -> Entry:
    if isinstance(event, FactRecorded):
        return ("fact", event.timestamp, event.fact)
    if isinstance(event, ActionRecorded):
        return ("action", event.timestamp, (event.seq, event.seat))
    if isinstance(event, ActionsRetracted):
        return ("retracted", event.timestamp, event.seqs)
    if isinstance(event, GameFinished):
        return ("finished", event.timestamp, event.outcome)
    if isinstance(event, GameCreated):
        fields = ("ruleset", "mode", "seats", "options", "client_seed", "tags")
        data = {name: getattr(event, name) for name in fields} | {"id": str(event.originator_id)}
        return ("created", event.timestamp, data)
    return ("other", event.timestamp, None)


# -- reading a stream straight from the store -------------------------------------------
#
# The library's mapper builds each event object (topic resolution, a dataclass, a datetime)
# before anything reads it; the statistics need a few fields of each, so the stored JSON is
# decoded by msgspec into small structs naming only those fields (the others are skipped
# unparsed), and each fact straight into the ruleset's own fact type, in one pass. These rows
# never take part in a reference cycle, so the collector need not track them (`gc=False`): a
# rebuild decodes millions, and tracking them costs as much as the decoding.


class _Stamp(msgspec.Struct, gc=False):
    data: str = msgspec.field(name="_data_")


class _OtherRow(msgspec.Struct, gc=False):
    timestamp: _Stamp


class _ActionRow(msgspec.Struct, gc=False):
    timestamp: _Stamp
    seq: int
    seat: str | None = None


class _RetractedRow(msgspec.Struct, gc=False):
    timestamp: _Stamp
    seqs: list[int]


class _FinishedRow(msgspec.Struct, gc=False):
    timestamp: _Stamp
    outcome: dict[str, Any]


class _RawFactRow(msgspec.Struct, gc=False):
    timestamp: _Stamp
    fact: msgspec.Raw = msgspec.Raw(b"null")


_OTHER_ROW = msgspec.json.Decoder(_OtherRow)
_ACTION_ROW = msgspec.json.Decoder(_ActionRow)
_RETRACTED_ROW = msgspec.json.Decoder(_RetractedRow)
_FINISHED_ROW = msgspec.json.Decoder(_FinishedRow)
_RAW_FACT_ROW = msgspec.json.Decoder(_RawFactRow)
_PLAIN = msgspec.json.Decoder()

_FACT_ROWS: dict[str, Callable[[bytes], Any]] = {}


def _fact_row_decoder(ruleset: Ruleset[Any, Any, Any]) -> Callable[[bytes], Any]:
    """A stored fact event's row (`timestamp.data`, `fact`), the fact decoded into the
    ruleset's fact type in the same pass when msgspec can decode that type (else through
    `raw_fact_decoder`)."""
    found = _FACT_ROWS.get(ruleset.meta.id)
    if found is None:
        try:
            row_type = msgspec.defstruct(
                "FactRow", [("timestamp", _Stamp), ("fact", ruleset.codec.fact_type)], gc=False
            )
            found = msgspec.json.Decoder(row_type).decode
        except TypeError:
            raw_decode, decode_raw = _RAW_FACT_ROW.decode, raw_fact_decoder(ruleset)

            def found(body: bytes) -> Any:
                row = raw_decode(body)
                row.fact = decode_raw(row.fact)
                return row

        _FACT_ROWS[ruleset.meta.id] = found
    return found


def plain_rows(app: Any) -> bool:
    """Whether the store's events are plain JSON (not compressed or encrypted, the library's
    JSON transcoder), so that `fold_rows` can fold its rows."""
    mapper = app.mapper
    return mapper.cipher is None and mapper.compressor is None and type(mapper.transcoder) is JSONTranscoder


def stored_rows(app: Any, game_id: UUID) -> list[tuple[str, bytes]] | None:
    """(topic, state) of each stored event of a stream, in order; None when the store's
    events are not plain JSON (compressed or encrypted, or another transcoder), so the caller
    uses the mapper."""
    if not plain_rows(app):
        return None
    recorder = app.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):
        # One plain query: the library's `select_events` builds an object and parses an id
        # per row, which costs more than decoding the row itself. Plain tuples too: the
        # library's connections make `sqlite3.Row`s, which cost as much as the decoding.
        statement = (
            f"SELECT topic, state FROM {recorder.events_table_name} "
            "WHERE originator_id=? ORDER BY originator_version"
        )
        with recorder.datastore.transaction(commit=False) as cursor:
            plain = cursor.sqlite_cursor
            plain.row_factory = None
            plain.execute(statement, (game_id.hex,))
            return plain.fetchall()
    return [(e.topic, e.state) for e in recorder.select_events(game_id)]


def fold_rows(rows: Sequence[tuple[str, bytes]], game_id: UUID, position: int = 0) -> GameStatistics:
    """Fold one game's stored rows (`stored_rows`) into its statistics. Each row is decoded
    as the fold reaches it and dropped after: a stream's entries never all exist at once."""
    with collector_paused():
        return _fold_rows(rows, game_id, position)


def _fold_rows(rows: Sequence[tuple[str, bytes]], game_id: UUID, position: int) -> GameStatistics:
    if not rows or rows[0][0] != GameCreated.TOPIC:
        raise ValueError("a game's stream starts with its creation")
    created = _PLAIN.decode(rows[0][1])
    created["id"] = str(game_id)
    first: Entry = ("created", created["timestamp"]["_data_"], created)
    ruleset = _ruleset_of([first])
    retracted: set[int] = set()
    retracted_topic = ActionsRetracted.TOPIC
    if retracted_topic in map(itemgetter(0), rows):  # rare: spare the common stream a loop
        for topic, body in rows:
            if topic == retracted_topic:
                retracted.update(_RETRACTED_ROW.decode(body).seqs)
    return _fold(ruleset, first, _row_entries(rows, ruleset), retracted, position)


def _row_entries(rows: Sequence[tuple[str, bytes]], ruleset: Ruleset[Any, Any, Any]) -> Iterator[Entry]:
    """The entries of a stream's rows after its creation, its facts decoded into the
    ruleset's fact type."""
    fact_row = _fact_row_decoder(ruleset)
    action_row = _ACTION_ROW.decode
    fact_topic, action_topic = FactRecorded.TOPIC, ActionRecorded.TOPIC
    for topic, body in islice(rows, 1, None):
        if topic == fact_topic:
            fact = fact_row(body)
            yield ("fact", fact.timestamp.data, fact.fact)
        elif topic == action_topic:
            action = action_row(body)
            yield ("action", action.timestamp.data, (action.seq, action.seat))
        else:
            kind = _KINDS.get(topic, "other")
            if kind == "retracted":
                retracted = _RETRACTED_ROW.decode(body)
                yield (kind, retracted.timestamp.data, retracted.seqs)
            elif kind == "finished":
                finished = _FINISHED_ROW.decode(body)
                yield (kind, finished.timestamp.data, finished.outcome)
            else:
                yield ("other", _OTHER_ROW.decode(body).timestamp.data, None)


def _moment(at: datetime | str) -> datetime:
    return at if isinstance(at, datetime) else datetime.fromisoformat(at)


def _ruleset_of(stream: Sequence[Entry]) -> Ruleset[Any, Any, Any]:
    if not stream or stream[0][0] != "created":
        raise ValueError("a game's stream starts with its creation")
    name = stream[0][2]["ruleset"]
    ruleset = get_ruleset(name)
    if ruleset is None:
        raise LookupError(f"no ruleset {name!r} is installed")
    return ruleset


def game_statistics(events: Iterable[Any], position: int = 0, viewer: Viewer = OMNISCIENT) -> GameStatistics:
    """Fold one game's stream (its stored events, in order) into its statistics, as `viewer`
    may see them (a running game's figures for a seat or the public)."""
    stream = [_entry(e) for e in events]
    decode = fact_decoder(_ruleset_of(stream))
    return fold([(k, at, decode(data) if k == "fact" else data) for k, at, data in stream], position, viewer)


def fold(stream: Sequence[Entry], position: int = 0, viewer: Viewer = OMNISCIENT) -> GameStatistics:
    """Fold one game's stream (as entries, in order, its facts decoded into the ruleset's
    fact type) into its statistics."""
    ruleset = _ruleset_of(stream)
    retracted: set[int] = set()
    for entry in stream:
        if entry[0] == "retracted":
            retracted.update(entry[2])
    return _fold(ruleset, stream[0], iter(stream[1:]), retracted, position, viewer)


def _fold(
    ruleset: Ruleset[Any, Any, Any],
    first: Entry,
    stream: Iterator[Entry],
    retracted: set[int],
    position: int,
    viewer: Viewer = OMNISCIENT,
) -> GameStatistics:
    """The fold itself: `first` is the creation, `stream` every later entry, `retracted` the
    seqs of every retracted action. The state folds every fact; the game's own figures and the
    dice read the facts as `viewer` sees them (domain/reading.py), and the metrics a ruleset
    follows turn by turn are public figures by contract (StatisticsHooks)."""
    created_at, created = first[1], first[2]
    config = GameConfig.from_record(created["id"], created)
    metrics = getattr(ruleset, "metrics", None)
    dice_of = getattr(ruleset, "dice", None)
    evolve, progress, redact = ruleset.evolve, ruleset.progress, ruleset.redact
    everything = viewer.kind == "omniscient"

    state = ruleset.initial(config)
    seats = config.seat_ids()
    actions = dict.fromkeys(seats, 0)
    seconds = dict.fromkeys(seats, 0.0)
    samples: list[TurnSample] = []
    dice: dict[tuple[str, int], list[int]] = {}
    facts: list[Any] = []
    append_fact = facts.append
    turn, turn_seat = progress(state)
    previous_at: datetime | str = created_at
    seq: int | None = None
    finished: Entry | None = None
    moments: dict[datetime | str, datetime] = {}
    parse = datetime.fromisoformat
    for kind, at, data in stream:
        if kind == "fact":
            if retracted and seq in retracted:
                previous_at = at
                continue
            seen = data if everything else redact(data, viewer)
            append_fact(seen)
            if dice_of is not None:
                for name, faces, values in dice_of(seen):
                    counts = dice.get((name, faces))
                    if counts is None:
                        counts = dice[name, faces] = [0] * faces
                    for value in values:
                        counts[value - 1] += 1
            after = evolve(state, data)
            new_turn, new_seat = progress(after)
            if new_turn != turn:
                if metrics is not None:
                    samples.append(TurnSample(turn, turn_seat, metrics(state)))
                turn, turn_seat = new_turn, new_seat
            elif new_seat is not None:
                turn_seat = new_seat
            state = after
        elif kind == "action":
            seq, seat = data
            if seq not in retracted:
                if seat is None:
                    seat = progress(state)[1]
                if seat in actions:
                    # An action's facts carry its time, so the event before an action mostly
                    # has the previous action's time: each text is parsed once.
                    now = moments.get(at)
                    if now is None:
                        now = moments[at] = at if isinstance(at, datetime) else parse(at)
                    before = moments.get(previous_at)
                    if before is None:
                        before = moments[previous_at] = _moment(previous_at)
                    actions[seat] += 1
                    seconds[seat] += (now - before).total_seconds()
        elif kind == "finished":
            finished = (kind, at, data)
        previous_at = at
    if metrics is not None:
        samples.append(TurnSample(turn, turn_seat, metrics(state)))

    rounds_of = getattr(ruleset, "rounds", None)
    outcome = ruleset.outcome(state)
    if finished is not None:
        outcome = msgspec.convert(finished[2], Outcome)
    module = stats_module(ruleset)
    per_game = getattr(module, "per_game", None)
    extra: dict[str, Any] = per_game(config, facts, outcome) if per_game is not None else {}
    names = {s.id: s.name for s in config.seats}
    start = _moment(created_at)
    last_at = _moment(finished[1] if finished is not None else previous_at)
    return GameStatistics(
        game_id=config.game_id,
        ruleset=config.ruleset,
        mode=config.mode,
        options=dict(config.options),
        seats=names,
        tags=list(created["tags"]),
        created_at=start.isoformat(),
        status="finished" if finished is not None else "running",
        turns=turn,
        actions=sum(actions.values()),
        retracted_actions=len(retracted),
        activity=[SeatActivity(s, names[s], actions[s], round(seconds[s], 6)) for s in seats],
        progression=samples,
        dice=[DiceCount(name, faces, counts) for (name, faces), counts in sorted(dice.items())],
        extra=extra,
        finished_at=_moment(finished[1]).isoformat() if finished is not None else None,
        duration_seconds=round((last_at - start).total_seconds(), 6),
        scores={k: float(v) for k, v in outcome.scores.items()} if outcome is not None else {},
        ranks=dict(outcome.ranks) if outcome is not None else {},
        winners=list(outcome.winners) if outcome is not None else [],
        position=position,
        rounds=rounds_of(state) if rounds_of is not None else None,
    )


def stats_of_games(games: Sequence[GameStatistics]) -> list[dict[str, Any]]:
    """The records a game package's `tables` reads: plain data per finished game."""
    return [
        {
            "game_id": g.game_id,
            "seats": g.seats,
            "winners": g.winners,
            "ranks": g.ranks,
            "scores": g.scores,
            "options": g.options,
            "extra": g.extra,
        }
        for g in games
    ]
