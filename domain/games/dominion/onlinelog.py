"""Dominion Online game logs read into data: pure text in, a `GameLog` out (no IO).

Two public text formats exist. The 2012-13 client wrote every player's draws and shuffles:

    ------------ Game Setup ------------
    Supply cards: Moat, Chancellor, ..., Copper, Silver, Gold, Curse, Estate, Duchy, Province
    KeyNoir - starting cards: Copper, Copper, ..., Estate
    KeyNoir - shuffles deck
    KeyNoir - draws Copper, Copper, Copper, Estate, Copper
    ---------- Lady Sarra: turn 1 ----------
    Lady Sarra - plays 3 Copper
    Lady Sarra - buys Silver
    ------------ Game Over ------------
    Lady Sarra - cards: 6 Spy, 5 Throne Room, ...
    Lady Sarra - total victory points: 38

Each event line becomes a `Line` with a normalised verb: `plays`, `buys`, `gains`, `trashes`,
`draws`, `discards` (also "discards: A, B"), `reveals` ("reveals: A, B"), `reacts` ("reveals
reaction Moat"), `topdecks` ("places X on top of deck"), `takes` (Adventurer's "places cards in
hand: A, B"), `shuffles`, `leaves` ("quit",
"resigned"); anything else keeps its first word and no cards, and the importer says so.

Today's client (dominion.games, 2016 on) writes "Turn 1 - Name", "L starts with 7 Coppers."
and hides other players' draws ("L draws 5 cards."): `detect` tells it apart and `parse_today`
reads it into the same `Line`s, each card it does not name an `UNSEEN` entry ("?": "5 cards",
"a card", Cellar's "2 other cards"), "buys and gains" as a `buys` and a `gains` line, "reacts
with a Moat" as `reacts`, "looks at" (Sentry) as `looks`, "has resigned" as `leaves`, players'
abbreviations resolved from the turn headers (a resignation names the player in full). It
lists no kingdom and prints no final scores: the importer takes the kingdom as given or from
the cards the lines name, and tallies the scores from the gains and trashes.
"""

from __future__ import annotations

import re

import msgspec
import msgspec.structs

from domain.games.dominion.data import DATA

FORMAT_2013 = "dominion-online-2013"
FORMAT_TODAY = "dominion-online"
BASICS = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")

_SETUP = re.compile(r"^-+ Game Setup -+$")
_OVER = re.compile(r"^-+ Game Over -+$")
_HEADER = re.compile(r"^-+ (?P<player>.+): turn (?P<turn>\d+) -+$")
_COUNTED = re.compile(r"^(?P<n>\d+) (?P<card>.+)$")
_TODAY = re.compile(r"^(Turn \d+ - .+|.+ starts with .+\.|.+ draws (\d+|a) cards?\.)$", re.MULTILINE)


class Line(msgspec.Struct, frozen=True):
    """One line of the log: `number` counts from 1 in the file; `kind` is `event`, `header`
    (a turn starts: `player` and the player's own `turn`) or `over` (the Game Over line)."""

    number: int
    text: str
    kind: str
    player: str = ""
    verb: str = ""
    cards: tuple[str, ...] = ()
    turn: int = 0


class Final(msgspec.Struct, frozen=True):
    """A player's line of the Game Over section."""

    cards: dict[str, int] = {}
    vp: int | None = None
    turns: int | None = None
    left: bool = False


class GameLog(msgspec.Struct, frozen=True):
    format: str
    players: tuple[str, ...]  # as the setup lists them (seat order of the online table)
    supply: tuple[str, ...]
    starting: dict[str, tuple[str, ...]]
    lines: tuple[Line, ...]  # from the first shuffle of the setup to the Game Over line
    final: dict[str, Final]

    @property
    def kingdom(self) -> tuple[str, ...]:
        return tuple(c for c in self.supply if c not in BASICS)

    @property
    def turn_order(self) -> tuple[str, ...]:
        """The players in turn order, from the first player: the setup's order, rotated to the
        player of the first turn header."""
        first = next((line.player for line in self.lines if line.kind == "header"), None)
        if first is None or first not in self.players:
            return self.players
        i = self.players.index(first)
        return self.players[i:] + self.players[:i]

    @property
    def turns(self) -> int:
        return sum(1 for line in self.lines if line.kind == "header")

    @property
    def left(self) -> tuple[str, ...]:
        return tuple(name for name, final in self.final.items() if final.left)

    def card_names(self) -> set[str]:
        """Every card name the log mentions: supply, starting cards, events, final counts."""
        names = set(self.supply)
        for cards in self.starting.values():
            names.update(cards)
        for line in self.lines:
            names.update(line.cards)
        for final in self.final.values():
            names.update(final.cards)
        return names


class LogError(ValueError):
    """A text that is not a log this module reads; the message says why in a line."""


