"""The floor: the least a move endpoint of this kind of service can do, for ``make bench``.

A bare Flask app (no flask-smorest, no schemas, no metrics) served by the engine's own gunicorn
config. ``POST /floor/<key>`` reads a blob the size of a real game document with its version
(one round trip), decodes it and re-encodes it as JSON (orjson, as the engine does), and writes
it back with a Lua compare-and-set on the version (one round trip). The blobs are installed by
the bench under ``floor:{<key>}`` before the run. ``GET /healthz`` answers ``ok``.

Run: ``gunicorn -c python:impresario_engine.gunicorn_conf floor:app`` from ``bench/`` with
``REDIS_URL`` set.
"""

from __future__ import annotations

import os

import orjson
import redis
from flask import Flask, Response

READ = "local r = redis.call('HMGET', KEYS[1], 'v', 'doc') return {r[1], r[2]}"
CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[1] then return {0, v or ''} end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'doc', ARGV[2])
return {1, nv}
"""

app = Flask(__name__)
_client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5.0)
_read = _client.register_script(READ)
_cas = _client.register_script(CAS)


def floor_key(key: str) -> str:
    return "floor:{" + key + "}"


@app.post("/floor/<key>")
def move(key: str) -> Response:
    name = floor_key(key)
    for _ in range(16):
        version, blob = _read(keys=[name])
        if blob is None:
            return Response(b'{"code":"not_found"}', 404, mimetype="application/json")
        doc = orjson.loads(blob)
        ok, now = _cas(keys=[name], args=[version, orjson.dumps(doc)])
        if ok:
            return Response(orjson.dumps({"version": int(now)}), 200,
                            mimetype="application/json")
    return Response(b'{"code":"contention"}', 503, mimetype="application/json")


@app.get("/healthz")
def healthz() -> Response:
    return Response(b'{"status":"ok"}', 200, mimetype="application/json")
