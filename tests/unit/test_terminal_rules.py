"""``?`` at a terminal prompt (impresario.terminal.rules): the rules in the player's language,
the section behind the question on screen, and the question asked again."""

from __future__ import annotations

import io
import os

from impresario.terminal.console import Console
from impresario.terminal.rules import RulesHelp
from impresario_rules.texts import section


def piped(*lines: str) -> tuple[Console, io.StringIO]:
    """A console reading ``lines`` from a real pipe, as a terminal's scripted input."""
    read, write = os.pipe()
    os.write(write, "".join(f"{line}\n" for line in lines).encode())
    os.close(write)
    out = io.StringIO()
    return Console(stdin=read, stdout=out), out


def asked_at(ruleset: str, lang: str, kinds: list[str], phase: str, prompt: str,
             *lines: str) -> tuple[str, str]:
    """A prompt answered with ``lines`` at a point of play (the move kinds, the phase) with the
    rules at hand: the answer, and everything the console printed."""
    console, out = piped(*lines)
    rules = RulesHelp(console, ruleset, lang)
    console.help = rules
    rules.at(kinds, phase)
    return console.ask(prompt), out.getvalue()


def test_a_question_mark_shows_the_rule_behind_the_prompt_then_asks_again():
    answer, text = asked_at("turandot", "it", ["bid"], "bidding", "Your bid: ", "?", "2")
    assert answer == "2"
    bids = section("turandot", "it", "bids")
    assert bids.title in text and "carta bluff" in text
    assert "**" not in text and "{#" not in text
    assert text.count("Your bid: ") == 2


def test_a_named_section_the_list_and_the_whole_rules():
    console, out = piped("? auction", "? list", "??", "? nowhere", "pass")
    console.help = RulesHelp(console, "muzicando", "de")
    assert console.ask("> ") == "pass"
    text = out.getvalue()
    assert section("muzicando", "de", "auction").title in text          # ? auction
    assert "team-scoring" in text and "Das Teamspiel" in text           # ? list
    assert "Sieger und Gleichstand" in text and "[Violette Pause]" in text  # ?? (the cards' captions)
    assert "no section 'nowhere'" in text


def test_without_help_a_question_mark_is_an_answer():
    console, _out = piped("?")
    assert console.ask("> ") == "?"


def test_the_phase_decides_when_no_move_kind_has_a_section():
    answer, text = asked_at("wordjam", "fr", ["unknown"], "bets", "> ", "?", "x")
    assert answer == "x"
    assert section("wordjam", "fr", "bets").title in text
