"""Notation of Dominion (1st-edition base game): short text to record actions at the table.

    play Village            play_card (a Treasure: play_treasure, in the Action phase too,
                            which ends it first; with a Throne Room decision open: its choice)
    play treasure Silver    play_treasure
    play treasures Copper, Copper, Silver    play_treasures ("play all treasures": every one in hand)
    buy Gold                buy_card (a split pile by its id or its top card: "buy Patrician")
    buy Delve               buy_event when Delve is an Event of the game (also "buy event Delve")
    pay 3                   pay_debt (also "pay off 3", "pay debt 3"; 0 declines Capital's offer)
    bid 5                   bid in Mountain Pass ("bid pass" or "pass" passes)
    end                     end_phase
    discard Copper Estate   select_cards (also trash, topdeck, reveal, keep; "select play X",
                            "select gain X" for Throne Room and Thief; "nothing" for none)
    gain Silver             select_pile ("gain nothing" declines an optional gain)
    choose yes              choose (also a bare "yes", "no", "keep", "set_aside", "discard"; "play"
                            answers Vassal)
    topdeck Gold, Silver    select_cards(topdeck): Sentry's cards go back in this order, the
                            last named on top
    react Moat              react ("react nothing" declines; "reveal Moat" while a reaction is asked)
    observe Copper, Gold    observe_cards (the recorder names cards seen; also "draw ...")
    kingdom Cellar, Market, ...; Tax, Arena; obelisk Forum     choose_kingdom (landscapes and
                            Obelisk's pile after semicolons, when the game has them)
    first p2                choose_first_player
    shuffle p2              announce_shuffle: the table says p2 shuffled; checked against the
                            engine's own shuffle (refused if the engine has not shuffled then)
    observe ?, ?, Copper    a card the table did not see is `?` (JSON null), in draws and
                            hidden discards ("discard ?, Estate"); "5 ?" repeats it

Card lists are separated by commas, or by spaces when every name is a known card (multi-word
names such as "Throne Room" or "Salt the Earth" are matched first). Names are matched
case-insensitively, and a plural "Coppers" reads as "Copper". `format_action` writes the comma
form, which reads back to the same action.
"""

from __future__ import annotations

from domain.games.dominion.actions import (
    Action,
    AnnounceShuffle,
    Bid,
    BuyCard,
    BuyEvent,
    Choose,
    ChooseFirstPlayer,
    ChooseKingdom,
    EndPhase,
    ObserveCards,
    PayDebt,
    PlayCard,
    PlayTreasure,
    PlayTreasures,
    React,
    SelectCards,
    SelectPile,
)
from domain.games.dominion.data import DATA
from domain.games.dominion.state import UNSEEN, State
from domain.ruleset import Rejection

SELECT_VERBS = ("trash", "discard", "topdeck", "reveal", "keep")
NOTHING = "nothing"
_KNOWN = (*DATA.cards, *DATA.pile_types, *DATA.landscapes)
_LOWER = {name.lower(): name for name in _KNOWN}
_LONGEST = max(len(name.split()) for name in _KNOWN)


def _name(text: str) -> str:
    key = text.strip().lower()
    if key in _LOWER:
        return _LOWER[key]
    if key.endswith("s") and key[:-1] in _LOWER:
        return _LOWER[key[:-1]]
    return text.strip()


def _cards(text: str) -> tuple[str, ...]:
    text = text.strip()
    if not text or text.lower() == NOTHING:
        return ()
    if "," in text:
        return tuple(_name(part) for part in text.split(",") if part.strip())
    words = text.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i].isdigit() and i + 1 < len(words):
            name, used = _longest(words, i + 1)
            out.extend([name] * int(words[i]))
            i += 1 + used
        else:
            name, used = _longest(words, i)
            out.append(name)
            i += used
    return tuple(out)


def _longest(words: list[str], i: int) -> tuple[str, int]:
    """The longest known name starting at words[i], and how many words it takes."""
    for k in range(min(_LONGEST, len(words) - i), 1, -1):
        name = _name(" ".join(words[i : i + k]))
        if name in _LOWER.values():
            return name, k
    return _name(words[i]), 1


def _list(cards: tuple[str | None, ...]) -> str:
    return ", ".join(UNSEEN if c is None else c for c in cards) if cards else NOTHING


def format_action(action: Action) -> str:
    if isinstance(action, PlayCard):
        # "play Copper" plays a Treasure in any phase; a card that is not an Action asked to be
        # played as one (to be refused) reads "play card Copper".
        return f"play {action.card}" if action.card in DATA.actions else f"play card {action.card}"
    if isinstance(action, PlayTreasure):
        return f"play treasure {action.card}"
    if isinstance(action, PlayTreasures):
        return f"play treasures {_list(action.cards)}"
    if isinstance(action, BuyCard):
        return f"buy {action.pile}"
    if isinstance(action, BuyEvent):
        return f"buy event {action.event}"
    if isinstance(action, PayDebt):
        return f"pay {action.amount}"
    if isinstance(action, Bid):
        return f"bid {'pass' if action.amount is None else action.amount}"
    if isinstance(action, EndPhase):
        return "end"
    if isinstance(action, SelectCards):
        if action.verb in SELECT_VERBS:
            return f"{action.verb} {_list(action.cards)}"
        return f"select {action.verb} {_list(action.cards)}"
    if isinstance(action, Choose):
        return f"choose {action.option}"
    if isinstance(action, SelectPile):
        return f"gain {action.pile or NOTHING}"
    if isinstance(action, React):
        return f"react {action.card or NOTHING}"
    if isinstance(action, ObserveCards):
        return f"observe {_list(action.cards)}"
    if isinstance(action, AnnounceShuffle):
        return f"shuffle {action.seat}"
    if isinstance(action, ChooseKingdom):
        text = f"kingdom {_list(action.piles)}"
        if action.landscapes or action.obelisk:
            text += f"; {', '.join(action.landscapes)}"
        if action.obelisk:
            text += f"; obelisk {action.obelisk}"
        return text
    return f"first {action.seat}"


