"""The Redis side of ratings (table/ratings.py says what they are). Each ruleset's ratings live
in a Redis Cluster slot of their own (hash tag ``{ratings:<ruleset>}``), so one Lua script
applies a whole game's ratings at once, exactly once:

- ``ratings:{<r>}:player:<id>``: a hash, the player's ``mu``, ``sigma``, ``games`` and ``v`` (a
  version: each game's update is a compare-and-set on the versions read);
- ``ratings:{<r>}:recent:<id>``: the player's latest results (JSON, newest first, bounded);
- ``ratings:{<r>}:board``: the leaderboard, a sorted set of players by displayed rating
  (μ − 3σ), of players with enough games;
- ``ratings:{<r>}:rated:<game>``: the mark of a game rated (kept as long as a finished game).

And the games waiting to be rated, ``ratings-queue`` (a sorted set by when the finishing write
was about to be made), which the finishing request and the reaper work through.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from .codec import text

QUEUE = "ratings-queue"
_LUA = (Path(__file__).with_name("ratings.lua")).read_text()


def _tag(ruleset: str) -> str:
    return f"ratings:{{{ruleset}}}"


def rating_key(ruleset: str, player_id: str) -> str:
    return f"{_tag(ruleset)}:player:{player_id}"


def recent_key(ruleset: str, player_id: str) -> str:
    return f"{_tag(ruleset)}:recent:{player_id}"


def board_key(ruleset: str) -> str:
    return f"{_tag(ruleset)}:board"


def mark_key(ruleset: str, game_id: str) -> str:
    return f"{_tag(ruleset)}:rated:{game_id}"


class RatingBook:
    """Ratings in Redis; every call through the store's guard (``call``)."""

    def __init__(self, client: Any, call: Callable[..., Any]) -> None:
        self.client = client
        self._call = call
        self._apply = client.register_script(_LUA)

    def read(self, ruleset: str, player_ids: Iterable[str]) -> dict[str, dict[str, str]]:
        """Each player's rating hash (empty for a player not rated yet)."""
        ids = list(player_ids)

        def run():
            pipe = self.client.pipeline(transaction=False)
            for pid in ids:
                pipe.hgetall(rating_key(ruleset, pid))
            return pipe.execute()
        found = self._call(run)
        return {pid: {text(k): text(v) for k, v in h.items()} for pid, h in zip(ids, found)}

    def apply(self, ruleset: str, game_id: str, mark: str, mark_ttl: int, min_games: int,
              keep_recent: int, rows: list[tuple[str, str, float, float, float, str]]) -> int:
        """One game's ratings: rows of (player, version read, μ, σ, displayed, result JSON).
        1 applied, 0 applied before, -1 a player's rating changed since it was read."""
        keys = [mark_key(ruleset, game_id), board_key(ruleset)]
        keys += [rating_key(ruleset, r[0]) for r in rows]
        keys += [recent_key(ruleset, r[0]) for r in rows]
        args: list[Any] = [mark_ttl, min_games, keep_recent, mark]
        for pid, version, mu, sigma, shown, result in rows:
            args += [pid, version, repr(mu), repr(sigma), repr(shown), result]
        return int(self._call(self._apply, keys=keys, args=args))

    def rated(self, ruleset: str, game_id: str) -> bool:
        return bool(self._call(self.client.exists, mark_key(ruleset, game_id)))

    def board(self, ruleset: str, start: int, count: int) -> tuple[list[tuple[str, float]], int]:
        """A page of the leaderboard, best first, and how many players it has."""
        def run():
            pipe = self.client.pipeline(transaction=False)
            pipe.zrevrange(board_key(ruleset), start, start + count - 1, withscores=True)
            pipe.zcard(board_key(ruleset))
            return pipe.execute()
        page, total = self._call(run)
        return [(text(m), float(s)) for m, s in page], int(total)

    def recent(self, ruleset: str, player_id: str, count: int) -> list[bytes]:
        return list(self._call(self.client.lrange, recent_key(ruleset, player_id), 0, count - 1))

    def forget(self, ruleset: str, player_id: str) -> None:
        """A removed player: off the leaderboard, rating and results gone (one slot: one
        transaction)."""
        def run():
            pipe = self.client.pipeline(transaction=True)
            pipe.zrem(board_key(ruleset), player_id)
            pipe.delete(rating_key(ruleset, player_id), recent_key(ruleset, player_id))
            pipe.execute()
        self._call(run)

    # -- the games waiting to be rated
    def enqueue(self, game_id: str, when: float) -> None:
        """(Again: a finishing write that lost its compare-and-set entered it before; the time
        is the latest try's, so the reaper never takes the finish that landed for a lost one.)"""
        self._call(self.client.zadd, QUEUE, {game_id: when})

    def waiting(self, before: float, limit: int) -> list[str]:
        found = self._call(self.client.zrangebyscore, QUEUE, "-inf", before, start=0,
                           num=limit)
        return [text(m) for m in found]

    def queued_at(self, game_id: str) -> float | None:
        found = self._call(self.client.zscore, QUEUE, game_id)
        return None if found is None else float(found)

    def dequeue(self, game_id: str) -> None:
        self._call(self.client.zrem, QUEUE, game_id)
