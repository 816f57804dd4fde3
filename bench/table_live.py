"""The table in the browser: how soon a move tapped on one phone shows on another.

One server process (SQLite store); two headless Chromium pages (Debian's `chromium`, through
Playwright), each a seat of a digital Province game at its table page (`/table/{id}`). The seat
to act records the first legal action through the page's notation box; the figure is the time
from pressing Record to the other phone drawing the new version, and its baseline is the time
to the mover's own page drawing it (the action's answer and the mover's refresh), measured on
the same moves.

    .venv/bin/python -m bench.table_live [--moves 30]

Aim: every move on the other phone within one second.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

from bench.common import ratio_line, uvicorn_server

CHROMIUM = "/usr/bin/chromium"
AIM_SECONDS = 1.0


def _open(browser: Any, url: str, game_id: str, token: str) -> Any:
    page = browser.new_context().new_page()
    page.goto(f"{url}/table/{game_id}#token={token}")
    page.wait_for_selector("body.ready")
    return page


def _version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CHRONICLE_STORE": f"sqlite:///{tmp}/table.sqlite3"}
        with uvicorn_server("api.asgi:app", env) as url, sync_playwright() as driver:
            created = httpx.post(
                f"{url}/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}
            ).json()
            game_id, tokens = created["game_id"], created["seat_tokens"]
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            pages = {seat: _open(browser, url, game_id, token) for seat, token in tokens.items()}
            own: list[float] = []
            other: list[float] = []
            for _ in range(args.moves):
                prompts = httpx.get(f"{url}/games/{game_id}/prompts").json()["prompts"]
                if not prompts or prompts[0]["seat"] not in pages:
                    break
                mover = prompts[0]["seat"]
                watcher = next(seat for seat in pages if seat != mover)
                legal = httpx.get(
                    f"{url}/games/{game_id}/legal-actions",
                    headers={"authorization": f"Bearer {tokens[mover]}"},
                ).json()["notation"]
                page, watching = pages[mover], pages[watcher]
                page.wait_for_function(f"Number(document.body.dataset.version) >= {_version(watching)}")
                before = _version(page)
                page.fill("#notation", legal[0])
                started = time.perf_counter()
                page.click("#notation-send")
                page.wait_for_function(f"Number(document.body.dataset.version) > {before}", polling=5)
                own.append(time.perf_counter() - started)
                watching.wait_for_function(f"Number(document.body.dataset.version) > {before}", polling=5)
                other.append(time.perf_counter() - started)
            browser.close()
    print(f"moves: {len(other)}")
    for name, values in (("median", statistics.median), ("worst", max)):
        print(ratio_line(f"other phone, {name}", values(other) * 1000, "ms", values(own) * 1000, "~1"))
    print(f"other phone within {AIM_SECONDS:.0f} s: {sum(t <= AIM_SECONDS for t in other)} of {len(other)}")


if __name__ == "__main__":
    main()
