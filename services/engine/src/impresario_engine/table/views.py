"""What a caller sees of a game: the ruleset's view of its state (``Ruleset.view``: the only way
a state leaves the engine) dressed with the table's own facts (the game's id, version, status
and settings, the players' names and bots, the pending seats' deadlines); each event as a viewer
may see it, with its sequence number; and a seat's actions."""

from __future__ import annotations

from typing import Any

from impresario_rules import RULESETS, Ruleset
from impresario_rules.base import redact_event

from .clock import BANKS, OPEN, PACE, PLAYING, bot_seconds, deadlines
from .record import who_acts
from .seating import seats_taken


#: what a view takes from the table beside the rules' view: the game's own fields (id, version,
#: status, settings...), each seat's name and bot, and each pending seat's deadline
TableFacts = tuple[dict[str, Any], list[list[Any]], dict[int, Any]]


def ranked(ruleset: Ruleset, score: dict[str, Any]) -> dict[str, Any]:
    """A final score with ``places`` (each player's, by the rules), when the ruleset ranks."""
    places = ruleset.places(score)
    return score if places is None else {**score, "places": places}


def game_view(doc: dict[str, Any], version: int, rematch: str | None, viewer: int | None,
              now: float) -> dict[str, Any]:
    """The game as ``viewer`` (a seat, or None) sees it, with each pending seat's deadline."""
    return game_view_with_facts(doc, version, rematch, viewer, now)[0]


def game_view_with_facts(doc: dict[str, Any], version: int, rematch: str | None,
                         viewer: int | None, now: float) -> tuple[dict[str, Any], TableFacts]:
    """:func:`game_view`, and the table's facts it was made of: with the state they make the
    same view again (:func:`view_of`), which is how a replayed move is answered."""
    ruleset = RULESETS[doc["ruleset"]]
    core = ruleset.view(doc["state"], viewer)
    due: dict[int, Any] = {}
    if doc["status"] != OPEN:
        entries = core.get("pending", ())
        due = deadlines(doc, ruleset, {e["seat"]: e["kinds"] for e in entries})
    facts = (table_fields(doc, version, rematch, doc["status"], now), seat_names(doc), due)
    return view_of(core, facts), facts


def view_of(core: dict[str, Any], facts: TableFacts) -> dict[str, Any]:
    """A ruleset's view of a state (``core``, changed here) dressed with the table's facts."""
    fields, names, due = facts
    if fields["status"] == OPEN:
        core["pending"] = []
    else:
        for entry in core.get("pending", ()):
            entry["deadline"] = due.get(entry["seat"])
    return assemble(fields, names, core)


def dressed(doc: dict[str, Any], version: int, rematch: str | None, status: str,
            core: dict[str, Any], now: float) -> dict[str, Any]:
    """A ruleset's view with the game's own fields and the players' names."""
    return assemble(table_fields(doc, version, rematch, status, now), seat_names(doc), core)


def table_fields(doc: dict[str, Any], version: int, rematch: str | None, status: str,
                 now: float) -> dict[str, Any]:
    """The game's own fields of a view, first in it."""
    out = {
        "id": doc["id"],
        "ruleset": doc["ruleset"],
        "version": version,
        "status": status,
        "seats_taken": seats_taken(doc["seats"], now),
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
    settings = doc["settings"]
    pace = settings.get(PACE)
    if pace is not None:  # the pace the table chose at its creation (only when it chose one)
        out[PACE] = pace
    if settings.get("guided"):  # only when set: every other game's view stays as it was
        out["guided"] = True
    full = settings.get("bank_seconds")
    if full is not None:  # a turn-based game: each seat's bank as its turn began
        banks = doc.get(BANKS)
        out["bank_seconds"] = full
        out["bank_refill_seconds"] = settings.get("bank_refill_seconds", 0)
        out["banks"] = [float(full) if banks is None else banks[str(s)]
                        for s in range(doc["players"])]
    return out


def seat_names(doc: dict[str, Any]) -> list[list[Any]]:
    """Each seat's name and bot (None for a seat nobody took yet)."""
    return [[s["name"], s.get("bot")] for s in doc["seats"]]


def assemble(fields: dict[str, Any], names: list[list[Any]], core: dict[str, Any]
             ) -> dict[str, Any]:
    for player in core.get("players", ()):
        s = player["seat"]
        player["name"], player["bot"] = names[s] if s < len(names) else (None, None)
    out = dict(fields)
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
