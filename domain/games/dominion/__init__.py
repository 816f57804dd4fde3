"""Dominion (Donald X. Vaccarino, Rio Grande Games, base game 2008, 2nd edition 2016) and its
Empires expansion (2016): the ruleset object of `shared/rules/dominion.md` and its 2nd-edition
addendum `dominion-2e.md` (option `base_edition`; the new cards in `base2_actions`). Option `expansions` is
`base` (the default, the 25 base piles) or `base,empires` (49 piles, Events and Landmarks): costs
are (coins, debt), players hold VP and debt tokens, piles are card lists (split piles, Castles),
and buy, gain and trash abilities run on any player's turn in the canonical order of 4.7.

Modules: `data` (card data, `cards-v1.json`), `options` (variants, 8), `state` (2), `actions`
(4.2-4.4), `events` (1.9, 4.1), `fold` (`evolve`), `engine` (frames, decisions, draws,
shuffles, gains, triggers: 3.1, 4.3, 4.6-4.8, 6.4), `decisions` (candidates and checks of
answers), `effects` (the base cards, 5.1-5.2), `empires_treasures` and `empires_actions` (5.3),
`castles` (5.4), `landscape_events` (5.5), `landmarks` (5.6), `turns` (setup, the turn's
phases, Clean-up, between turns, end, scoring: 1, 3, 7), `rules` (`decide`), `legal` (prompts
and legal actions), `view` (6.5), `describe`, `notation` and `bot`; `onlinelog` (Dominion Online
game logs read into data) and `logimport` (a log planned into a physical table's actions).

Randomness (records 4): stream `kingdom` n 0 shuffles the randomizer names (sorted) and deals
from the first (a base game: the 25 base names, the first 10 taken; with Empires see `turns`);
`landscapes` n 0 and `obelisk` n 0 draw the landscapes apart and Obelisk's pile; stream
`first-player` n 0 rolls one die with as many faces as seats; stream `deck:<seat>` (one per
player, its counter in the player's state) shuffles that player's discard pile (or what Annex
and Donate shuffle), listed in sorted card-name order, index 0 becoming the top of the deck.

Rulings beyond the spec's own: a forced decision is answered by the engine, logged as such (an
`auto_resolved` fact before the answer's own facts, 4.1 and 4.3 rule 3), except a forced
decline among cards only its player sees, which looks like a voluntary one (4.3 rule 4). A
decision among cards only its player sees (the hand, the own discard pile, Archive's face-down
sets, a Moat against an Attack) is forced only when the other players can tell it is: when
every hand they cannot rule out leaves one answer (`decisions.forced_for_others`). Otherwise it
is asked, even with a single legal answer, so that whether a prompt opens shows nobody what the
player holds, and a forced decline cannot be told from a voluntary one (4.3 rule 4): a Gladiator's
neighbour who owns a copy of the revealed card is asked whether to reveal one; a player who owns
no Moat is not asked against an Attack. Worked examples that say "auto-declined" where the player
owns the card elsewhere therefore take an explicit decline (version 2 of the ruleset).

In a physical game the recorder enters each card taken from the unseen part of a deck
(`observe`, as many as the step takes), and a deck whose unseen cards all have one name is
observed automatically. A card the recorder did not see is `?` (JSON null, 6.4; `unseen`):
in draws, in cards set aside face down and in hidden discards. Where the rules read a card
(revealed, trashed, played, a card Library draws) it is named, by the entry itself or by the
recorder when the engine asks (`identify`). The table may announce a shuffle (`shuffle p2`),
checked against the engine's; a Treasure played or a buy in the Action phase ends it first
(physical games only);
a kingdom the table typed in is logged as chosen (`manual`). Version 3 of the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.games.dominion import bot, describe, fold, legal, notation, rules, view
from domain.games.dominion.actions import Action
from domain.games.dominion.data import DATA
from domain.games.dominion.events import (
    Drew,
    Fact,
    FirstPlayerChosen,
    KingdomChosen,
    Looked,
    Moved,
    Observed,
    Revealed,
    Shuffled,
)
from domain.games.dominion.online_import import DominionLog, read_log
from domain.games.dominion.options import OPTIONS
from domain.games.dominion.setup_choices import setup_choices as kingdom_choices
from domain.games.dominion.state import SEATS, State
from domain.games.dominion.turns import card_vp
from domain.ruleset import Boundary, Codec, GameConfig, Rejection, RulesetMeta, register
from domain.ruleset_base import RulesetBase

META = RulesetMeta(
    id="dominion",
    version="3",
    title=f"Dominion (base game, 1st and 2nd edition, and Empires, card data {DATA.version})",
    seat_ids=SEATS,
    min_players=2,
    max_players=6,  # 5-6 only with the variant players_5_6 (check_config)
    options=OPTIONS,
    hidden_information=True,
    chance=True,
    spec="dominion",
)


class DominionRuleset(
    RulesetBase[State, Action, Fact], modules=(rules, fold, legal, view, describe, notation)
):
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def check_config(self, config: GameConfig) -> Rejection | None:
        """More than 4 players need a second set of basic cards (1.3, 8.3); a random setup's
        exclusions must name known piles or landscapes and leave 10 piles to draw (6.3)."""
        if len(config.seats) > 4 and not config.options.get("players_5_6"):
            return Rejection(
                "players_5_6",
                "Dominion takes 2 to 4 players; 5 or 6 need the variant players_5_6 (a second basic set).",
                "dominion 1.3",
            )
        excluded = [n.strip() for n in str(config.options.get("exclude", "")).split(",") if n.strip()]
        expansions = str(config.options.get("expansions", "base"))
        edition = 2 if config.options.get("base_edition") == 2 else 1
        kingdom = str(config.options.get("kingdom", "random"))
        if DATA.preset(kingdom, edition) is None and DATA.preset(kingdom, 2) is not None:
            # A set of the 2nd edition's rulebook alone (deck_top, ...): not a 1st-edition kingdom.
            return Rejection(
                "preset_needs_base_edition_2",
                f"The recommended kingdom {kingdom!r} is one of the 2nd edition's (2016) base rulebook: "
                "choose base_edition=2, or name its piles with kingdom=manual.",
                "dominion 1.5",
            )
        if kingdom in DATA.preset_names and kingdom not in DATA.presets_for(expansions, edition):
            offered = ", ".join(DATA.presets_for(expansions, edition)) or "none"
            return Rejection(
                "preset_not_in_sets",
                f"The recommended kingdom {kingdom!r} is not one of this game's sets and base edition "
                f"(expansions {expansions}, base_edition {edition}; offered: {offered}); "
                "name its piles with kingdom=manual.",
                "dominion 1.5",
            )
        pool = DATA.randomizers(expansions, edition)
        known = DATA.nameable(expansions)
        unknown = [n for n in excluded if n not in known and n not in DATA.landscapes]
        if unknown:
            return Rejection(
                "bad_exclude", f"{unknown[0]!r} is not a pile or landscape of this game.", "dominion 6.3"
            )
        if len([n for n in pool if n not in excluded]) < 10:
            return Rejection(
                "bad_exclude", "Excluding these leaves fewer than 10 kingdom piles.", "dominion 6.3"
            )
        return None

    def setup_choices(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The kingdoms a New game form offers for these options: presets, nameable piles with
        cost and types, and Empires' landscapes (setup_choices.py)."""
        return kingdom_choices(options)

    def bot_choose(
        self, state: State, seat: str | None, legal: tuple[Action, ...], draw: Callable[[int], int]
    ) -> Action:
        return bot.choose(state, legal, draw)

    def boundary(self, fact: Fact) -> Boundary | None:
        if isinstance(fact, Shuffled | Drew | Observed | FirstPlayerChosen | Looked):
            return "random"
        if isinstance(fact, KingdomChosen):
            return "random" if fact.method == "random" else None
        if isinstance(fact, Revealed):
            return "random" if fact.source == "deck" else "reveal"
        if isinstance(fact, Moved) and fact.source == "hand":
            return "reveal"
        return None

    def coordinate_names(self, state: State) -> dict[str, tuple[str, ...]]:
        """The cards and piles an annotation may name (domain/notes.py): the Supply's piles,
        their cards and the landscapes, once the kingdom is laid out (all public)."""
        if not state.supply:
            return {}
        cards = {card for pile in state.supply.values() for card in pile}
        piles = (*state.supply, *state.events, *state.landmarks)
        return {"card": (*sorted(cards), *piles), "pile": piles}

    def read_online_log(self, text: str, kingdom: Sequence[str]) -> DominionLog:
        """A Dominion Online log, checked for import (domain/online_logs.py)."""
        return read_log(text, kingdom)

    def metrics(self, state: State) -> dict[str, dict[str, float]]:
        """Figures to follow turn by turn: VP (cards and tokens) and cards owned, per seat, and
        debt in a game with Empires."""
        seats = state.seats
        out = {
            "vp": {seats[p]: float(card_vp(pl.owned()) + pl.vp) for p, pl in enumerate(state.players)},
            "cards": {seats[p]: float(len(pl.owned())) for p, pl in enumerate(state.players)},
        }
        if state.variants.expansions != "base":
            out["debt"] = {seats[p]: float(pl.debt) for p, pl in enumerate(state.players)}
        return out

    def dice(self, fact: Fact) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
        """Dominion rolls one die only: the first player (shuffles do not count)."""
        if isinstance(fact, FirstPlayerChosen) and fact.stream and fact.outcome and fact.faces:
            return ((fact.stream, fact.faces, (fact.outcome,)),)
        return ()


RULESET = DominionRuleset()
register(RULESET)
