"""Playing again: one rematch per finished game, however many of its players ask. The first
request creates it (same ruleset, options and privacy, a new seed, the seats turned as the
rules turn the first player) and links it from the finished game; every request claims the
caller's seat there, held for them for ``REMATCH_HOLD_SECONDS``.

A rematch has a host, as the finished game had: the player whose seat the host took with the
host token (the table's creator who sat at it) hosts the rematch too; when the host did not
sit at the table (or left it), the first player to claim a seat in the rematch hosts it. The
host gets the rematch's host token with their seat (derived from their old seat token: asking
again gives the same), so they can free a seat whose player does not come back, seat bots and
so start the rematch without waiting for every hold to run out."""

from __future__ import annotations

import secrets
from typing import Any

from impresario_rules import RULESETS

from ..table.access import (authenticate, new_token, rematch_host_token, rematch_token,
                            token_hash)
from ..table.clock import FINISHED, OPEN
from ..table.errors import CONFLICT, FORBIDDEN, Refused, contention, game_not_found, missing_token
from ..table.record import start
from ..table.seating import FREE, all_claimed, put
from ..table.views import game_view
from . import lobby, push
from .unit import Done, Engine, Loaded, Save, insert, load, transact


def rematch(engine: Engine, game_id: str, token: str | None) -> tuple[dict[str, Any], bool]:
    """``POST /v1/games/{id}/rematch`` by a seat of a finished game: ``({"rematch", "seat",
    "token", "game"}, created)``. The first request creates the rematch; every request (the
    first included) claims the caller's held seat there, with a token derived from the old."""
    if token is None:
        raise missing_token("a rematch is asked for with the seat's token")
    old = load(engine, game_id)
    caller = authenticate(old.doc, token)
    if caller.seat is None:
        raise Refused("not_a_seat", FORBIDDEN, "only a player of the game can ask for a rematch")
    if old.doc["status"] != FINISHED:
        raise Refused("game_not_finished", CONFLICT, "a rematch can be asked for once the game "
                      "is over")
    linked, created, expired = old.rematch, False, None
    for _ in range(3):
        if linked is None:
            linked, created = _link(engine, old, expired)
        try:
            return _claim(engine, linked, token_hash(token), rematch_token(token, linked),
                          rematch_host_token(token, linked)), created
        except Refused as err:
            if err.code != "game_not_found":
                raise
            linked, expired = None, linked  # it expired unplayed: a new one in its place
    raise contention()


def _link(engine: Engine, old: Loaded, replaces: str | None) -> tuple[str, bool]:
    """Create a rematch and link it from ``old`` (in place of ``replaces``, an expired one),
    unless another request links one first: (the rematch linked, whether it is ours)."""
    candidate, created_at = _create(engine, old)
    linked = engine.store.link_rematch(old.doc["id"], candidate, replaces)
    if linked != candidate:  # another player's request linked its rematch first: drop ours
        engine.store.delete_game(candidate)
        lobby.forget(engine, candidate, created_at)
    if linked is None:
        raise game_not_found(old.doc["id"])
    return linked, linked == candidate


