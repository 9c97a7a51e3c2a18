"""Word Jam's bots: ``random`` and ``wordsmith``, each a function of the seat's view, its
actions and a random stream (``impresario_rules.bots``): the coins, the forbidden consonant,
the Style card, the game's language, the words used, the history, the word in question; never
another seat's bet, side or word.

Both call only words that fit the Style card, from the card's list in the game's language
(``themes.py``, data built from WordNet and MultiWordNet and curated lists of names).
``wordsmith`` plays like a person at the table. Each turn it thinks of a secret random half of
the card's words (the same all turn long: drawn from the bot's stable stream, see
:func:`~impresario_rules.base.stable_random`) and settles on one of its three most valuable
words that pass the engine's checks, so the bots of one table do not all find the same word:

- Open Sesame: calls with that word, if it found one (else says it has nothing);
- challenges and votes by the same knowledge: it challenges a word that does not fit the card
  (CARROT on Human body, CALCOLO on Flora) and votes against it, and votes for a word that
  fits (its own words always do) — never "for any word I know";
- bets Thieves when its own word beats Alì Babà's, or when its estimate of the best word
  another seat will find beats it: the value of the words the card still allows, scaled for
  each seat by how that seat's words have compared with the table's so far (the history of
  calls and declarations); then it submits its word in the window, or passes;
- in turn 8 it takes the Alì Babà side (the red prize) when its word is at least as good as
  its estimate of the others', else the Thieves side.

``random`` picks among the moves of its action space at random: a word on the card that passes
the checks it can see (or, in the window, now and then any letters at all), a side, a bet, a
challenge one time in ten, a vote in favour six times in ten.
"""

from __future__ import annotations

import random

from ..base import stable_random
from ..bots import Actions, Move, SeatBot, View, seat_bot
from . import lexicon, themes
from .state import ALI_BABA, SIDE_NAMES, THIEVES

#: the share of the card's words a bot thinks of in one turn
KNOWN_SHARE = 1 / 2
#: a person at the table finds about the best-but-few word: the rank (0: the best) of the
#: words the card allows now that the bots take as a typical player's best
TYPICAL_RANK = 4
#: a bot bets on another thief only with this margin over Alì Babà's value
MARGIN = 1.15
#: the bot settles on one of this many most valuable words it found
TOP = 3
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _playable(view: View, words) -> list[tuple[str, int]]:
    """``(word, value)`` of the ``(word, folded)`` pairs that pass the checks the view shows."""
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    return lexicon.playable(words, coins, view["forbidden"], view["used_words"],
                            view["style"]["check"], view["coins"][0]["consonant"])


def language(view: View) -> str:
    return view.get("language") or themes.DEFAULT_LANGUAGE


def card_words(view: View) -> tuple[tuple[str, str], ...]:
    """``(word, folded)`` of the words on this turn's Style card in the game's language."""
    return themes.calls(language(view), view["style"]["id"])


def fits(view: View, word: str) -> bool:
    """Whether ``word`` fits this turn's Style card, as the bots judge it."""
    return themes.fits(language(view), view["style"]["id"], word)


def settled_word(view: View, rng: random.Random) -> tuple[str, int] | None:
    """The word the wordsmith settled on this turn and its value (the same at every move of the
    turn: drawn from the bot's stable stream for this seat and turn)."""
    seat = view["you"]["seat"]
    stable = stable_random(rng, "wordsmith", seat, view["turn"], view["extra_turn"])
    vocab = card_words(view)
    known = [vocab[i] for i in sorted(stable.sample(range(len(vocab)),
                                                    max(1, int(len(vocab) * KNOWN_SHARE))))]
    found = _playable(view, known)
    if not found:
        return None
    found.sort(key=lambda wv: -wv[1])
    return stable.choice(found[:TOP])


def seat_words(view: View) -> dict[int, list[int]]:
    """The values of the words each seat has said in the game (calls and declarations)."""
    said: dict[int, list[int]] = {}
    for record in view.get("history", []):
        if record.get("ali_baba") is not None and record.get("value") is not None:
            said.setdefault(record["ali_baba"], []).append(record["value"])
        for d in record.get("declarations", []):
            if d.get("value") is not None and d.get("valid"):
                said.setdefault(d["seat"], []).append(d["value"])
    return said


def others_best(view: View, seats: list[int]) -> float:
    """An estimate of the best word ``seats`` will find this turn: the value of a typical
    player's best among the words the card allows now (:data:`TYPICAL_RANK`), scaled for each
    seat by how the values of its words so far compare with the table's (a seat whose words
    were twice the table's average is expected to find better ones), the best of the seats."""
    values = sorted((v for _, v in _playable(view, card_words(view))), reverse=True)
    return estimate(values, seat_words(view), seats)


def estimate(values: list[int], said: dict[int, list[int]], seats: list[int]) -> float:
    """:func:`others_best` of the values the card allows now (most valuable first) and the
    values each seat's words had so far (:func:`seat_words`)."""
    if not values or not seats:
        return 0.0
    typical = values[min(TYPICAL_RANK, len(values) - 1)]
    everyone = [v for vs in said.values() for v in vs]
    table = sum(everyone) / len(everyone) if everyone else 0
    best = 0.0
    for seat in seats:
        mine = said.get(seat)
        skill = (sum(mine) / len(mine)) / table if mine and table else 1.0
        best = max(best, typical * min(max(skill, 0.6), 1.4))
    return best


def wordsmith(view: View, actions: Actions, rng: random.Random) -> Move:
    space = actions["moves"][0]
    kind = space["type"]
    me = view["you"]["seat"]
    if kind == "choose_side":
        best = settled_word(view, rng)
        others = [s for s in view["participants"] if s != me]
        strong = best is not None and best[1] >= others_best(view, others)
        return {"type": "choose_side", "side": ALI_BABA if strong else THIEVES}
    if kind == "open_sesame":
        best = settled_word(view, rng)
        return {"type": "open_sesame", "word": best[0]} if best else {"type": "no_call"}
    if kind == "bet":
        best = settled_word(view, rng)
        value = space["value"]
        beats = best is not None and best[1] > value
        others = [s for s in view["participants"] if s not in (me, view["ali_baba"])]
        if not beats:
            beats = others_best(view, others) > value * MARGIN
        return {"type": "bet", "side": THIEVES if beats else ALI_BABA}
    if kind == "thief_word":
        best = settled_word(view, rng)
        must_beat = space["must_beat"]
        if best is not None and (must_beat is None or best[1] > must_beat):
            return {"type": "thief_word", "word": best[0], "final": True}
        return {"type": "thief_pass"}
    if kind == "challenge":
        if not fits(view, space["word"]):
            return {"type": "challenge", "word_id": space["word_id"]}
        return {"type": "no_challenge", "word_id": space["word_id"]}
    if kind == "vote":
        return {"type": "vote", "word_id": space["word_id"],
                "in_favour": fits(view, space["word"])}
    return dict(actions["default"])


def _lexicon_word(view: View, rng: random.Random) -> str | None:
    found = _playable(view, card_words(view))
    return rng.choice(found)[0] if found else None


def uniform(view: View, actions: Actions, rng: random.Random) -> Move:
    """Random moves from the action space: a word on the card that passes the checks the view
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
        # its word again, not final, would change nothing: it makes it final instead
        final = rng.random() < 0.7 or word == space["current"]
        return {"type": "thief_word", "word": word, "final": final}
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

