"""Prompts and legal actions of `any` (rules.md section 5).

Nobody's turn is enforced: one prompt, for the table, says anyone may act, and it stays open
until the game ends. The legal actions are a finite, useful list, not every action the rules
accept (any score, any entered result):

- for a seat: the declared dice (and 1d6, 2d6 where free dice are allowed; a physical game
  lists each face of a single die and the set's faces all alike, which a template completes),
  a shuffle of each deck, a draw of one card of each deck to the seat and to the table
  (unknown cards in a physical game: which cards the pile still holds is not the seat's to
  know), each card of its hand revealed, discarded or passed, +1 and -1 on each of its tracks
  and the table's, end turn, end round, and end game once every seat has had two turns;
- for the table (the recorder): the same for every seat, and in a physical game a draw of each
  card the pile may still hold to the table and to the seat whose turn it is (the recorder saw
  it drawn), and each such card revealed or discarded from a hand holding unknown cards of
  its deck.
"""

from __future__ import annotations

import msgspec

from domain.games.any.actions import (
    Action,
    Discard,
    Draw,
    EndGame,
    EndRound,
    EndTurn,
    Pass,
    Reveal,
    Roll,
    Score,
    Shuffle,
)
from domain.games.any.definition import DiceSet
from domain.games.any.rules import TABLE, ruled_end
from domain.games.any.state import State
from domain.ruleset import Prompt, Rejection

FREE_LISTED = (DiceSet("1d6", 1, 6), DiceSet("2d6", 2, 6))
OFFER_END_AFTER = 2  # turns each before `end game` is listed
KINDS = (
    "roll",
    "shuffle",
    "draw",
    "reveal",
    "discard",
    "pass",
    "score",
    "note",
    "end_turn",
    "end_round",
    "end_game",
)


def pending(state: State) -> tuple[Prompt, ...]:
    if state.ended is not None:
        return ()
    return (Prompt(None, "act", "Anyone may act: roll, draw, score, note, end the turn or the game.", KINDS),)


def _dice(state: State) -> tuple[DiceSet, ...]:
    definition = state.definition
    return definition.dice + (FREE_LISTED if definition.free_dice else ())


def _rolls(state: State) -> list[Action]:
    out: list[Action] = []
    for dice in _dice(state):
        if state.mode == "digital":
            out.append(Roll(dice.name))
            continue
        faces: list[int | str] = list(dice.labels) if dice.labels else list(range(1, dice.faces + 1))
        if dice.count == 1:
            out += [Roll(dice.name, (face,)) for face in faces]
        else:
            out += [Roll(dice.name, (face,) * dice.count) for face in faces[:6]]
    return out


def _draws(state: State, to: str, recorder: bool) -> list[Action]:
    out: list[Action] = []
    for name, deck in state.decks.items():
        if deck.count < 1:
            continue
        if state.mode == "digital":
            out.append(Draw(name, to))
            continue
        if to != TABLE:
            out.append(Draw(name, to))
        if recorder and to in (TABLE, state.turn_seat()):
            out += [Draw(name, to, 1, (card,)) for card in dict.fromkeys(deck.pile)]
    return out


def _hand(state: State, seat: str, recorder: bool) -> list[Action]:
    hand = state.hands[seat]
    cards = list(dict.fromkeys(hand.cards))
    out: list[Action] = []
    for card in cards:
        out += [Reveal(seat, card), Discard(seat, card)]
        out += [Pass(seat, card, other) for other in state.seats if other != seat]
    if recorder:  # a card the record did not know, named as the table sees it revealed or discarded
        for deck, count in hand.unknown.items():
            named = [c for c in dict.fromkeys(state.decks[deck].pile) if c not in cards] if count else []
            out += [a for card in named for a in (Reveal(seat, card), Discard(seat, card))]
    return out


def _scores(state: State, seat: str | None) -> list[Action]:
    definition = state.definition
    out: list[Action] = []
    tracks = definition.player_tracks() if seat is not None else definition.table_tracks()
    default = definition.default_player_track()
    for track in tracks:
        if track.once and seat in state.filled.get(track.name, ()):
            continue
        value = state.table_tracks[track.name] if seat is None else state.player_tracks[track.name][seat]
        for delta in (1, -1, 0) if track.once else (1, -1):
            total = value + delta
            if (track.min is not None and total < track.min) or (track.max is not None and total > track.max):
                continue
            name = (
                None
                if seat is not None and default is not None and track.name == default.name
                else track.name
            )
            out.append(Score(delta, seat, name))
    return out


def _ends(state: State) -> list[Action]:
    kind = state.definition.ending.kind
    if kind == "cooperative":
        return [EndGame(won=True), EndGame(won=False)]
    if kind == "ranks" or isinstance(ruled_end(state), Rejection):
        return [EndGame(ranks={s: i + 1 for i, s in enumerate(state.seats)})]
    return [EndGame()]


def legal_actions(state: State, seat: str | None) -> tuple[Action, ...]:
    if state.ended is not None:
        return ()
    seats = state.seats if seat is None else (seat,)
    out: list[Action] = _rolls(state)
    out += [Shuffle(name) for name in state.decks]
    for s in seats:
        out += _draws(state, s, seat is None)
    out += _draws(state, TABLE, seat is None)
    for s in seats:
        out += _hand(state, s, seat is None)
    out += [Discard(TABLE, card) for card in dict.fromkeys(state.table)]
    for s in seats:
        out += _scores(state, s)
    out += _scores(state, None)
    out += [EndTurn(), EndRound()]
    # Ending the game is offered once every seat has had two turns (it is accepted at any time).
    ends = _ends(state) if state.turn > OFFER_END_AFTER * len(state.seats) else []
    if seat is not None:
        ends = [e for e in ends if e == EndGame()]
    return tuple(out + ends)


def legal_templates(state: State, seat: str | None) -> tuple[str, ...]:
    """A physical game's rolls of numbered dice: every face of every die (`roll 2d6 = 1..6 1..6`)."""
    if state.ended is not None or state.mode == "digital":
        return ()
    return tuple(
        f"roll {dice.name} = " + " ".join([f"1..{dice.faces}"] * dice.count)
        for dice in _dice(state)
        if not dice.labels and dice.count > 1
    )


def probe_actions(state: State) -> tuple[Action, ...]:
    """Legal actions and their near misses: dice off the die or unknown, draws beyond a deck,
    cards nobody holds, scores beyond a track, results that do not fit the ending."""
    first = state.seats[0]
    out = list(legal_actions(state, None))
    out += [Roll("0d6"), Roll("1d1"), Roll("nodice"), Roll("1d6", (7,)), Roll("2d6", (1,)), Roll("1d6", (0,))]
    out += [Shuffle("nodeck"), Draw("nodeck", first)]
    for name, deck in state.decks.items():
        out += [Draw(name, first, deck.count + 1), Draw(name, TABLE, 0)]
        spec = state.definition.deck(name)
        if spec is not None:
            card = next(iter(spec.cards))
            out += [Reveal(first, card), Discard(TABLE, card), Pass(first, card, first)]
    out += [Score(0, first), Score(1, None, "notrack"), Score(1, first, "notrack")]
    for track in state.definition.all_tracks():
        if track.max is not None:
            out.append(Score(track.max + 1000, None if track.per == "table" else first, track.name))
        if track.min is not None:
            out.append(Score(track.min - 1000, None if track.per == "table" else first, track.name))
    out.append(EndGame(ranks={first: 2}))
    if state.definition.ending.kind != "cooperative":
        out += [EndGame(won=True), EndGame(won=False)]
    unique = {msgspec.json.encode(action): action for action in out}
    return tuple(unique.values())
