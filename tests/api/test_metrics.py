"""`GET /metrics`: the figures of this process in the Prometheus text format, counted as
requests are answered."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.api.support import Api


def figures(api: Api) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = api.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def test_metrics_count_recorded_actions_rejections_by_code_and_their_timing(api: Api) -> None:
    game = api.create(mode="physical")
    before = figures(api)
    assert before[("chronicle_actions_recorded_total", ())] == 0
    api.ok(game, "first B black", game.recorder)
    api.ok(game, "reveal workers2", game.recorder)
    refused = api.act(game, "build mill", game.recorder)
    assert refused.status_code == 422
    after = figures(api)
    assert after[("chronicle_actions_recorded_total", ())] == 2
    assert after[("chronicle_rejections_total", (("code", "no_worker_moved"),))] == 1
    assert after[("chronicle_record_seconds_count", ())] == 2  # the refused one is not an append
    assert after[("chronicle_live_subscribers", ())] == 0
    assert after[("chronicle_projection_lag_games", ())] == 0
