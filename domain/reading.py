"""The one redaction: every answer about a game as one viewer may see it (design.md 5).

Whatever reads a game takes its answer from here: the stored events with their text lines
(JSON, NDJSON, `chronicle log`, the replay), the state at a version, the open prompts, a
game's summary, the legal actions, the facts answering a write, and the facts per-game
statistics are folded from. What a viewer may see of each part is the ruleset's to say, in its
`view` module (`view`, `redact`, `redact_action`, `redact_prompt`); this module applies it the
same way for every path, so no path can show more than another.

An action is redacted against the state it answered (the aggregate keeps the state before
every action it ever recorded), because what a choice reveals depends on the question: cards
discarded from a hand stay hidden, cards trashed from it do not. A client's `action_id` is
shown to the seat that acted and to the omniscient viewer only.

Mutation testing (bench/mutation.py, group redaction) leaves survivors judged equivalent: the
omniscient test in `own` (`sees_seat` answers yes to that viewer too). Not reached by the tests,
and not equivalent: `present`'s `retracted` default (every caller passes it), a fact's
`retracted` left out, the state handed to `redact_prompt` (no shipped ruleset's prompt
redaction reads it for the prompts the golden games raise), the templates of a ruleset that
offers them, `explained` (checked only against itself), and the separator between the seats a
request waits for (every test table has two seats).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgspec

from domain import templates
from domain.events import (
    ActionRecorded,
    ActionsRetracted,
    FactRecorded,
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameResigned,
    RetractionAnswered,
    RetractionRequested,
)
from domain.game import Game
from domain.ruleset import GameConfig, Prompt, Ruleset, Viewer


class StoredEvent(msgspec.Struct):
    """One event of a game's stream as a reader may see it."""

    version: int
    type: Literal[
        "created",
        "action",
        "fact",
        "retraction",
        "retraction_request",
        "retraction_answer",
        "resigned",
        "abandoned",
        "finished",
    ]
    at: str
    data: dict[str, Any]
    text: str
    retracted: bool = False  # an action (or one of its facts) undone by a later retraction
    # its digest in the game's hash chain (store/chain.py), for a viewer who sees every stored
    # fact: over hidden facts it would let others test guesses of them
    digest: str | None = None


def present(game: Game, event: Any, viewer: Viewer, retracted: bool = False) -> StoredEvent:
    """`event` of `game`'s stream as `viewer` sees it. `game` is the aggregate at that event or
    any later version (it holds the state each action answered)."""
    shown = _present(game, event, viewer, retracted)
    if viewer.kind == "omniscient":
        digest = vars(event).get("chain")
        shown.digest = digest if isinstance(digest, str) else None
    return shown


def _present(game: Game, event: Any, viewer: Viewer, retracted: bool) -> StoredEvent:
    ruleset, config = game.ruleset, game.config
    at = event.timestamp.isoformat()
    version = event.originator_version
    if isinstance(event, FactRecorded):
        fact = ruleset.redact(ruleset.codec.decode_fact(event.fact), viewer)
        return StoredEvent(
            version, "fact", at, ruleset.codec.encode(fact), ruleset.describe(fact, config), retracted
        )
    if isinstance(event, ActionRecorded):
        seat = game.actions[event.seq - 1].seat
        action = ruleset.redact_action(
            ruleset.codec.decode_action(event.action), seat, game.checkpoints[event.seq], viewer
        )
        who = config.seat_name(event.seat) if event.seat else "the table"
        own = viewer.kind == "omniscient" or (seat is not None and viewer.sees_seat(seat))
        data = {
            "seq": event.seq,
            "action": ruleset.codec.encode(action),
            "seat": event.seat,
            "by": event.by,
            "action_id": event.action_id if own else None,
        }
        text = f"#{event.seq} {who}: {ruleset.format_action(action)}"
        return StoredEvent(version, "action", at, data, text, retracted)
    if isinstance(event, ActionsRetracted | RetractionRequested | RetractionAnswered):
        return _present_correction(event, config, at)
    if isinstance(event, GameCreated):
        names = ", ".join(s["name"] for s in event.seats)
        data = {
            "ruleset": event.ruleset,
            "ruleset_version": event.ruleset_version,
            "mode": event.mode,
            "seats": event.seats,
            "options": event.options,
            "client_seed": event.client_seed,
            "commitment": event.commitment,
            "rng_algorithm": event.rng_algorithm,
            "tags": event.tags,
        }
        if vars(event).get("deal"):
            data["deal"] = vars(event)["deal"]  # a same-deal game's first game (records 4.3)
        # A game that names its own title (`any`'s `title` option) is called by it.
        titled = event.options.get("title") if ruleset.meta.option("title") is not None else None
        called = f"{titled} ({ruleset.meta.id}, {event.mode})" if titled else None
        called = called or f"{ruleset.meta.title} ({event.mode})"
        return StoredEvent(version, "created", at, data, f"{called} for {names}.")
    if isinstance(event, GameResigned | GameAbandoned):
        return _present_ending(event, config, at)
    assert isinstance(event, GameFinished)
    outcome = event.outcome
    winners = " and ".join(config.seat_name(s) for s in outcome.get("winners", ())) or "nobody (a draw)"
    data = {"outcome": outcome, "server_seed": event.server_seed}
    return StoredEvent(version, "finished", at, data, f"The game is over: {winners} won.")


