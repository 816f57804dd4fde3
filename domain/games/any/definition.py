"""What a table declares about a game Chronicle has no engine for (rules.md section 2): its
dice sets, decks, tracks and ending, validated from plain data (a TOML file or the same as JSON)
and kept in the game's `definition` option as canonical JSON text.

Rulings:

- No `dice` declared and `free_dice` unset: any `NdM` may be rolled (1 <= N <= 100,
  2 <= M <= 1000). Declared sets leave free dice allowed unless `free_dice = false`.
- A die's `faces` is a count (numbered 1..M) or a list of named faces, each named once (an
  entered face must say which face it was; two faces of one name could not).
- A deck's `cards` is a table of names with counts or a list of names (one each). A card name
  belongs to one deck only, so a card in a hand or on the table names its deck. The deck's
  canonical order (records 4: a shuffle lists its items in it) is the card names sorted by code
  point, each repeated by its count.
- No tracks declared: one per-player track `score`. A track is per player unless
  `per = "table"`; `min`/`max` bound it, `start` is its value when the game begins.
- The ending reads `track` (default: the first per-player track; in a cooperative game the
  first table track with a maximum, the loss track). `tiebreak` is `shared`, `entered` or the
  name of a second per-player track compared in the same direction.
- Names (dice sets, decks, tracks) are words of letters, digits, `-` and `_`, not a notation
  word (`to`, `table`...), not a seat id (`A`..`T`) and not shaped like `NdM`; card and face
  names may hold spaces but no quote, `=` or `?` (the notation's own signs).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any, Literal

import msgspec

from domain.ruleset import Rejection

RULE = "any 2"
FREE_COUNT = (1, 100)
FREE_FACES = (2, 1000)
MAX_CARDS = 1000
SEAT_IDS = tuple(chr(c) for c in range(ord("A"), ord("T") + 1))
TOTAL_NAME = "total"  # what the ending reads to rank on the sum of every per-player track
RESERVED = frozenset(
    {"to", "table", "ranks", "winners", "won", "lost", "turn", "round", "game", "end", TOTAL_NAME}
)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
FREE = re.compile(r"(\d*)d(\d+)", re.IGNORECASE)
EndingKind = Literal["highest", "lowest", "ranks", "cooperative"]


class DiceSet(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """`count` dice of `faces` faces each; `labels` names the faces when they are named."""

    name: str
    count: int
    faces: int
    labels: tuple[str, ...] = ()


class DeckSpec(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """A deck's cards by name with their counts."""

    name: str
    cards: dict[str, int]

    def canonical(self) -> tuple[str, ...]:
        """Every card of the deck in the canonical order (names sorted, each repeated)."""
        return tuple(card for card in sorted(self.cards) for _ in range(self.cards[card]))


