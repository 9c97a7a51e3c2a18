"""Word Jam's ``hard`` bot: a search over the worlds the seat's view allows.

It knows the words a ``wordsmith`` knows (a secret half of the Style card's words, the same all
turn long) but it does not settle on one of them by chance: where the game is decided it plays
each candidate move in sampled worlds, by the rules themselves, and takes the best mean outcome.

What the seat cannot see is sampled, never read: the words the others found this turn (for each
other seat a secret half of the card's words, its three most valuable that pass the checks, and
one of them as its word, as the ``medium`` bot settles on one; none for a seat that said it has
nothing), the sealed bets and turn 8's secret sides the others have made already (the ``medium``
bet or side in that seat of the sampled world), the Style cards still in the deck and the coins
of the next deal. Each candidate is played in every sampled world up to the end of the turn
(:mod:`.moves`: the call, the challenge window, the bets, the thieves' window, the declarations,
the scoring), each other seat's decision made as ``medium`` makes it and the bot's own later
decisions by its own words. The turn's end is scored: the bot's total against the best of the
others' totals. The candidate with the best mean wins.

It searches three decisions:

- Open Sesame: which of its words to call (the most valuable of each value it found), or none
  (let another seat call, and bet);
- the bet on Alì Babà or the thieves;
- turn 8's secret side.

It plays as ``medium`` where the view leaves nothing worth sampling: challenges and votes (by
the same knowledge of the card), and in the thieves' window it submits its most valuable word
that beats Alì Babà's (any such word scores the same; a more valuable one is likelier to count
in turn 8).

The search weighs at most ``worlds`` sampled worlds (the loop over them is the one the ``hard``
bots share, :mod:`impresario_rules.search`: this module gives its worlds and values,
:class:`Model`). Like everything in this package it reads no clock: a caller that wants a think
budget in time passes one, with the clock to measure it by (the SDK's ``make_bot("hard",
ruleset="wordjam", think_ms=...)``); without one the bot is reproducible from its random stream
alone.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .. import rng as rngmod
from ..base import Action, State, stable_random
from ..bots import Actions, Budget, Move, THINK_MS, View, budgeted
from ..search import Game, best_move
from . import lexicon, themes
from . import words as W
from .bots import (KNOWN_SHARE, MARGIN, TOP, card_words, estimate, language, seat_words,
                   wordsmith)
from .moves import HANDLERS
from .state import (ALI_BABA, BETS, CHALLENGE, FINAL_TURN, OVER, SIDES, THIEVES, THINK,
                    VOTE, WINDOW, clockwise_after, pending, totals)

#: the most worlds a decision samples (a think budget may stop it sooner)
WORLDS = 24
#: the most words it weighs calling (the most valuable of each value it found)
CALLS = 4

# a card's words that pass the checks now: (word, folded, value), most valuable first
Card = list[tuple[str, str, int]]


def _card(view: View) -> Card:
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    out = []
    for word, value in lexicon.playable(card_words(view), coins, view["forbidden"],
                                        view["used_words"], view["style"]["check"],
                                        view["coins"][0]["consonant"]):
        out.append((word, W.fold(word), value))
    out.sort(key=lambda w: -w[2])
    return out


def playable_card(view: View) -> Card:
    """The card's words that pass the checks now, with their folded form and value, most
    valuable first: what a seat may think of (and a sampled world draws the others' words
    from, :func:`sample_words`)."""
    return _card(view)


def own_words(view: View, rng: random.Random, card: Card | None = None) -> Card:
    """The words this seat thought of this turn that pass the checks now, most valuable first:
    a secret half of the card, the same at every move of the turn (the bot's stable stream)."""
    seat = view["you"]["seat"]
    stable = stable_random(rng, "wordjam-hard", seat, view["turn"], view["extra_turn"])
    vocab = card_words(view)
    known = {vocab[i][1] for i in stable.sample(range(len(vocab)),
                                                max(1, int(len(vocab) * KNOWN_SHARE)))}
    return [w for w in (_card(view) if card is None else card) if w[1] in known]


def sample_words(card: Card, rng: random.Random) -> tuple[list[tuple[str, str, int]], int]:
    """Another seat's words in a sampled world: the most valuable (up to ``TOP``) of a random
    half of ``card`` (each word in it with even odds, as the ``medium`` bot thinks of half the
    card), and which of them it settles on (an index, among those still unused)."""
    found = []
    for w in card:
        if rng.random() < KNOWN_SHARE:
            found.append(w)
            if len(found) == TOP + 1:  # one spare, should one be used before it is said
                break
    return found, rng.randrange(TOP)


class World:
    """One sampled world: a full state and the others' words in it."""

    def __init__(self, state: State, words: dict[int, tuple[list[tuple[str, str, int]], int]],
                 mine: Card) -> None:
        self.state = state
        self.words = words
        self.mine = mine


def _unused(words, used: set[str]):
    return [w for w in words if w[1] not in used]


class Model(Game[World]):
    """What every world of one decision shares: the seat, its view's public facts, the card's
    words that pass the checks, the seat's own words, and the ``medium`` estimates; Word Jam's
    part of the search (:mod:`impresario_rules.search`): its worlds (:meth:`world`) and how a
    candidate comes out in one (:meth:`play_out`)."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.view = view
        self.me = view["you"]["seat"]
        self.n = len(view["players"])
        self.card = _card(view)
        self.mine = own_words(view, rng, self.card)
        self.said = seat_words(view)
        self.language = language(view)
        self.style = view["style"]["id"]
        self._fits: dict[str, bool] = {}
        self._estimates: dict[tuple[tuple[int, ...], int], float] = {}

    def fits(self, word: str) -> bool:
        if word not in self._fits:
            self._fits[word] = themes.fits(self.language, self.style, word)
        return self._fits[word]

    def others_best(self, seats: list[int], used: list[str]) -> float:
        """The ``medium`` bot's estimate of the best word ``seats`` find (``bots.others_best``)
        with the words used so far this turn."""
        key = (tuple(sorted(seats)), len(used))
        if key not in self._estimates:
            gone = set(used)
            values = [v for _, f, v in self.card if f not in gone]
            self._estimates[key] = estimate(values, self.said, seats)
        return self._estimates[key]

    def settled(self, world: World, seat: int) -> tuple[str, str, int] | None:
        """The word ``seat`` settles on in ``world`` now (the bot's own: its most valuable)."""
        used = set(world.state["used"])
        if seat == self.me:
            mine = _unused(world.mine, used)
            return mine[0] if mine else None
        found, pick = world.words[seat]
        left = _unused(found, used)[:TOP]
        return left[min(pick, len(left) - 1)] if left else None

    # ------------------------------------------------------------------ the policies
    def move(self, world: World, seat: int) -> Action:
        """``seat``'s move in ``world``: the ``medium`` policy for the others, the bot's own
        simple rules for itself after the move being searched."""
        state = world.state
        kind = pending(state)[seat][0]
        word = self.settled(world, seat)
        if kind == "choose_side":
            others = [s for s in state["participants"] if s != seat]
            strong = word is not None and word[2] >= self.others_best(others, state["used"])
            return {"type": "choose_side", "side": ALI_BABA if strong else THIEVES}
        if kind == "open_sesame":
            return {"type": "open_sesame", "word": word[0]} if word else {"type": "no_call"}
        if kind == "bet":
            value = state["ali_word"]["value"]
            beats = word is not None and word[2] > value
            if not beats:
                others = [s for s in state["participants"] if s not in (seat, state["ali"])]
                beats = self.others_best(others, state["used"]) > value * MARGIN
            return {"type": "bet", "side": THIEVES if beats else ALI_BABA}
        if kind == "thief_word":
            must_beat = (state["ali_word"]["value"] if state["turn"] != FINAL_TURN
                         else None)
            if word is not None and (must_beat is None or word[2] > must_beat):
                return {"type": "thief_word", "word": word[0], "final": True}
            return {"type": "thief_pass"}
        ch = state["challenge"]
        if kind == "challenge":
            if not self.fits(ch["word"]):
                return {"type": "challenge", "word_id": ch["word_id"]}
            return {"type": "no_challenge", "word_id": ch["word_id"]}
        if kind == "vote":
            return {"type": "vote", "word_id": ch["word_id"], "in_favour": self.fits(ch["word"])}
        raise AssertionError(kind)

    def world(self, rng: random.Random) -> World:
        """A world the view allows (see the module's docstring)."""
        view = self.view
        state = determinize(view, rng)
        words: dict[int, tuple[list[tuple[str, str, int]], int]] = {}
        for s in range(self.n):
            if s == self.me:
                continue
            if view["players"][s]["no_call"] or s in state["barred"]:
                words[s] = ([], 0)  # it said it has nothing (a medium seat finds nothing)
            else:
                words[s] = sample_words(self.card, rng)
        world = World(state, words, self.mine)
        # the secret bets and sides the others have made already: as medium makes them
        phase = state["phase"]
        for p in view["players"]:
            s = p["seat"]
            if s == self.me:
                continue
            if phase == BETS and p["has_bet"]:
                state["bets"][s] = self.move(world, s)["side"]
            elif state["turn"] == FINAL_TURN and s in state["participants"] and (
                    phase != SIDES or p["has_side"]):
                state["sides"][s] = self.move(_sides_phase(world), s)["side"]
        return world

    def play_out(self, world: World, move: Action) -> float:
        """``move`` in ``world``, then every decision up to the turn's end by the rules; the
        bot's total then against the best of the others'."""
        state = world.state
        turns = len(state["history"])
        state = HANDLERS[move["type"]](state, self.me, move)[0]
        played = World(state, world.words, world.mine)
        while state["phase"] != OVER and len(state["history"]) == turns:
            seat = min(pending(state))
            action = self.move(played, seat)
            state = HANDLERS[action["type"]](state, seat, action)[0]
            played.state = state
        points = totals(state)
        mine = points[self.me]
        return mine - max(p for s, p in enumerate(points) if s != self.me)

    def sample(self, rng: random.Random) -> World:
        return self.world(rng)

    def value(self, world: World, move: Move) -> float:
        return self.play_out(world, move)


def _sides_phase(world: World) -> World:
    """``world`` as it was when the sides were chosen (the choice reads only the words)."""
    state = dict(world.state)
    state["phase"] = SIDES
    state["sides"] = [None] * state["n"]
    return World(state, world.words, world.mine)


def determinize(view: View, rng: random.Random) -> State:
    """A full game state the seat's ``view`` allows, in any phase a seat acts in (the bot
    searches turn 8's sides, the think window and the bets; OpenSpiel's ISMCTS samples the
    others too): what the view shows, as shown; the Style cards still in the deck a random
    draw of those nobody has seen; the next deal's generator random. What the others decided
    in secret is left undecided for the caller to fill (the model, or a resampler): their
    sealed bets and turn 8's sides, their votes cast, their words in the window and the
    words of the thieves still to declare (none, a pass, until filled)."""
    me = view["you"]["seat"]
    n = len(view["players"])
    phase = view["phase"]
    assert phase in (SIDES, THINK, BETS, CHALLENGE, VOTE, WINDOW), phase
    final = view["turn"] == FINAL_TURN
    seen = set(view["styles_used"]) | {view["style"]["id"]}
    unseen = [s["id"] for s in W.styles() if s["id"] not in seen]
    rng.shuffle(unseen)
    styles = unseen[:view["styles_left"]]
    columns = view["cave"]["columns"]
    default = W.default_cave()
    cave = {colour: [c[colour] for c in columns]
            + default[colour][len(columns):] for colour in ("red", "yellow")}
    ali_word = view["ali_word"]
    you = view["you"]
    sides: list[Any] = [None] * n
    if final and you.get("side") is not None:
        sides[me] = you["side"]
    bets: list[Any] = [None] * n
    if phase == BETS and you.get("bet") is not None:
        bets[me] = you["bet"]
    state = {
        "n": n,
        "opts": {"cave": cave, "language": language(view), "dictionary": False,
                 "no_visible_objects": False},
        "rng": rngmod.seed_state(rng.getrandbits(64)),
        "styles": styles,
        "styles_used": list(view["styles_used"]),
        "style": view["style"]["id"],
        "turn": view["turn"],
        "extra": view["extra_turn"],
        "participants": list(view["participants"]),
        "used": list(view["used_words"]),
        "next_word_id": 1 + max([0] + [r.get("word_id") or 0 for r in (ali_word,) if r]),
        "history": view["history"],
        "last_vote": view["last_vote"],
        "coins": [c["consonant"] for c in view["coins"]],
        "forbidden": view["forbidden"],
        "phase": phase,
        "attempt": 0,
        "passed": [p["seat"] for p in view["players"] if p["no_call"]],
        "barred": list(view["barred"]),
        "ali": view["ali_baba"],
        "ali_word": None if ali_word is None else {
            "word_id": ali_word["word_id"], "seat": view["ali_baba"], "word": ali_word["word"],
            "folded": W.fold(ali_word["word"]), "value": ali_word["value"]},
        "bets": bets,
        "bets_revealed": False,
        "sides": sides,
        "sides_revealed": False,
        "thieves": None,
        "words": [None] * n,
        "final": [False] * n,
        "queue": [],
        "declarations": [],
        "chief": None,
        "best": {ALI_BABA: None, THIEVES: None} if final else None,
        "challenge": None,
    }
    if phase not in (SIDES, THINK, BETS):
        _after_the_call(view, state)
    return state


def _after_the_call(view: View, state: State) -> None:
    """``state`` (a world of :func:`determinize`) in a phase after Open Sesame (a challenge,
    a vote, the window, a thief's declaration): the word in question, the bets and sides
    revealed, the window, the declarations so far and the thieves still to declare, as the
    view shows them."""
    me = view["you"]["seat"]
    n = state["n"]
    you = view["you"]
    final = view["turn"] == FINAL_TURN
    ids = [r["word_id"] for r in (view["ali_word"], view["challenge"], view["last_vote"])
           if r is not None]
    state["next_word_id"] = 1 + max([0] + ids)
    if view["bets"] is not None:
        state["bets"] = [None] * n
        for b in view["bets"]:
            state["bets"][b["seat"]] = b["side"]
        state["bets_revealed"] = True
    if view["sides"] is not None:
        state["sides"] = [None] * n
        for b in view["sides"]:
            state["sides"][b["seat"]] = b["side"]
        state["sides_revealed"] = True
    state["declarations"] = [dict(d) for d in view["declarations"]]
    state["chief"] = view["chief_thief"]
    if view["best"] is not None:
        state["best"] = {side: None if b is None else dict(b)
                         for side, b in view["best"].items()}
    window = view["window"]
    if window is not None:
        state["thieves"] = list(window)
        if state["phase"] == WINDOW:
            state["final"] = [bool(p["word_final"]) for p in view["players"]]
            state["final"][me] = bool(you["word_final"])
            state["words"][me] = you["word"]
        else:  # the window closed: every thief's word is final, the queue declares them
            state["final"] = [s in window for s in range(n)]
            order = (clockwise_after(view["ali_baba"], n) if final else
                     [s for s in clockwise_after(view["ali_baba"], n) if s in window])
            declared = len(view["declarations"]) - (1 if final else 0)
            state["queue"] = order[declared:]
    ch = view["challenge"]
    if ch is not None:
        votes: list[Any] = [None] * n
        if state["phase"] == VOTE:
            votes[me] = you["vote"]
        state["challenge"] = {
            "word_id": ch["word_id"], "seat": ch["seat"], "word": ch["word"],
            "value": ch["value"], "about": ch["about"], "side": ch["side"],
            "challenger": ch["challenger"], "answered": list(ch["answered"]), "votes": votes}


def _candidates(model: Model, kind: str) -> list[Action]:
    if kind == "open_sesame":
        out: list[Action] = [{"type": "no_call"}]
        values: set[int] = set()
        for word, _, value in model.mine:
            if value not in values:
                values.add(value)
                out.append({"type": "open_sesame", "word": word})
                if len(values) == CALLS:
                    break
        return out
    if kind == "bet":
        return [{"type": "bet", "side": ALI_BABA}, {"type": "bet", "side": THIEVES}]
    return [{"type": "choose_side", "side": ALI_BABA}, {"type": "choose_side", "side": THIEVES}]


def search(view: View, actions: Actions, rng: random.Random, worlds: int = WORLDS,
           think_ms: float | None = None, clock: Callable[[], float] | None = None) -> Move:
    """The ``hard`` bot's move (see the module's docstring): the best of its candidates over
    at most ``worlds`` sampled worlds, and, given a ``clock`` (seconds), no more worlds once
    ``think_ms`` milliseconds of it would likely be spent."""
    kind = actions["moves"][0]["type"] if actions.get("moves") else None
    if kind not in ("open_sesame", "bet", "choose_side", "thief_word"):
        return wordsmith(view, actions, rng)
    budget = Budget(think_ms, clock)
    model = Model(view, rng)
    if kind == "thief_word":
        space = actions["moves"][0]
        must_beat = space["must_beat"]
        best = model.mine[0] if model.mine else None
        if best is not None and (must_beat is None or best[2] > must_beat):
            return {"type": "thief_word", "word": best[0], "final": True}
        return {"type": "thief_pass"}
    if view["phase"] not in (SIDES, THINK, BETS):
        return wordsmith(view, actions, rng)
    return dict(best_move(model, _candidates(model, kind), rng, budget, worlds))


def hard(view: View, actions: Actions, rng: random.Random) -> Move:
    """Searches the worlds its view allows (the others' words, sealed bets and sides) for the
    word to call, the bet and turn 8's side that leave it best placed after the turn; submits
    its best word in the window; challenges and votes as ``medium``."""
    return search(view, actions, rng)


def hard_with(think_ms: float | None, clock: Callable[[], float] | None,
              worlds: int = WORLDS) -> Callable[[View, Actions, random.Random], Move]:
    """The ``hard`` bot with a think budget of ``think_ms`` milliseconds measured by
    ``clock`` (seconds, e.g. ``time.process_time``), over at most ``worlds`` worlds."""
    return budgeted(search, think_ms, clock, hard.__doc__, worlds=worlds)


__all__ = ["hard", "hard_with", "search", "determinize", "sample_words", "own_words",
           "playable_card", "WORLDS", "THINK_MS"]
