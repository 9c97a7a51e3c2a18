"""Server-side Word Jam bots for bot seats: ``random`` and ``wordsmith``.

A bot sees only what its seat may see: it decides from ``WORDJAM.view(state, seat)`` and the
seat's action space, never from the deck, another seat's bet, side or secret word. Its
randomness is the service's :class:`~impresario_engine.games.base.BotRandom`, drawn from the
game's secret: nothing public predicts its words, bets or sides.

``wordsmith`` plays like a person at the table, from the lexicon (``lexicon.py``, wordfreq's
Italian and English lists, the same the SDK's ``WordJamBot`` reads). Each turn it thinks of a
secret random third of the lexicon's vocabulary (the same all turn long) and settles on one of
its three most valuable words that pass the engine's checks, so the bots of one table do not
all find the same word:

- Open Sesame: calls with that word, if it found one (else says it has nothing);
- bets Thieves only if its word is worth strictly more than Alì Babà's, then submits it
  (final) in the window, else passes; in turn 8 it picks a side (Thieves one time in three) and
  submits its word;
- challenges a word its lexicon does not know, and votes against it; votes for its own word and
  for every word the lexicon knows.

A lexicon knows words, not themes: on a card like Animals the bot plays a word it knows, fitting
or not, and a human may challenge it. Whether a word fits the theme stays the table's call.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Action, State, stable_random
from . import lexicon
from .rules import WORDJAM

#: the share of the vocabulary a bot thinks of in one turn
KNOWN_SHARE = 1 / 3
#: the bot settles on one of this many most valuable words it found
TOP = 3


def _word(view: dict[str, Any], seat: int, rng: random.Random) -> tuple[str, int] | None:
    """The word the bot settled on this turn (the same at every move of the turn)."""
    turn = (view["turn"], view["extra_turn"])
    stable = stable_random(rng, "wordsmith", seat, *turn)
    vocab = lexicon.vocabulary()
    known = [vocab[i] for i in sorted(stable.sample(range(len(vocab)),
                                                    int(len(vocab) * KNOWN_SHARE)))]
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    found = lexicon.playable(known, coins, view["forbidden"], view["used_words"],
                             view["style"]["check"], view["coins"][0]["consonant"])
    if not found:
        return None
    found.sort(key=lambda wv: -wv[1])
    return stable.choice(found[:TOP])


def wordsmith(state: State, seat: int, rng: random.Random) -> Action:
    view = WORDJAM.view(state, seat)
    space = WORDJAM.action_space(state, seat)
    kind = space[0]["type"]
    if kind == "choose_side":
        return {"type": "choose_side", "side": "thieves" if rng.random() < 1 / 3 else "ali_baba"}
    if kind == "open_sesame":
        best = _word(view, seat, rng)
        return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
    if kind == "bet":
        best = _word(view, seat, rng)
        beats = best is not None and best[1] > view["ali_word"]["value"]
        return {"type": "bet", "side": "thieves" if beats else "ali_baba"}
    if kind == "thief_word":
        best = _word(view, seat, rng)
        must_beat = space[0]["must_beat"]
        if best is not None and (must_beat is None or best[1] > must_beat):
            return {"type": "thief_word", "word": best[0], "final": True}
        return {"type": "thief_pass"}
    if kind == "challenge":
        challenge = view["challenge"]
        if not lexicon.knows(challenge["word"]):
            return {"type": "challenge", "word_id": challenge["word_id"]}
        return {"type": "no_challenge", "word_id": challenge["word_id"]}
    if kind == "vote":
        challenge = view["challenge"]
        in_favour = challenge["seat"] == seat or lexicon.knows(challenge["word"])
        return {"type": "vote", "word_id": challenge["word_id"], "in_favour": in_favour}
    return WORDJAM.default_action(state, seat)


def uniform(state: State, seat: int, rng: random.Random) -> Action:
    return WORDJAM.sample_action(state, seat, rng)


BOTS = {"random": uniform, "wordsmith": wordsmith}
