"""The notation of `any` (rules.md section 4): one line per action, words case-insensitive.

    roll 2d6                      roll 2d6 = 3 5          roll dice = 1 1 4 5 6    roll colour = red
    shuffle market                draw 2 market to Ann    draw 1 market to table = Gold
    draw 2 market to Ann = Gold Silver                    reveal Ann Gold
    discard Ann Gold              discard table Gold      pass Ann Gold to Ben
    score Ann +8                  score Ann coins +3      score outbreaks +1
    note <free text>              end turn                end round
    end game                      end game Ann 32 Ben 28  end game ranks Ann 1 Ben 2
    end game winners Ann          end game Ann 32 Ben 28 winners Ann
    end game won                  end game lost

A seat is its id (`A`) or its player's name, a name of several words as it is or quoted; a card
or face of several words is quoted (`"Gold Coin"`), except as the last word of a reveal or a
discard. `format_action` writes seat ids and quotes what needs it, so that parsing what it
writes gives the action back.
"""

from __future__ import annotations

import shlex

from domain.games.any.actions import (
    Action,
    Discard,
    Draw,
    EndGame,
    EndRound,
    EndTurn,
    Note,
    Pass,
    Reveal,
    Roll,
    Score,
    Shuffle,
)
from domain.games.any.rules import TABLE
from domain.games.any.state import State
from domain.ruleset import Rejection

RULE = "any 4"


def _bad(message: str) -> Rejection:
    return Rejection("bad_params", message, RULE)


def _q(word: str) -> str:
    return f'"{word}"' if not word or any(c.isspace() for c in word) else word


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def _int(word: str) -> int | None:
    text = word[1:] if word[:1] in "+-" else word
    return int(word) if text.isdigit() else None


class _Words:
    """The words of a line, read left to right, seats resolved against the game's seats."""

    def __init__(self, words: list[str], state: State) -> None:
        self.words = words
        self.at = 0
        self.state = state

    def left(self) -> list[str]:
        return self.words[self.at :]

    def peek(self) -> str | None:
        return self.words[self.at].lower() if self.at < len(self.words) else None

    def take(self) -> str | None:
        if self.at >= len(self.words):
            return None
        self.at += 1
        return self.words[self.at - 1]

    def seat(self, table: bool = False) -> str | None:
        """The seat (or `table`) at the current word: a seat id, or a player's name of one or
        more words, the longest that fits."""
        if self.at >= len(self.words):
            return None
        if table and self.words[self.at].lower() == TABLE:
            self.at += 1
            return TABLE
        quoted = self.words[self.at].lower()
        whole = next((seat for seat, name in self.state.names.items() if name.lower() == quoted), None)
        if whole is not None:  # a name of one word, or of several quoted as one
            self.at += 1
            return whole
        names = sorted(self.state.names.items(), key=lambda kv: -len(kv[1].split()))
        for seat, name in names:
            size = len(name.split())
            if size and " ".join(self.words[self.at : self.at + size]).lower() == name.lower():
                self.at += size
                return seat
        word = self.words[self.at]
        found = next((s for s in self.state.seats if s.lower() == word.lower()), None)
        if found is not None:
            self.at += 1
        return found


VERBS = (
    "roll",
    "shuffle",
    "draw",
    "to",
    "table",
    "reveal",
    "discard",
    "pass",
    "score",
    "note",
    "end",
    "turn",
    "round",
    "game",
    "ranks",
    "winners",
    "won",
    "lost",
)


def notation_words(state: State) -> tuple[str, ...]:
    """The public vocabulary of the notation in this game, for "did you mean" (domain/
    suggestions.py): the words, the players' names and the declared names (dice and their
    faces, decks and their cards, tracks), all public."""
    definition = state.definition
    words = [*VERBS, *state.seats, *state.names.values()]
    words += [d.name for d in definition.dice] + [label for d in definition.dice for label in d.labels]
    words += [d.name for d in definition.decks] + [card for d in definition.decks for card in d.cards]
    words += [t.name for t in definition.all_tracks()]
    return tuple(words)


