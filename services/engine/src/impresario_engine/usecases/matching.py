"""Quick match (table/matching.py says who sits with whom; store/matching.py where the queues
are): a player joins a queue per ruleset and table size, and any request that looks at the
queue (the player's own, or the reaper's pass) seats the tables it makes. A table is taken
out of its queue by one Lua script, all its players or none, so two pods never seat a player
twice; its game is then made under the id the script recorded, by whichever pod gets there
(the one that took it, or any later look at the queue if that pod died): making it twice makes
it once. Each seat of a player is theirs, with a token nobody has: the player resumes it
(``POST /v1/me/games/{id}/resume``) for a seat token of their own."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from impresario_rules import RULESETS

from ..store import StoreError
from ..table import names
from ..table.access import new_game_id, new_token, token_hash
from ..table.clock import FINISHED, OPEN, split_options
from ..table.errors import CONFLICT, INVALID, NOT_FOUND, Refused
from ..table.matching import Waiting, bot_level, tables, window
from ..table.players import Player
from ..table.ratings import bot_player_id, shown
from ..table.record import start
from ..table.seating import all_claimed
from . import push
from .unit import Done, Engine, Loaded, Save, insert, transact

log = logging.getLogger("impresario_engine.matching")

#: the time per move of a quick-match game (a player who never comes back does not hold the
#: table up: the engine plays their default move); rulesets with windows of their own keep them
MOVE_SECONDS = 60


def _queue(ruleset_name: str, players: int):
    ruleset = RULESETS.get(ruleset_name)
    if ruleset is None:
        raise Refused("ruleset_not_found", NOT_FOUND, f"there is no ruleset {ruleset_name!r}; "
                      f"available: {', '.join(sorted(RULESETS))}")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise Refused("invalid_players", INVALID, f"{ruleset.title} is for "
                      f"{ruleset.min_players} to {ruleset.max_players} players, not {players}")
    return ruleset


def rating_of(engine: Engine, ruleset: str, player_id: str) -> float:
    found = engine.store.ratings.read(ruleset, [player_id])[player_id]
    rating = shown(found)
    return 0.0 if rating is None else rating


def join(engine: Engine, player: Player, ruleset_name: str, players: int,
         wait: int | None) -> dict[str, Any]:
    """Put the player in the queue (a player in another queue moves to this one; in this one
    already, keeps their place; seated at a game still on, stays there); the player's match as
    it stands."""
    ruleset = _queue(ruleset_name, players)
    config, queues = engine.config, engine.store.matching
    if wait is None:
        wait = config.match_wait_seconds
    if not 0 <= wait <= config.match_wait_max:
        raise Refused("invalid_wait", INVALID, f"wait_seconds must be from 0 to "
                      f"{config.match_wait_max}", errors={"wait_seconds": ["out of range"]})
    ticket = queues.ticket(player.id)
    if ticket is not None:  # seated a moment ago (a retry, another tab): that table stands
        _v, doc, _i, _r = engine.store.read_game(ticket["game"])
        if doc is not None and doc["status"] != FINISHED:
            return status(engine, player)
    found = queues.entry(player.id)
    if found is not None and (found["ruleset"], found["players"]) != (ruleset.name, players):
        queues.leave(player.id)
    rating = rating_of(engine, ruleset.name, player.id)
    queues.enter(player.id, ruleset.name, players, rating, {
        "ruleset": ruleset.name, "players": players, "since": round(engine.clock(), 3),
        "wait": wait, "rating": round(rating, 3), "name": player.name})
    return status(engine, player)


def leave(engine: Engine, player: Player) -> None:
    """Out of the queue (409 ``not_waiting`` when the player is not in one: seated already, or
    never there)."""
    if not engine.store.matching.leave(player.id):
        raise Refused("not_waiting", CONFLICT, "this player is in no quick-match queue (seated "
                      "already, or never queued)")


def status(engine: Engine, player: Player) -> dict[str, Any]:
    """The player's match: waiting (since when, the rating window now), or seated (the game
    and seat); 404 ``not_waiting`` when neither."""
    queues, now = engine.store.matching, engine.clock()
    finish_forming(engine)
    entry = queues.entry(player.id)
    if entry is not None:
        tick(engine, entry["ruleset"], entry["players"])
        entry = queues.entry(player.id)
    if entry is not None:
        waited = now - entry["since"]
        return {"status": "waiting", "ruleset": entry["ruleset"], "players": entry["players"],
                "since": entry["since"], "wait_seconds": entry["wait"],
                "window": round(window(waited), 3), "game": None, "seat": None}
    ticket = queues.ticket(player.id)
    if ticket is None:
        raise Refused("not_waiting", NOT_FOUND, "this player is in no quick-match queue: join "
                      "one with POST /v1/match")
    return {"status": "seated", "ruleset": ticket["ruleset"], "players": ticket["players"],
            "since": ticket["since"], "wait_seconds": ticket["wait"], "window": None,
            "game": ticket["game"], "seat": ticket["seat"]}


def tick(engine: Engine, ruleset_name: str, players: int) -> int:
    """Seat the tables the queue makes now; how many."""
    ruleset = RULESETS[ruleset_name]
    queues, now = engine.store.matching, engine.clock()
    waiting = queues.waiting(ruleset_name, players)
    if not waiting:
        return 0
    entries = {pid: entry for pid, _r, entry in waiting}
    made = 0
    for table in tables([Waiting(pid, rating, e["since"], e["wait"])
                         for pid, rating, e in waiting], players, now):
        seats: list[dict[str, Any]] = []
        looks: set[str] = set()
        for pid in table.players:
            seats.append({"player": pid, "name": _unique(entries[pid]["name"], looks)})
        if table.bots:
            mean = sum(entries[p]["rating"] for p in table.players) / len(table.players)
            level = _bot_for(engine, ruleset, mean)
            for _ in range(table.bots):
                seats.append({"bot": level, "name": _unique(f"{level.title()} bot", looks)})
        game_id = new_game_id()
        record = {"ruleset": ruleset_name, "players": players, "seats": seats,
                  "created": round(now, 3)}
        tickets = {pid: {"game": game_id, "seat": i, "ruleset": ruleset_name,
                         "players": players, "since": entries[pid]["since"],
                         "wait": entries[pid]["wait"]}
                   for i, pid in enumerate(table.players)}
        if queues.take(ruleset_name, players, game_id, record, tickets):
            form(engine, game_id, record)
            made += 1
    return made


def _unique(name: str, looks: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3``… when it looks like a name already at the table."""
    shown, n = name, 1
    while names.likeness(shown) in looks:
        n += 1
        shown = f"{name[:36]} {n}"
    looks.add(names.likeness(shown))
    return shown


