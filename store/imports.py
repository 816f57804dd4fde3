"""Importing a Dominion Online log as a physical game: every action recorded through the same
append path as an action typed at the table (`Chronicle.record`, the recorder's token).

Parsing and planning are pure (`domain.games.dominion.onlinelog`, `.logimport`); this module
checks the log before anything is stored (its format, its kingdom, the cards Chronicle implements, the
player count), plays it through the rules alone, creates the game, records the planner's steps
one by one until the game ends, the log runs out, a player leaves, or the rules refuse an
action, and reports what happened. A refused action is not stored: the game keeps every action
before it, so the refusal can be inspected where it happened. A log that contradicts itself
(a turn the rules give another player, a card the log never names where the engine needs one)
is refused before anything is stored (`log_inconsistent`), with the line and the reason: the
rehearsal finds it without a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec
import msgspec.structs

from domain.games.dominion import RULESET
from domain.games.dominion.data import DATA
from domain.games.dominion.logimport import Planner, Step, Stop, named_kingdom, tallied_scores, unsupported
from domain.games.dominion.onlinelog import (
    BASICS,
    FORMAT_2013,
    FORMAT_TODAY,
    GameLog,
    LogError,
    detect,
    parse,
    parse_today,
)
from domain.games.dominion.turns import card_vp
from domain.rng import NoRng
from domain.ruleset import Command, GameConfig, RejectedError, Rejection, Seat, decider, resolve_options
from store.app import RECORDER, Chronicle, CreatedGame, NewGame
from store.errors import InvalidRequest

MAX_PLAYERS = 4  # the base game without the players_5_6 variant (dominion.md 1.3)
LOG_TAG = "dominion-online"


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


def check_log(text: str, kingdom: Sequence[str] = ()) -> GameLog:
    """The parsed log, or `LogRefused` with a stable code when it cannot be imported.
    `kingdom` names the 10 kingdom piles where the log does not list them (today's format);
    without it they are the piles the log's lines name, which must then be 10."""
    kind = detect(text)
    if kind not in (FORMAT_2013, FORMAT_TODAY):
        raise LogRefused("This is not a Dominion Online game log.", code="log_unreadable")
    try:
        log = parse(text) if kind == FORMAT_2013 else parse_today(text)
    except LogError as error:
        raise LogRefused(f"The log cannot be read: {error}.", code="log_unreadable") from None
    if kingdom:
        if log.supply and sorted(kingdom) != sorted(log.kingdom):
            raise LogRefused(
                f"The log lists its kingdom ({', '.join(log.kingdom)}); the kingdom given differs.",
                code="log_kingdom",
            )
        log = msgspec.structs.replace(log, supply=(*kingdom, *BASICS))
    elif not log.supply:
        log = msgspec.structs.replace(log, supply=(*named_kingdom(log), *BASICS))
    missing = unsupported(log)
    if missing:
        raise LogRefused(
            f"Chronicle implements {implemented_sets()}; this log uses {', '.join(missing)}.",
            code="cards_not_implemented",
        )
    if not 2 <= len(log.players) <= MAX_PLAYERS:
        raise LogRefused(
            f"The log has {len(log.players)} players; Dominion takes 2 to 4.", code="log_players"
        )
    if len(log.kingdom) != 10:
        where = "lists" if kind == FORMAT_2013 or kingdom else "names only"
        raise LogRefused(
            f"The log {where} {len(log.kingdom)} kingdom piles, not 10: {', '.join(log.kingdom)}"
            + ("" if kind == FORMAT_2013 or kingdom else "; name the 10 piles (kingdom)")
            + ".",
            code="log_kingdom",
        )
    piles = DATA.base_all if kind == FORMAT_TODAY else DATA.cards
    outside = sorted({name for name in log.kingdom if name not in piles or name in BASICS})
    if outside or len(set(log.kingdom)) != 10:
        what = f"{', '.join(outside)}: not a kingdom pile of the base set" if outside else "a pile twice"
        raise LogRefused(f"The kingdom names {what}.", code="log_kingdom")
    starting = ("Copper",) * 7 + ("Estate",) * 3
    odd = [name for name, cards in log.starting.items() if sorted(cards) != sorted(starting)]
    if odd:
        raise LogRefused(
            f"{', '.join(odd)} did not start with 7 Copper and 3 Estate.", code="log_starting_cards"
        )
    return log


def implemented_sets() -> str:
    """The card sets the installed card data holds, in words ("the base game (1st and 2nd
    edition) and Empires"), for a refusal that names what a log may use."""
    editions = [name for name, cards in (("1st", DATA.kingdom), ("2nd", DATA.kingdom_2e)) if cards]
    base = f"the base game ({' and '.join(editions)} edition)"
    return f"{base} and Empires" if DATA.empires_piles else base


def import_log(app: Chronicle, text: str, source: str = "", kingdom: Sequence[str] = ()) -> ImportReport:
    """Import one log's text into `app`'s store (raises `LogRefused` before storing anything)."""
    return import_with_tokens(app, text, source, kingdom)[0]


def import_with_tokens(
    app: Chronicle, text: str, source: str = "", kingdom: Sequence[str] = ()
) -> tuple[ImportReport, CreatedGame]:
    """`import_log`, with the created game's tokens (shown once, to whoever imported it)."""
    log = check_log(text, kingdom)
    order = log.turn_order
    seats = {name: seat for name, seat in zip(order, RULESET.meta.seat_ids, strict=False)}
    # Today's Dominion Online plays the 2nd-edition base set (its Throne Room may play nothing,
    # its Moneylender may trash nothing), with the 1st-edition cards it dropped still nameable.
    options: dict[str, Any] = {"kingdom": "manual"}
    if log.format == FORMAT_TODAY:
        options["base_edition"] = 2
    stuck = rehearse(log, seats, options)
    if stuck is not None:
        where = f"Line {stuck.line.number} ({stuck.line.text!r}): " if stuck.line is not None else ""
        raise LogRefused(f"The log contradicts itself. {where}{stuck.message}", code="log_inconsistent")
    new = NewGame("dominion", list(order), "physical", options, tags=[LOG_TAG])
    created = app.create_game(new, admin=True)
    game_id = UUID(created.game_id)
    planner = Planner(log, seats)
    actions = 0
    refusal: Refusal | None = None
    stop: Stop | None = None
    budget = 20 * len(log.lines) + 100  # the planner ticks a line or ends a phase each step
    while stop is None and refusal is None:
        state = app.game(game_id).state
        step = planner.next_step(state)
        if isinstance(step, Stop):
            stop = step
            break
        budget -= 1
        if budget < 0:
            stop = Stop("stuck", "The import made no progress.", planner.current_line())
            break
        refusal = _record(app, game_id, step, planner, log)
        if refusal is None:
            actions += 1
    if stop is not None and stop.reason == "left" and stop.players:
        # The first to leave resigns: the game ends at once, ranked as a resignation ranks
        # (the resigner last, the rest by their score).
        leaver = stop.players[0]
        line = f" (log line {stop.line.number})" if stop.line is not None else ""
        app.resign(game_id, RECORDER, seat=seats[leaver], reason=f"left the online game{line}")
    game = app.game(game_id)
    state = game.state
    if refusal is not None:
        status, message = "refused", f"Refused at line {refusal.line}: {refusal.message}"
    else:
        assert stop is not None
        status, message = stop.reason, stop.message
        if stop.reason == "stuck" and stop.line is not None:
            message = f"Stopped at line {stop.line.number} ({stop.line.text!r}): {stop.message}"
    outcome = game.outcome if game.outcome is not None else RULESET.outcome(state)
    if outcome is not None:
        scores = {_name(seats, seat): score for seat, score in outcome.scores.items()}
    else:
        scores = {
            _name(seats, state.seats[p]): card_vp(pl.owned()) + pl.vp for p, pl in enumerate(state.players)
        }
    report = ImportReport(
        source=source,
        format=log.format,
        game_id=str(game_id),
        players={seat: name for name, seat in seats.items()},
        status=status,
        message=message,
        turns_log=log.turns,
        turns=state.turn,
        actions=actions,
        scores_log=_log_scores(log, order),
        scores=scores,
        refusal=refusal,
        unexplained=[line.number for line in planner.unexplained],
        unlogged=planner.unlogged,
        lines=len(log.lines),
    )
    return report, created


def rehearse(log: GameLog, seats: dict[str, str], options: dict[str, Any]) -> Stop | None:
    """Play the log through the rules alone, as the import records it, and return where it
    gets stuck (None when it ends otherwise: finished, a player left, or an action the rules
    refuse, which the import stores up to). Nothing is stored."""
    resolved = resolve_options(RULESET.meta, options)
    assert not isinstance(resolved, Rejection), resolved
    names = tuple(Seat(seat, name) for name, seat in seats.items())
    config = GameConfig("rehearsal", RULESET.meta.id, "physical", names, resolved)
    decide = decider(RULESET)
    state = RULESET.initial(config)
    for fact in RULESET.setup(config, state, NoRng()):
        state = RULESET.evolve(state, fact)
    planner = Planner(log, seats)
    for _ in range(20 * len(log.lines) + 100):  # the import's own budget
        step = planner.next_step(state)
        if isinstance(step, Stop):
            return step if step.reason == "stuck" else None
        decided = decide(state, Command(step.action, step.seat, "recorder"), NoRng())
        if isinstance(decided, Rejection):
            return None
        facts, state = decided
        planner.absorb(list(facts))
    return Stop("stuck", "The import made no progress.", planner.current_line())


def _log_scores(log: GameLog, order: Sequence[str]) -> dict[str, int | None]:
    """The 2012-13 log's final totals; today's log prints none, so its scores are tallied from
    what it says each player gained and trashed (`tallied_scores`)."""
    if log.format == FORMAT_TODAY:
        tally = tallied_scores(log)
        return {name: tally.get(name) for name in order}
    return {name: log.final[name].vp if name in log.final else None for name in order}


def _name(seats: dict[str, str], seat: str) -> str:
    return next(name for name, s in seats.items() if s == seat)


def _record(app: Chronicle, game_id: UUID, step: Step, planner: Planner, log: GameLog) -> Refusal | None:
    codec = RULESET.codec
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
