"""Verifiable randomness of a digital game (design.md 4, dynasties-kingdoms.md 5.4-5.5): every
random fact names its stream, counter and outcome, so once the seed is revealed anyone
recomputes every roll with `chronicle rng`; physical games record observed outcomes and refuse
impossible ones."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections import Counter
from pathlib import Path

from domain.games.dynasties import RULESET, stats
from domain.games.dynasties.cards import DECK, canonical
from domain.games.dynasties.events import (
    BattleDealt,
    CardsReplaced,
    CityDestructionRolled,
    CityRolled,
    DeckShuffled,
    ProvinceRolled,
    TurnOrderRolled,
)
from domain.rng import SeededRng
from replay_cli.main import main as cli_main
from tests.unit.dynasties.playouts import new_config, play, seed_of
from tests.unit.dynasties.scenarios import Table, start

ROOT = Path(__file__).resolve().parents[3]


def _chronicle() -> list[str]:
    """The installed `chronicle` beside this interpreter, else the same command as a module:
    the suite installs the project, so the command is never missing."""
    exe = Path(sys.executable).with_name("chronicle")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "replay_cli.main"]


def test_every_roll_of_a_finished_digital_game_is_recomputed_from_the_revealed_seed_by_the_cli() -> None:
    config = new_config(3, "digital", game_id="dk-rng-cli")
    game = play(config, seed=5, bot=True)
    assert game.state.status == "finished"
    seed_hex = seed_of(config.game_id).hex()
    dice = [
        f
        for f in game.facts
        if isinstance(f, TurnOrderRolled | CityRolled | ProvinceRolled | CityDestructionRolled)
    ]
    assert dice and all(f.stream is not None and f.n is not None for f in dice)
    by_stream: dict[str, list[tuple[int, tuple[int, ...]]]] = {}
    for f in dice:
        faces: tuple[int, ...] = (f.first, f.second) if isinstance(f, ProvinceRolled) else (f.value,)
        assert f.stream is not None and f.n is not None
        by_stream.setdefault(f.stream, []).append((f.n, faces))
    cli = _chronicle()
    for stream, rolls in by_stream.items():
        assert [n for n, _ in rolls] == list(range(len(rolls))), f"{stream} counters are not 0, 1, 2, ..."
        # The installed command on the first, a middle and the last counter of each stream (a
        # process each); every roll goes through the same command in-process below.
        for n, faces in (rolls[i] for i in sorted({0, len(rolls) // 2, len(rolls) - 1})):
            out = subprocess.run(
                [
                    *cli,
                    "rng",
                    "roll",
                    "--seed",
                    seed_hex,
                    "--game",
                    config.game_id,
                    "--stream",
                    stream,
                    "--n",
                    str(n),
                    "--faces",
                    "6",
                    "--count",
                    str(len(faces)),
                ],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            ).stdout.split()
            assert tuple(map(int, out)) == faces, f"{stream} #{n}"
    # Every roll, through the same command run in-process (a subprocess per roll is slow).
    for stream, rolls in by_stream.items():
        for n, faces in rolls:
            argv = ["rng", "roll", "--seed", seed_hex, "--game", config.game_id, "--stream", stream]
            argv += ["--n", str(n), "--faces", "6", "--count", str(len(faces))]
            out_buf = io.StringIO()
            with contextlib.redirect_stdout(out_buf):
                assert cli_main(argv) == 0
            assert tuple(map(int, out_buf.getvalue().split())) == faces, f"{stream} #{n}"
    rng = SeededRng(seed_of(config.game_id), config.game_id)
    shuffle = next(f for f in game.facts if isinstance(f, DeckShuffled))
    assert (shuffle.stream, shuffle.n) == ("deck", 0)
    assert shuffle.order == rng.shuffle("deck", 0, DECK)
    out = subprocess.run(
        [
            *cli,
            "rng",
            "shuffle",
            "--seed",
            seed_hex,
            "--game",
            config.game_id,
            "--stream",
            "deck",
            "--n",
            "0",
            *DECK,
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    assert tuple(out) == shuffle.order


def test_the_facts_carry_every_face_per_stream_for_a_fairness_check() -> None:
    faces: dict[str, Counter[int]] = {}
    for i in range(6):
        game = play(new_config(4, "digital", game_id=f"dk-fair-{i}"), seed=i, bot=True)
        for f in game.facts:
            if isinstance(f, ProvinceRolled):
                faces.setdefault(f.stream or "", Counter()).update((f.first, f.second))
            elif isinstance(f, TurnOrderRolled | CityRolled | CityDestructionRolled):
                faces.setdefault(f.stream or "", Counter()).update((f.value,))
    assert set(faces) == {"dice", "turn-order"}
    dice = faces["dice"]
    total = sum(dice.values())
    assert total > 1000 and all(abs(dice[v] / total - 1 / 6) < 0.03 for v in range(1, 7))


def test_reshuffles_in_a_digital_game_use_the_next_deck_counter_and_cards_stay_whole() -> None:
    game = play(new_config(6, "digital", game_id="dk-reshuffle"), seed=2)
    rng = SeededRng(seed_of("dk-reshuffle"), "dk-reshuffle")
    reshuffles = [
        f.reshuffle
        for f in game.facts
        if isinstance(f, BattleDealt | CardsReplaced) and f.reshuffle is not None
    ]
    assert [r.n for r in reshuffles] == list(range(1, len(reshuffles) + 1))
    for r in reshuffles:
        assert r.n is not None and r.order == rng.shuffle("deck", r.n, canonical(r.order))
    s = game.state
    held = (s.battle.attacker.cards + s.battle.defender.cards) if s.battle else ()
    assert sorted(s.draw + s.discard + held) == sorted(DECK)


def test_a_physical_recorder_cannot_enter_an_impossible_die_face() -> None:
    t = Table(start(active="red", phase="city", to_roll=("chengdu",), provinces={"chengdu": "red 4, city"}))
    t.act({"type": "roll_city", "province": "chengdu", "value": 7}, "BAD_PARAMETER")
    t.act({"type": "roll_city", "province": "chengdu", "value": 0}, "BAD_PARAMETER")
    t.act({"type": "roll_city", "province": "chengdu"}, "BAD_PARAMETER")
    t.act({"type": "roll_city", "province": "chengdu", "value": 6})


def test_a_physical_recorder_cannot_deal_or_draw_a_card_already_in_a_hand() -> None:
    t = Table(start(active="red", phase="expansion", provinces={"kaifeng": "red 4", "luoyang": "blue 1"}))
    t.act(
        {"type": "move_army", "player": "red", "to": "luoyang", "from": [{"province": "kaifeng", "count": 1}]}
    )
    t.act(
        {"type": "deal_battle", "attacker_cards": ["2C", "3C"], "defender_cards": ["3C", "AH"]},
        "BAD_PARAMETER",
    )
    t.act(
        {"type": "deal_battle", "attacker_cards": ["2C", "3C", "4C"], "defender_cards": ["AH", "AS"]},
        "HAND_SIZE",
    )
    t.act(
        {"type": "deal_battle", "attacker_cards": ["2C", "1C"], "defender_cards": ["AH", "AS"]},
        "BAD_PARAMETER",
    )
    t.act({"type": "deal_battle", "attacker_cards": ["2C", "3C"], "defender_cards": ["AH", "AS"]})
    dd = {"type": "discard_and_draw", "side": "attacker", "player": "red"}
    t.act({**dd, "discard": ["3C"], "draw": ["AH"]}, "CARD_UNAVAILABLE")
    t.act({**dd, "discard": ["4C"], "draw": ["5C"]}, "NOT_IN_HAND")
    t.act({**dd, "discard": ["3C"], "draw": ["5C", "6C"]}, "DRAW_COUNT")
    t.act({**dd, "discard": ["3C"], "draw": ["3C"]}, "BAD_PARAMETER")
    t.act({**dd, "discard": ["3C"], "draw": ["5C"]})


def test_digital_setup_rolls_the_whole_roll_off_from_the_turn_order_stream() -> None:
    config = new_config(5, "digital", game_id="dk-setup")
    state = RULESET.initial(config)
    facts = RULESET.setup(config, state, SeededRng(seed_of("dk-setup"), "dk-setup"))
    rolls = [f for f in facts if isinstance(f, TurnOrderRolled)]
    assert [f.n for f in rolls] == list(range(len(rolls))) and len(rolls) >= 5
    for f in facts:
        state = RULESET.evolve(state, f)
    assert state.status == "setup_homelands" and sorted(state.turn_order) == sorted(config.seat_ids())


def test_the_statistics_hooks_report_every_die_per_stream_in_both_modes() -> None:
    for mode in ("digital", "physical"):
        game = play(new_config(3, mode, game_id=f"dk-stats-{mode}"), seed=1)
        dice = [d for f in game.facts for d in RULESET.dice(f)]
        streams = {stream for stream, _, _ in dice}
        assert streams == {"dice", "turn-order"}
        assert all(faces == 6 and all(1 <= v <= 6 for v in values) for _, faces, values in dice)
        figures = RULESET.metrics(game.state)
        assert set(figures["vp"]) == set(game.config.seat_ids())
        extra = stats.per_game(game.config, game.facts, RULESET.outcome(game.state))
        assert sum(sum(v.values()) for v in extra["vt_by_source"].values()) == sum(
            p.vt for p in game.state.players
        )