class TrackSpec(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """A track; `once`: a row of a scoring sheet, which each player scores once (0 crosses it
    out)."""

    name: str
    per: Literal["player", "table"] = "player"
    min: int | None = None
    max: int | None = None
    start: int = 0
    once: bool = False


class Ending(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    kind: EndingKind = "highest"
    track: str | None = None
    tiebreak: str = "shared"


DEFAULT_TRACK = TrackSpec("score")
# The ending may read `total`: each player's sum over every per-player track (a scoring sheet).
TOTAL = TrackSpec(TOTAL_NAME)


class Definition(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """A table's declared components and ending. Empty: free dice, one score per player, the
    highest score wins, ties shared."""

    title: str = ""
    bgg_id: int = 0
    dice: tuple[DiceSet, ...] = ()
    free_dice: bool = True
    decks: tuple[DeckSpec, ...] = ()
    tracks: tuple[TrackSpec, ...] = ()
    ending: Ending = Ending()

    def all_tracks(self) -> tuple[TrackSpec, ...]:
        """The declared tracks, or the one per-player `score` when none is declared."""
        return self.tracks or (DEFAULT_TRACK,)

    def track(self, name: str) -> TrackSpec | None:
        return next((t for t in self.all_tracks() if t.name.lower() == name.lower()), None)

    def player_tracks(self) -> tuple[TrackSpec, ...]:
        return tuple(t for t in self.all_tracks() if t.per == "player")

    def table_tracks(self) -> tuple[TrackSpec, ...]:
        return tuple(t for t in self.all_tracks() if t.per == "table")

    def dice_set(self, name: str) -> DiceSet | None:
        return next((d for d in self.dice if d.name.lower() == name.lower()), None)

    def deck(self, name: str) -> DeckSpec | None:
        return next((d for d in self.decks if d.name.lower() == name.lower()), None)

    def deck_of(self, card: str) -> DeckSpec | None:
        """The deck a card belongs to (a card name belongs to one deck only)."""
        return next((d for d in self.decks if card in d.cards), None)

    def card_named(self, text: str) -> str | None:
        """The card a name entered at the table means: exact, else the one matching it
        case-insensitively."""
        for deck in self.decks:
            if text in deck.cards:
                return text
        lowered = text.lower()
        return next((c for d in self.decks for c in d.cards if c.lower() == lowered), None)

    def score_track(self) -> TrackSpec | None:
        """The track the ending reads (section 6)."""
        if self.ending.track == TOTAL_NAME:
            return TOTAL
        if self.ending.track is not None:
            return self.track(self.ending.track)
        if self.ending.kind == "cooperative":
            return next((t for t in self.table_tracks() if t.max is not None), None)
        players = self.player_tracks()
        return players[0] if players else None

    def default_player_track(self) -> TrackSpec | None:
        """The per-player track `score SEAT +N` moves: the ending's when it is per player,
        else the first per-player track."""
        track = self.score_track()
        if track is not None and track.per == "player" and track is not TOTAL:
            return track
        players = self.player_tracks()
        return players[0] if players else None

    def loss_track(self) -> TrackSpec | None:
        """In a cooperative game, the table track whose maximum loses the game."""
        if self.ending.kind != "cooperative":
            return None
        track = self.score_track()
        return track if track is not None and track.per == "table" and track.max is not None else None


def _bad(where: str, message: str) -> Rejection:
    return Rejection("bad_definition", f"{where}: {message}", RULE)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(where: str, value: Any, taken: set[str]) -> str | Rejection:
    if not isinstance(value, str) or NAME.fullmatch(value) is None:
        return _bad(where, "a name of letters, digits, '-' and '_' is required")
    lowered = value.lower()
    if lowered in RESERVED or value.upper() in SEAT_IDS or FREE.fullmatch(value):
        return _bad(where, f"{value!r} is a word of the notation or a seat, pick another name")
    if lowered in taken:
        return _bad(where, f"{value!r} is already the name of another component")
    taken.add(lowered)
    return value


def _label(where: str, value: Any) -> str | Rejection:
    if not isinstance(value, str) or not value.strip() or value != value.strip():
        return _bad(where, "a name without leading or trailing spaces is required")
    if any(sign in value for sign in "\"'=?"):
        return _bad(where, f"{value!r} holds a sign of the notation (a quote, '=' or '?')")
    return value


def _dice(data: Any, taken: set[str]) -> tuple[DiceSet, ...] | Rejection:
    if not isinstance(data, list):
        return _bad("dice", "a list of dice sets is required")
    out = []
    for i, item in enumerate(data):
        where = f"dice[{i}]"
        if not isinstance(item, Mapping):
            return _bad(where, "a table with name, count and faces is required")
        unknown = set(item) - {"name", "count", "faces"}
        if unknown:
            return _bad(f"{where}.{sorted(unknown)[0]}", "no such field (name, count, faces)")
        name = _name(f"{where}.name", item.get("name"), taken)
        if isinstance(name, Rejection):
            return name
        count = item.get("count", 1)
        if not _int(count) or not FREE_COUNT[0] <= count <= FREE_COUNT[1]:
            return _bad(
                f"{where}.count", f"a whole number from {FREE_COUNT[0]} to {FREE_COUNT[1]} is required"
            )
        faces = item.get("faces")
        labels: tuple[str, ...] = ()
        if isinstance(faces, list):
            for j, face in enumerate(faces):
                label = _label(f"{where}.faces[{j}]", face)
                if isinstance(label, Rejection):
                    return label
            labels = tuple(faces)
            if len({f.lower() for f in labels}) != len(labels):
                return _bad(f"{where}.faces", "each face is named once")
            faces = len(labels)
        if (
            not isinstance(faces, int)
            or isinstance(faces, bool)
            or not FREE_FACES[0] <= faces <= FREE_FACES[1]
        ):
            return _bad(
                f"{where}.faces",
                f"a number of faces from {FREE_FACES[0]} to {FREE_FACES[1]}, or a list of that many names",
            )
        out.append(DiceSet(name, count, faces, labels))
    return tuple(out)


def _decks(data: Any, taken: set[str]) -> tuple[DeckSpec, ...] | Rejection:
    if not isinstance(data, list):
        return _bad("decks", "a list of decks is required")
    out: list[DeckSpec] = []
    owners: dict[str, str] = {}
    for i, item in enumerate(data):
        where = f"decks[{i}]"
        if not isinstance(item, Mapping):
            return _bad(where, "a table with name and cards is required")
        unknown = set(item) - {"name", "cards"}
        if unknown:
            return _bad(f"{where}.{sorted(unknown)[0]}", "no such field (name, cards)")
        name = _name(f"{where}.name", item.get("name"), taken)
        if isinstance(name, Rejection):
            return name
        given = item.get("cards")
        cards: dict[str, int] = {}
        if isinstance(given, list):
            for j, card in enumerate(given):
                label = _label(f"{where}.cards[{j}]", card)
                if isinstance(label, Rejection):
                    return label
                cards[label] = cards.get(label, 0) + 1
        elif isinstance(given, Mapping):
            for card, count in given.items():
                label = _label(f"{where}.cards.{card}", card)
                if isinstance(label, Rejection):
                    return label
                if not _int(count) or count < 1:
                    return _bad(f"{where}.cards.{card}", "a count of at least 1 is required")
                cards[label] = count
        else:
            return _bad(f"{where}.cards", "a table of card names and counts, or a list of names, is required")
        if not cards:
            return _bad(f"{where}.cards", "a deck holds at least one card")
        if sum(cards.values()) > MAX_CARDS:
            return _bad(f"{where}.cards", f"a deck holds at most {MAX_CARDS} cards")
        for card in cards:
            other = owners.get(card.lower())
            if other is not None:
                return _bad(f"{where}.cards.{card}", f"{card!r} is already a card of deck {other!r}")
            owners[card.lower()] = name
        out.append(DeckSpec(name, dict(sorted(cards.items()))))
    return tuple(out)


def _tracks(data: Any, taken: set[str]) -> tuple[TrackSpec, ...] | Rejection:
    if not isinstance(data, list):
        return _bad("tracks", "a list of tracks is required")
    out = []
    for i, item in enumerate(data):
        where = f"tracks[{i}]"
        if not isinstance(item, Mapping):
            return _bad(where, "a table with a name is required")
        unknown = set(item) - {"name", "per", "min", "max", "start", "once"}
        if unknown:
            return _bad(f"{where}.{sorted(unknown)[0]}", "no such field (name, per, min, max, start, once)")
        name = _name(f"{where}.name", item.get("name"), taken)
        if isinstance(name, Rejection):
            return name
        per = item.get("per", "player")
        if per not in ("player", "table"):
            return _bad(f"{where}.per", "either 'player' or 'table'")
        low, high, start = item.get("min"), item.get("max"), item.get("start")
        for field, value in (("min", low), ("max", high), ("start", start)):
            if value is not None and not _int(value):
                return _bad(f"{where}.{field}", "a whole number is required")
        if low is not None and high is not None and low > high:
            return _bad(f"{where}.max", "the maximum lies below the minimum")
        if start is None:
            start = low if low is not None and low > 0 else 0
            start = high if high is not None and high < start else start
        if (low is not None and start < low) or (high is not None and start > high):
            return _bad(f"{where}.start", "the start lies outside the track's bounds")
        once = item.get("once", False)
        if not isinstance(once, bool):
            return _bad(f"{where}.once", "true or false")
        if once and per != "player":
            return _bad(f"{where}.once", "a row scored once belongs to each player, not to the table")
        out.append(TrackSpec(name, per, low, high, start, once))
    return tuple(out)


def _ending(data: Any, tracks: tuple[TrackSpec, ...]) -> Ending | Rejection:
    if not isinstance(data, Mapping):
        return _bad("ending", "a table with kind, track and tiebreak is required")
    unknown = set(data) - {"kind", "track", "tiebreak"}
    if unknown:
        return _bad(f"ending.{sorted(unknown)[0]}", "no such field (kind, track, tiebreak)")
    kind = data.get("kind", "highest")
    if kind not in ("highest", "lowest", "ranks", "cooperative"):
        return _bad("ending.kind", "one of highest, lowest, ranks, cooperative")
    by_name = {t.name.lower(): t for t in tracks or (DEFAULT_TRACK,)}
    track = data.get("track")
    if isinstance(track, str) and track.lower() == TOTAL_NAME:
        if kind not in ("highest", "lowest") or not any(t.per == "player" for t in by_name.values()):
            return _bad("ending.track", "the total of the per-player tracks ranks a highest or lowest ending")
        track = TOTAL_NAME
    elif track is not None:
        if not isinstance(track, str) or track.lower() not in by_name:
            return _bad("ending.track", f"{track!r} is not a declared track")
        found = by_name[track.lower()]
        if kind == "cooperative" and found.per != "table":
            return _bad("ending.track", "a cooperative game's ending reads a table track (its loss track)")
        if kind != "cooperative" and found.per != "player":
            return _bad("ending.track", "the ending ranks the players on a per-player track")
        track = found.name
    elif kind != "cooperative" and not any(t.per == "player" for t in by_name.values()):
        return _bad("ending.track", "a competitive ending needs a per-player track to read")
    tiebreak = data.get("tiebreak", "shared")
    if not isinstance(tiebreak, str):
        return _bad("ending.tiebreak", "shared, entered or the name of a per-player track")
    if tiebreak not in ("shared", "entered"):
        second = by_name.get(tiebreak.lower())
        if second is None or second.per != "player":
            return _bad("ending.tiebreak", f"{tiebreak!r} is neither shared, entered nor a per-player track")
        if kind not in ("highest", "lowest"):
            return _bad("ending.tiebreak", "a tiebreak track serves a highest or lowest ending")
        tiebreak = second.name
    return Ending(kind, track, tiebreak)


def parse_definition(data: Mapping[str, Any]) -> Definition | Rejection:
    """A definition from plain data (a TOML file read by tomllib, or the same as JSON), or a
    `bad_definition` rejection naming the field at fault."""
    if not isinstance(data, Mapping):
        return _bad("definition", "a table of fields is required")
    unknown = set(data) - {"title", "bgg_id", "dice", "free_dice", "decks", "tracks", "ending"}
    if unknown:
        return _bad(
            sorted(unknown)[0], "no such field (title, bgg_id, dice, free_dice, decks, tracks, ending)"
        )
    title = data.get("title", "")
    if not isinstance(title, str):
        return _bad("title", "text is required")
    bgg_id = data.get("bgg_id", 0)
    if not _int(bgg_id) or bgg_id < 0:
        return _bad("bgg_id", "a whole number of at least 0 is required")
    free_dice = data.get("free_dice", True)
    if not isinstance(free_dice, bool):
        return _bad("free_dice", "true or false")
    taken: set[str] = set()
    dice = _dice(data.get("dice", []), taken)
    if isinstance(dice, Rejection):
        return dice
    decks = _decks(data.get("decks", []), taken)
    if isinstance(decks, Rejection):
        return decks
    tracks = _tracks(data.get("tracks", []), taken)
    if isinstance(tracks, Rejection):
        return tracks
    ending = _ending(data.get("ending", {}), tracks)
    if isinstance(ending, Rejection):
        return ending
    return Definition(title.strip(), bgg_id, dice, free_dice, decks, tracks, ending)


def definition_data(definition: Definition) -> dict[str, Any]:
    """A definition as plain data in the file's own shape (named faces as the list `faces`),
    fields at their default left out: `parse_definition` reads it back."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(definition))  # lists, as JSON has
    if not data.get("ending"):
        data.pop("ending", None)
    for dice in data.get("dice", []):
        labels = dice.pop("labels", None)
        if labels:
            dice["faces"] = labels
    return data


def definition_json(definition: Definition) -> str:
    """The canonical text of a definition, as the `definition` option holds it: JSON with
    sorted keys and no spaces, fields at their default left out (`{}` is the empty one)."""
    return json.dumps(definition_data(definition), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_definition(text: str) -> Definition | Rejection:
    """The definition an option's text holds ("" is the empty definition)."""
    if not text.strip():
        return Definition()
    try:
        data = json.loads(text)
    except ValueError as error:
        return _bad("definition", f"not JSON text ({error})")
    return parse_definition(data)


def load_toml(text: str) -> Definition | Rejection:
    """A definition from the text of a TOML file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return _bad("definition", f"not TOML text ({error})")
    return parse_definition(data)


def _examples() -> dict[str, str]:
    folder = resources.files(__package__ or "domain.games.any").joinpath("definitions")
    found = sorted(
        (entry.name.removesuffix(".toml"), entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )
    return dict(found)


EXAMPLES: dict[str, str] = _examples()
"""The shipped generic definitions by name (definitions/*.toml), each as its TOML text."""
