"""Word Jam's bots: ``random`` and ``wordsmith``, each a function of the seat's view, its
actions and a random stream (``impresario_rules.bots``): the coins, the forbidden consonant,
the Style card, the words used, the word in question; never another seat's bet, side or word.

``wordsmith`` plays like a person at the table, from the lexicon (``lexicon.py``, wordfreq's
Italian and English lists). Each turn it thinks of a secret random third of the lexicon's
vocabulary (the same all turn long: drawn from the bot's stable stream, see
:func:`~impresario_rules.base.stable_random`) and settles on one of its three most valuable
words that pass the engine's checks, so the bots of one table do not all find the same word:

- Open Sesame: calls with that word, if it found one (else says it has nothing);
- bets Thieves only if its word is worth strictly more than Alì Babà's, then submits it
  (final) in the window, else passes; in turn 8 it picks a side (Thieves one time in three) and
  submits its word;
- challenges a word its lexicon does not know, and votes against it; votes for its own word and
  for every word the lexicon knows.

A lexicon knows words, not themes: on a card like Animals the bot plays a word it knows, fitting
or not, and a person may challenge it.

``random`` picks among the moves of its action space at random: a word from the lexicon that
passes the checks it can see (or, in the window, now and then any letters at all), a side, a
bet, a challenge one time in ten, a vote in favour six times in ten.
"""

from __future__ import annotations

import random

from ..base import stable_random
from ..bots import Actions, Move, SeatBot, View, seat_bot
from . import lexicon
from .state import ALI_BABA, SIDE_NAMES, THIEVES

#: the share of the vocabulary a bot thinks of in one turn
KNOWN_SHARE = 1 / 3
#: the bot settles on one of this many most valuable words it found
TOP = 3
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _playable(view: View, words) -> list[tuple[str, int]]:
    """``(word, value)`` of the ``(word, folded)`` pairs that pass the checks the view shows."""
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    return lexicon.playable(words, coins, view["forbidden"], view["used_words"],
                            view["style"]["check"], view["coins"][0]["consonant"])


def settled_word(view: View, rng: random.Random) -> tuple[str, int] | None:
    """The word the wordsmith settled on this turn and its value (the same at every move of the
    turn: drawn from the bot's stable stream for this seat and turn)."""
    seat = view["you"]["seat"]
    stable = stable_random(rng, "wordsmith", seat, view["turn"], view["extra_turn"])
    vocab = lexicon.vocabulary()
    known = [vocab[i] for i in sorted(stable.sample(range(len(vocab)),
                                                    int(len(vocab) * KNOWN_SHARE)))]
    found = _playable(view, known)
    if not found:
        return None
    found.sort(key=lambda wv: -wv[1])
    return stable.choice(found[:TOP])


def wordsmith(view: View, actions: Actions, rng: random.Random) -> Move:
    space = actions["moves"][0]
    kind = space["type"]
    if kind == "choose_side":
        return {"type": "choose_side", "side": THIEVES if rng.random() < 1 / 3 else ALI_BABA}
    if kind == "open_sesame":
        best = settled_word(view, rng)
        return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
    if kind == "bet":
        best = settled_word(view, rng)
        beats = best is not None and best[1] > space["value"]
        return {"type": "bet", "side": THIEVES if beats else ALI_BABA}
    if kind == "thief_word":
        best = settled_word(view, rng)
        must_beat = space["must_beat"]
        if best is not None and (must_beat is None or best[1] > must_beat):
            return {"type": "thief_word", "word": best[0], "final": True}
        return {"type": "thief_pass"}
    if kind == "challenge":
        if not lexicon.knows(space["word"]):
            return {"type": "challenge", "word_id": space["word_id"]}
        return {"type": "no_challenge", "word_id": space["word_id"]}
    if kind == "vote":
        in_favour = space["author"] == view["you"]["seat"] or lexicon.knows(space["word"])
        return {"type": "vote", "word_id": space["word_id"], "in_favour": in_favour}
    return dict(actions["default"])


def _lexicon_word(view: View, rng: random.Random) -> str | None:
    found = _playable(view, lexicon.vocabulary())
    return rng.choice(found)[0] if found else None


def uniform(view: View, actions: Actions, rng: random.Random) -> Move:
    """Random moves from the action space: a lexicon word that passes the checks the view
    shows, a side, a bet, a challenge one time in ten, a vote in favour six times in ten."""
    space = actions["moves"][0]
    kind = space["type"]
    if kind in ("choose_side", "bet"):
        return {"type": kind, "side": rng.choice(SIDE_NAMES)}
    if kind == "open_sesame":
        word = _lexicon_word(view, rng) if rng.random() < 0.6 else None
        return {"type": "open_sesame", "word": word} if word else {"type": "no_call"}
    if kind == "challenge":
        return {"type": "challenge" if rng.random() < 0.1 else "no_challenge",
                "word_id": space["word_id"]}
    if kind == "vote":
        return {"type": "vote", "word_id": space["word_id"], "in_favour": rng.random() < 0.6}
    if kind == "thief_word":
        r = rng.random()
        if r < 0.2:
            return {"type": "thief_pass"}
        if r < 0.3:  # any letters: well formed, maybe invalid by the rules (a legal move)
            word = "".join(rng.choice(_LETTERS) for _ in range(rng.randint(3, 10)))
        else:
            word = _lexicon_word(view, rng) or "A"
        return {"type": "thief_word", "word": word, "final": rng.random() < 0.7}
    return dict(actions["default"])




WordJamRandomBot = seat_bot("WordJamRandomBot", "random", uniform)


class WordJamBot(SeatBot):
    """Plays a seat as the engine's ``wordsmith`` does (see the module's doc)."""

    name = "wordsmith"
    play = staticmethod(wordsmith)

    def word(self, view: View) -> tuple[str, int] | None:
        """The word it settled on this turn, and its value."""
        return settled_word(view, self.rng)


SEAT_BOTS: dict[str, type[SeatBot]] = {"random": WordJamRandomBot, "wordsmith": WordJamBot}

