"""`decide` and friends for `any`: what the table declared is all the rules there are
(rules.md). Every check cites the section of rules.md it rests on.

Rulings:

- Who may record (section 5): a seat's token records for its own seat or the table (its rolls,
  shuffles, draws to itself or the table, its hand's reveals, discards and passes, its own and
  the table's tracks, notes, `end turn`, `end round` and a plain `end game`); the recorder
  records anything, entered results included.
- A digital game draws every die, shuffle and draw itself: values or cards entered are refused.
  A physical game enters them: dice values are required, a draw's cards may stay unknown
  except to the table (face up, so seen).
- A deck is shuffled at setup in a digital game (stream `deck:<name>`, n 0). A shuffle gathers
  the deck's discard pile into it first; a draw never reshuffles by itself, so drawing more
  than the pile holds is refused.
- A revealed card goes face up on the table; from there it may be discarded.
- A score moving a track outside its bounds is refused; in a cooperative game, reaching the
  loss track's maximum ends the game lost at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.games.any import ending
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
from domain.games.any.definition import FREE, FREE_COUNT, FREE_FACES, Definition, DiceSet, load_definition
from domain.games.any.events import (
    CardDiscarded,
    CardPassed,
    CardRevealed,
    CardsDrawn,
    DeckShuffled,
    DiceRolled,
    Fact,
    GameEnded,
    Noted,
    RoundEnded,
    Scored,
    TurnEnded,
)
from domain.games.any.fold import canonical, evolve
from domain.games.any.options import valid_date
from domain.games.any.state import DeckState, Hand, State
from domain.rng import Rng
from domain.ruleset import Command, GameConfig, Outcome, Rejection

SPEC = "any"
MAX_NOTE = 500
TABLE = "table"


def reject(code: str, message: str, section: str) -> Rejection:
    return Rejection(code, message, f"{SPEC} {section}")


def definition_of(config: GameConfig) -> Definition:
    """The game's definition; an unreadable one (refused at creation) reads as the empty one."""
    found = load_definition(str(config.options.get("definition", "")))
    return Definition() if isinstance(found, Rejection) else found


def check_config(config: GameConfig) -> Rejection | None:
    options = config.options
    if not str(options.get("title", "")).strip():
        return reject("title_required", "A game of any kind needs its title: name the game played.", "1")
    found = load_definition(str(options.get("definition", "")))
    if isinstance(found, Rejection):
        return found
    played_on = str(options.get("played_on", ""))
    if played_on and not valid_date(played_on):
        return reject("bad_date", f"played_on takes a date written YYYY-MM-DD, not {played_on!r}.", "1")
    return None


def initial(config: GameConfig) -> State:
    definition = definition_of(config)
    seats = config.seat_ids()
    return State(
        mode=config.mode,
        seats=seats,
        names={s.id: s.name for s in config.seats},
        title=str(config.options.get("title", "")),
        definition=definition,
        decks={d.name: DeckState(d.canonical()) for d in definition.decks},
        hands={s: Hand() for s in seats},
        player_tracks={t.name: dict.fromkeys(seats, t.start) for t in definition.player_tracks()},
        table_tracks={t.name: t.start for t in definition.table_tracks()},
    )


def setup(config: GameConfig, state: State, rng: Rng) -> Sequence[Fact]:
    """A digital game shuffles every deck before the first action (records 4)."""
    if config.mode != "digital":
        return ()
    facts: list[Fact] = []
    for name, deck in state.decks.items():
        stream = f"deck:{name}"
        order = rng.shuffle(stream, state.counter(stream), deck.pile)
        facts.append(DeckShuffled(name, len(order), order, 0, stream, state.counter(stream)))
    return tuple(facts)


def _seat(state: State, given: str) -> str | None:
    return given if given in state.seats else None


def _allowed(command: Command, *seats: str | None) -> Rejection | None:
    """A seat's token acts for its own seat and the table only (section 5)."""
    if command.by != "seat":
        return None
    for seat in seats:
        if seat is not None and seat != TABLE and seat != command.seat:
            return reject(
                "not_your_seat", f"Seat {command.seat} records its own actions, not seat {seat}'s.", "5"
            )
    return None


def _recorder_only(command: Command, what: str) -> Rejection | None:
    if command.by == "seat":
        return reject("recorder_only", f"Only the recorder enters {what}.", "5")
    return None


