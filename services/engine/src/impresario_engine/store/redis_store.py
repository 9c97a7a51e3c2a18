"""The game repository on Redis.

A game is a hash ``game:{id}`` with its version ``v`` and its document ``doc`` (JSON: settings,
seats with hashed tokens, and the rules state), a stream ``game:{id}:events`` whose entry ids are
the event sequence numbers (``<seq>-0``), and a hash ``game:{id}:idem`` of idempotency records
(one field per caller and key). The braces are a hash tag: all of a game's keys live in one
Redis Cluster slot, so the Lua scripts that touch several of them stay atomic there too.

A request costs one read (``read.lua``: version, document and idempotency record together) and
one atomic write (``write.lua``: compare-and-set on the version, events appended, idempotency
record stored, and on a single server the game's entry in the deadline index kept), on the
lean lane of :mod:`.connection`. Nothing is cached in the process between requests.

When a game finishes it is archived (``archive.lua``): the document is compressed, the event
stream is folded into one compressed field ``events`` of the game hash, and the idempotency
records are kept only for a short replay window. Readers take either form
(:mod:`.codec`, ``events.lua``).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Iterable

import orjson
from redis.exceptions import ClusterError, RedisClusterException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import (BusyLoadingError, MasterDownError, OutOfMemoryError,
                               ReadOnlyError, RedisError, TryAgainError)
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..metrics import STORAGE_REFUSALS
from . import codec
from .connection import Lane, LeanScript
from .lobby import LobbyIndex
from .players import PlayerIndex
from .push import PushBook
from .matching import MatchQueues
from .ratings import RatingBook
from .webhooks import WebhookStore


class StoreError(Exception):
    """Redis answered a command with an error: what the store raises instead of Redis's own
    exceptions, so that nothing above it needs to know them."""


class StoreUnavailable(StoreError):
    """Redis could not be reached, did not answer in time, or cannot take writes now."""


_BUSY = (BusyLoadingError, OutOfMemoryError, ReadOnlyError, MasterDownError)
_BUSY_CODES = ("LOADING ", "CLUSTERDOWN ", "TRYAGAIN ", "OOM ", "READONLY ", "MASTERDOWN ")


def _refused(exc: Exception) -> None:
    text = str(exc)
    reason = "oom" if isinstance(exc, OutOfMemoryError) or "OOM " in text else \
        "readonly" if isinstance(exc, ReadOnlyError) or "READONLY " in text else "busy"
    STORAGE_REFUSALS.labels(reason).inc()


def _lua(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


#: a game without a deadline now, for :meth:`GameStore.write`: out of the deadline index
UNSCHEDULED = "-"


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def idem_hash_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:idem"


def ticket_key(game_id: str, digest: str) -> str:
    """A stream ticket of a game, named by the ticket's hash (the ticket itself is never
    stored)."""
    return f"game:{{{game_id}}}:ticket:{digest}"


def staging_key(game_id: str) -> str:
    """On a cluster, a game's outbox entries wait here (the game's slot) until they are moved
    to the outbox (``GameStore.move_staged``)."""
    return f"game:{{{game_id}}}:outbox"


def claim_key(game_id: str) -> str:
    """The reaper's claim on a game (``GameStore.claim``)."""
    return f"game:{{{game_id}}}:claim"


