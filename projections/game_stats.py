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
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from types import ModuleType
from typing import Any, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.persistence import JSONTranscoder
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.events import ActionRecorded, ActionsRetracted, FactRecorded, GameCreated, GameFinished
from domain.ruleset import GameConfig, Outcome, Ruleset, get_ruleset


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
    turns: int
    actions: int
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


class Entry(NamedTuple):
    """One event of a stream, reduced to what the fold reads. `at` is a datetime or its ISO
    text; `data` is the event's fields (a fact: the fact itself, decoded or not)."""

    kind: str  # created, action, fact, retracted, finished, other
    at: datetime | str
    data: Any


_KINDS = {
    GameCreated.TOPIC: "created",
    ActionRecorded.TOPIC: "action",
    FactRecorded.TOPIC: "fact",
    ActionsRetracted.TOPIC: "retracted",
    GameFinished.TOPIC: "finished",
}


def _entry(event: Any) -> Entry:
    if isinstance(event, FactRecorded):
        return Entry("fact", event.timestamp, event.fact)
    if isinstance(event, ActionRecorded):
        return Entry("action", event.timestamp, {"seq": event.seq, "seat": event.seat})
    if isinstance(event, ActionsRetracted):
        return Entry("retracted", event.timestamp, {"seqs": event.seqs})
    if isinstance(event, GameFinished):
        return Entry("finished", event.timestamp, {"outcome": event.outcome})
    if isinstance(event, GameCreated):
        fields = ("ruleset", "mode", "seats", "options", "client_seed", "tags")
        data = {name: getattr(event, name) for name in fields} | {"id": str(event.originator_id)}
        return Entry("created", event.timestamp, data)
    return Entry("other", event.timestamp, None)


class _Stamp(msgspec.Struct):
    data: str = msgspec.field(name="_data_")


_PLAIN = msgspec.json.Decoder()


def stored_entries(app: Any, game_id: UUID) -> list[Entry] | None:
    """A stream read straight from the recorder and decoded with msgspec, which is much
    faster than the library's mapper; None when the store's events are not plain JSON
    (compressed or encrypted, or another transcoder), so the caller uses the mapper."""
    mapper = app.mapper
    if (
        mapper.cipher is not None
        or mapper.compressor is not None
        or type(mapper.transcoder) is not JSONTranscoder
    ):
        return None
    found: list[Entry] = []
    for topic, body in _rows(app.recorder, game_id):
        kind = _KINDS.get(topic, "other")
        if kind in ("fact", "other"):
            row = _FACT_ROW.decode(body)
            found.append(Entry(kind, row.timestamp.data, row.fact if kind == "fact" else None))
            continue
        state = _PLAIN.decode(body)
        if kind == "created":
            state["id"] = str(game_id)
        found.append(Entry(kind, state["timestamp"]["_data_"], state))
    return found


def _rows(recorder: Any, game_id: UUID) -> list[tuple[str, bytes]]:
    """(topic, state) of each stored event of a stream, in order. On SQLite one plain query:
    the library's `select_events` builds an object and parses an id per row, which costs more
    than decoding the row itself."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        statement = (
            f"SELECT topic, state FROM {recorder.events_table_name} "
            "WHERE originator_id=? ORDER BY originator_version"
        )
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, (game_id.hex,))
            return [(row[0], row[1]) for row in cursor.fetchall()]
    return [(e.topic, e.state) for e in recorder.select_events(game_id)]


class _FactRow(msgspec.Struct):
    timestamp: _Stamp
    fact: msgspec.Raw = msgspec.Raw(b"null")


_FACT_ROW = msgspec.json.Decoder(_FactRow)


def _moment(at: datetime | str) -> datetime:
    return at if isinstance(at, datetime) else datetime.fromisoformat(at)


def game_statistics(events: Iterable[Any], position: int = 0) -> GameStatistics:
    """Fold one game's stream (its stored events, in order) into its statistics."""
    return fold([_entry(e) for e in events], position)


def fold(stream: Sequence[Entry], position: int = 0) -> GameStatistics:
    """Fold one game's stream (as entries, in order) into its statistics."""
    kind, created_at, created = stream[0]
    if kind != "created":
        raise ValueError("a game's stream starts with its creation")
    ruleset = get_ruleset(created["ruleset"])
    if ruleset is None:
        raise LookupError(f"no ruleset {created['ruleset']!r} is installed")
    config = GameConfig.from_record(created["id"], created)
    retracted: set[int] = set()
    for entry in stream:
        if entry.kind == "retracted":
            retracted.update(entry.data["seqs"])
    metrics = getattr(ruleset, "metrics", None)
    dice_of = getattr(ruleset, "dice", None)
    decode, decode_raw = fact_decoder(ruleset), raw_fact_decoder(ruleset)
    evolve, progress = ruleset.evolve, ruleset.progress

    state = ruleset.initial(config)
    seats = config.seat_ids()
    actions = dict.fromkeys(seats, 0)
    seconds = dict.fromkeys(seats, 0.0)
    samples: list[TurnSample] = []
    dice: dict[tuple[str, int], list[int]] = {}
    facts: list[Any] = []
    turn, turn_seat = progress(state)
    previous_at: datetime | str = created_at
    seq: int | None = None
    finished: Entry | None = None
    for entry in stream[1:]:
        kind = entry.kind
        if kind == "fact":
            if seq in retracted:
                previous_at = entry.at
                continue
            data = entry.data
            fact = decode_raw(data) if isinstance(data, msgspec.Raw) else decode(data)
            facts.append(fact)
            if dice_of is not None:
                for name, faces, values in dice_of(fact):
                    counts = dice.setdefault((name, faces), [0] * faces)
                    for value in values:
                        counts[value - 1] += 1
            after = evolve(state, fact)
            new_turn, new_seat = progress(after)
            if new_turn != turn:
                if metrics is not None:
                    samples.append(TurnSample(turn, turn_seat, metrics(state)))
                turn, turn_seat = new_turn, new_seat
            elif new_seat is not None:
                turn_seat = new_seat
            state = after
        elif kind == "action":
            seq = entry.data["seq"]
            if seq not in retracted:
                seat = entry.data["seat"]
                seat = seat if seat is not None else progress(state)[1]
                if seat in actions:
                    actions[seat] += 1
                    seconds[seat] += (_moment(entry.at) - _moment(previous_at)).total_seconds()
        elif kind == "finished":
            finished = entry
        previous_at = entry.at
    if metrics is not None:
        samples.append(TurnSample(turn, turn_seat, metrics(state)))

    outcome = ruleset.outcome(state)
    if finished is not None:
        outcome = msgspec.convert(finished.data["outcome"], Outcome)
    module = stats_module(ruleset)
    per_game = getattr(module, "per_game", None)
    extra: dict[str, Any] = per_game(config, facts, outcome) if per_game is not None else {}
    names = {s.id: s.name for s in config.seats}
    start = _moment(created_at)
    last_at = _moment(finished.at if finished is not None else previous_at)
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
        finished_at=_moment(finished.at).isoformat() if finished is not None else None,
        duration_seconds=round((last_at - start).total_seconds(), 6),
        scores={k: float(v) for k, v in outcome.scores.items()} if outcome is not None else {},
        ranks=dict(outcome.ranks) if outcome is not None else {},
        winners=list(outcome.winners) if outcome is not None else [],
        position=position,
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
