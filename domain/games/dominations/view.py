"""Views and redaction of Dominations + Provinces (dominations-provinces.md 5.5).

Hidden: draw-pile orders (all decks; omniscient only), land tiles in hand (owner only),
conquest cards in hand and the conquest value C during an attack (owner only; counts public),
the Spy peek (the attacker only). Everything else is public.

Ruling: a shuffle's `order_digest` (5.2 step 7) is shown only once the game is over. The spec
calls it public, but a digest of a short pile gives its order away to anyone who hashes the
few orders it could have (a five-card reshuffle has 120), and the seed's commitment
(records 4) already lets everyone check every shuffle after the game.

Mutation testing (bench/mutation.py, group redaction) leaves survivors judged equivalent: the
omniscient viewer's early returns in `redact_action` and `redact_prompt` (the full path shows
that viewer everything too) and `partition` read as `rpartition` in `_private` (a target holds
one colon). Not reached by the tests' games, and not equivalent: the `land_hand_visibility =
public` variant, a domain capped at 0, a Spy's peek in the state of an attack in progress, and
a monument's contributions in the state.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.data import DOMAINS
from domain.games.dominations.state import State, conquest_value
from domain.ruleset import Prompt, Viewer


def _deck(deck: Any, omniscient: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "draw_count": len(deck.draw),
        "discard": sorted(deck.discard),
        "reshuffles": deck.reshuffles,
    }
    if omniscient:
        out["draw"] = list(deck.draw)
    return out


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    omni = viewer.kind == "omniscient"
    players = {}
    for p in state.players:
        sees = viewer.sees_seat(p.seat)
        land_visible = sees or state.opt("land_hand_visibility") == "public"
        players[p.seat] = {
            "knowledge": {d: p.knowledge[i] for i, d in enumerate(DOMAINS)},
            "cap": {d: p.cap[i] for i, d in enumerate(DOMAINS) if p.cap[i] >= 0},
            "influence": p.influence,
            "vp": p.vp,
            "land_hand_count": len(p.land_hand),
            "land_hand": list(p.land_hand) if land_visible else None,
            "conquest_hand_count": len(p.conquest_hand),
            "conquest_hand": list(p.conquest_hand) if sees else None,
            "masteries": [{"card_id": m.card_id, "pos": list(m.pos)} for m in p.masteries],
            "cities": list(p.cities),
            "province_cards_held": list(p.province_cards_held),
            "provinces_conquered": [
                {"province_id": c.province_id, "age": c.age, "round": c.round, "method": c.method}
                for c in p.conquered
            ],
        }
    attack = None
    if state.attack is not None:
        a = state.attack
        sees = viewer.sees_seat(a.attacker)
        attack = {
            "attacker": a.attacker,
            "province_id": a.province_id,
            "kept_taken": list(a.kept_taken),
            "drawn": list(a.drawn),
            "rebellion_value": a.rebellion_value,
            "must_use_count": len(a.must_use),
            "influence_spent": a.influence_spent,
            "conscription_bonus": a.conscription_bonus,
            "siege_bonus": a.siege_bonus,
            "spy_peek": list(a.spy_peek) if sees and a.spy_peek is not None else None,
            "conquest_value": conquest_value(state) if sees else None,
            "must_use": list(a.must_use) if sees else None,
        }
    names = ("province-I", "province-II", "province-III")
    return {
        "mode": state.mode,
        "catalog_version": state.tables.catalog.catalog_version,
        "age": state.age,
        "round": state.round,
        "step": state.step,
        "active": state.active,
        "first_player": state.first_player,
        "turn": {
            "grow_choice": state.turn.grow_choice,
            "grow_done": state.turn.grow_done,
            "pending_province_tile": state.turn.pending_province_tile,
            "build_actions": state.turn.build_actions,
            "mastery_actions": state.turn.mastery_actions,
            "corsaires_used": state.turn.corsaires_used,
        },
        "players": players,
        "attack": attack,
        "board": {
            cell: {
                "tile_id": pl.tile_id,
                "rotation": pl.rotation,
                "source": pl.source,
                "placed_by": pl.placed_by,
                "city": {"owner": pl.city_owner, "level": pl.city_level} if pl.city_owner else None,
            }
            for cell, pl in sorted(state.board.items())
        },
        "available_provinces": [
            {
                "province_id": a.province_id,
                "kept_rebellion": list(a.kept),
                "failed_attempts": a.failed_attempts,
                "last_failed_by": a.last_failed_by,
                "revealed_age": a.revealed_age,
            }
            for a in state.available
        ],
        "boxed_provinces": list(state.boxed),
        "province_decks": {
            names[i]: ({"count": len(d), "order": list(d)} if omni else {"count": len(d)})
            for i, d in enumerate(state.province_decks)
        },
        "land_supply": {"count": len(state.land.draw), **({"order": list(state.land.draw)} if omni else {})},
        "conquest": _deck(state.conquest, omni),
        "rebellion": _deck(state.rebellion, omni),
        "mastery_supply": list(state.mastery_supply),
        "monuments": {m: [list(x) for x in v] for m, v in state.monuments.items()},
        "dominance": dict(state.dominance),
        "awaiting": [{"deck": r.deck, "target": r.target} for r in state.awaiting],
        "winners": list(state.winners) if state.winners is not None else None,
    }


def _hide_reshuffles(items: tuple[ev.Reshuffled, ...]) -> tuple[ev.Reshuffled, ...]:
    return tuple(replace(r, order=(), order_digest="", redacted=True) for r in items)


def redact(fact: Any, viewer: Viewer) -> Any:
    if viewer.kind == "omniscient":
        return fact
    if isinstance(fact, ev.DeckShuffled) and (fact.order or fact.order_digest):
        return replace(fact, order=(), order_digest="", redacted=True)
    if isinstance(fact, ev.SpyPeeked) and not viewer.sees_seat(fact.seat):
        return replace(fact, cards=(), redacted=True)
    # Land draws stay private in the log even when hands are shown (land_hand_visibility).
    if isinstance(fact, ev.LandDealt) and not viewer.sees_seat(fact.seat):
        return replace(fact, tiles=(), redacted=True)
    if isinstance(fact, ev.ConquestCardBought):
        hidden = not viewer.sees_seat(fact.seat)
        if hidden or fact.reshuffles:
            return replace(
                fact,
                card=None if hidden else fact.card,
                reshuffles=_hide_reshuffles(fact.reshuffles),
                redacted=True,
            )
    if isinstance(fact, ev.ConquestAttempted):
        hidden = not viewer.sees_seat(fact.seat)
        if (hidden and fact.spy_peek is not None) or fact.reshuffles:
            return replace(
                fact,
                spy_peek=None if hidden else fact.spy_peek,
                reshuffles=_hide_reshuffles(fact.reshuffles),
                redacted=True,
            )
    if isinstance(fact, ev.CardRecorded) and _private(fact.target, viewer):
        return replace(fact, card="", redacted=True)
    return fact


UNSEEN = "?"  # a card the viewer did not see, in an action's notation
TURN_KINDS = tuple(sorted(str(kind.__struct_config__.tag) for kind in ac.TURN_ACTIONS))


def _private(target: str, viewer: Viewer) -> bool:
    """Does a drawn card going to `target` stay out of `viewer`'s sight (5.5)?"""
    kind, _, seat = target.partition(":")
    return kind in ("land", "hand", "must") and not viewer.sees_seat(seat)


def redact_action(action: Any, seat: str | None, state: State, viewer: Viewer) -> Any:
    """The recorder's entry of a card drawn into a hand names it to its owner only, and the
    cards a Spy peeked at are the attacker's (as their facts are)."""
    if viewer.kind == "omniscient":
        return action
    if isinstance(action, ac.RecordDraw) and state.awaiting and _private(state.awaiting[0].target, viewer):
        return replace(action, card=UNSEEN)
    if isinstance(action, ac.AttemptConquest) and action.spy_peek and not (seat and viewer.sees_seat(seat)):
        return replace(action, spy_peek=(UNSEEN,) * len(action.spy_peek))
    return action


def redact_prompt(prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
    """Another seat's turn is shown as the step it is: which kinds of action it may take
    depends on its hidden hands (a conquest it can resolve, a tile it can place)."""
    if (
        prompt.kind != "turn"
        or viewer.kind == "omniscient"
        or (prompt.seat and viewer.sees_seat(prompt.seat))
    ):
        return prompt
    return replace(prompt, kinds=TURN_KINDS)
