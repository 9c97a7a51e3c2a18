"""The page in four languages (docs/web.md, "Languages"): the catalogues agree with each other,
the page follows the browser's languages and the header's switch (remembered, ``<html lang>``
with it), an Italian lobby shows no English sentence, and a refusal is worded by its code in
the page's language, never with the server's English ``detail``."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

CATALOGUES = (Path(__file__).resolve().parents[2] / "services" / "engine" / "src"
              / "impresario_engine" / "web" / "i18n")
LANGS = ("en", "it", "de", "fr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


def load(lang: str) -> dict:
    return json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))


def forms(value) -> list[str]:
    """A string, or each plural form of a plural entry."""
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value) -> set[str]:
    return {name for text in forms(value) for name in PLACEHOLDER.findall(text)}


# --- (a) the catalogues agree: same keys, same kinds, same placeholders --------------------

def catalogue_problems(catalogues: dict[str, dict]) -> list[str]:
    problems = []
    keys = set().union(*(c.keys() for c in catalogues.values()))
    for key in sorted(keys):
        for lang, cat in catalogues.items():
            if key not in cat:
                others = [o for o, c in catalogues.items() if key in c]
                problems.append(f"{lang}: missing {key!r} (in {', '.join(others)})")
        present = {lang: cat[key] for lang, cat in catalogues.items() if key in cat}
        kinds = {lang: isinstance(v, dict) for lang, v in present.items()}
        if len(set(kinds.values())) > 1:
            problems.append(f"{key!r}: a plural in {[l for l, k in kinds.items() if k]} only")
        for lang, value in present.items():
            if isinstance(value, dict) and ("other" not in value or set(value) - CATEGORIES):
                problems.append(f"{lang}: {key!r} needs an 'other' form and CLDR categories only")
            if not all(isinstance(text, str) for text in forms(value)):
                problems.append(f"{lang}: {key!r} is not text")
        # test_tables' spectator test looks for these in everything the page read
        if "_private" in key or key.endswith(".you"):
            problems.append(f"{key!r}: a key never contains '_private' nor ends in '.you'")
        sets = {lang: placeholders(v) for lang, v in present.items()}
        if len({frozenset(s) for s in sets.values()}) > 1:
            problems.append(f"{key!r}: placeholders differ: {sets}")
    return problems


def test_every_catalogue_has_every_key_with_the_same_placeholders():
    catalogues = {lang: load(lang) for lang in LANGS}
    assert len(catalogues["en"]) > 100
    assert catalogue_problems(catalogues) == []


def test_the_catalogue_check_catches_a_missing_key_and_a_different_placeholder():
    good = {"en": {"a": "{n} coins", "b": {"one": "{n} coin", "other": "{n} coins"}},
            "it": {"a": "{n} monete", "b": {"one": "{n} moneta", "other": "{n} monete"}}}
    assert catalogue_problems(good) == []
    missing = {"en": good["en"], "it": {"a": "{n} monete"}}
    assert catalogue_problems(missing) == ["it: missing 'b' (in en)"]
    renamed = {"en": good["en"], "it": {**good["it"], "a": "{count} monete"}}
    assert len(catalogue_problems(renamed)) == 1 and "placeholders differ" in catalogue_problems(renamed)[0]
    no_other = {"en": good["en"], "it": {**good["it"], "b": {"one": "{n} moneta"}}}
    assert any("'other'" in p for p in catalogue_problems(no_other))


# --- (b) the language: the browser's, the switch's, remembered ----------------------------


def lobby_heading(page) -> str:
    page.wait_for_selector(".lobby h1")
    return page.inner_text(".lobby h1")


@pytest.mark.slow
def test_the_page_follows_the_browser_then_the_switch_and_remembers_it(open_page, shot):
    it, de, fr = load("it"), load("de"), load("fr")
    page = open_page("phone", locale="it-IT").page
    page.goto("/")
    assert lobby_heading(page) == it["lobby.title"]
    assert page.get_attribute("html", "lang") == "it"
    assert page.input_value("#lang-select") == "it"
    assert page.get_by_label(it["chrome.language"]).is_visible()
    # each language by its own name
    names = page.locator("#lang-select option").evaluate_all("els => els.map(e => e.textContent)")
    assert names == ["English", "Italiano", "Deutsch", "Français"]
    # the switch: re-rendered in place (no reload: a typed name stays in its field)
    page.fill("#player-name", "Giulia")
    page.evaluate("window.__sameDocument = true")
    switch_language(page, "de")
    assert lobby_heading(page) == de["lobby.title"]
    assert page.evaluate("window.__sameDocument") is True
    assert page.input_value("#player-name") == "Giulia"
    assert page.inner_text("nav").split() == [de["chrome.lobby"], de["chrome.calculators"], "API"]
    shot(page, "i18n-lobby-de-phone")
    # remembered: a reload keeps German, though the browser says Italian
    page.reload()
    assert lobby_heading(page) == de["lobby.title"]
    assert page.get_attribute("html", "lang") == "de"
    assert page.input_value("#lang-select") == "de"

    # the first of the browser's languages the page has: pt-BR is not one, fr-CA is French
    other = open_page("desktop").page
    other.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['pt-BR', 'fr-CA', 'en']})")
    other.goto("/")
    assert lobby_heading(other) == fr["lobby.title"]
    assert other.get_attribute("html", "lang") == "fr"
    # none of them: English
    english = open_page("desktop", locale="es-ES").page
    english.goto("/")
    assert lobby_heading(english) == load("en")["lobby.title"]
    assert english.get_attribute("html", "lang") == "en"


# --- (c) an Italian lobby has no English sentence left ------------------------------------

@functools.cache
def english_fragments(lang: str = "it") -> tuple[str, ...]:
    """The English catalogue's words a page could show, where ``lang`` says something else:
    each value's text between its placeholders, at least four characters with a letter, and
    not words ``lang`` uses too (French writes "table" and "final" as English does)."""
    en, it = load("en"), load(lang)
    italian_text = {text for value in it.values() for text in forms(value)}
    out = set()
    for key, value in en.items():
        if forms(value) == forms(it.get(key)) or value == it.get(key):
            continue
        for text in forms(value):
            if text in italian_text:
                continue
            for part in PLACEHOLDER.split(text)[::2]:
                part = part.strip(" .,:;()·")
                if len(part) >= 4 and re.search(r"[A-Za-z]", part):
                    out.add(part)
    own = "\n".join(italian_text)
    out = {part for part in out if part not in own or not re.search(r"(?<![\w])" + re.escape(part) + r"(?![\w])", own)}
    return tuple(sorted(out, key=len, reverse=True))


@functools.cache
def _fragment_pattern(lang: str) -> re.Pattern:
    """Any of the fragments as whole words, the longest first (one pass over a line)."""
    return re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, english_fragments(lang))) + r")(?![\w])")


VISIBLE_TEXT = """() => {
  const out = [];
  // every visible text node (a select's options, whether open or not, included below)
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('#lang-select, script, style, option') || !node.textContent.trim()) continue;
    if (el.checkVisibility && !el.checkVisibility()) continue;
    out.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll('option, [aria-label], [title], [placeholder]')) {
    if (el.closest('#lang-select')) continue;  // each language by its own name, on purpose
    if (el.tagName === 'OPTION') out.push(el.textContent);
    for (const attr of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(attr)) out.push(el.getAttribute(attr));
  }
  out.push(document.title);
  return out.join('\\n');
}"""


def switch_language(page, lang: str) -> None:
    """Choose ``lang`` in the page's language menu and wait until the page speaks it (no
    reload)."""
    page.select_option("#lang-select", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def english_left(page, lang: str = "it", names: tuple[str, ...] = ()) -> list[str]:
    """English of the catalogue in the page's visible text; ``names`` (players' names, which
    are not translated) are left out."""
    text = page.evaluate(VISIBLE_TEXT)
    # the games' names are the same in every language ("Word" is not English in "Word Jam")
    for title in (*sorted(names, key=len, reverse=True), "Word Jam", "Turandot", "Muzicando",
                  "Impresario"):
        text = text.replace(title, "")
    lines = [line for line in text.split("\n") if line.strip()]
    found = []
    pattern = _fragment_pattern(lang)
    for line in lines:
        found += [f"{fragment!r} in {line!r}" for fragment in pattern.findall(line)]
    return found


def listed_names(page) -> tuple[str, ...]:
    """The players' names the list of games may show (other tests' games: a bot may be called
    "medium-0"): names are not translated, so the walk leaves them out."""
    return tuple(page.evaluate("""async () => {
      const out = [];
      for (const status of ["open", "playing", "finished"]) {
        const body = await (await fetch(`/v1/games?status=${status}&limit=100`)).json();
        for (const g of body.games || []) for (const s of g.seats || []) if (s.name) out.push(s.name);
      }
      return out;
    }"""))


@pytest.mark.slow
def test_an_italian_lobby_shows_no_english_string(open_page, shot):
    it = load("it")
    page = open_page("desktop", locale="it-IT").page
    page.goto("/")
    # an open game whose player is called like an English word of the catalogue: a name is
    # not translated, and the walk leaves it out
    page.evaluate("""async () => {
      const post = (url, body) => fetch(url, {method: "POST", headers: {"Content-Type":
        "application/json"}, body: JSON.stringify(body)}).then((r) => r.json());
      const made = await post("/v1/games", {ruleset: "turandot", players: 3});
      await post(`/v1/games/${made.game.id}/seats`, {name: "medium"});
    }""")
    page.reload()
    page.wait_for_selector(".ruleset[data-ruleset='muzicando']")
    page.wait_for_selector("[data-testid='game-list'] .game-list, [data-testid='game-list'] p")
    assert "medium" in page.inner_text("[data-testid='game-list']")
    # the walk itself finds English: the same lobby in English has its strings
    assert english_left(page, names=listed_names(page)) == []
    # every game's set-up form, opened
    for ruleset in ("turandot", "wordjam", "muzicando"):
        card = page.locator(f".ruleset[data-ruleset='{ruleset}']")
        card.get_by_role("button", name=it["lobby.set_up"]).click()
        card.locator("form").wait_for()
    for status in ("playing", "finished", ""):
        page.select_option("#list-status", status)
    shot(page, "i18n-lobby-it-desktop")
    left = english_left(page, names=listed_names(page))
    assert left == [], "\n".join(left)
    # the walk does find English on an English page (it is not vacuous)
    switch_language(page, "en")
    assert len(english_left(page)) > 20


# --- (d) a refusal in the page's language, by its code -----------------------------------

@pytest.mark.slow
def test_a_problem_is_worded_by_its_code_in_the_page_language(open_page):
    it, fr = load("it"), load("fr")
    page = open_page("desktop", locale="it-IT").page
    page.goto("/#/join/no-such-table")
    page.wait_for_selector(".alert-error")
    assert page.inner_text(".alert-error").startswith(it["error.game_not_found"]), page.inner_text(".alert-error")
    assert page.inner_text("h1") == it["join.title_table"]
    worded = page.evaluate("""async () => {
      const api = await import('/web/shared/api.js');
      const i18n = await import('/web/shared/i18n.js');
      const say = () => [
        api.explain(new api.Problem(404, {code: 'game_not_found', detail: 'no game with this id'})),
        api.explain(new api.Problem(422, {code: 'word_reused', detail: 'that word was already used'})),
        api.explain(new api.Problem(422, {code: 'name_too_long', detail: 'names are at most 40 characters'})),
        api.explain(new api.Problem(429, {code: 'create_rate_limited', detail: 'slow down'}, 42)),
        api.explain(new api.Problem(409, {code: 'deadline_passed', cause: 'bot', turn: 3, phase: 'bets'})),
        api.explain(new api.Problem(422, {code: 'word_forbidden_consonant', detail: 'the word uses the forbidden consonant R'})),
      ];
      const italian = say();
      await i18n.setLanguage('fr');
      const french = say();
      await i18n.setLanguage('en');
      return {italian, french, english: say()};
    }""")
    italian, french, english = worded["italian"], worded["french"], worded["english"]
    assert italian[0] == it["error.game_not_found"]
    # an unknown code: a general sentence naming the code, never the English detail
    assert italian[1] == it["error.unknown"].replace("{code}", "word_reused")
    assert italian[2] == it["error.name_too_long"]
    assert italian[3] == f"{it['error.create_rate_limited']} {it['error.wait_seconds'].replace('{n}', '42')}"
    assert italian[4].startswith("Un bot ha mosso prima") and "turno 3" in italian[4]
    assert "bets" not in italian[4]
    # a ruleset's own refusal (Word Jam's of a word): the catalogue's words, not the engine's
    assert italian[5] == it["error.word_forbidden_consonant"]
    assert french[5] == fr["error.word_forbidden_consonant"]
    assert french[0] == fr["error.game_not_found"]
    assert french[1] == fr["error.unknown"].replace("{code}", "word_reused")
    for text in italian + french:
        for english_detail in ("no game with this id", "already used", "at most 40", "slow down"):
            assert english_detail not in text
    # in English the engine's own words stay (they are English)
    assert english[1] == "That word was already used."
    assert english[2] == "That name cannot be used: names are at most 40 characters."
    assert english[5] == "The word uses the forbidden consonant R."


# --- the turn bar and the game's heading line, in each language ---------------------------

@pytest.mark.slow
def test_the_turn_bar_and_the_status_line_speak_the_page_language(open_page):
    page = open_page("desktop", locale="it-IT").page
    page.goto("/")
    lobby_heading(page)
    said = page.evaluate("""async () => {
      const i18n = await import('/web/shared/i18n.js');
      const games = {
        turandot: (await import('/web/games/turandot.js')).default,
        wordjam: (await import('/web/games/wordjam.js')).default,
        muzicando: (await import('/web/games/muzicando.js')).default,
      };
      const views = {
        turandot: [{status: 'playing', round: 2, phase: 'bidding'}, {kinds: ['bid']}],
        wordjam: [{status: 'playing', turn: 3, phase: 'bets'}, {kinds: ['bet']}],
        muzicando: [{status: 'playing', hand: 1, hands: 3, phase: 'play', mode: 'team'}, {kinds: ['place', 'pass']}],
      };
      const out = {};
      for (const lang of ['it', 'de', 'fr', 'en']) {
        await i18n.setLanguage(lang);
        out[lang] = Object.fromEntries(Object.entries(games).map(([name, g]) =>
          [name, [g.status(views[name][0]), g.yourTurn(views[name][0], views[name][1])]]));
      }
      return out;
    }""")
    assert said["it"]["turandot"] == ["turno 2 di 7 · offerte segrete", "Tocca a te: fai un'offerta segreta."]
    assert said["it"]["wordjam"] == ["turno 3 di 8 · scommesse", "Tocca a te: scommetti su una parte."]
    assert said["it"]["muzicando"] == ["mano 1 di 3 · gioco · a squadre", "Tocca a te: gioca una carta o passa."]
    assert said["de"]["turandot"][1] == "Du bist dran: Gib ein geheimes Gebot ab."
    assert said["fr"]["muzicando"][1] == "À vous : posez une carte ou passez."
    # English as before (the other tests read it)
    assert said["en"]["turandot"] == ["round 2 of 7 · sealed bids", "Your move: seal a bid."]
    assert said["en"]["muzicando"] == ["hand 1 of 3 · play · teams", "Your move: place a card or pass."]