def detect(text: str) -> str | None:
    """Which format `text` is in, or None."""
    text = text.lstrip("\ufeff")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if any(_SETUP.match(line) for line in lines[:3]):
        return FORMAT_2013
    if _TODAY.search(text):
        return FORMAT_TODAY
    return None


def cards_of(text: str) -> tuple[str, ...]:
    """ "4 Copper, 1 Silver" or "Copper, Estate" as a tuple of names, counts expanded."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        counted = _COUNTED.match(part)
        if counted:
            out.extend([counted["card"].strip()] * int(counted["n"]))
        else:
            out.append(part)
    return tuple(out)


def counts_of(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards_of(text):
        out[card] = out.get(card, 0) + 1
    return out


def _event(number: int, text: str, player: str, rest: str) -> Line:
    def line(verb: str, cards: tuple[str, ...] = ()) -> Line:
        return Line(number, text, "event", player, verb, cards)

    if rest in ("quit", "resigned"):
        return line("leaves")
    if rest == "shuffles deck":
        return line("shuffles")
    if rest.startswith("reveals reaction "):
        return line("reacts", cards_of(rest[len("reveals reaction ") :]))
    if rest.startswith("places cards in hand:"):
        return line("takes", cards_of(rest[len("places cards in hand:") :]))
    if rest.startswith("places ") and rest.endswith(" on top of deck"):
        return line("topdecks", cards_of(rest[len("places ") : -len(" on top of deck")]))
    verb, _, tail = rest.partition(" ")
    verb = verb.rstrip(":")
    if verb in ("plays", "buys", "gains", "trashes", "draws", "discards", "reveals"):
        return line(verb, cards_of(tail.lstrip(": ")))
    return line(verb)


def parse(text: str) -> GameLog:
    """Read a log of the 2012-13 format (raises LogError on anything else)."""
    kind = detect(text)
    if kind is None:
        raise LogError("this is not a Dominion Online log (no Game Setup section, no turn lines)")
    if kind != FORMAT_2013:
        raise LogError("only the 2012-13 format is read here")
    raw = text.lstrip("\ufeff").splitlines()
    supply: tuple[str, ...] = ()
    starting: dict[str, tuple[str, ...]] = {}
    lines: list[Line] = []
    final: dict[str, dict[str, object]] = {}
    over = False
    for number, full in enumerate(raw, start=1):
        stripped = full.strip()
        if not stripped or _SETUP.match(stripped):
            continue
        if _OVER.match(stripped):
            over = True
            lines.append(Line(number, stripped, "over"))
            continue
        header = _HEADER.match(stripped)
        if header and not over:
            lines.append(Line(number, stripped, "header", header["player"], turn=int(header["turn"])))
            continue
        if stripped.lower().startswith("supply cards:"):
            supply = cards_of(stripped.split(":", 1)[1])
            continue
        player = next((name for name in starting if stripped.startswith(f"{name} - ")), None)
        if player is None and " - starting cards: " in stripped:
            name, _, cards = stripped.partition(" - starting cards: ")
            starting[name] = cards_of(cards)
            continue
        if player is None:
            continue  # "Rating system: ...", "Bane card: ...", "1st place: ...": nothing to record
        rest = stripped[len(player) + 3 :]
        if over:
            entry = final.setdefault(player, {})
            if rest in ("quit", "resigned"):
                entry["left"] = True
            elif rest.startswith("cards: "):
                entry["cards"] = counts_of(rest[len("cards: ") :])
            elif rest.startswith("total victory points: "):
                entry["vp"] = int(rest.rsplit(" ", 1)[1])
            elif rest.startswith("turns: "):
                entry["turns"] = int(rest.rsplit(" ", 1)[1])
            continue
        lines.append(_event(number, stripped, player, rest))
    if not starting:
        raise LogError("the log names no players (no 'starting cards' lines)")
    if not supply:
        raise LogError("the log has no 'Supply cards' line")
    return GameLog(
        format=FORMAT_2013,
        players=tuple(starting),
        supply=supply,
        starting=starting,
        lines=tuple(lines),
        final={name: msgspec.convert(entry, Final) for name, entry in final.items()},
    )


# --- today's format -------------------------------------------------------------------------

UNSEEN = "?"  # a card the log does not name ("L draws 5 cards.", "discards a card")
_STATEMENT = re.compile(r"^(?P<who>\S+) (?P<rest>.+)$")
_TURN = re.compile(r"^Turn (?P<turn>\d+) - (?P<player>.+?)(?: \[.*\])?$")
_ARTICLE = re.compile(r"^(?:(?P<n>\d+)|an?) (?P<card>.+)$")
# Verbs of today's log, longest first, and the verbs of `Line` they become.
_VERBS = (
    ("buys and gains", ("buys", "gains")),
    ("reacts with", ("reacts",)),
    ("reveals their hand:", ("reveals",)),
    ("looks at", ("looks",)),
    ("resigned", ("leaves",)),
    ("resigns", ("leaves",)),
    ("has resigned", ("leaves",)),
    ("shuffles their deck", ("shuffles",)),
    ("starts with", ("starts",)),
    ("plays", ("plays",)),
    ("buys", ("buys",)),
    ("gains", ("gains",)),
    ("trashes", ("trashes",)),
    ("draws", ("draws",)),
    ("discards", ("discards",)),
    ("reveals", ("reveals",)),
    ("topdecks", ("topdecks",)),
)


def statements(text: str) -> list[tuple[int, str]]:
    """The log's statements with the number of the line each starts on. A log copied from the
    browser breaks lines around every card name ("O\\n plays \\n3 Coppers\\n. (+$\\n3\\n)"): a
    line continues the statement before it unless that one is complete (it ends with "." or
    ")", or it is a turn header)."""
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if out:
            start, last = out[-1]
            head = last.strip()
            complete = head.endswith((".", ")")) or head.startswith("Card Pool") or bool(_TURN.match(head))
            # A whole statement on its own line starts anew even after a line that did not end
            # (a kingdom note, "Timer: Off" or a rating above "L starts with 7 Coppers.").
            whole = line[:1] not in (" ", ".", ")", ",") and (
                line.rstrip().endswith((".", ")")) or bool(_TURN.match(line.strip()))
            )
            if line[:1] in (" ", ".", ")", ",") or not (complete or whole):
                out[-1] = (start, last + line)
                continue
        out.append((number, line))
    return [(number, " ".join(text.split())) for number, text in out]


def singular(name: str) -> str:
    """ "Coppers" -> "Copper", "Duchies" -> "Duchy", "Witches" -> "Witch"; a card whose own
    name ends in s ("2 Gardens") stays as it is."""
    if name in DATA.cards:
        return name
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith(("ches", "shes", "sses")):
        return name[:-2]
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def hidden_cards(text: str) -> tuple[str, ...]:
    """ "3 Coppers and 2 Estates", "a card and an Estate", "5 cards": names, with `UNSEEN`
    for each card the log does not name."""
    text = text.strip().rstrip(".")
    if text.endswith(" again"):  # Throne Room's second play: "plays a Village again."
        text = text[: -len(" again")]
    out: list[str] = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text):
        part = part.strip()
        if not part:
            continue
        counted = _ARTICLE.match(part)
        n, card = (int(counted["n"] or 1), counted["card"]) if counted else (1, part)
        many = n > 1
        card = singular(card) if many else card
        hidden = card in ("card", "cards", "other card", "other cards")
        out.extend([UNSEEN if hidden else card] * n)
    return tuple(out)


def parse_today(text: str) -> GameLog:
    """Read a log of today's format: hidden cards become `UNSEEN` entries. The log names no
    kingdom (the table shows it) and, copied during the game, no final scores."""
    players: dict[str, str] = {}  # abbreviation -> full name, from the turn headers
    starting: dict[str, list[str]] = {}
    lines: list[Line] = []
    for number, statement in statements(text):
        turn = _TURN.match(statement)
        if turn:
            full = turn["player"]
            for short in starting:
                if full.startswith(short) and short not in players:
                    players[short] = full
            name = next((n for s, n in players.items() if n == full), full)
            lines.append(Line(number, statement, "header", name, turn=int(turn["turn"])))
            continue
        said = _STATEMENT.match(statement)
        by_name = next((s for s, n in players.items() if statement.startswith(n + " ")), None)
        if by_name is not None:  # "ada has resigned.": the full name, not the abbreviation
            who, rest = by_name, statement[len(players[by_name]) + 1 :]
        elif said is None or (said["who"] not in starting and not said["rest"].startswith("starts with ")):
            continue  # "Game #1, unrated.", "Card Pool: level 1", chat
        else:
            who, rest = said["who"], said["rest"]
        for phrase, verbs in _VERBS:
            if rest.startswith(phrase + " ") or rest.rstrip(".") == phrase:
                tail = rest[len(phrase) :].split(". (", 1)[0]
                cards = hidden_cards(tail) if tail.strip() else ()
                if verbs == ("starts",):
                    starting.setdefault(who, []).extend(cards)
                else:
                    lines.extend(Line(number, statement, "event", who, verb, cards) for verb in verbs)
                break
    if not starting:
        raise LogError("the log names no players (no 'starts with' lines)")
    named = [msgspec.structs.replace(x, player=players.get(x.player, x.player)) for x in lines]
    return GameLog(
        format=FORMAT_TODAY,
        players=tuple(players.get(short, short) for short in starting),
        supply=(),
        starting={players.get(short, short): tuple(cards) for short, cards in starting.items()},
        lines=tuple(named),
        final={},
    )
