"""Games for ``make bench`` (bench/run.py): the service in process, games created and started
through it, and templates installed in Redis as pools of live games for the HTTP clients."""

from __future__ import annotations

import orjson
import redis

import loadgen
from impresario_engine.config import Config
from impresario_engine.usecases import create, play, seats
from impresario_engine.usecases.unit import Engine
from impresario_engine.store import GameStore, connect


def make_service(url: str) -> Engine:
    return Engine(GameStore(connect(url)), Config(redis_url=url))


def read_template(rds: redis.Redis, gid: str, tokens: list[str], players: int
                  ) -> loadgen.Template:
    v, doc = rds.hmget(loadgen.game_key(gid), "v", "doc")
    events = [(eid, fields) for eid, fields in rds.xrange(loadgen.events_key(gid))]
    return loadgen.Template(v, orjson.loads(doc), events, tokens, players)


def create_started(svc: Engine, players: int, seed: int) -> tuple[str, list[str]]:
    view = create.create_game(svc, "turandot", players, seed, None).body["game"]
    tokens = [seats.join(svc, view["id"], f"P{i}").body["token"] for i in range(players)]
    return view["id"], tokens


def install_pool(rds: redis.Redis, templates: list[loadgen.Template], count: int,
                 prefix: str) -> list[tuple[str, int]]:
    games = []
    pipe = rds.pipeline(transaction=False)
    for i in range(count):
        gid = f"{prefix}{i:05d}"
        t = i % len(templates)
        loadgen.install_game(pipe, gid, templates[t], 30 * 86400 * 1000)
        games.append((gid, t))
        if i % 500 == 499:
            pipe.execute()
    pipe.execute()
    return games


def delete_games(rds: redis.Redis, gids: list[str]) -> None:
    pipe = rds.pipeline(transaction=False)
    for i, gid in enumerate(gids):
        pipe.delete(loadgen.game_key(gid), loadgen.events_key(gid),
                    loadgen.game_key(gid) + ":idem")
        if i % 1000 == 999:
            pipe.execute()
    pipe.execute()


def split(games: list[tuple[str, int]], clients: int) -> list[list[tuple[str, int]]]:
    return [games[i::clients] for i in range(clients)]


def doc_sizes_over_a_game(svc: Engine, rds: redis.Redis) -> tuple[list[int], bytes]:
    """Play one 4-seat game as the HTTP clients do (lowest bids) in process: the stored document's
    size after every move, and the document at mid-game (the floor's blob)."""
    gid, tokens = create_started(svc, 4, 424242)
    sizes, docs = [], []
    view = {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(4)], "players": [0] * 4}
    while True:
        seat, move = loadgen.decide(view)
        view = play.act(svc, gid, tokens[seat], move).body["game"]
        raw = rds.hget(loadgen.game_key(gid), "doc")
        sizes.append(len(raw))
        docs.append(raw)
        if view["status"] == "finished":
            break
    mid = sorted(range(len(sizes)), key=lambda i: sizes[i])[len(sizes) // 2]
    return sizes, docs[mid]