def _open(state: State, purpose: str) -> bool:
    return any(d.purpose == purpose for d in state.prompts)


def parse_notation(text: str, state: State) -> Action | Rejection:
    words = text.strip().split(None, 1)
    if not words:
        return _bad(text)
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    low = rest.strip().lower()
    if verb == "play":
        if low == "all treasures":
            hand = state.players[state.current].hand if state.players else ()
            return PlayTreasures(tuple(sorted(c for c in hand if c in DATA.treasures)))
        if low.startswith("treasures"):
            return PlayTreasures(_cards(rest.strip()[len("treasures") :]))
        if low.startswith("treasure "):
            return PlayTreasure(_name(rest.strip()[len("treasure ") :]))
        if low.startswith("card "):
            return PlayCard(_name(rest.strip()[len("card ") :]))
        cards = _cards(rest)
        if _open(state, "vassal"):  # "play" (or "play Smithy"): Vassal plays the discarded card
            return Choose("play")
        if _open(state, "throne"):
            return SelectCards("play", cards)
        # A Treasure played in the Action phase ends it first (rules.py); a card that is both
        # (Crown) is an Action there.
        treasures = cards and all(c in DATA.treasures for c in cards)
        if treasures and (state.phase == "buy" or not any(c in DATA.actions for c in cards)):
            return PlayTreasure(cards[0]) if len(cards) == 1 else PlayTreasures(cards)
        if len(cards) == 1:
            return PlayCard(cards[0])
        return _bad(text)
    if verb == "buy" and rest:
        if low.startswith("event "):
            return BuyEvent(_name(rest.strip()[len("event ") :]))
        name = _name(rest)
        return BuyEvent(name) if name in state.events else BuyCard(name)
    if verb == "pay" and rest:
        amount = low.removeprefix("off").removeprefix("debt").strip()
        return PayDebt(int(amount)) if amount.isdigit() else _bad(text)
    if verb == "bid" and rest:
        return Bid(None) if low == "pass" else Bid(int(low)) if low.isdigit() else _bad(text)
    if verb == "pass" and not rest and _open(state, "mountain_pass"):
        return Bid(None)
    if verb in ("end", "end_phase") and low in ("", "phase"):
        return EndPhase()
    if verb in ("yes", "no", "keep", "set_aside", "discard") and not rest:
        return Choose(verb)
    if verb == "reveal" and _open(state, "react"):
        return React(None if low in ("", NOTHING) else _name(rest))
    if verb in SELECT_VERBS:
        return SelectCards(verb, _cards(rest))
    if verb == "select" and rest:
        parts = rest.split(None, 1)
        return SelectCards(parts[0].lower(), _cards(parts[1] if len(parts) > 1 else ""))
    if verb == "gain" and rest:
        if _open(state, "thief_gain"):
            return SelectCards("gain", _cards(rest))
        return SelectPile(None if low == NOTHING else _name(rest))
    if verb == "choose" and rest:
        return Choose(rest.strip().lower().replace(" ", "_"))
    if verb == "react" and rest:
        return React(None if low == NOTHING else _name(rest))
    if verb in ("observe", "draw", "draws") and rest:
        return ObserveCards(_cards(rest))
    if verb == "kingdom" and rest:
        parts = [part.strip() for part in rest.split(";")]
        landscapes = _cards(parts[1]) if len(parts) > 1 else ()
        obelisk = None
        if len(parts) > 2 and parts[2].lower().startswith("obelisk"):
            obelisk = _name(parts[2][len("obelisk") :])
        return ChooseKingdom(_cards(parts[0]), landscapes, obelisk)
    if verb == "first" and rest:
        return ChooseFirstPlayer(rest.strip())
    if verb in ("shuffle", "shuffles") and rest:
        return AnnounceShuffle(rest.strip())
    return _bad(text)


def _bad(text: str) -> Rejection:
    return Rejection(
        "bad_params",
        f"Cannot read {text!r}: try 'play Village', 'buy Gold', 'end', 'discard Copper Estate'.",
        "dominion 4.1",
    )


VERBS = (
    *("play", "treasure", "treasures", "buy", "event", "pay", "bid", "pass", "end", "select", "gain"),
    *("choose", "yes", "no", "react", "observe", "draw", "kingdom", "first", "shuffle", "nothing"),
    *SELECT_VERBS,
)


def notation_words(state: State) -> tuple[str, ...]:
    """The words of the notation, for the suggestion of a misspelt one (domain/suggestions.py):
    the verbs and every card, pile and landscape name Chronicle knows, all public."""
    return (*VERBS, *_KNOWN)
