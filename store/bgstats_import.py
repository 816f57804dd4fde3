"""Importing a BG Stats export: every play becomes a finished physical game of `any`.

BG Stats exports one JSON object with three lists: `games` (`id`, `name`, `bggId`,
`cooperative`, `highestWins`, `noPoints`), `players` (`id`, `name`) and `plays` (`uuid`,
`gameRefId`, `playDate` as `YYYY-MM-DD HH:MM:SS`, `ignored`, and `playerScores`: each with
`playerRefId`, `score` as text (empty: none), `winner`, `rank` (0: none) and `startPlayer`).
Other fields are read past. Each play is stored as a results-only game: the options `title`
(the game's name), `bgg_id`, `played_on` (the play's date) and, for a lowest-wins or a
cooperative game, a definition whose ending ranks so; the players in the play's order, turned
so that the start player sits first; then one `EndGame` entered by the recorder with what the
file holds:

- a cooperative game: won when any player is flagged a winner, else lost;
- otherwise the scores (when every player has one and the game keeps points) and the winners
  (when any is flagged: the file's flags are the truth, the scores are kept beside them);
  with neither, the ranks (when every player has one). A play with none of these is refused.

Rulings:
- A play's game id is derived from its `uuid` (`uuid5` in Chronicle's BG Stats namespace), so
  importing a file twice adds nothing: a play whose game the store holds finished is skipped.
  A derived id is version 5, which no import of an exported game may bring
  (store/import_ids.py): nobody can take a play's id before its owner imports it. The price:
  these games do not move to another store by `export`/`import`; the BG Stats file imports
  there again, to the same ids. A play without a uuid takes one from its own contents.
- Each play is checked whole before anything of it is stored: its options by the ruleset's
  option rules and `check_config`, its `EndGame` by the rules on a rehearsal of the game. A
  play refused is reported with its index (`plays[3]`) and its reason and stores nothing; the
  other plays import. A game left running by an import that stopped between creating it and
  ending it is ended by the next import (the end carries an action id, so it is recorded
  once).
- A play BG Stats marks `ignored` (left out of its statistics) is skipped, and so is a play
  whose uuid is a game of this store (`chronicle export --format bgstats` names a play by its
  game's id): the game is there already.
- A score is a whole number; a decimal one (`12.5`) refuses the play, since the ruleset's
  scores are whole.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, Literal
from uuid import UUID, uuid5

import msgspec

from domain.events import GameCreated
from domain.rng import NoRng
from domain.ruleset import (
    Command,
    GameConfig,
    RejectedError,
    Rejection,
    Ruleset,
    Seat,
    get_ruleset,
    resolve_options,
)
from store.core import Core
from store.errors import InvalidRequest, ServiceError
from store.requests import RECORDER, NewGame

RULESET = "any"
MAX_SCORE = 10**12  # a score beyond it is no game's
TAG = "bgstats"
# The namespace of the game ids derived from BG Stats plays' uuids.
NAMESPACE = uuid5(UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "chronicle:bgstats-play")


class BgGame(msgspec.Struct, rename="camel"):
    id: int
    name: str = ""
    bgg_id: int = 0
    cooperative: bool = False
    highest_wins: bool = True
    no_points: bool = False


class BgPlayer(msgspec.Struct, rename="camel"):
    id: int
    name: str = ""


class BgScore(msgspec.Struct, rename="camel"):
    player_ref_id: int
    score: str | int | float | None = None
    winner: bool = False
    rank: int = 0
    start_player: bool = False


class BgPlay(msgspec.Struct, rename="camel"):
    game_ref_id: int
    player_scores: list[BgScore]
    uuid: str = ""
    play_date: str = ""
    ignored: bool = False


class BgStatsFile(msgspec.Struct):
    """The file, its plays left as they are: each is read on its own, so one bad play does not
    refuse the others."""

    games: list[BgGame]
    players: list[BgPlayer]
    plays: list[Any]


class PlayResult(msgspec.Struct):
    """What became of one play: `index` is its place in the file's `plays` (from 0)."""

    index: int
    status: Literal["imported", "skipped", "refused"]
    title: str = ""
    game_id: str = ""
    message: str = ""


class BgStatsReport(msgspec.Struct):
    imported: int
    skipped: int
    refused: int
    plays: list[PlayResult]


class BgStatsRefused(InvalidRequest):
    """The file as a whole is not a BG Stats export."""

    status = 422
    title = "The BG Stats file cannot be imported"


class _PlayRefused(Exception):
    def __init__(self, message: str, title: str = "") -> None:
        super().__init__(message)
        self.title = title


def is_bgstats(data: Any) -> bool:
    """Whether decoded JSON `data` looks like a BG Stats export (its three lists)."""
    return isinstance(data, Mapping) and all(
        isinstance(data.get(name), list) for name in ("games", "players", "plays")
    )


