"""Word Jam helpers for the SDK: one function per move (each takes a :class:`~impresario.client.Seat`),
a local word calculator, and :class:`WordJamBot`, which plays a seat from the API's view and
actions.

    from impresario import Client
    from impresario import wordjam

    game = Client().create_game("wordjam", players=6, seed=7)
    anna = game.join("Anna")
    ...
    wordjam.open_sesame(anna, "pinguino")

The bot plays words from the lexicon the engine's own bots use: the Italian and English lists of
the ``wordfreq`` package, an optional dependency (``pip install "impresario[wordjam]"``); the
moves and the calculator need nothing more than the SDK. A lexicon knows words, not themes:
whether a word fits the theme is for the players to judge (challenge and vote).
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from functools import lru_cache
from typing import Any, Iterable, Mapping

from .client import Seat

ALI_BABA, THIEVES = "ali_baba", "thieves"
CONSONANTS = "BCDFGHJKLMNPQRSTVWXYZ"
# the engine's word characters (its games/wordjam/words.py; a test keeps the two equal)
_SPELLED = {"Æ": "AE", "Œ": "OE", "Ø": "O", "Ð": "D", "Þ": "TH", "Ł": "L", "ß": "SS", "ẞ": "SS",
            "æ": "AE", "œ": "OE", "ø": "O", "ð": "D", "þ": "TH", "ł": "L",
            "Đ": "D", "đ": "D", "Ħ": "H", "ħ": "H", "ı": "I", "Ĳ": "IJ", "ĳ": "IJ", "Ŧ": "T",
            "ŧ": "T"}
SEPARATORS = frozenset(" \u00a0\u202f'\u2019\u02bc-\u2010\u2011\u00ad")
_ACCENTS = ("\u0300", "\u036f")


# ------------------------------------------------------------------------------ moves
def choose_side(seat: Seat, side: str) -> Any:
    """Turn 8: your secret side, ``"ali_baba"`` or ``"thieves"``."""
    return seat.move({"type": "choose_side", "side": side})


def open_sesame(seat: Seat, word: str) -> Any:
    """Call Open Sesame with ``word``. Raises :class:`~impresario.errors.Conflict`
    (``sesame_already_called``) when someone else was first."""
    return seat.move({"type": "open_sesame", "word": word})


def no_call(seat: Seat) -> Any:
    """Give up calling for the rest of this think window."""
    return seat.move({"type": "no_call"})


def challenge(seat: Seat, word_id: int) -> Any:
    """Challenge the word in its challenge window; everyone then votes."""
    return seat.move({"type": "challenge", "word_id": word_id})


def no_challenge(seat: Seat, word_id: int | None = None) -> Any:
    """Let the word stand."""
    move: dict[str, Any] = {"type": "no_challenge"}
    if word_id is not None:
        move["word_id"] = word_id
    return seat.move(move)


def vote(seat: Seat, in_favour: bool, word_id: int | None = None) -> Any:
    """Vote on a challenged word (it stands with 3 votes in favour)."""
    move: dict[str, Any] = {"type": "vote", "in_favour": in_favour}
    if word_id is not None:
        move["word_id"] = word_id
    return seat.move(move)


def bet(seat: Seat, side: str) -> Any:
    """Your sealed bet: ``"ali_baba"`` (trust) or ``"thieves"``."""
    return seat.move({"type": "bet", "side": side})


def thief_word(seat: Seat, word: str, final: bool = False) -> Any:
    """Submit (or replace) your secret word in the window; ``final`` closes it for you."""
    return seat.move({"type": "thief_word", "word": word, "final": final})


def thief_pass(seat: Seat) -> Any:
    """Withdraw any submitted word and pass for this window."""
    return seat.move({"type": "thief_pass"})


# ------------------------------------------------------------------------------ words
def fold(word: str) -> str:
    """Accents and case folded, spaces, apostrophes and hyphens removed (as the engine compares
    words). Any other character is kept as it is: it makes the word invalid. Only the canonical
    decomposition (NFD) is used, so Ⓟ, Ｐ or ㍱ stay what they are rather than Latin letters."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", word):
        if "a" <= ch <= "z":
            out.append(ch.upper())
        elif "A" <= ch <= "Z":
            out.append(ch)
        elif ch in _SPELLED:
            out.append(_SPELLED[ch])
        elif not (ch in SEPARATORS or _ACCENTS[0] <= ch <= _ACCENTS[1]):
            out.append(ch)
    return "".join(out)


