"""Word Jam's bots call words on the Style card, judged by WordNet itself.

The bots play from the lists in ``impresario_rules/wordjam/data/themes`` (built from WordNet by
``rules/tools/build_themes.py``). This test does not trust those lists: it reads WordNet 3.0's
own database files (Debian's ``wordnet-base``, which ``make install`` and ``make test``
install; ``WORDNET`` names another folder) and judges each word a bot calls by the categories
of *all* its senses there, the way a dictionary settles a dispute at the table."""

from __future__ import annotations

import os
import random
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest

from impresario_rules.bots import seat_actions
from impresario_rules.wordjam import themes
from impresario_rules.wordjam.bots import wordsmith
from impresario_rules import RULESETS
from impresario_rules.wordjam.words import CONSONANTS, COIN_VALUES

WJ = RULESETS["wordjam"]
WORDNET = Path(os.environ.get("WORDNET", "/usr/share/wordnet"))
TURNS = 100
FIT_RATE = 0.95
LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute
noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group
noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession
noun.process noun.quantity noun.relation noun.shape noun.state noun.substance noun.time
verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption
verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social
verb.stative verb.weather adj.ppl""".split()
#: the dictionary Style cards (✱ in the rulebook) and what fits them by WordNet: a sense in one
#: of these categories, or (None) any WordNet word
JUDGE = {
    "objects": ("noun.artifact",),
    "visible_objects": ("noun.artifact",),
    "flora": ("noun.plant",),
    "food": ("noun.food",),
    "human_body": ("noun.body",),
    "animals": ("noun.animal",),
    "geography": ("noun.location",),
    "verbs_adjectives": ("verb.", "adj."),
    "eight_letters": None,
    "first_letter": None,
    "free_theme": None,
}


@lru_cache(maxsize=None)
def wordnet() -> dict[str, set[str]]:
    """Every WordNet lemma (lower case, spaces as underscores) and the categories of its
    senses, read from the database files."""
    assert (WORDNET / "index.noun").is_file(), (
        f"WordNet is not at {WORDNET}: `make install` installs Debian's wordnet-base as root "
        "(apt-get install wordnet-base), or set WORDNET to its folder")
    lexname: dict[tuple[str, str], str] = {}
    out: dict[str, set[str]] = defaultdict(set)
    for pos in ("noun", "verb", "adj", "adv"):
        with open(WORDNET / f"data.{pos}", encoding="latin-1") as f:
            for line in f:
                if not line.startswith(" "):
                    offset, filenum = line.split(" ", 2)[:2]
                    lexname[(pos, offset)] = LEXNAMES[int(filenum)]
        with open(WORDNET / f"index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                fields = line.split()
                count, pointers = int(fields[2]), int(fields[3])
                for offset in fields[6 + pointers:6 + pointers + count]:
                    out[fields[0]].add(lexname[(pos, offset)])
    return out


def wordnet_fits(theme: str, word: str) -> bool:
    lemma = word.lower().replace(" ", "_")
    forms = [lemma] + ([lemma[:-1], lemma[:-2]] if lemma.endswith("s") else [])
    cats = set().union(*(wordnet().get(f, set()) for f in forms))
    wanted = JUDGE[theme]
    if wanted is None:
        return bool(cats)
    return any(c.startswith(wanted) for c in cats)


def bot_calls(theme: str, language: str, turns: int) -> list[str]:
    """The words a wordsmith calls in ``turns`` turns on ``theme``: real deals (coins, the
    forbidden consonant) from seeded games, the bot at a random seat."""
    called = []
    for seed in range(turns):
        state, _ = WJ.new_game(6, {"language": language}, seed)
        state["style"] = theme
        seat = seed % 6
        view = WJ.view(state, seat)
        move = wordsmith(view, seat_actions(WJ, state, seat), random.Random(seed))
        if move["type"] == "open_sesame":
            assert WJ.check_word(state, move["word"])["valid"], move
            called.append(move["word"])
    return called


@pytest.mark.parametrize("theme", sorted(JUDGE))
def test_english_bots_call_words_that_fit_the_card_by_wordnet(theme):
    called = bot_calls(theme, "en", TURNS)
    assert len(called) >= TURNS * 0.8, f"{theme}: the bots called only {len(called)} times"
    off = [w for w in called if not wordnet_fits(theme, w)]
    rate = 1 - len(off) / len(called)
    print(f"{theme}: {len(called) - len(off)}/{len(called)} fit ({rate:.1%}); off: {off}")
    assert rate >= FIT_RATE, (theme, rate, off)


@pytest.mark.parametrize("language", themes.LANGUAGES)
def test_every_listed_word_is_callable_in_the_game(language):
    """Each word a bot may call is made of the game's letters and fits its card's length and
    first-letter rules where the engine checks them."""
    from impresario_rules.wordjam.words import check, styles
    no_coins = dict(zip("BCDF", COIN_VALUES))
    for style in styles():
        words = themes.calls(language, style["id"])
        assert len(words) >= 40, (language, style["id"], len(words))
        for word, folded in words:
            result = check(word, no_coins, None)
            assert result["valid"], (language, style["id"], word, result)
            assert set(folded) <= set(CONSONANTS) | set("AEIOU"), word
            if style["check"] == "eight_letters":
                assert len(folded) == 8, word


@pytest.mark.parametrize("language,theme,word", [
    ("en", "human_body", "carrot"), ("en", "animals", "bicycle"), ("it", "flora", "calcolo"),
    ("it", "imaginary_characters", "calcolo"), ("en", "free_theme", "KCKCKCKC"),
    ("it", "animals", "rappresentare"), ("en", "flora", "newspaper"),
    ("en", "singers", "KCKCKCKC"), ("it", "singers", "tavolo")])
def test_bots_judge_off_card_words_as_off_card(language, theme, word):
    assert not themes.fits(language, theme, word)


@pytest.mark.parametrize("language,theme,word", [
    ("en", "human_body", "elbow"), ("en", "animals", "giraffe"), ("it", "flora", "girasole"),
    ("it", "imaginary_characters", "Pinocchio"), ("it", "cinema", "Fellini"),
    ("en", "sports_games", "chess"), ("it", "geography", "Kilimangiaro"),
    ("en", "verbs_adjectives", "beautiful"), ("it", "verbs_adjectives", "mangiare"),
    ("en", "cinema", "Tarkovsky")])
def test_bots_judge_on_card_words_as_on_card(language, theme, word):
    assert themes.fits(language, theme, word)
