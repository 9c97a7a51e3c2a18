"""The reaper: applies passed move deadlines to every game that has one, with no request needed.

Deadlines are otherwise applied lazily by the next request that touches a game; the reaper
(``python -m impresario_engine reap``, run by a Kubernetes CronJob) makes sure games where nobody
is looking move on too. It reads the deadline index (a sorted set kept up to date by every
write) and settles each game found there with the same compare-and-set as any request.
"""

from __future__ import annotations

import time
from typing import Any

from .api.errors import ApiError
from .config import Config
from .service import GameService
from .store import GameStore, StoreUnavailable, connect


def reap_once(service: GameService | None = None, limit: int = 1000) -> dict[str, Any]:
    if service is None:
        config = Config.from_env()
        if not config.redis_url:
            raise SystemExit("REDIS_URL is not set")
        service = GameService(GameStore(connect(config.redis_url, config.redis_timeout)), config)
    store = service.store
    now = service.clock()
    started = time.perf_counter()
    report = {"checked": 0, "settled": 0, "moves": 0, "errors": 0, "missing": 0}
    for game_id in store.due_games(now, limit):
        report["checked"] += 1
        try:
            loaded = service.load(game_id)
        except ApiError:
            store.unschedule(game_id)  # expired or deleted
            report["missing"] += 1
            continue
        try:
            after, events = service.settle(game_id)
        except (ApiError, StoreUnavailable):
            report["errors"] += 1
            continue
        if events:
            report["settled"] += 1
            report["moves"] += len(after.doc["moves"]) - len(loaded.doc["moves"])
        else:  # the index was stale: put the right time back, or drop the game from it
            deadline = service._next_deadline(after.doc)
            if deadline is None:
                store.unschedule(game_id)
            else:
                store.schedule(game_id, deadline)
    report["seconds"] = round(time.perf_counter() - started, 3)
    return report
