"""Players' use cases: an anonymous player made, a platform's user met, who a player credential
stands for, a player moved to another device by a one-time code."""

from __future__ import annotations

from typing import Any, Callable

import orjson

from impresario_rules import RULESETS

from ..store import GameStore
from ..table import names
from ..table.clock import FINISHED, PLAYING
from ..table.errors import NOT_FOUND, UNAUTHENTICATED, Refused
from ..table.ratings import rateable
from ..table.seating import claimed
from ..table.views import game_view
from . import seats
from .ratings import KEEP_RECENT
from .unit import Engine
from ..table.players import (ANONYMOUS, DEVICE_CODE_SECONDS, PLATFORM, Player, digest,
                             new_credential, new_device_code, new_player_id,
                             platform_player_id)


def _issue(store: GameStore, player: Player) -> str:
    token = new_credential()
    store.players.put_credential(digest(token), player.id)
    return token


def create(store: GameStore, name: str, clock: Callable[[], float]) -> tuple[Player, str]:
    """A new anonymous player named ``name`` and its credential (shown once)."""
    player = Player(new_player_id(), names.normalise(name), ANONYMOUS, round(clock(), 3))
    store.players.put(player.id, {"name": player.name, "kind": ANONYMOUS,
                                  "created": repr(player.created)})
    return player, _issue(store, player)


def of_credential(store: GameStore, token: str) -> Player:
    """The player a player credential stands for (401 ``invalid_player_token`` otherwise)."""
    player_id = store.players.holder(digest(token))
    record = store.players.get(player_id) if player_id else None
    if record is None or record.get("gone"):
        raise Refused("invalid_player_token", UNAUTHENTICATED,
                      "the bearer token is not a player's credential")
    return Player.of(player_id, record)


def of_platform(store: GameStore, issuer: str, subject: str, name: str | None,
                clock: Callable[[], float]) -> Player:
    """The player a host platform's user is; made the first time the user is seen, named by
    the token's name claim (else "Player"), and kept as it was made afterwards."""
    player_id = platform_player_id(issuer, subject)
    record = store.players.get(player_id)
    if record is None or record.get("gone"):
        try:
            shown = names.normalise(name or "Player")
        except Refused:
            shown = "Player"  # a platform's name the engine would refuse: the player renames
        fields = {"name": shown, "kind": PLATFORM, "issuer": issuer, "subject": subject,
                  "created": repr(round(clock(), 3))}
        if record is None:
            store.players.put_new_fields(player_id, fields)
        else:  # removed by DELETE /v1/me, back: a new player under the same id
            store.players.forget(player_id, fields)
        record = store.players.get(player_id) or {}
    return Player.of(player_id, record)


def rename(store: GameStore, player: Player, name: str) -> Player:
    """The player's display name changed (the tables they sat at keep the names they sat
    under)."""
    shown = names.normalise(name)
    store.players.put(player.id, {"name": shown})
    return Player(player.id, shown, player.kind, player.created)


def device_code(store: GameStore, player: Player, clock: Callable[[], float]
                ) -> tuple[str, float]:
    """A one-time code that gives ``player`` to another device, and when it stops working."""
    while True:
        code = new_device_code()
        if store.players.put_code(digest(code), player.id, DEVICE_CODE_SECONDS):
            return code, round(clock() + DEVICE_CODE_SECONDS, 3)


def claim(store: GameStore, code: str) -> tuple[Player, str]:
    """The player a device code gives, with a credential of this device's own; the code is
    used up (401 ``invalid_device_code`` when unknown, used or expired)."""
    player_id = store.players.take_code(digest(code.strip().upper()))
    record = store.players.get(player_id) if player_id else None
    if record is None or record.get("gone"):
        raise Refused("invalid_device_code", UNAUTHENTICATED,
                      "the code is unknown, used already or expired")
    player = Player.of(player_id, record)
    return player, _issue(store, player)


# ---------------------------------------------------------------------------- their games
#: an entry of a player's games is written before its game's write: one younger than this that
#: finds no game naming the player may be a creation or a join still on its way, and is kept
SETTLE_SECONDS = 60


def involved(doc: dict[str, Any], player_id: str) -> tuple[int | None, bool] | None:
    """(the player's seat, whether the player hosts) at this game; None: neither."""
    seat = next((i for i, s in enumerate(doc["seats"])
                 if s.get("player") == player_id and claimed(s)), None)
    hosts = doc.get("host_player") == player_id
    return None if seat is None and not hosts else (seat, hosts)


