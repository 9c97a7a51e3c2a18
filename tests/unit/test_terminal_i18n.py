"""The terminal client's message catalogues (impresario.i18n): messages.pot is what the code marks
(extracted again here as `make messages` does), every catalogue translates every message of it
with the same placeholders, and the language picked by --lang or the environment is the one the
messages speak."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from impresario import i18n
from impresario.i18n import _, ngettext
from impresario.language import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "python-sdk"
LOCALE = SDK / "src" / "impresario" / "locale"
#: what `make messages` extracts from (the Makefile's pybabel extract line)
SOURCES = (SDK / "src" / "impresario", ROOT / "rules" / "src" / "impresario_rules" / "wordjam" / "data")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def ids(catalog) -> set[tuple[str | None, str | tuple[str, ...]]]:
    return {(m.context, m.id) for m in catalog if m.id}


def template():
    with (LOCALE / "messages.pot").open("rb") as f:
        return read_po(f)


def catalogue(lang: str):
    with i18n.catalogue_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def test_the_makefile_extracts_from_where_this_test_does():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = makefile.split("$(BIN)/pybabel extract", 1)[1].split("\n\t$(BIN)/pybabel update", 1)[0]
    assert "clients/python-sdk/babel.cfg" in line and "--no-location" in line
    for source in SOURCES:
        assert str(source.relative_to(ROOT)) in line


def test_the_template_is_what_the_code_marks():
    """`make messages` was run after the last change of a marked string: extracting again gives
    the very messages of messages.pot (and the extraction itself finds the theme cards)."""
    with (SDK / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = set()
    for source in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
                str(source), method_map, options_map):
            found.add((context, message))
    assert (None, "Cinema") in found and (None, "Final score:") in found
    stale = ids(template()) - found
    missing = found - ids(template())
    assert not missing and not stale, (
        f"run `make messages`: not in messages.pot {sorted(map(str, missing))}; "
        f"no longer in the code {sorted(map(str, stale))}")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_has_every_message_translated(lang):
    """A catalogue that misses a message of the template (or of another catalogue), or leaves one
    empty or fuzzy, fails here: the terminal would speak English there."""
    mine = catalogue(lang)
    assert ids(mine) == ids(template()), "run `make messages`, then translate the new entries"
    for other in TRANSLATED:
        assert ids(mine) == ids(catalogue(other)), (lang, other)
    for m in mine:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings) and len(strings) == (mine.num_plurals if m.pluralizable else 1), m.id
        assert not m.fuzzy, m.id


def fields(text: str) -> set[str]:
    return {name for _lit, name, spec, conv in string.Formatter().parse(text)
            if name is not None} | {f"!{conv}" for _lit, name, spec, conv in
                                    string.Formatter().parse(text) if conv}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    for m in catalogue(lang):
        if not m.id:
            continue
        english = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            assert fields(text) == fields(english[-1]), (m.id, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogue_is_read_with_its_plural_rule(lang):
    i18n.use(lang)
    one, many = ngettext("{n} card", "{n} cards", 1), ngettext("{n} card", "{n} cards", 5)
    assert one != many and "{n}" in one and "{n}" in many
    assert _("Final score:") != "Final score:"


@pytest.mark.parametrize("argv, env, expected", [
    (["--lang", "it"], {"LANG": "de_DE.UTF-8"}, "Punteggio finale:"),
    ([], {"LANG": "de_DE.UTF-8"}, "Endwertung:"),
    ([], {"LANGUAGE": "fr", "LANG": "it_IT.UTF-8"}, "Score final :"),
    ([], {"LC_ALL": "C"}, "Final score:"),
])
def test_the_flag_or_the_environment_picks_the_catalogue(monkeypatch, argv, env, expected):
    """main() puts the language it picked to use before the command runs."""
    from impresario import cli

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    said = {}
    monkeypatch.setitem(cli.COMMANDS, "games", lambda args: said.setdefault(
        "text", _("Final score:")) and 0)
    assert cli.main(["games", *argv]) == 0
    assert said["text"] == expected


def test_a_refusal_is_said_by_its_code_never_in_the_engines_english():
    from impresario.errors import IllegalMove
    from impresario.terminal.problems import explain

    known = IllegalMove("x", code="not_enough_money", detail="you have only 2 money")
    unknown = IllegalMove("x", code="some_new_code", detail="an English sentence")
    assert explain(known) == "you have only 2 money"           # English: the engine's own words
    i18n.use("it")
    assert explain(known) == "non hai tanto denaro"
    assert "English" not in explain(unknown) and "some_new_code" in explain(unknown)


def test_a_theme_card_and_a_director_in_the_players_words():
    from impresario.terminal.turandot import card_text
    from impresario.terminal.wordjam import theme

    i18n.use("de")
    cinema = {"id": "cinema", "name": "Cinema", "name_it": "Cinema",
              "description": "surnames of actors, actresses and directors"}
    assert theme(cinema) == ("Kino", "Nachnamen von Schauspielern, Schauspielerinnen und "
                                     "Filmregisseuren")
    director = {"kind": "director", "id": "dark_over_comic", "effect": "+1 per dark singer"}
    assert re.fullmatch(r"Dramatisch statt komisch \(Regisseur: \+1 je Sänger des Typs Dramatisch, "
                        r"-1 je Sänger des Typs Komisch\)", card_text(director))


def test_the_help_of_play_is_in_the_players_language(capsys):
    from impresario.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["play", "--help", "--lang", "it"])
    assert exit_.value.code == 0
    shown = capsys.readouterr().out
    assert "Gioca una partita nel terminale contro i bot del motore" in shown
    assert "il tuo nome al tavolo (predefinito Tu)" in shown
