"""The Redis side of the list of games (the lobby): which game is in which list, and when to
look at each game again. What goes in them, and why they stay right, is ``lobby.py``'s.

- ``lobby:{lobby}:<status>:<ruleset>:<0|1>``: a sorted set per status, ruleset and "has bot
  seats" of the public games; ``lobby:{lobby}:private:<status>`` the private games (never
  listed: they count for the games-live gauge). Every member scores 0 and is
  ``<created, microseconds, 16 digits>:<game id>``, so the lexicographic order is the order of
  creation and a page is one ``ZREVRANGEBYLEX`` from a bound: O(log N + page).
- ``lobby:{lobby}:versions``: game id -> ``"<highest version announced> <member>"``.
- ``lobby:{lobby}:due``: game id -> when to look at the game again (its expiry, or when it
  would count as abandoned): what the sweeper reads.

The hash tag ``{lobby}`` puts every one of these keys in one Redis Cluster slot, so the scripts
that change several of them are atomic there too. A game's own keys are in its own slot:
nothing here is written in the same step as the game (see ``lobby.py`` for why that is safe).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Callable, Iterable

PREFIX = "lobby:{lobby}:"
VERSIONS = PREFIX + "versions"
DUE = PREFIX + "due"


def _lua(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def list_key(status: str, ruleset: str, bots: bool, private: bool) -> str:
    if private:
        return f"{PREFIX}private:{status}"
    return f"{PREFIX}{status}:{ruleset}:{int(bots)}"


class LobbyIndex:
    NOTE = _lua("lobby_note.lua")
    FIX = _lua("lobby_fix.lua")
    PAGE = _lua("lobby_page.lua")

    def __init__(self, client: Any, call: Callable[..., Any]) -> None:
        self.client = client
        self._call = call  # GameStore._call: Redis failures become StoreUnavailable
        self._note = client.register_script(self.NOTE)
        self._fix = client.register_script(self.FIX)
        self._page = client.register_script(self.PAGE)

    def note(self, game_id: str, version: int, key: str, member: str, due: float) -> None:
        self._call(self._note, keys=[VERSIONS, DUE, key], args=[game_id, version, member, due])

    def fix(self, game_id: str, member: str, seen: int, right: str | None, due: float,
            now: float, every_list: list[str], force: bool = False) -> bool:
        """Move the entry to ``right`` (None: the game is gone; remove it everywhere)."""
        keys = [VERSIONS, DUE, *every_list]
        index = 0 if right is None else keys.index(right) + 1  # Lua counts from 1
        return bool(self._call(self._fix, keys=keys, args=[
            game_id, member, seen, index, due, now, "1" if force else "0"]))

    def page(self, keys: list[str], after: str | None, count: int) -> list[list[str]]:
        """Up to ``count`` members of each list, newest first, below ``after`` (exclusive)."""
        found = self._call(self._page, keys=keys,
                           args=["+" if after is None else "(" + after, count])
        return [[m.decode() if isinstance(m, bytes) else m for m in part] for part in found]

    def due(self, now: float, limit: int) -> list[str]:
        ids = self._call(self.client.zrangebyscore, DUE, "-inf", now, start=0, num=limit)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]

    def count(self, keys: Iterable[str]) -> int:
        def run():
            pipe = self.client.pipeline(transaction=False)
            for key in keys:
                pipe.zcard(key)
            return sum(int(n) for n in pipe.execute())

        return int(self._call(run))
