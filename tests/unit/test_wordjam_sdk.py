"""The SDK's Word Jam helpers and WordJamBot, on views and actions produced by the core (what the
API returns for a seat), with no server."""

from __future__ import annotations

import random

import pytest

from impresario import wordjam as sdk
from impresario_rules.wordjam import WORDJAM as WJ
from impresario_rules.wordjam import words as W

from wordjam_helpers import service_view


def actions(state, seat):
    """What ``GET /v1/games/{id}/actions`` returns for ``seat``."""
    kinds = WJ.pending(state).get(seat, [])
    if not kinds:
        return {"seat": seat, "pending": [], "moves": [], "default": None}
    return {"seat": seat, "pending": kinds, "moves": WJ.action_space(state, seat),
            "default": WJ.default_action(state, seat)}


@pytest.mark.parametrize("n", [5, 7, 12])
def test_bots_play_whole_games_from_views_and_actions(n):
    bots = [sdk.WordJamBot(seed=s) for s in range(n)]
    state, _ = WJ.new_game(n, None, n)
    rng = random.Random(n)
    kinds_seen = set()
    while not WJ.is_finished(state):
        seat = rng.choice(sorted(WJ.pending(state)))
        view = service_view(WJ.view(state, seat))
        move = bots[seat].choose(view, actions(state, seat))
        kinds_seen.add(move["type"])
        state, _ = WJ.apply(state, seat, move)  # raises if the bot's move were illegal
    assert {"open_sesame", "bet", "no_challenge"} <= kinds_seen
    assert WJ.score(state)["winners"]


def test_the_bot_bets_thieves_with_a_better_word_or_a_better_estimate():
    from impresario_rules.wordjam.bots import MARGIN, others_best

    state, _ = WJ.new_game(6, None, 2)
    bot = sdk.WordJamBot(seed=0)
    while state["phase"] != "bets":
        seat = min(WJ.pending(state))
        state, _ = WJ.apply(state, seat, bot.choose(WJ.view(state, seat), actions(state, seat)))
    for seat in WJ.pending(state):
        view = WJ.view(state, seat)
        move = bot.choose(view, actions(state, seat))
        best = bot.word(view)
        value = state["ali_word"]["value"]
        others = [s for s in view["participants"] if s not in (seat, state["ali"])]
        better = (best is not None and best[1] > value
                  or others_best(view, others) > value * MARGIN)
        assert move == {"type": "bet", "side": "thieves" if better else "ali_baba"}


def test_the_bot_challenges_and_votes_by_the_card_not_by_what_it_knows():
    """For a word on the card, against a word off it — its own included, and whether or not
    the lexicon knows the word."""
    bot = sdk.WordJamBot(seed=1)
    for language, good, known_off_card in (("it", "giraffa", "calcolo"),
                                           ("en", "giraffe", "bicycle")):
        view = {"style": {"id": "animals", "check": None}, "you": {"seat": 2}, "turn": 1,
                "language": language}
        space = {"type": "vote", "word_id": 4, "word": "KCKCKCKC", "author": 0,
                 "in_favour": [True, False]}
        assert bot.choose(view, {"moves": [space]})["in_favour"] is False
        assert bot.choose(view, {"moves": [{**space, "author": 2}]})["in_favour"] is False
        assert bot.choose(view, {"moves": [{**space, "word": good}]})["in_favour"] is True
        assert sdk.knows(known_off_card)
        assert bot.choose(view, {"moves": [{**space, "word": known_off_card}]}
                          )["in_favour"] is False
        challenge = {"type": "challenge", "word_id": 4, "word": "KCKCKCKC", "author": 0}
        assert bot.choose(view, {"moves": [challenge]})["type"] == "challenge"
        assert bot.choose(view, {"moves": [{**challenge, "word": known_off_card}]}
                          )["type"] == "challenge"
        assert bot.choose(view, {"moves": [{**challenge, "word": good}]}
                          )["type"] == "no_challenge"


def test_the_sdk_calculator_agrees_with_the_engine():
    rng = random.Random(5)
    words = [w for w, _ in sdk.vocabulary()[::50]] + ["R2D2", "  ", "l'ananas", "Arsène Lupin"]
    for _ in range(200):
        letters = rng.sample(W.CONSONANTS, 5)
        coins = dict(zip(letters[:4], W.COIN_VALUES))
        w = rng.choice(words)
        mine = sdk.word_value(w, coins, letters[4])
        theirs = W.check(w, coins, letters[4])
        assert mine == {k: theirs[k] for k in ("value", "valid", "reason")}, w


def test_the_sdk_plays_and_reads_words_with_the_rules_own_code():
    """One implementation: the SDK's bot, folding and lexicon are the rules package's."""
    from impresario_rules.wordjam import bots, lexicon

    assert sdk.WordJamBot is bots.WordJamBot and sdk.WordJamBot.play is bots.wordsmith
    assert sdk.fold is W.fold and sdk.SEPARATORS is W.SEPARATORS
    assert sdk.vocabulary() is lexicon.vocabulary()
    assert sdk.known_words() is lexicon.known_words()
    for word in ("Sherlock Holmes", "l'ananas", "KCKCKCKC", "De Niro", "x-y", "Totò"):
        assert sdk.knows(word) == lexicon.knows(word), word


def test_the_engine_seat_and_the_sdk_bot_choose_alike():
    """A bot seat of the engine and the SDK's WordJamBot, given the same random stream, make
    the same moves: the engine hands its bot the seat's view and actions, as the API does."""
    from impresario_rules.base import BotRandom

    state, _ = WJ.new_game(6, None, 4)
    pick = random.Random(4)
    for i in range(120):
        if WJ.is_finished(state):
            break
        seat = pick.choice(sorted(WJ.pending(state)))
        served = WJ.bot_action(state, seat, "wordsmith", BotRandom("table", i, seat))
        bot = sdk.WordJamBot(seed=0)
        bot.rng = BotRandom("table", i, seat)
        assert served == bot.choose(service_view(WJ.view(state, seat)), actions(state, seat))
        state, _ = WJ.apply(state, seat, served)


class FakeSeat:
    def __init__(self):
        self.sent = []

    def move(self, move):
        self.sent.append(move)
        return {"ok": True}


def test_one_helper_per_move():
    seat = FakeSeat()
    sdk.choose_side(seat, "thieves")
    sdk.open_sesame(seat, "pinguino")
    sdk.no_call(seat)
    sdk.challenge(seat, 3)
    sdk.no_challenge(seat, 3)
    sdk.vote(seat, True, 3)
    sdk.bet(seat, "ali_baba")
    sdk.thief_word(seat, "panda", final=True)
    sdk.thief_pass(seat)
    assert [m["type"] for m in seat.sent] == list(WJ.move_types)
    state, _ = WJ.new_game(5, None, 1)
    for move in seat.sent:  # every helper's move is well formed for the engine's schemas
        from impresario_engine.api.declared import MOVE_SCHEMAS as WORDJAM_MOVE_SCHEMAS
        WORDJAM_MOVE_SCHEMAS[move["type"]]().load(move)


def test_the_sdk_does_not_import_the_engine():
    import inspect

    assert "impresario_engine" not in inspect.getsource(sdk)
