"""Variations: branch a line from a position, record into it, read it (store/variations.py).

`POST /games/{id}/variations` branches a finished game (or a variation: `{id}` names either)
at a version, as a study (`purpose: study`, a what-if line with its seed stated) or as a new
game played on from there (`purpose: game`, with seat tokens and a sealed seed). A running game
is a 409 `game_running`; a version inside an action a 400 `not_a_position`.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from api.auth import parse_game_id
from api.problems import problem_responses
from api.schemas import ActionRequest, EventList
from api.settings import EdgeSettings
from domain.reading import StoredEvent
from store import notes, variations
from store.app import Chronicle
from store.audit import AuditReport
from store.limits import INT64_MAX
from store.variations import Branched, BranchRequest, Summary


class VariationList(msgspec.Struct):
    variations: list[Summary]


class VariationRecorded(msgspec.Struct):
    variation_id: str
    events: list[StoredEvent]


@post(
    "/games/{game_id:str}/variations",
    status_code=201,
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(400, 401, 403, 404, 409, 413, 429),
)
def create_variation(
    data: JSONBody[BranchRequest],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    settings: NamedDependency[EdgeSettings],
    game_id: FromPath[str],
) -> Branched:
    """Branch at version `at`. The answer holds the variation's recorder token (and, to play
    on, its seat tokens), shown only this once; a server that creates games by token branches
    for the same tokens."""
    gid = parse_game_id(game_id)
    admin = chronicle.is_admin(token)
    settings.check_create(token, admin)
    chronicle.withhold(gid, token)
    by = notes.author_of(chronicle, gid, token) if token else None
    return variations.branch(chronicle, gid, data, by or "public")


@get(
    "/games/{game_id:str}/variations",
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(403, 404),
)
def list_variations(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], game_id: FromPath[str]
) -> VariationList:
    """Every variation branching from the game or its variations, oldest first."""
    gid = parse_game_id(game_id)
    chronicle.withhold(gid, token)
    return VariationList(variations.variations_of(chronicle, gid))


@get(
    "/variations/{variation_id:str}",
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(403, 404),
)
def variation_detail(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], variation_id: FromPath[str]
) -> Summary:
    """Where the variation branches, its status, and its seed (a study's) or commitment."""
    vid = parse_game_id(variation_id)
    chronicle.withhold(vid, token)
    return variations.summary(chronicle, vid)


@get(
    "/variations/{variation_id:str}/events",
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(401, 403, 404),
)
def variation_events(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], variation_id: FromPath[str]
) -> EventList:
    """The line's events (the base's up to the branch, then its own) as the caller may see them."""
    vid = parse_game_id(variation_id)
    access = variations.line_access(chronicle, vid, token)
    return EventList(variations.events(chronicle, vid, access))


@get(
    "/variations/{variation_id:str}/state",
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(400, 401, 403, 404),
)
def variation_state(
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    variation_id: FromPath[str],
    at: Annotated[int | None, QueryParameter(ge=1, le=INT64_MAX)] = None,
) -> dict[str, Any]:
    """The line's state (at version `at`, else the latest) as the caller may see it."""
    vid = parse_game_id(variation_id)
    access = variations.line_access(chronicle, vid, token)
    return variations.view(chronicle, vid, access, at)


@post(
    "/variations/{variation_id:str}/actions",
    status_code=201,
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
def record_variation_action(
    data: JSONBody[ActionRequest],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    variation_id: FromPath[str],
) -> VariationRecorded:
    """Record one action on the variation with the variation's token; an illegal one is a
    422 carrying the rules' rejection, and nothing is appended."""
    vid = parse_game_id(variation_id)
    access = variations.line_access(chronicle, vid, token)
    action: dict[str, Any] | str = data.action
    shown = variations.record(chronicle, vid, action, access, seat=data.seat)
    return VariationRecorded(str(vid), shown)


@get(
    "/variations/{variation_id:str}/audit",
    sync_to_thread=True,
    tags=["variations"],
    responses=problem_responses(401, 403, 404),
)
def variation_audit(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], variation_id: FromPath[str]
) -> AuditReport:
    """Re-decide the variation's actions from its position with its seed: a study's stated
    one (checked against its derivation and commitment) at any time, a played-on game's once
    it ends (403 `seed_sealed` before, but for the administrator)."""
    vid = parse_game_id(variation_id)
    access = variations.line_access(chronicle, vid, token)
    return variations.audit(chronicle, vid, access)


ROUTES = [
    variation_audit,
    create_variation,
    list_variations,
    variation_detail,
    variation_events,
    variation_state,
    record_variation_action,
]