def word_value(word: str, coins: Mapping[str, int], forbidden: str | None = None, *,
               used: Any = (), check: str | None = None, one_coin: str | None = None
               ) -> dict[str, Any]:
    """``{"value", "valid", "reason"}`` of ``word``, computed locally the engine's way (the
    server's calculator is ``POST /v1/rulesets/wordjam/value``)."""
    if not isinstance(word, str) or not word.strip():
        return {"value": 0, "valid": False, "reason": "empty"}
    if len(word) > 64:
        return {"value": 0, "valid": False, "reason": "too_long"}
    folded = fold(word)
    value = sum(coins.get(c, 0) for c in folded)
    reason = None
    if not folded:
        reason = "empty"
    elif not all("A" <= c <= "Z" for c in folded):
        reason = "invalid_characters"
    elif forbidden and forbidden in folded:
        reason = "forbidden_consonant"
    elif folded in set(used):
        reason = "already_used"
    elif check == "eight_letters" and len(folded) != 8:
        reason = "not_eight_letters"
    elif check == "first_letter" and not folded.startswith(one_coin or ""):
        reason = "wrong_first_letter"
    return {"value": value, "valid": reason is None, "reason": reason}


# ------------------------------------------------------------------------------ lexicon
# The engine's settings (its games/wordjam/lexicon.py; a unit test keeps the two
# in step): the same words known, the same vocabulary.
LANGUAGES = ("it", "en")
KNOWN_ZIPF = 1.5
VOCABULARY = {"it": 8000, "en": 4000}
SKIP_TOP = 300
MIN_LETTERS = 4
RUDE = frozenset("""ASSHOLE BASTARD BITCH COCK CUNT DAMN DICK FUCK FUCKED FUCKER FUCKING NIGGA
    PUSSY SHIT SLUT WHORE CAZZO CAZZI COGLIONE COGLIONI FOTTUTO MERDA MINCHIA PUTTANA STRONZO
    STRONZA STRONZI TROIA VAFFANCULO""".split())
_PARTS = re.compile(r"[\s'’`´\-‐‑–—.]+")


def _wordfreq():
    try:
        import wordfreq
    except ImportError:  # pragma: no cover - depends on how the SDK was installed
        raise ImportError('WordJamBot needs the lexicon: pip install "impresario[wordjam]"'
                          ) from None
    return wordfreq


def _letters(folded: str) -> bool:
    return folded.isascii() and folded.isalpha()


def _lexfold(word: str) -> str:
    """Upper case without accents, punctuation kept (a lexicon word with an apostrophe, an
    elision, is not a word of its own)."""
    if word.isascii():
        return word.upper()
    out = []
    for ch in unicodedata.normalize("NFKD", word):
        if ch in _SPELLED:
            out.append(_SPELLED[ch])
        elif not unicodedata.combining(ch):
            out.append(ch)
    return "".join(out).upper()


@lru_cache(maxsize=None)
def known_words() -> frozenset[str]:
    """Every folded word the lexicon knows (each list's words at least ``KNOWN_ZIPF``)."""
    wf = _wordfreq()
    floor = 10 ** (KNOWN_ZIPF - 9)
    return frozenset(f for lang in LANGUAGES for w, freq in wf.get_frequency_dict(lang).items()
                     if freq >= floor and _letters(f := _lexfold(w)))


def knows(word: str) -> bool:
    """Whether the lexicon knows every part of ``word`` (single letters always count)."""
    parts = [_lexfold(p) for p in _PARTS.split(word.strip()) if p]
    words = known_words()
    return bool(parts) and all(len(p) == 1 and _letters(p) or p in words for p in parts)


@lru_cache(maxsize=None)
def vocabulary() -> tuple[tuple[str, str], ...]:
    """``(word, folded)`` of the words the bot thinks of, most frequent first."""
    wf = _wordfreq()
    seen: set[str] = set()
    out = []
    for lang in LANGUAGES:
        for word in wf.top_n_list(lang, VOCABULARY[lang])[SKIP_TOP:]:
            folded = _lexfold(word)
            if (len(folded) >= MIN_LETTERS and _letters(folded) and folded not in seen
                    and folded not in RUDE):
                seen.add(folded)
                out.append((word, folded))
    return tuple(out)


