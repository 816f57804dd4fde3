"""Browser tests' shared parts: headless Chromium (Debian's `chromium`, never a browser
Playwright downloads) driven by Playwright, pages that may load nothing from another host, and
screenshots kept in `CHRONICLE_SCREENSHOTS` when it names a folder."""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Server

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Under CI a missing Playwright fails the import; locally the tests are skipped without it.
playwright_api: Any = (
    importlib.import_module("playwright.sync_api")
    if os.environ.get("CI")
    else pytest.importorskip("playwright.sync_api")
)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("CHRONICLE_SCREENSHOTS")  # a folder: keep a screenshot of each page there


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (.ci/run installs it)")
        pytest.skip("chromium is not installed")
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        yield launched
        launched.close()


def local_page(
    browser: Any, server: Server, viewport: dict[str, int] | None = None, context: Any = None
) -> Any:
    """A page at `viewport` (desktop by default), in `context` if given (a browser context is
    one device: its own storage), that may load nothing but `server`'s own URLs."""
    if context is None:
        page = browser.new_page(viewport=viewport or DESKTOP)
    else:
        page = context.new_page()
        page.set_viewport_size(viewport or DESKTOP)
    page.set_default_timeout(15_000)

    def only_local(route: Any) -> None:  # no page may load anything from elsewhere
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_local)
    return page


def shot(page: Any, name: str) -> None:
    """Keep a screenshot of `page` as `name`.png when CHRONICLE_SCREENSHOTS names a folder."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
