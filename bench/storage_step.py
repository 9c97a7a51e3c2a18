"""Step 3 of ``make bench`` (bench/run.py): bytes in Redis per finished game, key by key."""

from __future__ import annotations

import random
import uuid

import orjson
import redis

import loadgen
from common import log
from games import make_service
from impresario_rules.turandot import TURANDOT
from impresario_engine.usecases import create, idempotency, play, seats
from impresario_engine.usecases.unit import load
from impresario_engine.store import GameStore


def step_storage(url: str, rds: redis.Redis) -> list[dict]:
    """Finished games played in process through the service, every POST with an
    Idempotency-Key as the SDK sends; MEMORY USAGE of each of the game's keys."""
    svc = make_service(url)
    out = []
    for n in (2, 3, 4, 5):
        rows = []
        for g in range(3):
            seed = 1000 * n + g
            rng = random.Random(seed)
            key = uuid.uuid4().hex
            created = create.create_game(svc, "turandot", n, seed, None, idempotency_key=key,
                                         fingerprint="fp")
            gid = created.body["game"]["id"]
            tokens = [seats.join(svc, gid, f"P{i}", uuid.uuid4().hex, f"fp{i}").body["token"]
                      for i in range(n)]
            moves = 0
            while True:
                state = load(svc, gid).doc["state"]
                if TURANDOT.is_finished(state):
                    break
                seat = min(TURANDOT.pending(state))
                action = TURANDOT.sample_action(state, seat, rng)
                play.act(svc, gid, tokens[seat], action, None, uuid.uuid4().hex, f"m{moves}")
                moves += 1
            keys = {"game_hash": loadgen.game_key(gid), "events": loadgen.events_key(gid),
                    "idempotency": loadgen.game_key(gid) + ":idem"}
            usage = {name: int(rds.memory_usage(k, samples=0) or 0) for name, k in keys.items()}
            usage["create_idempotency"] = int(rds.memory_usage(idempotency.create_key(key),
                                                               samples=0) or 0)
            usage["tokens"] = 0  # hashed inside the document: no key of their own
            store = GameStore(rds)
            doc = store.read(gid)[1]
            stored_doc, stored_events = rds.hmget(keys["game_hash"], "doc", "events")
            rows.append({
                **usage, "idempotency_records": rds.hlen(keys["idempotency"]), "moves": moves,
                "doc_json_bytes": len(orjson.dumps(doc)),
                "state_json_bytes": len(orjson.dumps(doc["state"])),
                "moves_log_json_bytes": len(orjson.dumps(doc["moves"])),
                "doc_stored_bytes": len(stored_doc),
                "events_stored_bytes": len(stored_events or b""),
                "archived": int(not rds.exists(keys["events"]) and stored_events is not None),
                "event_count": len(store.events(gid)),
            })
        avg = {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}
        avg["players"] = n
        avg["total_without_idempotency"] = avg["game_hash"] + avg["events"]
        avg["total"] = (avg["total_without_idempotency"] + avg["idempotency"]
                        + avg["create_idempotency"])
        log(f"storage {n}p: {avg['total_without_idempotency']:.0f} B per finished game kept "
            f"({avg['total']:.0f} B at the finish, with the idempotency records of its "
            f"replay window)")
        out.append(avg)
    return out
