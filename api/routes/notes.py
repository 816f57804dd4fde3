"""Annotations on a game or a variation, and the review tokens the recorder hands out.

The rules of who writes and who reads live in `store/notes.py`; this module only turns HTTP
into their arguments. `{game_id}` names a game or a variation alike. Bad content is a 400 with
a stable code: `annotation_empty`, `invalid_text`, `invalid_glyph`, `invalid_highlight`,
`invalid_coordinate`, `invalid_version`; an annotation the caller may not see, or that is gone,
is a 404 `annotation_not_found`; another author's is a 403 `not_the_author`.
"""

from __future__ import annotations

import msgspec
from litestar.params import FromPath, JSONBody

from api.auth import parse_game_id
from api.concern import GAME_WRITE, Concern
from api.dependencies import ChronicleDep, TokenDep
from api.routes.params import Version
from domain.notes import Annotation
from store import notes
from store.notes import AnnotationEdit, NewAnnotation, ReviewerRequest, ReviewToken

route = Concern("annotations")


class AnnotationList(msgspec.Struct):
    annotations: list[Annotation]
    # whose side the token reads as (`seat:<id>`, `recorder`, `reviewer:<name>`, `admin`; None:
    # the public): a page offers editing the annotations whose author this is
    reader: str | None = None


@route.post("/games/{game_id:str}/annotations", *GAME_WRITE, status_code=201)
def create_annotation(
    data: JSONBody[NewAnnotation], chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> Annotation:
    """Annotate version `at`: with a seat's, the recorder's or a review token. While the game
    runs, only the author's side sees it; once it has ended, everyone."""
    return notes.annotate(chronicle, parse_game_id(game_id), token, data)


@route.get("/games/{game_id:str}/annotations", 400, 401, 403, 404)
def list_annotations(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], at: Version = None
) -> AnnotationList:
    """The annotations the caller may read, by version (only version `at`'s, if given)."""
    target = parse_game_id(game_id)
    listed = notes.annotations_of(chronicle, target, token, at)
    return AnnotationList(listed, notes.reader_of(chronicle, target, token))


@route.patch("/games/{game_id:str}/annotations/{annotation_id:str}", *GAME_WRITE)
def edit_annotation(
    data: JSONBody[AnnotationEdit],
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    annotation_id: FromPath[str],
) -> Annotation:
    """Replace an annotation's content (its author only); the edit is an event, the first
    words stay in the stream."""
    return notes.edit(chronicle, parse_game_id(game_id), token, annotation_id, data)


@route.delete(
    "/games/{game_id:str}/annotations/{annotation_id:str}", 401, 403, 404, 409, 429, status_code=204
)
def delete_annotation(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], annotation_id: FromPath[str]
) -> None:
    """Delete an annotation (its author only); the deletion is an event."""
    notes.delete(chronicle, parse_game_id(game_id), token, annotation_id)


@route.post("/games/{game_id:str}/review-tokens", *GAME_WRITE, status_code=201)
def create_review_token(
    data: JSONBody[ReviewerRequest], chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> ReviewToken:
    """The recorder hands a named reviewer a token that writes annotations (and reads the
    game as the public): shown only this once."""
    return notes.issue_review_token(chronicle, parse_game_id(game_id), token, data.name)


ROUTES = [create_annotation, list_annotations, edit_annotation, delete_annotation, create_review_token]
