"""The Redis side of quick match, all in one Redis Cluster slot (hash tag ``{match}``), so one
Lua script seats a table's players at once and two pods never seat a player twice:

- ``match:{match}:queue:<ruleset>:<players>``: who waits, a sorted set by displayed rating;
- ``match:{match}:waiting``: each waiting player's entry (JSON: queue, since, wait);
- ``match:{match}:ticket:<player>``: where a player was seated (JSON: game, seat), for an hour;
- ``match:{match}:forming``: the tables taken from a queue whose game is still being made
  (game id -> JSON), which any pod finishes (``usecases/matching.form``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import orjson

TAG = "match:{match}"
WAITING = f"{TAG}:waiting"
FORMING = f"{TAG}:forming"
TICKET_SECONDS = 3600
_TAKE = (Path(__file__).with_name("match_take.lua")).read_text()


def queue_key(ruleset: str, players: int) -> str:
    return f"{TAG}:queue:{ruleset}:{players}"


def ticket_key(player_id: str) -> str:
    return f"{TAG}:ticket:{player_id}"


class MatchQueues:
    """The quick-match queues; every call through the store's guard (``call``)."""

    def __init__(self, client: Any, call: Callable[..., Any]) -> None:
        self.client = client
        self._call = call
        self._take = client.register_script(_TAKE)

    def enter(self, player_id: str, ruleset: str, players: int, rating: float,
              entry: dict[str, Any]) -> dict[str, Any]:
        """Put the player in the queue of ``ruleset`` and ``players`` (a player waiting there
        already keeps their place and entry), in one transaction: the entry and the queue's
        member go together; the entry they wait with."""
        def run():
            pipe = self.client.pipeline(transaction=True)
            pipe.hsetnx(WAITING, player_id, orjson.dumps(entry))
            pipe.zadd(queue_key(ruleset, players), {player_id: rating}, nx=True)
            pipe.delete(ticket_key(player_id))
            pipe.hget(WAITING, player_id)
            return orjson.loads(pipe.execute()[-1])
        return self._call(run)

    def entry(self, player_id: str) -> dict[str, Any] | None:
        found = self._call(self.client.hget, WAITING, player_id)
        return None if found is None else orjson.loads(found)

    def leave(self, player_id: str) -> bool:
        entry = self.entry(player_id)
        if entry is None:
            return False

        def run():
            pipe = self.client.pipeline(transaction=True)
            pipe.zrem(queue_key(entry["ruleset"], entry["players"]), player_id)
            pipe.hdel(WAITING, player_id)
            return pipe.execute()[1]
        return bool(self._call(run))

    def waiting(self, ruleset: str, players: int) -> list[tuple[str, float, dict[str, Any]]]:
        """Everyone in the queue: (player, rating, entry)."""
        def run():
            found = self.client.zrange(queue_key(ruleset, players), 0, -1, withscores=True)
            ids = [m.decode() if isinstance(m, bytes) else m for m, _ in found]
            entries = self.client.hmget(WAITING, ids) if ids else []
            return [(pid, float(score), orjson.loads(raw))
                    for pid, (_m, score), raw in zip(ids, found, entries) if raw is not None]
        return self._call(run)

    def take(self, ruleset: str, players: int, game_id: str, table: dict[str, Any],
             tickets: dict[str, dict[str, Any]]) -> bool:
        ids = list(tickets)
        keys = [queue_key(ruleset, players), WAITING, FORMING] + [ticket_key(p) for p in ids]
        args: list[Any] = [game_id, orjson.dumps(table), TICKET_SECONDS]
        for pid in ids:
            args += [pid, orjson.dumps(tickets[pid])]
        return bool(self._call(self._take, keys=keys, args=args))

    def ticket(self, player_id: str) -> dict[str, Any] | None:
        found = self._call(self.client.get, ticket_key(player_id))
        return None if found is None else orjson.loads(found)

    def forget_ticket(self, player_id: str) -> None:
        self._call(self.client.delete, ticket_key(player_id))

    def forming(self) -> dict[str, dict[str, Any]]:
        found = self._call(self.client.hgetall, FORMING)
        return {(k.decode() if isinstance(k, bytes) else k): orjson.loads(v)
                for k, v in found.items()}

    def formed(self, game_id: str) -> None:
        self._call(self.client.hdel, FORMING, game_id)