def best_words(view: dict[str, Any], words: Iterable[str] | None = None
               ) -> list[tuple[str, int]]:
    """``(word, value)`` of ``words`` (default: the lexicon's vocabulary) that pass the engine's
    checks in ``view``, most valuable first."""
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    style = view["style"]
    out = []
    for w in (w for w, _ in vocabulary()) if words is None else words:
        r = word_value(w, coins, view["forbidden"], used=view["used_words"],
                       check=style["check"], one_coin=view["coins"][0]["consonant"])
        if r["valid"]:
            out.append((w, r["value"]))
    out.sort(key=lambda wv: -wv[1])
    return out


def best_word(view: dict[str, Any], words: Iterable[str] | None = None
              ) -> tuple[str, int] | None:
    """The most valuable of ``words`` (default: the lexicon's vocabulary) that passes the
    engine's checks in ``view``, and its value."""
    found = best_words(view, words)
    return found[0] if found else None


# ------------------------------------------------------------------------------ bot
class WordJamBot:
    """Plays a seat like the engine's ``wordsmith``, from the same lexicon.

    Each turn it thinks of a random third of the lexicon's vocabulary (the same all turn long)
    and settles on one of its three most valuable words that pass the engine's checks, so bots
    of one table find different words. It calls Open Sesame with that word; bets Thieves only
    when it is worth strictly more than Alì Babà's, and submits it (final) in the window, else
    passes; in turn 8 it picks a side (Thieves one time in three) and submits its word;
    challenges a word the lexicon does not know and votes against it, and votes for its own word
    and for every word the lexicon knows. ``seed`` makes it reproducible; without one its
    choices come from the OS's secure generator."""

    name = "wordjam"
    known_share = 1 / 3
    top = 3

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed
        self._key = str(seed) if seed is not None else secrets.token_hex(16)
        self.rng = random.Random(f"{self._key}:moves")

    def thought_of(self, view: dict[str, Any]) -> list[str]:
        """The words it thinks of this turn."""
        me = view.get("you", {}).get("seat")
        turn = random.Random(f"{self._key}:{me}:{view['turn']}:{view.get('extra_turn', 0)}")
        vocab = vocabulary()
        picked = sorted(turn.sample(range(len(vocab)), int(len(vocab) * self.known_share)))
        return [vocab[i][0] for i in picked]

    def word(self, view: dict[str, Any]) -> tuple[str, int] | None:
        """The word it settled on this turn, and its value."""
        found = best_words(view, self.thought_of(view))
        if not found:
            return None
        me = view.get("you", {}).get("seat")
        pick = random.Random(f"{self._key}:{me}:{view['turn']}:{view.get('extra_turn', 0)}:pick")
        return pick.choice(found[:self.top])

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        space = actions["moves"][0]
        kind = space["type"]
        if kind == "choose_side":
            return {"type": "choose_side",
                    "side": THIEVES if self.rng.random() < 1 / 3 else ALI_BABA}
        if kind == "open_sesame":
            best = self.word(view)
            return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
        if kind == "bet":
            best = self.word(view)
            beats = best is not None and best[1] > space["value"]
            return {"type": "bet", "side": THIEVES if beats else ALI_BABA}
        if kind == "thief_word":
            best = self.word(view)
            must_beat = space["must_beat"]
            if best is not None and (must_beat is None or best[1] > must_beat):
                return {"type": "thief_word", "word": best[0], "final": True}
            return {"type": "thief_pass"}
        if kind == "challenge":
            if not knows(space["word"]):
                return {"type": "challenge", "word_id": space["word_id"]}
            return {"type": "no_challenge", "word_id": space["word_id"]}
        if kind == "vote":
            mine = space["author"] == view.get("you", {}).get("seat")
            in_favour = mine or knows(space["word"])
            return {"type": "vote", "word_id": space["word_id"], "in_favour": in_favour}
        return dict(actions["default"])


__all__ = ["WordJamBot", "choose_side", "open_sesame", "no_call", "challenge", "no_challenge",
           "vote", "bet", "thief_word", "thief_pass", "word_value", "fold", "best_word",
           "best_words", "knows", "vocabulary"]
