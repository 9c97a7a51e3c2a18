"""The full rules at the table (impresario_rules.texts): every language has every section of the
English text, every prompt of every ruleset has its section, and the terminal's plain text."""

from __future__ import annotations

import re

import pytest

from impresario_rules import RULESETS
from impresario_rules.declare import by_type
from impresario_rules.texts import (LANGUAGES, RulesNotFound, anchor_for, anchors, plain, prompts,
                                    rules_text, section, sections)

CARD = re.compile(r"!\[([^\]]*)\]\(card:([a-z]+)(\?[^)]*)?\)")
LINK = re.compile(r"\]\(#([a-z0-9-]+)\)")


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_has_the_english_sections_in_the_same_order(ruleset, lang):
    english = anchors(rules_text(ruleset, "en"))
    assert len(english) == len(set(english)) >= 8
    theirs = anchors(rules_text(ruleset, lang))
    assert theirs == english, (f"{ruleset}/{lang}: missing {sorted(set(english) - set(theirs))}, "
                               f"extra {sorted(set(theirs) - set(english))}")
    # every heading below the title has an anchor, so a section can always be linked to
    assert all(s.anchor for s in sections(rules_text(ruleset, lang)) if s.level > 1)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_links_point_at_sections_and_pictures_are_the_same_cards(ruleset, lang):
    text = rules_text(ruleset, lang)
    assert set(LINK.findall(text)) <= set(anchors(text))
    english = [(kind, attrs) for _alt, kind, attrs in CARD.findall(rules_text(ruleset, "en"))]
    assert [(kind, attrs) for _alt, kind, attrs in CARD.findall(text)] == english
    assert all(alt.strip() for alt, _k, _a in CARD.findall(text)), "a picture without its caption"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_move_and_phase_has_the_section_that_explains_it(name):
    ruleset = RULESETS[name]
    table = prompts(name)
    known = set(anchors(rules_text(name, "en")))
    assert set(by_type(ruleset.declarations.moves)) == set(table["kinds"])
    assert set(ruleset.declarations.view.fields["phase"].enum) == set(table["phases"])
    assert set(table["kinds"].values()) | set(table["phases"].values()) <= known


def test_a_prompt_finds_its_section_by_kind_then_by_phase():
    assert anchor_for("turandot", ["bid"]) == "bids"
    assert anchor_for("wordjam", ["unknown", "vote"], "challenge") == "challenges"
    assert anchor_for("muzicando", [], "auction") == "auction"
    assert anchor_for("muzicando", ["unknown"]) is None


def test_unknown_rulesets_and_languages_are_refused_with_a_code():
    with pytest.raises(RulesNotFound) as err:
        rules_text("chess", "en")
    assert err.value.code == "ruleset_not_found"
    with pytest.raises(RulesNotFound) as err:
        rules_text("turandot", "es")
    assert err.value.code == "language_not_found"


def test_the_plain_text_drops_the_markup_and_keeps_the_words():
    bids = section("turandot", "it", "bids")
    assert bids.title.startswith("Fase 1")
    text = plain(bids.body)
    assert "carta bluff" in text and "**" not in text and "](#" not in text
    shown = plain(rules_text("muzicando", "fr"))
    assert "{#" not in shown and "card:" not in shown and "[Dièse orange]" in shown
    # a section brings its subsections along
    assert "### Les enchères {#auction}" in section("muzicando", "fr", "team").body
