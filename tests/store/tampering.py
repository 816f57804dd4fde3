"""Tampering with a stored game behind the store's back, as someone with write access to the
database could: seeded bot games recorded through `Chronicle`, then edited with SQL on the
rows of the store's own events table (the SQLite file, or the PostgreSQL table).

Each tampering takes the game's stored events (topic and JSON body, in version order) and a
seeded generator, and returns the edited stream with the divergence the audit must report:
the version where the stored record first stops adding up, and the stable code that says why.
A tampering that removes or inserts events renumbers the later ones, as a careful forger
would, so the stream stays contiguous and still loads.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import psycopg
from eventsourcing.persistence import Cipher
from psycopg import sql

from domain.events import (
    ActionRecorded,
    ActionsRetracted,
    FactRecorded,
    GameCreated,
    GameFinished,
    RetractionRequested,
)
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Ruleset
from store.app import RECORDER, Chronicle, NewGame
from store.config import store_env
from store.sealing import MARK

AnyRuleset = Ruleset[Any, Any, Any]

FACT = FactRecorded.TOPIC
ACTION = ActionRecorded.TOPIC
RETRACTION = ActionsRetracted.TOPIC
FINISHED = GameFinished.TOPIC

# The fields of a random fact that hold what was drawn (not its stream, counter or size).
DRAWN = (
    "outcome",
    "order",
    "value",
    "first",
    "second",
    "piles",
    "cards",
    "provinces",
    "tiles",
    "card",
    "attacker_cards",
    "defender_cards",
    "draw",
    "discard",
)


# -- the rows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One stored event as its row holds it: the topic and the decoded JSON body."""

    topic: str
    body: dict[str, Any]
    raw: bytes | None = None  # the stored bytes, while the body is untouched
    sealer: Cipher | None = None  # the store's cipher, for a sealed secrets row

    def state(self) -> bytes:
        if self.raw is not None:
            return self.raw
        plain = json.dumps(self.body, separators=(",", ":"), ensure_ascii=False).encode()
        return MARK + self.sealer.encrypt(plain) if self.sealer is not None else plain

    def edited(self, **fields: Any) -> Event:
        return Event(self.topic, {**self.body, **fields}, sealer=self.sealer)

    def content(self) -> tuple[str, str]:
        """What the event says, without its timestamp."""
        body = {k: v for k, v in self.body.items() if k != "timestamp"}
        return self.topic, json.dumps(body, sort_keys=True)


