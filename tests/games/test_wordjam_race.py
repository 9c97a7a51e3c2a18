"""The race for Open Sesame (R3) under real concurrency: real gunicorn (4 workers x 8 threads).

In several Word Jam games at once, every seat POSTs a valid ``open_sesame`` (a word computed with
the engine's word functions for the turn's coins, forbidden consonant and theme, read from the
view) at the same instant: one barrier releases every thread of every game together. In each
game exactly one call gets 200 and its caller is Alì Babà (the view says so, with his word),
every other gets ``409 sesame_already_called`` naming him, and the event stream holds exactly one
call.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from impresario_rules.wordjam import words as W
from service_helpers import Http, auth, http_table

from .games_helpers import valid_word

GAMES = [(5, 301), (6, 302), (7, 303), (5, 304), (6, 305)]
ROUNDS = 2  # each game races in turn 1 and again in turn 2


def _new_game(http: Http, players: int, seed: int) -> tuple[str, list[str]]:
    gid, _host, tokens = http_table(http, {
        "ruleset": "wordjam", "players": players, "seed": seed,
        "options": {"think_seconds": 600, "challenge_seconds": 600}})
    return gid, tokens


def _words(view: dict, players: int, rng: random.Random) -> list[str]:
    """A different valid word per seat for this turn."""
    style = view["style"]
    taken: set[str] = set()
    out = []
    for _ in range(players):
        w = valid_word(view["coins"], view["forbidden"], style["check"], view["used_words"],
                       rng, style["id"], avoid=taken)
        taken.add(W.fold(w))
        out.append(w)
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    for w in out:  # the engine's own checks agree
        assert W.check(w, coins, view["forbidden"], used=view["used_words"],
                       theme_check=style["check"],
                       one_coin=view["coins"][0]["consonant"])["valid"], w
    return out


def _finish_turn(http: Http, gid: str, tokens: list[str]) -> None:
    """Let the call stand, everyone trusts Alì Babà: the next turn starts."""
    for _ in range(len(tokens) * 3):
        status, _, view = http.request("GET", f"/v1/games/{gid}")
        assert status == 200
        if view["phase"] == "think":
            return
        seat = view["pending"][0]["seat"]
        move = ({"type": "no_challenge"} if view["phase"] == "challenge"
                else {"type": "bet", "side": "ali_baba"})
        status, _, body = http.request("POST", f"/v1/games/{gid}/moves", move,
                                       auth(tokens[seat]))
        assert status == 200, body
    raise AssertionError("the turn did not end")


@pytest.mark.slow
def test_exactly_one_ali_baba_per_game(live_server):
    rng = random.Random(3)
    http = Http(live_server)
    games = [(players, *_new_game(http, players, seed)) for players, seed in GAMES]
    threads = sum(p for p, _ in GAMES)
    local = threading.local()
    clients: list[Http] = []
    lock = threading.Lock()

    def send(gid: str, token: str, word: str, barrier: threading.Barrier):
        c = getattr(local, "client", None)
        if c is None:
            c = local.client = Http(live_server)
            with lock:
                clients.append(c)
        c.request("GET", "/healthz")  # the connection is open before the barrier
        barrier.wait(timeout=60)
        return c.request("POST", f"/v1/games/{gid}/moves", {"type": "open_sesame", "word": word},
                         auth(token))

    pool = ThreadPoolExecutor(threads)
    try:
        for turn in range(1, ROUNDS + 1):
            calls = []
            for players, gid, tokens in games:
                status, _, view = http.request("GET", f"/v1/games/{gid}")
                assert status == 200 and view["phase"] == "think" and view["turn"] == turn
                assert view["ali_baba"] is None
                calls.append((gid, tokens, _words(view, players, rng), view["last_seq"]))
            barrier = threading.Barrier(threads)
            futures = [[pool.submit(send, gid, tok, word, barrier)
                        for tok, word in zip(tokens, words)]
                       for gid, tokens, words, _ in calls]
            results = [[f.result() for f in fs] for fs in futures]
            for (gid, tokens, words, seq), answers in zip(calls, results):
                ok = [s for s, (status, _, _) in enumerate(answers) if status == 200]
                assert len(ok) == 1, [(a[0], (a[2] or {}).get("code")) for a in answers]
                (winner,) = ok
                for s, (status, headers, body) in enumerate(answers):
                    if s == winner:
                        continue
                    assert status == 409, (status, body)
                    assert headers["content-type"].startswith("application/problem+json")
                    assert body["code"] == "sesame_already_called", body
                    assert body["ali_baba"] == winner, body
                status, _, view = http.request("GET", f"/v1/games/{gid}",
                                               headers=auth(tokens[winner]))
                assert view["ali_baba"] == winner and view["phase"] == "challenge"
                assert view["ali_word"]["word"] == words[winner]
                assert view["you"]["seat"] == winner
                status, _, feed = http.request("GET", f"/v1/games/{gid}/events?after={seq}")
                called = [e for e in feed["events"] if e["type"] == "sesame_called"]
                assert len(called) == 1 and called[0]["seat"] == winner
                assert called[0]["word"] == words[winner]
                # the losers' moves were never recorded: one move since the turn began
                assert [e["type"] for e in feed["events"]][:2] == ["sesame_called",
                                                                  "challenge_window"]
                _finish_turn(http, gid, tokens)
    finally:
        pool.shutdown()
        for c in clients:
            c.close()
        http.close()
