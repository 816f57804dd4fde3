"""Table notation of Dynasties & Kingdoms (rules version dk-1): one short line per action of
dynasties-kingdoms.md 5.3.

    order p1 [4]                 roll_turn_order (the player, the observed die)
    pick kaifeng                 pick_homeland
    shuffle                      shuffle_deck
    city chengdu [5]             roll_city
    province chengdu [3 1]       roll_province (first die, second die)
    move xiangzhou kaifeng:3 luoyang:1
    rebels p2                    choose_rebel_controller
    deal QH,QC,5S,QD / KD,KS,4C [reshuffle] [shuffle]
    draw attacker 5S,4C [> 9C,7H] [reshuffle]     ("-" for no cards)
    resolve [attacker|defender|tie]
    destroy [2]                  roll_city_destruction
    end city|province|expansion|scoring

Ids are kept as written, so that `decide` names a wrong one with its own code.
"""

from __future__ import annotations

from domain.games.dynasties import actions as A
from domain.games.dynasties.engine import reject
from domain.games.dynasties.state import Source, State
from domain.ruleset import Rejection

USAGE = (
    "order P [V] | pick PROV | shuffle | city PROV [V] | province PROV [A B] | move TO FROM:N ... | rebels P"
    " | deal A,.. / D,.. [reshuffle] [shuffle] | draw SIDE CARDS [> CARDS] [reshuffle] | resolve [WINNER]"
    " | destroy [V] | end PHASE"
)


def _list(cards: tuple[str, ...]) -> str:
    return ",".join(cards) if cards else "-"


def _opt(*values: object) -> list[str]:
    return [str(v) for v in values if v is not None]


def format_action(action: A.Action) -> str:
    if isinstance(action, A.RollTurnOrder):
        return " ".join(["order", action.player, *_opt(action.value)])
    if isinstance(action, A.PickHomeland):
        return f"pick {action.province}"
    if isinstance(action, A.ShuffleDeck):
        return "shuffle"
    if isinstance(action, A.RollCity):
        return " ".join(["city", action.province, *_opt(action.value)])
    if isinstance(action, A.RollProvince):
        return " ".join(["province", action.province, *_opt(action.first, action.second)])
    if isinstance(action, A.MoveArmy):
        return " ".join(["move", action.to, *(f"{s.province}:{s.count}" for s in action.from_)])
    if isinstance(action, A.ChooseRebelController):
        return f"rebels {action.controller}"
    if isinstance(action, A.DealBattle):
        flags = [f for f, on in (("reshuffle", action.reshuffle), ("shuffle", action.shuffle)) if on]
        return " ".join(["deal", _list(action.attacker_cards), "/", _list(action.defender_cards), *flags])
    if isinstance(action, A.DiscardAndDraw):
        parts = ["draw", action.side, _list(action.discard)]
        if action.draw is not None:
            parts += [">", _list(action.draw)]
        if action.reshuffle:
            parts.append("reshuffle")
        return " ".join(parts)
    if isinstance(action, A.ResolveBattle):
        return " ".join(["resolve", *_opt(action.declared_winner)])
    if isinstance(action, A.RollCityDestruction):
        return " ".join(["destroy", *_opt(action.value)])
    return f"end {action.phase}"


def _bad(text: str) -> Rejection:
    return reject("BAD_PARAMETER", f"Cannot read {text!r}: {USAGE}", "5.3")


def _int(token: str) -> int:
    return int(token)


def _cards(token: str) -> tuple[str, ...]:
    return () if token == "-" else tuple(token.split(","))


def parse_notation(text: str) -> A.Action | Rejection:
    words = text.split()
    if not words:
        return _bad(text)
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "order" and len(args) in (1, 2):
            return A.RollTurnOrder(args[0], _int(args[1]) if len(args) == 2 else None)
        if verb == "pick" and len(args) == 1:
            return A.PickHomeland(args[0])
        if verb == "shuffle" and not args:
            return A.ShuffleDeck()
        if verb == "city" and len(args) in (1, 2):
            return A.RollCity(args[0], _int(args[1]) if len(args) == 2 else None)
        if verb == "province" and len(args) in (1, 3):
            if len(args) == 3:
                return A.RollProvince(args[0], _int(args[1]), _int(args[2]))
            return A.RollProvince(args[0])
        if verb == "move" and len(args) >= 2:
            sources = []
            for token in args[1:]:
                province, _, count = token.rpartition(":")
                if not province:
                    return _bad(text)
                sources.append(Source(province, _int(count)))
            return A.MoveArmy(args[0], tuple(sources))
        if verb == "rebels" and len(args) == 1:
            return A.ChooseRebelController(args[0])
        if verb == "deal" and len(args) >= 3 and args[1] == "/":
            flags = set(args[3:])
            if not flags <= {"reshuffle", "shuffle"}:
                return _bad(text)
            return A.DealBattle(_cards(args[0]), _cards(args[2]), "reshuffle" in flags, "shuffle" in flags)
        if verb == "draw" and len(args) >= 2:
            side, discard, rest = args[0], _cards(args[1]), args[2:]
            reshuffle = bool(rest) and rest[-1] == "reshuffle"
            if reshuffle:
                rest = rest[:-1]
            if not rest:
                return A.DiscardAndDraw(side, discard, None, reshuffle)
            if len(rest) == 2 and rest[0] == ">":
                return A.DiscardAndDraw(side, discard, _cards(rest[1]), reshuffle)
            return _bad(text)
        if verb == "resolve" and len(args) <= 1:
            return A.ResolveBattle(args[0] if args else None)
        if verb == "destroy" and len(args) <= 1:
            return A.RollCityDestruction(_int(args[0]) if args else None)
        if verb == "end" and len(args) == 1:
            return A.EndPhase(args[0])
    except ValueError:
        return _bad(text)
    return _bad(text)


VERBS: tuple[str, ...] = (
    *("order", "pick", "shuffle", "city", "province", "move", "rebels", "deal", "draw", "resolve"),
    *("destroy", "end", "attacker", "defender", "reshuffle"),
)


def notation_words(state: State) -> tuple[str, ...]:
    """The words of the notation, for the suggestion of a misspelt one (domain/suggestions.py):
    the verbs and the provinces of the game's map, all public."""
    return (*VERBS, *state.map.ids)
