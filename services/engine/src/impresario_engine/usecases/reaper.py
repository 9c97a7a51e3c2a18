"""The reaper: applies passed move deadlines to every game that has one, with no request needed,
and keeps the list of games (``upkeep.py``) to the games that exist.

Deadlines are otherwise applied lazily by the next request that touches a game; the moves of
searching bots (``Ruleset.searching_bots``) are made only here, so that no player's request
waits for a search or shares its worker with one. The reaper (``python -m impresario_engine reap
--loop 1``, beside ``make run`` and in its own Deployment on Kubernetes) makes sure games where
nobody is looking move on too. It reads the deadline index (a sorted set kept up to date by
every write) and settles each game found there with the same compare-and-set as any request. A
game whose settling fails is looked at again a minute later, so it cannot hold up the others.

Then it sweeps the list of games: the games that have expired leave it, and a game in play
without a move for ``ABANDON_AFTER_SECONDS`` is finished with the deadline defaults.

A pass that cannot reach Redis raises ``StoreUnavailable`` (``StoreError``): ``reap --loop``
waits the outage out and goes on (``loops.run_loop``). A pass cut off that way may leave its
claim on a game behind; the claims carry the process's name (:func:`process_owner`), so the
same process takes its own claim back at its next pass instead of waiting for it to expire.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable

from impresario_rules import Refusal

from ..config import Config
from ..store import GameStore, StoreError, StoreUnavailable, connect
from ..table.clock import next_deadline
from ..table.record import who_acts
from . import matching, ratings, upkeep
from .play import settle
from .unit import Engine, load

#: seconds before the reaper tries again a game whose deadlines it could not apply
RETRY_SECONDS = 60
#: seconds a reaper holds its claim on a game while it settles it (searches included); reapers
#: side by side skip the games another one holds (``GameStore.claim``)
CLAIM_SECONDS = 30
#: the shortest wait between two passes of ``reap --loop``: it wakes when the next game falls
#: due (a bot's think time over, a deadline), at most its loop's seconds later
MIN_WAIT_SECONDS = 0.05


_OWNER: tuple[int, str] | None = None


def process_owner() -> str:
    """The name this process's reaper passes put on their claims (one per process)."""
    global _OWNER
    if _OWNER is None or _OWNER[0] != os.getpid():
        _OWNER = (os.getpid(), uuid.uuid4().hex)
    return _OWNER[1]


def claim(store: GameStore, game_id: str, owner: str) -> bool:
    """Take the claim on a game to settle it; False when another reaper holds it. A claim of
    ``owner``'s own, left by a pass that Redis's outage cut off, is taken back."""
    if store.claim(game_id, owner, CLAIM_SECONDS):
        return True
    store.release(game_id, owner)  # only if it is ours: nobody of ours is settling it now
    return store.claim(game_id, owner, CLAIM_SECONDS)


def engine_from_env() -> Engine:
    """The engine the reaper works with: REDIS_URL's Redis, the service's settings."""
    config = Config.from_env()
    if not config.redis_url:
        raise SystemExit("REDIS_URL (or REDIS_URL_FILE) is not set")
    return Engine(GameStore(connect(config.redis_url, config.redis_timeout)), config)


def wait_seconds(engine: Engine, most: float) -> float:
    """How long ``reap --loop`` sleeps before its next pass: until the next game falls due,
    at least ``MIN_WAIT_SECONDS``, at most ``most``."""
    when = engine.store.next_due()
    if when is None:
        return most
    return min(most, max(MIN_WAIT_SECONDS, when - engine.clock()))


def reap_once(engine: Engine | None = None, limit: int = 1000, sweep: bool = True,
              beat: Callable[[], None] | None = None) -> dict[str, Any]:
    """One pass: every game whose deadline has passed is settled (the searching bots' moves
    included: only the reaper makes them), then, if ``sweep``, the list of games is swept
    (``ABANDON_AFTER_SECONDS`` applies). ``beat()`` is called after each game: the loop's
    heartbeat, which a long pass keeps beating. Returns what was done."""
    if engine is None:
        engine = engine_from_env()
    store = engine.store
    now = engine.clock()
    started = time.perf_counter()
    owner = process_owner()
    report: dict[str, Any] = {"checked": 0, "settled": 0, "moves": 0, "errors": 0,
                              "missing": 0, "claimed": 0}
    for game_id in store.due_games(now, limit):
        if not claim(store, game_id, owner):
            report["claimed"] += 1  # another reaper is settling it
            continue
        try:
            settle_due(engine, game_id, now, report)
        finally:
            store.release(game_id, owner)
        if beat is not None:
            beat()
    try:
        report["ratings"] = ratings.rate_waiting(store, engine.config, now)
    except (Refusal, StoreError) as exc:
        report["ratings"] = {"error": str(exc)}
        report["errors"] += 1
    try:
        report["matching"] = matching.tick_all(engine)
    except (Refusal, StoreError) as exc:
        report["matching"] = {"error": str(exc)}
        report["errors"] += 1
    if sweep:
        try:
            lists = upkeep.sweep(engine, limit, abandon=True)
        except (Refusal, StoreUnavailable) as exc:
            lists = {"error": str(exc)}
            report["errors"] += 1
        report["lists"] = lists
    report["seconds"] = round(time.perf_counter() - started, 3)
    return report


def settle_due(engine: Engine, game_id: str, now: float, report: dict[str, Any]) -> None:
    """Settle one game of the deadline index, counting what was done in ``report``."""
    store = engine.store
    report["checked"] += 1
    try:
        loaded = load(engine, game_id)
    except Refusal:
        store.unschedule(game_id)  # expired or deleted
        report["missing"] += 1
        return
    try:
        after, events = settle(engine, game_id, search=True)
    except (Refusal, StoreUnavailable):
        report["errors"] += 1
        try:  # out of the way of the other due games until the next passes
            store.schedule(game_id, now + RETRY_SECONDS)
        except StoreUnavailable:
            pass
        return
    if events:
        report["settled"] += 1
        report["moves"] += len(after.doc["moves"]) - len(loaded.doc["moves"])
    else:  # the index was stale: put the right time back, or drop the game from it
        deadline = next_deadline(after.doc, after.ruleset,
                                 who_acts(after.ruleset, after.doc["state"]))
        if deadline is None:
            store.unschedule(game_id)
        elif deadline <= now:
            # due, yet nothing the engine may play changed it (``record.advance``): a fault of
            # the rules, which every pass would meet again at once. A minute later instead.
            report["errors"] += 1
            store.schedule(game_id, now + RETRY_SECONDS)
        else:
            store.schedule(game_id, deadline)
