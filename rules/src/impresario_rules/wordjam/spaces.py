"""What a Word Jam seat may do: its legal moves (words are an open set: the lexicon's that pass
the checks), a random one, its action space (what a client shows), and its default when its
window runs out (R4, R12, R2, R5)."""

from __future__ import annotations

import random
from typing import Any

from ..base import Action, OutOfTurn, State
from . import lexicon
from . import words as W
from .state import (ALI_BABA, FINAL_TURN, SIDE_NAMES, check_word, coin_list, coin_table,
                    one_coin, pending)


def valid_list_words(state: State) -> list[str]:
    """The lexicon's vocabulary words that pass the engine's checks now."""
    style = W.style_by_id()[state["style"]]
    return [w for w, _ in lexicon.playable(
        lexicon.vocabulary(), coin_table(state), state["forbidden"], state["used"],
        style["check"], one_coin(state))]


def legal_actions(state: State, seat: int) -> list[Action]:
    """The legal moves of ``seat``. Words are an open set: the word moves listed here are
    the lexicon vocabulary's words that pass the engine's checks (any other word that passes
    them is legal too; with the ``dictionary`` option, any other word the lexicon knows)."""
    kinds = pending(state).get(seat)
    if not kinds:
        return []
    kind = kinds[0]
    if kind == "choose_side":
        return [{"type": "choose_side", "side": s} for s in SIDE_NAMES]
    if kind == "open_sesame":
        return ([{"type": "open_sesame", "word": w} for w in valid_list_words(state)]
                + [{"type": "no_call"}])
    if kind == "challenge":
        wid = state["challenge"]["word_id"]
        return [{"type": "challenge", "word_id": wid}, {"type": "no_challenge", "word_id": wid}]
    if kind == "vote":
        wid = state["challenge"]["word_id"]
        return [{"type": "vote", "word_id": wid, "in_favour": b} for b in (True, False)]
    if kind == "bet":
        return [{"type": "bet", "side": s} for s in SIDE_NAMES]
    if kind == "thief_word":
        return ([{"type": "thief_word", "word": w, "final": f}
                 for w in valid_list_words(state) for f in (False, True)]
                + [{"type": "thief_pass"}])
    raise AssertionError(kind)


def random_word(state: State, rng: random.Random) -> str | None:
    """A random word that passes the engine's checks: from the lexicon, or made up (not
    with the ``dictionary`` option, which refuses words the lexicon does not know)."""
    if rng.random() < 0.5 or state["opts"].get("dictionary"):
        valid = valid_list_words(state)
        if valid:
            return rng.choice(valid)
        if state["opts"].get("dictionary"):
            return None
    style = W.style_by_id()[state["style"]]
    allowed = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c != state["forbidden"]]
    for _ in range(20):
        length = 8 if style["check"] == "eight_letters" else rng.randint(3, 12)
        letters = [rng.choice(allowed) for _ in range(length)]
        if style["check"] == "first_letter":
            letters[0] = one_coin(state)
        word = "".join(letters)
        if check_word(state, word)["valid"]:
            return word
    return None


def sample_action(state: State, seat: int, rng: random.Random) -> Action:
    kinds = pending(state).get(seat)
    if not kinds:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    kind = kinds[0]
    if kind == "open_sesame":
        word = random_word(state, rng) if rng.random() < 0.6 else None
        return {"type": "open_sesame", "word": word} if word else {"type": "no_call"}
    if kind == "challenge":
        wid = state["challenge"]["word_id"]
        return {"type": "challenge" if rng.random() < 0.1 else "no_challenge",
                "word_id": wid}
    if kind == "vote":
        return {"type": "vote", "word_id": state["challenge"]["word_id"],
                "in_favour": rng.random() < 0.6}
    if kind == "thief_word":
        r = rng.random()
        if r < 0.2:
            return {"type": "thief_pass"}
        if r < 0.3:  # anything well formed, possibly invalid by the rules (it is legal)
            word = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                           for _ in range(rng.randint(3, 10)))
        else:
            word = random_word(state, rng) or "A"
        return {"type": "thief_word", "word": word, "final": rng.random() < 0.7}
    return rng.choice(legal_actions(state, seat))


def action_space(state: State, seat: int) -> list[dict[str, Any]]:
    kinds = pending(state).get(seat)
    if not kinds:
        return []
    kind = kinds[0]
    if kind == "choose_side":
        return [{"type": "choose_side", "sides": list(SIDE_NAMES)}]
    if kind == "open_sesame":
        style = W.style_by_id()[state["style"]]
        return [{"type": "open_sesame", "coins": coin_list(state),
                 "forbidden": state["forbidden"], "style": state["style"],
                 "check": style["check"],
                 "first_letter": one_coin(state) if style["check"] == "first_letter"
                 else None,
                 "max_length": W.MAX_WORD_CHARS},
                {"type": "no_call"}]
    if kind == "challenge":
        ch = state["challenge"]
        return [{"type": "challenge", "word_id": ch["word_id"], "word": ch["word"],
                 "value": ch["value"], "author": ch["seat"], "about": ch["about"]},
                {"type": "no_challenge", "word_id": ch["word_id"]}]
    if kind == "vote":
        ch = state["challenge"]
        return [{"type": "vote", "word_id": ch["word_id"], "word": ch["word"],
                 "author": ch["seat"], "in_favour": [True, False]}]
    if kind == "bet":
        return [{"type": "bet", "sides": list(SIDE_NAMES),
                 "word": state["ali_word"]["word"], "value": state["ali_word"]["value"]}]
    if kind == "thief_word":
        final_turn = state["turn"] == FINAL_TURN
        return [{"type": "thief_word",
                 "must_beat": None if final_turn else state["ali_word"]["value"],
                 "current": state["words"][seat], "final": [False, True],
                 "max_length": W.MAX_WORD_CHARS},
                {"type": "thief_pass"}]
    raise AssertionError(kind)


def default_action(state: State, seat: int) -> Action:
    """When a window's time runs out: sides and bets trust Alì Babà (R12), a thinker makes
    no call (R4), a challenge window lets the word stand, a missing vote is against (R2), a
    seat in the word window keeps its latest word (final) or passes (R5)."""
    kinds = pending(state).get(seat)
    if not kinds:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    kind = kinds[0]
    if kind == "choose_side":
        return {"type": "choose_side", "side": ALI_BABA}
    if kind == "open_sesame":
        return {"type": "no_call"}
    if kind == "challenge":
        return {"type": "no_challenge", "word_id": state["challenge"]["word_id"]}
    if kind == "vote":
        return {"type": "vote", "word_id": state["challenge"]["word_id"], "in_favour": False}
    if kind == "bet":
        return {"type": "bet", "side": ALI_BABA}
    if kind == "thief_word":
        word = state["words"][seat]
        if word is None:
            return {"type": "thief_pass"}
        return {"type": "thief_word", "word": word, "final": True}
    raise AssertionError(kind)
