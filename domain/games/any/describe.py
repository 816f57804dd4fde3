"""One human line per fact of `any`, in the players' names (the fact as the viewer may see
it: a redacted draw or pass names no card)."""

from __future__ import annotations

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
from domain.games.any.rules import TABLE
from domain.ruleset import GameConfig


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def describe(fact: Fact, config: GameConfig) -> str:
    name = config.seat_name
    if isinstance(fact, DiceRolled):
        faces = ", ".join(fact.shown) if fact.shown else " ".join(map(str, fact.values))
        who = f"{name(fact.seat)} rolls" if fact.seat else "Rolled"
        how = " (entered)" if fact.observed else ""
        return f"{who} {fact.dice}: {faces}{how}."
    if isinstance(fact, DeckShuffled):
        gathered = f", its {_cards(fact.gathered)} of discards gathered in" if fact.gathered else ""
        return f"The {fact.deck} deck is shuffled ({_cards(fact.count)}{gathered})."
    if isinstance(fact, CardsDrawn):
        where = "The table" if fact.to == TABLE else name(fact.to)
        seen = f": {', '.join(fact.cards)}" if fact.cards else ""
        return f"{where} draws {_cards(fact.count)} from the {fact.deck} deck{seen}."
    if isinstance(fact, CardRevealed):
        return f"{name(fact.seat)} reveals {fact.card} and lays it on the table."
    if isinstance(fact, CardDiscarded):
        source = "from the table" if fact.source == TABLE else f"from {name(fact.source)}'s hand"
        return f"{fact.card} is discarded {source} to the {fact.deck} discard pile."
    if isinstance(fact, CardPassed):
        card = fact.card or "a card"
        return f"{name(fact.seat)} passes {card} to {name(fact.to)}."
    if isinstance(fact, Scored):
        owner = f"{name(fact.seat)}'s" if fact.seat else "The table's"
        return f"{owner} {fact.track}: {_signed(fact.delta)}, now {fact.total}."
    if isinstance(fact, Noted):
        return f"Note: {fact.text}"
    if isinstance(fact, TurnEnded):
        return f"{name(fact.seat)}'s turn ends; turn {fact.turn} begins."
    if isinstance(fact, RoundEnded):
        return f"The round ends; round {fact.round} begins."
    assert isinstance(fact, GameEnded)
    if fact.won is not None:
        return f"The game ends: the table {'wins' if fact.won else 'loses'} ({fact.reason})."
    if not fact.winners:
        return f"The game ends with no winner ({fact.reason})."
    winners = " and ".join(name(s) for s in fact.winners)
    scores = ", ".join(f"{name(s)} {v}" for s, v in fact.scores.items())
    return f"The game ends ({fact.reason}): {winners} win{'s' if len(fact.winners) == 1 else ''}; {scores}."
