"""Log lines of Dominion (1st-edition base game and Empires), one per fact, in the style of the
familiar online logs ("Ann plays a Village.", "Ann draws 2 cards.", "Ann buys a City Quarter and
takes 8 debt.", "Ann pays off 3 debt."). Facts arrive redacted for the reader: a draw whose
cards are hidden reads as a count.
"""

from __future__ import annotations

from collections import Counter

from domain.games.dominion import events as ev
from domain.ruleset import GameConfig

VOWELS = "AEIOU"
TABLE_ASKS = {"observe": "{whose} next card", "kingdom": "the kingdom", "first_player": "the first player"}


def article(card: str) -> str:
    return f"an {card}" if card[0] in VOWELS else f"a {card}"


def plural(card: str, n: int) -> str:
    if card == "?":
        return "an unseen card" if n == 1 else f"{n} unseen cards"
    if n == 1:
        return article(card)
    word = card[:-1] + "ies" if card.endswith("y") and card[-2] not in "aeiou" else card + "s"
    return f"{n} {word}"


def cards_text(cards: tuple[str, ...]) -> str:
    if not cards:
        return "nothing"
    counts = Counter(cards)
    parts = [plural(card, n) for card, n in counts.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def count_text(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _shown(cards: tuple[str, ...], count: int) -> str:
    return cards_text(cards) if cards else count_text(count)


def _tokens(fact: ev.Tokens, who: str) -> str:
    """ "Ann takes 2 VP from Basilica.", "Ann gets +1 VP (Temple).", "Ann takes 6 debt (Capital)."."""
    where = fact.landmark or (f"the {fact.pile} pile" if fact.pile else "")
    parts = []
    if fact.vp:
        if where and (fact.landmark_vp < 0 or fact.pile_vp < 0):
            parts.append(f"takes {fact.vp} VP from {where}")
        else:
            parts.append(f"gets {fact.vp:+d} VP")
    if fact.debt:
        if fact.pile_debt < 0:
            parts.append(f"takes {fact.debt} debt from the {fact.pile} pile")
        else:
            parts.append(f"takes {fact.debt} debt")
    if who and parts:
        return f"{who} {' and '.join(parts)} ({fact.source})."
    moves = []
    if fact.pile_vp:
        moves.append(f"the {fact.pile} pile {fact.pile_vp:+d} VP")
    if fact.landmark_vp:
        moves.append(f"{fact.landmark} {fact.landmark_vp:+d} VP")
    if fact.pile_debt:
        moves.append(f"the {fact.pile} pile {fact.pile_debt:+d} debt")
    return f"{fact.source}: {', '.join(moves) or 'no change'}."


def describe(fact: ev.Fact, config: GameConfig) -> str:
    name = config.seat_name
    if isinstance(fact, ev.KingdomChosen):
        extra = "".join(
            f"; {kind}: {', '.join(names)}"
            for kind, names in (("Events", fact.events), ("Landmarks", fact.landmarks))
            if names
        )
        return f"The kingdom ({fact.method}): {', '.join(fact.piles)}{extra}."
    if isinstance(fact, ev.SupplyBuilt):
        return "The Supply is laid out: " + ", ".join(f"{k} {v}" for k, v in fact.piles.items()) + "."
    if isinstance(fact, ev.FirstPlayerChosen):
        return f"{name(fact.player)} plays first."
    if isinstance(fact, ev.Dealt):
        return f"{name(fact.player)} takes {cards_text(fact.cards)}."
    if isinstance(fact, ev.Shuffled):
        return f"{name(fact.player)} shuffles {count_text(fact.count)}."
    if isinstance(fact, ev.Observed):
        seen = f": {cards_text(fact.cards)}" if fact.cards else ""
        next_cards = "next card" if fact.count == 1 else f"next {count_text(fact.count)}"
        return f"The table sees {name(fact.player)}'s {next_cards}{seen}."
    if isinstance(fact, ev.AutoResolved):
        who = name(fact.player) if fact.player else "The table"
        what = fact.source or fact.decision.replace("_", " ")
        return f"{who} has one possible answer ({what}): the engine gives it."
    if isinstance(fact, ev.ShuffleAnnounced):
        return f"The table says {name(fact.player)} shuffled, as the engine did."
    if isinstance(fact, ev.Identified):
        where = "hand" if fact.zone == "hand" else "deck" if fact.zone in ("deck", "unknown") else "cards"
        return f"The table sees {_shown(fact.cards, fact.count)} among {name(fact.player)}'s unseen {where}."
    if isinstance(fact, ev.Drew):
        return f"{name(fact.player)} draws {_shown(fact.cards, fact.count)}."
    if isinstance(fact, ev.TurnStarted):
        return f"Turn {fact.turn}: {name(fact.player)}."
    if isinstance(fact, ev.PhaseChanged):
        return f"{name(fact.player)} goes to the {fact.phase.capitalize()} phase."
    if isinstance(fact, ev.Played):
        again = " again" if fact.again else ""
        where = " from their discard pile" if fact.source == "discard" else ""
        return f"{name(fact.player)} plays {article(fact.card)}{where}{again}."
    if isinstance(fact, ev.TreasuresPlayed):
        return f"{name(fact.player)} plays {cards_text(fact.cards)} (+${fact.coins})."
    if isinstance(fact, ev.Plus):
        parts = []
        if fact.actions:
            parts.append(f"+{fact.actions} Action{'s' if fact.actions != 1 else ''}")
        if fact.buys:
            parts.append(f"+{fact.buys} Buy{'s' if fact.buys != 1 else ''}")
        if fact.coins:
            parts.append(f"+${fact.coins}")
        if fact.charms < 0:
            return f"{name(fact.player)} uses up {plural('waiting Charm', -fact.charms)}."
        if fact.charms:
            parts.append("an extra gain to come")
        if fact.doubled:
            parts.append("the turn's doubling")
        if fact.merchants > 0:
            parts.append("+$1 on the first Silver to come")
        return f"{name(fact.player)} gets {', '.join(parts) or 'nothing'} ({fact.source})."
    if isinstance(fact, ev.Bought):
        debt = f" and takes {fact.debt} debt" if fact.debt else ""
        return f"{name(fact.player)} buys {article(fact.card)}{debt}."
    if isinstance(fact, ev.EventBought):
        debt = f" and takes {fact.debt} debt" if fact.debt else ""
        return f"{name(fact.player)} buys the Event {fact.event}{debt}."
    if isinstance(fact, ev.Topdecked):
        source = {"discard": " from their discard pile", "looking": " back"}.get(fact.source, "")
        return f"{name(fact.player)} puts {_shown(fact.cards, fact.count)}{source} onto their deck."
    if isinstance(fact, ev.Looked):
        return f"{name(fact.player)} looks at {_shown(fact.cards, fact.count)} from their deck."
    if isinstance(fact, ev.DebtPaid):
        return f"{name(fact.player)} pays off {fact.amount} debt."
    if isinstance(fact, ev.Tokens):
        return _tokens(fact, name(fact.player) if fact.player else "")
    if isinstance(fact, ev.LandscapesSetUp):
        parts = [f"{k} {v} VP" for k, v in fact.landmark_vp.items()]
        parts += [f"{k} pile {v} VP" for k, v in fact.pile_vp.items()]
        if fact.pile_debt:
            parts.append(f"{len(fact.pile_debt)} piles 1 debt each")
        if fact.obelisk:
            parts.append(f"Obelisk on {fact.obelisk}")
        return "Landscape tokens: " + ", ".join(parts) + "." if parts else "No landscape takes tokens."
    if isinstance(fact, ev.Returned):
        return f"{name(fact.player)} returns {article(fact.card.split('>')[0])} to the {fact.pile} pile."
    if isinstance(fact, ev.Became):
        return f"{name(fact.player)}'s {fact.card} becomes {article(fact.acting)}."
    if isinstance(fact, ev.Enchanted):
        who = " and ".join(name(t) for t in fact.targets) or "nobody"
        return f"{name(fact.player)} enchants {who} until their next turn."
    if isinstance(fact, ev.DurationStarted):
        return f"{name(fact.player)}'s {fact.card} will stay in play."
    if isinstance(fact, ev.ArchiveFilled):
        return f"{name(fact.player)} sets aside {_shown(fact.cards, fact.count)} face down (Archive)."
    if isinstance(fact, ev.ArchiveTaken):
        return f"{name(fact.player)} takes {article(fact.card) if fact.card else 'a card'} from an Archive."
    if isinstance(fact, ev.EnchantressCharged):
        return f"{name(fact.player)} will draw 2 more cards next turn (Enchantress)."
    if isinstance(fact, ev.DurationsEnded):
        return f"{name(fact.player)}'s Durations leave play at Clean-up."
    if isinstance(fact, ev.MountainPassQueued):
        if fact.player is None:
            return "The Mountain Pass bidding is over."
        return f"{name(fact.player)} gained the first Province: Mountain Pass bidding after this turn."
    if isinstance(fact, ev.Bid):
        if fact.amount is None:
            return f"{name(fact.player)} passes (Mountain Pass)."
        return f"{name(fact.player)} bids {fact.amount} debt (Mountain Pass)."
    if isinstance(fact, ev.Donated):
        taken = count_text(fact.count)
        return f"{name(fact.player)} puts their deck and discard pile ({taken}) into their hand (Donate)."
    if isinstance(fact, ev.Reshuffled):
        if fact.source == "hand":
            return f"{name(fact.player)} shuffles their hand into a deck ({count_text(fact.count)}, Donate)."
        return f"{name(fact.player)} shuffles a new deck of {count_text(fact.count)} (Annex)."
    if isinstance(fact, ev.Gained):
        where = {"discard": "", "hand": " into their hand", "deck": " onto their deck"}[fact.to]
        source = " from the trash" if fact.source == "trash" else ""
        return f"{name(fact.player)} gains {article(fact.card)}{source}{where}."
    if isinstance(fact, ev.Trashed):
        where = f" from the {fact.pile or fact.cards[0]} pile" if fact.source == "supply" else ""
        printed = tuple(c.split(">")[0] for c in fact.cards)
        return f"{name(fact.player)} trashes {cards_text(printed)}{where}."
    if isinstance(fact, ev.Discarded):
        source = " from their deck" if fact.source == "deck" else ""
        return f"{name(fact.player)} discards {_shown(fact.cards, fact.count)}{source}."
    if isinstance(fact, ev.Revealed):
        return f"{name(fact.player)} reveals {cards_text(fact.cards)}."
    if isinstance(fact, ev.Moved):
        c = cards_text(fact.cards)
        if fact.to == "hand":
            return f"{name(fact.player)} puts {c} into their hand."
        if fact.to in ("aside", "encampment"):
            return f"{name(fact.player)} sets aside {c}."
        it = "it" if len(fact.cards) == 1 else "them"
        return f"{name(fact.player)} reveals {c} and puts {it} onto their deck."
    if isinstance(fact, ev.DeckDiscarded):
        top = f"; {article(fact.top)} is on top" if fact.top else ""
        return f"{name(fact.player)} puts their deck ({count_text(fact.count)}) into their discard pile{top}."
    if isinstance(fact, ev.Reacted):
        if fact.card is None:
            return f"{name(fact.player)} does not react to the {fact.attack}."
        return f"{name(fact.player)} reveals {article(fact.card)} against the {fact.attack}."
    if isinstance(fact, ev.Chose):
        return f"{name(fact.player)} chooses {fact.option.replace('_', ' ')} ({fact.source})."
    if isinstance(fact, ev.CleanedUp):
        parts = [f"{cards_text(fact.play)} from play"] if fact.play else []
        if fact.count:
            parts.append(f"{_shown(fact.hand, fact.count)} from hand")
        return f"{name(fact.player)} cleans up" + (f": discards {' and '.join(parts)}." if parts else ".")
    if isinstance(fact, ev.StackSaved):
        if not fact.prompts:
            return "Every open choice is answered."
        asked = []
        for d in fact.prompts:
            if d.p < 0:
                whose = name(config.seats[d.target].id) + "'s" if d.target >= 0 else ""
                what = "{whose} unseen cards" if d.purpose == "identify" else TABLE_ASKS[d.kind]
                asked.append(f"the table to enter {what.format(whose=whose)}")
            else:
                asked.append(f"{name(config.seats[d.p].id)} ({d.source or d.purpose})")
        return f"Waiting for {', '.join(asked)}."
    if isinstance(fact, ev.GameEnded):
        scores = ", ".join(f"{name(s)} {v}" for s, v in fact.scores.items())
        won = " and ".join(name(w) for w in fact.winners)
        outcome = "wins" if len(fact.winners) == 1 else "share the victory"
        return f"The game ends ({fact.reason.replace('_', ' ')}): {scores}. {won} {outcome}."
    return type(fact).__name__