def read_bgstats(data: Any) -> BgStatsFile:
    """The export in decoded JSON `data`, or `BgStatsRefused` (`bgstats_invalid`)."""
    if not is_bgstats(data):
        raise BgStatsRefused(
            "A BG Stats export is one JSON object with the lists games, players and plays.",
            code="bgstats_invalid",
        )
    try:
        return msgspec.convert(data, BgStatsFile)
    except msgspec.ValidationError as error:
        raise BgStatsRefused(f"The BG Stats file does not read: {error}.", code="bgstats_invalid") from None


class PlannedPlay(msgspec.Struct):
    """One play as the import stores it."""

    game_id: UUID
    title: str
    players: list[str]
    options: dict[str, Any]
    end: Any  # the ruleset's EndGame action
    action_id: str
    source: UUID | None = None  # the play's own uuid, when it is one


def plan(file: BgStatsFile, index: int, ruleset: Ruleset[Any, Any, Any]) -> PlannedPlay:
    """Play `index` of `file` as a game, checked by the rules (raises `_PlayRefused`)."""
    try:
        play = msgspec.convert(file.plays[index], BgPlay)
    except msgspec.ValidationError as error:
        raise _PlayRefused(f"the play does not read: {error}") from None
    game = next((g for g in file.games if g.id == play.game_ref_id), None)
    if game is None:
        raise _PlayRefused(f"its gameRefId {play.game_ref_id} names no game of the file")
    title = " ".join(game.name.split())
    if not title:
        raise _PlayRefused(f"game {game.id} has no name")
    names = {p.id: p.name.strip() for p in file.players}
    scores = list(play.player_scores)
    if not scores:
        raise _PlayRefused("it has no players")
    start = next((i for i, s in enumerate(scores) if s.start_player), 0)
    scores = scores[start:] + scores[:start]
    players: list[str] = []
    for entry in scores:
        name = names.get(entry.player_ref_id)
        if name is None:
            raise _PlayRefused(f"its playerRefId {entry.player_ref_id} names no player of the file")
        if not name:
            raise _PlayRefused(f"player {entry.player_ref_id} has no name")
        players.append(name)
    seats = ruleset.meta.seat_ids[: len(players)]
    if len(players) > len(seats):
        raise _PlayRefused(f"it has {len(players)} players; {ruleset.meta.title} seats at most {len(seats)}")
    options: dict[str, Any] = {"title": title, "bgg_id": max(game.bgg_id, 0)}
    played_on = play.play_date[:10]
    if played_on:
        try:
            date.fromisoformat(played_on)
        except ValueError:
            raise _PlayRefused(f"its playDate {play.play_date!r} is not YYYY-MM-DD HH:MM:SS") from None
        options["played_on"] = played_on
    ending = "cooperative" if game.cooperative else None if game.highest_wins else "lowest"
    if ending is not None:
        # canonical JSON (sorted keys, no spaces); the ruleset's option rules judge it
        definition = {"ending": {"kind": ending}}
        options["definition"] = json.dumps(definition, sort_keys=True, separators=(",", ":"))
    try:
        end = _end(_end_game(ruleset), game, scores, seats, players)
        _rehearse(ruleset, players, options, end)
    except _PlayRefused as refusal:
        raise _PlayRefused(str(refusal), title) from None
    key = play.uuid.strip().lower() or _contents_key(play)
    action_id = f"{TAG}:{key}"[:200]
    return PlannedPlay(uuid5(NAMESPACE, key), title, players, options, end, action_id, _uuid(key))


def _uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


def _end_game(ruleset: Ruleset[Any, Any, Any]) -> Any:
    """The ruleset's `EndGame` action type, found through its codec (the store imports no
    game)."""
    found = next((t for t in ruleset.codec.action_kinds().values() if t.__name__ == "EndGame"), None)
    if found is None:
        raise BgStatsRefused(f"The ruleset {ruleset.meta.id} records no results.", code="bgstats_invalid")
    return found


def _end(
    end_game: Any, game: BgGame, scores: Sequence[BgScore], seats: Sequence[str], players: Sequence[str]
) -> Any:
    if game.cooperative:
        return end_game(won=any(s.winner for s in scores))
    points = [_score(s.score, player) for s, player in zip(scores, players, strict=False)]
    kept = (
        {seat: p for seat, p in zip(seats, points, strict=False) if p is not None}
        if not game.no_points and all(p is not None for p in points)
        else None
    )
    winners = tuple(seat for s, seat in zip(scores, seats, strict=False) if s.winner) or None
    if kept or winners:
        return end_game(scores=kept or None, winners=winners)
    if all(0 < s.rank <= len(scores) for s in scores):
        return end_game(ranks={seat: s.rank for s, seat in zip(scores, seats, strict=False)})
    raise _PlayRefused("it names no winner, no score for every player and no rank for every player")


