"""Reading a game: the caller's view, its actions, the event feed, the score, and a finished
game's replay (its moves, and the table after any of them)."""

from __future__ import annotations

from typing import Any

from impresario_rules.guide import step as guide_step
from impresario_rules.guide import text as guide_text
from impresario_rules.texts import section

from ..table.access import Caller, authenticate, authenticate_link
from ..table.clock import FINISHED, OPEN, PLAYING, bot_seconds
from ..table.errors import CONFLICT, FORBIDDEN, INVALID, NOT_FOUND, Refused
from ..table.guided import is_guided
from ..table.record import is_due, state_after
from ..table.views import dressed, game_view, numbered, ranked, seat_actions
from .play import settle
from .unit import Engine, Loaded, load


def read(engine: Engine, game_id: str, token: str | None, link: str | None = None
         ) -> tuple[Loaded, Caller]:
    """Load a game for a caller (``token``, or a spectator link's ``link``: only the spectator
    token opens one), first applying any deadline that has passed (deadlines are enforced
    lazily by whichever request touches the game next)."""
    loaded = load(engine, game_id)
    caller = authenticate(loaded.doc, token) if link is None else \
        authenticate_link(loaded.doc, link)
    if is_due(loaded.doc, loaded.ruleset, engine.clock()):
        loaded = settle(engine, game_id)[0]
    return loaded, caller


def view(engine: Engine, loaded: Loaded, caller: Caller) -> dict[str, Any]:
    return game_view(loaded.doc, loaded.version, loaded.rematch, caller.viewer, engine.clock())


def actions(loaded: Loaded, caller: Caller) -> dict[str, Any]:
    """The caller's legal moves, compactly, and the default the engine would play."""
    return seat_actions(loaded.doc, loaded.ruleset, caller.seat)


def events(engine: Engine, loaded: Loaded, caller: Caller, after: int) -> list[dict[str, Any]]:
    return [numbered(seq, e, caller.viewer)
            for seq, e in engine.store.events(loaded.doc["id"], after)]


def check_word(loaded: Loaded, word: str) -> dict[str, Any]:
    """What ``word`` would be worth if called now, and whether the engine would take it: the
    rules' own checks of a call (letters, the forbidden consonant, reuse, the theme's first
    letter or eight letters, the dictionary when the game uses one), on the game's state as it
    is. Nothing secret goes in: the coins, the forbidden consonant, the theme and the words
    used are in every view. A game whose rules judge no words refuses it."""
    rules = loaded.ruleset
    if not hasattr(rules, "check_word"):
        raise Refused("not_a_word_game", CONFLICT, f"{loaded.doc['ruleset']} games have no words "
                      "to check: only Word Jam's")
    if loaded.doc["status"] == OPEN:
        raise Refused("game_not_started", CONFLICT, "the game starts when every seat is taken: "
                      "until then no consonant is dealt, so no word has a value")
    result = rules.check_word(loaded.doc["state"], word)
    return {"word": word, "value": result["value"], "valid": result["valid"],
            "reason": result["reason"]}


def score(loaded: Loaded) -> dict[str, Any]:
    """The final score (the rules refuse it before the end), with the ruleset's name first: a
    client tells the rulesets' scores apart by it."""
    return {"ruleset": loaded.doc["ruleset"], **loaded.ruleset.score(loaded.doc["state"])}


def places(loaded: Loaded) -> dict[str, Any]:
    """Each player's place in the final score, as the ruleset ranks them (its own tie-break),
    or None when the ruleset names winners only (the rules refuse it before the end)."""
    score = ranked(loaded.ruleset, loaded.ruleset.score(loaded.doc["state"]))
    return {"ruleset": loaded.doc["ruleset"], "places": score.get("places")}


def replay(loaded: Loaded) -> dict[str, Any]:
    """Seed, options and every move of a finished game. What the rules never reveal (a Word Jam
    thief's word nobody heard) stays hidden: the ruleset redacts those moves so that replaying
    them still gives the same game. The bots' secret is not part of it."""
    doc = loaded.doc
    if doc["status"] != FINISHED:
        raise Refused("game_not_finished", CONFLICT, "a replay is available once the game is "
                      "over")
    moves = _public_moves(loaded)
    return {
        "id": doc["id"],
        "ruleset": doc["ruleset"],
        "players": doc["players"],
        "seed": doc["seed"],
        "options": dict(doc["options"]),
        "move_seconds": doc["settings"].get("move_seconds"),
        "bot_seconds": bot_seconds(doc),
        "names": [s["name"] for s in doc["seats"]],
        "bots": [s.get("bot") for s in doc["seats"]],
        "moves": [{"seat": m[0], "move": move, "by": m[2]}
                  for m, move in zip(doc["moves"], moves)],
        "score": score(loaded),
    }


