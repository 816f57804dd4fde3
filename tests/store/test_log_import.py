"""Real Dominion Online logs imported into the store as physical games, action by action
through the same append path as the table's recorder, then audited (both stores)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple
from uuid import UUID

import pytest

from domain.events import FactRecorded
from domain.games.dominion.online_import import implemented_sets
from store.app import Chronicle
from store.audit import audit_events
from store.imports import LogRefused, import_log

LOGS = Path(__file__).parents[1] / "data" / "dominion-logs"
TWO_PLAYER = "log.50a0e49ce4b03482c09cbdb0.1363497384350.txt"
QUIT = "log.51919af0e4b0d001ef25b885.1368496912009.txt"
TODAY_MILITIA = "today-183266643.txt"


class Today(NamedTuple):
    """A real log of today's format, the kingdom its fixture's first line abbreviates, the
    scores tallied from its gains and trashes, and its turn headers."""

    name: str
    piles: str
    scores: dict[str, int]
    turns: int

    @property
    def kingdom(self) -> tuple[str, ...]:
        return tuple(pile.strip() for pile in self.piles.split(","))


TODAY = [
    Today(
        TODAY_MILITIA,
        "Remodel, Smithy, Laboratory, Market, Workshop, Militia, Moneylender, Poacher, Cellar, Moat",
        {"Lord Rattington": 39, "domibot_v1.4": 28},
        33,
    ),
    Today(
        "today-183186242.txt",
        "Council Room, Library, Mine, Witch, Workshop, Moneylender, Throne Room, Bandit, Vassal, Village",
        {"domibot_v1.4": 21, "apoorvab": 25},
        45,
    ),
    Today(
        "today-183977272.txt",
        "Cellar, Moat, Village, Workshop, Gardens, Remodel, Laboratory, Witch, Smithy, Festival",
        {"Sam": 43, "domibot_v1.4": 57},
        54,
    ),
    Today(
        "today-183956265.txt",
        "Poacher, Vassal, Throne Room, Witch, Bandit, Chapel, Laboratory, Gardens, Moat, Market",
        {"felix": 21, "domibot_v1.4": 31},
        40,
    ),
]  # fmt: skip


def test_a_real_two_player_base_game_imports_audit_clean_with_the_logs_final_scores(tmp_path: Path) -> None:
    """590 appends: on SQLite only (PostgreSQL takes the same path in the shorter imports below)."""
    app = Chronicle(f"sqlite:///{tmp_path}/games.sqlite3")
    try:
        _imports_the_two_player_game(app)
    finally:
        app.close()


def _imports_the_two_player_game(app: Chronicle) -> None:
    report = import_log(app, (LOGS / TWO_PLAYER).read_text(), TWO_PLAYER, game="dominion")
    assert report.status == "finished", report.message
    assert report.scores == {"Lady Sarra": 38, "KeyNoir": 34} == report.scores_log
    assert report.turns == report.turns_log == 48
    assert report.refusal is None and report.unexplained == [] and report.unlogged == []
    assert report.players == {"p1": "Lady Sarra", "p2": "KeyNoir"}
    game_id = UUID(report.game_id)
    game = app.game(game_id)
    assert game.outcome is not None and game.outcome.winners == ("p1",)
    assert game.config.mode == "physical"
    audit = audit_events(app.stored_events(game_id), None)
    assert audit.clean, audit.divergence
    assert report.actions == audit.actions


def test_a_game_a_player_quit_is_imported_up_to_there_and_reported(app: Chronicle) -> None:
    report = import_log(app, (LOGS / QUIT).read_text(), QUIT, game="dominion")
    assert report.status == "left" and "guest2666.0000 left" in report.message
    assert report.scores == report.scores_log == {
        "Villager Bot": 3, "guest2666.0000": 7, "Defender Bot": 3, "Banker Bot": 3,
    }  # fmt: skip
    assert report.turns == report.turns_log == 10
    game_id = UUID(report.game_id)
    game = app.game(game_id)
    # The player who quit resigns: the game ends, the resigner ranks last despite the most VP.
    assert game.status == "finished" and game.resigned == "p2"
    assert game.outcome is not None and game.outcome.ranks["p2"] == 4 and "p2" not in game.outcome.winners
    # The three bots who stayed tie on 3 VP; Villager Bot took a third turn, so the other two
    # win (fewest turns, dominion.md 7.3), as the log's own places say.
    names = report.players
    assert (
        [names[seat] for seat in game.outcome.winners]
        == _log_places(QUIT)[1]
        == ["Defender Bot", "Banker Bot"]
    )
    assert game.outcome.ranks == {"p1": 3, "p2": 4, "p3": 1, "p4": 1}
    audit = audit_events(app.stored_events(game_id), None)
    assert audit.clean, audit.divergence


def _log_places(name: str) -> dict[int, list[str]]:
    """The names the 2012-13 log's closing lines put in each place ("1st place: Banker Bot")."""
    places: dict[int, list[str]] = {}
    for line in (LOGS / name).read_text().splitlines():
        place, found, player = line.partition(" place: ")
        if found:
            places.setdefault(int(place.rstrip("stndrh")), []).append(player.strip())
    return places


