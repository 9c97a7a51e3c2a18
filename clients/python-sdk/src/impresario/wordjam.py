"""Word Jam helpers for the SDK: one function per move (each takes a :class:`~impresario.client.Seat`),
a local word calculator, and :class:`WordJamBot`, which plays a seat from the API's view and
actions.

    from impresario import Client
    from impresario import wordjam

    game = Client().create_game("wordjam", players=6, seed=7)
    anna = game.join("Anna")
    ...
    wordjam.open_sesame(anna, "pinguino")

The bot is the engine's ``wordsmith`` (``impresario_rules.wordjam.bots``): it calls words that
fit the Style card in the game's language, and challenges and votes by the same lists
(:func:`card_words`, :func:`fits`; data shipped in the rules package). The lexicon of the
``dictionary`` option (:func:`knows`, :func:`vocabulary`) is the Italian and English lists of the
``wordfreq`` package, an optional dependency (``pip install "impresario[wordjam]"``); the moves,
the calculator and the bot need nothing more than the SDK. The calculator is the rules' own
(``impresario_rules.wordjam.words``).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from impresario_rules.wordjam import lexicon
from impresario_rules.wordjam import words as W
from impresario_rules.wordjam import bots as _bots
from impresario_rules.wordjam.bots import WordJamBot
from impresario_rules.wordjam.rules import ALI_BABA, THIEVES
from impresario_rules.wordjam.words import SEPARATORS, fold

from ._generated import models
from ._generated.operations import JSON
from .client import Seat

CONSONANTS = "".join(W.CONSONANTS)


# ------------------------------------------------------------------------------ moves
def choose_side(seat: Seat, side: str) -> models.MoveResult:
    """Turn 8: your secret side, ``"ali_baba"`` or ``"thieves"``."""
    return seat.move({"type": "choose_side", "side": side})


def open_sesame(seat: Seat, word: str) -> models.MoveResult:
    """Call Open Sesame with ``word``. Raises :class:`~impresario.errors.Conflict`
    (``sesame_already_called``) when someone else was first."""
    return seat.move({"type": "open_sesame", "word": word})


def no_call(seat: Seat) -> models.MoveResult:
    """Give up calling for the rest of this think window."""
    return seat.move({"type": "no_call"})


def challenge(seat: Seat, word_id: int) -> models.MoveResult:
    """Challenge the word in its challenge window; everyone then votes."""
    return seat.move({"type": "challenge", "word_id": word_id})


def no_challenge(seat: Seat, word_id: int | None = None) -> models.MoveResult:
    """Let the word stand."""
    move: dict[str, JSON] = {"type": "no_challenge"}
    if word_id is not None:
        move["word_id"] = word_id
    return seat.move(move)


def vote(seat: Seat, in_favour: bool, word_id: int | None = None) -> models.MoveResult:
    """Vote on a challenged word (it stands with 3 votes in favour)."""
    move: dict[str, JSON] = {"type": "vote", "in_favour": in_favour}
    if word_id is not None:
        move["word_id"] = word_id
    return seat.move(move)


def bet(seat: Seat, side: str) -> models.MoveResult:
    """Your sealed bet: ``"ali_baba"`` (trust) or ``"thieves"``."""
    return seat.move({"type": "bet", "side": side})


def thief_word(seat: Seat, word: str, final: bool = False) -> models.MoveResult:
    """Submit (or replace) your secret word in the window; ``final`` closes it for you."""
    return seat.move({"type": "thief_word", "word": word, "final": final})


def thief_pass(seat: Seat) -> models.MoveResult:
    """Withdraw any submitted word and pass for this window."""
    return seat.move({"type": "thief_pass"})


# ------------------------------------------------------------------------------ words
def word_value(word: str, coins: Mapping[str, int], forbidden: str | None = None, *,
               used: Iterable[str] = (), check: str | None = None, one_coin: str | None = None
               ) -> models.WordJamWordCheck:
    """``{"value", "valid", "reason"}`` of ``word``, computed locally by the rules' own checks
    (the server's calculator is ``POST /v1/rulesets/wordjam/value``): letters, the forbidden
    consonant, reuse (``used``: folded words), and the theme's ``check`` (``eight_letters``,
    or ``first_letter`` with the 1-coin consonant ``one_coin``)."""
    result = W.check(word, coins, forbidden, used=used, theme_check=check, one_coin=one_coin)
    return {"value": result["value"], "valid": result["valid"], "reason": result["reason"]}


def best_words(view: Mapping[str, Any], words: Iterable[str] | None = None
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


def best_word(view: Mapping[str, Any], words: Iterable[str] | None = None
              ) -> tuple[str, int] | None:
    """The most valuable of ``words`` (default: the lexicon's vocabulary) that passes the
    engine's checks in ``view``, and its value."""
    found = best_words(view, words)
    return found[0] if found else None


def card_words(view: Mapping[str, Any]) -> list[str]:
    """The words the bots may call on the view's Style card in the game's language."""
    return [w for w, _ in _bots.card_words(dict(view))]


def fits(view: Mapping[str, Any], word: str) -> bool:
    """Whether ``word`` fits the view's Style card as the bots judge it (they challenge and vote
    against a word that does not)."""
    return _bots.fits(dict(view), word)


def vocabulary() -> tuple[tuple[str, str], ...]:
    """``(word, folded)`` of the lexicon's vocabulary, the most frequent words of its lists
    (needs the ``wordjam`` extra)."""
    _require_word_lists()
    return lexicon.vocabulary()


def known_words() -> frozenset[str]:
    """Every folded word the lexicon knows (needs the ``wordjam`` extra)."""
    _require_word_lists()
    return lexicon.known_words()


def knows(word: str) -> bool:
    """Whether the lexicon knows every part of ``word`` (needs the ``wordjam`` extra)."""
    _require_word_lists()
    return lexicon.knows(word)


def _require_word_lists() -> None:
    """The lexicon reads its words from the ``wordfreq`` package: a clear message without it."""
    try:
        import wordfreq  # noqa: F401 - the lexicon's word lists
    except ImportError:  # pragma: no cover - depends on how the SDK was installed
        raise ImportError('the Word Jam lexicon needs its word lists: '
                          'pip install "impresario[wordjam]"') from None


__all__ = ["WordJamBot", "card_words", "fits", "choose_side", "open_sesame", "no_call", "challenge", "no_challenge",
           "vote", "bet", "thief_word", "thief_pass", "word_value", "fold", "best_word",
           "best_words", "knows", "known_words", "vocabulary", "ALI_BABA", "THIEVES",
           "CONSONANTS", "SEPARATORS"]