def my_games(engine: Engine, player: Player, status: str | None, before: float | None,
             limit: int) -> tuple[list[dict[str, Any]], float | None]:
    """A page of the player's games, newest first (``status``: only those), and the cursor of
    the next page (None: no more). Entries whose game is gone, or no longer names the player
    (a join that was refused), are dropped on the way."""
    store, now = engine.store, engine.clock()
    items: list[dict[str, Any]] = []
    cursor = before
    while len(items) < limit:
        batch = store.players.games(player.id, cursor, limit)
        if not batch:
            return items, None
        stale = []
        for game_id, when in batch:
            cursor = when
            version, doc, _idem, rematch = store.read_game(game_id)
            found = involved(doc, player.id) if doc is not None else None
            if found is None:
                if when < now - SETTLE_SECONDS:  # not a creation or a join on its way
                    stale.append(game_id)
                continue
            if status is None or doc["status"] == status:
                items.append(_item(doc, version, rematch, found, when, now))
                if len(items) == limit:
                    break
        store.players.drop_games(player.id, stale)
    return items, cursor


def _item(doc: dict[str, Any], version: int, rematch: str | None,
          found: tuple[int | None, bool], joined: float, now: float) -> dict[str, Any]:
    seat, hosts = found
    view = game_view(doc, version, rematch, seat, now)
    mine = [e for e in view.get("pending", ()) if e["seat"] == seat] if seat is not None else []
    finished = doc["status"] == FINISHED
    return {"id": doc["id"], "ruleset": doc["ruleset"], "status": doc["status"],
            "seat": seat, "host": hosts, "name": doc["seats"][seat]["name"]
            if seat is not None else None,
            "seats_taken": view["seats_taken"], "seats_total": view["seats_total"],
            "your_move": bool(mine) and doc["status"] == PLAYING,
            "deadline": mine[0].get("deadline") if mine else None,
            "won": seat in RULESETS[doc["ruleset"]].score(doc["state"])["winners"]
            if finished and seat is not None else None,
            "rated": rateable(doc), "rematch": rematch, "created": doc["created"],
            "updated": doc["updated"], "joined": round(joined, 6)}


def resume(engine: Engine, player: Player, game_id: str) -> dict[str, Any]:
    return seats.resume(engine, game_id, player.id)


# ---------------------------------------------------------------------------- ratings
def profile(engine: Engine, player_id: str) -> dict[str, Any]:
    """What anyone may see of a player: name, kind, ratings per ruleset, latest results."""
    store = engine.store
    record = store.players.get(player_id)
    if record is None or record.get("gone"):
        raise Refused("player_not_found", NOT_FOUND, f"there is no player {player_id!r}")
    player = Player.of(player_id, record)
    rated, recent = [], []
    for name in sorted(RULESETS):
        found = store.ratings.read(name, [player_id])[player_id]
        if not found:
            continue
        mu, sigma = float(found["mu"]), float(found["sigma"])
        rated.append({"ruleset": name, "rating": round(mu - 3 * sigma, 3), "mu": round(mu, 3),
                      "sigma": round(sigma, 3), "games": int(found.get("games", 0))})
        recent += [orjson.loads(r) for r in store.ratings.recent(name, player_id, KEEP_RECENT)]
    recent.sort(key=lambda r: r["finished"], reverse=True)
    return {"player": {"id": player.id, "name": player.name, "kind": player.kind},
            "ratings": rated, "games": sum(r["games"] for r in rated),
            "recent": recent[:KEEP_RECENT]}


def leaderboard(engine: Engine, ruleset: str, start: int, limit: int
                ) -> tuple[list[dict[str, Any]], int]:
    """A page of a ruleset's leaderboard from place ``start`` (0 the best), and how many
    players it has."""
    if ruleset not in RULESETS:
        raise Refused("ruleset_not_found", NOT_FOUND, f"there is no ruleset {ruleset!r}; "
                      f"available: {', '.join(sorted(RULESETS))}")
    store = engine.store
    page, total = store.ratings.board(ruleset, start, limit)
    ratings = store.ratings.read(ruleset, [pid for pid, _ in page])
    rows = []
    records = store.players.get_many([pid for pid, _ in page])
    for (place, (pid, shown)), record in zip(enumerate(page, start + 1), records):
        if record is None or record.get("gone"):
            continue  # removed a moment ago (DELETE /v1/me drops it from the board too)
        found = ratings[pid]
        rows.append({"place": place, "player": {"id": pid, "name": record.get("name", ""),
                                                "kind": record.get("kind", ANONYMOUS)},
                     "rating": round(shown, 3), "games": int(found.get("games", 0))})
    return rows, total


def forget(engine: Engine, player: Player) -> None:
    """``DELETE /v1/me``: the player's name, credentials, games list and ratings are removed;
    the leaderboards drop them. Their seats in games stay (a game in play goes on: the device
    that holds the seat's token still plays it) but no longer belong to anyone who can resume
    them; their results in other players' profiles name no one."""
    store = engine.store
    store.matching.leave(player.id)
    store.matching.forget_ticket(player.id)
    for name in sorted(RULESETS):
        store.ratings.forget(name, player.id)
    store.push.forget(player.id)
    store.players.forget(player.id, {"gone": "1", "kind": player.kind})
