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


def test_a_question_mark_shows_the_rule_behind_the_prompt_then_asks_again():
    console, out = piped("?", "2")
    rules = RulesHelp(console, "turandot", "it")
    console.help = rules
    rules.at(["bid"], "bidding")
    assert console.ask("Your bid: ") == "2"
    text = out.getvalue()
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
    console, out = piped("?", "x")
    rules = RulesHelp(console, "wordjam", "fr")
    console.help = rules
    rules.at(["unknown"], "bets")
    assert console.ask("> ") == "x"
    assert section("wordjam", "fr", "bets").title in out.getvalue()
