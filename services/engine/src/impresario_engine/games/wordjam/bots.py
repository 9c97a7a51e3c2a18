"""Server-side Word Jam bots for bot seats: ``random`` and ``wordsmith``.

A bot sees only what its seat may see: it decides from ``WORDJAM.view(state, seat)`` and the
seat's action space, never from the deck, another seat's bet, side or secret word.

``wordsmith`` plays words from the shipped bot list (``data/words.txt``). Each turn it "knows" a
random two thirds of the list's words for the theme (drawn from its seat and the turn, so it is
the same bot all turn long), which makes bots find different words:

- Open Sesame: calls with its best valid word, if it knows one;
- bets Thieves only if it knows a valid word worth strictly more than Alì Babà's, then submits it
  (final) in the window, else passes; in turn 8 it picks a side (Thieves one time in three) and
  submits its best word;
- challenges a word only when its list files that word under another theme and not this one;
  votes for a word it knows for this theme, or does not know at all (benefit of the doubt), and
  for its own word; against a word its list files under another theme only.

Its list cannot judge theme fit: that is for the humans at the table.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Action, State
from . import words as W
from .rules import WORDJAM

KNOWN_SHARE = 2 / 3


def _known(view: dict[str, Any], seat: int) -> list[str]:
    style = view["style"]["id"]
    words = W.candidates(style)
    rng = random.Random(f"wordsmith:{seat}:{view['turn']}:{style}")
    return [w for w in words if rng.random() < KNOWN_SHARE]


def _best(view: dict[str, Any], seat: int) -> tuple[str, int] | None:
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    style = view["style"]
    best: tuple[str, int] | None = None
    for w in _known(view, seat):
        r = W.check(w, coins, view["forbidden"], used=view["used_words"],
                    theme_check=style["check"], one_coin=view["coins"][0]["consonant"])
        if r["valid"] and (best is None or r["value"] > best[1]):
            best = (w, r["value"])
    return best


def _fits(view: dict[str, Any], word: str) -> bool | None:
    """True: the list files ``word`` under this theme; False: only under others; None: unknown."""
    folded = W.fold(word)
    style = view["style"]["id"]
    if any(W.fold(w) == folded for w in W.candidates(style)):
        return True
    if style in W.BROAD_STYLES:
        return None
    lists = W.word_list()
    if any(W.fold(w) == folded for words in lists.values() for w in words):
        return False
    return None


def wordsmith(state: State, seat: int, rng: random.Random) -> Action:
    view = WORDJAM.view(state, seat)
    space = WORDJAM.action_space(state, seat)
    kind = space[0]["type"]
    if kind == "choose_side":
        return {"type": "choose_side", "side": "thieves" if rng.random() < 1 / 3 else "ali_baba"}
    if kind == "open_sesame":
        best = _best(view, seat)
        return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
    if kind == "bet":
        best = _best(view, seat)
        beats = best is not None and best[1] > view["ali_word"]["value"]
        return {"type": "bet", "side": "thieves" if beats else "ali_baba"}
    if kind == "thief_word":
        best = _best(view, seat)
        must_beat = space[0]["must_beat"]
        if best is not None and (must_beat is None or best[1] > must_beat):
            return {"type": "thief_word", "word": best[0], "final": True}
        return {"type": "thief_pass"}
    if kind == "challenge":
        challenge = view["challenge"]
        if _fits(view, challenge["word"]) is False:
            return {"type": "challenge", "word_id": challenge["word_id"]}
        return {"type": "no_challenge", "word_id": challenge["word_id"]}
    if kind == "vote":
        challenge = view["challenge"]
        in_favour = challenge["seat"] == seat or _fits(view, challenge["word"]) is not False
        return {"type": "vote", "word_id": challenge["word_id"], "in_favour": in_favour}
    return WORDJAM.default_action(state, seat)


def uniform(state: State, seat: int, rng: random.Random) -> Action:
    return WORDJAM.sample_action(state, seat, rng)


BOTS = {"random": uniform, "wordsmith": wordsmith}
