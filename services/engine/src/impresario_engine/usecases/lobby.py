"""The lobby: a page of the list of games (``GET /v1/games``), read from the lists in Redis and
checked against each game's own summary (``table/listing.py`` says why the lists stay right),
and the lists' repairs and counts."""

from __future__ import annotations

import logging
from typing import Any

import orjson

from ..store import StoreUnavailable
from ..table import listing
from ..table.errors import Refused
from .unit import Engine, due_time, load

log = logging.getLogger("impresario_engine.lobby")

#: pages of candidates one request reads at most before answering (a page may then be short;
#: its ``next`` goes on from where it stopped)
MAX_ROUNDS = 8


def summaries(engine: Engine, game_ids: list[str]) -> dict[str, dict[str, Any] | None]:
    """Each game's summary as its latest version wrote it (None: the game is gone)."""
    out: dict[str, dict[str, Any] | None] = {}
    stale = []
    for gid, (version, raw) in zip(game_ids, engine.store.summaries(game_ids)):
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
            loaded = load(engine, gid)
        except Refused:
            out[gid] = None
            continue
        out[gid] = listing.summary(loaded.doc, loaded.version)
    return out


def repair(engine: Engine, game_id: str, entry: str, sm: dict[str, Any] | None,
           now: float) -> None:
    """Move a game's entry to the list its summary says (or out of every list: it is gone)."""
    index = engine.store.lobby
    try:
        if sm is None:
            index.fix(game_id, entry, 0, None, 0, now, listing.EVERY_LIST)
        else:
            index.fix(game_id, entry, sm["v"], listing.summary_list(sm),
                      due_time(engine.config, sm["s"], sm["u"]), now, listing.EVERY_LIST)
    except StoreUnavailable as exc:  # a repair can wait for the next reader
        log.warning("repairing the list entry of game %s failed: %s", game_id, exc)


def page(engine: Engine, ruleset: str | None, status: str | None, bots: bool | None,
         limit: int, after: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """Up to ``limit`` public games matching the filters, newest first, after the member
    ``after``; and the member to go on from (None: nothing more)."""
    keys = listing.lists([status] if status else listing.STATUSES,
                         [ruleset] if ruleset else None,
                         [bots] if bots is not None else (False, True), private=False)
    now = engine.clock()
    found: list[tuple[str, dict[str, Any]]] = []
    bound = after
    want = limit + 1  # one more than the page: whether there is a next page
    for _ in range(MAX_ROUNDS):
        parts = engine.store.lobby.page(keys, bound, want)
        where: dict[str, list[str]] = {}
        for key, entries in zip(keys, parts):
            for entry in entries:
                where.setdefault(entry, []).append(key)
        # seen everything below the bound: every list gave less than asked, all of it kept
        exhausted = len(where) <= want and all(len(p) < want for p in parts)
        entries = sorted(where, reverse=True)[:want]
        ids = [e.split(":", 1)[1] for e in entries]
        found_summaries = summaries(engine, list(dict.fromkeys(ids)))
        for entry, gid in zip(entries, ids):
            sm = found_summaries.get(gid)
            if sm is not None and listing.member(gid, sm["c"]) != entry:
                continue  # not this game's entry (another creation under the same id)
            right = listing.summary_list(sm) if sm is not None else None
            if any(key != right for key in where[entry]):
                repair(engine, gid, entry, sm, now)
            if right in where[entry]:
                found.append((entry, listing.item(sm, now)))  # type: ignore[arg-type]
        if len(found) > limit:
            return [i for _m, i in found[:limit]], found[limit - 1][0]
        if exhausted:
            return [i for _m, i in found], None
        bound = entries[-1]
    # many stale entries in a row: answer with what there is, and go on from there
    return [i for _m, i in found], bound


def forget(engine: Engine, game_id: str, created: float) -> None:
    """A game deleted on purpose (a rematch that lost its race) leaves every list now."""
    engine.store.lobby.fix(game_id, listing.member(game_id, created), 0, None, 0,
                           engine.clock(), listing.EVERY_LIST, force=True)


def live_count(engine: Engine) -> int:
    """Games open or in play, private ones included (the games-live gauge)."""
    return engine.store.lobby.count(listing.LIVE_LISTS)
