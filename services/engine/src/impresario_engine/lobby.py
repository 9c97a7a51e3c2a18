"""The list of games (``GET /v1/games``): public games by status, ruleset and bot seats,
newest first, a page at a time; and its upkeep (games that expire or are abandoned).

Where it lives (``store/lobby.py``): one sorted set per (status, ruleset, has bots) of public
games, ordered by creation, in a Redis Cluster slot of its own; each game's ``lobby`` field
(a summary of what the list shows: seats and names, options, times) written by the game's own
compare-and-set, in the game's slot. A Lua script cannot touch both slots on a Cluster, so the
lists are not written in the same step as the game. They stay right this way:

1. **Announce first.** A write that moves a game to another list (creation, a start, a finish,
   a bot seat coming or going) first adds the game's entry to its new list and records the
   version it is writing (``lobby_note.lua``), then writes the game. So the list of every saved
   version of a game holds the game: at worst a game is in a list it no longer belongs to as
   well (the writer lost its compare-and-set, or died before the old entry was dropped).
2. **Check on read.** A page reads each candidate's summary from the game itself (same version
   as the document: one write) and shows it only if the game's status, ruleset, bot seats and
   privacy are the list's. What shows is always the game as saved.
3. **Repair without racing a writer.** An entry in the wrong list is moved (``lobby_fix.lua``)
   only if no version newer than the one read has been announced; otherwise a writer is moving
   it and the repair is skipped. Proof that a game is never missing from the list of its
   current version C: let W <= C be the first version of the run of versions in that list.
   W's writer added the entry before writing W. A later removal from that list needs a read
   version D with announced <= D and a list for D other than C's. Announced >= W then, so
   W <= D; D <= C because versions only grow; and every version from W to C is in C's list,
   so D's list is C's: no removal. (A removal that happened before W's announcement is undone
   by it.)
4. **Expire with the games.** Each game has a due time (its expiry, or when it would count as
   abandoned) in ``lobby:{lobby}:due``. The reaper, and every creation for a couple of entries,
   look at the games that are due: a game that is gone leaves every list; a game in play
   without a move for ``ABANDON_AFTER_SECONDS`` is finished by the reaper (its seats play the
   deadline defaults); any other gets its right due time. A game gone before its due time is a
   creation still on its way and is left alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import re
from typing import TYPE_CHECKING, Any

import orjson

from .api.errors import ApiError
from impresario_rules import RULESETS
from .store import StoreUnavailable
from .store.lobby import list_key

if TYPE_CHECKING:
    from .service import GameService, Loaded

log = logging.getLogger("impresario_engine.lobby")

OPEN, PLAYING, FINISHED = "open", "playing", "finished"
STATUSES = (OPEN, PLAYING, FINISHED)
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
#: pages of candidates one request reads at most before answering (a page may then be short;
#: its ``next`` goes on from where it stopped)
MAX_ROUNDS = 8
#: a cursor is good for this long (a page boundary older than that is stale: start again)
CURSOR_SECONDS = 3600
CURSOR_FORMAT = "1"
_MEMBER = re.compile(r"^\d{16}:[A-Za-z0-9_-]{1,32}$")


def _lists(statuses, rulesets=None, bots=(False, True), private: bool = True) -> list[str]:
    """The list keys of these statuses, rulesets (None: every one) and bots, and with
    ``private`` the private games' list of each status."""
    keys = [list_key(s, r, b, False) for s in statuses
            for r in (rulesets if rulesets is not None else sorted(RULESETS)) for b in bots]
    return keys + ([list_key(s, "", False, True) for s in statuses] if private else [])


#: every list a game may be in; the lists of games open or in play (the games-live gauge)
EVERY_LIST = _lists(STATUSES)
LIVE_LISTS = _lists((OPEN, PLAYING))
#: entries a creation looks at for expired games (so the lists shrink where they grow)
SWEEP_ON_CREATE = 2


# ---------------------------------------------------------------------------- what is listed
def member(game_id: str, created: float) -> str:
    return f"{int(round(created * 1_000_000)):016d}:{game_id}"


def has_bots(seats: list[dict[str, Any]]) -> bool:
    return any(s.get("bot") for s in seats)


def list_of(doc: dict[str, Any]) -> str:
    """The list a game document belongs to."""
    return list_key(doc["status"], doc["ruleset"], has_bots(doc["seats"]),
                    bool(doc["settings"].get("private")))


