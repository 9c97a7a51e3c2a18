"""Word Jam helpers for the SDK: one function per move (each takes a :class:`~impresario.client.Seat`),
a local word calculator, and :class:`WordJamBot`, which plays a seat from the API's view and
actions.

    from impresario import Client
    from impresario import wordjam

    game = Client().create_game("wordjam", players=6, seed=7)
    anna = game.join("Anna")
    ...
    wordjam.open_sesame(anna, "pinguino")

The bot plays words from a small list shipped with the SDK (``_wordjam_words.py``). It is a bot's
list: whether a word fits the theme is for the human players to judge (challenge and vote).
"""

from __future__ import annotations

import random
import unicodedata
from functools import lru_cache
from typing import Any, Mapping

from ._wordjam_words import WORDS_TEXT
from .client import Seat

ALI_BABA, THIEVES = "ali_baba", "thieves"
CONSONANTS = "BCDFGHJKLMNPQRSTVWXYZ"
BROAD_STYLES = ("free_theme", "eight_letters", "first_letter")
COMMON_SECTIONS = ("dictionary", "objects", "flora", "food", "human_body", "animals",
                   "verbs_adjectives", "visible_objects")
_SPELLED = {"Æ": "AE", "Œ": "OE", "Ø": "O", "Ð": "D", "Þ": "TH", "Ł": "L", "ß": "SS", "ẞ": "SS",
            "æ": "AE", "œ": "OE", "ø": "O", "ð": "D", "þ": "TH", "ł": "L"}


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
    """Accents and case folded, spaces and punctuation removed (as the engine compares words)."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFKD", word):
        if ch in _SPELLED:
            out.append(_SPELLED[ch])
            continue
        cat = unicodedata.category(ch)
        if cat[0] in "PZ" or cat in ("Mn", "Mc", "Me", "Sk", "Cf"):
            continue
        out.append(ch)
    return "".join(out).upper()


def word_value(word: str, coins: Mapping[str, int], forbidden: str | None = None, *,
               used: Any = (), check: str | None = None, one_coin: str | None = None
               ) -> dict[str, Any]:
    """``{"value", "valid", "reason"}`` of ``word``, computed locally the engine's way (the
    server's calculator is ``POST /v1/rulesets/wordjam/value``)."""
    folded = fold(word) if isinstance(word, str) else ""
    value = sum(coins.get(c, 0) for c in folded)
    reason = None
    if not folded:
        reason = "empty"
    elif len(word) > 64:
        reason = "too_long"
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


@lru_cache(maxsize=None)
def word_list() -> dict[str, tuple[str, ...]]:
    """The shipped bot list: ``{style_id: words}``."""
    out: dict[str, list[str]] = {}
    section = "dictionary"
    for raw in WORDS_TEXT.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        out.setdefault(section, []).append(line)
    return {k: tuple(v) for k, v in out.items()}


def candidates(style_id: str) -> list[str]:
    lists = word_list()
    sections = COMMON_SECTIONS if style_id in BROAD_STYLES else (style_id,)
    seen: set[str] = set()
    out = []
    for name in sections:
        for w in lists.get(name, ()):
            if fold(w) not in seen:
                seen.add(fold(w))
                out.append(w)
    return out


def best_word(view: dict[str, Any], words: list[str] | None = None) -> tuple[str, int] | None:
    """The most valuable word of ``words`` (default: the list's words for the theme) that passes
    the engine's checks in ``view``, and its value."""
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    style = view["style"]
    best = None
    for w in candidates(style["id"]) if words is None else words:
        r = word_value(w, coins, view["forbidden"], used=view["used_words"],
                       check=style["check"], one_coin=view["coins"][0]["consonant"])
        if r["valid"] and (best is None or r["value"] > best[1]):
            best = (w, r["value"])
    return best


# ------------------------------------------------------------------------------ bot
class WordJamBot:
    """Bets and votes sensibly, and plays words from the shipped list.

    Each turn it knows a random share of the list's words for the theme. It calls Open Sesame
    with its best valid word; bets Thieves only with a valid word worth strictly more than Alì
    Babà's, and submits it (final) in the window, else passes; in turn 8 it picks a side
    (Thieves one time in three) and submits its best word; challenges only words its list files
    under another theme, and votes for its own word and for words it does not know to be off
    theme."""

    name = "wordjam"

    def __init__(self, seed: int | None = None, known_share: float = 2 / 3) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.known_share = known_share

    def known(self, view: dict[str, Any]) -> list[str]:
        style = view["style"]["id"]
        me = view.get("you", {}).get("seat")
        rng = random.Random(f"{self.seed}:{me}:{view['turn']}:{style}")
        return [w for w in candidates(style) if rng.random() < self.known_share]

    def _fits(self, view: dict[str, Any], word: str) -> bool | None:
        folded = fold(word)
        style = view["style"]["id"]
        if any(fold(w) == folded for w in candidates(style)):
            return True
        if style in BROAD_STYLES:
            return None
        if any(fold(w) == folded for words in word_list().values() for w in words):
            return False
        return None

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        space = actions["moves"][0]
        kind = space["type"]
        if kind == "choose_side":
            return {"type": "choose_side",
                    "side": THIEVES if self.rng.random() < 1 / 3 else ALI_BABA}
        if kind == "open_sesame":
            best = best_word(view, self.known(view))
            return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
        if kind == "bet":
            best = best_word(view, self.known(view))
            beats = best is not None and best[1] > space["value"]
            return {"type": "bet", "side": THIEVES if beats else ALI_BABA}
        if kind == "thief_word":
            best = best_word(view, self.known(view))
            must_beat = space["must_beat"]
            if best is not None and (must_beat is None or best[1] > must_beat):
                return {"type": "thief_word", "word": best[0], "final": True}
            return {"type": "thief_pass"}
        if kind == "challenge":
            if self._fits(view, space["word"]) is False:
                return {"type": "challenge", "word_id": space["word_id"]}
            return {"type": "no_challenge", "word_id": space["word_id"]}
        if kind == "vote":
            mine = space["author"] == view.get("you", {}).get("seat")
            in_favour = mine or self._fits(view, space["word"]) is not False
            return {"type": "vote", "word_id": space["word_id"], "in_favour": in_favour}
        return dict(actions["default"])


__all__ = ["WordJamBot", "choose_side", "open_sesame", "no_call", "challenge", "no_challenge",
           "vote", "bet", "thief_word", "thief_pass", "word_value", "fold", "best_word",
           "word_list"]
