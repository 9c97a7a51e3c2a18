"""The full rules at the browser table (shared/rules.js): opened from a prompt's "why?" at the
section that explains it, in the page's language; from "how to play" at the top; and the
renderer shows whatever the text holds as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from impresario_rules.texts import section

from .web_helpers import api, start_from_lobby

I18N = Path(__file__).resolve().parents[2] / "services" / "engine" / "src" / "impresario_engine" / "web" / "i18n"


def load(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_an_italian_player_opens_the_rule_behind_the_prompt(open_page, shot):
    it = load("it")
    page = open_page("phone", locale="it-IT").page
    start_from_lobby(page, "Giulia", "turandot")
    # round 1 opens with everyone's sealed bid: the prompt, and its "why?"
    page.wait_for_selector(".game[data-mine='1']")
    assert page.inner_text(".turnbar .turn-text") == it["turn.turandot.bid"]
    why = page.locator("[data-testid='rule-why']")
    assert why.inner_text() == it["rules.why"]
    shot(page, "rules-why-phone")
    why.click()
    rules = page.locator("#rules-dialog[open] [data-testid='rules'][data-lang='it']")
    rules.wait_for()
    assert rules.get_attribute("data-target") == "bids"
    heading = page.locator("#rule-bids")
    assert heading.inner_text() == section("turandot", "it", "bids").title
    # the section is where the player looks: focused, in view, marked
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rule-bids'")
    assert "rule-target" in heading.get_attribute("class")
    box, dialog = heading.bounding_box(), page.locator("#rules-dialog .rules-body").bounding_box()
    assert dialog["y"] - 1 <= box["y"] <= dialog["y"] + dialog["height"]
    assert page.inner_text("#rules-dialog h2").startswith(it["rules.title"].split("{")[0].strip())
    # the card pictures are drawn, with their Italian captions
    assert "Carta bluff" in page.locator("#rules-dialog figure.rule-card figcaption").all_inner_texts()
    shot(page, "rules-it-phone")
    # a link inside the text goes to its section
    page.locator("#rules-dialog .rule-link[data-anchor='helpers']").first.click()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rule-helpers'")
    # Escape closes it and gives the focus back to the "why?"
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog[open]", state="detached")
    assert page.evaluate("document.activeElement.dataset.testid") == "rule-why"
    # the "how to play" box's button opens the whole text, at the top
    page.locator("[data-testid='rules-open']").click()
    rules.wait_for()
    assert rules.get_attribute("data-target") == ""
    assert page.locator("#rules-dialog .rules-toc button").count() >= 8
    page.locator("#rules-dialog .rules-toc button").nth(1).click()  # the cards, drawn
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rule-components'")
    page.locator("#rules-dialog .rule-cards").first.scroll_into_view_if_needed()
    shot(page, "rules-it-cards-phone")


@pytest.mark.slow
def test_a_decision_in_a_dialog_has_its_rule_inside_it(open_page, web_server):
    """The maestro's office hires are asked in a dialog (the page behind it is inert): its
    "why?" opens the rules on top, at the office hires, and Escape goes back to the decision."""
    created = api(web_server, "POST", "/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 3})
    gid = created["game"]["id"]
    ada = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Ada"})
    bea = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Bea"})
    assert ada["seat"] == 0  # the first maestro
    # both want slot 1 with no money: a tie, so both get an office hire from the maestro
    for seat in (ada, bea):
        api(web_server, "POST", f"/v1/games/{gid}/moves", token=seat["token"],
            json={"type": "bid", "slot": 1, "money": 0})
    page = open_page("desktop", locale="de-DE").page
    page.add_init_script(
        f"localStorage.setItem('impresario:game:{gid}', "
        f"JSON.stringify({{token: {json.dumps(ada['token'])}, seat: 0, saved: Date.now()}}));")
    page.goto(f"/#/game/{gid}")
    why = page.locator("#office-dialog[open] .dialog-rule [data-testid='rule-why']")
    why.wait_for()
    assert why.inner_text() == load("de")["rules.why"]
    # the dialog's own first control has the focus, not the "why?"
    assert page.evaluate("document.activeElement.closest('#office-dialog') !== null")
    assert page.evaluate("!document.activeElement.classList.contains('why')")
    why.click()
    page.locator("#rules-dialog[open] [data-testid='rules'][data-lang='de'][data-target='office']").wait_for()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rule-office'")
    assert page.inner_text("#rule-office") == section("turandot", "de", "office").title
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog[open]", state="detached")
    assert page.locator("#office-dialog[open]").is_visible()
    assert page.evaluate("document.activeElement.dataset.testid") == "rule-why"


@pytest.mark.slow
def test_the_renderer_shows_markup_and_scripts_as_text(open_page):
    page = open_page("desktop").page
    page.goto("/")
    page.wait_for_selector(".lobby h1")
    shown = page.evaluate("""async () => {
      const { html, render } = await import('/web/lib.js');
      const { Markdown } = await import('/web/shared/rules.js');
      const text = [
        '## A <b>bold</b> title {#top}',
        '<img src=x onerror="window.__owned = 1"> and **<script>window.__owned = 2</script>**',
        '- [a link](javascript:window.__owned=3) and ![a picture](https://example.invalid/x.png)',
        '| <i>head</i> |', '|---|', '| <iframe src="/"></iframe> |',
        '![<svg onload=alert(1)>](card:coin?letter=<b>X</b>&coins=2)',
      ].join('\\n\\n');
      const root = document.createElement('div');
      document.body.appendChild(root);
      render(html`<${Markdown} text=${text} />`, root);
      await new Promise((r) => setTimeout(r, 50));
      return { tags: [...root.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
               text: root.textContent, owned: window.__owned || null,
               heading: root.querySelector('h3') && root.querySelector('h3').id };
    }""")
    assert shown["owned"] is None
    assert not {"img", "script", "iframe", "svg", "b", "i", "a"} & set(shown["tags"]), shown["tags"]
    for literal in ("<b>bold</b>", '<img src=x onerror="window.__owned = 1">', "<script>",
                    '<iframe src="/"></iframe>', "<svg onload=alert(1)>", "<b>X</b>"):
        assert literal in shown["text"]
    # a link to anything but a section stays text; a picture not of a card shows its caption only
    assert "[a link](javascript:window.__owned=3)" in shown["text"] and "a picture" in shown["text"]
    assert "example.invalid" not in shown["text"]
    assert shown["heading"] == "rule-top" and {"strong", "table", "figure"} <= set(shown["tags"])