# -- dice ---------------------------------------------------------------------------------------


def dice_of(definition: Definition, text: str) -> DiceSet | Rejection:
    """The dice `text` names: a declared set, or free dice `NdM` where they are allowed."""
    declared = definition.dice_set(text)
    if declared is not None:
        return declared
    free = FREE.fullmatch(text)
    if free is None:
        return reject("unknown_dice", f"No dice named {text!r}: roll a declared set or NdM.", "3.1")
    if not definition.free_dice:
        return reject("free_dice_off", f"This game rolls only its declared dice, not {text}.", "3.1")
    count, faces = int(free.group(1) or 1), int(free.group(2))
    if not (FREE_COUNT[0] <= count <= FREE_COUNT[1] and FREE_FACES[0] <= faces <= FREE_FACES[1]):
        return reject("bad_dice", f"Free dice are 1 to 100 dice of 2 to 1000 faces, not {text}.", "3.1")
    return DiceSet(f"{count}d{faces}", count, faces)


def _face(dice: DiceSet, value: int | str) -> int | None:
    """The face (1..faces) an entered value names, or None when the die has no such face."""
    if dice.labels:
        text = str(value).lower()
        return next((i + 1 for i, label in enumerate(dice.labels) if label.lower() == text), None)
    if isinstance(value, str):
        if not value.strip().isdigit():
            return None
        value = int(value)
    return value if 1 <= value <= dice.faces else None


def _roll(state: State, action: Roll, command: Command, rng: Rng) -> list[Fact] | Rejection:
    dice = dice_of(state.definition, action.dice)
    if isinstance(dice, Rejection):
        return dice
    shown_as = dice.name
    if state.mode == "digital":
        if action.values is not None:
            return reject(
                "entered_in_digital", "A digital game rolls its own dice: roll without values.", "3.1"
            )
        n = state.counter("dice")
        values = rng.roll("dice", n, dice.faces, dice.count)
        labels = tuple(dice.labels[v - 1] for v in values) if dice.labels else ()
        return [DiceRolled(shown_as, dice.faces, values, labels, command.seat, "dice", n)]
    if action.values is None:
        return reject("values_required", f"Enter the faces the table rolled: roll {shown_as} = ...", "3.1")
    if len(action.values) != dice.count:
        return reject(
            "wrong_count",
            f"{shown_as} is {dice.count} dice, and {len(action.values)} values were entered.",
            "3.1",
        )
    faces = []
    for value in action.values:
        face = _face(dice, value)
        if face is None:
            return reject("off_the_die", f"{value} is not a face of {shown_as}.", "3.1")
        faces.append(face)
    labels = tuple(dice.labels[v - 1] for v in faces) if dice.labels else ()
    return [DiceRolled(shown_as, dice.faces, tuple(faces), labels, command.seat, observed=True)]


# -- decks --------------------------------------------------------------------------------------


def _deck(state: State, name: str) -> tuple[str, DeckState] | Rejection:
    spec = state.definition.deck(name)
    if spec is None:
        return reject("unknown_deck", f"No deck named {name!r} in this game.", "3.2")
    return spec.name, state.decks[spec.name]


def _shuffle(state: State, action: Shuffle, rng: Rng) -> list[Fact] | Rejection:
    found = _deck(state, action.deck)
    if isinstance(found, Rejection):
        return found
    name, deck = found
    items = canonical(deck.pile + deck.discard)
    if state.mode != "digital":
        return [DeckShuffled(name, deck.count + len(deck.discard), (), len(deck.discard), observed=True)]
    stream = f"deck:{name}"
    n = state.counter(stream)
    order = rng.shuffle(stream, n, items)
    return [DeckShuffled(name, len(order), order, len(deck.discard), stream, n)]