def parse_notation(text: str, state: State) -> Action | Rejection:
    stripped = text.strip()
    head, _, rest = stripped.partition(" ")
    if head.lower() == "note":
        if not rest.strip():
            return _bad("A note needs its text: note <text>.")
        return Note(rest.strip())
    try:
        words = shlex.split(stripped)
    except ValueError as error:
        return _bad(f"The line does not read: {error}.")
    if not words:
        return _bad("Nothing entered.")
    reader = _Words(words[1:], state)
    verb = words[0].lower()
    readers = {
        "roll": _roll,
        "shuffle": _shuffle,
        "draw": _draw,
        "reveal": _reveal,
        "discard": _discard,
        "pass": _pass,
        "score": _score,
        "end": _end,
    }
    read = readers.get(verb)
    if read is None:
        return _bad(
            f"{words[0]!r} is not an action: roll, shuffle, draw, reveal, discard, pass, score, note, end."
        )
    return read(reader)


def _values(reader: _Words) -> tuple[int | str, ...] | None:
    words = reader.left()
    return tuple(v if (v := _int(w)) is not None else w for w in words)


def _roll(reader: _Words) -> Action | Rejection:
    dice = reader.take()
    if dice is None:
        return _bad("Say what is rolled: roll 2d6, or roll <dice set>.")
    if reader.peek() is None:
        return Roll(dice)
    if reader.take() != "=" or not reader.left():
        return _bad("Entered faces follow '=': roll 2d6 = 3 5.")
    return Roll(dice, _values(reader))


def _shuffle(reader: _Words) -> Action | Rejection:
    deck = reader.take()
    if deck is None or reader.left():
        return _bad("Say which deck: shuffle <deck>.")
    return Shuffle(deck)


def _draw(reader: _Words) -> Action | Rejection:
    usage = "Draw reads: draw 2 market to Ann, or draw 1 market to table = Gold."
    first = reader.take()
    if first is None:
        return _bad(usage)
    count = _int(first)
    deck = first if count is None else reader.take()
    if deck is None or (reader.take() or "").lower() != "to":
        return _bad(usage)
    to = reader.seat(table=True)
    if to is None:
        return _bad(f"No seat {reader.peek()!r} to draw to: {usage}")
    draw = Draw(deck, to, 1 if count is None else count)
    if reader.peek() is None:
        return draw
    if reader.take() != "=" or not reader.left():
        return _bad(usage)
    return Draw(draw.deck, draw.to, draw.count, tuple(reader.left()))


def _card_of(reader: _Words, usage: str) -> str | Rejection:
    words = reader.left()
    return " ".join(words) if words else _bad(usage)


def _reveal(reader: _Words) -> Action | Rejection:
    usage = "Reveal reads: reveal Ann Gold."
    seat = reader.seat()
    if seat is None:
        return _bad(usage)
    card = _card_of(reader, usage)
    return card if isinstance(card, Rejection) else Reveal(seat, card)


def _discard(reader: _Words) -> Action | Rejection:
    usage = "Discard reads: discard Ann Gold, or discard table Gold."
    source = reader.seat(table=True)
    if source is None:
        return _bad(usage)
    card = _card_of(reader, usage)
    return card if isinstance(card, Rejection) else Discard(source, card)


def _pass(reader: _Words) -> Action | Rejection:
    usage = "Pass reads: pass Ann Gold to Ben."
    seat = reader.seat()
    words = reader.left()
    lowered = [w.lower() for w in words]
    if seat is None or "to" not in lowered[1:]:
        return _bad(usage)
    at = len(lowered) - 1 - lowered[::-1].index("to")
    card = " ".join(words[:at])
    reader.at += at + 1
    to = reader.seat()
    if not card or to is None or reader.left():
        return _bad(usage)
    return Pass(seat, card, to)


