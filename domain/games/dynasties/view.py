"""Views and redaction of Dynasties & Kingdoms (rules version dk-1): dynasties-kingdoms.md 5.1
("Hidden information") and design.md 2.

A side's hidden cards are shown only to the player of that side (the army owner, or the
rebels' controller) until the showdown; the face-up card is public; discards of the draw round
are shown only to the player who discarded them (how many is public). The order of the draw
pile (a shuffle's or reshuffle's `order`) is never shown live; the public sees the sizes of the
two piles. After the game everything is public. Hidden cards in redacted facts read "??".

Mutation testing (bench/mutation.py, group redaction) leaves survivors judged equivalent: the
`strict` flag of zips over the board's provinces (the lists are always as long as each other);
the omniscient viewer's early returns in `redact` and `redact_action` (the full path shows that
viewer every card too); and `a[0] if a else None` read as always `a[0]` (a battle hand being
redacted always holds its face-up card).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.games.dynasties.actions import Action, DealBattle, DiscardAndDraw
from domain.games.dynasties.events import HIDDEN, BattleDealt, CardsReplaced, DeckShuffled, Fact, Reshuffle
from domain.games.dynasties.state import Side, State
from domain.ruleset import Prompt, Viewer


def _sees(viewer: Viewer, player: str | None) -> bool:
    return viewer.kind == "omniscient" or (
        viewer.kind == "seat" and player is not None and viewer.seat == player
    )


def _hand(cards: tuple[str, ...], face_up: str | None, visible: bool) -> list[str]:
    if visible:
        return list(cards)
    return [c if c == face_up else HIDDEN for c in cards]


def _side(side: Side, viewer: Viewer) -> dict[str, Any]:
    return {
        "kind": side.kind,
        "player": side.player,
        "strength": side.strength,
        "hand_size": side.hand_size,
        "face_up": side.face_up,
        "cards": _hand(side.cards, side.face_up, _sees(viewer, side.player)),
        "sources": [{"province": s.province, "count": s.count} for s in side.sources],
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    if state.status == "finished":
        viewer = Viewer("omniscient")
    board = state.map
    battle = state.battle
    out: dict[str, Any] = {
        "rules_version": "dk-1",
        "status": state.status,
        "mode": state.mode,
        "map": board.id,
        "round": state.round,
        "active_player": state.active,
        "phase": state.phase,
        "to_roll": list(state.to_roll),
        "rolled": list(state.rolled),
        "roll_off": {"groups": [list(g) for g in state.groups], "rolls": dict(state.rolls)},
        "turn_order": list(state.turn_order),
        "next_picker": state.next_picker,
        "pending": None,
        "attacked_this_phase": list(state.attacked),
        "players": [
            {"id": p.id, "vt": p.vt, "homeland": p.homeland, "eliminated": p.eliminated}
            for p in state.players
        ],
        "provinces": {
            pid: {
                "armies": p.armies,
                "army_owner": p.owner,
                "rebels": p.rebels,
                "city": p.city,
                "blocked_by": p.blocked_by,
                "moved": p.moved,
            }
            for pid, p in zip(board.ids, state.provs, strict=True)
        },
        "deck": {"draw_pile_count": len(state.draw), "discard_pile_count": len(state.discard)},
        "winners": list(state.winners),
        "end_reason": state.end_reason,
    }
    if viewer.kind == "omniscient":
        out["deck"]["draw_pile"] = list(state.draw)
        out["deck"]["discard_pile"] = list(state.discard)
    if state.city_roll is not None:
        out["pending"] = {"kind": "city_roll", "province": state.city_roll}
    elif battle is not None:
        out["pending"] = {
            "kind": "battle",
            "battle": {
                "context": battle.context,
                "province": battle.province,
                "step": battle.step,
                "attacker": _side(battle.attacker, viewer),
                "defender": _side(battle.defender, viewer),
                "result": None
                if battle.result is None
                else {
                    "winner": battle.result.winner,
                    "tie": battle.result.tie,
                    "attacker_hand": msgspec.to_builtins(battle.result.attacker_hand),
                    "defender_hand": msgspec.to_builtins(battle.result.defender_hand),
                },
            },
        }
    return out


def _reshuffle(r: Reshuffle | None) -> Reshuffle | None:
    return None if r is None else replace(r, order=())


def redact(fact: Fact, viewer: Viewer) -> Fact:
    if viewer.kind == "omniscient":
        return fact
    if isinstance(fact, DeckShuffled):
        return replace(fact, order=())
    if isinstance(fact, BattleDealt):
        a, d = fact.attacker_cards, fact.defender_cards
        return replace(
            fact,
            attacker_cards=tuple(_hand(a, a[0] if a else None, _sees(viewer, fact.attacker_player))),
            defender_cards=tuple(_hand(d, d[0] if d else None, _sees(viewer, fact.defender_player))),
            reshuffle=_reshuffle(fact.reshuffle),
        )
    if isinstance(fact, CardsReplaced):
        if _sees(viewer, fact.player):
            return replace(fact, reshuffle=_reshuffle(fact.reshuffle))
        return replace(
            fact,
            discard=(HIDDEN,) * len(fact.discard),
            draw=(HIDDEN,) * len(fact.draw),
            reshuffle=_reshuffle(fact.reshuffle),
        )
    return fact


def redact_action(action: Action, seat: str | None, state: State, viewer: Viewer) -> Action:
    """Cards entered for a battle are shown as the facts show them: a side's hidden cards to
    the player of that side only (the face-up card to everyone)."""
    battle = state.battle
    if viewer.kind == "omniscient" or battle is None:
        return action
    if isinstance(action, DealBattle):
        a, d = action.attacker_cards, action.defender_cards
        return replace(
            action,
            attacker_cards=tuple(_hand(a, a[0] if a else None, _sees(viewer, battle.attacker.player))),
            defender_cards=tuple(_hand(d, d[0] if d else None, _sees(viewer, battle.defender.player))),
        )
    if isinstance(action, DiscardAndDraw) and action.side in ("attacker", "defender"):
        side = battle.attacker if action.side == "attacker" else battle.defender
        if _sees(viewer, side.player):
            return action
        drawn = None if action.draw is None else (HIDDEN,) * len(action.draw)
        return replace(action, discard=(HIDDEN,) * len(action.discard), draw=drawn)
    return action


def redact_prompt(prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
    return prompt  # every prompt is public: whose turn, which step, which provinces to roll
