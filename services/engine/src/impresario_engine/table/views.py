"""What a caller sees of a game: the ruleset's view of its state (``Ruleset.view``: the only way
a state leaves the engine) dressed with the table's own facts (the game's id, version, status
and settings, the players' names and bots, the pending seats' deadlines); each event as a viewer
may see it, with its sequence number; and a seat's actions."""

from __future__ import annotations

from typing import Any

from impresario_rules import RULESETS, Ruleset
from impresario_rules.base import redact_event

from .clock import OPEN, PLAYING, bot_seconds, deadlines
from .record import who_acts
from .seating import seats_taken


def game_view(doc: dict[str, Any], version: int, rematch: str | None, viewer: int | None,
              now: float) -> dict[str, Any]:
    """The game as ``viewer`` (a seat, or None) sees it, with each pending seat's deadline."""
    ruleset = RULESETS[doc["ruleset"]]
    core = ruleset.view(doc["state"], viewer)
    if doc["status"] == OPEN:
        core["pending"] = []
    else:
        entries = core.get("pending", ())
        due = deadlines(doc, ruleset, {e["seat"]: e["kinds"] for e in entries})
        for entry in entries:
            entry["deadline"] = due.get(entry["seat"])
    return dressed(doc, version, rematch, doc["status"], core, now)


def dressed(doc: dict[str, Any], version: int, rematch: str | None, status: str,
            core: dict[str, Any], now: float) -> dict[str, Any]:
    """A ruleset's view with the game's own fields and the players' names."""
    seats = doc["seats"]
    for player in core.get("players", ()):
        s = player["seat"]
        player["name"] = seats[s]["name"] if s < len(seats) else None
        player["bot"] = seats[s].get("bot") if s < len(seats) else None
    out = {
        "id": doc["id"],
        "ruleset": doc["ruleset"],
        "version": version,
        "status": status,
        "seats_taken": seats_taken(seats, now),
        "seats_total": doc["players"],
        "last_seq": doc["seq"],
        "private": bool(doc["settings"].get("private")),
        "move_seconds": doc["settings"].get("move_seconds"),
        "bot_seconds": bot_seconds(doc),
        "seeded": bool(doc.get("seeded")),
        "rematch": rematch,
    }
    if not RULESETS[doc["ruleset"]].move_seconds:
        del out["move_seconds"]  # the ruleset has windows of its own
    out.update(core)
    return out


def numbered(seq: int, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """An event as ``viewer`` may see it, with its sequence number first."""
    out = {"seq": seq}
    out.update(redact_event(event, viewer))
    return out


def seat_actions(doc: dict[str, Any], ruleset: Ruleset, seat: int | None) -> dict[str, Any]:
    """The seat's legal moves, compactly, and the default the engine would play (nothing for a
    spectator, or before the start and after the end)."""
    if seat is None or doc["status"] != PLAYING:
        return {"seat": seat, "pending": [], "moves": [], "default": None}
    if not who_acts(ruleset, doc["state"]).get(seat):
        return {"seat": seat, "pending": [], "moves": [], "default": None}
    return ruleset.seat_actions(doc["state"], seat)