def _score(reader: _Words) -> Action | Rejection:
    usage = "Score reads: score Ann +8, score Ann coins +3, or score <table track> +1."
    seat = reader.seat()
    words = reader.left()
    if seat is None:
        if len(words) != 2 or (delta := _int(words[1])) is None:
            return _bad(usage)
        return Score(delta, None, words[0])
    if len(words) == 1 and (delta := _int(words[0])) is not None:
        return Score(delta, seat)
    if len(words) == 2 and (delta := _int(words[1])) is not None:
        return Score(delta, seat, words[0])
    return _bad(usage)


def _pairs(reader: _Words, what: str) -> dict[str, int] | Rejection:
    out: dict[str, int] = {}
    while reader.peek() is not None and reader.peek() not in ("ranks", "winners", "won", "lost"):
        seat = reader.seat()
        number = reader.take()
        value = None if number is None else _int(number)
        if seat is None or value is None:
            return _bad(f"The {what} read as seat and number pairs: Ann 32 Ben 28.")
        out[seat] = value
    return out


def _end(reader: _Words) -> Action | Rejection:
    usage = "End reads: end turn, end round, end game, or end game with its result."
    what = reader.take()
    lowered = (what or "").lower()
    if lowered in ("turn", "round"):
        if reader.left():
            return _bad(usage)
        return EndTurn() if lowered == "turn" else EndRound()
    if lowered != "game":
        return _bad(usage)
    scores = _pairs(reader, "scores")
    if isinstance(scores, Rejection):
        return scores
    end = EndGame(scores=scores or None)
    word = reader.take()
    if word is None:
        return end
    word = word.lower()
    if word in ("won", "lost"):
        return _bad(usage) if reader.left() else EndGame(end.scores, won=word == "won")
    if word == "ranks":
        ranks = _pairs(reader, "ranks")
        if isinstance(ranks, Rejection):
            return ranks
        return _bad(usage) if reader.left() or not ranks else EndGame(end.scores, ranks=ranks)
    winners: list[str] = []
    while reader.peek() is not None:
        seat = reader.seat()
        if seat is None:
            return _bad(f"No seat {reader.peek()!r} among the winners.")
        winners.append(seat)
    return EndGame(end.scores, winners=tuple(winners))


def _pairs_text(pairs: dict[str, int]) -> str:
    return " ".join(f"{seat} {value}" for seat, value in pairs.items())


def format_action(action: Action) -> str:
    if isinstance(action, Roll):
        values = "" if action.values is None else " = " + " ".join(_q(str(v)) for v in action.values)
        return f"roll {action.dice}{values}"
    if isinstance(action, Shuffle):
        return f"shuffle {action.deck}"
    if isinstance(action, Draw):
        cards = "" if action.cards is None else " = " + " ".join(_q(c) for c in action.cards)
        return f"draw {action.count} {action.deck} to {action.to}{cards}"
    if isinstance(action, Reveal):
        return f"reveal {action.seat} {_q(action.card)}"
    if isinstance(action, Discard):
        return f"discard {action.source} {_q(action.card)}"
    if isinstance(action, Pass):
        return f"pass {action.seat} {_q(action.card)} to {action.to}"
    if isinstance(action, Score):
        if action.seat is None:
            return f"score {action.track} {_signed(action.delta)}"
        track = "" if action.track is None else f" {action.track}"
        return f"score {action.seat}{track} {_signed(action.delta)}"
    if isinstance(action, Note):
        return f"note {action.text}"
    if isinstance(action, EndTurn):
        return "end turn"
    if isinstance(action, EndRound):
        return "end round"
    parts = ["end game"]
    if action.scores:
        parts.append(_pairs_text(action.scores))
    if action.won is not None:
        parts.append("won" if action.won else "lost")
    if action.ranks is not None:
        parts.append(f"ranks {_pairs_text(action.ranks)}")
    if action.winners is not None:
        parts.append(" ".join(["winners", *action.winners]))
    return " ".join(parts)