def _score(value: str | int | float | None, player: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except ValueError:
        raise _PlayRefused(f"the score {value!r} of {player} is not a number") from None
    if not number.is_integer():
        raise _PlayRefused(f"the score {value!r} of {player} is not a whole number")
    if abs(number) > MAX_SCORE:
        raise _PlayRefused(f"the score {value!r} of {player} is beyond {MAX_SCORE:,}")
    return int(number)


def _contents_key(play: BgPlay) -> str:
    """A play without a uuid is named by its contents."""
    return "contents:" + hashlib.sha256(msgspec.json.encode(play)).hexdigest()


def _rehearse(
    ruleset: Ruleset[Any, Any, Any], players: Sequence[str], options: dict[str, Any], end: Any
) -> None:
    """The game created and ended by the rules alone (raises `_PlayRefused`)."""
    resolved = resolve_options(ruleset.meta, options)
    if isinstance(resolved, Rejection):
        raise _PlayRefused(resolved.message)
    seats = tuple(Seat(seat, name) for seat, name in zip(ruleset.meta.seat_ids, players, strict=False))
    config = GameConfig("rehearsal", ruleset.meta.id, "physical", seats, resolved)
    check_config = getattr(ruleset, "check_config", None)
    problem = check_config(config) if check_config is not None else None
    if isinstance(problem, Rejection):
        raise _PlayRefused(problem.message)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, NoRng()):
        state = ruleset.evolve(state, fact)
    decided = ruleset.decide(state, Command(end, None, "recorder"), NoRng())
    if isinstance(decided, Rejection):
        raise _PlayRefused(f"{decided.message.rstrip('.')} ({decided.code})")
    for fact in decided:
        state = ruleset.evolve(state, fact)
    if ruleset.outcome(state) is None:
        raise _PlayRefused("the game does not end on its results")


def import_bgstats(app: Core, data: Any) -> BgStatsReport:
    """Store every play of the BG Stats export in decoded JSON `data` (see the module's
    docstring); `BgStatsRefused` when the file as a whole is not one."""
    file = read_bgstats(data)
    ruleset = get_ruleset(RULESET)
    if ruleset is None:
        raise BgStatsRefused("The ruleset any is not installed.", code="bgstats_invalid")
    results: list[PlayResult] = []
    for index in range(len(file.plays)):
        results.append(_import_play(app, file, index, ruleset))
    imported, skipped, refused = (
        sum(1 for r in results if r.status == status) for status in ("imported", "skipped", "refused")
    )
    return BgStatsReport(imported, skipped, refused, results)


def _import_play(app: Core, file: BgStatsFile, index: int, ruleset: Ruleset[Any, Any, Any]) -> PlayResult:
    raw = file.plays[index]
    if isinstance(raw, Mapping) and raw.get("ignored") is True:
        return PlayResult(index, "skipped", message="BG Stats ignores it")
    try:
        planned = plan(file, index, ruleset)
    except _PlayRefused as refusal:
        return PlayResult(index, "refused", refusal.title, message=str(refusal))
    try:
        return _store(app, planned, index, ruleset)
    except (ServiceError, RejectedError) as error:
        why = error.rejection.message if isinstance(error, RejectedError) else error.detail
        return PlayResult(index, "refused", planned.title, str(planned.game_id), why)


def _store(app: Core, planned: PlannedPlay, index: int, ruleset: Ruleset[Any, Any, Any]) -> PlayResult:
    game_id = str(planned.game_id)
    if planned.source is not None and _is_game(app, planned.source):
        # `chronicle export --format bgstats` names a play by its game's id
        return PlayResult(index, "skipped", planned.title, str(planned.source), "a game of this store")
    held = app.recorder.select_events(planned.game_id, limit=1)
    if held:
        game = app.game(planned.game_id)
        if game.config.ruleset != RULESET or TAG not in game.tags:
            return PlayResult(index, "refused", planned.title, game_id, "its game id is held by another game")
        if game.outcome is not None or game.abandoned:
            return PlayResult(index, "skipped", planned.title, game_id, "imported already")
    else:
        new = NewGame(RULESET, planned.players, "physical", planned.options, tags=[TAG])
        app.create_game(new, admin=True, game_id=planned.game_id)
    app.record(planned.game_id, ruleset.codec.encode(planned.end), RECORDER, action_id=planned.action_id)
    return PlayResult(index, "imported", planned.title, game_id)


def _is_game(app: Core, stream_id: UUID) -> bool:
    held = app.recorder.select_events(stream_id, limit=1)
    return bool(held) and held[0].topic == GameCreated.TOPIC