class StoredRows:
    """A stream's rows in the store's events table, read and rewritten with plain SQL over a
    connection of its own."""

    def __init__(self, app: Chronicle) -> None:
        self.table: str = app.recorder.events_table_name  # type: ignore[attr-defined]
        self.mapper = app.mapper
        parsed = urlparse(app.url)
        self.sqlite: sqlite3.Connection | None = None
        self.postgres: psycopg.Connection[Any] | None = None
        if parsed.scheme == "sqlite":
            self.sqlite = sqlite3.connect(store_env(app.url)["SQLITE_DBNAME"], timeout=10)
            self.sqlite.execute("PRAGMA synchronous = OFF")  # this connection's edits need no fsync
        else:
            self.postgres = psycopg.connect(parsed._replace(query="").geturl(), autocommit=True)
            schema = parse_qs(parsed.query).get("schema", ["public"])[0]
            self.identifier = sql.Identifier(schema, self.table)

    def close(self) -> None:
        for connection in (self.sqlite, self.postgres):
            if connection is not None:
                connection.close()

    def read(self, stream: UUID) -> list[Event]:
        if self.sqlite is not None:
            rows = self.sqlite.execute(
                f"SELECT topic, state FROM {self.table} WHERE originator_id = ? ORDER BY originator_version",
                (stream.hex,),
            ).fetchall()
        else:
            assert self.postgres is not None
            query = "SELECT topic, state FROM {} WHERE originator_id = %s ORDER BY originator_version"
            rows = self.postgres.execute(sql.SQL(query).format(self.identifier), (stream,)).fetchall()
        return [self._event(topic, bytes(state)) for topic, state in rows]

    def _event(self, topic: str, state: bytes) -> Event:
        """A row as an event; a sealed secrets row opened with the store's own cipher."""
        if not state.startswith(MARK):
            return Event(topic, json.loads(state), state)
        sealer: Cipher | None = getattr(self.mapper, "sealer", None)
        assert sealer is not None, "a sealed row in a store without a key"
        return Event(topic, json.loads(sealer.decrypt(state[len(MARK) :])), state, sealer)

    def rewrite(self, stream: UUID, events: list[Event], start: int = 1) -> None:
        """Replace the rows from version `start` on with `events[start - 1:]`, in one transaction."""
        params = [(i, e.topic, e.state()) for i, e in enumerate(events, start=1) if i >= start]
        if self.sqlite is not None:
            with self.sqlite:
                self.sqlite.execute(
                    f"DELETE FROM {self.table} WHERE originator_id = ? AND originator_version >= ?",
                    (stream.hex, start),
                )
                self.sqlite.executemany(
                    f"INSERT INTO {self.table} (originator_id, originator_version, topic, state) "
                    "VALUES (?, ?, ?, ?)",
                    [(stream.hex, *p) for p in params],
                )
            return
        assert self.postgres is not None
        delete = "DELETE FROM {} WHERE originator_id = %s AND originator_version >= %s"
        insert = "INSERT INTO {} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)"
        with self.postgres.transaction(), self.postgres.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
            cursor.execute(sql.SQL(delete).format(self.identifier), (stream, start))
            cursor.executemany(sql.SQL(insert).format(self.identifier), [(stream, *p) for p in params])


def first_difference(before: list[Event], after: list[Event]) -> int:
    """The first version at which two streams say different things."""
    for index, (old, new) in enumerate(zip(before, after, strict=False)):
        if old.content() != new.content():
            return index + 1
    return min(len(before), len(after)) + 1


# -- recording --------------------------------------------------------------------------


@dataclass
class Recorded:
    game_id: UUID
    ruleset: AnyRuleset
    config: GameConfig
    seed: bytes | None
    finished: bool
    actions: int
    retractions: int


def record_game(
    app: Chronicle, ruleset: AnyRuleset, mode: str, key: str, options: dict[str, Any], cap: int
) -> Recorded:
    """A seeded bot game recorded action by action through `Chronicle.record`, as `chronicle
    simulate` plays one, with the recorder retracting the last one or two actions now and then
    (always once, at the tenth action). It ends with the game or after `cap` actions."""
    seed = hashlib.sha256(key.encode()).digest() if mode == "digital" else None
    new = NewGame(
        ruleset=ruleset.meta.id,
        players=[f"Bot {s}" for s in ruleset.meta.seat_ids[: ruleset.meta.min_players]],
        mode=mode,  # type: ignore[arg-type]
        options=options,
        tags=["tampering"],
        server_seed=seed.hex() if seed is not None else None,
    )
    # The game id enters every draw: derived from the key, the game is the same on every run.
    game_id = UUID(bytes=hashlib.sha256(f"game {key}".encode()).digest()[:16], version=4)
    app.create_game(new, admin=True, game_id=game_id)
    bot = random.Random(key)
    actions = retractions = 0
    while actions < cap:
        game = app.game(game_id)
        if game.outcome is not None:
            break
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(game.state, seat)
        choice = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
        recorded = app.record(game_id, ruleset.codec.encode(choice), RECORDER, seat=seat)
        actions += 1
        if not recorded.finished and (bot.random() < 0.04 or (retractions == 0 and actions == 10)):
            count = 1 + bot.randrange(2) if actions > 1 else 1
            app.retract(game_id, RECORDER, count=count, reason="mis-entered")
            retractions += 1
    game = app.game(game_id)
    return Recorded(game_id, ruleset, game.config, seed, game.outcome is not None, actions, retractions)