def summary(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """What the list shows of a game, kept in the game's hash by each write (compact keys)."""
    ruleset = RULESETS[doc["ruleset"]]
    options = ruleset.lobby_options(doc["state"], doc["options"])
    for name in ("move_seconds", "bot_seconds"):  # the service's settings a joiner cares about
        seconds = doc["settings"].get(name)
        if seconds is not None:
            options[name] = seconds
    return {
        "v": version, "id": doc["id"], "r": doc["ruleset"], "s": doc["status"],
        "p": bool(doc["settings"].get("private")), "n": doc["players"],
        "c": doc["created"], "u": doc["updated"], "o": options,
        # per seat: name, bot, until when it is held for a rematch's player (0: not held)
        "seats": [[s.get("name"), s.get("bot"), 0 if s.get("token") else s.get("until", 0)]
                  for s in doc["seats"]],
    }


def _summary_list(sm: dict[str, Any]) -> str:
    return list_key(sm["s"], sm["r"], any(bot for _n, bot, _u in sm["seats"]), sm["p"])


def item(sm: dict[str, Any], now: float) -> dict[str, Any]:
    """A listed game, as ``GET /v1/games`` shows it."""
    seats = []
    for i, (name, bot, until) in enumerate(sm["seats"]):
        held = bool(until) and until > now
        if name is not None and (bot or held or not until):
            seats.append({"seat": i, "name": name, "bot": bot, "held": held})
    return {
        "id": sm["id"], "ruleset": sm["r"], "status": sm["s"], "seats_taken": len(seats),
        "seats_total": sm["n"], "seats": seats, "options": sm["o"],
        "has_bots": any(s["bot"] for s in seats), "created": sm["c"], "updated": sm["u"],
    }


# ---------------------------------------------------------------------------- the lists
class Lobby:
    def __init__(self, service: "GameService") -> None:
        self.service = service
        self.index = service.store.lobby

    @property
    def config(self):
        return self.service.config

    def due_time(self, status: str, updated: float) -> float:
        """When the game leaves its list: when Redis lets it expire, or for a game in play
        with ABANDON_AFTER_SECONDS, when the reaper may finish it."""
        ttl = self.service._ttl(status)
        abandon = self.config.abandon_after
        return updated + (min(abandon, ttl) if status == PLAYING and abandon else ttl)

    # -- the write path (GameService._save)
    def announce(self, before: dict[str, Any] | None, doc: dict[str, Any], version: int) -> None:
        """Before a write: enter the game in the list the write gives it, when that changes."""
        target = list_of(doc)
        if before is not None and list_of(before) == target:
            return
        self.index.note(doc["id"], version, target, member(doc["id"], doc["created"]),
                        self.due_time(doc["status"], doc["updated"]))

    def forget(self, game_id: str, created: float) -> None:
        """A game deleted on purpose (a rematch that lost its race) leaves every list now."""
        self.index.fix(game_id, member(game_id, created), 0, None, 0, self.service.clock(),
                       EVERY_LIST, force=True)

    def live_count(self) -> int:
        """Games open or in play, private ones included (the games-live gauge)."""
        return self.index.count(LIVE_LISTS)

    # -- reading
    def _summaries(self, game_ids: list[str]) -> dict[str, dict[str, Any] | None]:
        out: dict[str, dict[str, Any] | None] = {}
        stale = []
        for gid, (version, raw) in zip(game_ids, self.service.store.summaries(game_ids)):
            if version is None:
                out[gid] = None
                continue
            sm = orjson.loads(raw) if raw else None
            if sm is None or sm.get("v") != version:  # written by a version without summaries
                stale.append(gid)
                continue
            out[gid] = sm
        for gid in stale:
            try:
                loaded = self.service.load(gid)
            except ApiError:
                out[gid] = None
                continue
            out[gid] = summary(loaded.doc, loaded.version)
        return out

    def _repair(self, game_id: str, entry: str, sm: dict[str, Any] | None, now: float) -> None:
        try:
            if sm is None:
                self.index.fix(game_id, entry, 0, None, 0, now, EVERY_LIST)
            else:
                self.index.fix(game_id, entry, sm["v"], _summary_list(sm),
                               self.due_time(sm["s"], sm["u"]), now, EVERY_LIST)
        except StoreUnavailable as exc:  # a repair can wait for the next reader
            log.warning("repairing the list entry of game %s failed: %s", game_id, exc)

    def page(self, ruleset: str | None, status: str | None, bots: bool | None, limit: int,
             after: str | None) -> tuple[list[dict[str, Any]], str | None]:
        """Up to ``limit`` public games matching the filters, newest first, after the member
        ``after``; and the member to go on from (None: nothing more)."""
        keys = _lists([status] if status else STATUSES, [ruleset] if ruleset else None,
                      [bots] if bots is not None else (False, True), private=False)
        now = self.service.clock()
        found: list[tuple[str, dict[str, Any]]] = []
        bound = after
        want = limit + 1  # one more than the page: whether there is a next page
        for _ in range(MAX_ROUNDS):
            parts = self.index.page(keys, bound, want)
            where: dict[str, list[str]] = {}
            for key, entries in zip(keys, parts):
                for entry in entries:
                    where.setdefault(entry, []).append(key)
            # seen everything below the bound: every list gave less than asked, all of it kept
            exhausted = len(where) <= want and all(len(p) < want for p in parts)
            entries = sorted(where, reverse=True)[:want]
            ids = [e.split(":", 1)[1] for e in entries]
            summaries = self._summaries(list(dict.fromkeys(ids)))
            for entry, gid in zip(entries, ids):
                sm = summaries.get(gid)
                if sm is not None and member(gid, sm["c"]) != entry:
                    continue  # not this game's entry (another creation under the same id)
                right = _summary_list(sm) if sm is not None else None
                if any(key != right for key in where[entry]):
                    self._repair(gid, entry, sm, now)
                if right in where[entry]:
                    found.append((entry, item(sm, now)))  # type: ignore[arg-type]
            if len(found) > limit:
                return [i for _m, i in found[:limit]], found[limit - 1][0]
            if exhausted:
                return [i for _m, i in found], None
            bound = entries[-1]
        # many stale entries in a row: answer with what there is, and go on from there
        return [i for _m, i in found], bound

    # -- upkeep
    def sweep(self, limit: int, abandon: bool) -> dict[str, int]:
        """Look at the games that are due: the gone leave the lists; with ``abandon``, games in
        play without a move for ABANDON_AFTER_SECONDS are finished with the deadline
        defaults; the others get their right due time."""
        now = self.service.clock()
        report = {"due": 0, "expired": 0, "abandoned": 0, "rescheduled": 0}
        ids = self.index.due(now, limit)
        if not ids:
            return report
        report["due"] = len(ids)
        summaries = self._summaries(ids)
        every = EVERY_LIST
        for gid in ids:
            sm = summaries.get(gid)
            if sm is None:
                report["expired"] += self.index.fix(gid, "", 0, None, 0, now, every)
                continue
            idle = self.config.abandon_after
            if abandon and idle and sm["s"] == PLAYING and sm["u"] + idle <= now:
                if self.abandon(gid):
                    report["abandoned"] += 1
                    continue
            due = self.due_time(sm["s"], sm["u"])
            if not abandon:  # left for the reaper: out of the way of the next creations
                due = max(due, now + 60)
            report["rescheduled"] += self.index.fix(
                gid, member(gid, sm["c"]), sm["v"], _summary_list(sm), due, now, every)
        return report

    def abandon(self, game_id: str) -> bool:
        """Finish a game in play nobody has moved in for ABANDON_AFTER_SECONDS: an event
        ``game_abandoned``, then every seat plays what the engine plays for it when its time
        runs out (bot seats their bot) until the game is over. False if it moved meanwhile."""
        from .service import _Done

        svc = self.service

        def step(loaded: "Loaded"):
            doc = loaded.doc
            now = svc.clock()
            idle = now - doc["updated"]
            if doc["status"] != PLAYING or idle < self.config.abandon_after:
                return _Done(False)
            ruleset = loaded.ruleset
            events: list[dict[str, Any]] = [{"type": "game_abandoned",
                                             "idle_seconds": int(idle)}]
            new = dict(doc)
            new["abandoned"] = True
            for _ in range(20_000):  # a game is far shorter; this only guards against a loop
                if new["status"] == FINISHED:
                    break
                new = svc._engine_move(new, ruleset, min(ruleset.pending(new["state"])), events)
            return new, events, True, None

        return bool(svc._transact(game_id, step))


# ---------------------------------------------------------------------------- cursors
def _tag(ruleset: str | None, status: str | None, bots: bool | None) -> str:
    raw = f"{ruleset or ''}|{status or ''}|{'' if bots is None else int(bots)}"
    return hashlib.sha256(raw.encode()).hexdigest()[:8]


def encode_cursor(entry: str, ruleset: str | None, status: str | None, bots: bool | None,
                  now: float) -> str:
    raw = f"{CURSOR_FORMAT}|{_tag(ruleset, status, bots)}|{int(now)}|{entry}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, ruleset: str | None, status: str | None, bots: bool | None,
                  now: float) -> str:
    """The member a cursor goes on from; 400 ``invalid_cursor`` for anything this listing did
    not hand out (or handed out for other filters), 400 ``cursor_expired`` once it is stale."""
    bad = ApiError(400, "invalid_cursor", "the cursor is not one this listing handed out: "
                   "follow the `next` link of a page, or start again without a cursor")
    if len(cursor) > 200 or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor):
        raise bad
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    parts = raw.split("|")
    if len(parts) != 4 or parts[0] != CURSOR_FORMAT or not parts[2].isdigit() \
            or not _MEMBER.match(parts[3]):
        raise bad
    if parts[1] != _tag(ruleset, status, bots):
        raise ApiError(400, "invalid_cursor", "the cursor belongs to a listing with other "
                       "filters: keep the filters of the page it came from")
    issued = int(parts[2])
    if not now - CURSOR_SECONDS <= issued <= now + 60:
        raise ApiError(400, "cursor_expired", f"the cursor is stale (more than "
                       f"{CURSOR_SECONDS // 60} minutes old): start again from the first page")
    return parts[3]
