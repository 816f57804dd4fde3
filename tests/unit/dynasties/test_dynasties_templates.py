"""Legal actions are complete (domain/templates.py): besides the listed moves of 1, half and
all armies, the templates cover every other count and group, and the rules accept them."""

from __future__ import annotations

import random

from domain import templates
from domain.games.dynasties import RULESET
from domain.rng import SeededRng
from domain.ruleset import Actor, Command, Rejection
from tests.unit.dynasties.playouts import new_config, seed_of


def test_a_move_of_a_count_not_listed_is_covered_by_a_template_and_accepted() -> None:
    config = new_config(2, "digital", game_id="dk-templates")
    rng = SeededRng(seed_of(config.game_id), config.game_id)
    state = RULESET.initial(config)
    for fact in RULESET.setup(config, state, rng):
        state = RULESET.evolve(state, fact)
    chooser = random.Random(3)
    for _ in range(3000):
        (prompt,) = RULESET.pending(state)
        legal = RULESET.legal_actions(state, prompt.seat)
        shapes = templates.of(RULESET, state, prompt.seat)
        listed = {RULESET.format_action(a) for a in legal}
        for shape in shapes:
            ((low, high), *rest) = templates.ranges(shape)
            middle = [
                v
                for v in range(low, high + 1)
                if templates.fill(shape, [v] + [lo for lo, _ in rest]) not in listed
            ]
            if middle and not rest:
                text = templates.fill(shape, [middle[0]])
                action = RULESET.parse_notation(text, state)
                assert not isinstance(action, Rejection)
                decided = RULESET.decide(state, Command(action, prompt.seat, "seat"), rng)
                assert not isinstance(decided, Rejection), f"{text}: {decided}"
                assert templates.matches(shape, text) and not templates.matches(shape, f"{text}0")
                return
        action = RULESET.bot_choose(state, prompt.seat, legal, chooser.randrange)
        by: Actor = "seat" if prompt.seat is not None else "recorder"
        decided = RULESET.decide(state, Command(action, prompt.seat, by), rng)
        assert not isinstance(decided, Rejection)
        for fact in decided:
            state = RULESET.evolve(state, fact)
        if RULESET.outcome(state) is not None:
            break
    raise AssertionError("no move with an unlisted count came up")


def test_templates_read_fill_and_match() -> None:
    shape = "move xiangzhou chengdu:1..5 kaifeng:1..3"
    assert templates.ranges(shape) == [(1, 5), (1, 3)]
    assert templates.fill(shape, [2, 3]) == "move xiangzhou chengdu:2 kaifeng:3"
    assert templates.matches(shape, "move xiangzhou chengdu:4 kaifeng:1")
    assert not templates.matches(shape, "move xiangzhou chengdu:6 kaifeng:1")
    assert not templates.matches(shape, "move luoyang chengdu:4 kaifeng:1")
    assert templates.sample(shape, lambda n: n - 1) == "move xiangzhou chengdu:5 kaifeng:3"