def present_all(game: Game, events: Iterable[Any], viewer: Viewer) -> list[StoredEvent]:
    """`events` of `game`'s stream as `viewer` sees them, each marked when a retraction (up to
    `game`'s version) undid it."""
    undone = game.retracted_versions()
    return [present(game, e, viewer, e.originator_version in undone) for e in events]


def facts(game: Game, stored: Sequence[Any], viewer: Viewer) -> list[dict[str, Any]]:
    """Facts (ruleset Structs) as `viewer` sees them, encoded for the wire."""
    ruleset = game.ruleset
    return [ruleset.codec.encode(ruleset.redact(f, viewer)) for f in stored]


def prompts(game: Game, viewer: Viewer) -> list[dict[str, Any]]:
    """Who must answer what now, as `viewer` sees it (nobody, once the record is closed)."""
    if game.closed:
        return []
    return prompts_of(game.ruleset, game.state, viewer)


def prompts_of(ruleset: Ruleset[Any, Any, Any], state: Any, viewer: Viewer) -> list[dict[str, Any]]:
    shown: list[Prompt] = [ruleset.redact_prompt(p, state, viewer) for p in ruleset.pending(state)]
    return [builtins(p) for p in shown]


def state(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The state at `game`'s version as `viewer` sees it."""
    return game.ruleset.view(game.state, viewer)


def legal_actions(game: Game, seat: str | None) -> dict[str, Any]:
    """The legal answers of `seat` (None: the table), for that seat or the recorder only: they
    are its own choices, so nothing in them is hidden from whoever may ask. Where listing every
    answer would be too long, `templates` carry ranges (domain/templates.py) and `complete`
    is false: the listed actions and the templates' instances are then every legal answer."""
    ruleset = game.ruleset
    actions = () if game.closed else ruleset.legal_actions(game.state, seat)
    shapes = () if game.closed else templates.of(ruleset, game.state, seat)
    return {
        "version": game.version,
        "seat": seat,
        "actions": [ruleset.codec.encode(a) for a in actions],
        "notation": [ruleset.format_action(a) for a in actions],
        "templates": list(shapes),
        "complete": not shapes,
        "explanations": [explained(ruleset, game.state, a) for a in actions],
    }


def explained(ruleset: Ruleset[Any, Any, Any], state: Any, action: Any) -> str:
    """What `action` means, in a sentence: the ruleset's optional `explain_action(state,
    action)`, else its kind."""
    explain = getattr(ruleset, "explain_action", None)
    if explain is not None:
        found: str = explain(state, action)
        return found
    return str(action.__struct_config__.tag)


def outcome(game: Game) -> dict[str, Any] | None:
    return builtins(game.outcome) if game.outcome is not None else None


def builtins(value: Any) -> dict[str, Any]:
    out = msgspec.to_builtins(value)
    assert isinstance(out, dict)
    return out


def _present_ending(event: Any, config: GameConfig, at: str) -> StoredEvent:
    version = event.originator_version
    because = f" ({event.reason})" if event.reason else ""
    entered = "" if event.by == "seat" else f", entered by the {event.by}"
    if isinstance(event, GameResigned):
        data = {"seat": event.seat, "by": event.by, "reason": event.reason}
        text = f"{config.seat_name(event.seat)} resigns{because}{entered}."
        return StoredEvent(version, "resigned", at, data, text)
    data = {"by": event.by, "reason": event.reason, "server_seed": event.server_seed}
    return StoredEvent(version, "abandoned", at, data, f"The game is abandoned{because}, by the {event.by}.")


def _present_correction(event: Any, config: GameConfig, at: str) -> StoredEvent:
    who = config.seat_name(event.seat) if event.seat else "The table"
    version = event.originator_version
    if isinstance(event, RetractionAnswered):
        verb = "approves" if event.approved else "declines"
        data = {"request_id": event.request_id, "seat": event.seat, "approved": event.approved}
        return StoredEvent(version, "retraction_answer", at, data, f"{who} {verb} the retraction.")
    numbers = ", ".join(f"#{s}" for s in event.seqs)
    because = f" ({event.reason})" if event.reason else ""
    if isinstance(event, RetractionRequested):
        needs = ", ".join(config.seat_name(s) for s in event.needs)
        data = {
            "request_id": event.request_id,
            "seqs": event.seqs,
            "seat": event.seat,
            "reason": event.reason,
            "needs": event.needs,
        }
        text = f"{who} asks to retract {numbers}{because}; waiting for {needs}."
        return StoredEvent(version, "retraction_request", at, data, text)
    data = {
        "seqs": event.seqs,
        "by": event.by,
        "seat": event.seat,
        "reason": event.reason,
        "approvals": event.approvals,
    }
    return StoredEvent(version, "retraction", at, data, f"{who} retracts {numbers}{because}.")
