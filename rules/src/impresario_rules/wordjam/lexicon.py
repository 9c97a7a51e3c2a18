"""Word Jam's lexicon: the Italian and English word lists of the ``wordfreq`` package.

The game option ``dictionary`` refuses words it does not know, in every language (the bots'
words and judgements come from ``themes.py``, not from here). The SDK reads the same package
with the same settings (``impresario.wordjam``; a unit test keeps the two in step). The lists
ship inside the package's wheel: nothing is downloaded at run time. They are loaded once per
process, on first use (about a second and 50 MB), so a worker that never serves Word Jam never
loads them.

Two views of the lists:

- :func:`knows`: a word is *known* when each of its parts (split at spaces, apostrophes and
  hyphens, accents and case folded) is in a list with a frequency of at least ``KNOWN_ZIPF`` on
  the Zipf scale (1.5: about three uses in a hundred million words), or is a single letter
  (the elisions l', d', un'). KCKCKCKC is unknown; GIRAFFA, OKAPI's Italian cousin
  ORNITORINCO, and FELLINI are known.
- :func:`vocabulary`: the ``VOCABULARY`` most frequent words of each language with at least
  ``MIN_LETTERS`` letters, folded once (the words a random legal move may use).

A plain lexicon knows words, not themes: whether a word fits "Animals" is the table's call
(challenge and vote), and the bots judge it by the card's list (``themes.py``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Mapping

from .words import SPELLED  # the same spelled-out letters as the words the engine checks
from .words import theme_reason, value_of

LANGUAGES = ("it", "en")
KNOWN_ZIPF = 1.5
VOCABULARY = {"it": 8000, "en": 4000}
#: the most frequent words of each list are left out of the vocabulary: articles, pronouns,
#: auxiliaries ("della", "sono", "that") are no table's idea of a word
SKIP_TOP = 300
MIN_LETTERS = 4
#: words a bot at a family table does not say (the lists count them as words all the same)
RUDE = frozenset("""ASSHOLE BASTARD BITCH COCK CUNT DAMN DICK FUCK FUCKED FUCKER FUCKING NIGGA
    PUSSY SHIT SLUT WHORE CAZZO CAZZI COGLIONE COGLIONI FOTTUTO MERDA MINCHIA PUTTANA STRONZO
    STRONZA STRONZI TROIA VAFFANCULO""".split())
_PARTS = re.compile(r"[\s'’`´\-‐‑–—.]+")


def _fold(word: str) -> str:
    """Upper case without accents (the lexicon's words have no spaces or punctuation)."""
    if word.isascii():
        return word.upper()
    out = []
    for ch in unicodedata.normalize("NFKD", word):
        if ch in SPELLED:
            out.append(SPELLED[ch])
        elif not unicodedata.combining(ch):
            out.append(ch)
    return "".join(out).upper()


def _ascii_letters(folded: str) -> bool:
    return folded.isascii() and folded.isalpha()


@lru_cache(maxsize=None)
def _lists() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """(the known words, the vocabulary), read once; wordfreq's own caches of the whole lists
    are emptied afterwards (they would hold three times the memory)."""
    import wordfreq

    floor = 10 ** (KNOWN_ZIPF - 9)
    known: set[str] = set()
    vocab: list[tuple[str, str]] = []
    for lang in LANGUAGES:
        for word, freq in wordfreq.get_frequency_dict(lang).items():
            if freq >= floor:
                folded = _fold(word)
                if _ascii_letters(folded):
                    known.add(folded)
    seen: set[str] = set()
    for lang in LANGUAGES:
        for word in wordfreq.top_n_list(lang, VOCABULARY[lang])[SKIP_TOP:]:
            folded = _fold(word)
            if (len(folded) >= MIN_LETTERS and _ascii_letters(folded) and folded not in seen
                    and folded not in RUDE):
                seen.add(folded)
                vocab.append((word, folded))
    for cached in (wordfreq.get_frequency_dict, wordfreq.get_frequency_list,
                   wordfreq.top_n_list):
        getattr(cached, "cache_clear", lambda: None)()
    return frozenset(known), tuple(vocab)


def known_words() -> frozenset[str]:
    """Every folded word the lexicon knows."""
    return _lists()[0]


def knows(word: str) -> bool:
    """Whether every part of ``word`` is a known word (single letters always are)."""
    parts = [_fold(p) for p in _PARTS.split(word.strip()) if p]
    if not parts:
        return False
    words = known_words()
    return all(len(p) == 1 and _ascii_letters(p) or p in words for p in parts)


def vocabulary() -> tuple[tuple[str, str], ...]:
    """``(word, folded)`` of the words bots think of, most frequent first, each once."""
    return _lists()[1]


def playable(words: Iterable[tuple[str, str]], coins: Mapping[str, int], forbidden: str | None,
             used: Iterable[str] = (), theme_check: str | None = None,
             one_coin: str | None = None) -> list[tuple[str, int]]:
    """``(word, value)`` of the ``(word, folded)`` pairs that pass the engine's own checks now
    (forbidden consonant, reuse, and the themes' own, ``words.theme_reason``): a fast path of
    ``words.check`` for lists already folded."""
    used = set(used)
    out = []
    for word, folded in words:
        if forbidden and forbidden in folded or folded in used:
            continue
        if theme_check is not None and theme_reason(folded, theme_check, one_coin):
            continue
        out.append((word, value_of(folded, coins)))
    return out


__all__ = ["knows", "known_words", "vocabulary", "playable", "KNOWN_ZIPF", "LANGUAGES"]
