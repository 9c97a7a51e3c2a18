"""Word values and the engine's own checks (R2, R9, R10) — the rulebook's first worked example
and the calculator behind ``POST /v1/rulesets/wordjam/value``."""

from __future__ import annotations

import pytest

from impresario_rules.base import IllegalMove
from impresario_rules.wordjam import word_value
from impresario_rules.wordjam import words as W

ANIMALS = {"T": 1, "P": 2, "N": 3, "F": 3}


class TestWorkedExampleAnimals:
    """Coins T=1, P=2, N=3, F=3, R forbidden, theme Animals."""

    def test_pinguino_is_worth_8(self):
        assert word_value("PINGUINO", ANIMALS, "R") == {"value": 8, "valid": True, "reason": None}

    def test_t_and_f_swapped_changes_nothing(self):
        assert word_value("pinguino", {"F": 1, "P": 2, "N": 3, "T": 3}, "R")["value"] == 8

    def test_gazzella_is_valid_and_worth_nothing(self):
        assert word_value("GAZZELLA", ANIMALS, "R") == {"value": 0, "valid": True, "reason": None}

    @pytest.mark.parametrize("word", ["COCCODRILLO", "GORILLA"])
    def test_words_with_the_forbidden_r_are_invalid(self, word):
        result = word_value(word, ANIMALS, "R")
        assert result["valid"] is False and result["reason"] == "forbidden_consonant"


class TestFolding:
    def test_accents_and_case_are_folded(self):
        assert W.fold("Arsène Lupin") == "ARSENELUPIN"
        assert word_value("ARSÈNE LUPIN", {"K": 1, "H": 2, "N": 3, "S": 3}, None)["value"] == 9

    def test_spaces_apostrophes_and_hyphens_are_ignored(self):
        assert W.fold("l'uomo-ragno  ") == "LUOMORAGNO"
        assert W.fold("D’Artagnan") == "DARTAGNAN"

    def test_every_occurrence_counts(self):
        assert word_value("nonna", {"N": 3}, None)["value"] == 9  # N, N, N

    def test_vowels_and_other_consonants_earn_nothing(self):
        assert word_value("aeiou", {"T": 1}, None)["value"] == 0

    def test_digits_and_symbols_are_not_letters(self):
        assert word_value("R2D2", {"D": 2}, None)["reason"] == "invalid_characters"
        assert word_value("cat$", {"T": 1}, None)["reason"] == "invalid_characters"

    @pytest.mark.parametrize("word", ["Ⓟⓘⓝ", "㍱", "Ｐin", "ﬁne", "ᵖin", "𝐏in", "ΠΙΝ", "Ⅻ",
                                      "Dr. Jekyll", "wow!", "tab\there"])
    def test_look_alikes_and_other_scripts_are_not_latin_letters(self, word):
        """Compatibility forms (NFKD) would make PIN of Ⓟⓘⓝ and HPA of ㍱: only the
        canonical decomposition is used, which splits accents off letters and nothing else."""
        result = word_value(word, {"P": 2, "N": 3, "H": 1}, None)
        assert (result["valid"], result["reason"]) == (False, "invalid_characters")

    @pytest.mark.parametrize("word,folded", [
        ("Đoković", "DOKOVIC"), ("Nguyễn", "NGUYEN"), ("İstanbul", "ISTANBUL"),
        ("Ørsted", "ORSTED"), ("Łódź", "LODZ"), ("Straße", "STRASSE"), ("ĳsselmeer", "IJSSELMEER"),
        ("Jean\u2011Paul", "JEANPAUL"), ("O\u02bcHara", "OHARA"), ("New\u00a0York", "NEWYORK"),
        ("e\u0301te\u0301", "ETE")])
    def test_latin_letters_with_their_accents_are_words(self, word, folded):
        assert W.fold(word) == folded and W.letters_reason(word) is None

    def test_the_specs_pattern_accepts_exactly_the_engines_words(self):
        """The pattern the spec publishes for words is computed from the engine's characters:
        a character is in it exactly when a word may hold it."""
        import re

        pattern = re.compile(W.WORD_PATTERN)
        for code in range(0x10000):
            if 0xD800 <= code < 0xE000:
                continue
            ch = chr(code)
            assert bool(pattern.fullmatch("a" + ch)) == (W.letters_reason("a" + ch) is None), \
                hex(code)
        assert not pattern.fullmatch("’ - ") and W.letters_reason("’ - ") == "empty"

    def test_a_word_of_punctuation_only_is_empty(self):
        assert word_value("' - '", {"T": 1}, None)["reason"] == "empty"

    def test_the_forbidden_consonant_is_found_under_an_accent_or_in_lower_case(self):
        assert word_value("ŕosa", {"S": 1}, "R")["valid"] is False


