"""The senders' keys: the outbox's consumer group, the due retries, each endpoint's state
(disabled, failing since) and delivery log, and the per-endpoint rate counters. Each is one
key (a cluster puts each in a slot of its own): every script here touches one key only.

- ``impresario:outbox`` (stream, written by write.lua): consumer group ``senders``; an entry is
  acknowledged and deleted once every delivery of it is done or scheduled for retry.
- ``impresario:webhooks:retries`` (sorted set): member = a retry (JSON: endpoint, game, seq,
  attempt, the write's time), score = when it is due. A sender claims due ones by moving their
  score to the end of its lease in one script (:data:`CLAIM`), so two senders never send the
  same attempt; a sender killed mid-attempt leaves them to be claimed again when it expires.
- ``impresario:webhooks:disabled`` / ``:failing`` (hashes by endpoint id): why and since when
  an endpoint is disabled; since when it fails.
- ``impresario:webhooks:log:<endpoint id>`` (list, newest first, capped): its attempts.
"""

from __future__ import annotations

from typing import Any, Callable

import orjson

OUTBOX = "impresario:outbox"
GROUP = "senders"
RETRIES = "impresario:webhooks:retries"
DISABLED = "impresario:webhooks:disabled"
FAILING = "impresario:webhooks:failing"
LOG_DAYS = 7

#: due retries (score <= ARGV[1]) leased until ARGV[2], at most ARGV[3] of them
CLAIM = ("local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3]) "
         "for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end "
         "return due")
#: a retry done (ARGV[1] removed) and, if ARGV[2] is not '', its next attempt due at ARGV[3]
SETTLE = ("redis.call('ZREM', KEYS[1], ARGV[1]) "
          "if ARGV[2] ~= '' then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2]) end")


def log_key(endpoint_id: str) -> str:
    return f"impresario:webhooks:log:{endpoint_id}"


def rate_key(endpoint_id: str, second: int) -> str:
    return f"impresario:webhooks:rate:{endpoint_id}:{second}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value


