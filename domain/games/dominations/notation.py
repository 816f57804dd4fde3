"""Table notation of Dominations + Provinces: one line per action (dominations-provinces.md 4.2).

    end        abandon      siege       corsaires      buy TRA       attempt P08 [spy]
    influence 2             draw R17    attempt P08 [spy] draw R17 R03   (physical: the cards
                                        the attempt draws, entered with it as one action)
    place L002 D(0,0) 0 [SCI:2,TRA:3 | -]          (hand tile; optional declared production,
    province P08 D(0,0) 0 [GOV:1 | -]               `-` declares nothing produced)
    resolve C33,C21,C22 [ART]                       conquer FX1 CRA:4,REL:2 [TRA]
    city D(0,0) 1 CRA:2        (cell, new level, declared cost; `-` for none)
    monument M1 M1-L1 CRA:2 1  (monument, level card, declared cost, VP)
    mastery ARC-1 1,0 ART:3    (card, tree position row,column, declared cost)
    peek                       corsaires CRA SCI   (the swap of corsaires_exchange)
    score age p1 Moche 3 VP 1 Influence SCI:2; p2 FX1 2 VP; dominance p1:2; hegemon 3
                               (the table's end-of-Age scoring: an entry per player and source,
                               then the Dominance VP and the Hegemon token when declared)
    score final p1 Moche 3 VP  (the final scoring's entries; a bare `score final` has none)
and for every kind the general form `<kind> <JSON object of its non-default fields>`, e.g.
    place_tile {"source":"hand","tile":"L002","cell":"D(0,0)","rotation":0}
`format_action` gives the short form when one exists; `parse_notation` reads both.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games.dominations import actions as ac
from domain.ruleset import Rejection

_BARE: dict[str, Any] = {
    "end": ac.EndTurn(),
    "abandon": ac.AbandonConquest(),
    "siege": ac.UseSiegeEngines(),
    "corsaires": ac.CorsairesExchange(),
    "peek": ac.SpyPeek(),
}
_KINDS = {str(cls.__struct_config__.tag): cls for cls in ac.Action.__args__}
USAGE = (
    "end | abandon | siege | corsaires [FROM TO] | peek | buy DOMAIN"
    " | attempt PROVINCE [spy] [draw CARD...] | influence N"
    " | draw CARD | city CELL LEVEL COST | monument ID LEVEL_CARD COST VP | mastery CARD ROW,COL COST"
    " | score age|final [PLAYER SOURCE [N VP] [N Influence] [KNOWLEDGE]; ...]"
    " | KIND {json}"
)


def _map(m: dict[str, int] | None) -> str:
    if m is None:
        return ""
    return ",".join(f"{k}:{v}" for k, v in m.items()) or "-"


def _read_map(text: str) -> dict[str, int] | None:
    if text == "-":
        return {}
    out: dict[str, int] = {}
    for part in text.split(","):
        key, sep, value = part.partition(":")
        if not sep or not value.lstrip("-").isdigit() or key in out:
            return None
        out[key] = int(value)
    return out


def _short_place(action: ac.PlaceTile) -> str | None:
    if action.produced_extra or action.city_activations or action.face is not None or " " in action.cell:
        return None
    verb = {"hand": "place", "province": "province"}.get(action.source)
    if verb is None or " " in action.tile or not action.tile:
        return None
    tail = f" {_map(action.produced)}" if action.produced is not None else ""
    return f"{verb} {action.tile} {action.cell} {action.rotation}{tail}"


def _plain(*words: str) -> bool:
    return all(w and " " not in w for w in words)


def _short_build(action: Any) -> str | None:
    """The short forms of the Build and Develop actions, and of a Corsaires swap."""
    if isinstance(action, ac.BuildCity) and _plain(action.cell):
        return f"city {action.cell} {action.new_level} {_map(action.cost)}"
    if isinstance(action, ac.ContributeMonument) and _plain(action.monument_id, action.level_card_id):
        return f"monument {action.monument_id} {action.level_card_id} {_map(action.cost)} {action.vp}"
    if isinstance(action, ac.AcquireMastery) and _plain(action.card):
        row, column = action.pos
        return f"mastery {action.card} {row},{column} {_map(action.cost)}"
    if (
        isinstance(action, ac.CorsairesExchange)
        and action.from_
        and action.to
        and _plain(action.from_, action.to)
    ):
        return f"corsaires {action.from_} {action.to}"
    return None


def _read_pos(text: str) -> tuple[int, int] | None:
    row, sep, column = text.partition(",")
    if not sep or not row.lstrip("-").isdigit() or not column.lstrip("-").isdigit():
        return None
    return int(row), int(column)


def _entry(entry: ac.ScoreEntry) -> str | None:
    """One scoring entry as `PLAYER SOURCE [N VP] [N Influence] [KNOWLEDGE]`, or None when its
    words would not read back (a space or semicolon in a name, a source named like a clause)."""
    if not _plain(entry.player, entry.source) or ";" in entry.player + entry.source:
        return None
    if entry.player.lower() in ("dominance", "hegemon"):
        return None
    parts = [entry.player, entry.source]
    if entry.vp:
        parts.append(f"{entry.vp} VP")
    if entry.influence:
        parts.append(f"{entry.influence} Influence")
    if entry.knowledge:
        parts.append(_map(entry.knowledge))
    return " ".join(parts)


def _short_scoring(action: Any) -> str | None:
    """`score age ...` and `score final ...`, the table's declared scorings in words."""
    if not isinstance(action, ac.AgeEndBaseScoring | ac.FinalScoring):
        return None
    entries = [_entry(e) for e in action.entries]
    if any(e is None for e in entries):
        return None
    clauses = [e for e in entries if e is not None]
    if isinstance(action, ac.FinalScoring):
        return "; ".join(["score final", *clauses]).replace("score final; ", "score final ", 1)
    if action.dominance_vp:
        if not all(_plain(seat) and ":" not in seat and "," not in seat for seat in action.dominance_vp):
            return None
        clauses.append(f"dominance {_map(action.dominance_vp)}")
    if action.hegemon_token_active:
        vp = action.hegemon_token_vp
        clauses.append("hegemon" if vp is None else f"hegemon {vp}")
    elif action.hegemon_token_vp is not None:
        return None
    return "; ".join(["score age", *clauses]).replace("score age; ", "score age ", 1)


