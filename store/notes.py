"""Annotations in the store: who may write them, who may read them (domain/notes.py).

The authors of a game's (or a variation's) annotations are its seats and its recorder, by
their tokens, and reviewers: a review token is handed out by the recorder (or an
administrator), named for its holder, and kept hashed in a stream of its own. A review token
grants nothing on the game itself: it writes annotations and reads the game as the public.

Reading: an annotation is shown to its author's side only while the annotated game runs, and to
everyone once it has ended (domain/notes.py `visible`); a study variation is open to all from
the start (store/variations.py), so its annotations are too. Editing and deleting are for the
annotation's author (and the administrator).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Any
from uuid import UUID, uuid4, uuid5

import msgspec
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.notes import (
    COORDINATE_KINDS,
    GLYPHS,
    HIGHLIGHTS,
    MAX_TEXT,
    Annotation,
    Annotations,
    Content,
    annotations_id,
    content_problem,
    coordinate_problem,
    visible,
)
from store.aggregates import existing
from store.clock import now as _now
from store.core import Core
from store.errors import Forbidden, InvalidRequest, ServiceError, Unauthorized, VersionConflict
from store.limits import Name, VersionAt
from store.lines import Line, line
from store.secrets import hash_token, hmac_equal, new_token

_NAMESPACE = UUID("3f2d8a61-0e4b-4c7a-9d2e-6b1a5c8f0e93")


def reviewers_id(target: UUID) -> UUID:
    return uuid5(_NAMESPACE, f"reviewers:{target}")


class AnnotationNotFound(ServiceError):
    status = 404
    code = "annotation_not_found"
    title = "There is no such annotation"


class ReviewTokens(Aggregate):
    """The hashed review tokens of one game, by reviewer name."""

    TOPIC = "chronicle:ReviewTokens"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:ReviewTokensCreated"
        target: str

    class Issued(Aggregate.Event):
        TOPIC = "chronicle:ReviewTokenIssued"
        name: str
        token_hash: str

        def apply(self, aggregate: ReviewTokens) -> None:
            aggregate.hashes[self.name] = self.token_hash

    def __init__(self, target: str) -> None:
        self.target = target
        self.hashes: dict[str, str] = {}

    def name_of(self, token: str) -> str | None:
        digest = hash_token(token)
        found = None
        for name, stored in self.hashes.items():
            if hmac_equal(digest, stored):
                found = name
        return found


# What domain/notes.py's content_problem checks, said in the OpenAPI document (only: the checks
# stay there, each with its code). A text keeps newlines and tabs; a coordinate's name holds a
# character that is not a space.
DocumentedText = Annotated[
    str, msgspec.Meta(extra_json_schema={"maxLength": MAX_TEXT, "pattern": r"^[^\x00-\x08\x0b-\x1f]*$"})
]
DocumentedGlyph = Annotated[str | None, msgspec.Meta(extra_json_schema={"enum": [*GLYPHS, None]})]
DocumentedHighlight = Annotated[str | None, msgspec.Meta(extra_json_schema={"enum": [*HIGHLIGHTS, None]})]
COORDINATE = f"^({'|'.join(COORDINATE_KINDS)}):[^\\s\\x00-\\x1f\\x7f][^\\x00-\\x1f\\x7f]{{0,55}}$"
DocumentedCoordinate = Annotated[str | None, msgspec.Meta(extra_json_schema={"pattern": COORDINATE})]
# the document's rendering of content_problem's first rule: a text that is not blank, a glyph or
# a highlight (api/openapi.py adds it to both bodies)
CONTENT_REQUIRED: dict[str, Any] = {
    "anyOf": [
        {"required": ["text"], "properties": {"text": {"pattern": "[^\\s\\x00-\\x1f]"}}},
        {"required": ["glyph"], "properties": {"glyph": {"type": "string"}}},
        {"required": ["highlight"], "properties": {"highlight": {"type": "string"}}},
        {"required": ["to"], "properties": {"to": {"type": "string"}}},
    ],
    # an arrow starts at the annotation's coordinate
    "dependentRequired": {"to": ["coordinate"]},
}


class NewAnnotation(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/annotations`: anchored at version `at` and, optionally, a
    `coordinate` (`KIND:NAME`, e.g. `card:Village`); a `text`, a `glyph` (`! ? !! ?? !? ?!`),
    a `highlight` (red, green, yellow, blue), an arrow from `coordinate` `to` another
    coordinate, or several."""

    at: VersionAt
    text: DocumentedText = ""
    glyph: DocumentedGlyph = None
    highlight: DocumentedHighlight = None
    coordinate: DocumentedCoordinate = None
    to: DocumentedCoordinate = None


