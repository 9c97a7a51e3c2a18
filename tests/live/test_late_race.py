"""Late moves race the reaper on a real clock.

Real gunicorn (the session's ``live_server``) with the real reaper command beside it, as
``make run`` and the cluster run it (``python -m impresario_engine reap --loop``), 1-second
deadlines, and one thread per seat that
reads its view and its actions, then sends a legal move with ``If-Match`` at a random moment
around its deadline: a little before, on it, a little after. Whoever applies a passed deadline
first (the reaper, another seat's read, the move itself), a move is applied only at the version
its sender saw, never in the next round or turn; every other move is refused as stale or late
and changes nothing; no move is lost or recorded twice; the store, the feed and the rules
core's replay agree.

Bounded: one game per ruleset, for 15 s each.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from games.games_helpers import random_legal_move
from impresario_rules import RULESETS
from service_helpers import Http, auth, http_table, stored

pytestmark = pytest.mark.slow

SECONDS = 15
SETUPS = {
    "turandot": (3, {"move_seconds": 1}),
    "wordjam": (5, {"think_seconds": 1, "bet_seconds": 1, "thief_seconds": 1,
                    "challenge_seconds": 1, "vote_seconds": 1}),
    "muzicando": (3, {"move_seconds": 1}),
}
#: what a late or stale move may be answered, with If-Match
REFUSALS = {(412, "stale_version"), (409, "deadline_passed"), (409, "game_finished")}


def _seat(base: str, gid: str, ruleset: str, seat: int, token: str, stop: float,
          sent: list[dict[str, Any]], errors: list[str]) -> None:
    http = Http(base)
    rng = random.Random(f"{ruleset}:{seat}")
    url = f"/v1/games/{gid}"
    try:
        while time.time() < stop:
            status, _, view = http.request("GET", url, headers=auth(token))
            assert status == 200, view
            if view["status"] == "finished":
                return
            mine = [p for p in view["pending"] if p["seat"] == seat]
            if not mine:
                time.sleep(0.1)
                continue
            status, _, actions = http.request("GET", f"{url}/actions", headers=auth(token))
            again = http.request("GET", url, headers=auth(token))[2]
            if status != 200 or again["version"] != view["version"] or not actions["moves"]:
                continue  # something fell due in between: choose from a fresh view
            move = random_legal_move(ruleset, actions, view, rng)
            # a little before the deadline, on it, or a little after
            time.sleep(max(0.0, mine[0]["deadline"] + rng.uniform(-0.3, 0.3) - time.time()))
            headers = {**auth(token), "If-Match": f'"{view["version"]}"'}
            status, _, body = http.request("POST", f"{url}/moves", move, headers)
            sent.append({"seat": seat, "move": move, "seen": view["version"], "status": status,
                         "code": None if status == 200 else body.get("code"),
                         "version": body.get("version") if isinstance(body, dict) else None})
    except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
        errors.append(f"seat {seat}: {exc!r}")
        raise


# Turandot in make test; the other two rulesets' races in make test-deep
@pytest.mark.parametrize("ruleset", [r if r == "turandot" else pytest.param(r, marks=pytest.mark.deep)
                                     for r in sorted(SETUPS)])
def test_late_moves_never_land_elsewhere_while_the_reaper_runs(live_server, redis_client,
                                                               reaper_passes, ruleset):
    players, options = SETUPS[ruleset]
    seed = 700 + len(ruleset)
    http = Http(live_server)
    gid, host, tokens = http_table(http, {"ruleset": ruleset, "players": players, "seed": seed,
                                          "options": options})
    sent: list[dict[str, Any]] = []
    errors: list[str] = []
    stop = time.time() + SECONDS
    threads = [threading.Thread(target=_seat, args=(live_server, gid, ruleset, s, tokens[s],
                                                    stop, sent, errors))
               for s in range(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SECONDS + 60)
    assert not any(t.is_alive() for t in threads), "a seat's thread is stuck"
    assert not errors, errors
    passes = reaper_passes()
    assert not any(p["errors"] for p in passes), passes[-5:]
    settled = sum(p["settled"] for p in passes)

    # the feed first: reading the game plays what fell due since the seats stopped
    status, _, feed = http.request("GET", f"/v1/games/{gid}/events?after=0", headers=auth(host))
    assert status == 200
    _version, doc = stored(redis_client, gid)
    applied = [s for s in sent if s["status"] == 200]
    refused = [s for s in sent if s["status"] != 200]
    # a move is applied only to the very version its sender saw
    for s in applied:
        assert s["version"] == s["seen"] + 1, s
    # everything else is refused as stale or late (never a rules refusal, never a 5xx)
    assert {(s["status"], s["code"]) for s in refused} <= REFUSALS, refused
    # none lost, none twice: each seat's accepted moves are the seat's moves in the store
    for seat in range(players):
        ours = [m[1] for m in doc["moves"] if m[0] == seat and m[2] == "seat"]
        assert ours == [s["move"] for s in applied if s["seat"] == seat], seat
    # the store, the feed and the rules core's replay agree
    assert [e["seq"] for e in feed["events"]] == list(range(1, doc["seq"] + 1))
    rules = RULESETS[ruleset]
    state, _ = rules.new_game(players, doc["options"], seed)
    for seat, move, by in doc["moves"]:
        if by == "deadline":
            assert move == rules.default_action(state, seat), (seat, move)
        state, _ = rules.apply(state, seat, move)
    assert state == doc["state"]
    defaults = sum(m[2] == "deadline" for m in doc["moves"])
    # the race was run: moves applied, moves refused, deadlines played, some by the reaper
    assert applied and refused and defaults and settled, (len(applied), len(refused),
                                                          defaults, settled)
    print(f"{ruleset}: {len(applied)} applied, {len(refused)} refused "
          f"({sorted({s['code'] for s in refused})}), {defaults} defaults, "
          f"{settled} settled by the reaper")