# -- tamperings -------------------------------------------------------------------------


@dataclass
class Tampered:
    """An edited stream and the divergence the audit must report for it."""

    kind: str
    events: list[Event]
    version: int
    code: str
    rule: str | None = None  # when the audit must cite one particular rule
    note: str = ""
    secret: Event | None = None  # an edited secrets row instead of the game's stream


@dataclass
class Context:
    recorded: Recorded
    events: list[Event]
    pick: random.Random
    sealed: list[Event] = field(default_factory=list)  # the secrets stream

    @property
    def ruleset(self) -> AnyRuleset:
        return self.recorded.ruleset

    def rng(self) -> Rng:
        seed = self.recorded.seed
        config = self.recorded.config
        return SeededRng(seed, config.game_id, config.client_seed) if seed is not None else NoRng()

    def indexes(self, topic: str) -> list[int]:
        return [i for i, e in enumerate(self.events) if e.topic == topic]


Tampering = Callable[[Context], Tampered | None]


def _perturb(value: Any, pick: random.Random, pool: list[str]) -> Any:
    """A plausible other value of the same shape, or None when there is none to make."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value <= 1 else value - 1  # stays on a small die
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        others = sorted({p for p in pool if p != value})
        return pick.choice(others) if others else value + "'"
    if isinstance(value, list):
        distinct = [(i, j) for i in range(len(value)) for j in range(i) if value[i] != value[j]]
        if distinct:
            i, j = pick.choice(distinct)
            swapped = list(value)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            return swapped
        if value:
            changed = _perturb(value[0], pick, pool)
            return None if changed is None else [changed, *value[1:]]
        return None
    if isinstance(value, dict):
        for key in pick.sample(sorted(value), len(value)):
            changed = _perturb(value[key], pick, pool)
            if changed is not None:
                return {**value, key: changed}
    return None


def _strings(events: list[Event], key: str) -> list[str]:
    """Every string a fact of this game holds under `key`, for plausible replacements."""
    found: set[str] = set()
    for event in events:
        if event.topic == FACT:
            value = event.body["fact"].get(key)
            items = value if isinstance(value, list) else [value]
            found.update(v for v in items if isinstance(v, str))
    return sorted(found)


def _change_a_field(
    ctx: Context, candidates: list[int], fields: Callable[[dict[str, Any]], list[str]]
) -> Tampered | None:
    for index in ctx.pick.sample(candidates, len(candidates)):
        fact = ctx.events[index].body["fact"]
        names = fields(fact)
        for name in ctx.pick.sample(names, len(names)):
            changed = _perturb(fact[name], ctx.pick, _strings(ctx.events, name))
            if changed is None or changed == fact[name]:
                continue
            events = list(ctx.events)
            events[index] = ctx.events[index].edited(fact={**fact, name: changed})
            note = f"{fact.get('type')}.{name}: {fact[name]!r} -> {changed!r}"
            return Tampered("", events, index + 1, "fact_differs", note=note)
    return None


def fact_value_changed(ctx: Context) -> Tampered | None:
    return _change_a_field(ctx, ctx.indexes(FACT), lambda fact: [k for k in fact if k != "type"])


def random_outcome_changed(ctx: Context) -> Tampered | None:
    codec = ctx.ruleset.codec
    random_facts = [
        i
        for i in ctx.indexes(FACT)
        if ctx.ruleset.boundary(codec.decode_fact(ctx.events[i].body["fact"])) == "random"
    ]
    return _change_a_field(
        ctx, random_facts, lambda fact: [k for k in DRAWN if fact.get(k) not in (None, [], "")]
    )


def fact_removed(ctx: Context) -> Tampered | None:
    index = ctx.pick.choice(ctx.indexes(FACT))
    events = ctx.events[:index] + ctx.events[index + 1 :]
    note = f"the {ctx.events[index].body['fact'].get('type')} fact at version {index + 1}"
    return Tampered("", events, first_difference(ctx.events, events), "fact_missing", note=note)


def fact_added(ctx: Context) -> Tampered | None:
    # Inside an action's facts or at their end (or the setup's): right after an action or a fact.
    places = [i for i in range(1, len(ctx.events) + 1) if ctx.events[i - 1].topic in (ACTION, FACT)]
    index = ctx.pick.choice(places)
    source = ctx.events[ctx.pick.choice(ctx.indexes(FACT))]
    neighbour = ctx.events[index - 1].body["timestamp"]
    added = Event(FACT, {"timestamp": neighbour, "fact": source.body["fact"]})
    events = [*ctx.events[:index], added, *ctx.events[index:]]
    note = f"a {source.body['fact'].get('type')} fact at version {index + 1}"
    return Tampered("", events, first_difference(ctx.events, events), "fact_extra", note=note)


def events_swapped(ctx: Context) -> Tampered | None:
    pairs = [
        i
        for i in range(1, len(ctx.events) - 1)
        if FACT in (ctx.events[i].topic, ctx.events[i + 1].topic)
        and ctx.events[i].content() != ctx.events[i + 1].content()
    ]
    index = ctx.pick.choice(pairs)
    first, second = ctx.events[index], ctx.events[index + 1]
    events = [*ctx.events[:index], second, first, *ctx.events[index + 2 :]]
    if first.topic == FACT and second.topic == FACT:
        code = "fact_order"  # two facts of one action
    elif first.topic == FACT:
        code = "fact_missing"  # the fact moved past the end of its action's facts
    else:
        code = "fact_extra"  # the fact moved into the facts before its action
    note = f"versions {index + 1} and {index + 2} ({first.topic} and {second.topic})"
    return Tampered("", events, index + 1, code, note=note)


def _states_between_steps(ctx: Context) -> dict[int, Any]:
    """The state before each event that starts a step (an action, a correction, the
    finishing event, or the end of the stream), by index, while the game runs."""
    ruleset, codec = ctx.ruleset, ctx.ruleset.codec
    state = ruleset.initial(ctx.recorded.config)
    checkpoints: dict[int, Any] = {}
    found: dict[int, Any] = {}
    for index, event in enumerate([*ctx.events, None]):
        if index == 0:
            continue
        if (event is None or event.topic != FACT) and ruleset.outcome(state) is None:
            found[index] = state
        if event is None:
            break
        if event.topic == FACT:
            state = ruleset.evolve(state, codec.decode_fact(event.body["fact"]))
        elif event.topic == ACTION:
            checkpoints[event.body["seq"]] = state
        elif event.topic == RETRACTION:
            state = checkpoints[min(event.body["seqs"])]
    return found


def illegal_action_inserted(ctx: Context) -> Tampered | None:
    """An action recorded elsewhere in the game, with the facts it caused there, inserted
    between two steps where the rules refuse it; the later action numbers shift up by one."""
    states = _states_between_steps(ctx)
    sources = ctx.indexes(ACTION)
    ruleset, rng = ctx.ruleset, ctx.rng()
    for index in ctx.pick.sample(sorted(states), len(states)):
        for source in ctx.pick.sample(sources, min(len(sources), 20)):
            body = ctx.events[source].body
            command = Command(ruleset.codec.decode_action(body["action"]), body["seat"], body["by"])
            try:
                refused = ruleset.decide(states[index], command, rng)
            except Exception:  # a physical game cannot draw: not a candidate
                continue
            if not isinstance(refused, Rejection):
                continue
            facts = []
            for event in ctx.events[source + 1 :]:
                if event.topic != FACT:
                    break
                facts.append(event)
            seq = 1 + sum(1 for e in ctx.events[:index] if e.topic == ACTION)
            action = Event(ACTION, {**body, "seq": seq, "action_id": None})
            later = [_shift_seqs(e, seq) for e in ctx.events[index:]]
            events = [*ctx.events[:index], action, *facts, *later]
            note = f"{ruleset.format_action(command.action)} at version {index + 1} ({refused.code})"
            return Tampered("", events, index + 1, "action_illegal", rule=refused.rule, note=note)
    return None


def _shift_seqs(event: Event, from_seq: int) -> Event:
    if event.topic == ACTION and event.body["seq"] >= from_seq:
        return event.edited(seq=event.body["seq"] + 1)
    if event.topic in (RETRACTION, RetractionRequested.TOPIC):
        return event.edited(seqs=[s + 1 if s >= from_seq else s for s in event.body["seqs"]])
    return event


def outcome_edited(ctx: Context) -> Tampered | None:
    finished = ctx.indexes(FINISHED)
    if not finished:
        return None
    index = finished[0]
    outcome = ctx.events[index].body["outcome"]
    scores, ranks = dict(outcome["scores"]), dict(outcome["ranks"])
    seats = sorted(scores)
    apart = [(a, b) for a in seats for b in seats if a < b and (scores[a], ranks[a]) != (scores[b], ranks[b])]
    if apart:  # the loser becomes the winner
        a, b = ctx.pick.choice(apart)
        scores[a], scores[b] = scores[b], scores[a]
        ranks[a], ranks[b] = ranks[b], ranks[a]
    else:
        scores[ctx.pick.choice(seats)] += 1
    winners = [s for s in seats if ranks[s] == 1]
    edited = {**outcome, "scores": scores, "ranks": ranks, "winners": winners}
    events = list(ctx.events)
    events[index] = ctx.events[index].edited(outcome=edited)
    return Tampered("", events, index + 1, "outcome_differs", note=f"{outcome['scores']} -> {scores}")


def seed_replaced(ctx: Context) -> Tampered | None:
    """A finished game: the seed revealed in its finishing event. A running one: the sealed
    seed in its secrets stream, which an administrator's audit uses."""
    if ctx.recorded.seed is None:
        return None
    other = ctx.pick.randbytes(32).hex()
    finished = ctx.indexes(FINISHED)
    if finished:
        events = list(ctx.events)
        events[finished[0]] = ctx.events[finished[0]].edited(server_seed=other)
        return Tampered(
            "", events, finished[0] + 1, "seed_not_committed", rule="records 4.1", note="revealed"
        )
    [created] = ctx.sealed
    return Tampered(
        "",
        ctx.events,
        1,
        "seed_not_committed",
        rule="records 4.1",
        note="sealed",
        secret=created.edited(server_seed=other),
    )


