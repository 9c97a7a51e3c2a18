"""The guided games' steps (impresario_rules.guide): every step a guided game reaches has its
text in the four languages, each naming the same places, and a section of the rules behind it in
every language; a step is made from the seat's own view and actions."""

from __future__ import annotations

import pytest

from impresario_rules import RULESETS, guide
from impresario_rules.base import BotRandom
from impresario_rules.texts import LANGUAGES, anchors, rules_text


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_step_text_is_in_every_language_with_the_same_places(ruleset):
    for key, texts in guide.catalogue(ruleset).items():
        assert sorted(texts) == sorted(LANGUAGES), (ruleset, key)
        places = {lang: guide.placeholders(t) for lang, t in texts.items()}
        assert len({frozenset(p) for p in places.values()}) == 1, (ruleset, key, places)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_guided_game_reaches_only_steps_with_texts_and_sections(ruleset):
    """The guided table played by easy bots for every seat, the step of seat 0 read at each
    move: its key has a text, its params fill it in every language, its anchor is a section."""
    setup = guide.guided_setup(ruleset, "en")
    assert setup["options"]["guided"] is True and len(setup["bots"]) == setup["players"] - 1
    rules = RULESETS[ruleset]
    options = {k: v for k, v in setup["options"].items() if k not in ("guided", "bot_seconds")}
    state, _ = rules.new_game(setup["players"], options, setup["seed"])
    state, _ = rules.deal(state)
    sections = {lang: anchors(rules_text(ruleset, lang)) for lang in LANGUAGES}
    reached = set()
    for i in range(3000):
        step = guide.step(ruleset, rules.view(state, 0), rules.seat_actions(state, 0))
        reached.add(step["key"])
        for lang in LANGUAGES:
            assert guide.text(ruleset, lang, step)
            assert step["anchor"] in sections[lang], (ruleset, lang, step)
        if rules.is_finished(state):
            break
        seat = min(rules.pending(state))
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat, "easy",
                                                             BotRandom("guide", i, seat)))
    assert step["key"] == "finished"
    assert len(reached) >= 3 and reached <= set(guide.catalogue(ruleset))


def test_the_word_jam_table_plays_in_the_players_language_when_it_can():
    assert guide.guided_setup("wordjam", "it")["options"]["language"] == "it"
    assert guide.guided_setup("wordjam", "de")["options"]["language"] == "en"


def test_a_thiefs_word_not_yet_final_is_told_the_window_waits_for_it():
    """Word Jam's Thieves' window closes for a seat when its word is final (or it passes): in a
    guided game no deadline closes it, so the step says so once a word is given, not final."""
    view = {"phase": "window", "you": {"seat": 0, "word": "SCISSORS", "word_final": False}}
    actions = {"pending": ["thief_word", "thief_pass"]}
    step = guide.step("wordjam", view, actions)
    assert step == {"key": "thief_final", "params": {"word": "SCISSORS"}, "anchor": "thieves"}
    assert "SCISSORS" in guide.text("wordjam", "it", step)
    view["you"]["word"] = None
    assert guide.step("wordjam", view, actions)["key"] == "thief"