class GameStore:
    READ = _lua("read.lua")
    WRITE = _lua("write.lua")
    EVENTS = _lua("events.lua")
    ARCHIVE = _lua("archive.lua")
    REMATCH = _lua("rematch.lua")

    #: a stream ticket is used once: read and deleted in one step (GETDEL is Redis 6.2+)
    TAKE = "local v = redis.call('GET', KEYS[1])\n" \
           "if v then redis.call('DEL', KEYS[1]) end\n" \
           "return v"
    #: a reaper's claim is given back only by the reaper that holds it
    RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end"
    #: a loop's heartbeat: the latest of its processes' times
    BEAT = ("local was = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') "
            "if tonumber(ARGV[2]) > was then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end")

    def __init__(self, client: Any) -> None:
        self.client = client
        self._take = client.register_script(self.TAKE)
        self._release = client.register_script(self.RELEASE)
        self._beat = client.register_script(self.BEAT)
        self._unstage = client.register_script(self.UNSTAGE)
        #: what every request runs: on the lane's connections
        self.lane = Lane.of(client)
        self._read = LeanScript(client, self.lane, self.READ)
        self._write = LeanScript(client, self.lane, self.WRITE)
        self._events = client.register_script(self.EVENTS)
        self._archive = client.register_script(self.ARCHIVE)
        self._rematch = client.register_script(self.REMATCH)
        #: the list of games (lobby): its own keys, in a slot of their own
        self.lobby = LobbyIndex(client, self._call)
        #: players, apart from any table: each key in a slot of its own
        self.players = PlayerIndex(client, self._call, self._take)
        #: ratings: each ruleset's in a slot of its own
        self.ratings = RatingBook(client, self._call)
        #: quick match: its queues in a slot of their own
        self.matching = MatchQueues(client, self._call)
        #: Web Push subscriptions: each player's in a slot of its own
        self.push = PushBook(client, self._call)
        #: the webhook senders' keys: the outbox's group, retries, endpoints' state and logs
        self.webhooks = WebhookStore(client, self._call)

    # -- guarded calls: any Redis failure becomes StoreUnavailable (503 for clients)
    def _call(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        except (ClusterError, TryAgainError, RedisClusterException) as exc:
            # a cluster with a primary down ("The cluster is down"), slots moving, no reachable
            # node: retry later, like a single server that is away
            raise StoreUnavailable(str(exc) or type(exc).__name__) from exc
        except _BUSY as exc:
            _refused(exc)
            raise StoreUnavailable(str(exc) or type(exc).__name__) from exc
        except RedisError as exc:
            # a server that cannot take the command now: loading its data, a cluster moving
            # slots, out of memory (maxmemory with noeviction), a replica after a failover;
            # inside a Lua script such errors come back as a plain error naming them
            if any(code in str(exc) for code in _BUSY_CODES):
                _refused(exc)
                raise StoreUnavailable(str(exc)) from exc
            raise StoreError(str(exc) or type(exc).__name__) from exc

    PROBE = "impresario:probe"

    def write_refusal(self) -> str | None:
        """Why Redis refuses writes now (its error: full under ``maxmemory`` with
        ``noeviction``, a read-only replica), or None when a small write goes through. Raises
        StoreUnavailable when Redis does not answer at all."""
        try:
            self.client.set(self.PROBE, b"1", ex=60)
        except (RedisConnectionError, RedisTimeoutError, OSError, ClusterError,
                RedisClusterException) as exc:
            raise StoreUnavailable(str(exc) or type(exc).__name__) from exc
        except RedisError as exc:
            return str(exc) or type(exc).__name__
        return None

    def read(self, game_id: str, idempotency_key: str | None = None
             ) -> tuple[int | None, dict | None, bytes | None]:
        """(version, document, the idempotency record of ``idempotency_key`` if any)."""
        return self.read_game(game_id, idempotency_key)[:3]  # type: ignore[return-value]

    def read_game(self, game_id: str, idempotency_key: str | None = None
                  ) -> tuple[int | None, dict | None, bytes | None, str | None]:
        """(version, document, idempotency record, the id of the game's rematch if any)."""
        keys, args = [game_key(game_id)], []
        if idempotency_key is not None:
            keys.append(idem_hash_key(game_id))
            args.append(idempotency_key)
        version, doc, idem, rematch = self._call(self._read, keys=keys, args=args)
        if version is None:
            return None, None, None, None
        if isinstance(rematch, bytes):
            rematch = rematch.decode()
        return int(version), codec.unpack(doc), (idem or None), (rematch or None)

    def write(self, game_id: str, expected: int | None, doc: dict, events: Iterable[dict],
              first_seq: int, ttl_seconds: int, idempotency_key: str | None = None,
              idempotency_record: bytes | None = None, idempotency_ttl: int = 0,
              summary: bytes = b"",
              deadline: float | str | None = None,
              notify: bool = False) -> tuple[bool, int | None]:
        """Compare-and-set: write ``doc`` if the game's version is still ``expected`` (``None``:
        the game must not exist). Returns (written, the version now stored). ``summary``: what
        the list of games shows of the game (field ``lobby``), written in the same step.
        ``deadline``: the game's entry in the deadline index the reaper reads: its next deadline,
        :data:`UNSCHEDULED` (it has none now), or None (leave the index as it is); in the same
        step on a single server, right after it on a cluster (the index is in another slot).
        ``notify``: the game has someone to tell (webhooks, other channels): the write's events
        get one entry in the outbox (:data:`OUTBOX`), in the same step; on a cluster in the
        game's own staging stream, moved to the outbox right after (:meth:`move_staged`; a
        sender's sweep moves what a process that died in between left)."""
        keys = [game_key(game_id), events_key(game_id), idem_hash_key(game_id)]
        args: list[Any] = [
            "" if expected is None else str(expected),
            orjson.dumps(doc),
            int(ttl_seconds * 1000),
            idempotency_record or b"",
            int(idempotency_ttl * 1000),
            first_seq,
            idempotency_key or "",
            summary,
            "" if deadline is None else deadline if deadline == UNSCHEDULED else repr(deadline),
            game_id,
            "1" if notify else "",
        ]
        one_step = self.lane.pool is not None
        if notify:
            keys.append(self.OUTBOX if one_step else staging_key(game_id))
        if one_step and deadline is not None:
            keys.append(self.DEADLINES)
        args.extend(orjson.dumps(e) for e in events)
        ok, version = self._call(self._write, keys=keys, args=args)
        if ok and notify and not one_step and events:
            try:  # else the sender's sweep moves it
                self.move_staged(game_id)
            except StoreError:
                pass
        if ok and not one_step and deadline is not None:
            # advisory, as the reaper re-checks every game it finds due
            if deadline == UNSCHEDULED:
                self.unschedule(game_id)
            else:
                self.schedule(game_id, deadline)  # type: ignore[arg-type]
        return bool(ok), (int(version) if version not in (None, b"", "") else None)

    def events(self, game_id: str, after: int = 0, count: int | None = None
               ) -> list[tuple[int, dict]]:
        """Events with a sequence number greater than ``after``, in order (from the stream, or
        from the archive of a finished game)."""
        if count == 0:
            return []
        archived, found = self._call(
            self._events, keys=[game_key(game_id), events_key(game_id)],
            args=[f"({after}-0", "" if count is None else count])
        if archived:
            if not found:
                return []
            events = codec.unpack(found)  # seq n is events[n - 1]
            end = len(events) if count is None else min(len(events), after + count)
            return [(seq, events[seq - 1]) for seq in range(after + 1, end + 1)]
        # through Lua an entry's fields come as a flat list: [b"e", <the event>]
        return [(int(eid.split(b"-")[0]), orjson.loads(fields[1])) for eid, fields in found]

    def archive(self, game_id: str, version: int, doc: dict, replay_window_ms: int) -> bool:
        """Make a finished game compact (see the module's doc); False if it was not at
        ``version`` or its stream is not whole (then it stays as it was, still correct)."""
        entries = self._call(self.client.xrange, events_key(game_id), "-", "+")
        for seq, (eid, _fields) in enumerate(entries, 1):
            if int(eid.split(b"-")[0]) != seq:
                return False
        events = codec.pack_json(b"[" + b",".join(fields[b"e"] for _, fields in entries) + b"]",
                                 small=True)
        return bool(self._call(
            self._archive, keys=[game_key(game_id), events_key(game_id), idem_hash_key(game_id)],
            args=[version, codec.pack(doc, small=True), events, len(entries),
                  replay_window_ms]))

    def wait_events(self, game_id: str, after: int, block_ms: int) -> list[tuple[int, dict]]:
        """Like :meth:`events`, blocking up to ``block_ms`` for the first new one."""
        found = self._call(self.client.xread, {events_key(game_id): f"{after}-0"},
                           block=block_ms)
        out = []
        for _stream, entries in found or ():
            for eid, fields in entries:
                out.append((int(eid.split(b"-")[0]), orjson.loads(fields[b"e"])))
        return out

    # -- the outbox: one entry per write of a game that notifies (fields g, f, l: the game, the
    # first and the last seq of the write's events), read by the sender (usecases/notify.py)
    OUTBOX = "impresario:outbox"
    #: a cluster's staging entries, deleted once copied to the outbox (and the stream with them
    #: when empty), in the game's slot
    UNSTAGE = ("for i = 1, #ARGV do redis.call('XDEL', KEYS[1], ARGV[i]) end "
               "if redis.call('XLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end")

    def move_staged(self, game_id: str) -> int:
        """Move a game's staged outbox entries (a cluster's) to the outbox: each is added there,
        then deleted from the staging stream; a process that dies in between leaves it staged
        (a sweep moves it again: at worst an entry twice, whose messages keep their ids)."""
        staged = self._call(self.client.xrange, staging_key(game_id), "-", "+")
        if not staged:
            return 0
        for _eid, fields in staged:
            self._call(self.client.xadd, self.OUTBOX, fields)
        self._call(self._unstage, keys=[staging_key(game_id)], args=[e for e, _ in staged])
        return len(staged)

    def sweep_staged(self, batch: int = 500) -> int:
        """Move every staged outbox entry (a cluster's; none on a single server)."""
        moved = 0
        for key in self._call(self.client.scan_iter, match="game:{*}:outbox", count=batch,
                              _type="stream"):
            k = key.decode() if isinstance(key, bytes) else key
            moved += self.move_staged(k[len("game:{"):-len("}:outbox")])
        return moved

    # -- the deadline index: game id -> its earliest move deadline (epoch seconds)
    DEADLINES = "impresario:deadlines"

    def schedule(self, game_id: str, when: float) -> None:
        self._call(self.client.zadd, self.DEADLINES, {game_id: when})

    def unschedule(self, game_id: str) -> None:
        self._call(self.client.zrem, self.DEADLINES, game_id)

    def due_games(self, now: float, limit: int = 1000) -> list[str]:
        ids = self._call(self.client.zrangebyscore, self.DEADLINES, "-inf", now, start=0,
                         num=limit)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]

    def due_between(self, after: float, until: float, limit: int = 1000,
                    offset: int = 0) -> list[str]:
        """The games whose earliest time in the deadline index is after ``after`` and not
        after ``until``, earliest first (``limit`` of them, from the ``offset``-th on)."""
        ids = self._call(self.client.zrangebyscore, self.DEADLINES, f"({after!r}", until,
                         start=offset, num=limit)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]

    def next_due(self) -> float | None:
        """The earliest time in the deadline index (None when it is empty)."""
        first = self._call(self.client.zrange, self.DEADLINES, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    def claim(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take the reaper's claim on a game for ``seconds`` (False: another reaper holds it),
        so that reapers running side by side do not make the same searches twice. Only an
        optimisation: every write is a compare-and-set whoever holds the claim."""
        return bool(self._call(self.client.set, claim_key(game_id), owner, nx=True,
                               px=max(1, int(seconds * 1000))))

    def release(self, game_id: str, owner: str) -> None:
        """Give back a claim taken by :meth:`claim` (left alone if it expired and another
        reaper holds it now)."""
        self._call(self._release, keys=[claim_key(game_id)], args=[owner])

    # -- the loops' heartbeats: loop name -> the last time one of its processes turned
    LOOPS = "impresario:loops"

    def beat(self, loop: str, when: float) -> None:
        """Note that a process of ``loop`` turned at ``when`` (the latest of its processes
        wins; ``/metrics`` reads them)."""
        self._call(self._beat, keys=[self.LOOPS], args=[loop, when])

    def heartbeats(self) -> dict[str, float]:
        """The last time each loop turned."""
        found = self._call(self.client.hgetall, self.LOOPS)
        return {(k.decode() if isinstance(k, bytes) else k): float(v) for k, v in found.items()}

    # -- the list of games reads summaries, and a rematch links two games
    def summaries(self, game_ids: list[str]) -> list[tuple[int | None, bytes | None]]:
        """(version, summary) of each game (``(None, None)``: gone), in one round trip per
        Redis node."""
        if not game_ids:
            return []

        def run():
            pipe = self.client.pipeline(transaction=False)
            for gid in game_ids:
                pipe.hmget(game_key(gid), "v", "lobby")
            return pipe.execute()

        return [(int(v) if v is not None else None, s) for v, s in self._call(run)]

    def link_rematch(self, game_id: str, rematch_id: str, replaces: str | None = None
                     ) -> str | None:
        """Link ``rematch_id`` as the rematch of ``game_id`` unless another is linked first
        (``replaces``: the link it may replace, a rematch that has expired); the id linked
        now (None: ``game_id`` is gone)."""
        found = self._call(self._rematch, keys=[game_key(game_id)],
                           args=[rematch_id, replaces or ""])
        return found.decode() if isinstance(found, bytes) else found

    def delete_game(self, game_id: str) -> None:
        """Every key of a game (a rematch that lost the race to be linked)."""
        self._call(self.client.delete, game_key(game_id), events_key(game_id),
                   idem_hash_key(game_id))

    # -- stream tickets: one key each, kept until used or expired
    def put_ticket(self, game_id: str, digest: str, record: bytes, ttl_seconds: int) -> None:
        self._call(self.client.set, ticket_key(game_id, digest), record, ex=ttl_seconds)

    def take_ticket(self, game_id: str, digest: str) -> bytes | None:
        """The ticket's record, deleted in the same step: of two requests that bring the same
        ticket, one gets it and the other None."""
        return self._call(self._take, keys=[ticket_key(game_id, digest)]) or None

    # -- rate limiting: a counter per window
    def count_hit(self, key: str, ttl_seconds: int) -> int:
        def hit():
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, ttl_seconds)
            return pipe.execute()[0]

        return int(self._call(hit))

    def set_if_absent(self, key: str, value: bytes, ttl_seconds: int) -> bool:
        return bool(self._call(self.client.set, key, value, nx=True, ex=ttl_seconds))

    def get(self, key: str) -> bytes | None:
        return self._call(self.client.get, key)

    def set(self, key: str, value: bytes, ttl_seconds: int) -> None:
        self._call(self.client.set, key, value, ex=ttl_seconds)

    def delete(self, key: str) -> None:
        self._call(self.client.delete, key)

    def scan_games(self, batch: int = 500) -> Iterable[str]:
        """Every game id in the store (for the reaper)."""
        for key in self._call(self.client.scan_iter, match="game:{*}", count=batch, _type="hash"):
            k = key.decode() if isinstance(key, bytes) else key
            yield k[len("game:{"):-1]