def _public_moves(loaded: Loaded) -> list[dict[str, Any]]:
    """A finished game's moves as its replay shows them (the ruleset redacts its secrets)."""
    doc = loaded.doc
    return loaded.ruleset.public_moves(doc["players"], dict(doc["options"]), doc["seed"],
                                       [(m[0], m[1]) for m in doc["moves"]])


def replay_step(engine: Engine, loaded: Loaded, step: int, seat: int | None) -> dict[str, Any]:
    """A finished game as ``seat`` (None: a spectator) saw it after ``step`` moves, replayed
    from the seed through the moves as :func:`replay` shows them. What the replay hides (a Word
    Jam thief's word nobody heard, a side never revealed) is hidden here too, even from its own
    seat: a step shows nothing the replay does not already give."""
    doc = loaded.doc
    if doc["status"] != FINISHED:
        raise Refused("game_not_finished", CONFLICT, "a replay is available once the game is "
                      "over")
    raw = doc["moves"]
    if step > len(raw):
        raise Refused("step_not_found", NOT_FOUND,
                      f"this game has {len(raw)} moves: steps go from 0 to {len(raw)}")
    if seat is not None and seat >= doc["players"]:
        raise Refused("unknown_seat", INVALID, f"this game has seats 0 to {doc['players'] - 1}")
    ruleset = loaded.ruleset
    moves = _public_moves(loaded)
    state = state_after(ruleset, doc, [(m[0], move) for m, move in zip(raw[:step], moves)])
    core = ruleset.view(state, seat)
    for entry in core.get("pending", ()):
        entry["deadline"] = None
    status = FINISHED if step == len(raw) else PLAYING
    last = {"seat": raw[step - 1][0], "move": moves[step - 1], "by": raw[step - 1][2]} \
        if step else None
    return {"step": step, "steps": len(raw), "seat": seat, "move": last,
            "game": dressed({**doc, "seats": _seats_at(doc, step)}, loaded.version,
                            loaded.rematch, status, core, engine.clock())}


def _seats_at(doc: dict[str, Any], step: int) -> list[dict[str, Any]]:
    """The seats as they were after ``step`` moves: a player who left later was no bot yet (nor
    at the step they left after). When they left is ``left_at`` (the moves played then); for a
    seat left before that was recorded, its last move not played by the bot stands for it."""
    seats = []
    for s, entry in enumerate(doc["seats"]):
        if entry.get("left"):
            left_at = entry.get("left_at")
            if left_at is None:
                own = [i + 1 for i, m in enumerate(doc["moves"]) if m[0] == s and m[2] != "bot"]
                left_at = own[-1] if own else 0
            if step <= left_at:
                entry = {**entry, "bot": None}
        seats.append(entry)
    return seats


def guide(engine: Engine, loaded: Loaded, caller: Caller, lang: str) -> dict[str, Any]:
    """A guided game's step for the caller's seat (``impresario_rules.guide``): what to do now
    and why, in ``lang``, with the rules section behind it. Made from the seat's own view and
    actions only, so it tells nothing the seat could not see. Only a seat of a guided game has
    one: a spectator or the host without a seat 403 ``not_a_seat``, another game 409
    ``not_guided``."""
    if not is_guided(loaded.doc):
        raise Refused("not_guided", CONFLICT, "only a guided game has steps: create one with "
                      "the option guided (docs/api.md)")
    if caller.seat is None:
        raise Refused("not_a_seat", FORBIDDEN, "a guided game's steps are its player's: sit at "
                      "the table to read them")
    ruleset_name = loaded.doc["ruleset"]
    seen = view(engine, loaded, caller)
    step = guide_step(ruleset_name, seen, actions(loaded, caller))
    found = section(ruleset_name, lang, step["anchor"])
    return {"key": step["key"], "params": step["params"], "anchor": step["anchor"],
            "lang": lang, "text": guide_text(ruleset_name, lang, step),
            "rule_title": found.title if found is not None else None,
            "version": loaded.version}