class AnnotationEdit(msgspec.Struct, forbid_unknown_fields=True):
    """`PATCH /games/{id}/annotations/{annotation_id}`: the annotation's new content (whole)."""

    text: DocumentedText = ""
    glyph: DocumentedGlyph = None
    highlight: DocumentedHighlight = None
    coordinate: DocumentedCoordinate = None
    to: DocumentedCoordinate = None


class ReviewerRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/review-tokens`: the reviewer's name (1 to 64 characters)."""

    name: Name


class ReviewToken(msgspec.Struct):
    game_id: str
    reviewer: str
    review_token: str


def author_of(app: Core, target: UUID, token: str | None) -> str | None:
    """Who `token` writes as on `target`: `admin`, `recorder`, `seat:<id>`, `reviewer:<name>`;
    None without a token. A token valid for neither is refused (401 `invalid_token`), and
    anyone but the game's own table while the game is withheld (403 `same_deal_in_play`)."""
    app.withhold(target, token)
    if not token:
        return None
    if app.is_admin(token):
        return "admin"
    role = app.secrets(target).role_of(token)
    if role is not None:
        return role
    reviewers = _reviewers(app, target)
    name = reviewers.name_of(token) if reviewers is not None else None
    if name is None:
        raise Unauthorized("This token is not valid for this game.", code="invalid_token")
    return f"reviewer:{name}"


def is_reviewer(app: Core, target: UUID, token: str) -> bool:
    """Whether `token` is one of `target`'s review tokens."""
    reviewers = _reviewers(app, target)
    return reviewers is not None and reviewers.name_of(token) is not None


def issue_review_token(app: Core, target: UUID, token: str | None, name: str) -> ReviewToken:
    """A new review token for `name`, handed out by the recorder or an administrator."""
    line(app, target)
    author = author_of(app, target, token)
    if author not in ("recorder", "admin"):
        raise Forbidden("Only the recorder hands out review tokens.", code="recorder_required")
    name = name.strip()
    if not name:
        raise InvalidRequest("A reviewer needs a name.", code="invalid_reviewer_name")
    reviewers = _reviewers(app, target)
    if reviewers is None:
        reviewers = ReviewTokens._create(
            ReviewTokens.Created, id=reviewers_id(target), timestamp=_now(), target=str(target)
        )
    issued = new_token()
    # a name handed out again gets a new token; the old one stops working
    reviewers.trigger_event(ReviewTokens.Issued, timestamp=_now(), name=name, token_hash=hash_token(issued))
    try:
        app.save(reviewers)
    except IntegrityError:
        raise VersionConflict("Another review token was issued at the same moment; try again.") from None
    return ReviewToken(str(target), name, issued)


def _reviewers(app: Core, target: UUID) -> ReviewTokens | None:
    return existing(app, reviewers_id(target), ReviewTokens)


def _annotations(app: Core, target: UUID) -> Annotations | None:
    return existing(app, annotations_id(target), Annotations)


def _checked(content: Content) -> Content:
    problem = content_problem(content)
    if problem is not None:
        raise InvalidRequest(problem[1], code=problem[0])
    return content


def _on_the_game(found: Line, content: Content) -> Content:
    """`content`, refused when a coordinate (or the arrow's head) names what the annotated game
    does not hold."""
    if content.coordinate is None:
        return content
    game = found.game
    known: dict[str, Collection[str]] = {
        "seat": [*game.config.seat_ids(), *(s.name for s in game.config.seats)]
    }
    names = getattr(game.ruleset, "coordinate_names", None)
    if names is not None:
        known |= names(game.state)
    for coordinate in (content.coordinate, content.to):
        problem = coordinate_problem(coordinate, known) if coordinate is not None else None
        if problem is not None:
            raise InvalidRequest(problem[1], code=problem[0])
    return content


def _writer(app: Core, target: UUID, token: str | None) -> tuple[Line, str]:
    found = line(app, target)
    author = author_of(app, target, token)
    if author is None:
        raise Unauthorized("Annotating needs a seat's, the recorder's or a reviewer's token.")
    return found, "recorder" if author == "admin" else author


def annotate(app: Core, target: UUID, token: str | None, new: NewAnnotation) -> Annotation:
    _found, author = _writer(app, target, token)
    return annotate_as(app, target, author, new)


def annotate_as(app: Core, target: UUID, author: str, new: NewAnnotation) -> Annotation:
    """Annotate `target` as `author` (an author key: `recorder`, `seat:<id>`, `reviewer:<name>`);
    the command line's store owner writes this way, as the recorder or for a seat it names."""
    found = line(app, target)
    if not 1 <= new.at <= found.game.version:
        raise InvalidRequest(f"Version {new.at} is outside 1..{found.game.version}.", code="invalid_version")
    content = _checked(Content(new.text, new.glyph, new.highlight, new.coordinate, new.to))
    content = _on_the_game(found, content)
    annotation_id = uuid4().hex[:12]
    for _attempt in range(5):
        notes = _annotations(app, target) or Annotations.open(target, _now())
        notes.add(annotation_id, new.at, author, content, _now())
        try:
            app.save(notes)
        except IntegrityError:
            continue  # another annotation took this version of the stream; add it after that one
        return notes.notes[annotation_id]
    raise VersionConflict("The annotations are too busy to write now; try again.")


def _own(app: Core, target: UUID, author: str, annotation_id: str, admin: bool) -> tuple[Annotations, str]:
    found = line(app, target)
    notes = _annotations(app, target)
    note = notes.notes.get(annotation_id) if notes is not None else None
    reader = "admin" if admin else author
    if notes is None or note is None or not _readable(note, reader, found):
        raise AnnotationNotFound(f"There is no annotation {annotation_id} on {target}.")
    if note.author != author and not admin:
        raise Forbidden("Only an annotation's author edits or deletes it.", code="not_the_author")
    return notes, author


def edit(
    app: Core, target: UUID, token: str | None, annotation_id: str, change: AnnotationEdit
) -> Annotation:
    _found, author = _writer(app, target, token)
    return edit_as(app, target, author, annotation_id, change, admin=app.is_admin(token))


def edit_as(
    app: Core,
    target: UUID,
    author: str,
    annotation_id: str,
    change: AnnotationEdit,
    *,
    admin: bool = False,
) -> Annotation:
    """Replace an annotation's content: its author's, or with `admin` anyone's."""
    content = _checked(Content(change.text, change.glyph, change.highlight, change.coordinate, change.to))
    content = _on_the_game(line(app, target), content)
    notes, by = _own(app, target, author, annotation_id, admin)
    notes.edit(annotation_id, by, content, _now())
    _save(app, notes)
    return notes.notes[annotation_id]


def delete(app: Core, target: UUID, token: str | None, annotation_id: str) -> None:
    _found, author = _writer(app, target, token)
    delete_as(app, target, author, annotation_id, admin=app.is_admin(token))


def delete_as(app: Core, target: UUID, author: str, annotation_id: str, *, admin: bool = False) -> None:
    notes, by = _own(app, target, author, annotation_id, admin)
    notes.delete(annotation_id, by, _now())
    _save(app, notes)


def _save(app: Core, notes: Annotations) -> None:
    try:
        app.save(notes)
    except IntegrityError:
        raise VersionConflict("The annotations changed meanwhile; look again and retry.") from None


def _readable(note: Annotation, reader: str | None, found: Line) -> bool:
    return visible(note, reader, found.open_to_all)


def reader_of(app: Core, target: UUID, token: str | None) -> str | None:
    """The side `token` reads annotations as (None: the public)."""
    return author_of(app, target, token)


def annotations_of(app: Core, target: UUID, token: str | None, at: int | None = None) -> list[Annotation]:
    """The annotations of `target` that `token` may read (at version `at` only, if given),
    by version then as written."""
    found = line(app, target)
    reader = reader_of(app, target, token)
    return shown(app, found, reader, at)


def shown(app: Core, found: Line, reader: str | None, at: int | None = None) -> list[Annotation]:
    notes = _annotations(app, found.line_id)
    if notes is None:
        return []
    listed = [
        n for n in notes.notes.values() if _readable(n, reader, found) and (at is None or n.version == at)
    ]
    return sorted(listed, key=lambda n: n.version)


def as_builtins(notes: list[Annotation]) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(n) for n in notes]
