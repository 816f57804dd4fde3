"""Turning a Dominion Online log (`onlinelog.GameLog`) into the actions a physical table would
record, one at a time, against the engine's state (pure: no IO; `store.imports` records them).

The log says what happened; the engine asks for what it cannot work out itself. So the planner
is driven by the engine: `next_step(state)` answers the open decision (the recorder's draws,
a player's choice) or, with none open, enters the current player's next turn action; and
`absorb(facts)` ticks off the log lines the engine performed on its own (a Throne Room's second
play, Witch's Curses, a Moneylender's trash, the shuffles, each draw). A log line is ticked off
only by the fact that stands for it, never by the action that caused it, so every line is
accounted for by what the rules derived. Both ways: a line no fact stands for is
`unexplained`, and a shuffle, play, buy, gain or trash of the engine's that no line shows is
`unlogged` (a shuffle the log announces is thereby checked against the engine's).

Lines are matched per player, in each player's order, inside the current turn (the lines
before the next turn header): the log interleaves players in its own order (the opening
draws, an Attack's victims) where the engine takes them in turn order.

Rulings on the log's wording (2012-13 client):
- "plays 3 Copper" during the Action phase ends the Action phase first; "buys" likewise.
- A draw or shuffle line of the current player with no decision open is the Clean-up draw:
  the turn's remaining phases are ended.
- Library's "discards Village" is the card drawn and set aside; its "discards: A, B" at the
  end is the discard of the set-aside cards. Spy's revealed card shows as "discards X" or
  "places X on top of deck" of its owner.
- A Throne Room's second play of a Feast is logged with a second "trashes Feast" that did not
  happen (the Feast is already in the trash): such a line is left unexplained, not entered.

Rulings on today's wording (dominion.games):
- A card the log does not name (`?`) is entered as an unseen card, and ticks off against any
  card the engine names (it may know an unseen card by elimination).
- A draw's cards are sorted and a shuffle is written before the draw it interrupted: the cards
  drawn before the shuffle are those of the draw line the old deck can give.
- A player who resigned ("ada has resigned.", after the last turn) resigns in the game once
  every other line is accounted for.
- Sentry's look is its player's alone (6.5): an opponent's "looks at 2 cards" is entered with
  the names the next lines give ("trashes 2 Estates") and `?` for the rest ("topdecks 2
  cards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from domain.games.dominion.actions import (
    Action,
    BuyCard,
    Choose,
    ChooseFirstPlayer,
    ChooseKingdom,
    EndPhase,
    ObserveCards,
    PlayCard,
    PlayTreasures,
    React,
    SelectCards,
    SelectPile,
)
from domain.games.dominion.data import DATA
from domain.games.dominion.events import (
    Bought,
    Discarded,
    Drew,
    Fact,
    Gained,
    Looked,
    Moved,
    Played,
    Reacted,
    Revealed,
    Shuffled,
    Topdecked,
    Trashed,
    TreasuresPlayed,
    TurnStarted,
)
from domain.games.dominion.onlinelog import FORMAT_2013, UNSEEN, GameLog, Line
from domain.games.dominion.state import RECORDER, Decision, State
from domain.games.dominion.turns import card_vp


class Step(msgspec.Struct, frozen=True):
    """One action to record: `seat` answers for that seat (None: the recorder's own entry);
    `line` is the log line it stands for (None for the table's setup choices)."""

    action: Action
    seat: str | None
    line: Line | None


class Stop(msgspec.Struct, frozen=True):
    """The import cannot go on: `reason` is `finished` (the game is over), `left` (a player
    left the online game: the import records them resigning) or `stuck` (the log does not
    say what the engine asks)."""

    reason: str
    message: str
    line: Line | None = None
    players: tuple[str, ...] = ()  # who left (`left`): the import records them resigning


def unsupported(log: GameLog) -> list[str]:
    """The cards of the log Chronicle does not implement, sorted. Today's format is read for
    the base set alone (both editions): its logs name no kingdom, Events or Landmarks."""
    known = DATA.cards if log.format == FORMAT_2013 else (*DATA.basic, *DATA.base_all)
    return sorted(name for name in log.card_names() if name not in known and name != UNSEEN)


def tallied_scores(log: GameLog) -> dict[str, int]:
    """Each player's VP by the log's own words: the starting cards, plus every card the log
    says the player gained, less every card it says the player trashed, scored (today's logs
    print no final scores). Independent of the engine, so a score it differs from is news."""
    held = {name: Counter(cards) for name, cards in log.starting.items()}
    for line in log.lines:
        if line.kind != "event" or line.player not in held:
            continue
        if line.verb == "gains":
            held[line.player].update(c for c in line.cards if c != UNSEEN)
        elif line.verb == "trashes":
            held[line.player].subtract(c for c in line.cards if c != UNSEEN)
    return {name: card_vp(tuple(cards.elements())) for name, cards in held.items()}


def named_kingdom(log: GameLog) -> tuple[str, ...]:
    """The kingdom piles the log's lines name (sorted): a log of today's format lists no
    kingdom, so a pile nobody bought, gained or played is not among them."""
    return tuple(sorted(name for name in log.card_names() if name in DATA.base_all))


class Planner:
    """Walks the log alongside the engine. `seats` maps each log name to its seat id."""

    def __init__(self, log: GameLog, seats: dict[str, str]) -> None:
        self.log = log
        self.lines = log.lines
        self.seat_of = seats
        self.name_of = {seat: name for name, seat in seats.items()}
        self.left = [list(line.cards) for line in self.lines]  # cards not yet ticked off
        self.done = [False] * len(self.lines)
        self.cursor = 0
        self.unexplained: list[Line] = []
        self.unlogged: list[str] = []  # what the engine did that no log line shows
        self.attacker = ""  # the current player's name (Thief's trash is the attacker's line)
        self.off_turn: Stop | None = None  # a turn the rules give another player than the log

    # --- the window: the undone lines before the next turn header ----------------------------

    def _end(self) -> int:
        i = self.cursor
        while i < len(self.lines) and self.lines[i].kind == "event":
            i += 1
        return i

    def _advance(self) -> None:
        while self.cursor < len(self.lines) and self.done[self.cursor]:
            self.cursor += 1

    def _of(self, name: str) -> list[int]:
        return [
            i for i in range(self.cursor, self._end()) if not self.done[i] and self.lines[i].player == name
        ]

    def _first(self, name: str) -> int | None:
        mine = self._of(name)
        return mine[0] if mine else None

    def _rest(self, i: int) -> tuple[str, ...]:
        return tuple(self.left[i])

    def _tick(self, i: int) -> None:
        self.done[i] = True
        self._advance()

    def current_turn(self) -> int:
        """The log's turn header at or before the cursor (0 in the setup)."""
        for line in reversed(self.lines[: self.cursor + 1]):
            if line.kind == "header":
                return line.turn
        return 0

    def current_line(self) -> Line | None:
        return self.lines[self.cursor] if self.cursor < len(self.lines) else None

    # --- ticking lines off with the engine's facts ------------------------------------------

    def consume(self, name: str, verbs: tuple[str, ...], cards: Sequence[str]) -> bool:
        """Tick off `cards` from the player's next lines with one of these verbs."""
        wanted = Counter(cards)
        for i in self._of(name):
            if self.lines[i].verb == "shuffles" and "shuffles" not in verbs:
                continue  # written before the draw it interrupted; the Shuffled fact ticks it
            if self.lines[i].verb not in verbs:
                break
            rest = self.left[i]
            taken: list[str] = []
            for card in rest:
                if wanted[card] > 0:
                    wanted[card] -= 1
                    taken.append(card)
            # A card the log does not name ("L draws 5 cards.") stands for any card the engine
            # names, such as one the unseen cards' count already told it.
            for card in [c for c in rest if c == UNSEEN][: len(rest) - len(taken)]:
                other = next((c for c in wanted if wanted[c] > 0 and c != UNSEEN), None)
                if other is None:
                    break
                wanted[other] -= 1
                taken.append(card)
            if not taken and rest:
                break
            for card in taken:
                rest.remove(card)
            if not rest:
                self.done[i] = True
            if not +wanted:
                break
        self._advance()
        return not +wanted

    def absorb(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            self._absorb(fact)

    def _absorb(self, fact: Fact) -> None:
        if isinstance(fact, TurnStarted):
            self._turn_started(self.name_of[fact.player])
            return
        if isinstance(fact, Shuffled):
            # A shuffle line carries no card: the first one of the player in this turn, even
            # when the log wrote it before a line of cards the shuffle came in the middle of.
            name = self.name_of[fact.player]
            shuffles = [i for i in self._of(name) if self.lines[i].verb == "shuffles"]
            if shuffles:
                self._tick(shuffles[0])
            else:
                self._unlogged(f"{name} shuffles")
            return
        name = self.name_of.get(getattr(fact, "player", ""), "")
        if isinstance(fact, Played):
            self._must(name, "plays", (fact.card,))
        elif isinstance(fact, TreasuresPlayed):
            self._must(name, "plays", fact.cards)
        elif isinstance(fact, Bought):
            self._must(name, "buys", (fact.card,))
        elif isinstance(fact, Gained):
            self._must(name, "gains", (fact.card,))
        elif isinstance(fact, Trashed):
            if not self.consume(name, ("trashes",), fact.cards):
                self._must(self.attacker or name, "trashes", fact.cards)  # Thief: the attacker's line
        elif isinstance(fact, Drew):
            self.consume(name, ("draws",), fact.cards)
        elif isinstance(fact, Discarded):
            self.consume(name, ("discards",), fact.cards)
        elif isinstance(fact, Moved) and fact.to == "aside":
            self.consume(name, ("discards",), fact.cards)  # Library's set-aside card
        elif isinstance(fact, Moved) and fact.to == "hand":
            self.consume(name, ("takes",), fact.cards)  # Adventurer's Treasures
        elif isinstance(fact, Moved) and fact.to == "deck":
            # Bureaucrat: "reveals Estate" then "places Estate on top of deck"
            self.consume(name, ("reveals",), fact.cards)
            self.consume(name, ("topdecks",), fact.cards)
        elif isinstance(fact, Revealed) and fact.source == "hand":
            self.consume(name, ("reveals",), fact.cards)
        elif isinstance(fact, Reacted) and fact.card:
            self.consume(name, ("reacts",), (fact.card,))
        elif isinstance(fact, Revealed) and fact.to == "aside":
            self.consume(name, ("reveals",), fact.cards)
        elif isinstance(fact, Revealed):
            self.consume(name, ("reveals",), fact.cards)  # Bandit's top two cards
        elif isinstance(fact, Topdecked):
            self.consume(name, ("topdecks",), fact.cards)  # Sentry, Harbinger, Artisan
        elif isinstance(fact, Looked):
            self.consume(name, ("looks",), fact.cards)  # Sentry's look

    def _must(self, name: str, verb: str, cards: Sequence[str]) -> None:
        """Tick off a fact the 2012-13 log always writes, or note that it does not show it."""
        if not self.consume(name, (verb,), cards):
            self._unlogged(f"{name} {verb} {', '.join(cards)}")

    def _unlogged(self, what: str) -> None:
        self.unlogged.append(f"turn {self.current_turn()}: {what}")

    def _turn_started(self, name: str) -> None:
        end = self._end()
        leaving = [i for i in range(self.cursor, end) if not self.done[i] and self.lines[i].verb == "leaves"]
        for i in range(self.cursor, end):
            if not self.done[i] and i not in leaving:
                self.unexplained.append(self.lines[i])
                self.done[i] = True
        if leaving:  # the log's last lines: a player left during or after this turn
            self.cursor = leaving[0]
            return
        self.cursor = end
        header = self.lines[end] if end < len(self.lines) else None
        if header is not None and header.kind == "header":
            if header.player != name:
                self.off_turn = Stop(
                    "stuck",
                    f"The log's next turn is {header.player}'s, but the rules give it to {name}.",
                    header,
                )
            self.done[end] = True
            self.cursor = end + 1
        self._advance()

    # --- what to record next ----------------------------------------------------------------

    def next_step(self, state: State) -> Step | Stop:
        if state.status == "over":
            return Stop("finished", "The game is over.")
        if self.off_turn is not None:
            return self.off_turn
        leaving = self._leaving()
        if leaving is not None:
            return self._left(leaving)
        self.attacker = self.name_of[state.seats[state.current]] if state.status == "playing" else ""
        for d in state.prompts:
            if d.p == RECORDER:
                return self._table(state, d)
        if state.prompts:
            return self._answer(state, state.prompts[0])
        if state.status != "playing":
            return Stop("stuck", "The engine waits for nothing in the setup.")
        return self._turn(state)

    def _table(self, state: State, d: Decision) -> Step | Stop:
        if d.kind == "kingdom":
            return Step(ChooseKingdom(tuple(sorted(self.log.kingdom))), None, None)
        if d.kind == "first_player":
            first = self.log.turn_order[0]
            return Step(ChooseFirstPlayer(self.seat_of[first]), None, None)
        if d.kind != "observe":
            return Stop("stuck", f"The engine asks the table for {d.kind}, which a log cannot say.")
        name = self.name_of[state.seats[d.target]]
        # Today's log writes a shuffle before the draw it interrupted: the cards come from the
        # draw line after it (the engine's own shuffle ticks the shuffle line off).
        i = next((j for j in self._of(name) if self.lines[j].verb != "shuffles"), None)
        if i is None:
            return self._missing(f"the log does not say which card {name} took from the deck next")
        line = self.lines[i]
        rest = self._rest(i)
        if line.verb == "looks" and UNSEEN in rest:
            rest = self._looked(i, rest)
        if line.verb in ("draws", "reveals", "looks") and rest:
            cards = _fitting(rest, state.players[d.target].unknown, d.hi)
            return Step(ObserveCards(_json(cards)), None, line)
        if line.verb in ("discards", "topdecks") and rest:
            return Step(ObserveCards(_json(rest[:1])), None, line)
        return self._missing(f"the engine needs the next card of {name}'s deck; the log says {line.text!r}")

    def _leaving(self) -> Line | None:
        """Today's log writes "ada has resigned." after its last event lines (even after "The
        game has ended."): once every other line of the turn is accounted for, it is next."""
        end = self._end()
        undone = [i for i in range(self.cursor, end) if not self.done[i]]
        if undone and all(self.lines[i].verb == "leaves" for i in undone) and end >= len(self.lines):
            return self.lines[undone[0]]
        return None

    def _looked(self, i: int, rest: tuple[str, ...]) -> tuple[str, ...]:
        """An opponent's "looks at 2 cards" (Sentry): the names its next lines give them ("trashes
        2 Estates", "discards a Province"); a card only topdecked stays unnamed."""
        name = self.lines[i].player
        named: list[str] = []
        for j in self._of(name):
            if j <= i:
                continue
            if self.lines[j].verb not in ("trashes", "discards", "topdecks"):
                break
            named.extend(c for c in self.left[j] if c != UNSEEN)
        known = [c for c in rest if c != UNSEEN]
        filled = [*known, *named[: len(rest) - len(known)]]
        return (*filled, *[UNSEEN] * (len(rest) - len(filled)))

    def _missing(self, message: str) -> Stop:
        if self._at_end() and self.log.left:
            return self._left()
        return Stop("stuck", message[:1].upper() + message[1:] + ".", self.current_line())

    def _at_end(self) -> bool:
        end = self._end()
        return all(self.done[self.cursor : end]) and (
            end >= len(self.lines) or self.lines[end].kind == "over"
        )

    def _left(self, line: Line | None = None) -> Stop:
        """A player left: the 2012-13 log's Game Over section says who ("quit", "resigned"),
        today's log a line of its own ("resigned")."""
        who = (line.player,) if line is not None else self.log.left
        if line is not None:
            self._tick(self.lines.index(line))
        last = self.last_line()
        where = f" after line {last.number}" if last is not None else ""
        return Stop(
            "left",
            f"{', '.join(who)} left the online game{where}: recorded as resigning.",
            last,
            who,
        )

    def last_line(self) -> Line | None:
        """The last event line accounted for."""
        for i in range(min(self.cursor, len(self.lines)) - 1, -1, -1):
            if self.done[i] and self.lines[i].kind == "event":
                return self.lines[i]
        return None

    def _answer(self, state: State, d: Decision) -> Step | Stop:
        seat = state.seats[d.p]
        name = self.name_of[seat]
        i = self._first(name)
        if i is not None and d.source == "Feast" and self.lines[i].verb == "trashes":
            # Throne Room's second Feast: the log repeats a trash that did not happen.
            self.unexplained.append(self.lines[i])
            self._tick(i)
            i = self._first(name)
        line = self.lines[i] if i is not None else None
        rest = self._rest(i) if i is not None else ()
        verb = line.verb if line is not None else ""
        purpose = d.purpose
        action: Action
        if purpose == "react":
            action = React("Moat" if verb == "reacts" and "Moat" in rest else None)
        elif purpose == "throne":
            ok = verb == "plays" and len(rest) == 1 and rest[0] in DATA.actions
            action = SelectCards("play", rest if ok else ())
        elif purpose in ("cellar", "discard", "poacher"):
            action = SelectCards("discard", self._gather(name, "discards", d.hi))
        elif purpose in ("trash", "mine", "remodel", "thief_trash"):
            action = SelectCards("trash", rest[: d.hi] if verb == "trashes" else ())
        elif purpose in ("gain", "gain_hand"):
            action = SelectPile(rest[0] if verb == "gains" and rest else None)
        elif purpose == "thief_gain":
            pool = Counter(d.cards)
            gains = [c for c in self._gather(name, "gains", d.hi) if pool[c] > 0]
            action = SelectCards("gain", tuple(gains))
        elif purpose == "library":
            drawn = state.players[d.p].hand[-1:]
            aside = verb == "discards" and rest[:1] == drawn
            action = Choose("set_aside" if aside else "keep")
        elif purpose == "spy":
            target = self.name_of[state.seats[d.target]]
            j = self._first(target)
            keep = j is not None and self.lines[j].verb == "topdecks"
            if keep and j is not None:
                line = self.lines[j]
                self._tick(j)  # the card stays where it is: no fact stands for this line
            action = Choose("keep" if keep else "discard")
        elif purpose == "topdeck":
            action = SelectCards("topdeck", rest[:1] if verb in ("topdecks", "reveals") else ())
        elif purpose == "moneylender":  # 2nd edition: "you may trash a Copper"
            action = Choose("yes" if verb == "trashes" and "Copper" in rest else "no")
        elif purpose == "artisan_gain":
            action = SelectPile(rest[0] if verb == "gains" and rest else None)
        elif purpose in ("artisan", "harbinger", "sentry_topdeck"):
            topdecked = rest[: d.hi] if verb == "topdecks" else ()
            action = SelectCards("topdeck", _json(topdecked))
        elif purpose in ("bandit", "sentry_trash"):
            action = SelectCards("trash", rest[: d.hi] if verb == "trashes" else ())
        elif purpose == "sentry_discard":
            action = SelectCards("discard", rest[: d.hi] if verb == "discards" else ())
        elif purpose == "vassal":
            # The discarded Action is played when the player's next line plays it.
            card = d.cards[0] if d.cards else state.players[d.p].discard[-1]
            action = Choose("play" if verb == "plays" and rest[:1] == (card,) else "no")
        elif purpose == "chancellor":
            action = Choose("no")  # the 2012-13 log never shows the deck put into the discard pile
        else:
            return Stop(
                "stuck", f"Importing a log cannot answer {d.source or purpose} ({purpose}) yet.", line
            )
        return Step(action, seat, line)

    def _gather(self, name: str, verb: str, most: int) -> tuple[str, ...]:
        """Up to `most` cards from the player's next lines with this verb."""
        out: list[str] = []
        for i in self._of(name):
            if self.lines[i].verb != verb or len(out) >= most:
                break
            out.extend(self._rest(i)[: most - len(out)])
        return tuple(out)

    def _turn(self, state: State) -> Step | Stop:
        name = self.name_of[state.seats[state.current]]
        while True:
            i = self._first(name)
            if i is None:
                if self._at_end() and self.log.left:
                    return self._left()
                return Step(EndPhase(), state.seats[state.current], self.current_line())
            line = self.lines[i]
            cards = self._rest(i)
            seat = state.seats[state.current]
            if line.verb == "plays" and cards:
                if all(c in DATA.treasures for c in cards):
                    if state.phase == "action":
                        return Step(EndPhase(), seat, line)
                    return Step(PlayTreasures(cards), seat, line)
                if state.phase == "action" and len(cards) == 1:
                    return Step(PlayCard(cards[0]), seat, line)
            elif line.verb == "buys" and cards:
                if state.phase == "action":
                    return Step(EndPhase(), seat, line)
                return Step(BuyCard(cards[0]), seat, line)
            elif line.verb in ("draws", "shuffles"):
                return Step(EndPhase(), seat, line)
            elif line.verb == "leaves":
                return self._left(line)
            # A line no action stands for (a log's repeated trash): set it apart and go on.
            self.unexplained.append(line)
            self._tick(i)


def _json(cards: Sequence[str]) -> tuple[str | None, ...]:
    """Cards as an action carries them: `None` for a card the log does not name."""
    return tuple(None if c == UNSEEN else c for c in cards)


def _fitting(cards: Sequence[str], unknown: Sequence[str], most: int) -> tuple[str, ...]:
    """Up to `most` of a draw line's cards that the deck's unseen part can give. Today's log
    sorts a draw's cards and writes the shuffle before the draw it interrupted, so the cards
    drawn before the shuffle are the ones the old deck holds."""
    most = max(most, 1)
    if len(cards) <= most or UNSEEN in unknown:
        return tuple(cards[:most])
    left = Counter(unknown)
    out: list[str] = []
    for card in cards:
        if len(out) < most and left[card] > 0:
            left[card] -= 1
            out.append(card)
    return tuple(out) or tuple(cards[:most])
