"""Views, redaction, the log, notation, the stored continuation and seeded playouts of the
Dominion ruleset (dominion.md 4.1, 6.5; design.md 2)."""

from __future__ import annotations

import msgspec
import pytest

from domain.games.dominion import RULESET
from domain.games.dominion.actions import BuyCard, EndPhase, PlayCard, SelectCards
from domain.games.dominion.events import Drew, Fact, Shuffled
from domain.ruleset import OMNISCIENT, PUBLIC, Command, Rejection, Viewer
from tests.contract import test_rulesets as contract
from tests.unit.dominion.scenarios import Game, config, table


def _text(view: object) -> str:
    return msgspec.json.encode(view).decode()


def test_a_seat_sees_its_own_hand_and_nobody_sees_a_deck_order() -> None:
    game = table(
        zones={"p1": {"hand": ["Gold", "Village"], "deck": ["Province", "Witch"]}, "p2": {"hand": ["Moat"]}}
    )
    mine = RULESET.view(game.state, Viewer("seat", "p1"))
    assert mine["players"]["p1"]["hand"] == ["Gold", "Village"]
    assert "hand" not in mine["players"]["p2"] and mine["players"]["p2"]["hand_count"] == 1
    for viewer in (PUBLIC, Viewer("seat", "p1"), Viewer("seat", "p2")):
        shown = RULESET.view(game.state, viewer)
        assert all("deck" not in p for p in shown["players"].values())
    assert RULESET.view(game.state, OMNISCIENT)["players"]["p1"]["deck"] == ["Province", "Witch"]
    public = _text(RULESET.view(game.state, PUBLIC))
    assert '"Moat"' not in public.replace('"supply"', "")[public.find('"players"') :]


def test_other_players_see_only_how_many_cards_were_drawn() -> None:
    game = table(zones={"p1": {"hand": ["Smithy"], "deck": ["Gold", "Gold", "Silver"]}})
    facts = game.do("p1", "play Smithy")
    drew = next(f for f in facts if isinstance(f, Drew))
    other = RULESET.redact(drew, Viewer("seat", "p2"))
    assert isinstance(other, Drew)
    assert other.cards == () and other.count == 3
    assert RULESET.describe(other, game.config) == "Ann draws 3 cards."
    assert (
        RULESET.describe(RULESET.redact(drew, Viewer("seat", "p1")), game.config)
        == "Ann draws 2 Golds and a Silver."
    )
    assert RULESET.redact(drew, OMNISCIENT) is drew


def test_no_shuffle_order_is_shown_to_any_player() -> None:
    game = Game(config(2))
    shuffle = next(f for f in game.facts if isinstance(f, Shuffled))
    assert shuffle.order is not None and shuffle.stream is not None and shuffle.stream.startswith("deck:")
    for viewer in (PUBLIC, Viewer("seat", shuffle.player)):
        hidden = RULESET.redact(shuffle, viewer)
        assert isinstance(hidden, Shuffled) and hidden.order is None


def test_everything_is_public_after_the_game() -> None:
    game = table(phase="buy", coins=8, supply={"Province": 1}, zones={"p2": {"hand": ["Moat"]}})
    game.do("p1", "buy Province")
    game.do("p1", "end")
    shown = RULESET.view(game.state, PUBLIC)
    assert "deck" in shown["players"]["p2"] and "hand" in shown["players"]["p2"]
    assert shown["result"]["winners"]


def test_the_log_reads_like_an_online_log() -> None:
    game = table(kingdom="first_game", zones={"p1": {"hand": ["Village", "Copper"], "deck": ["Smithy"]}})
    lines = game.lines(game.do("p1", "play Village"))
    assert lines == ["Ann plays a Village.", "Ann gets +2 Actions (Village).", "Ann draws a Smithy."]


def test_a_prompt_survives_a_restart_between_two_requests() -> None:
    game = table(
        players=3,
        kingdom="first_game",
        zones={
            "p1": {"hand": ["Militia"]},
            "p2": {"hand": ["Copper"] * 5, "deck": ["Copper"] * 5},
            "p3": {"hand": ["Estate"] * 4 + ["Copper"]},
        },
    )
    start = game.state
    game.do("p1", "play Militia")
    stored = msgspec.json.encode([RULESET.codec.encode(f) for f in game.facts])
    restored = start
    for data in msgspec.json.decode(stored):
        restored = RULESET.evolve(restored, RULESET.codec.decode_fact(data))
    assert restored == game.state
    # Every card p2 might hold is a Copper, so everyone can tell p2's discard is forced.
    assert [p.seat for p in RULESET.pending(restored)] == ["p3"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("play Village", PlayCard("Village")),
        ("play throne room", PlayCard("Throne Room")),
        ("buy Gold", BuyCard("Gold")),
        ("end", EndPhase()),
        ("discard Copper Estate", SelectCards("discard", ("Copper", "Estate"))),
        ("discard 2 Coppers", SelectCards("discard", ("Copper", "Copper"))),
        ("trash Council Room, Estate", SelectCards("trash", ("Council Room", "Estate"))),
    ],
)
def test_the_notation_reads_table_shorthand(text: str, action: object) -> None:
    state = RULESET.initial(config(2))
    assert RULESET.parse_notation(text, state) == action


