"""The catalogues say the rulebooks' words (docs/glossary.md): where the English of the page or of
the terminal says a checked term, each translation says the language's word, and no translation
says a word the glossary rules out (Italian "round" where the rulebook says "turno")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "services" / "engine" / "src" / "impresario_engine" / "web" / "i18n"
LOCALE = ROOT / "clients" / "python-sdk" / "src" / "impresario" / "locale"
THEMES = ROOT / "rules" / "src" / "impresario_rules" / "wordjam" / "data"
LANGS = ("it", "de", "fr")
COLUMN = {"it": 1, "de": 2, "fr": 3}
#: the page's keys of other games (a Word Jam theme's "directors" are film directors)
OTHER_GAMES = ("wordjam.", "muzicando.", "calc.w", "lobby.blurb_wordjam", "lobby.blurb_muzicando",
               "phase.wordjam", "phase.muzicando", "turn.wordjam", "turn.muzicando")


def glossary() -> list[list[str]]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| ") and not line.startswith("| English")]
    assert len(rows) >= 10 and all(len(r) == 7 for r in rows), rows
    return rows


def flat(value: object) -> str:
    return " ".join(value.values()) if isinstance(value, dict) else str(value)


def pairs(lang: str, everywhere: bool = False) -> list[tuple[str, str, str]]:
    """(where, English, translation) of every string the page and the terminal say."""
    en = json.loads((WEB / "en.json").read_text(encoding="utf-8"))
    mine = json.loads((WEB / f"{lang}.json").read_text(encoding="utf-8"))
    out = [(key, flat(en[key]), flat(value)) for key, value in mine.items()
           if everywhere or not key.startswith(OTHER_GAMES)]
    themes = " ".join(p.read_text(encoding="utf-8") for p in THEMES.rglob("*.json"))
    with (LOCALE / lang / "LC_MESSAGES" / "impresario.po").open("rb") as f:
        for m in read_po(f, locale=lang):
            english = " ".join(m.id) if isinstance(m.id, tuple) else m.id
            said = " ".join(m.string) if isinstance(m.string, tuple) else m.string
            if english and english not in themes:
                out.append((f"impresario.po: {english[:50]}", english, said))
    return out


def stems(cell: str) -> list[str]:
    """A glossary cell's words as stems: "posizione" → "posizion" (posizioni passes)."""
    return [word.split()[0][:-1] if len(word.split()[0]) > 4 else word.split()[0]
            for word in cell.split(" / ")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_checked_term_is_said_with_the_rulebooks_word(lang):
    wrong = []
    strings = pairs(lang)
    for row in glossary():
        if row[5] != "yes":
            continue
        term = re.compile(r"\b%ss?\b" % re.escape(row[0]), re.I)
        words = re.compile("|".join(re.escape(s) for s in stems(row[COLUMN[lang]])), re.I)
        for where, english, said in strings:
            if term.search(re.sub(r"\{\w+\}", "", english)) and not words.search(said):
                wrong.append(f"{where}: {row[0]!r} is not {row[COLUMN[lang]]!r} in {said!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_says_a_word_the_glossary_rules_out(lang):
    never = [rule.split(":", 1)[1].strip() for row in glossary() for rule in row[6].split(";")
             if rule.strip().startswith(f"{lang}:")]
    wrong = [f"{where}: {said!r}" for where, _english, said in pairs(lang, everywhere=True) for word in never
             if re.search(r"(?<!\w)%s(?!\w)" % re.escape(word), said)]
    assert not wrong, "\n".join(wrong)
