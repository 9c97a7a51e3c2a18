"""Fixtures of the browser tests: the engine under gunicorn, and Debian's Chromium driven by
Playwright for Python (its wheel carries the driver; no browser is downloaded, ever).

- ``web_server``: gunicorn (2 workers x 32 threads, 16 event streams per worker) on a free
  127.0.0.1 port against the session's Redis; its base URL. Its event streams end after 4 s,
  as dropped connections would, so every page must resume them with Last-Event-ID.
- ``browser``: headless Chromium at ``IMPRESARIO_CHROMIUM`` (default /usr/bin/chromium; `make
  test` installs Debian's package when it can), launched with the flags this machine's closed
  network needs; Playwright gives it a fresh temporary profile.
- ``open_page(viewport="phone"|"desktop", touch=False, locale="en-US")``: a new browser context
  (``touch``: a phone's touch screen, tapped rather than clicked; ``locale``: the browser's
  language, which the page follows) (its own localStorage: one
  player's phone or laptop) and a page in it, recording every response it receives; console
  errors and uncaught exceptions fail the test.
- ``shot(page, name)``: a screenshot under build/screenshots/.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

# the helpers of tests/service (and through them those of tests/live and tests/games)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

CHROMIUM = os.environ.get("IMPRESARIO_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORTS = {"phone": {"width": 375, "height": 740}, "desktop": {"width": 1280, "height": 900},
             "laptop": {"width": 1280, "height": 800}}
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
TIMEOUT_MS = 20_000


@pytest.fixture(scope="session")
def web_server(redis_url, tmp_path_factory, gunicorn_server):
    with gunicorn_server(redis_url, tmp_path_factory.mktemp("web-gunicorn"), workers=2,
                         threads=32, MAX_STREAMS_PER_WORKER="16",
                         STREAM_MAX_SECONDS="4") as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: the browser tests need Debian's "
                    "chromium package (`apt-get install chromium`, which `make test` runs when "
                    "it is root) or IMPRESARIO_CHROMIUM pointing at a Chromium binary")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Recorded:
    """A page and what it received: every response, and every error its console printed."""

    def __init__(self, context, page) -> None:
        self.context = context
        self.page = page
        self.responses: list[Any] = []
        self.errors: list[str] = []


@pytest.fixture
def open_page(browser, web_server):
    opened: list[Recorded] = []

    def make(viewport: str = "desktop", touch: bool = False, locale: str = "en-US") -> Recorded:
        # the page speaks the browser's language (navigator.languages): English unless a test
        # asks for another, whatever language this machine's Chromium would report
        context = browser.new_context(viewport=VIEWPORTS[viewport], base_url=web_server,
                                      has_touch=touch, locale=locale)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        rec = Recorded(context, page)
        page.on("response", lambda resp: rec.responses.append(resp))
        page.on("pageerror", lambda exc: rec.errors.append(f"uncaught: {exc}"))
        page.on("console", lambda msg: rec.errors.append(f"console: {msg.text}")
                if msg.type == "error" and not _expected(msg.text) else None)
        opened.append(rec)
        return rec

    yield make
    problems = [e for rec in opened for e in rec.errors]
    for rec in opened:
        rec.context.close()
    assert not problems, "the page reported errors:\n" + "\n".join(problems)


def _expected(text: str) -> bool:
    # a refused request is logged by Chromium itself ("Failed to load resource: ... 4xx");
    # the tests assert what the page shows for each of them
    return text.startswith("Failed to load resource")


@pytest.fixture
def shot():
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, full_page: bool = True) -> Path:
        path = SHOTS / f"{name}.png"
        if full_page:  # from the top: a sticky bar is drawn where the page was scrolled to
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