class TestGameChecks:
    def test_reuse_compares_folded_words(self):
        assert W.check("Pinguinò", ANIMALS, "R", used=["PINGUINO"])["reason"] == "already_used"

    def test_eight_letter_theme_counts_folded_letters(self):
        ok = W.check("l'ananas", {}, None, theme_check="eight_letters")  # LANANAS: 7
        assert ok["reason"] == "not_eight_letters"
        assert W.check("elefante", {}, None, theme_check="eight_letters")["valid"]
        assert W.check("Città-Mia", {}, None, theme_check="eight_letters")["valid"]

    def test_first_letter_theme_uses_the_one_coin_consonant(self):
        assert W.check("tavolo", {"T": 1}, None, theme_check="first_letter",
                       one_coin="T")["valid"]
        assert W.check("sedia", {"T": 1}, None, theme_check="first_letter",
                       one_coin="T")["reason"] == "wrong_first_letter"

    def test_forbidden_comes_before_reuse(self):
        assert W.check("gorilla", ANIMALS, "R", used=["GORILLA"])["reason"] == "forbidden_consonant"


class TestCalculatorInputs:
    @pytest.mark.parametrize("coins", [{"A": 1}, {"PP": 1}, {"P": -1}, {"P": True}, {1: 2}])
    def test_bad_coins_are_refused(self, coins):
        with pytest.raises(IllegalMove) as info:
            word_value("pane", coins, "R")
        assert info.value.code in ("invalid_consonant", "invalid_coins")

    def test_forbidden_must_be_a_consonant_without_coins(self):
        with pytest.raises(IllegalMove):
            word_value("pane", {"P": 2}, "E")
        with pytest.raises(IllegalMove):
            word_value("pane", {"P": 2}, "P")

    def test_lower_case_inputs_are_accepted(self):
        assert word_value("pane", {"p": 2, "n": 3}, "r")["value"] == 5


class TestShippedData:
    def test_fifteen_style_cards_with_two_engine_checked_themes(self):
        cards = W.styles()
        assert len(cards) == 15 and len({c["id"] for c in cards}) == 15
        assert {c["id"]: c["check"] for c in cards if c["check"]} == {
            "eight_letters": "eight_letters", "first_letter": "first_letter"}
        assert [c["id"] for c in cards if c["visible_objects"]] == ["visible_objects"]

    def test_default_cave_r1(self):
        assert W.default_cave() == {"red": [2, 3, 3, 4, 4, 5, 5, 6],
                                    "yellow": [1, 1, 2, 2, 2, 3, 3, 4]}

    def test_the_lexicon_knows_words_and_not_gibberish(self):
        from impresario_rules.wordjam import lexicon

        for word in ("pinguino", "GAZZELLA", "giraffa", "Sherlock Holmes", "Arsène Lupin",
                     "l'ananas", "tiramisù", "Schwarzenegger", "penguin"):
            assert lexicon.knows(word), word
        for word in ("KCKCKCKC", "xqzjw", "", "  ", "zzzzqqq"):
            assert not lexicon.knows(word), word
        vocab = lexicon.vocabulary()
        assert len(vocab) > 8000
        for word, folded in vocab:
            assert W.letters_reason(word) is None and W.fold(word) == folded, word
            assert len(folded) >= lexicon.MIN_LETTERS and folded not in lexicon.RUDE
            assert lexicon.knows(word), word