@pytest.mark.parametrize(
    ("name", "code", "named"),
    [
        ("log.4fec9f5b30c40b085b22e3fe.1344218998422.txt", "cards_not_implemented", "Secret Chamber"),
        ("log.50612a9b51c36e573294bfd0.1367635173776.txt", "cards_not_implemented", "Necropolis"),
        ("today-162962491.txt", "log_kingdom", "Laboratory, Library, Militia, Village; name the 10"),
    ],
)
def test_a_log_chronicle_cannot_import_is_refused_before_anything_is_stored(
    app: Chronicle, name: str, code: str, named: str
) -> None:
    before = app.recorder.max_notification_id()
    with pytest.raises(LogRefused) as refused:
        import_log(app, (LOGS / name).read_text(), name, game="dominion")
    assert refused.value.code == code and named in refused.value.detail
    assert app.recorder.max_notification_id() == before


def test_the_first_refused_action_is_reported_with_its_turn_line_and_rule(app: Chronicle) -> None:
    text = (
        (LOGS / TWO_PLAYER)
        .read_text()
        .replace(
            "Lady Sarra - plays 4 Copper\nLady Sarra - buys Spy",
            "Lady Sarra - plays 4 Copper\nLady Sarra - buys Gold",
        )
    )
    report = import_log(app, text, "edited", game="dominion")
    assert report.status == "refused"
    refusal = report.refusal
    assert refusal is not None
    assert (refusal.turn, refusal.line, refusal.text) == (2, 24, "Lady Sarra - buys Gold")
    assert (refusal.code, refusal.rule) == ("cannot_afford", "dominion 4.2")
    game_id = UUID(report.game_id)
    assert app.game(game_id).state.turn == 3 and report.actions > 0
    assert audit_events(app.stored_events(game_id), None).clean


@pytest.mark.parametrize("log", TODAY, ids=[log.name for log in TODAY])
def test_a_real_game_of_todays_format_imports_with_hidden_draws_audit_clean(
    tmp_path: Path, log: Today
) -> None:
    """The opponent's draws are hidden ("L draws 5 cards."): entered as unseen cards. The log
    prints no final scores: they are tallied from its gains and trashes, and must equal the
    engine's final count; every log line is accounted for by a fact."""
    app = Chronicle(f"sqlite:///{tmp_path}/games.sqlite3")
    try:
        report = import_log(app, (LOGS / log.name).read_text(), log.name, log.kingdom, game="dominion")
        assert report.status == "finished", report.message
        assert report.scores == report.scores_log == log.scores
        assert report.turns == report.turns_log == log.turns
        assert report.refusal is None and report.unexplained == [] and report.unlogged == []
        game_id = UUID(report.game_id)
        game = app.game(game_id)
        assert game.config.options["base_edition"] == 2 and game.config.mode == "physical"
        winner = max(log.scores, key=lambda name: log.scores[name])
        assert game.outcome is not None and game.outcome.winners == (_seat(report.players, winner),)
        audit = audit_events(app.stored_events(game_id), None)
        assert audit.clean, audit.divergence
        assert report.actions == audit.actions
    finally:
        app.close()


def _seat(players: dict[str, str], name: str) -> str:
    return next(seat for seat, n in players.items() if n == name)


def test_a_log_of_todays_format_without_its_kingdom_is_refused_naming_the_piles_it_shows(
    app: Chronicle,
) -> None:
    before = app.recorder.max_notification_id()
    with pytest.raises(LogRefused) as refused:
        import_log(app, (LOGS / TODAY_MILITIA).read_text(), TODAY_MILITIA, game="dominion")
    assert refused.value.code == "log_kingdom"
    assert "names only 4 kingdom piles" in refused.value.detail and "Poacher" in refused.value.detail
    assert app.recorder.max_notification_id() == before


