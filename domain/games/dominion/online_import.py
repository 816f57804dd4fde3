"""Dominion's part of importing an online game's log (domain/online_logs.py): a Dominion Online
log read (`onlinelog`), checked before anything is stored (its format, its kingdom, the cards
Chronicle implements, the player count) and handed to the import with its planner (`logimport`).

A log is refused with `LogRefusal` and a stable code: `log_unreadable` (not a Dominion Online
log, or one that cannot be read), `log_kingdom`, `cards_not_implemented`, `log_players`,
`log_starting_cards`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import msgspec.structs

from domain.games.dominion.data import DATA
from domain.games.dominion.logimport import Planner, named_kingdom, tallied_scores, unsupported
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
from domain.games.dominion.state import State
from domain.games.dominion.turns import card_vp
from domain.online_logs import LogRefusal

MAX_PLAYERS = 4  # the base game without the players_5_6 variant (dominion.md 1.3)
LOG_TAG = "dominion-online"


class DominionLog:
    """A checked Dominion Online log, as the import reads it (`domain.online_logs.OnlineLog`)."""

    tag = LOG_TAG

    def __init__(self, log: GameLog) -> None:
        self.log = log

    @property
    def format(self) -> str:
        return self.log.format

    @property
    def players(self) -> tuple[str, ...]:
        return self.log.turn_order

    @property
    def options(self) -> dict[str, Any]:
        # Today's Dominion Online plays the 2nd-edition base set (its Throne Room may play nothing,
        # its Moneylender may trash nothing), with the 1st-edition cards it dropped still nameable.
        options: dict[str, Any] = {"kingdom": "manual"}
        if self.log.format == FORMAT_TODAY:
            options["base_edition"] = 2
        return options

    @property
    def turns(self) -> int:
        return self.log.turns

    @property
    def lines(self) -> int:
        return len(self.log.lines)

    def planner(self, seats: Mapping[str, str]) -> Planner:
        return Planner(self.log, dict(seats))

    def log_scores(self) -> dict[str, int | None]:
        """The 2012-13 log's final totals; today's log prints none, so its scores are tallied from
        what it says each player gained and trashed (`tallied_scores`)."""
        log = self.log
        if log.format == FORMAT_TODAY:
            tally = tallied_scores(log)
            return {name: tally.get(name) for name in self.players}
        return {name: log.final[name].vp if name in log.final else None for name in self.players}

    def held_scores(self, state: State) -> dict[str, int]:
        """The VP of the cards each seat owns, and its VP tokens."""
        return {state.seats[p]: card_vp(pl.owned()) + pl.vp for p, pl in enumerate(state.players)}


def read_log(text: str, kingdom: Sequence[str] = ()) -> DominionLog:
    """The log in `text`, checked (`check_log`), ready to import."""
    return DominionLog(check_log(text, kingdom))


def check_log(text: str, kingdom: Sequence[str] = ()) -> GameLog:
    """The parsed log, or `LogRefusal` with a stable code when it cannot be imported.
    `kingdom` names the 10 kingdom piles where the log does not list them (today's format);
    without it they are the piles the log's lines name, which must then be 10."""
    kind = detect(text)
    if kind not in (FORMAT_2013, FORMAT_TODAY):
        raise LogRefusal("This is not a Dominion Online game log.", code="log_unreadable")
    try:
        log = parse(text) if kind == FORMAT_2013 else parse_today(text)
    except LogError as error:
        raise LogRefusal(f"The log cannot be read: {error}.", code="log_unreadable") from None
    if kingdom:
        if log.supply and sorted(kingdom) != sorted(log.kingdom):
            raise LogRefusal(
                f"The log lists its kingdom ({', '.join(log.kingdom)}); the kingdom given differs.",
                code="log_kingdom",
            )
        log = msgspec.structs.replace(log, supply=(*kingdom, *BASICS))
    elif not log.supply:
        log = msgspec.structs.replace(log, supply=(*named_kingdom(log), *BASICS))
    missing = unsupported(log)
    if missing:
        raise LogRefusal(
            f"Chronicle implements {implemented_sets()}; this log uses {', '.join(missing)}.",
            code="cards_not_implemented",
        )
    if not 2 <= len(log.players) <= MAX_PLAYERS:
        raise LogRefusal(
            f"The log has {len(log.players)} players; Dominion takes 2 to 4.", code="log_players"
        )
    if len(log.kingdom) != 10:
        where = "lists" if kind == FORMAT_2013 or kingdom else "names only"
        raise LogRefusal(
            f"The log {where} {len(log.kingdom)} kingdom piles, not 10: {', '.join(log.kingdom)}"
            + ("" if kind == FORMAT_2013 or kingdom else "; name the 10 piles (kingdom)")
            + ".",
            code="log_kingdom",
        )
    piles = DATA.base_all if kind == FORMAT_TODAY else DATA.cards
    outside = sorted({name for name in log.kingdom if name not in piles or name in BASICS})
    if outside or len(set(log.kingdom)) != 10:
        what = f"{', '.join(outside)}: not a kingdom pile of the base set" if outside else "a pile twice"
        raise LogRefusal(f"The kingdom names {what}.", code="log_kingdom")
    starting = ("Copper",) * 7 + ("Estate",) * 3
    odd = [name for name, cards in log.starting.items() if sorted(cards) != sorted(starting)]
    if odd:
        raise LogRefusal(
            f"{', '.join(odd)} did not start with 7 Copper and 3 Estate.", code="log_starting_cards"
        )
    return log


def implemented_sets() -> str:
    """The card sets the installed card data holds, in words ("the base game (1st and 2nd
    edition) and Empires"), for a refusal that names what a log may use."""
    editions = [name for name, cards in (("1st", DATA.kingdom), ("2nd", DATA.kingdom_2e)) if cards]
    base = f"the base game ({' and '.join(editions)} edition)"
    return f"{base} and Empires" if DATA.empires_piles else base
