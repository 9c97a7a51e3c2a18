"""`make screenshots`: the pictures of docs/web.md, taken as the browser tests run the page.

Not a test (its name does not start with ``test_``, so the suite never collects it); `make
screenshots` runs it through pytest for the browser tests' fixtures: the engine under gunicorn on
its own Redis, Debian's Chromium. Each game is played through the API among named players
(``web_helpers.table_at``, seed 5) to a point well under way where the browser's seat has a
move to make, and to its end; then, in English and in Italian, 1280 and 375 px wide, it writes

- ``docs/web-<game>-<lang>-<width>.png``: the table, a move to make ("How to play" closed):
  the whole page at 1280 px, a phone's screen (375 x 740) scrolled to the table at 375 px;
- ``docs/web-<game>-score-<lang>-<width>.png``: the finished game's score (the top of the
  page, as the screen shows it).

The page is drawn with ``prefers-reduced-motion: reduce``, so no highlight is caught
mid-flash."""

from __future__ import annotations

from pathlib import Path

import pytest

from .web_helpers import PLAYERS, sit_at, table_at

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGS = {"en": "en-US", "it": "it-IT"}
WIDTHS = {1280: "desktop", 375: "phone"}  # conftest.VIEWPORTS: 1280 x 900 and 375 x 740
#: the heading of the part of each table a phone's screen shows
TABLE = {"turandot": "#stage-title", "wordjam": "#wj-board-title", "muzicando": "#mz-board-title"}

SCROLL_UNDER_THE_BAR = """el => {
  const bar = document.querySelector('.turnbar');
  const section = el.closest('section');
  window.scrollTo(0, 0);
  const barHeight = bar ? bar.getBoundingClientRect().height : 0;
  window.scrollTo(0, section.getBoundingClientRect().top - barHeight - 8);
}"""


@pytest.mark.parametrize("ruleset", PLAYERS)
def test_screenshots(open_page, web_server, ruleset):
    playing = table_at(web_server, ruleset, finished=False)
    finished = table_at(web_server, ruleset, finished=True)
    written = []
    for lang, locale in LANGS.items():
        for width, viewport in WIDTHS.items():
            page = open_page(viewport, locale=locale).page
            page.emulate_media(reduced_motion="reduce")
            sit_at(page, *playing)
            page.wait_for_selector(".game[data-mine='1'] .feed-live")
            assert page.get_attribute("html", "lang") == lang
            # the table is the subject: "How to play" (open at a first game) closed
            page.evaluate("() => document.querySelectorAll('details.how-to').forEach((d) => { d.open = false; })")
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            if viewport == "desktop":  # the whole page, from the top
                page.evaluate("window.scrollTo(0, 0)")  # a sticky bar is drawn where the page was
                shoot = {"full_page": True}
            else:  # a phone's screen, scrolled to the table (under the sticky turn bar)
                page.locator(TABLE[ruleset]).evaluate(SCROLL_UNDER_THE_BAR)
                shoot = {"full_page": False}
            written.append(DOCS / f"web-{ruleset}-{lang}-{width}.png")
            page.screenshot(path=str(written[-1]), animations="disabled", caret="hide", **shoot)
            # the finished game: the top of its page, the score
            sit_at(page, *finished)
            page.wait_for_selector("section.finished")
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            written.append(DOCS / f"web-{ruleset}-score-{lang}-{width}.png")
            page.screenshot(path=str(written[-1]), animations="disabled", caret="hide")
    print("\n".join(str(path.relative_to(DOCS.parent)) for path in written))