def _read_entry(text: str) -> ac.ScoreEntry | None:
    words = text.split()
    if len(words) < 2:
        return None
    player, source, rest = words[0], words[1], words[2:]
    fields: dict[str, Any] = {}
    while rest:
        word = rest.pop(0)
        unit = rest[0].lower() if rest else ""
        if word.lstrip("-").isdigit() and unit in ("vp", "influence") and unit not in fields:
            fields[unit] = int(word)
            rest.pop(0)
        elif ":" in word and "knowledge" not in fields and (known := _read_map(word)) is not None:
            fields["knowledge"] = known
        else:
            return None
    return ac.ScoreEntry(player, source, **fields)


def _read_scoring(args: list[str], text: str) -> Any:
    """The clauses of `score age ...` / `score final ...` (after its two words), else None."""
    body = text.strip().split(None, 2)[2] if len(args) > 1 else ""
    clauses = [c.strip() for c in body.split(";")] if body.strip() else []
    entries: list[ac.ScoreEntry] = []
    dominance: dict[str, int] = {}
    hegemon: tuple[bool, int | None] = (False, None)
    for clause in clauses:
        head, _, tail = clause.partition(" ")
        if args[0].lower() == "age" and head.lower() == "dominance" and not dominance:
            found = _read_map(tail.strip())
            if not found:
                return None
            dominance = found
        elif args[0].lower() == "age" and head.lower() == "hegemon" and not hegemon[0]:
            if tail.strip() and not tail.strip().lstrip("-").isdigit():
                return None
            hegemon = (True, int(tail) if tail.strip() else None)
        elif (entry := _read_entry(clause)) is not None and not dominance and not hegemon[0]:
            entries.append(entry)
        else:
            return None
    if args[0].lower() == "final":
        return ac.FinalScoring(tuple(entries))
    return ac.AgeEndBaseScoring(tuple(entries), dominance, hegemon[0], hegemon[1])