def test_the_notation_refuses_gibberish_with_the_rule() -> None:
    out = RULESET.parse_notation("dance wildly", RULESET.initial(config(2)))
    assert isinstance(out, Rejection) and out.rule == "dominion 4.1"


def test_play_in_the_buy_phase_plays_treasures() -> None:
    game = table(phase="buy", zones={"p1": {"hand": ["Copper", "Silver"]}})
    game.do("p1", "play Copper Silver")
    assert game.state.coins == 3


def test_random_facts_and_reveals_are_boundaries() -> None:
    game = Game(config(2))
    kinds = {type(f).__name__: RULESET.boundary(f) for f in game.facts}
    assert kinds["Shuffled"] == "random" and kinds["Drew"] == "random" and kinds["TurnStarted"] is None


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_seeded_random_playouts_keep_the_contract(mode: str) -> None:
    # A physical game whose recorder enters random outcomes runs long: three of them, beside the
    # chunked physical playouts of tests/contract/test_rulesets.py
    for i in range(6 if mode == "digital" else 3):
        playout = contract.play(RULESET, 500 + i if mode == "digital" else 20_500 + i, mode)
        contract.check_facts(RULESET, playout, one_by_one=i == 0)
        assert RULESET.outcome(playout.state) is not None


def test_bot_games_end_and_are_deterministic() -> None:
    import random

    from domain.rng import SeededRng

    def run(seed: int) -> list[Fact]:
        cfg = config(2, game_id=f"bot-{seed}")
        rng = SeededRng(bytes(32), cfg.game_id)
        state = RULESET.initial(cfg)
        facts: list[Fact] = list(RULESET.setup(cfg, state, rng))
        for f in facts:
            state = RULESET.evolve(state, f)
        bot = random.Random(seed)
        for _ in range(5000):
            if RULESET.outcome(state) is not None:
                return facts
            seat = bot.choice(RULESET.pending(state)).seat
            legal = RULESET.legal_actions(state, seat)
            action = RULESET.bot_choose(state, seat, legal, bot.randrange)
            out = RULESET.decide(state, Command(action, seat, "seat"), rng)
            assert not isinstance(out, Rejection)
            for f in out:
                state = RULESET.evolve(state, f)
            facts.extend(out)
        raise AssertionError("the bot game did not end")

    assert run(3) == run(3)
    run(4)


def test_public_and_seat_views_of_a_running_game_never_hold_another_seats_hidden_zones() -> None:
    playout = contract.play(RULESET, 700, "digital", sample=False)
    state = RULESET.initial(playout.config)
    for i, fact in enumerate(playout.facts):
        state = RULESET.evolve(state, fact)
        if state.status != "playing" or i % 7:
            continue
        for viewer in (PUBLIC, *(Viewer("seat", s.id) for s in playout.config.seats)):
            for seat, shown in RULESET.view(state, viewer)["players"].items():
                assert "deck" not in shown and "deck_unknown" not in shown
                if not viewer.sees_seat(seat):
                    assert "hand" not in shown and "discard" not in shown and "deck_count" not in shown


def test_every_redacted_fact_still_reads_as_a_log_line() -> None:
    playout = contract.play(RULESET, 701, "physical", sample=False)
    for fact in playout.facts:
        for viewer in (PUBLIC, Viewer("seat", "p1")):
            line = RULESET.describe(RULESET.redact(fact, viewer), playout.config)
            assert line and line[0].isupper()


def test_reveal_moat_reads_as_a_reaction_while_one_is_asked() -> None:
    game = table(
        kingdom="first_game", zones={"p1": {"hand": ["Militia"]}, "p2": {"hand": ["Moat"] + ["Copper"] * 4}}
    )
    game.do("p1", "play Militia")
    game.do("p2", "reveal Moat")
    assert "Bob reveals a Moat against the Militia." in game.lines()
    assert len(game.player("p2").hand) == 5


def test_the_statistics_hooks_follow_vp_and_report_the_first_player_die() -> None:
    game = Game(config(3, game_id="stats"))
    metrics = RULESET.metrics(game.state)
    assert metrics["vp"] == {"p1": 3.0, "p2": 3.0, "p3": 3.0}
    assert metrics["cards"]["p2"] == 10.0
    dice = [d for f in game.facts for d in RULESET.dice(f)]
    assert len(dice) == 1 and dice[0][0] == "first-player" and dice[0][1] == 3 and 1 <= dice[0][2][0] <= 3
