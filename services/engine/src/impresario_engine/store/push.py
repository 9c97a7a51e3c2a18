"""The Redis side of Web Push (usecases/push.py):

- ``push-subs:{<player id>}``: a hash, the player's Web Push subscriptions: one field per
  subscription (the SHA-256 of its endpoint, hex, 32 characters), its value the subscription
  as JSON (``endpoint``, ``keys`` ``p256dh`` and ``auth``, ``lang``, ``created``). A player's
  own key, in a slot of its own; removed with the player (``DELETE /v1/me``).
- ``push-sent:{<game id>}:<kind>:<seat>:<turn>``: a notice sent (or being sent), kept for a
  while so that a write read twice by the sender, or the deadline loop's next turn, does not
  send it again (SET NX: the first to set it sends).
"""

from __future__ import annotations

from typing import Any, Callable

from .codec import text


def subs_key(player_id: str) -> str:
    return f"push-subs:{{{player_id}}}"


def sent_key(game_id: str, kind: str, seat: int, turn: str) -> str:
    return f"push-sent:{{{game_id}}}:{kind}:{seat}:{turn}"


class PushBook:
    """Players' Web Push subscriptions in Redis, every call through the store's guard."""

    def __init__(self, client: Any, call: Callable[..., Any]) -> None:
        self.client = client
        self._call = call

    def put(self, player_id: str, sub_id: str, record: bytes, most: int) -> bool:
        """Keep a subscription (one with this id is replaced); False, nothing kept, when the
        player has ``most`` others already."""
        def run():
            key = subs_key(player_id)
            if not self.client.hexists(key, sub_id) and self.client.hlen(key) >= most:
                return False
            self.client.hset(key, sub_id, record)
            return True
        return bool(self._call(run))

    def of(self, player_id: str) -> dict[str, bytes]:
        found = self._call(self.client.hgetall, subs_key(player_id))
        return {text(k): v for k, v in found.items()}

    def of_many(self, player_ids: list[str]) -> dict[str, dict[str, bytes]]:
        """:meth:`of` of several players, in one round trip."""
        def run():
            pipe = self.client.pipeline(transaction=False)
            for player_id in player_ids:
                pipe.hgetall(subs_key(player_id))
            return pipe.execute()
        found = self._call(run) if player_ids else []
        return {pid: {text(k): v for k, v in subs.items()}
                for pid, subs in zip(player_ids, found)}

    def has_any(self, player_id: str) -> bool:
        return bool(self._call(self.client.exists, subs_key(player_id)))

    def drop(self, player_id: str, sub_id: str) -> bool:
        return bool(self._call(self.client.hdel, subs_key(player_id), sub_id))

    def forget(self, player_id: str) -> None:
        self._call(self.client.delete, subs_key(player_id))

    def first_time(self, game_id: str, kind: str, seat: int, turn: str, ttl: int) -> bool:
        """Whether this notice was not sent yet (it counts as sent from now on)."""
        return bool(self._call(self.client.set, sent_key(game_id, kind, seat, turn), b"1",
                               nx=True, ex=ttl))

    def unsend(self, game_id: str, kind: str, seat: int, turn: str) -> None:
        """A notice :meth:`first_time` let through that reached no browser: not sent after all."""
        self._call(self.client.delete, sent_key(game_id, kind, seat, turn))
