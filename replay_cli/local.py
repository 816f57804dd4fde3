"""The local store as a game source: the user owns the file, so they read as administrator.

A game may be named by a unique prefix of its id (at least 4 characters), as with git
commits; the index of every game in the store resolves it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any
from uuid import UUID

import msgspec

from domain import reading
from domain.game import Game
from domain.reading import StoredEvent
from domain.ruleset import OMNISCIENT, PUBLIC, GameConfig, Outcome, Viewer
from domain.variations import Variation
from projections.games_index import GameIndex
from replay_cli.errors import CliError, UsageError
from replay_cli.reading import EventLine, Filters, GameInfo, GameRow, KeptTimeline, Snapshot, with_notes
from store import notes, variations
from store.app import ADMIN, Chronicle
from store.audit import AuditReport, audit_game
from store.audit_reading import stream_rows
from store.config import StoreConfigError, display_url, sqlite_file, store_source, store_url
from store.variations import Line

MIN_PREFIX = 4


def require_store(url: str | None) -> None:
    """A reading command on a store that does not exist says so, rather than create an empty
    one (an SQLite file; a server database is always there to ask)."""
    chosen = store_url(url)
    path = sqlite_file(chosen)
    if path is not None and not path.exists():
        raise CliError(
            f"there is no store at {path} ({store_source(url)}): `chronicle new` or `chronicle simulate` "
            "creates it; --store or CHRONICLE_STORE picks another (`chronicle info` says which is used)"
        )


def open_store(url: str | None, create: bool = False) -> Chronicle:
    """The store at `url` (else `CHRONICLE_STORE`, else the default); a missing SQLite file is
    created only for the commands that write new games (`create`)."""
    if not create:
        require_store(url)
    try:
        return Chronicle(url)
    except StoreConfigError as error:
        raise UsageError(str(error)) from None


def resolve_game(app: Chronicle, text: str, index: GameIndex | None = None) -> UUID:
    """The game named by a full id or a unique prefix of one."""
    return resolve_id(text, {"game": lambda: (index or GameIndex(app)).all_ids()}, display_url(app.url))


def resolve_line(app: Chronicle, text: str, index: GameIndex | None = None) -> UUID:
    """The game or variation named by a full id or a unique prefix of one."""
    return resolve_id(
        text,
        {
            "game": lambda: (index or GameIndex(app)).all_ids(),
            "variation": lambda: created_ids(app, Variation.Created.TOPIC),
        },
        display_url(app.url),
    )


def resolve_dispute(app: Chronicle, text: str) -> UUID:
    """The dispute named by a full id or a unique prefix of one."""
    from store.disputes import Dispute

    disputes = {"dispute": lambda: created_ids(app, Dispute.Created.TOPIC)}
    return resolve_id(text, disputes, display_url(app.url))


def created_ids(app: Chronicle, topic: str) -> list[str]:
    """The ids of every aggregate the store created with `topic`, oldest first."""
    found: list[str] = []
    start = 0
    while True:
        batch = app.recorder.select_notifications(start, 500, topics=[topic], inclusive_of_start=False)
        found += [str(n.originator_id) for n in batch]
        if len(batch) < 500:
            return found
        start = batch[-1].id


def resolve_id(text: str, kinds: Mapping[str, Callable[[], Iterable[str]]], where: str) -> UUID:
    """A full id, or the one id a prefix of at least `MIN_PREFIX` characters starts (with or
    without its dashes), looked for among `kinds` in turn: a prefix names a game when one
    matches, else a variation (the first kind with a match is the answer; two matches of
    one kind are ambiguous). The same rule holds over a server (replay_cli/remote.py)."""
    typed = text.strip().lower()
    try:
        return UUID(typed)
    except ValueError:
        pass
    what = " or ".join(kinds)
    if len(typed) < MIN_PREFIX:
        raise UsageError(f"a {what} id prefix needs at least {MIN_PREFIX} characters, not {text!r}")
    for kind, ids in kinds.items():
        matches = [i for i in ids() if i.startswith(typed) or i.replace("-", "").startswith(typed)]
        if len(matches) > 1:
            shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
            raise CliError(f"{text!r} is ambiguous: {len(matches)} {kind}s match ({shown})")
        if matches:
            return UUID(matches[0])
    raise CliError(f"no {what} id starts with {text!r} in {where}")


def resolve_viewer(spec: str | None, config: GameConfig) -> Viewer:
    """`--as`: omniscient (the default for the store's owner), public, or a seat given by its
    id, `player:<id>` or its player's name (case-insensitive)."""
    if spec is None or spec == "omniscient":
        return OMNISCIENT
    if spec == "public":
        return PUBLIC
    try:
        return Viewer("seat", resolve_seat(spec, config))
    except UsageError as error:
        raise UsageError(f"--as: {error.message}, or omniscient, or public") from None


def resolve_seat(spec: str, config: GameConfig) -> str:
    """`--seat`: a seat id, `player:<id>` or a player's name (case-insensitive)."""
    wanted = spec.removeprefix("player:").casefold()
    for seat in config.seats:
        if wanted in (seat.id.casefold(), seat.name.casefold()):
            return seat.id
    seats = ", ".join(f"{s.id} ({s.name})" for s in config.seats)
    raise UsageError(f"{spec!r} is not a seat of this game: {seats}")


def game_info(game: Game) -> GameInfo:
    config = game.config
    return GameInfo(
        game_id=config.game_id,
        ruleset=config.ruleset,
        mode=config.mode,
        seats={s.id: s.name for s in config.seats},
        version=game.version,
        status=game.status,
    )


def snapshot_of(game: Game, info: GameInfo, viewer: Viewer) -> Snapshot:
    """`game` at its version as `viewer` sees it, through the one redaction."""
    return Snapshot(
        info=info,
        version=game.version,
        viewer=str(viewer),
        status=game.status,
        state=reading.state(game, viewer),
        prompts=reading.prompts(game, viewer),
        outcome=reading.outcome(game),
    )


def line_of(shown: StoredEvent) -> EventLine:
    return EventLine(shown.version, shown.type, shown.text, shown.retracted)


def _builtins(value: Any) -> dict[str, Any]:
    out = msgspec.to_builtins(value)
    assert isinstance(out, dict)
    return out


class LocalReader:
    def __init__(self, app: Chronicle, viewer: str | None) -> None:
        self.app = app
        self.viewer_spec = viewer
        self.index = GameIndex(app)

    def resolve(self, game: str) -> str:
        """A game or a variation (each reads like a game), by its id or a unique prefix."""
        return str(resolve_line(self.app, game, self.index))

    def _line(self, game_id: str) -> Line:
        """The game, or a variation read as its line (store/variations.py)."""
        return variations.line(self.app, UUID(game_id))

    def _viewer(self, game: Game) -> Viewer:
        return resolve_viewer(self.viewer_spec, game.config)

    def _info(self, found: Line) -> GameInfo:
        info = game_info(found.game)
        return info if found.variation is None else replace(info, game_id=str(found.line_id))

    def annotations(self, game_id: str) -> list[dict[str, Any]]:
        """The annotations `--as` may see: every side's for the store's owner (omniscient)."""
        return self._annotations(self._line(game_id))

    def _annotations(self, found: Line) -> list[dict[str, Any]]:
        viewer = self._viewer(found.game)
        side = (
            "admin" if viewer.kind == "omniscient" else None if viewer.seat is None else f"seat:{viewer.seat}"
        )
        return notes.as_builtins(notes.shown(self.app, found, side))

    def events(self, game_id: str) -> list[EventLine]:
        found = self._line(game_id)
        shown = reading.present_all(found.game, found.events, self._viewer(found.game))
        return with_notes([line_of(e) for e in shown], self._annotations(found))

    def raw_events(self, game_id: str) -> list[dict[str, Any]]:
        """The events as `GET /games/{id}/events` serves them, for the same viewer."""
        found = self._line(game_id)
        shown = reading.present_all(found.game, found.events, self._viewer(found.game))
        return [_builtins(e) for e in shown]

    def snapshot(self, game_id: str, at: int | None) -> Snapshot:
        found = self._line(game_id)
        latest = found.game
        viewer = self._viewer(latest)
        if at is not None and not 1 <= at <= latest.version:
            raise UsageError(f"--at {at} is outside this game's versions 1..{latest.version}")
        # the line's events are read already: folded again up to `at`, not read again
        game = latest if at is None or at == latest.version else variations.fold(found.events, at)
        return snapshot_of(game, self._info(found), viewer)

    def audit(self, game_id: str) -> AuditReport:
        line_id = UUID(game_id)
        rows = stream_rows(self.app, line_id)  # a game's whole stream, read once for its audit
        if rows and rows[0][1] == Variation.Created.TOPIC:  # as `variations.is_variation` tells
            return variations.audit(self.app, line_id, ADMIN)
        return audit_game(self.app, line_id, ADMIN, rows)

    def game_ids(self) -> list[str]:
        return self.index.all_ids()

    def games(self, filters: Filters) -> list[GameRow]:
        rows: list[GameRow] = []
        while True:
            page, total = self.index.search(
                ruleset=filters.ruleset,
                player=filters.player,
                status=filters.status,
                tag=filters.tag,
                offset=len(rows),
                limit=500,
            )
            rows += [
                GameRow(g.game_id, g.ruleset, g.mode, g.players, g.status, g.winners, g.tags, g.title)
                for g in page
            ]
            if not page or len(rows) >= total:
                return rows

    def timeline(self, game_id: str) -> FoldedTimeline:
        found = self._line(game_id)
        viewer = self._viewer(found.game)
        return FoldedTimeline(
            self.app, found.game, viewer, found.events, self._annotations(found), self._info(found)
        )

    def close(self) -> None:
        self.app.close()


class FoldedTimeline(KeptTimeline):
    """Every version of a local game, folded forward once through the aggregate's own event
    handlers (so a later correction event is honoured exactly as the store honours it).
    States are immutable, so keeping one per version costs only what changed; views are
    computed when a version is first shown."""

    def __init__(
        self,
        app: Chronicle,
        latest: Game,
        viewer: Viewer,
        events: list[Any] | None = None,
        annotations: list[dict[str, Any]] | None = None,
        info: GameInfo | None = None,
    ) -> None:
        self._ruleset = latest.ruleset
        self._viewer = viewer
        lines: list[EventLine] = []
        self._states: list[tuple[Any, Outcome | None]] = []
        turns: list[tuple[int, str | None]] = []
        self._status: list[str] = []
        # Lines are marked with hindsight: an action later retracted is struck from the start.
        undone = latest.retracted_versions()
        aggregate: Game | None = None
        for event in events if events is not None else app.stored_events(latest.id):
            aggregate = event.mutate(aggregate)
            assert aggregate is not None
            version = event.originator_version
            lines.append(line_of(reading.present(latest, event, viewer, version in undone)))
            self._states.append((aggregate.state, aggregate.outcome))
            turns.append(self._ruleset.progress(aggregate.state))
            self._status.append(aggregate.status)
        super().__init__(info or game_info(latest), with_notes(lines, annotations or []), turns)

    def _make_snapshot(self, version: int) -> Snapshot:
        state, outcome = self._states[version - 1]
        return Snapshot(
            info=self.info,
            version=version,
            viewer=str(self._viewer),
            status=self._status[version - 1],
            state=self._ruleset.view(state, self._viewer),
            prompts=[]
            if self._status[version - 1] != "running"
            else reading.prompts_of(self._ruleset, state, self._viewer),
            outcome=reading.builtins(outcome) if outcome is not None else None,
        )
