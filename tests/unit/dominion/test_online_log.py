"""Dominion Online logs read and planned into actions without the store: the parser's view of
a real log, and each real base-set log played through the rules engine alone (decide and
evolve) to the log's own final scores (the store-backed import is tests/store/test_log_import)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain.games.dominion import RULESET
from domain.games.dominion.actions import ChooseKingdom
from domain.games.dominion.events import Fact
from domain.games.dominion.logimport import Planner, Stop, unsupported
from domain.games.dominion.onlinelog import (
    FORMAT_2013,
    FORMAT_TODAY,
    UNSEEN,
    LogError,
    cards_of,
    detect,
    hidden_cards,
    parse,
    parse_today,
    singular,
    statements,
)
from domain.games.dominion.turns import card_vp
from domain.online_logs import LogRefusal, OnlineLog, OnlineLogHooks, online_log_reader
from domain.rng import NoRng, SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, all_rulesets, resolve_options
from tests.unit.dominion.log_writer import write_log
from tests.unit.dominion.scenarios import config

LOGS = Path(__file__).parents[2] / "data" / "dominion-logs"
TWO_PLAYER = "log.50a0e49ce4b03482c09cbdb0.1363497384350.txt"
QUIT = "log.51919af0e4b0d001ef25b885.1368496912009.txt"
FEAST = "log.50f5cc9ae4b0b999402937cf.1365717342731.txt"
CHAPEL = "log.5191c02ce4b0ce5189dc951a.1368506756212.txt"


def _text(name: str) -> str:
    return (LOGS / name).read_text()


def test_a_2013_log_is_read_into_players_kingdom_turns_and_final_scores() -> None:
    log = parse(_text(TWO_PLAYER))
    assert log.format == FORMAT_2013
    assert log.players == ("KeyNoir", "Lady Sarra")
    assert log.turn_order == ("Lady Sarra", "KeyNoir")
    assert log.kingdom == (
        "Moat", "Chancellor", "Village", "Workshop", "Remodel",
        "Spy", "Thief", "Throne Room", "Library", "Market",
    )  # fmt: skip
    assert log.turns == 48
    assert log.final["Lady Sarra"].vp == 38 and log.final["KeyNoir"].vp == 34
    assert log.final["KeyNoir"].cards["Moat"] == 4 and log.final["KeyNoir"].turns == 24
    assert not log.left
    first = next(line for line in log.lines if line.kind == "event" and line.verb == "plays")
    assert (first.number, first.player, first.cards) == (11, "Lady Sarra", ("Copper",) * 3)


def test_the_log_lines_of_reactions_topdecks_and_set_aside_cards_get_their_own_verbs() -> None:
    log = parse(_text(TWO_PLAYER))
    by_text = {line.text: line for line in log.lines}
    assert by_text["KeyNoir - reveals reaction Moat"].verb == "reacts"
    assert by_text["KeyNoir - places Copper on top of deck"].cards == ("Copper",)
    assert by_text["KeyNoir - places Copper on top of deck"].verb == "topdecks"
    assert by_text["Lady Sarra - reveals: Workshop, Copper"].cards == ("Workshop", "Copper")
    assert by_text["KeyNoir - discards: Throne Room, Moat, Thief, Village, Village"].verb == "discards"
    assert by_text["KeyNoir - shuffles deck"].verb == "shuffles"


def test_a_player_who_quits_is_read_from_the_game_over_section() -> None:
    log = parse(_text(QUIT))
    assert log.left == ("guest2666.0000",)
    assert log.final["guest2666.0000"].vp == 7
    assert log.turn_order == ("Villager Bot", "guest2666.0000", "Defender Bot", "Banker Bot")


def test_card_lists_expand_their_counts() -> None:
    assert cards_of("2 Copper, 1 Gold") == ("Copper", "Copper", "Gold")
    assert cards_of(" Throne Room") == ("Throne Room",)


def test_todays_format_is_told_apart_and_not_read_as_the_old_one() -> None:
    today = _text("today-162962491.txt")
    assert detect(today) == FORMAT_TODAY
    assert detect(_text(TWO_PLAYER)) == FORMAT_2013
    assert detect("hello") is None
    windows = "\ufeff" + _text(TWO_PLAYER).replace("\n", "\r\n")  # saved by a Windows editor
    assert detect(windows) == FORMAT_2013 and parse(windows).turns == 48
    with pytest.raises(LogError):
        parse(today)


def test_todays_format_reads_hidden_cards_as_unseen_entries() -> None:
    log = parse_today(_text("today-162962491.txt"))
    assert log.format == FORMAT_TODAY
    assert log.turn_order == ("OneDayOfPeace", "Lord Rattington")
    assert log.starting["OneDayOfPeace"] == ("Copper",) * 7 + ("Estate",) * 3
    assert log.turns == 9
    events = [(line.number, line.player, line.verb, line.cards) for line in log.lines if line.kind == "event"]
    assert events[:4] == [
        (21, "OneDayOfPeace", "shuffles", ()),
        (23, "Lord Rattington", "shuffles", ()),
        (25, "OneDayOfPeace", "draws", ("Copper", "Copper", "Copper", "Estate", "Estate")),
        (31, "Lord Rattington", "draws", (UNSEEN,) * 5),
    ]
    # "buys and gains" is a buy and a gain, as the older format writes them.
    assert [(v, c) for n, _, v, c in events if n == 42] == [("buys", ("Village",)), ("gains", ("Village",))]
    # Militia's victim discards a card the log does not name, and an Estate.
    assert (115, "Lord Rattington", "discards", (UNSEEN, "Estate")) in events
    assert (155, "Lord Rattington", "plays", ("Silver", "Copper")) in events


def test_a_log_copied_from_the_browser_is_joined_into_statements() -> None:
    text = (
        "Game #1, unrated.\nCard Pool: level 1\n"
        "O\n plays \n3 Coppers\n. (+$\n3\n)\nO\n buys and gains \na Village\n.\n"
    )
    assert [s for _, s in statements(text)] == [
        "Game #1, unrated.",
        "Card Pool: level 1",
        "O plays 3 Coppers. (+$3)",
        "O buys and gains a Village.",
    ]
    assert hidden_cards("a Copper, an Estate, a Laboratory, and 2 Villages") == (
        "Copper", "Estate", "Laboratory", "Village", "Village",
    )  # fmt: skip
    assert hidden_cards("5 cards") == (UNSEEN,) * 5 and hidden_cards("a card") == (UNSEEN,)
    # Cellar's "discards 2 other cards and a Copper."; Throne Room's "plays a Village again."
    assert hidden_cards("2 other cards and a Copper") == (UNSEEN, UNSEEN, "Copper")
    assert hidden_cards("a Village again") == ("Village",)
    assert [singular(n) for n in ("Coppers", "Duchies", "Witches", "Gardens")] == [
        "Copper", "Duchy", "Witch", "Gardens",
    ]  # fmt: skip


def test_the_cards_chronicle_does_not_implement_are_named() -> None:
    log = parse(_text("log.4fec9f5b30c40b085b22e3fe.1344218998422.txt"))
    assert unsupported(log) == [
        "Explorer", "Harem", "Haven", "Loan", "Mountebank", "Outpost", "Pirate Ship", "Secret Chamber",
        "Treasury", "Venture",
    ]  # fmt: skip
    shelters = unsupported(parse(_text("log.50612a9b51c36e573294bfd0.1367635173776.txt")))
    assert {"Necropolis", "Hovel", "Overgrown Estate", "Colony"} <= set(shelters)
    assert unsupported(parse(_text(TWO_PLAYER))) == []


def _play(name: str, text: str | None = None) -> tuple[Planner, object, Stop, int]:
    """The log through the engine alone, as the importer records it."""
    log = parse(_text(name) if text is None else text)
    seats = {player: f"p{i + 1}" for i, player in enumerate(log.turn_order)}
    options = resolve_options(RULESET.meta, {"kingdom": "manual"})
    assert not isinstance(options, Rejection)
    config = GameConfig("g-log", "dominion", "physical", tuple(Seat(s, n) for n, s in seats.items()), options)
    state = RULESET.initial(config)
    for fact in RULESET.setup(config, state, NoRng()):
        state = RULESET.evolve(state, fact)
    planner = Planner(log, seats)
    for actions in range(5_000):
        step = planner.next_step(state)
        if isinstance(step, Stop):
            return planner, state, step, actions
        by = "recorder"
        facts = RULESET.decide(state, Command(step.action, step.seat, by), NoRng())  # type: ignore[arg-type]
        assert not isinstance(facts, Rejection), (step, facts)
        for fact in facts:
            state = RULESET.evolve(state, fact)
        planner.absorb(facts)
    raise AssertionError("the import did not end")


@pytest.mark.parametrize(
    ("name", "scores", "turns", "repeated_feast_trashes"),
    [
        (TWO_PLAYER, {"p1": 38, "p2": 34}, 48, 0),
        (FEAST, {"p1": 19, "p2": 46}, 52, 3),
        (CHAPEL, {"p1": 42, "p2": 20}, 61, 0),
    ],
)
def test_a_real_base_game_plays_through_the_engine_to_the_logs_final_scores(
    name: str, scores: dict[str, int], turns: int, repeated_feast_trashes: int
) -> None:
    planner, state, stop, _ = _play(name)
    outcome = RULESET.outcome(state)  # type: ignore[arg-type]
    assert stop.reason == "finished" and outcome is not None
    assert outcome.scores == scores
    assert state.turn == turns  # type: ignore[attr-defined]
    # Every line is accounted for by a fact, but the Feast trashes the log repeats.
    assert [line.text for line in planner.unexplained] == ["Art Fey - trashes Feast"] * repeated_feast_trashes
    assert planner.unlogged == []


def test_a_game_a_player_quit_is_played_up_to_where_they_left() -> None:
    planner, state, stop, actions = _play(QUIT)
    assert stop.reason == "left" and "guest2666.0000" in stop.message
    assert RULESET.outcome(state) is None  # type: ignore[arg-type]
    vp = [card_vp(p.owned()) + p.vp for p in state.players]  # type: ignore[attr-defined]
    assert vp == [3, 7, 3, 3]
    assert state.turn == 10 and actions > 0  # type: ignore[attr-defined]
    assert planner.unexplained == []


KINGDOM = (
    "Adventurer", "Bureaucrat", "Cellar", "Council Room", "Gardens",
    "Library", "Militia", "Mine", "Moat", "Woodcutter",
)  # fmt: skip


# Between them these seeds play every card of KINGDOM, Moat revealed against Militia and
# Bureaucrat, Library setting cards aside, Cellar, Mine and Adventurer.
@pytest.mark.parametrize("seed", [2, 4, 5, 6, 8])
def test_bot_games_with_the_cards_no_real_log_plays_import_from_their_written_log(seed: int) -> None:
    """A seeded digital game written as a 2012-13 log (tests/unit/dominion/log_writer.py)
    imports as a physical game to the same scores: Adventurer, Bureaucrat, Cellar, Council
    Room, Library, Militia, Mine and Moat, whose lines the real logs above never show."""
    cfg = config(2, game_id=f"log-{seed}", kingdom="manual")
    rng = SeededRng(bytes(32), cfg.game_id)
    state = RULESET.initial(cfg)
    facts: list[Fact] = list(RULESET.setup(cfg, state, rng))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    bot = random.Random(seed)
    for _ in range(10_000):
        if RULESET.outcome(state) is not None:
            break
        if state.prompts and state.prompts[0].kind == "kingdom":
            command = Command(ChooseKingdom(KINGDOM), None, "recorder")
        else:
            seat = bot.choice(RULESET.pending(state)).seat
            legal = RULESET.legal_actions(state, seat)
            command = Command(RULESET.bot_choose(state, seat, legal, bot.randrange), seat, "seat")
        out = RULESET.decide(state, command, rng)
        assert not isinstance(out, Rejection), out
        for fact in out:
            state = RULESET.evolve(state, fact)
        facts.extend(out)
    played = RULESET.outcome(state)
    assert played is not None
    names = {seat.id: seat.name for seat in cfg.seats}
    planner, imported, stop, _ = _play("written", write_log(facts, names))
    outcome = RULESET.outcome(imported)  # type: ignore[arg-type]
    assert stop.reason == "finished" and outcome is not None, stop
    seat_of = planner.seat_of
    assert {name: outcome.scores[seat_of[name]] for name in names.values()} == {
        names[seat]: score for seat, score in played.scores.items()
    }
    assert imported.turn == state.turn  # type: ignore[attr-defined]
    assert planner.unexplained == [] and planner.unlogged == []


def test_a_log_cut_off_mid_turn_stops_where_the_engine_needs_what_the_log_does_not_say() -> None:
    text = _text(TWO_PLAYER)
    cut = text[: text.index("KeyNoir - draws Copper, Village, Estate, Copper, Copper")]
    _, state, stop, actions = _play("cut", cut + "------------ Game Over ------------\n")
    assert stop.reason == "stuck"
    assert stop.message == "The log does not say which card KeyNoir took from the deck next."
    assert state.turn == 4 and actions > 0  # type: ignore[attr-defined]


def test_a_shuffle_the_log_does_not_announce_is_reported_against_the_engines() -> None:
    text = _text(TWO_PLAYER)
    line = "Lady Sarra - shuffles deck\nLady Sarra - draws Copper, Copper, Silver, Copper, Spy\n"
    planner, _, stop, _ = _play("edited", text.replace(line, line.split("\n", 1)[1]))
    assert stop.reason == "finished"
    assert planner.unlogged == ["turn 2: Lady Sarra shuffles"]


def test_a_turn_the_log_gives_another_player_stops_the_import_at_its_header() -> None:
    text = _text(TWO_PLAYER).replace(
        "---------- KeyNoir: turn 2 ----------", "---------- Lady Sarra: turn 3 ----------"
    )
    _, _, stop, _ = _play("edited", text)
    assert stop.reason == "stuck" and stop.line is not None and stop.line.number == 29
    assert stop.message == "The log's next turn is Lady Sarra's, but the rules give it to KeyNoir."


def test_todays_log_reads_a_kingdom_note_ratings_reactions_and_a_resignation_in_full_name() -> None:
    """The lines a real log of today's format has around its events (tests/data/dominion-logs/
    today-183977272.txt opens with a kingdom note and two ratings), and the line of a player
    who resigned, which names them in full."""
    text = (
        "CEL MOA VIL WOR GAR REM LAB WIT SMI FES\nGame #1, rated.\nada: 42.72\nTimer: Friendly\n"
        "Card Pool: level 1\na starts with 3 Estates.\na starts with 7 Coppers.\n"
        "d starts with 7 Coppers.\nd starts with 3 Estates.\nTurn 1 - ada\n"
        "a plays a Witch.\nd reacts with a Moat.\nThe game has ended.\nada has resigned.\n"
    )
    log = parse_today(text)
    assert log.starting["ada"] == ("Estate",) * 3 + ("Copper",) * 7
    events = [(line.player, line.verb, line.cards) for line in log.lines if line.kind == "event"]
    assert events == [("ada", "plays", ("Witch",)), ("d", "reacts", ("Moat",)), ("ada", "leaves", ())]


def test_dominion_is_the_game_whose_online_logs_the_registry_finds() -> None:
    """The store imports a log through the ruleset's optional `read_online_log`
    (domain/online_logs.py), found through the registry; the other games read no logs."""
    hooks: OnlineLogHooks = RULESET  # the ruleset and its log fit the protocols (mypy checks)
    assert online_log_reader(RULESET) is hooks
    assert [r.meta.id for r in all_rulesets() if online_log_reader(r) is not None] == ["dominion"]
    log: OnlineLog = RULESET.read_online_log((LOGS / TWO_PLAYER).read_text(), ())
    assert (log.players, log.format, log.tag) == (("Lady Sarra", "KeyNoir"), FORMAT_2013, "dominion-online")
    assert log.log_scores() == {"Lady Sarra": 38, "KeyNoir": 34}
    with pytest.raises(LogRefusal) as refused:
        RULESET.read_online_log("not a log", ())
    assert refused.value.code == "log_unreadable"
