"""Variations: branch a line from a position, record into it, read it (store/variations.py).

`POST /games/{id}/variations` branches a finished game (or a variation: `{id}` names either)
at a version, as a study (`purpose: study`, a what-if line with its seed stated) or as a new
game played on from there (`purpose: game`, with seat tokens and a sealed seed). A running game
is a 409 `game_running`; a version inside an action a 400 `not_a_position`.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar.params import FromPath, JSONBody, QueryParameter

from api.auth import check_creator, parse_game_id
from api.concern import GAME_WRITE, RULED_WRITE, Concern
from api.dependencies import ChronicleDep, SettingsDep, TokenDep
from api.routes.params import Version
from api.routes.viewer import PictureView, SinceVersion, picture_view
from api.schemas import ActionRequest, EventList, LegalActions
from domain import reading
from domain.picture import Picture, picture_of
from domain.reading import StoredEvent
from store import notes, variations
from store.app import Access, Chronicle
from store.audit import AuditReport
from store.errors import InvalidRequest
from store.limits import MAX_SEAT
from store.variations import Branched, BranchRequest, Summary

route = Concern("variations")


class VariationList(msgspec.Struct):
    variations: list[Summary]


class VariationRecorded(msgspec.Struct):
    variation_id: str
    events: list[StoredEvent]


def _unwithheld(chronicle: Chronicle, line_id: str, token: str | None) -> UUID:
    """The game or variation a path names, once `token` may see it while its deal is in play
    (403 `same_deal_in_play` otherwise, store/deals.py)."""
    lid = parse_game_id(line_id)
    chronicle.withhold(lid, token)
    return lid


def _open_line(chronicle: Chronicle, variation_id: str, token: str | None) -> tuple[UUID, Access]:
    """The game or variation a path names and what `token` grants on it (404 for neither)."""
    vid = parse_game_id(variation_id)
    return vid, variations.line_access(chronicle, vid, token)


@route.post("/games/{game_id:str}/variations", *GAME_WRITE, status_code=201)
def create_variation(
    data: JSONBody[BranchRequest],
    chronicle: ChronicleDep,
    token: TokenDep,
    settings: SettingsDep,
    game_id: FromPath[str],
) -> Branched:
    """Branch at version `at`. The answer holds the variation's recorder token (and, to play
    on, its seat tokens), shown only this once; a server that creates games by token branches
    for the same tokens."""
    gid = parse_game_id(game_id)
    check_creator(chronicle, settings, token)
    chronicle.withhold(gid, token)
    by = notes.author_of(chronicle, gid, token) if token else None
    return variations.branch(chronicle, gid, data, by or "public")


@route.get("/games/{game_id:str}/variations", 403, 404)
def list_variations(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> VariationList:
    """Every variation branching from the game or its variations, oldest first."""
    return VariationList(variations.variations_of(chronicle, _unwithheld(chronicle, game_id, token)))


@route.get("/variations/{variation_id:str}", 403, 404)
def variation_detail(chronicle: ChronicleDep, token: TokenDep, variation_id: FromPath[str]) -> Summary:
    """Where the variation branches, its status, and its seed (a study's) or commitment."""
    return variations.summary(chronicle, _unwithheld(chronicle, variation_id, token))


@route.get("/variations/{variation_id:str}/events", 401, 403, 404)
def variation_events(chronicle: ChronicleDep, token: TokenDep, variation_id: FromPath[str]) -> EventList:
    """The line's events (the base's up to the branch, then its own) as the caller may see them."""
    vid, access = _open_line(chronicle, variation_id, token)
    return EventList(variations.events(chronicle, vid, access))


@route.get("/variations/{variation_id:str}/state", 400, 401, 403, 404)
def variation_state(
    chronicle: ChronicleDep, token: TokenDep, variation_id: FromPath[str], at: Version = None
) -> dict[str, Any]:
    """The line's state (at version `at`, else the latest) as the caller may see it."""
    vid, access = _open_line(chronicle, variation_id, token)
    return variations.view(chronicle, vid, access, at)


@route.get("/variations/{variation_id:str}/legal-actions", 400, 401, 403, 404)
def variation_legal_actions(
    chronicle: ChronicleDep,
    token: TokenDep,
    variation_id: FromPath[str],
    seat: Annotated[str | None, QueryParameter(max_length=MAX_SEAT)] = None,
) -> LegalActions:
    """The line's legal actions now, as the game's are served (`GET /games/{id}/legal-actions`):
    the recorder's for any seat (default the prompted one), a seat token's for its own seat."""
    vid, access = _open_line(chronicle, variation_id, token)
    return LegalActions(**variations.legal_actions(chronicle, vid, access, seat))


@route.get("/variations/{variation_id:str}/picture", 400, 401, 403, 404)
def variation_picture(
    chronicle: ChronicleDep,
    token: TokenDep,
    variation_id: FromPath[str],
    at: Version = None,
    since: SinceVersion = None,
) -> PictureView:
    """The line drawn as the replay draws a game (`GET /games/{id}/picture`) at version `at`
    (default the latest), `picture.changed` naming what differs from version `since` (default
    the version before)."""
    vid, access = _open_line(chronicle, variation_id, token)
    found = variations.line(chronicle, vid)
    latest = found.game
    version = latest.version if at is None else at
    if not 1 <= version <= latest.version:
        raise InvalidRequest(f"Version {version} is outside 1..{latest.version}.", code="invalid_version")
    earlier = version - 1 if since is None else since
    if not 0 <= earlier <= version:
        raise InvalidRequest(f"Version {since} is outside 1..{version}.", code="invalid_version")
    viewer = found.viewer(access)
    names = {seat.id: seat.name for seat in latest.config.seats}

    def drawn(v: int) -> Picture:
        game = latest if v == latest.version else variations.fold(found.events, v)
        return picture_of(latest.config.ruleset, reading.state(game, viewer), names)

    return picture_view(vid, latest, viewer, version, earlier, drawn)


@route.post("/variations/{variation_id:str}/actions", *RULED_WRITE, status_code=201)
def record_variation_action(
    data: JSONBody[ActionRequest], chronicle: ChronicleDep, token: TokenDep, variation_id: FromPath[str]
) -> VariationRecorded:
    """Record one action on the variation with the variation's token; an illegal one is a
    422 carrying the rules' rejection, and nothing is appended."""
    vid, access = _open_line(chronicle, variation_id, token)
    action: dict[str, Any] | str = data.action
    shown = variations.record(chronicle, vid, action, access, seat=data.seat)
    return VariationRecorded(str(vid), shown)


@route.get("/variations/{variation_id:str}/audit", 401, 403, 404)
def variation_audit(chronicle: ChronicleDep, token: TokenDep, variation_id: FromPath[str]) -> AuditReport:
    """Re-decide the variation's actions from its position with its seed: a study's stated
    one (checked against its derivation and commitment) at any time, a played-on game's once
    it ends (403 `seed_sealed` before, but for the administrator)."""
    vid, access = _open_line(chronicle, variation_id, token)
    return variations.audit(chronicle, vid, access)


ROUTES = [
    variation_audit,
    create_variation,
    list_variations,
    variation_detail,
    variation_events,
    variation_state,
    variation_legal_actions,
    variation_picture,
    record_variation_action,
]
