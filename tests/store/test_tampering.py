"""The audit against a forger with write access to the database, on both stores.

For every ruleset, digital and physical, a seeded bot game is recorded through the store
(with a few retractions), then edited with SQL on its stored rows in each of the ways of
tests/store/tampering.py, at places a seeded generator picks. Each edit must be reported
unclean, at the version where the record first stops adding up and with the code that says
why; the untouched game, and the game put back after each edit, audit clean.

The games are kept short so the suite stays quick: Dynasties to 15 VT and Dominations with one
or two turns an age are played to the end, Province and Dominion cut after 30 actions (their
seed tampering then edits the sealed seed of the running game instead of the revealed one).
`CHRONICLE_TAMPER_ROUNDS=N` tries every tampering at N seeded places per game (default 1).
"""

from __future__ import annotations

import os
import random
from contextlib import closing
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.ruleset import get_ruleset
from replay_cli.errors import REFUSED
from replay_cli.main import main
from store.app import ADMIN, ANONYMOUS, Chronicle
from store.audit import AuditReport, audit_game
from store.secrets import secrets_id
from tests.api.support import ADMIN_TOKEN, assert_problem, bearer
from tests.store.tampering import (
    RETRACTION,
    TAMPERINGS,
    Context,
    Recorded,
    StoredRows,
    Tampered,
    first_difference,
    record_game,
    tamper,
)

ROUNDS = int(os.environ.get("CHRONICLE_TAMPER_ROUNDS", "1"))

# ruleset, mode, options, action cap
GAMES: list[tuple[str, str, dict[str, Any], int]] = [
    ("province", "digital", {}, 30),
    ("province", "physical", {}, 30),
    ("dominion", "digital", {}, 30),
    ("dominion", "physical", {}, 30),
    ("dynasties", "digital", {"victory_vt": 15}, 200),
    ("dynasties", "physical", {"victory_vt": 15}, 200),
    ("dominations", "digital", {"turns_per_age": 2}, 200),
    ("dominations", "physical", {"turns_per_age": 1}, 200),
]


def _describe(report: AuditReport) -> str:
    found = report.divergence
    if found is None:
        return "clean"
    return f"version {found.version} {found.code} [{found.rule}]: {found.what[:160]}"


def _check(report: AuditReport, tampered: Tampered) -> str | None:
    """What is wrong with the audit's answer to `tampered`, if anything."""
    found = report.divergence
    if (
        not report.clean
        and found is not None
        and (found.version, found.code) == (tampered.version, tampered.code)
        and (tampered.rule is None or found.rule == tampered.rule)
        and found.what
    ):
        return None
    wanted = f"version {tampered.version} {tampered.code}" + (f" [{tampered.rule}]" if tampered.rule else "")
    return f"{tampered.kind} ({tampered.note}): wanted {wanted}, got {_describe(report)}"


@pytest.mark.parametrize(
    ("ruleset_id", "mode", "options", "cap"), GAMES, ids=[f"{r}-{m}" for r, m, *_ in GAMES]
)
def test_every_tampering_of_a_stored_game_is_reported_where_it_lies(
    app: Chronicle, ruleset_id: str, mode: str, options: dict[str, Any], cap: int
) -> None:
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None
    recorded = record_game(app, ruleset, mode, f"tamper {ruleset_id} {mode}", options, cap)
    assert recorded.retractions >= 1 and recorded.actions >= 30
    rows = StoredRows(app)
    try:
        problems, tried = _tamper_each_way(app, rows, recorded, ruleset_id, mode)
    finally:
        rows.close()
    expected = set(TAMPERINGS) - ({"the outcome edited"} if not recorded.finished else set())
    if mode == "physical":
        expected.discard("the seed replaced")
    assert tried == expected
    assert not problems, "\n".join(problems)


def _tamper_each_way(
    app: Chronicle, rows: StoredRows, recorded: Recorded, ruleset_id: str, mode: str
) -> tuple[list[str], set[str]]:
    game_id = recorded.game_id
    original = rows.read(game_id)
    sealed = rows.read(secrets_id(game_id))
    assert audit_game(app, game_id, ADMIN).clean
    pick = random.Random(f"tamperings of {ruleset_id} {mode}")
    problems: list[str] = []
    tried: set[str] = set()
    for kind in TAMPERINGS:
        for _ in range(ROUNDS):
            tampered = tamper(kind, Context(recorded, original, pick, sealed))
            if tampered is None:
                continue
            tried.add(kind)
            if tampered.secret is not None:
                rows.rewrite(secrets_id(game_id), [tampered.secret])
                with closing(Chronicle(app.url)) as fresh:  # secrets are cached once read
                    reports = [audit_game(fresh, game_id, ADMIN)]
                rows.rewrite(secrets_id(game_id), sealed)
            else:
                start = first_difference(original, tampered.events)
                rows.rewrite(game_id, tampered.events, start)
                reports = [audit_game(app, game_id, ADMIN)]
                if recorded.finished and kind == "the seed replaced":  # a public audit has no sealed seed
                    reports.append(audit_game(app, game_id, ANONYMOUS))
                rows.rewrite(game_id, original, start)
            problems += [p for p in (_check(r, tampered) for r in reports) if p is not None]
    assert rows.read(game_id) == original
    assert audit_game(app, game_id, ADMIN).clean, "the game put back audits clean"
    return problems, tried


def test_a_stream_too_damaged_to_fold_is_still_audited_by_the_command_and_over_http(
    app: Chronicle, capsys: pytest.CaptureFixture[str]
) -> None:
    ruleset = get_ruleset("province")
    assert ruleset is not None
    recorded = record_game(app, ruleset, "physical", "unfoldable", {}, 12)
    rows = StoredRows(app)
    try:
        events = rows.read(recorded.game_id)
        index = next(i for i, e in enumerate(events) if e.topic == RETRACTION)
        events[index] = events[index].edited(seqs=[999])  # a checkpoint the game never had
        rows.rewrite(recorded.game_id, events, index + 1)
    finally:
        rows.close()
    version = index + 1

    assert main(["audit", str(recorded.game_id), "--store", app.url]) == REFUSED
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{recorded.game_id}  DIVERGED at version {version}: retraction of [999]"), line

    served = Chronicle(app.url, admin_token=ADMIN_TOKEN)
    with closing(served), TestClient(create_app(served)) as client:
        path = f"/games/{recorded.game_id}/audit"
        response = client.get(path, headers=bearer(ADMIN_TOKEN))
        assert response.status_code == 200, response.text
        assert response.json()["divergence"]["version"] == version
        assert response.json()["divergence"]["code"] == "retraction_not_latest"
        assert_problem(client.get(path), 403, "game_running")  # the audit opens when the game ends
