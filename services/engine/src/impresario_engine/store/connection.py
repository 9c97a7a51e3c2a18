"""The connection to Redis: a client for a URL (a single server, or a cluster connected on
first use), and the lean lane a request's scripts run on (:class:`Lane`, :class:`LeanScript`):
a third of a move's Redis cost is the client's own wrappers, which the lane leaves out."""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

import redis
from redis.commands.core import Script
from redis.connection import Encoder
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError


def connect(url: str, timeout: float = 5.0) -> "redis.Redis | redis.RedisCluster":
    """A client for ``url``. ``redis+cluster://host:port`` (or ``?cluster=1``) selects the
    cluster-aware client (connected on first use: see :class:`LazyCluster`); ``redis://``,
    ``rediss://`` and ``unix://`` a single server."""
    cluster = url.startswith("redis+cluster://") or "cluster=1" in url
    if cluster:
        clean = url.replace("redis+cluster://", "redis://").replace("?cluster=1", "")
        clean = clean.replace("&cluster=1", "")
        return LazyCluster(lambda: redis.RedisCluster.from_url(
            clean, socket_timeout=timeout, socket_connect_timeout=timeout))
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                health_check_interval=30)


class LazyCluster:
    """A ``RedisCluster`` made on first use. Its constructor connects at once (to learn the
    slots), so a worker started while the cluster is away would fail to boot; like a single
    server's client, this one connects when a request needs it (which gets a 503 until then)."""

    def __init__(self, factory) -> None:
        self._factory = factory
        self._client: "redis.RedisCluster | None" = None
        self._lock = threading.Lock()

    @property
    def cluster(self) -> "redis.RedisCluster":
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._factory()
        return self._client

    def get_encoder(self) -> Encoder:  # what Script hashes with (redis-py's defaults)
        return Encoder("utf-8", "strict", False)

    def register_script(self, script: str) -> Script:
        return Script(self, script)

    def __getattr__(self, name: str) -> Any:
        if self._client is not None:
            return getattr(self._client, name)

        def deferred(*args: Any, **kwargs: Any) -> Any:  # connects when called, not when named
            return getattr(self.cluster, name)(*args, **kwargs)

        return deferred


_LANES: "weakref.WeakKeyDictionary[Any, Lane]" = weakref.WeakKeyDictionary()
_LANES_LOCK = threading.Lock()


class Lane:
    """Connections to a single Redis server kept aside for the scripts a request runs
    (:class:`LeanScript`): a call takes one (or, when none is free, one from the client's pool),
    writes one packed command, reads one answer and puts the connection back, without the
    pool's lock, its check for stale data (an answer is always read whole, or the connection
    dropped) and the client's wrappers on every call: a third of a move's Redis cost. At most
    ``KEEP`` are kept; more at once (a burst) go back to the pool. For a cluster there is no
    lane (``pool`` None) and scripts go through the client as usual; a process forked after
    the lane was used starts a new one, never sharing the parent's sockets."""

    KEEP = 16

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.free: list[Any] = []
        self.pid = os.getpid()

    @classmethod
    def of(cls, client: Any) -> "Lane":
        """The lane of ``client``'s pool: one per pool, however many stores share the client
        (a lane's connections count as taken from its pool)."""
        if not isinstance(client, redis.Redis):
            return cls(None)
        pool = client.connection_pool
        with _LANES_LOCK:
            lane = _LANES.get(pool)
            if lane is None:
                lane = _LANES[pool] = cls(pool)
        return lane

    def take(self) -> Any:
        if self.pid != os.getpid():
            self.free, self.pid = [], os.getpid()
        try:
            return self.free.pop()  # atomic: no two threads get the same connection
        except IndexError:
            return self.pool.get_connection()  # type: ignore[union-attr]

    def give_back(self, conn: Any) -> None:
        if len(self.free) < self.KEEP and self.pid == os.getpid():
            self.free.append(conn)
        else:
            self.pool.release(conn)  # type: ignore[union-attr]

    def drop(self, conn: Any) -> None:
        """A connection that failed: closed, and back to the pool (which reconnects it)."""
        conn.disconnect()
        self.pool.release(conn)  # type: ignore[union-attr]


try:  # hiredis packs a command in C; redis-py's own packer checks each argument in Python first
    from hiredis import pack_command as _hiredis_pack
except ImportError:  # pragma: no cover - redis[hiredis] is a dependency
    _hiredis_pack = None


def _pack(command: tuple[Any, ...]) -> list[bytes]:
    """A command as Redis reads it (the chunks to send). Its arguments are str, bytes or int
    only (a float's text is the caller's to choose, as ``repr``), so both packers write the
    same bytes."""
    if _hiredis_pack is not None:
        return [_hiredis_pack(command)]
    return _ENCODER_CONN.pack_command(*command)  # type: ignore[no-any-return]


_ENCODER_CONN = redis.Connection()  # packs only: never connected


class LeanScript:
    """A Lua script called by its SHA on a connection of the :class:`Lane`. Its answers and errors are
    the client's (the same parser reads them). Whatever the lane cannot do goes through the
    client's own ``Script``, which loads the script or reconnects as usual: a script Redis no
    longer knows (NOSCRIPT, after a restart) and a connection found closed (Redis restarted, or
    closed an idle connection); a timeout is raised as it is, so a frozen Redis costs one
    socket timeout, not more."""

    def __init__(self, client: Any, lane: Lane, source: str) -> None:
        self.script = client.register_script(source)
        self.lane = lane

    def __call__(self, keys: list[Any] = [], args: list[Any] = []) -> Any:  # noqa: B006
        """Run the script; ``args`` are str, bytes or int (see :func:`_pack`)."""
        lane = self.lane
        if lane.pool is None:
            return self.script(keys=keys, args=args)
        conn = lane.take()
        try:
            conn.send_packed_command(
                _pack(("EVALSHA", self.script.sha, len(keys), *keys, *args)), check_health=False)
            answer = conn.read_response()
        except NoScriptError:
            lane.give_back(conn)  # the answer was read whole: the connection is sound
            return self.script(keys=keys, args=args)
        except RedisTimeoutError:
            lane.drop(conn)
            raise
        except (RedisConnectionError, OSError):
            lane.drop(conn)
            return self.script(keys=keys, args=args)
        except BaseException:
            lane.drop(conn)  # an error answer was read whole, but be sure: a fresh one
            raise
        lane.give_back(conn)
        return answer