def format_action(action: Any) -> str:
    if (scoring := _short_scoring(action)) is not None:
        return scoring
    if isinstance(action, ac.PlaceTile) and (short := _short_place(action)) is not None:
        return short
    if (
        isinstance(action, ac.ResolveConquest)
        and action.discard
        and all(c and "," not in c and " " not in c for c in action.discard)
    ):
        tail = f" {action.reward_domain}" if action.reward_domain else ""
        return f"resolve {','.join(action.discard)}{tail}"
    if isinstance(action, ac.ConquerWithKnowledge) and action.payment and " " not in action.province:
        tail = f" {action.reward_domain}" if action.reward_domain else ""
        return f"conquer {action.province} {_map(action.payment)}{tail}"
    for word, bare in _BARE.items():
        if action == bare:
            return word
    short = _short_build(action)
    if short is not None:
        return short
    if isinstance(action, ac.BuyConquestCard) and action.payment is None and action.domain:
        return f"buy {action.domain}"
    if isinstance(action, ac.AttemptConquest) and not action.use_siege and action.spy_peek is None:
        drawn = "" if action.drawn is None else " ".join(("", "draw", *action.drawn))
        return f"attempt {action.province}" + (" spy" if action.use_spy else "") + drawn
    if isinstance(action, ac.SpendInfluence):
        return f"influence {action.amount}"
    if isinstance(action, ac.RecordDraw):
        return f"draw {action.card}"
    data = msgspec.to_builtins(action)
    kind = data.pop("kind")
    defaults = {
        f.encode_name: msgspec.to_builtins(f.default)
        for f in msgspec.structs.fields(action)
        if f.default is not msgspec.NODEFAULT
    }
    data = {k: v for k, v in data.items() if k not in defaults or defaults[k] != v}
    return f"{kind} {msgspec.json.encode(data).decode()}"


def parse_notation(text: str) -> Any:
    words = text.split()
    bad = Rejection("E_BAD_PARAMS", f"Cannot read {text!r}; use {USAGE}.", "dominations 4.0")
    if not words:
        return bad
    verb, args = words[0].lower(), words[1:]
    if verb in _BARE and not args:
        return _BARE[verb]
    if verb == "buy" and len(args) == 1:
        return ac.BuyConquestCard(args[0])
    if verb == "attempt" and args:
        spy = len(args) > 1 and args[1].lower() == "spy"
        rest = args[2:] if spy else args[1:]
        if rest and rest[0].lower() != "draw":
            return bad
        return ac.AttemptConquest(args[0], use_spy=spy, drawn=tuple(rest[1:]) if rest else None)
    if verb == "influence" and len(args) == 1 and args[0].lstrip("-").isdigit():
        return ac.SpendInfluence(int(args[0]))
    if verb == "draw" and len(args) == 1:
        return ac.RecordDraw(args[0])
    if verb in ("place", "province") and len(args) in (3, 4) and args[2].lstrip("-").isdigit():
        produced = _read_map(args[3]) if len(args) == 4 else None
        if len(args) == 4 and produced is None:
            return bad
        source = "hand" if verb == "place" else "province"
        return ac.PlaceTile(source, args[0], args[1], int(args[2]), produced)
    if verb == "resolve" and len(args) in (1, 2):
        return ac.ResolveConquest(tuple(args[0].split(",")), args[1] if len(args) == 2 else None)
    if verb == "conquer" and len(args) in (2, 3):
        payment = _read_map(args[1])
        if payment is None or not payment:
            return bad
        return ac.ConquerWithKnowledge(args[0], payment, args[2] if len(args) == 3 else None)
    if verb == "city" and len(args) == 3 and args[1].lstrip("-").isdigit():
        cost = _read_map(args[2])
        return bad if cost is None else ac.BuildCity(args[0], int(args[1]), cost)
    if verb == "monument" and len(args) == 4 and args[3].lstrip("-").isdigit():
        cost = _read_map(args[2])
        return bad if cost is None else ac.ContributeMonument(args[0], args[1], cost, int(args[3]))
    if verb == "mastery" and len(args) == 3:
        cost, pos = _read_map(args[2]), _read_pos(args[1])
        return bad if cost is None or pos is None else ac.AcquireMastery(args[0], pos, cost)
    if verb == "score" and args and args[0].lower() in ("age", "final"):
        scoring = _read_scoring(args, text)
        return bad if scoring is None else scoring
    if verb == "corsaires" and len(args) == 2:
        return ac.CorsairesExchange(args[0], args[1])
    if verb in _KINDS:
        body = text.strip()[len(words[0]) :].strip() or "{}"
        try:
            data = msgspec.json.decode(body)
            if not isinstance(data, dict):
                return bad
            return msgspec.convert({**data, "kind": verb}, ac.Action)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            return Rejection("E_BAD_PARAMS", f"{verb}: {error}", "dominations 4.0")
    return bad


VERBS: tuple[str, ...] = (
    *(*_BARE, "buy", "attempt", "spy", "draw", "influence", "place", "province", "resolve"),
    *("conquer", "city", "monument", "mastery", "score", "age", "final", "dominance", "hegemon"),
)


def notation_words(state: Any) -> tuple[str, ...]:
    """The words of the notation, for the suggestion of a misspelt one (domain/suggestions.py):
    its verbs and every action kind's name."""
    return (*VERBS, *_KINDS)
