"""axe-core, Deque's accessibility checker, on the lobby and on each game's table (a game in
play where the player has a move to make, and a finished game's score), in English and in
Italian: no ``serious`` nor ``critical`` violation (docs/web.md, "Accessibility").

axe-core is the npm package pinned in package.json and package-lock.json (`make node-deps`,
which `make test` runs first). It is evaluated in the page through the browser's debugging
protocol, which the page's Content-Security-Policy does not govern (a ``<script>`` tag added to
the page would be refused by it, as it should be)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_i18n import switch_language
from .web_helpers import PLAYERS, sit_at, table_at

pytestmark = pytest.mark.slow

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
LANGS = ("en", "it")

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    url: v.helpUrl, targets: v.nodes.map((n) => n.target.join(' '))}));
}"""


def axe_violations(page) -> list[dict]:
    """axe-core's violations of the page as it is now, the serious and critical ones."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is not installed at {AXE}: run `make node-deps` (npm ci), as "
                    "`make test` does")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]


def in_each_language(page, where: str) -> list[dict]:
    """The violations of the page in each of LANGS, switched in place by the header's switch."""
    found = []
    for lang in sorted(LANGS, key=lambda lang: lang != page.get_attribute("html", "lang")):
        if page.get_attribute("html", "lang") != lang:
            switch_language(page, lang)
        found += [dict(v, where=f"{where} ({lang})") for v in axe_violations(page)]
    return found


def report(found: list[dict]) -> str:
    return "\n".join(f"{v['where']}: {v['id']} ({v['impact']}): {v['help']} <{v['url']}>\n    "
                      + "\n    ".join(v["targets"]) for v in found)


@pytest.fixture(scope="module")
def tables(web_server):
    """Each game once in play (seat 0 to move) and once finished."""
    return {(ruleset, finished): table_at(web_server, ruleset, finished)
            for ruleset in PLAYERS for finished in (False, True)}


def _page(open_page):
    page = open_page("desktop").page
    # the checker reads the page standing still: no flash of the last moves mid-animation
    page.emulate_media(reduced_motion="reduce")
    return page


def test_the_lobby_has_no_serious_accessibility_violation(open_page):
    page = _page(open_page)
    page.goto("/")
    page.wait_for_selector(".ruleset[data-ruleset='muzicando']")
    page.wait_for_selector("[data-testid='game-list'] .game-list, [data-testid='game-list'] p")
    found = in_each_language(page, "lobby")
    # and with every game's set-up form open
    for card in page.locator(".ruleset").all():
        card.locator("button[aria-expanded]").click()
        card.locator("form").wait_for()
    found += in_each_language(page, "lobby, the set-up forms open")
    assert not found, report(found)
    # the check itself finds a fault: a button without a name is a critical one
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")
    assert [v["id"] for v in axe_violations(page)] == ["button-name"]


@pytest.mark.parametrize("ruleset", PLAYERS)
def test_each_table_has_no_serious_accessibility_violation(open_page, tables, ruleset):
    page = _page(open_page)
    found = []
    for finished in (False, True):
        sit_at(page, *tables[ruleset, finished])
        page.wait_for_selector("section.finished" if finished else ".game[data-mine='1']")
        found += in_each_language(page, f"{ruleset}, {'finished' if finished else 'my move'}")
    assert not found, report(found)


def test_a_guided_table_with_its_guide_panel_has_no_serious_violation(open_page):
    """The lobby's "Learn to play" (a newcomer's first offer) opens the guided table: with the
    step's panel shown, and with its "why?" dialog open, in each language."""
    page = _page(open_page)
    page.goto("/")
    page.fill("#player-name", "Lia")
    page.click("[data-ruleset=turandot] [data-testid=learn]")
    page.wait_for_selector(".game[data-mine='1'] [data-testid=guide]")
    found = in_each_language(page, "guided turandot, the guide shown")
    page.click("[data-testid=guide-why]")
    page.locator("dialog[open]").wait_for()
    found += [dict(v, where="guided turandot, the rule behind the step")
              for v in axe_violations(page)]
    assert not found, report(found)
