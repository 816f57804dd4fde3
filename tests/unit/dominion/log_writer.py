"""Writes a game's facts as a Dominion Online log of the 2012-13 format, in the wording of the
real logs in tests/data/dominion-logs (one line per event, "Name - verb cards"), so that
seeded bot games with cards no real log plays can be imported as if a table had logged them.
Only base-set cards are written; Chancellor's and Spy's choices are not."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.games.dominion.events import (
    Bought,
    Discarded,
    Drew,
    Fact,
    Gained,
    GameEnded,
    KingdomChosen,
    Moved,
    Played,
    Reacted,
    Revealed,
    Shuffled,
    Trashed,
    TreasuresPlayed,
    TurnStarted,
)

BASICS = "Copper, Silver, Gold, Estate, Duchy, Province, Curse"
STARTING = ", ".join(["Copper"] * 7 + ["Estate"] * 3)


def _counted(cards: Sequence[str]) -> str:
    return ", ".join(f"{n} {card}" for card, n in Counter(cards).items())


def write_log(facts: Sequence[Fact], names: dict[str, str]) -> str:
    out = ["------------ Game Setup ------------"]
    turns: Counter[str] = Counter()
    current = ""
    for fact in facts:
        name = names.get(getattr(fact, "player", ""), "")
        if isinstance(fact, KingdomChosen):
            out.append(f"Supply cards: {', '.join(fact.piles)}, {BASICS}")
            out.extend(f"{n} - starting cards: {STARTING}" for n in names.values())
        elif isinstance(fact, Shuffled):
            out.append(f"{name} - shuffles deck")
        elif isinstance(fact, Drew) and fact.cards:
            out.append(f"{name} - draws {', '.join(fact.cards)}")
        elif isinstance(fact, TurnStarted):
            turns[name] += 1
            current = name
            out.extend([" ", f"---------- {name}: turn {turns[name]} ----------"])
        elif isinstance(fact, Played):
            out.append(f"{name} - plays {fact.card}")
        elif isinstance(fact, TreasuresPlayed):
            out.append(f"{name} - plays {_counted(fact.cards)}")
        elif isinstance(fact, Bought):
            out.append(f"{name} - buys {fact.card}")
        elif isinstance(fact, Gained):
            out.append(f"{name} - gains {fact.card}")
        elif isinstance(fact, Trashed):
            out.append(f"{current if fact.source == 'aside' else name} - trashes {', '.join(fact.cards)}")
        elif isinstance(fact, Discarded) and fact.cards:
            colon = ":" if fact.source == "aside" else ""
            out.append(f"{name} - discards{colon} {', '.join(fact.cards)}")
        elif isinstance(fact, Moved) and fact.to == "aside":
            out.append(f"{name} - discards {', '.join(fact.cards)}")
        elif isinstance(fact, Moved) and fact.to == "deck":
            out.append(f"{name} - reveals {', '.join(fact.cards)}")
            out.append(f"{name} - places {', '.join(fact.cards)} on top of deck")
        elif isinstance(fact, Moved) and fact.to == "hand":
            out.append(f"{name} - places cards in hand:  {', '.join(fact.cards)}")
        elif isinstance(fact, Revealed) and fact.source == "deck" and fact.to == "aside":
            out.append(f"{name} - reveals: {', '.join(fact.cards)}")
        elif isinstance(fact, Revealed) and fact.source == "hand":
            out.append(f"{name} - reveals {', '.join(fact.cards)}")
        elif isinstance(fact, Reacted) and fact.card:
            out.append(f"{name} - reveals reaction {fact.card}")
        elif isinstance(fact, GameEnded):
            out.extend([" ", "------------ Game Over ------------"])
            for seat, n in names.items():
                out.append(f"{n} - total victory points: {fact.scores[seat]}")
                out.append(f"{n} - turns: {fact.turns[seat]}")
                out.append(" ")
    return "\n".join(out) + "\n"
