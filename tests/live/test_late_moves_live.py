"""A late move without If-Match, after the reaper played the lapse (all rulesets), on a real
clock.

The session's ``live_server`` runs gunicorn and, beside it, the reaper's loop as ``make run``
and the cluster run them: a deadline is played the moment it passes, before any request touches
the game. A move sent a moment later, without If-Match (nor the round or word it is for), was
decided before the lapse as far as anyone can tell, so it must be refused with ``409
deadline_passed`` (and ``default_played`` when its own default was played) instead of landing
in the new turn or failing with a rules refusal ("not the bidding phase") that cannot tell
"late" from "illegal". The refusal changes nothing. Past the allowance (``LATE_MOVE_SECONDS``,
2 s), or with If-Match, a move in the new situation is made.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from service_helpers import Http, auth, http_table, stored

from .live_helpers import until

pytestmark = pytest.mark.slow

ALLOWANCE = 2.0  # the engine's LATE_MOVE_SECONDS, its default



def _lapsed(redis_client, gid: str, moves: int):
    """The stored game once the reaper has played more than ``moves`` moves, all its own."""
    def check():
        version, doc = stored(redis_client, gid)
        played = doc["moves"][moves:]
        if played and all(m[2] == "deadline" for m in played):
            return version, doc, time.monotonic()
        return None
    return until(check, 15.0, "the reaper did not play the lapse in time", every=0.02)


def _refused_and_nothing_changed(http: Http, redis_client, gid: str, token: str,
                                 move: dict[str, Any], version: int, doc: dict[str, Any],
                                 lapsed_at: float) -> dict[str, Any]:
    status, _, body = http.request("POST", f"/v1/games/{gid}/moves", move, auth(token))
    took = time.monotonic() - lapsed_at
    assert took < ALLOWANCE, f"the move arrived {took:.2f} s after the lapse: not late"
    assert (status, body["code"]) == (409, "deadline_passed"), body
    assert body["version"] == version
    assert stored(redis_client, gid) == (version, doc), "a refusal changes nothing"
    return body


def test_a_word_jam_call_after_the_reaper_closed_the_think_window_is_late(live_server,
                                                                          redis_client):
    """The finding: a call (and a "no call") sent just after the think window closed, with
    the reaper running, was made in turn 2."""
    http = Http(live_server)
    options = {"think_seconds": 2, "bet_seconds": 30, "thief_seconds": 30,
               "challenge_seconds": 30, "vote_seconds": 30}
    gid, _, tokens = http_table(http, {"ruleset": "wordjam", "players": 5, "seed": 11,
                                       "options": options})
    version, doc, lapsed_at = _lapsed(redis_client, gid, 0)
    assert doc["state"]["turn"] == 2 and doc["state"]["phase"] == "think"
    body = _refused_and_nothing_changed(http, redis_client, gid, tokens[0],
                                        {"type": "open_sesame", "word": "baza"}, version, doc,
                                        lapsed_at)
    assert body["default_played"] is True and body["cause"] == "deadline"
    assert (body["turn"], body["phase"]) == (2, "think")
    _refused_and_nothing_changed(http, redis_client, gid, tokens[1], {"type": "no_call"},
                                 version, doc, lapsed_at)
    # with If-Match (the version of the view it was decided on) a move is judged by it: this
    # player has seen turn 2
    status, _, passed = http.request("POST", f"/v1/games/{gid}/moves", {"type": "no_call"},
                                     {**auth(tokens[2]), "If-Match": f'"{version}"'})
    assert status == 200, passed
    assert stored(redis_client, gid)[1]["state"]["passed"] == [2]


def test_a_turandot_bid_after_the_reaper_resolved_the_round_is_late_not_illegal(live_server,
                                                                              redis_client):
    """A bid after the round's deadline was refused as ``not_bidding_phase``; a client could
    not tell "you were late, your default was played" from an illegal move. Past the allowance
    the player's move in the new phase is made without If-Match."""
    http = Http(live_server)
    gid, _, tokens = http_table(http, {"ruleset": "turandot", "players": 3, "seed": 21,
                                       "options": {"first_maestro": 2, "move_seconds": 3}})
    for seat, slot in ((1, 1), (2, 2)):
        status, _, body = http.request("POST", f"/v1/games/{gid}/moves",
                                       {"type": "bid", "slot": slot, "money": 0}, auth(tokens[seat]))
        assert status == 200, body
    version, doc, lapsed_at = _lapsed(redis_client, gid, 2)
    assert doc["moves"][2][0] == 0 and doc["state"]["phase"] != "bidding"
    body = _refused_and_nothing_changed(http, redis_client, gid, tokens[0],
                                        {"type": "bid", "slot": 3, "money": 1}, version, doc,
                                        lapsed_at)
    assert body["default_played"] is True and body["round"] == 1
    # the next move is the maestro's (seat 2) or the nominee's; past the allowance it is made
    status, _, actions = http.request("GET", f"/v1/games/{gid}", headers=auth(tokens[2]))
    seat = actions["pending"][0]["seat"]
    time.sleep(max(0.0, lapsed_at + ALLOWANCE + 0.1 - time.monotonic()))
    status, _, actions = http.request("GET", f"/v1/games/{gid}/actions", headers=auth(tokens[seat]))
    status, _, made = http.request("POST", f"/v1/games/{gid}/moves", actions["default"],
                                   auth(tokens[seat]))
    assert status == 200, made


def test_a_muzicando_layout_after_the_reaper_chose_it_is_late(live_server, redis_client):
    http = Http(live_server)
    gid, _, tokens = http_table(http, {"ruleset": "muzicando", "players": 3, "seed": 4,
                                       "options": {"move_seconds": 2}})
    _, before = stored(redis_client, gid)
    chooser = before["state"]["chooser"]
    assert before["state"]["phase"] == "choose"
    version, doc, lapsed_at = _lapsed(redis_client, gid, 0)
    assert doc["moves"][0][:1] + doc["moves"][0][2:] == [chooser, "deadline"]
    body = _refused_and_nothing_changed(http, redis_client, gid, tokens[chooser],
                                        {"type": "choose_layout", "layout": "S"}, version, doc,
                                        lapsed_at)
    assert body["default_played"] is True and body["phase"] == "play"
