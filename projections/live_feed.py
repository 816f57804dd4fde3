"""The live feed of all games (`GET /live`): the public summary of each game that changed, as
the store's sequence moves on, by position. The game index (projections/games_index.py) gives
the summaries; store/live.py follows one game's events.

A subscriber is woken by the store's hints (store/fanout.py `FEED`) and reads the sequence
after its position, a page at a time; each game that moved is shown once per step, at its
latest position. Positions never go back, so a subscriber resumes after the last it saw.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec

from projections.games_index import GameIndex
from store.app import Chronicle
from store.fanout import FEED, GAME_TOPICS, Fanout, Hint
from store.live import KEEPALIVE, PAGE


class LiveSummary(msgspec.Struct):
    """A game as the feed shows it: public, like the listing of games."""

    game_id: str
    ruleset: str
    mode: str
    players: list[str]
    tags: list[str]
    status: str
    version: int
    position: int
    winners: list[str] = []


async def follow_feed(
    chronicle: Chronicle, index: GameIndex, fanout: Fanout, after: int | None
) -> AsyncIterator[list[LiveSummary] | int]:
    """Summaries of the games that changed after position `after` of the store's sequence (by
    default from now: the first item is then the current position), one per game per step,
    in order of position; an empty list after `KEEPALIVE` seconds of silence."""
    woken = asyncio.Event()

    def hint(_hint: Hint) -> None:
        woken.set()

    unwatch = fanout.watch(FEED, hint)
    try:
        if after is None:
            after = await asyncio.to_thread(lambda: chronicle.recorder.max_notification_id() or 0)
            yield after
        position = after
        while True:
            woken.clear()
            summaries, reached = await asyncio.to_thread(_changed_since, chronicle, index, position)
            if reached > position:
                position = reached
                if summaries:
                    yield summaries
                continue
            try:
                await asyncio.wait_for(woken.wait(), KEEPALIVE)
            except TimeoutError:
                yield []
    finally:
        unwatch()


def _changed_since(chronicle: Chronicle, index: GameIndex, position: int) -> tuple[list[LiveSummary], int]:
    """The games changed after `position` (one page of the sequence), and the position read up to."""
    notifications = chronicle.recorder.select_notifications(
        start=position, limit=PAGE, topics=GAME_TOPICS, inclusive_of_start=False
    )
    if not notifications:
        return [], position
    latest: dict[str, tuple[int, int]] = {}
    for n in notifications:
        latest[str(n.originator_id)] = (n.originator_version, n.id)
    index.catch_up()
    shown = []
    for game_id, (version, at) in sorted(latest.items(), key=lambda item: item[1][1]):
        summary = index.games.get(game_id)
        if summary is None:
            continue
        shown.append(
            LiveSummary(
                game_id=game_id,
                ruleset=summary.ruleset,
                mode=summary.mode,
                players=list(summary.players),
                tags=list(summary.tags),
                status=summary.status,
                version=version,
                position=at,
                winners=list(summary.winners),
            )
        )
    return shown, notifications[-1].id
