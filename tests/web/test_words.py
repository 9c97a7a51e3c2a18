"""The page's words as a new player meets them in Italian, German and French (issue 39): a
singer named with the article and noun of the card's sex ("la cantante"), the nominee without a
gendered participle, an older bot name as its level, the columns of Muzicando's final score
explained, Word Jam's words said to be Italian where the game is chosen, and the French spaces."""

from __future__ import annotations

import json
import re
from pathlib import Path

I18N = Path(__file__).resolve().parents[2] / "services" / "engine" / "src" / "impresario_engine" / "web" / "i18n"


def load(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


SAID = """async () => {
  const i18n = await import('/web/shared/i18n.js');
  const turandot = (await import('/web/games/turandot.js')).default;
  const muzicando = (await import('/web/games/muzicando.js')).default;
  const wordjam = await import('/web/games/wordjam.js');
  const { html, render } = await import('/web/lib.js');
  const { describeEvent } = await import('/web/shared/game.js');
  await (await import('/web/shared/lobby.js')).rulesets();  // the engine's rulesets, with their bot_aliases
  const singer = (id, sex) => ({ kind: 'singer', id, category: 'comic', sex, stars: 2, favourite_role: null });
  const view = { ruleset: 'turandot', table: [], directors: [], dummy: null,
    players: [{ seat: 0, name: 'Rita', singers: [singer('S20', 'female'), singer('S21', 'male'), singer('S22', 'undefined')] },
              { seat: 1, name: 'Carla', singers: [] }] };
  const hired = (card) => turandot.describeEvent({ type: 'hired', by: 'office', seat: 0, card }, view);
  const score = { ruleset: 'muzicando', mode: 'individual', winners: [0], teams: [], hands: [],
    players: [{ seat: 0, total: 5, lines: { places: 3, contracts: 0, chooser: 2 } }, { seat: 1, total: 1, lines: { places: 1, contracts: 0, chooser: 0 } }] };
  const mview = { ruleset: 'muzicando', players: view.players, hand: 1, hands: 1, mode: 'individual', layout: 'S' };
  const wview = { ruleset: 'wordjam', status: 'playing', phase: 'bets', turn: 2, turns: 8, players: view.players,
    ali_baba: 1, ali_word: { word: 'palpebra', value: 8 }, chief_thief: null, barred: [], bets: null, sides: null,
    window: [], declarations: [], challenge: { word: 'palpebra', seat: 1, stage: 'window', challenger: null, votes_cast: 0 },
    last_vote: null, theme: null, must_beat: null, board: null, scores: [0, 0], hand: null };
  const said = {};
  for (const lang of ['it', 'de', 'fr']) {
    await i18n.setLanguage(lang);
    const box = document.createElement('div');
    render(html`<${muzicando.Score} view=${mview} score=${score} />`, box);
    const table = document.createElement('div');
    render(html`<div><${wordjam.SidePanel} view=${wview} kind="bet" act=${() => null} busy=${false} />
      <${wordjam.Situation} view=${wview} events=${[]} /></div>`, table);
    const table_text = table.textContent;
    said[lang] = { female: hired('S20'), male: hired('S21'), undefined: hired('S22'),
      nominated: turandot.describeEvent({ type: 'nominated', seat: 0 }, view),
      greedy: describeEvent(turandot, { type: 'seat_left', seat: 1, name: 'Carla', bot: 'greedy' }, view),
      legend: box.textContent, wordjam: table_text,
      seated: describeEvent(turandot, { type: 'seat_taken', seat: 0, name: 'Rita' }, view) };
  }
  return said;
}"""


def test_the_words_agree_with_the_cards_and_explain_themselves(open_page):
    page = open_page("desktop", locale="it-IT").page
    page.goto("/#/")
    page.wait_for_selector("h1")
    said = page.evaluate(SAID)
    it, de, fr = said["it"], said["de"], said["fr"]
    # the singer's sex (the card's) picks the article and the noun: never "il cantante ... femmina"
    assert "la cantante S20 (Comico" in it["female"] and "il cantante" not in it["female"], it["female"]
    assert "il cantante S21 (Comico" in it["male"], it["male"]
    assert "S22 di sesso indefinito" in it["undefined"], it["undefined"]
    assert "die Sängerin S20" in de["female"] and "den Sänger S21" in de["male"], de
    assert "la chanteuse S20" in fr["female"] and "le chanteur S21" in fr["male"], fr
    # a player's sex is not known: the sentence names the nominee without agreeing with it
    assert it["nominated"] == "Il Maestro nomina Rita per licenziare un regista.", it["nominated"]
    assert fr["nominated"] == "Le Maestro désigne Rita pour éliminer un metteur en scène.", fr["nominated"]
    # "greedy" is the older name of the medium level: the level's word, in the language
    assert it["greedy"] == load("it")["event.seat_left_bot"].format(name="Carla", bot=load("it")["bot.medium"]), it["greedy"]
    assert "greedy" not in de["greedy"] and load("de")["bot.medium"] in de["greedy"], de["greedy"]
    # the final score's columns are explained under the table
    assert "Kontrakte: " in de["legend"] and "Wähler: " in de["legend"], de["legend"]
    assert "Contratti: " in it["legend"], it["legend"]
    # French: a space between two sentences, and « » with a space before the colon
    assert "(8 pièces). Faites confiance à Ali Baba" in fr["wordjam"], fr["wordjam"]
    assert "« palpebra » de Carla : " in fr["wordjam"], fr["wordjam"]
    # a player's sex is not known: nothing agrees with it ("Vertrau ihm", "si è seduto")
    assert "Vertrau Ali Baba oder" in de["wordjam"] and "ihm" not in de["wordjam"], de["wordjam"]
    assert it["seated"] == "Rita prende posto al tavolo.", it["seated"]
    assert "“" not in fr["wordjam"] and "„palpebra“ von Carla: " in de["wordjam"], de["wordjam"]


def test_the_lobby_says_word_jams_words_are_italian_where_the_game_is_chosen(open_page):
    for locale, lang in (("de-DE", "de"), ("fr-FR", "fr")):
        page = open_page("desktop", locale=locale).page
        page.goto("/#/")
        page.wait_for_function("(text) => document.body.innerText.includes(text)",
                               arg=load(lang)["lobby.blurb_wordjam"], timeout=30_000)
        assert {"de": "italienisch", "fr": "en italien"}[lang] in page.inner_text("body")


#: pronouns that would say whether the player in a Word Jam role is a man or a woman
PRONOUNS = {"en": r"\b(he|him|his|she|her)\b", "de": r"\b(ihm|ihn|seines|ihres)\b",
            "it": r"\bdi (lui|lei)\b", "fr": r"\b(lui|l'ont)\b"}


def test_word_jam_names_its_roles_never_by_a_pronoun():
    """Alì Babà, the thieves and the winner may be anyone at the table: the page names the
    role ("beats Alì Babà's"), never a pronoun that guesses the player's sex."""
    for lang, pronoun in PRONOUNS.items():
        said = {k: v if isinstance(v, str) else " ".join(v.values())  # plural forms
                for k, v in load(lang).items() if k.startswith("wordjam.")}
        assert said and not {k: v for k, v in said.items() if re.search(pronoun, v)}, lang
    assert "beats Alì Babà's" in load("en")["wordjam.howto.4"]
