"""What players cost (``make bench``, beside the table's guards): in process, on the bench's
Redis.

- **a rated game's last move**: the move that finishes a rated game (one player and two bot
  levels at a Turandot table) queues it, then rates it: four ratings read, OpenSkill's
  Plackett–Luce update, one Lua script that applies it once. Timed alone
  (``usecases.ratings``: the queue's entry and the rating), against the whole last move of the
  same game unrated;
- **my games**: a page of 20 of a player's games (``GET /v1/me/games``'s use case);
- **quick match**: seating 200 waiting players at 50 tables (each table: one Lua script taking
  its players, its game made and started).

``python bench/players.py REDIS_URL`` prints them.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from games import make_service
from impresario_engine.table.players import Player
from impresario_engine.usecases import create, matching, play, players, ratings, seats
from impresario_engine.usecases.unit import load
from impresario_rules import RULESETS


def _play(svc, player: Player | None, seed: int) -> tuple[str, float]:
    """A Turandot game of one seat (the player's, or a plain one) and two bots (they move in
    the seat's requests) played to its end: the game's id, and the milliseconds of the request
    that finished it."""
    rules = RULESETS["turandot"]
    made = create.create_game(svc, "turandot", 3, seed, None,
                              host_player=player.id if player else None).body
    gid, host = made["game"]["id"], made["host_token"]
    token = seats.join(svc, gid, "Anna", token=host).body["token"]
    for level in ("easy", "medium"):
        seats.join(svc, gid, level.title(), token=host, bot=level)
    rng = random.Random(seed)
    while True:
        doc = load(svc, gid).doc
        if doc["status"] == "finished":
            return gid, last
        move = rules.sample_action(doc["state"], 0, rng)
        started = time.perf_counter()
        play.act(svc, gid, token, move, None, None, "")
        last = (time.perf_counter() - started) * 1000


def run(url: str, log=print) -> dict[str, Any]:
    svc = make_service(url)
    anna, _token = players.create(svc.store, "Anna", svc.clock)
    rate_ms, last_rated, last_plain = [], [], []
    for seed in range(12):
        gid, ms = _play(svc, anna, 500 + seed)
        last_rated.append(ms)
        assert svc.store.ratings.rated("turandot", gid), "the last move rated the game"
        doc = load(svc, gid).doc
        svc.store.client.delete(f"ratings:{{turandot}}:rated:{gid}")  # rate it again, timed
        started = time.perf_counter()
        ratings.about_to_finish(svc.store, doc, svc.clock())
        ratings.rate_game(svc.store, svc.config, doc)
        rate_ms.append((time.perf_counter() - started) * 1000)
        last_plain.append(_play(svc, None, 500 + seed)[1])
    for _ in range(8):  # 20 games or more in the player's list
        create.create_game(svc, "turandot", 3, None, None, host_player=anna.id)
    page_ms = []
    for _ in range(20):
        started = time.perf_counter()
        games, _next = players.my_games(svc, anna, None, None, 20)
        page_ms.append((time.perf_counter() - started) * 1000)
    assert len(games) == 20
    for i in range(200):
        p, _t = players.create(svc.store, f"Q{i}", svc.clock)
        svc.store.matching.enter(p.id, "turandot", 4, 0.0, {
            "ruleset": "turandot", "players": 4, "since": svc.clock(), "wait": 600,
            "rating": 0.0, "name": p.name})
    started = time.perf_counter()
    seated = matching.tick(svc, "turandot", 4)
    match_ms = (time.perf_counter() - started) * 1000
    assert seated == 50, seated
    out = {"rating_ms": round(statistics.median(rate_ms), 3),
           "last_move_rated_ms": round(statistics.median(last_rated), 3),
           "last_move_unrated_ms": round(statistics.median(last_plain), 3),
           "my_games_page_ms": round(statistics.median(page_ms), 3),
           "quick_match_ms_per_table": round(match_ms / seated, 3)}
    log(f"players: {out}")
    return out


def table(r: dict[str, Any]) -> list[str]:
    return ["", "what players cost, in process (ms, median)",
            f"  a rated game's last move                 {r['last_move_rated_ms']:8.3f}"
            f"   unrated {r['last_move_unrated_ms']:.3f}   (rating alone: {r['rating_ms']:.3f})",
            f"  a page of 20 of a player's games         {r['my_games_page_ms']:8.3f}",
            f"  quick match, per table of 4 seated        {r['quick_match_ms_per_table']:8.3f}"]


if __name__ == "__main__":
    print("\n".join(table(run(sys.argv[1], log=lambda _m: None))))
