"""Rating finished games, exactly once (table/ratings.py says which and how; store/ratings.py
where). The write that finishes a rated game first enters it in the ratings queue, then, once
saved, rates it; the reaper rates whatever a request left in the queue (its pod died, Redis
went away between the two). Rating a game is one Lua script in the ruleset's slot that checks
the game's mark and each player's version: two pods rating one game apply it once, two pods
rating two games of the same players each apply theirs on the other's result (the loser of the
compare-and-set reads again)."""

from __future__ import annotations

import logging
from typing import Any

import orjson

from impresario_rules import RULESETS

from ..store import GameStore, StoreError, StoreUnavailable
from ..table.clock import FINISHED
from ..table.players import BOT
from ..table.ratings import (Change, bot_player_id, bot_player_name, placings, rate,
                             rateable, seat_player)
from ..table.views import ranked

log = logging.getLogger("impresario_engine.ratings")

#: recent results a player's profile keeps per ruleset
KEEP_RECENT = 20
#: seconds an entry of the queue is left to the request that made it before the reaper rates it
GRACE_SECONDS = 30
#: an entry whose game is still in play this long after is a finishing write that was lost
STALE_SECONDS = 300
ATTEMPTS = 20


def about_to_finish(store: GameStore, doc: dict[str, Any], now: float) -> bool:
    """Before the write that finishes ``doc``: enter it in the queue when it is rated."""
    if not rateable(doc):
        return False
    store.ratings.enqueue(doc["id"], now)
    return True


def finished(store: GameStore, config: Any, doc: dict[str, Any]) -> None:
    """After the write that finished a rated game: rate it now (the reaper does, if this
    fails)."""
    try:
        rate_game(store, config, doc)
    except Exception:  # noqa: BLE001 - the move is saved: whatever failed, the reaper retries
        log.exception("rating finished game %s failed; the reaper rates it", doc["id"])


def rate_game(store: GameStore, config: Any, doc: dict[str, Any]) -> list[Change]:
    """Apply the finished game's ratings unless they are applied already; the changes made
    (none when rated before, by anyone)."""
    game_id, ruleset = doc["id"], RULESETS[doc["ruleset"]]
    book = store.ratings
    aliases = dict(ruleset.bot_aliases)
    players = {seat: seat_player(entry, aliases) for seat, entry in enumerate(doc["seats"])}
    levels = {aliases.get(e["bot"], e["bot"]) for e in doc["seats"]
              if e.get("bot") and not e.get("player") and not e.get("left")}
    store.players.put_new_records({  # the bot levels' players, the first time they play
        bot_player_id(level): {"name": bot_player_name(level), "kind": BOT,
                               "created": repr(doc["created"])} for level in levels})
    # a player removed since (DELETE /v1/me) plays their seat's side, and is rated no more
    gone = {pid for pid in {e["player"] for e in doc["seats"] if e.get("player")}
            if (store.players.get(pid) or {"gone": "1"}).get("gone")}
    sides, ranks = placings(ranked(ruleset, ruleset.score(doc["state"])))
    mark = orjson.dumps({"finished": doc["updated"]}).decode()
    changes: list[Change] = []
    for _ in range(ATTEMPTS):
        read = book.read(ruleset.name, {p for p in players.values() if p})
        current = {pid: (float(h["mu"]), float(h["sigma"])) for pid, h in read.items() if h}
        changes = rate(sides, ranks, players, current)  # type: ignore[arg-type]
        rows = []
        for change in changes:
            if change.player in gone:
                continue
            before, after = Change.displayed(change.before), Change.displayed(change.after)
            # a private game's id is its players' (and its spectator link's) only
            shown_id = None if doc["settings"].get("private") else game_id
            result = {"game": shown_id, "ruleset": ruleset.name, "finished": doc["updated"],
                      "seat": change.seat, "rank": change.rank, "players": doc["players"],
                      "rating": round(after, 3), "change": round(after - before, 3)}
            rows.append((change.player, read[change.player].get("v", "0"), change.after[0],
                         change.after[1], after, orjson.dumps(result).decode()))
        applied = book.apply(ruleset.name, game_id, mark, config.finished_ttl + 86400,
                             config.leaderboard_min_games, KEEP_RECENT, rows)
        if applied >= 0:
            book.dequeue(game_id)
            return changes if applied == 1 else []
    raise StoreError(f"the ratings of game {game_id} kept changing under its update")


def rate_waiting(store: GameStore, config: Any, now: float, limit: int = 100
                 ) -> dict[str, int]:
    """The reaper's part: rate the queue's games that their requests left behind."""
    report = {"rated": 0, "dropped": 0}
    for game_id in store.ratings.waiting(now - GRACE_SECONDS, limit):
        try:
            _rate_waiting(store, config, now, game_id, report)
        except StoreUnavailable:
            raise  # Redis is away: the loop waits it out
        except Exception:  # noqa: BLE001 - one game's failure holds up no other
            log.exception("rating finished game %s failed; tried again next pass", game_id)
            report["failed"] = report.get("failed", 0) + 1
    return report


def _rate_waiting(store: GameStore, config: Any, now: float, game_id: str,
                  report: dict[str, int]) -> None:
    _version, doc, _idem, _rematch = store.read_game(game_id)
    if doc is None:
        store.ratings.dequeue(game_id)  # expired before anyone rated it: nothing to rate
        report["dropped"] += 1
    elif doc["status"] != FINISHED or not rateable(doc):
        queued = store.ratings.queued_at(game_id)
        if queued is not None and queued < now - STALE_SECONDS:
            store.ratings.dequeue(game_id)  # a finishing write that never landed
            report["dropped"] += 1
    elif rate_game(store, config, doc):
        report["rated"] += 1
