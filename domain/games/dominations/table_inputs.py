"""What the table enters rather than a player (dominations-provinces.md 5.4 and section 6):
observed draws in physical mode, the recorder's base-game scoring entries and base effects."""

from __future__ import annotations

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.creation import deal, dominance_cards, dominance_vp_map, reveal, then_begin
from domain.games.dominations.data import (
    DOMAINS,
)
from domain.games.dominations.engine import AGE_DECKS, Ctx, bad_knowledge, rej
from domain.games.dominations.standing import winners
from domain.games.dominations.state import (
    END_OF_AGE,
    FINAL_SCORING,
    Deck,
    DrawRequest,
    State,
)
from domain.games.dominations.turns import award_dominance, seat_order
from domain.ruleset import Command, Rejection


def check_record(state: State, a: ac.RecordDraw, command: Command) -> Rejection | None:
    if state.mode != "physical":
        return rej("E_OUTCOME_NOT_ALLOWED", "In a digital game the server draws.", "4.0")
    if command.by == "seat":
        return rej("E_NOT_YOUR_TURN", "Only the recorder enters drawn cards.", "5.4")
    if not state.awaiting:
        return rej("E_WRONG_STEP", "No draw is awaited.", "5.4")
    req = state.awaiting[0]
    if req.deck in AGE_DECKS:
        pile = state.province_decks[AGE_DECKS.index(req.deck)]
    else:
        deck: Deck = getattr(state, req.deck)
        pile = deck.draw if deck.draw else deck.discard
    if a.card not in pile:
        return rej("E_CARD_NOT_IN_PILE", f"{a.card!r} cannot be drawn from the {req.deck} pile now.", "5.4")
    attack = state.attack
    if req.target == "attack" and attack is not None and attack.spy_peek:
        index = len(attack.drawn)
        if index < len(attack.spy_peek) and a.card != attack.spy_peek[index]:
            return rej("E_CARD_NOT_IN_PILE", f"The Spy saw {attack.spy_peek[index]} on top.", "5.4")
    return None


def check_scoring(
    state: State, a: ac.AgeEndBaseScoring | ac.FinalScoring, command: Command
) -> Rejection | None:
    if command.by == "seat":
        return rej("E_NOT_YOUR_TURN", "Only the recorder declares base-game scoring.", "6.1")
    step = END_OF_AGE if isinstance(a, ac.AgeEndBaseScoring) else FINAL_SCORING
    if state.step != step:
        return rej("E_WRONG_STEP", "That scoring is not due now.", "6.1" if step == END_OF_AGE else "6.2")
    totals = {p.seat: [p.vp, p.influence, *p.knowledge] for p in state.players}
    for e in a.entries:
        if e.player not in totals or bad_knowledge(e.knowledge):
            return rej("E_BAD_PARAMS", "An entry names an unknown player or domain.", "4.0")
        t = totals[e.player]
        t[0] += e.vp
        t[1] += e.influence
        for d, v in e.knowledge.items():
            t[2 + DOMAINS.index(d)] += v
        if min(t) < 0:
            return rej("E_NEGATIVE_RESULT", f"The entry for {e.player} makes a value negative.", "4.2.14")
    if state.opt("influence_vp_rule") == "none" and any("influence" in e.source.lower() for e in a.entries):
        return rej("E_BAD_PARAMS", "This game scores no VP from Influence (influence_vp_rule = none).", "6.1")
    if isinstance(a, ac.AgeEndBaseScoring):
        cards = {card for card, _ in dominance_cards(state.options)}
        if any(card not in cards or v < 0 for card, v in a.dominance_vp.items()):
            return rej("E_BAD_PARAMS", "dominance_vp names an unknown card or a negative value.", "6.1")
        if a.dominance_vp and dominance_vp_map(state.options) is not None:
            return rej("E_BAD_PARAMS", "Dominance VP are fixed by the configuration.", "6.1")
        hegemon = bool(state.opt("hegemon_module"))
        if not hegemon and (a.hegemon_token_active or a.hegemon_token_vp is not None):
            return rej("E_BAD_PARAMS", "This game is played without the Hegemon module.", "6.5")
        configured = state.opt("hegemon_token_vp") != "declared"
        if a.hegemon_token_vp is not None and (configured or a.hegemon_token_vp < 0):
            return rej("E_BAD_PARAMS", "The token's VP are fixed by the configuration or negative.", "6.5")
    return None


def check_base_effect(state: State, a: ac.BaseEffect, command: Command) -> Rejection | None:
    if command.by == "seat" and (state.active is None or command.seat != state.active):
        return rej("E_NOT_YOUR_TURN", "A seat enters base-game effects in its own turn.", "4.2.14")
    if a.player not in state.seats or bad_knowledge(a.knowledge) or bad_knowledge(a.cap_changes):
        return rej("E_BAD_PARAMS", "Unknown player or domain.", "4.0")
    if a.source_kind == "provinces":
        return rej("E_STRICT_RULE", "Provinces effects are computed by the engine.", "4.2.14")
    if a.source_kind not in ("base_card", "base_rule", "hegemon", "other"):
        return rej("E_BAD_PARAMS", "source_kind must be base_card, base_rule, hegemon or other.", "4.2.14")
    if not a.clamp:
        p = state.player(a.player)
        vals = [p.vp + a.vp, p.influence + a.influence] + [p.k(d) + v for d, v in a.knowledge.items()]
        if min(vals) < 0:
            return rej("E_NEGATIVE_RESULT", "The declared loss would make a value negative.", "4.2.14")
    return None