class WebhookStore:
    def __init__(self, client: Any, call: Callable[..., Any]) -> None:
        self.client = client
        self._call = call
        self._claim = client.register_script(CLAIM)
        self._settle = client.register_script(SETTLE)

    # -- the outbox
    def ensure_group(self) -> None:
        try:
            self._call(self.client.xgroup_create, OUTBOX, GROUP, id="0", mkstream=True)
        except Exception as exc:  # BUSYGROUP: there already
            if "BUSYGROUP" not in str(exc):
                raise

    def read_new(self, consumer: str, count: int, block_ms: int | None
                 ) -> list[tuple[str, dict[str, str]]]:
        found = self._call(self.client.xreadgroup, GROUP, consumer, {OUTBOX: ">"}, count=count,
                           block=block_ms)
        out = []
        for _stream, entries in found or ():
            for eid, fields in entries:
                out.append((_text(eid), {_text(k): _text(v) for k, v in fields.items()}))
        return out

    def reclaim(self, consumer: str, idle_ms: int, count: int
                ) -> list[tuple[str, dict[str, str]]]:
        """Entries another sender read and left unacknowledged for ``idle_ms`` (it died)."""
        found = self._call(self.client.xautoclaim, OUTBOX, GROUP, consumer, idle_ms, "0-0",
                           count=count)
        out = []
        for item in found[1] if found else ():
            if item is None:
                continue
            eid, fields = item
            if fields:
                out.append((_text(eid), {_text(k): _text(v) for k, v in fields.items()}))
        return out

    def keep_claim(self, consumer: str, entry_id: str) -> None:
        """Reset an entry's idle time: this sender is still at it."""
        self._call(self.client.xclaim, OUTBOX, GROUP, consumer, 0, [entry_id], justid=True)

    def done(self, entry_id: str) -> None:
        def run():
            pipe = self.client.pipeline(transaction=False)
            pipe.xack(OUTBOX, GROUP, entry_id)
            pipe.xdel(OUTBOX, entry_id)
            return pipe.execute()

        self._call(run)

    def prune_consumers(self, idle_ms: int) -> int:
        """Forget the group's consumers with nothing pending and idle for ``idle_ms`` (each
        sender process is a consumer of its own: the stopped ones would pile up)."""
        gone = 0
        for consumer in self._call(self.client.xinfo_consumers, OUTBOX, GROUP):
            if consumer.get("pending") == 0 and consumer.get("idle", 0) > idle_ms:
                self._call(self.client.xgroup_delconsumer, OUTBOX, GROUP,
                           _text(consumer["name"]))
                gone += 1
        return gone

    def backlog(self) -> int:
        return int(self._call(self.client.xlen, OUTBOX))

    # -- retries
    def schedule(self, retry: dict[str, Any], due: float) -> None:
        self._call(self.client.zadd, RETRIES, {orjson.dumps(retry, option=orjson.OPT_SORT_KEYS): due})

    def claim_due(self, now: float, lease: float, limit: int) -> list[tuple[bytes, dict]]:
        found = self._call(self._claim, keys=[RETRIES], args=[repr(now), repr(now + lease), limit])
        return [(m if isinstance(m, bytes) else m.encode(), orjson.loads(m)) for m in found]

    def settle(self, member: bytes, following: dict[str, Any] | None = None,
               due: float = 0.0) -> None:
        nxt = orjson.dumps(following, option=orjson.OPT_SORT_KEYS) if following else b""
        self._call(self._settle, keys=[RETRIES], args=[member, nxt, repr(due)])

    def next_retry(self) -> float | None:
        first = self._call(self.client.zrange, RETRIES, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    # -- endpoints' state
    def disabled(self, endpoint_id: str) -> dict[str, Any] | None:
        found = self._call(self.client.hget, DISABLED, endpoint_id)
        return orjson.loads(found) if found else None

    def disable(self, endpoint_id: str, reason: str, now: float) -> None:
        self._call(self.client.hsetnx, DISABLED, endpoint_id,
                   orjson.dumps({"reason": reason, "at": now}))

    def enable(self, endpoint_id: str) -> None:
        self._call(self.client.hdel, DISABLED, endpoint_id)
        self._call(self.client.hdel, FAILING, endpoint_id)

    def failing_since(self, endpoint_id: str, now: float) -> float:
        """Note a failure; since when the endpoint has failed without a success."""
        self._call(self.client.hsetnx, FAILING, endpoint_id, repr(now))
        return float(self._call(self.client.hget, FAILING, endpoint_id) or now)

    def succeeded(self, endpoint_id: str) -> None:
        self._call(self.client.hdel, FAILING, endpoint_id)

    def forget(self, endpoint_id: str) -> None:
        """A deleted endpoint: its state and log."""
        self._call(self.client.hdel, DISABLED, endpoint_id)
        self._call(self.client.hdel, FAILING, endpoint_id)
        self._call(self.client.delete, log_key(endpoint_id))

    # -- delivery logs
    def note(self, endpoint_id: str, attempt: dict[str, Any], cap: int) -> None:
        key = log_key(endpoint_id)

        def run():
            pipe = self.client.pipeline(transaction=False)
            pipe.lpush(key, orjson.dumps(attempt))
            pipe.ltrim(key, 0, cap - 1)
            pipe.expire(key, LOG_DAYS * 86400)
            return pipe.execute()

        self._call(run)

    def log(self, endpoint_id: str, cap: int) -> list[dict[str, Any]]:
        return [orjson.loads(x) for x in self._call(self.client.lrange, log_key(endpoint_id), 0,
                                                    cap - 1)]

    # -- the rate limit
    def hit(self, endpoint_id: str, second: int) -> int:
        key = rate_key(endpoint_id, second)

        def run():
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, 2)
            return pipe.execute()[0]

        return int(self._call(run))
