"""Annotations: what reviewers write on a game, kept beside it (design.md 3).

A game's stream holds exactly what happened at the table; what anyone writes about it lives in
the game's `Annotations` stream, one per annotated game or variation. Each annotation is
anchored to a version of the annotated line and, optionally, to one of its coordinates, and
carries a comment, a move glyph, a highlight, an arrow, or several of these. An arrow runs from
the annotation's coordinate to a second one, `to` (from `card:Village` to `pile:Province`).
Editing and deleting are events of that stream: nothing written is lost, and the last word is
the one shown.

Coordinates are `KIND:NAME` where the kind is one of `COORDINATE_KINDS` (a card, a pile, a
space, a province, a tile, a seat): `card:Village`, `pile:Province`, `space:top`,
`province:chengdu`. The name must be one the annotated game holds, for the kinds the game
names (a seat by its id or player's name; the cards and piles of a Dominion game's Supply, a
Province board's spaces, a Dynasties map's provinces: each ruleset's optional
`coordinate_names(state)`), and a near miss is answered with the closest name; other kinds stay
free text. The rules do not judge whether the card was there at that version: an annotation is
an opinion, not a record.

Who wrote an annotation is its `author`: `seat:<id>`, `recorder`, or `reviewer:<name>` (a
holder of a review token the recorder handed out). While the annotated game runs, an
annotation is shown to its author's side only (that seat's token, the recorder's token, that
reviewer's token; the administrator sees every side); once the game has ended, to everyone.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID, uuid5

import msgspec
from eventsourcing.domain import Aggregate

GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
HIGHLIGHTS = ("red", "green", "yellow", "blue")
COORDINATE_KINDS = ("card", "pile", "space", "province", "tile", "seat")
MAX_TEXT = 2000
MAX_COORDINATE = 64
_COORDINATE = re.compile(r"^(?P<kind>[a-z]+):(?P<name>[^\x00-\x1f\x7f]{1,56})$")
_NAMESPACE = UUID("0c5a8e7e-4b7e-4d55-9a55-3c1f6c2a7d10")


def annotations_id(target: UUID) -> UUID:
    """The id of the stream holding every annotation of `target` (a game or a variation)."""
    return uuid5(_NAMESPACE, f"annotations:{target}")


class Content(msgspec.Struct, frozen=True):
    """What one annotation says, and where."""

    text: str = ""
    glyph: str | None = None
    highlight: str | None = None
    coordinate: str | None = None
    to: str | None = None


def content_problem(content: Content) -> tuple[str, str] | None:
    """(code, sentence) for content no annotation may hold, else None."""
    if not (content.text.strip() or content.glyph or content.highlight or content.to):
        return "annotation_empty", "An annotation needs a text, a glyph, a highlight or an arrow."
    if len(content.text) > MAX_TEXT:
        return "invalid_text", f"An annotation's text has at most {MAX_TEXT} characters."
    if any(ch < " " and ch not in "\n\t" for ch in content.text):
        return "invalid_text", "An annotation's text holds no control characters but newlines and tabs."
    if content.glyph is not None and content.glyph not in GLYPHS:
        return "invalid_glyph", f"A glyph is one of {' '.join(GLYPHS)}, not {content.glyph!r}."
    if content.highlight is not None and content.highlight not in HIGHLIGHTS:
        return (
            "invalid_highlight",
            f"A highlight is one of {', '.join(HIGHLIGHTS)}, not {content.highlight!r}.",
        )
    # an arrow needs both of its ends, and two different ones
    if content.to is not None and content.coordinate is None:
        return "invalid_coordinate", "An arrow starts at the annotation's coordinate: give one with `to`."
    if (
        content.to is not None
        and content.coordinate is not None
        and (content.to.strip().casefold() == content.coordinate.strip().casefold())
    ):
        return "invalid_coordinate", "An arrow runs between two different coordinates."
    for coordinate in (content.coordinate, content.to):
        if coordinate is not None:
            problem = _coordinate_form(coordinate)
            if problem is not None:
                return problem
    return None


def _coordinate_form(coordinate: str) -> tuple[str, str] | None:
    found = _COORDINATE.match(coordinate)
    if found is None or len(coordinate) > MAX_COORDINATE or not found["name"].strip():
        return (
            "invalid_coordinate",
            f"A coordinate is KIND:NAME (e.g. card:Village, space:3,4), not {coordinate!r}.",
        )
    if found["kind"] not in COORDINATE_KINDS:
        return (
            "invalid_coordinate",
            f"A coordinate's kind is one of {', '.join(COORDINATE_KINDS)}, not {found['kind']!r}.",
        )
    return None


def coordinate_problem(coordinate: str, known: Mapping[str, Collection[str]]) -> tuple[str, str] | None:
    """(code, sentence) for a coordinate naming what the annotated game does not hold, with
    the closest name it does; None when the name is the game's, or its kind is not one the
    game names (`known`: the names of each kind it checks)."""
    kind, _, name = coordinate.partition(":")
    names = known.get(kind)
    if names is None:
        return None
    by_case = {n.casefold(): n for n in names}
    if name.strip().casefold() in by_case:
        return None
    close = difflib.get_close_matches(name.strip().casefold(), list(by_case), n=1, cutoff=0.6)
    hint = f" Did you mean {kind}:{by_case[close[0]]}?" if close else ""
    return "invalid_coordinate", f"This game has no {kind} {name.strip()!r}.{hint}"


class Annotation(msgspec.Struct, frozen=True):
    """One annotation as it stands after its edits."""

    annotation_id: str
    target: str
    version: int
    author: str
    text: str
    glyph: str | None
    highlight: str | None
    coordinate: str | None
    created_at: str
    edited_at: str | None = None
    # the arrow's head (from `coordinate`); annotations written before arrows have none
    to: str | None = None

    def line(self) -> str:
        """One human line: `?! [card:Village -> pile:Gold] text (author)`."""
        where = f"{self.coordinate} -> {self.to}" if self.coordinate and self.to else self.coordinate
        parts = [p for p in (self.glyph, f"[{where}]" if where else None) if p]
        if self.highlight:
            parts.append(f"({self.highlight})")
        if self.text:
            parts.append(self.text.replace("\n", " "))
        return " ".join(parts) + f" ({self.author})"


class Annotations(Aggregate):
    """The annotations of one game or variation."""

    TOPIC = "chronicle:Annotations"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:AnnotationsCreated"
        target: str

    class Added(Aggregate.Event):
        TOPIC = "chronicle:AnnotationAdded"
        annotation_id: str
        at: int
        author: str
        text: str
        glyph: str | None
        highlight: str | None
        coordinate: str | None
        # added with arrows: an event stored before them has none, and reads as None
        to: str | None = None

        def apply(self, aggregate: Annotations) -> None:
            aggregate.notes[self.annotation_id] = Annotation(
                self.annotation_id,
                aggregate.target,
                self.at,
                self.author,
                self.text,
                self.glyph,
                self.highlight,
                self.coordinate,
                self.timestamp.isoformat(),
                to=getattr(self, "to", None),
            )

    class Edited(Aggregate.Event):
        TOPIC = "chronicle:AnnotationEdited"
        annotation_id: str
        by: str
        text: str
        glyph: str | None
        highlight: str | None
        coordinate: str | None
        to: str | None = None  # as Added's

        def apply(self, aggregate: Annotations) -> None:
            before = aggregate.notes[self.annotation_id]
            aggregate.notes[self.annotation_id] = msgspec.structs.replace(
                before,
                text=self.text,
                glyph=self.glyph,
                highlight=self.highlight,
                coordinate=self.coordinate,
                to=getattr(self, "to", None),
                edited_at=self.timestamp.isoformat(),
            )

    class Deleted(Aggregate.Event):
        TOPIC = "chronicle:AnnotationDeleted"
        annotation_id: str
        by: str

        def apply(self, aggregate: Annotations) -> None:
            del aggregate.notes[self.annotation_id]

    def __init__(self, target: str) -> None:
        self.target = target
        self.notes: dict[str, Annotation] = {}

    @classmethod
    def open(cls, target: UUID, at: datetime) -> Annotations:
        return cls._create(cls.Created, id=annotations_id(target), timestamp=at, target=str(target))

    def add(self, annotation_id: str, version: int, author: str, content: Content, at: datetime) -> None:
        self.trigger_event(
            self.Added,
            timestamp=at,
            annotation_id=annotation_id,
            at=version,
            author=author,
            **_fields(content),
        )

    def edit(self, annotation_id: str, by: str, content: Content, at: datetime) -> None:
        self.trigger_event(self.Edited, timestamp=at, annotation_id=annotation_id, by=by, **_fields(content))

    def delete(self, annotation_id: str, by: str, at: datetime) -> None:
        self.trigger_event(self.Deleted, timestamp=at, annotation_id=annotation_id, by=by)


def _fields(content: Content) -> dict[str, Any]:
    return {
        "text": content.text,
        "glyph": content.glyph,
        "highlight": content.highlight,
        "coordinate": content.coordinate,
        "to": content.to,
    }


def visible(note: Annotation, reader: str | None, ended: bool) -> bool:
    """Whether `reader` (an author key, `admin`, or None for the public) sees `note`: its own
    side always, the administrator every side, everyone once the annotated game has ended."""
    return ended or reader == "admin" or (reader is not None and reader == note.author)