def _holds(pile: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    left = list(pile)
    for card in cards:
        if card not in left:
            return False
        left.remove(card)
    return True


def _draw(state: State, action: Draw, command: Command) -> list[Fact] | Rejection:
    found = _deck(state, action.deck)
    if isinstance(found, Rejection):
        return found
    name, deck = found
    to = TABLE if action.to.lower() == TABLE else _seat(state, action.to)
    if to is None:
        return reject("unknown_seat", f"No seat {action.to!r} to draw to.", "3.2")
    refused = _allowed(command, to)
    if refused is not None:
        return refused
    if action.count < 1:
        return reject("bad_count", "A draw takes at least one card.", "3.2")
    if action.count > deck.count:
        held = f"{deck.count} card{'s' if deck.count != 1 else ''}"
        return reject("deck_short", f"The {name} deck holds {held}: shuffle it or draw fewer.", "3.2")
    if state.mode == "digital":
        if action.cards is not None:
            return reject(
                "entered_in_digital", "A digital game draws its own cards: draw without cards.", "3.2"
            )
        return [CardsDrawn(name, to, action.count, deck.pile[: action.count])]
    if action.cards is None:
        if to == TABLE:
            return reject("cards_required", "Cards drawn face up are seen: enter them (= ...).", "3.2")
        return [CardsDrawn(name, to, action.count, (), unknown=True)]
    if len(action.cards) != action.count:
        return reject("wrong_count", f"{action.count} cards drawn, {len(action.cards)} entered.", "3.2")
    spec = state.definition.deck(name)
    assert spec is not None
    cards = []
    for text in action.cards:
        card = state.definition.card_named(text)
        if card is None or card not in spec.cards:
            return reject("not_in_deck", f"{text!r} is not a card of the {name} deck.", "3.2")
        cards.append(card)
    if not _holds(deck.pile, tuple(cards)):
        return reject("card_gone", f"The {name} deck no longer holds {', '.join(cards)}.", "3.2")
    return [CardsDrawn(name, to, action.count, tuple(cards))]


def in_hand(state: State, seat: str, text: str) -> tuple[str, str] | None:
    """(card, deck) when `seat`'s hand holds the card `text` names: a known card, or in a
    physical game one of its unknown cards of that deck while the pile may still hold it."""
    card = state.definition.card_named(text)
    if card is None:
        return None
    spec = state.definition.deck_of(card)
    assert spec is not None
    hand = state.hands[seat]
    if card in hand.cards:
        return card, spec.name
    if hand.unknown.get(spec.name, 0) > 0 and card in state.decks[spec.name].pile:
        return card, spec.name
    return None


def _from_hand(
    state: State, seat_text: str, card_text: str, command: Command
) -> tuple[str, str, str] | Rejection:
    seat = _seat(state, seat_text)
    if seat is None:
        return reject("unknown_seat", f"No seat {seat_text!r}.", "3.3")
    refused = _allowed(command, seat)
    if refused is not None:
        return refused
    held = in_hand(state, seat, card_text)
    if held is None:
        return reject("not_in_hand", f"Seat {seat} holds no {card_text}.", "3.3")
    return seat, *held


def _reveal(state: State, action: Reveal, command: Command) -> list[Fact] | Rejection:
    found = _from_hand(state, action.seat, action.card, command)
    if isinstance(found, Rejection):
        return found
    return [CardRevealed(*found)]


def _discard(state: State, action: Discard, command: Command) -> list[Fact] | Rejection:
    if action.source.lower() == TABLE:
        card = state.definition.card_named(action.card)
        if card is None or card not in state.table:
            return reject("not_on_table", f"No {action.card} lies on the table.", "3.3")
        spec = state.definition.deck_of(card)
        assert spec is not None
        return [CardDiscarded(TABLE, card, spec.name)]
    found = _from_hand(state, action.source, action.card, command)
    if isinstance(found, Rejection):
        return found
    return [CardDiscarded(*found)]


def _pass(state: State, action: Pass, command: Command) -> list[Fact] | Rejection:
    found = _from_hand(state, action.seat, action.card, command)
    if isinstance(found, Rejection):
        return found
    seat, card, deck = found
    to = _seat(state, action.to)
    if to is None:
        return reject("unknown_seat", f"No seat {action.to!r} to pass to.", "3.3")
    if to == seat:
        return reject("same_seat", "A card is passed to another seat.", "3.3")
    return [CardPassed(seat, to, card, deck)]


# -- tracks -------------------------------------------------------------------------------------


def _score(state: State, action: Score, command: Command) -> list[Fact] | Rejection:
    definition = state.definition
    if action.seat is None:
        track = definition.track(action.track or "")
        if track is None or track.per != "table":
            return reject("unknown_track", f"No table track named {action.track!r}.", "3.4")
        total = state.table_tracks[track.name] + action.delta
        seat: str | None = None
    else:
        seat = _seat(state, action.seat)
        if seat is None:
            return reject("unknown_seat", f"No seat {action.seat!r}.", "3.4")
        refused = _allowed(command, seat)
        if refused is not None:
            return refused
        track = definition.default_player_track() if action.track is None else definition.track(action.track)
        if track is None or track.per != "player":
            return reject("unknown_track", f"No per-player track named {action.track!r}.", "3.4")
        if seat in state.filled.get(track.name, ()):
            name = state.names.get(seat, seat)
            return reject(
                "row_scored", f"{name} has scored the {track.name} row already: a row is scored once.", "3.4"
            )
        total = state.player_tracks[track.name][seat] + action.delta
    if action.delta == 0 and not track.once:  # 0 crosses a row out; it moves no track
        return reject("nothing_scored", "A score moves a track by a number other than 0.", "3.4")
    if (track.min is not None and total < track.min) or (track.max is not None and total > track.max):
        bounds = (
            f"{track.min if track.min is not None else '-'} to {track.max if track.max is not None else '-'}"
        )
        return reject("beyond_track", f"The {track.name} track runs {bounds}; {total} lies beyond it.", "3.4")
    facts: list[Fact] = [Scored(track.name, action.delta, total, seat)]
    loss = definition.loss_track()
    if loss is not None and seat is None and track.name == loss.name and total == loss.max:
        scores = ending.track_scores(definition, state.seats, state.player_tracks)
        facts.append(
            GameEnded(
                scores,
                dict.fromkeys(state.seats, 1),
                (),
                f"the {track.name} track reached {total}",
                won=False,
            )
        )
    return facts


# -- the end ------------------------------------------------------------------------------------


def ruled_end(state: State) -> GameEnded | Rejection:
    """The end the ending rule decides from the tracks (`end game` with nothing entered)."""
    definition = state.definition
    kind = definition.ending.kind
    if kind == "ranks":
        return reject("ranks_required", "This game ends on ranks the table enters: end game ranks ...", "6.3")
    if kind == "cooperative":
        return reject("result_required", "Say how the game ended: end game won, or end game lost.", "6.4")
    scores = ending.track_scores(definition, state.seats, state.player_tracks)
    tiebreak_name = definition.ending.tiebreak
    second = None
    if tiebreak_name not in ("shared", "entered"):
        second = state.player_tracks.get(tiebreak_name, {})
    ranks = ending.ranked(definition, scores, second)
    if tiebreak_name == "entered" and len(set(ranks.values())) != len(ranks):
        return reject("tie_to_break", "Players are tied: enter the ranks (end game ranks ...).", "6.2")
    track = definition.score_track()
    reason = f"the {track.name if track else 'score'} track decides"
    return GameEnded(scores, ranks, ending.winners_of(ranks, state.seats), reason)


def _keyed(state: State, given: dict[str, int], what: str) -> dict[str, int] | Rejection:
    out = {}
    for key, value in given.items():
        seat = _seat(state, key)
        if seat is None:
            return reject("unknown_seat", f"No seat {key!r} in the {what}.", "6.5")
        out[seat] = value
    if set(out) != set(state.seats):
        missing = ", ".join(s for s in state.seats if s not in out)
        return reject("incomplete_result", f"The {what} name every seat; missing: {missing}.", "6.5")
    return out


def entered_end(state: State, action: EndGame) -> GameEnded | Rejection:
    """The end as the table entered it (section 6.5)."""
    definition = state.definition
    seats = state.seats
    cooperative = definition.ending.kind == "cooperative"
    scores = ending.track_scores(definition, seats, state.player_tracks)
    if action.scores is not None:
        keyed = _keyed(state, action.scores, "scores")
        if isinstance(keyed, Rejection):
            return keyed
        scores = keyed
    if action.winners is not None and action.ranks is not None:
        return reject("mixed_results", "Enter the ranks or the winners, not both.", "6.5")
    winners: tuple[str, ...] | None = None
    if action.winners is not None:
        unknown = [w for w in action.winners if _seat(state, w) is None]
        if unknown:
            return reject("unknown_seat", f"No seat {unknown[0]!r} among the winners.", "6.5")
        winners = tuple(s for s in seats if s in action.winners)
    won = action.won
    if cooperative:
        if action.ranks is not None:
            return reject("cooperative_result", "A cooperative game is won or lost by everyone.", "6.4")
        if winners is not None:
            if winners not in ((), seats):
                return reject("cooperative_result", "A cooperative game is won or lost by everyone.", "6.4")
            if won is not None and won != bool(winners):
                return reject("cooperative_result", "The winners and the result disagree.", "6.4")
            won = bool(winners)
        if won is None:
            return reject("result_required", "Say how the game ended: end game won, or end game lost.", "6.4")
        ranks = dict.fromkeys(seats, 1)
        return GameEnded(scores, ranks, seats if won else (), "won" if won else "lost", won=won, entered=True)
    if won is not None:
        return reject("not_cooperative", "Only a cooperative game is won or lost together.", "6.4")
    if action.ranks is not None:
        keyed = _keyed(state, action.ranks, "ranks")
        if isinstance(keyed, Rejection):
            return keyed
        if any(not 1 <= r <= len(seats) for r in keyed.values()) or 1 not in keyed.values():
            return reject("bad_ranks", f"Ranks run from 1 to {len(seats)}, and someone ranks 1.", "6.5")
        return GameEnded(scores, keyed, ending.winners_of(keyed, seats), "ranks entered", entered=True)
    if winners is not None:
        if not winners:
            return GameEnded(scores, dict.fromkeys(seats, 1), (), "nobody won", entered=True)
        basis = scores if action.scores is not None else {}
        ranks = ending.ranks_after_winners(definition, basis, winners, seats)
        return GameEnded(scores, ranks, winners, "winners entered", entered=True)
    if action.scores is None:
        return ruled_end(state)
    ranks = ending.ranked(definition, scores)
    return GameEnded(scores, ranks, ending.winners_of(ranks, seats), "final scores entered", entered=True)


def _end_game(state: State, action: EndGame, command: Command) -> list[Fact] | Rejection:
    plain = action == EndGame()
    if not plain:
        refused = _recorder_only(command, "a game's result")
        if refused is not None:
            return refused
    found = ruled_end(state) if plain else entered_end(state, action)
    return found if isinstance(found, Rejection) else [found]


# -- decide -------------------------------------------------------------------------------------


def decide_state(state: State, command: Command, rng: Rng) -> tuple[Sequence[Fact], State] | Rejection:
    """The facts of one action and the state they lead to (`decide` is its facts)."""
    facts = _decide(state, command, rng)
    if isinstance(facts, Rejection):
        return facts
    for fact in facts:
        state = evolve(state, fact)
    return facts, state


def _decide(state: State, command: Command, rng: Rng) -> Sequence[Fact] | Rejection:
    if state.ended is not None:
        return reject("game_over", "The game has ended.", "6")
    if command.by == "seat" and command.seat not in state.seats:
        return reject("unknown_seat", f"No seat {command.seat!r} in this game.", "5")
    action: Action = command.action
    if isinstance(action, Roll):
        return _roll(state, action, command, rng)
    if isinstance(action, Shuffle):
        return _shuffle(state, action, rng)
    if isinstance(action, Draw):
        return _draw(state, action, command)
    if isinstance(action, Reveal):
        return _reveal(state, action, command)
    if isinstance(action, Discard):
        return _discard(state, action, command)
    if isinstance(action, Pass):
        return _pass(state, action, command)
    if isinstance(action, Score):
        return _score(state, action, command)
    if isinstance(action, Note):
        text = action.text.strip()
        if not text or len(text) > MAX_NOTE:
            return reject("bad_note", f"A note holds 1 to {MAX_NOTE} characters.", "3.5")
        return [Noted(text, command.seat)]
    if isinstance(action, EndTurn):
        return [TurnEnded(state.turn_seat(), state.turn + 1)]
    if isinstance(action, EndRound):
        return [RoundEnded(state.round + 1)]
    return _end_game(state, action, command)


# -- reading ------------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    end = state.ended
    if end is None:
        return None
    details: dict[str, Any] = {"entered": end.entered}
    if end.won is not None:
        details["won"] = end.won
    return Outcome(dict(end.scores), dict(end.ranks), end.winners, details, end.reason)


def progress(state: State) -> tuple[int, str | None]:
    return state.turn, state.turn_seat()


def rounds(state: State) -> int:
    return state.round
