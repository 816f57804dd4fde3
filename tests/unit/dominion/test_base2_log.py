"""The 2nd-edition cards in notation, log lines and statistics (dominion-2e.md 2)."""

from __future__ import annotations

import random

from domain.games.dominion import RULESET
from domain.games.dominion.actions import Choose, SelectCards
from domain.games.dominion.events import Fact, Gained
from domain.games.dominion.stats import per_game, tables
from domain.rng import SeededRng
from domain.ruleset import Command, Rejection
from tests.unit.dominion.scenarios import config, table
from tests.unit.dominion.test_base2_setup import KEPT, NEW

KINGDOM = [*sorted(NEW), "Throne Room", "Moat", "Smithy"]


def test_notation_reads_the_new_answers_and_writes_them_back() -> None:
    game = table(base_edition=2, kingdom=KINGDOM, zones={"p1": {"hand": ["Vassal"], "deck": ["Smithy"]}})
    game.do("p1", "play Vassal")
    assert RULESET.parse_notation("play", game.state) == Choose("play")
    assert RULESET.parse_notation("play Smithy", game.state) == Choose("play")
    order = RULESET.parse_notation("topdeck Gold, Silver", game.state)
    assert order == SelectCards("topdeck", ("Gold", "Silver"))
    assert RULESET.format_action(order) == "topdeck Gold, Silver"


def test_the_log_tells_a_sentry_and_a_merchant_turn() -> None:
    game = table(
        base_edition=2,
        kingdom=KINGDOM,
        zones={
            "p1": {"hand": ["Sentry", "Merchant", "Silver"], "deck": ["Copper", "Curse", "Gold", "Estate"]}
        },
        actions=1,
    )
    game.do("p1", "play Sentry")
    game.do("p1", "trash Curse")
    game.do("p1", "discard nothing")
    game.do("p1", "play Merchant")
    game.do("p1", "end")
    game.do("p1", "play treasures Silver")
    assert game.lines()[3:] == [
        "Ann looks at a Curse and a Gold from their deck.",
        "Waiting for Ann (Sentry).",
        "Ann trashes a Curse.",
        "Waiting for Ann (Sentry).",
        "Ann has one possible answer (Sentry): the engine gives it.",
        "Ann puts a Gold back onto their deck.",
        "Every open choice is answered.",
        "Ann plays a Merchant.",
        "Ann gets +1 Action (Merchant).",
        "Ann draws a Gold.",
        "Ann gets +$1 on the first Silver to come (Merchant).",
        "Ann goes to the Buy phase.",
        "Ann plays a Silver (+$2).",
        "Ann gets +$1 (Merchant).",
    ]


def test_statistics_count_the_gains_of_the_new_cards() -> None:
    cfg = config(2, game_id="stats-2e", base_edition=2, exclude=KEPT)
    rng = SeededRng(bytes(32), cfg.game_id)
    state = RULESET.initial(cfg)
    facts: list[Fact] = list(RULESET.setup(cfg, state, rng))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    bot = random.Random(3)
    while RULESET.outcome(state) is None:
        seat = bot.choice(RULESET.pending(state)).seat
        action = RULESET.bot_choose(state, seat, RULESET.legal_actions(state, seat), bot.randrange)
        out = RULESET.decide(state, Command(action, seat, "seat"), rng)
        assert not isinstance(out, Rejection)
        for fact in out:
            state = RULESET.evolve(state, fact)
        facts.extend(out)
    outcome = RULESET.outcome(state)
    extra = per_game(cfg, facts, outcome)
    assert set(extra["kingdom"]) == NEW | {"Throne Room", "Moneylender", "Mine"}
    gained = {pile for by_pile in extra["gains"].values() for pile in by_pile}
    assert gained & NEW
    from_supply = [f for f in facts if isinstance(f, Gained) and f.card in NEW]
    assert sum(len(t) for g in extra["gains"].values() for p, t in g.items() if p in NEW) == len(from_supply)
    assert outcome is not None
    [cards] = tables([{"winners": list(outcome.winners), "extra": extra}])
    rows = {row["card"]: row for row in cards["rows"]}
    assert set(rows) == NEW | {"Throne Room", "Moneylender", "Mine"}
    assert sum(rows[c]["gains"] for c in NEW) == len(from_supply)
