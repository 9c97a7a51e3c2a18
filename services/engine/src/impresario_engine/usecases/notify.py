"""The sender (``python -m impresario_engine notify --loop SECONDS``): tells the world what
happened in the games that notify (webhooks, and the other :data:`CHANNELS`: Web Push), and
tells the players who subscribed that their deadline is near.

Every write of a game whose document says ``notify`` appends, in the same atomic step as the
move, one entry to the outbox (``impresario:outbox``: the game and the first and last seq of
the write's events; store/redis_store.py, write.lua). Senders read it as the consumer group
``senders``, each as a consumer of its own (:func:`process_name`), so two senders never take
the same entry; an entry another sender read and left unacknowledged for
``WEBHOOK_CLAIM_SECONDS`` (it was killed) is taken over (XAUTOCLAIM). For each entry the sender
reads the events by seq (from the stream, or the archive of a finished game), makes each
endpoint's first attempt at each event it wants, then calls each of :data:`CHANNELS`; it
acknowledges (and deletes) the entry only once every delivery is done or scheduled for retry.
A sender that dies before that leaves the entry to be sent again: a receiver may get a message
twice, always with the same ``webhook-id``.

Retries wait in a sorted set (store/webhooks.py), claimed by one sender at a time, on the
schedule ``WEBHOOK_RETRY_SCHEDULE``; an endpoint that has failed for longer than the whole
schedule, or whose message failed every retry, is disabled (its reason shown by GET).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import time
import uuid
from typing import Any, Callable

from standardwebhooks import Webhook

from ..store import StoreError
from ..table import webhooks as wh
from . import outgoing, push
from .unit import Engine

log = logging.getLogger("impresario_engine.notify")

#: what else is told of each outbox entry, after the webhooks: ``channel(engine, game_id, doc,
#: events)`` with the game's document and its entry's events ``[(seq, event)]`` (as stored:
#: each channel shows only what its audience may see). A channel that raises StoreError leaves
#: the entry unacknowledged (it is handled again: a channel must bear that); any other
#: exception is logged and the entry goes on.
Channel = Callable[[Engine, str, dict[str, Any], list[tuple[int, dict[str, Any]]]], object]
#: Web Push: "your move" and "the game is over" to the players who subscribed (usecases/push.py)
CHANNELS: list[Channel] = [push.deliver]

#: outbox entries read at once
BATCH = 50
#: how long a pass blocks on the outbox for new entries (ms; below REDIS_TIMEOUT)
BLOCK_MS = 500
#: a cluster's staged entries left by a process that died are swept this often (seconds)
SWEEP_SECONDS = 30.0
#: how often the players whose deadline is near are looked for ("time is running out",
#: usecases/push.py: once per turn whatever the period; seconds)
DEADLINES_NEAR_SECONDS = 30.0
#: a consumer (a sender process) idle this long with nothing pending is removed from the group
CONSUMER_IDLE_MS = 3600 * 1000

_NAME: tuple[int, str] | None = None


def process_name() -> str:
    """This process's consumer name in the group: host, pid and a random part."""
    global _NAME
    if _NAME is None or _NAME[0] != os.getpid():
        _NAME = (os.getpid(), f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    return _NAME[1]


class Sender:
    """One sender process's state: its name, when it last swept the staged entries."""

    def __init__(self, engine: Engine, name: str | None = None,
                 resolver: outgoing.Resolver = socket.getaddrinfo,
                 beat: Callable[[], None] | None = None) -> None:
        self.engine = engine
        self.name = name or process_name()
        self.resolver = resolver
        #: the loop's heartbeat, beaten after every attempt: a long pass is not a hung one
        self.beat = beat or (lambda: None)
        self.swept = float("-inf")
        self.looked = float("-inf")  # when the deadlines near were last looked for
        self.grouped = False
        #: endpoint id -> when this sender last saw it fail: for the first retry delay after
        #: that, its other messages wait in the retry set instead of each waiting out a dead
        #: receiver's timeouts here (one attempt probes it meanwhile)
        self.down: dict[str, float] = {}

    # -- a pass
    def turn(self, block_ms: int | None = BLOCK_MS) -> dict[str, Any]:
        store = self.engine.store
        hooks = store.webhooks
        report = {"entries": 0, "sent": 0, "failed": 0, "retries": 0}
        if not self.grouped:
            hooks.ensure_group()
            self.grouped = True
        if time.monotonic() - self.swept >= SWEEP_SECONDS:
            if store.lane.pool is None:
                store.sweep_staged()  # a cluster's entries a dead process left staged
            hooks.prune_consumers(CONSUMER_IDLE_MS)  # stopped senders, nothing pending
            self.swept = time.monotonic()
        if time.monotonic() - self.looked >= DEADLINES_NEAR_SECONDS:
            report["deadlines_near"] = push.deadlines_near(self.engine, self.engine.clock())
            self.looked = time.monotonic()
        claim_ms = int(self.engine.config.webhook_claim_seconds * 1000)
        # one entry at a time: an entry read is being worked on at once (its idle time reset
        # after each delivery), never left waiting in a batch where another sender would
        # take it over as abandoned
        wait = block_ms if not self._due_soon() else None
        for _ in range(BATCH):
            try:
                entries = hooks.reclaim(self.name, claim_ms, 1) or \
                    hooks.read_new(self.name, 1, wait)
            except StoreError as exc:
                if "NOGROUP" in str(exc):  # the outbox was deleted (and its group with it)
                    self.grouped = False
                    return report
                raise
            if not entries:
                break
            wait = None
            for entry_id, fields in entries:
                try:
                    self.entry(entry_id, fields, report)
                except StoreError:
                    raise  # left pending: this or another sender takes it again
                except Exception:  # noqa: BLE001 - never a poison entry that kills every sender
                    log.exception("outbox entry %s (%s) could not be handled; dropped (its "
                                  "events stay in the game: a redelivery sends them)",
                                  entry_id, fields)
                hooks.done(entry_id)
                report["entries"] += 1
        self.retries(report)
        return report

    def _due_soon(self) -> bool:
        when = self.engine.store.webhooks.next_retry()
        return when is not None and when <= self.engine.clock() + BLOCK_MS / 1000

    def wait(self, most: float) -> float:
        """Seconds to sleep before the next pass: none when a retry is due, else a little
        (the pass itself blocks on the outbox)."""
        when = self.engine.store.webhooks.next_retry()
        if when is None:
            return min(most, 0.01)
        return max(0.0, min(most, 0.01, when - self.engine.clock()))

    # -- an outbox entry
    def entry(self, entry_id: str, fields: dict[str, str], report: dict[str, Any]) -> None:
        engine = self.engine
        game_id, first, last = fields["g"], int(fields["f"]), int(fields["l"])
        at_ms = int(entry_id.split("-")[0])
        _version, doc, _idem, _rematch = engine.store.read_game(game_id)
        if doc is None:
            return  # expired or deleted: nobody to tell of it
        events = engine.store.events(game_id, first - 1, last - first + 1)
        for endpoint in endpoints(engine, doc):
            for seq, event in events:
                if wh.wants(endpoint["events"], str(event.get("type"))):
                    self.deliver(endpoint, game_id, seq, event, at_ms, 0, report)
                    engine.store.webhooks.keep_claim(self.name, entry_id)
                    self.beat()
        for channel in CHANNELS:
            try:
                channel(engine, game_id, doc, events)
            except StoreError:
                raise
            except Exception:  # noqa: BLE001 - one channel's failure is not the others'
                log.exception("notify channel %s failed on game %s",
                              getattr(channel, "__name__", channel), game_id)

    # -- one attempt
    def deliver(self, endpoint: dict[str, Any], game_id: str, seq: int, event: dict[str, Any],
                at_ms: int, attempt: int, report: dict[str, Any],
                member: bytes | None = None) -> None:
        """One attempt at one message; on failure its next attempt is scheduled (or, past the
        schedule, the message is given up) before this returns. ``member``: the retry this
        attempt is (settled here)."""
        engine = self.engine
        hooks = engine.store.webhooks
        config = engine.config
        eid = endpoint["id"]
        now = engine.clock()
        retry = {"e": eid, "g": game_id, "s": seq, "t": at_ms}
        disabled = hooks.disabled(eid)
        if disabled is not None:
            if member is not None:
                hooks.settle(member)
            return
        down = self.down.get(eid)
        pause = config.retry_schedule[0]
        if down is not None and now - down < pause:
            # failing a moment ago: this attempt waits (not counted) until a probe may tell
            following = {**retry, "a": attempt}
            if member is not None:
                hooks.settle(member, following, down + pause)
            else:
                hooks.schedule(following, down + pause)
            return
        if hooks.hit(eid, int(now)) > config.webhook_rate_per_second:
            # over the endpoint's rate: the same attempt in the next second
            following = {**retry, "a": attempt}
            if member is not None:
                hooks.settle(member, following, int(now) + 1)
            else:
                hooks.schedule(following, int(now) + 1)
            return
        msg_id = wh.message_id(game_id, seq)
        body = wh.payload(game_id, seq, event, at_ms)
        stamp = dt.datetime.fromtimestamp(int(now), dt.timezone.utc)
        signature = Webhook(endpoint["secret"]).sign(msg_id, stamp, body.decode())
        outcome = outgoing.post(endpoint["url"], body, {
            "webhook-id": msg_id, "webhook-timestamp": str(int(now)),
            "webhook-signature": signature}, config, self.resolver)
        hooks.note(eid, {"message_id": msg_id, "type": event.get("type"), "game_id": game_id,
                         "seq": seq, "attempt": attempt + 1, "at": round(now, 3),
                         "status": outcome.status, "error": outcome.error, "ms": outcome.ms,
                         "t": at_ms}, config.webhook_log_size)
        if outcome.delivered:
            self.down.pop(eid, None)
            hooks.succeeded(eid)
            report["sent"] += 1
            if member is not None:
                hooks.settle(member)
            return
        report["failed"] += 1
        self.down[eid] = now
        schedule = config.retry_schedule
        since = hooks.failing_since(eid, now)
        if now - since > sum(schedule):
            hooks.disable(eid, f"failing since {_iso(since)}, longer than the retry schedule "
                               f"({outcome.error})", now)
        if attempt < len(schedule):
            following = {**retry, "a": attempt + 1}
            due = now + schedule[attempt]
            if member is not None:
                hooks.settle(member, following, due)
            else:
                hooks.schedule(following, due)
        else:
            hooks.disable(eid, f"message {msg_id} failed its {len(schedule) + 1} attempts "
                               f"({outcome.error})", now)
            if member is not None:
                hooks.settle(member)

    # -- due retries
    def retries(self, report: dict[str, Any]) -> None:
        engine = self.engine
        hooks = engine.store.webhooks
        lease = engine.config.webhook_claim_seconds
        for _ in range(BATCH):  # one claimed at a time: each attempt well within its lease
            claimed = hooks.claim_due(engine.clock(), lease, 1)
            if not claimed:
                return
            member, retry = claimed[0]
            report["retries"] += 1
            game_id, seq = retry["g"], int(retry["s"])
            _v, doc, _i, _r = engine.store.read_game(game_id)
            endpoint = find_endpoint(engine, doc, retry["e"]) if doc is not None else None
            found = engine.store.events(game_id, seq - 1, 1) if endpoint is not None else []
            if endpoint is None or not found:  # the game or the endpoint is gone
                hooks.settle(member)
                continue
            try:
                self.deliver(endpoint, game_id, seq, found[0][1], int(retry["t"]),
                             int(retry["a"]), report, member=member)
            except StoreError:
                raise  # its lease ends, and it is claimed again
            except Exception:  # noqa: BLE001 - never a poison retry that kills every sender
                log.exception("retry %s could not be handled; dropped", retry)
                hooks.settle(member)
            self.beat()


def endpoints(engine: Engine, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every endpoint a game's events go to: its own, and the operator's that cover it."""
    own = list((doc.get("hooks") or {}).values())
    return own + [e.as_endpoint() for e in engine.hooks.covering(doc)]


def find_endpoint(engine: Engine, doc: dict[str, Any], endpoint_id: str
                  ) -> dict[str, Any] | None:
    for endpoint in endpoints(engine, doc):
        if endpoint["id"] == endpoint_id:
            return endpoint
    return None


def _iso(when: float) -> str:
    return dt.datetime.fromtimestamp(when, dt.timezone.utc).isoformat(timespec="seconds")
