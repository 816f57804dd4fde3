"""`POST /games/import/dominion`: a Dominion Online log's text becomes a physical game; a log
that cannot be imported is a problem document and appends nothing (both stores)."""

from __future__ import annotations

from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from store.app import Chronicle
from tests.api.support import assert_problem, bearer

LOGS = Path(__file__).parents[1] / "data" / "dominion-logs"
QUIT = "log.51919af0e4b0d001ef25b885.1368496912009.txt"
PATH = "/games/import/dominion"


def test_a_log_imports_into_a_game_whose_tokens_come_back_once(
    client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    response = client.post(PATH, json={"log": (LOGS / QUIT).read_text(), "source": QUIT})
    assert response.status_code == 201, response.text
    body = response.json()
    report = body["report"]
    assert report["status"] == "left" and report["source"] == QUIT
    assert report["scores"] == report["scores_log"] and report["turns"] == report["turns_log"] == 10
    assert report["refusal"] is None and report["actions"] > 0
    game_id = report["game_id"]
    detail = client.get(f"/games/{game_id}").json()
    assert detail["mode"] == "physical" and detail["tags"] == ["dominion-online"]
    assert detail["status"] == "finished"  # the player who quit resigned
    names = ("Villager Bot", "guest2666.0000", "Defender Bot", "Banker Bot")
    assert detail["seats"] == {f"p{i + 1}": name for i, name in enumerate(names)}
    # The recorder's token it answered with records at this table.
    prompts = client.get(f"/games/{game_id}/prompts", headers=bearer(body["recorder_token"]))
    assert prompts.status_code == 200 and set(body["seat_tokens"]) == {"p1", "p2", "p3", "p4"}


def test_a_log_with_cards_chronicle_lacks_is_a_problem_and_appends_nothing(
    client: TestClient[Litestar], chronicle: Chronicle
) -> None:
    before = chronicle.recorder.max_notification_id()
    text = (LOGS / "log.4fec9f5b30c40b085b22e3fe.1344218998422.txt").read_text()
    problem = assert_problem(client.post(PATH, json={"log": text}), 422, "cards_not_implemented")
    assert "Pirate Ship" in problem["detail"]
    today = (LOGS / "today-162962491.txt").read_text()
    assert_problem(client.post(PATH, json={"log": today}), 422, "log_kingdom")
    odd = {"log": today, "kingdom": ["Village", "Militia", "Laboratory", "Library", "Copper"] * 2}
    assert_problem(client.post(PATH, json=odd), 422, "log_kingdom")
    assert_problem(client.post(PATH, json={"log": "no log at all"}), 422, "log_unreadable")
    assert_problem(client.post(PATH, json={"text": "?"}), 400, "invalid_request")
    assert chronicle.recorder.max_notification_id() == before


def test_a_log_of_todays_format_imports_with_the_kingdom_given(client: TestClient[Litestar]) -> None:
    kingdom = "Remodel, Smithy, Laboratory, Market, Workshop, Militia, Moneylender, Poacher, Cellar, Moat"
    text = (LOGS / "today-183266643.txt").read_text()
    response = client.post(PATH, json={"log": text, "kingdom": kingdom.split(", ")})
    assert response.status_code == 201, response.text
    report = response.json()["report"]
    assert report["status"] == "finished" and report["format"] == "dominion-online"
    assert report["scores"] == report["scores_log"] == {"Lord Rattington": 39, "domibot_v1.4": 28}
