"""The Redis side of players (people apart from any table):

- ``player:{<id>}``: a hash, the player's record (``name``, ``kind``, ``created``; for a
  platform's player its ``issuer`` and ``subject``).
- ``player-credential:{<digest>}``: the player id a player credential stands for, under the
  credential's SHA-256 (the credential itself is never stored).
- ``player-code:{<digest>}``: a one-time code that moves a player to another device: the player
  id, under the code's SHA-256, until it is taken (once) or its time is up.
- ``player-games:{<id>}``: the games a player hosts or sits at, a sorted set of game ids by
  when the player came to them (first time kept), newest last. It is written
  before the game (as the list of games is, table/listing.py) and read against the game: an
  entry whose game no longer names the player (a join refused, a game expired) is dropped on
  the read that finds it so.
- ``player-credentials:{<id>}``: the digests of the player's credentials (a set), so that
  ``DELETE /v1/me`` can end them all.

Each key has a hash tag of its own: nothing here is written with anything else in one step. A
player is written before any credential that stands for it, so a credential never stands for
nobody; a crash between the two leaves a record nobody holds, which costs a few bytes.
"""

from __future__ import annotations

from typing import Any, Callable

from .codec import text


def player_key(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def credential_key(digest: str) -> str:
    return f"player-credential:{{{digest}}}"


def code_key(digest: str) -> str:
    return f"player-code:{{{digest}}}"


def games_key(player_id: str) -> str:
    return f"player-games:{{{player_id}}}"


def credentials_key(player_id: str) -> str:
    return f"player-credentials:{{{player_id}}}"


class PlayerIndex:
    """Players in Redis; every call through the store's guard (``call``: Redis failures become
    ``StoreUnavailable``/``StoreError``); ``take`` reads and deletes a key in one step."""

    def __init__(self, client: Any, call: Callable[..., Any], take: Callable[..., Any]) -> None:
        self.client = client
        self._call = call
        self._take = take

    def put(self, player_id: str, fields: dict[str, str]) -> None:
        self._call(self.client.hset, player_key(player_id), mapping=fields)

    def put_new_fields(self, player_id: str, fields: dict[str, str]) -> None:
        """Only the fields the record does not have yet (a platform's player seen again)."""
        self.put_new_records({player_id: fields})

    def put_new_records(self, records: dict[str, dict[str, str]]) -> None:
        """:meth:`put_new_fields` of several players, in one round trip."""
        def run():
            pipe = self.client.pipeline(transaction=False)
            for player_id, fields in records.items():
                for name, value in fields.items():
                    pipe.hsetnx(player_key(player_id), name, value)
            pipe.execute()
        if records:
            self._call(run)

    def get(self, player_id: str) -> dict[str, str] | None:
        found = self._call(self.client.hgetall, player_key(player_id))
        return {text(k): text(v) for k, v in found.items()} if found else None

    def get_many(self, player_ids: list[str]) -> list[dict[str, str] | None]:
        """:meth:`get` of several players, in one round trip."""
        def run():
            pipe = self.client.pipeline(transaction=False)
            for player_id in player_ids:
                pipe.hgetall(player_key(player_id))
            return pipe.execute()
        found = self._call(run) if player_ids else []
        return [{text(k): text(v) for k, v in h.items()} if h else None for h in found]

    def put_credential(self, digest: str, player_id: str) -> None:
        # the player's list of credentials first: a credential is never one DELETE /v1/me misses
        self._call(self.client.sadd, credentials_key(player_id), digest)
        self._call(self.client.set, credential_key(digest), player_id)

    def forget(self, player_id: str, fields: dict[str, str]) -> None:
        """A player removed (``DELETE /v1/me``): every credential ends, the record keeps only
        ``fields`` (what a finished game's results still need to say: a former player)."""
        def run():
            digests = self.client.smembers(credentials_key(player_id))
            for digest in digests:
                self.client.delete(credential_key(text(digest)))
            for key in (credentials_key(player_id), games_key(player_id),
                        player_key(player_id)):  # a slot each: one key a command
                self.client.delete(key)
            if fields:
                self.client.hset(player_key(player_id), mapping=fields)
        self._call(run)

    # -- the player's games
    def note_game(self, player_id: str, game_id: str, when: float) -> None:
        """Enter a game in the player's games (a game entered before keeps its time)."""
        self._call(self.client.zadd, games_key(player_id), {game_id: when}, nx=True)

    def drop_games(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            self._call(self.client.zrem, games_key(player_id), *game_ids)

    def games(self, player_id: str, before: float | None, count: int
              ) -> list[tuple[str, float]]:
        """Up to ``count`` of the player's games, newest first, entered before ``before``."""
        found = self._call(self.client.zrevrangebyscore, games_key(player_id),
                           "+inf" if before is None else f"({before!r}", "-inf", start=0,
                           num=count, withscores=True)
        return [(text(m), float(score)) for m, score in found]

    def holder(self, digest: str) -> str | None:
        found = self._call(self.client.get, credential_key(digest))
        return text(found) if found is not None else None

    def put_code(self, digest: str, player_id: str, ttl_seconds: int) -> bool:
        return bool(self._call(self.client.set, code_key(digest), player_id, nx=True,
                               ex=ttl_seconds))

    def take_code(self, digest: str) -> str | None:
        found = self._call(self._take, keys=[code_key(digest)])
        return text(found) if found is not None else None