def _bot_for(engine: Engine, ruleset: Any, mean: float) -> str:
    read = engine.store.ratings.read(ruleset.name,
                                     [bot_player_id(b) for b in ruleset.bot_names])
    levels = {level: shown(read[bot_player_id(level)]) for level in ruleset.bot_names}
    default = "medium" if "medium" in levels else ruleset.bot_names[0]
    return bot_level(mean, levels, default)


def form(engine: Engine, game_id: str, record: dict[str, Any]) -> None:
    """Make the game of a table taken from a queue (again: it is made once), and start it."""
    ruleset = RULESETS[record["ruleset"]]
    for seat in record["seats"]:
        if seat.get("player"):  # the players' games first, as a join does
            engine.store.players.note_game(seat["player"], game_id, record["created"])
    core, settings = split_options({"move_seconds": MOVE_SECONDS}
                                   if ruleset.move_seconds else None, ruleset)
    settings["private"] = False
    seed = secrets.randbits(63)
    state, events = ruleset.setup(record["players"], core, seed)
    seats = [{"name": s["name"], "token": token_hash(new_token()), "bot": None,
              "player": s["player"]} if s.get("player") else
             {"name": s["name"], "token": None, "bot": s["bot"]} for s in record["seats"]]
    events = events + [{"type": "seat_taken", "seat": i, "name": s["name"], "bot": s["bot"]}
                       for i, s in enumerate(seats)]
    fields = {"ruleset": ruleset.name, "players": record["players"], "seed": seed,
              "seeded": False, "options": core, "settings": settings,
              "host": token_hash(new_token()), "spectator": None, "joiner": None,
              "seats": seats, "state": state}
    if any(push.wanted(engine, s.get("player")) for s in seats):
        fields["notify"] = True  # a subscribed player's game: the sender tells them
    insert(engine, fields, events, game_id=game_id)  # None: made already

    def begin(loaded: Loaded):
        doc = loaded.doc
        if doc["status"] != OPEN or not all_claimed(doc["seats"], doc["players"]):
            return Done(None)
        new_events: list[dict[str, Any]] = []
        new = start(dict(doc), ruleset, new_events, engine.clock())
        return Save(new, new_events)

    transact(engine, game_id, begin)
    engine.store.matching.formed(game_id)


def finish_forming(engine: Engine) -> int:
    """Make the games of tables a pod took from a queue and died before making."""
    done = 0
    for game_id, record in engine.store.matching.forming().items():
        if record["created"] > engine.clock() - 5:
            continue  # being made by the request that took it
        try:
            form(engine, game_id, record)
            done += 1
        except (Refused, StoreError) as exc:
            log.warning("making quick-match game %s failed: %s", game_id, exc)
    return done


def tick_all(engine: Engine) -> dict[str, int]:
    """The reaper's part: every queue looked at (bots fill the tables whose wait is over)."""
    report = {"formed": finish_forming(engine), "seated": 0}
    for name, ruleset in sorted(RULESETS.items()):
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            report["seated"] += tick(engine, name, players)
    return report
