"""Importing a game played online from its log, as a physical game: every action recorded
through the same append path as an action typed at the table (`Chronicle.record`, the
recorder's token).

The game reads the log (the ruleset's optional `read_online_log`, domain/online_logs.py: Dominion
reads Dominion Online's logs): it checks the log before anything is stored and plans it into the
actions a table would record. This module plays the plan through the rules alone, creates the
game, records the planner's steps one by one until the game ends, the log runs out, a player
leaves, or the rules refuse an action, and reports what happened. A refused action is not
stored: the game keeps every action before it, so the refusal can be inspected where it
happened. A log that contradicts itself (a turn the rules give another player, a card the log
never names where the engine needs one) is refused before anything is stored
(`log_inconsistent`), with the line and the reason: the rehearsal finds it without a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from domain.online_logs import (
    LogPlanner,
    LogRefusal,
    LogStep,
    LogStop,
    OnlineLog,
    no_progress,
    online_log_reader,
    rehearse,
    step_budget,
)
from domain.ruleset import RejectedError, Ruleset, get_ruleset
from store.app import RECORDER, Chronicle, CreatedGame, NewGame
from store.errors import InvalidRequest


class Refusal(msgspec.Struct):
    """The first action the rules refused: the log's turn header and line, the rejection."""

    turn: int
    line: int
    text: str
    code: str
    message: str
    rule: str


class ImportReport(msgspec.Struct):
    """What one log became. `scores_log` are the log's final totals (None when it has none),
    `scores` Chronicle's (the final outcome, or the VP of the cards held where the import
    stopped); `turns_log` counts the log's turn headers and `turns` Chronicle's turns."""

    source: str
    format: str
    game_id: str
    players: dict[str, str]
    status: str  # finished, left, refused, stuck
    message: str
    turns_log: int
    turns: int
    actions: int
    scores_log: dict[str, int | None]
    scores: dict[str, int]
    refusal: Refusal | None = None
    unexplained: list[int] = []  # log lines no fact stands for
    unlogged: list[str] = []  # the engine's shuffles, plays, buys, gains, trashes no line shows
    lines: int = 0

    @property
    def scores_match(self) -> bool:
        return all(self.scores_log.get(name) == score for name, score in self.scores.items())


class LogRefused(InvalidRequest):
    """The log is refused before anything is stored."""

    status = 422
    title = "The log cannot be imported"


def read_log(game: str, text: str, kingdom: Sequence[str] = ()) -> tuple[Ruleset[Any, Any, Any], OnlineLog]:
    """The ruleset `game` and its log in `text`, checked, or `LogRefused` with a stable code when
    it cannot be imported. `kingdom` names the kingdom where the log does not (empty: the
    log's own)."""
    ruleset = get_ruleset(game)
    reader = online_log_reader(ruleset) if ruleset is not None else None
    if ruleset is None or reader is None:
        raise LogRefused(f"Chronicle imports no online logs of {game!r}.", code="log_game")
    try:
        return ruleset, reader.read_online_log(text, kingdom)
    except LogRefusal as refusal:
        raise LogRefused(refusal.message, code=refusal.code) from None


def import_log(
    app: Chronicle, text: str, source: str = "", kingdom: Sequence[str] = (), *, game: str
) -> ImportReport:
    """Import one log of `game` (a ruleset id) into `app`'s store (raises `LogRefused` before
    storing anything)."""
    return import_with_tokens(app, text, source, kingdom, game=game)[0]


def import_with_tokens(
    app: Chronicle, text: str, source: str = "", kingdom: Sequence[str] = (), *, game: str
) -> tuple[ImportReport, CreatedGame]:
    """`import_log`, with the created game's tokens (shown once, to whoever imported it)."""
    ruleset, log = read_log(game, text, kingdom)
    order = log.players
    seats = {name: seat for name, seat in zip(order, ruleset.meta.seat_ids, strict=False)}
    stuck = rehearse(ruleset, log, seats)
    if stuck is not None:
        where = f"Line {stuck.line.number} ({stuck.line.text!r}): " if stuck.line is not None else ""
        raise LogRefused(f"The log contradicts itself. {where}{stuck.message}", code="log_inconsistent")
    new = NewGame(ruleset.meta.id, list(order), "physical", dict(log.options), tags=[log.tag])
    created = app.create_game(new, admin=True)
    game_id = UUID(created.game_id)
    planner = log.planner(seats)
    actions = 0
    refusal: Refusal | None = None
    stop: LogStop | None = None
    budget = step_budget(log)
    while stop is None and refusal is None:
        state = app.game(game_id).state
        step = planner.next_step(state)
        if isinstance(step, LogStop):
            stop = step
            break
        budget -= 1
        if budget < 0:
            stop = no_progress(planner)
            break
        refusal = _record(app, ruleset, game_id, step, planner)
        if refusal is None:
            actions += 1
    if stop is not None and stop.reason == "left" and stop.players:
        # The first to leave resigns: the game ends at once, ranked as a resignation ranks
        # (the resigner last, the rest by their score).
        leaver = stop.players[0]
        line = f" (log line {stop.line.number})" if stop.line is not None else ""
        app.resign(game_id, RECORDER, seat=seats[leaver], reason=f"left the online game{line}")
    game_now = app.game(game_id)
    state = game_now.state
    if refusal is not None:
        status, message = "refused", f"Refused at line {refusal.line}: {refusal.message}"
    else:
        assert stop is not None
        status, message = stop.reason, stop.message
        if stop.reason == "stuck" and stop.line is not None:
            message = f"Stopped at line {stop.line.number} ({stop.line.text!r}): {stop.message}"
    outcome = game_now.outcome if game_now.outcome is not None else ruleset.outcome(state)
    held = outcome.scores if outcome is not None else log.held_scores(state)
    report = ImportReport(
        source=source,
        format=log.format,
        game_id=str(game_id),
        players={seat: name for name, seat in seats.items()},
        status=status,
        message=message,
        turns_log=log.turns,
        turns=ruleset.progress(state)[0],
        actions=actions,
        scores_log=log.log_scores(),
        scores={_name(seats, seat): score for seat, score in held.items()},
        refusal=refusal,
        unexplained=[line.number for line in planner.unexplained],
        unlogged=list(planner.unlogged),
        lines=log.lines,
    )
    return report, created


def _name(seats: dict[str, str], seat: str) -> str:
    return next(name for name, s in seats.items() if s == seat)


def _record(
    app: Chronicle, ruleset: Ruleset[Any, Any, Any], game_id: UUID, step: LogStep, planner: LogPlanner
) -> Refusal | None:
    codec = ruleset.codec
    action: dict[str, Any] = codec.encode(step.action)
    try:
        recorded = app.record(game_id, action, RECORDER, seat=step.seat)
    except RejectedError as error:
        line = step.line or planner.current_line()
        rejection = error.rejection
        return Refusal(
            turn=planner.current_turn(),
            line=line.number if line is not None else 0,
            text=line.text if line is not None else "",
            code=rejection.code,
            message=rejection.message,
            rule=rejection.rule,
        )
    planner.absorb([codec.decode_fact(f) for f in recorded.facts])
    return None