def _create(engine: Engine, old: Loaded) -> tuple[str, float]:
    """A new open game like ``old`` (ruleset, options, privacy, a new seed), its seats in the
    ruleset's rematch order: bot seats taken by their bots, the others held for their players."""
    doc = old.doc
    ruleset = RULESETS[doc["ruleset"]]
    players = doc["players"]
    seed = secrets.randbits(63)
    # the options were accepted for the finished game already
    state, setup = ruleset.setup(players, doc["options"], seed)  # dealt when it starts
    until = engine.clock() + engine.config.rematch_hold_seconds
    seats: list[dict[str, Any]] = []
    seating: list[dict[str, Any]] = []
    # who will host it: the player of the host's own seat (by their old token's hash), else
    # (the host never sat, or left) whoever claims a seat first ("")
    host_from = next((e["token"] for e in doc["seats"] if e.get("host") and e.get("token")
                      and not e.get("left") and not e.get("bot")), "")
    for new_seat, old_seat in enumerate(ruleset.rematch_order(players)):
        entry = doc["seats"][old_seat]
        if entry.get("left"):  # its player left the finished game: free for anyone
            seats.append(dict(FREE))
        elif entry.get("bot"):
            seats.append({"name": entry["name"], "token": None, "bot": entry["bot"]})
            seating.append({"type": "seat_taken", "seat": new_seat, "name": entry["name"],
                            "bot": entry["bot"]})
        else:
            held_seat = {"name": entry["name"], "token": None, "bot": None,
                         "from": entry["token"], "until": until}
            if entry.get("player"):  # the player's seat again, once they claim it
                held_seat["player"] = entry["player"]
            seats.append(held_seat)
            seating.append({"type": "seat_held", "seat": new_seat, "name": entry["name"],
                            "until": until})
    seats = put(seats, len(seats) - 1, seats[-1])  # no free seat at the end
    events = [*setup, {"type": "rematch_of", "game": doc["id"]}, *seating]
    _, new = insert(engine, {
        "ruleset": doc["ruleset"], "players": players, "seed": seed, "seeded": False,
        "options": doc["options"], "settings": dict(doc["settings"]),
        # the host token is nobody's until its player claims a seat (``host_from``, above);
        # nobody watches a private rematch; the finished game's join link opens its free seats
        "host": token_hash(new_token()), "host_from": host_from, "spectator": None,
        "joiner": doc.get("joiner"), "seats": seats, "state": state, "rematch_of": doc["id"],
        # a platform's game's rematch is the platform's too (its endpoints cover it)
        **({"platform": doc["platform"]} if "platform" in doc else {})},
        events)
    return new["id"], new["created"]


def _claim(engine: Engine, rematch_id: str, origin: str, token: str,
           host_token: str) -> dict[str, Any]:
    """The seat held in the rematch for the player whose old token hashes to ``origin``, and
    ``host_token`` when this player hosts the rematch (see the module's doc)."""
    digest = token_hash(token)

    def step(loaded: Loaded):
        doc = loaded.doc
        seat = next((i for i, s in enumerate(doc["seats"]) if s.get("from") == origin), None)
        if seat is None:
            raise Refused("rematch_seat_taken", CONFLICT, "your seat in the rematch is no "
                          "longer held for you: you left it, or its hold ran out and another "
                          "player took it")
        entry = doc["seats"][seat]
        now = engine.clock()

        def answer(version: int, new: dict[str, Any]) -> dict[str, Any]:
            out = {"rematch": rematch_id, "seat": seat, "token": token}
            if new.get("host_from") == origin:
                out["host_token"] = host_token
            out["game"] = game_view(new, version, loaded.rematch, seat, now)
            return out

        if entry.get("token") == digest:  # claimed already: the same answer again
            return Done(answer(loaded.version, doc))
        if entry.get("token"):  # its player resumed it on another device since
            raise Refused("rematch_seat_taken", CONFLICT, "your seat in the rematch is taken "
                          "by a newer credential of its player (resumed on another device)")
        new = dict(doc)
        claimed_seat = {"name": entry["name"], "token": digest, "bot": None, "from": origin}
        if entry.get("player"):  # the rematch is among the player's games from now on
            claimed_seat["player"] = entry["player"]
            engine.store.players.note_game(entry["player"], rematch_id, now)
            if not doc.get("notify") and push.wanted(engine, entry["player"]):
                new["notify"] = True  # a subscribed player's game: the sender tells them
        if doc.get("host_from") in (origin, ""):  # this player hosts the rematch
            new["host_from"] = origin
            new["host"] = token_hash(host_token)
            claimed_seat["host"] = True
        new["seats"] = put(doc["seats"], seat, claimed_seat)
        events: list[dict[str, Any]] = [{"type": "seat_taken", "seat": seat,
                                         "name": entry["name"], "bot": None}]
        if doc["status"] == OPEN and all_claimed(new["seats"], doc["players"]):
            new = start(new, loaded.ruleset, events, now)
        new["seq"] = doc["seq"] + len(events)
        return Save(new, events, answer(loaded.version + 1, new))

    return transact(engine, rematch_id, step)