def do_base_scoring(ctx: Ctx, a: ac.AgeEndBaseScoring) -> None:
    state = ctx.state
    ctx.emit(ev.BaseScoringDeclared(state.age, a.entries, dict(a.dominance_vp)))
    state = ctx.state
    configured = dominance_vp_map(state.options)
    if state.opt("eoa_dominance_before_base_scoring"):
        # S8 ran before S7: declared Dominance VP are credited now to the holders it chose.
        if a.dominance_vp:
            vp: dict[str, int] = {}
            for card, holder in state.dominance.items():
                if holder is not None and a.dominance_vp.get(card):
                    vp[holder] = vp.get(holder, 0) + a.dominance_vp[card]
            ctx.emit(ev.DominanceAwarded(state.age, dict(state.dominance), vp))
    else:
        ctx.emit(award_dominance(state, configured if configured is not None else a.dominance_vp))
    if state.opt("hegemon_module"):
        ctx.emit(_hegemon_scoring(ctx.state, a))
    ctx.emit(ev.KnowledgeReset(state.age, bool(state.opt("influence_reset_each_age"))))
    if state.age == 3:
        return
    state = ctx.state
    if state.opt("kept_cards_reset_at_age_end"):
        kept = tuple(c for av in state.available for c in av.kept)
        ctx.emit(ev.KeptCardsReset(kept))
    requests: list[DrawRequest] = []
    requests += reveal(ctx, state.age + 1, len(state.seats) - len(state.available))
    if state.opt("land_refill") == "fresh_hand":
        ctx.emit(ev.LandHandsBoxed())
    order = seat_order(state)
    hand_size = int(state.opt("hand_size"))
    for seat in order:
        planned = sum(1 for r in requests if r.target == f"land:{seat}")
        need = hand_size - len(ctx.state.player(seat).land_hand) - planned
        pending_land = sum(1 for r in requests if r.deck == "land")
        if ctx.state.mode == "physical":
            need = min(need, len(ctx.state.land.draw) - pending_land)
        requests += deal(ctx, seat, need) if need > 0 else []
    first = state.first_player
    if state.opt("first_player_rule") == "rotate":
        first = state.seats[(state.seats.index(first) + 1) % len(state.seats)]
    then_begin(ctx, requests, state.age + 1, first)


def _hegemon_scoring(state: State, a: ac.AgeEndBaseScoring) -> ev.HegemonScored:
    """S9: the single player holding the most province cards (at least 1) scores the token;
    a tie scores nothing [PUB]."""
    if state.opt("hegemon_count_scope") == "this_age":
        counts = {p.seat: sum(1 for c in p.conquered if c.age == state.age) for p in state.players}
    else:
        counts = {p.seat: len(p.province_cards_held) for p in state.players}
    best = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == best]
    scorer = leaders[0] if a.hegemon_token_active and best >= 1 and len(leaders) == 1 else None
    configured = str(state.opt("hegemon_token_vp"))
    vp = int(configured) if configured != "declared" else (a.hegemon_token_vp or 0)
    return ev.HegemonScored(state.age, a.hegemon_token_active, counts, scorer, vp if scorer else 0)


def do_final(ctx: Ctx, a: ac.FinalScoring) -> None:
    ctx.emit(ev.FinalScoringDeclared(a.entries))
    state = ctx.state
    scores = {p.seat: p.vp for p in state.players}
    ctx.emit(ev.GameEnded(scores, winners(state.players, str(state.opt("final_tie_rule")))))


def do_record(ctx: Ctx, a: ac.RecordDraw) -> None:
    req = ctx.state.awaiting[0]
    reshuffled = False
    if req.deck not in AGE_DECKS:
        deck: Deck = getattr(ctx.state, req.deck)
        reshuffled = not deck.draw
    ctx.emit(ev.CardRecorded(req.deck, req.target, a.card, reshuffled))
    state = ctx.state
    if not state.awaiting and state.after_draws and state.after_draws.startswith("begin_age:"):
        _, age, first = state.after_draws.split(":")
        ctx.emit(ev.AgeBegan(int(age), first))


def record_drawn(ctx: Ctx, drawn: tuple[str, ...], command: Command) -> Rejection | None:
    """The cards entered with a physical attempt, checked and recorded one by one as
    `record_draw`s would be (5.4); the first that cannot have been drawn refuses the whole
    attempt, and so does a count other than the attempt's draw."""
    if command.by == "seat":
        return rej("E_NOT_YOUR_TURN", "Only the recorder enters drawn cards.", "5.4")
    wanted = sum(1 for r in ctx.state.awaiting if r.target == "attack")
    if len(drawn) != wanted:
        return rej(
            "E_OUTCOME_REQUIRED", f"This attempt draws {wanted} card(s); {len(drawn)} were entered.", "5.4"
        )
    for card in drawn:
        entry = ac.RecordDraw(card)
        refused = check_record(ctx.state, entry, command)
        if refused is not None:
            return refused
        do_record(ctx, entry)
    return None