def test_a_player_who_resigns_in_a_log_of_todays_format_resigns_in_the_game(app: Chronicle) -> None:
    """Today's log names the leaver in full after its last turn ("ada has resigned.", after "The
    game has ended."): the real game cut after turn 9, with Lord Rattington resigning."""
    log = TODAY[0]
    text = (LOGS / log.name).read_text()
    text = (
        text[: text.index("Turn 10 - Lord Rattington")]
        + "The game has ended.\nLord Rattington has resigned.\n"
    )
    report = import_log(app, text, "resigned", log.kingdom, game="dominion")
    assert report.status == "left" and "Lord Rattington left the online game" in report.message
    # 18 turn headers; the rules had begun Lord Rattington's 10th turn when he resigned.
    assert (report.turns_log, report.turns) == (18, 19)
    assert report.unexplained == [] and report.refusal is None
    game_id = UUID(report.game_id)
    game = app.game(game_id)
    assert game.status == "finished" and game.resigned == "p1"
    assert game.outcome is not None and game.outcome.winners == ("p2",)
    assert report.scores == report.scores_log == {"Lord Rattington": 9, "domibot_v1.4": 9}
    audit = audit_events(app.stored_events(game_id), None)
    assert audit.clean, audit.divergence


def test_an_opponents_sentry_look_the_log_hides_is_entered_unseen_and_the_game_imports_whole(
    app: Chronicle,
) -> None:
    """Sentry's look is its player's alone (6.5): "a looks at 2 cards." is entered with the
    names the next lines give ("trashes 2 Estates") and `?` where they give none ("topdecks 2
    cards", ada's Sentry in turn 15). The real game imports to ada's resignation, audit-clean,
    with the scores its gains give."""
    name = "today-183976797.txt"
    kingdom = (
        "Merchant",
        "Militia",
        "Remodel",
        "Council Room",
        "Sentry",
        "Village",
        "Smithy",
        "Festival",
        "Market",
    )
    report = import_log(app, (LOGS / name).read_text(), name, (*kingdom, "Laboratory"), game="dominion")
    assert report.status == "left" and report.refusal is None, report
    assert (report.turns, report.turns_log) == (34, 34) and report.unexplained == []
    assert report.scores == report.scores_log == {"ada": 21, "domibot_v1.4": 28}
    game_id = UUID(report.game_id)
    game = app.game(game_id)
    assert game.status == "finished" and game.resigned == "p1"
    looks = [
        e.fact
        for e in app.stored_events(game_id)
        if isinstance(e, FactRecorded) and e.fact["type"] == "looked" and e.fact["player"] == "p1"
    ]
    assert any(None in f["cards"] or "?" in f["cards"] for f in looks), looks  # seen by ada alone
    audit = audit_events(app.stored_events(game_id), None)
    assert audit.clean, audit.divergence
    assert report.actions == audit.actions


def test_a_log_that_contradicts_itself_is_refused_with_its_reason_storing_nothing(app: Chronicle) -> None:
    # KeyNoir's second turn given to Lady Sarra: the rules give it to KeyNoir (log line 29).
    text = (LOGS / TWO_PLAYER).read_text()
    edited = text.replace("---------- KeyNoir: turn 2 ----------", "---------- Lady Sarra: turn 3 ----------")
    before = app.recorder.max_notification_id()
    with pytest.raises(LogRefused) as refused:
        import_log(app, edited, "edited", game="dominion")
    assert refused.value.code == "log_inconsistent"
    assert "Line 29 ('---------- Lady Sarra: turn 3 ----------')" in refused.value.detail
    assert "the rules give it to KeyNoir" in refused.value.detail
    assert app.recorder.max_notification_id() == before


def test_the_refusal_of_cards_names_the_sets_the_installed_card_data_holds(app: Chronicle) -> None:
    assert implemented_sets() == "the base game (1st and 2nd edition) and Empires"
    name = "log.4fec9f5b30c40b085b22e3fe.1344218998422.txt"
    with pytest.raises(LogRefused) as refused:
        import_log(app, (LOGS / name).read_text(), name, game="dominion")
    assert refused.value.detail.startswith(f"Chronicle implements {implemented_sets()}; this log uses ")
