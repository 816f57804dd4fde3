"""Views, redaction, prompts, notation and descriptions of Dynasties & Kingdoms
(dynasties-kingdoms.md 5.1 hidden information, 5.3 actions, 5.6 derived events)."""

from __future__ import annotations

import json
from typing import TypeVar

import msgspec

from domain.games.dynasties import RULESET
from domain.games.dynasties.events import BattleDealt, CardsReplaced, DeckShuffled
from domain.ruleset import OMNISCIENT, PUBLIC, Viewer
from tests.unit.dynasties.playouts import new_config, play
from tests.unit.dynasties.scenarios import Table, config, start


def _battle_table() -> Table:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="expansion",
            provinces={"kaifeng": "red 4", "luoyang": "blue 2"},
        ),
        config_=config(("red", "blue", "green")),
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "luoyang", "from": [{"province": "kaifeng", "count": 2}]}
    )
    t.act({"type": "deal_battle", "attacker_cards": ["QH", "QC", "5S"], "defender_cards": ["KD", "KS", "4C"]})
    return t


F = TypeVar("F", BattleDealt, CardsReplaced, DeckShuffled)


def _red(fact: F, viewer: Viewer) -> F:
    out = RULESET.redact(fact, viewer)
    assert isinstance(out, type(fact))
    return out


def _text(value: object) -> str:
    return json.dumps(msgspec.to_builtins(value))


def test_hidden_cards_show_only_to_the_player_of_that_side_and_the_face_up_card_to_all() -> None:
    t = _battle_table()
    red = _text(RULESET.view(t.state, Viewer("seat", "red")))
    blue = _text(RULESET.view(t.state, Viewer("seat", "blue")))
    public = _text(RULESET.view(t.state, PUBLIC))
    assert '"QC"' in red and '"KS"' not in red and '"KD"' in red
    assert '"KS"' in blue and '"QC"' not in blue and '"QH"' in blue
    assert '"QC"' not in public and '"KS"' not in public and '"QH"' in public and '"KD"' in public
    assert "draw_pile" not in public.replace("draw_pile_count", "")
    assert '"KS"' in _text(RULESET.view(t.state, OMNISCIENT))


def test_redacted_facts_hide_hands_discards_and_shuffle_orders() -> None:
    t = _battle_table()
    dealt = next(f for f in t.facts if isinstance(f, BattleDealt))
    for_green = _red(dealt, Viewer("seat", "green"))
    assert for_green.attacker_cards == ("QH", "??", "??") and for_green.defender_cards == ("KD", "??", "??")
    assert _red(dealt, Viewer("seat", "red")).attacker_cards == ("QH", "QC", "5S")
    t.act(
        {"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": ["5S"], "draw": ["9C"]}
    )
    drawn = t.facts[-1]
    assert isinstance(drawn, CardsReplaced)
    public = _red(drawn, PUBLIC)
    assert public.discard == ("??",) and public.draw == ("??",)
    assert _red(drawn, Viewer("seat", "red")) == drawn
    assert _red(drawn, OMNISCIENT) == drawn
    cfg = t.config
    assert cfg is not None and "??" in RULESET.describe(public, cfg)
    shuffled = DeckShuffled(("2C", "3C"), 2, "deck", 0)
    assert _red(shuffled, PUBLIC).order == ()


def test_after_the_game_everything_is_public_and_every_fact_reads_as_a_line() -> None:
    game = play(new_config(3, "digital", game_id="dk-view"), seed=4)
    view = RULESET.view(game.state, PUBLIC)
    assert "draw_pile" in view["deck"]
    for fact in game.facts:
        assert RULESET.describe(fact, game.config)
        assert RULESET.describe(RULESET.redact(fact, PUBLIC), game.config)


def test_every_listed_and_probed_action_round_trips_through_the_notation() -> None:
    for mode in ("digital", "physical"):
        game = play(new_config(3, mode, game_id=f"dk-notation-{mode}"), seed=3)
        state = RULESET.initial(game.config)
        seen = 0
        for i, fact in enumerate(game.facts):
            state = RULESET.evolve(state, fact)
            if i % 5:
                continue
            for action in RULESET.probe_actions(state):
                text = RULESET.format_action(action)
                assert RULESET.parse_notation(text, state) == action, text
                seen += 1
        assert seen > 100


def test_the_notation_refuses_unreadable_lines() -> None:
    state = RULESET.initial(new_config(2))
    for text in ("", "fly away", "city chengdu x", "move kaifeng", "deal 2C 3C", "draw attacker 2C < 3C"):
        result = RULESET.parse_notation(text, state)
        assert getattr(result, "code", None) == "BAD_PARAMETER", text


def test_a_seat_may_only_answer_its_own_prompt() -> None:
    t = _battle_table()
    (prompt,) = RULESET.pending(t.state)
    assert prompt.seat == "red" and prompt.kinds == ("discard_and_draw",)
    assert RULESET.legal_actions(t.state, "blue") == ()
    assert RULESET.legal_actions(t.state, "red")