def retraction_edited(ctx: Context) -> Tampered | None:
    index = ctx.pick.choice(ctx.indexes(RETRACTION))
    seqs = ctx.events[index].body["seqs"]
    other = [s - 1 for s in seqs] if ctx.pick.random() < 0.5 or min(seqs) == 1 else [*seqs, max(seqs) + 1]
    events = list(ctx.events)
    events[index] = ctx.events[index].edited(seqs=other)
    return Tampered(
        "", events, index + 1, "retraction_not_latest", rule="corrections 1", note=f"{seqs} -> {other}"
    )


TAMPERINGS: dict[str, Tampering] = {
    "a fact's value changed": fact_value_changed,
    "a random outcome changed": random_outcome_changed,
    "a fact removed": fact_removed,
    "a fact added": fact_added,
    "two events swapped": events_swapped,
    "an illegal action inserted": illegal_action_inserted,
    "the outcome edited": outcome_edited,
    "the seed replaced": seed_replaced,
    "a retraction edited": retraction_edited,
}


def tamper(kind: str, ctx: Context) -> Tampered | None:
    found = TAMPERINGS[kind](ctx)
    return None if found is None else replace(found, kind=kind)


def created_of(events: list[Event]) -> Event:
    assert events[0].topic == GameCreated.TOPIC
    return events[0]
