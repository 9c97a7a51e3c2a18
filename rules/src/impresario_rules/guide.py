"""A guided first game of each ruleset: its table (seed, players, gentle bots) and, at any moment,
the step that says one seat what to do now and why, with the rules section behind it.

A step is a pure function of the seat's view and actions (what ``GET /v1/games/{id}`` and
``GET /v1/games/{id}/actions`` answer that seat), so a guide sees only its seat: never a hand,
a sealed bid or the deck of another. It is ``{"key", "params", "anchor"}``: ``key`` names the
text in the ruleset's catalogue ``<ruleset>/rules/guide.json`` (one text per step and language,
in the rulebooks' own terms, with ``{param}`` places), ``params`` the numbers and letters the
text names, all read from the view, and ``anchor`` the section of the full rules
(``<ruleset>/rules/<lang>.md``, :mod:`.texts`) that the step's rule comes from.

The engine answers a guided game's seat its step (``GET /v1/games/{id}/guide``); the browser and
the terminal start the same guided game from :func:`guided_setup`.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any, Callable

from .texts import DEFAULT_LANGUAGE, LANGUAGES, RulesNotFound, prompts

View = dict[str, Any]
Actions = dict[str, Any]
Step = dict[str, Any]

#: the seed every guided game of a ruleset is dealt from: the same first game for everyone,
#: so the steps were read against a real deal
GUIDED_SEED = 39
#: the bots of a guided game: the gentlest level, quick to move, and never ahead of the player
#: (the engine makes them wait while the player's seat must act: docs/api.md, guided games)
GUIDED_BOT = "easy"
GUIDED_BOT_SECONDS = 1


def guided_setup(ruleset: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The guided game of ``ruleset`` for a player reading ``lang``: ``{"ruleset", "players",
    "seed", "bots", "options"}`` (``bots``: one level per bot seat; ``options`` the game's,
    ``guided`` and ``bot_seconds`` included), the table the browser and the terminal create."""
    if ruleset not in SETUPS:
        raise RulesNotFound("ruleset_not_found", f"there is no ruleset {ruleset!r}")
    if lang not in LANGUAGES:
        raise RulesNotFound("language_not_found",
                            f"there is no guide in {lang!r}: one of {', '.join(LANGUAGES)}")
    players, options = SETUPS[ruleset]
    options = {**options, "guided": True, "bot_seconds": GUIDED_BOT_SECONDS}
    if ruleset == "wordjam":  # the words are Italian or English: the player's own if they can be
        options["language"] = "it" if lang == "it" else "en"
    return {"ruleset": ruleset, "players": players, "seed": GUIDED_SEED,
            "bots": [GUIDED_BOT] * (players - 1), "options": options}


#: each ruleset's guided table: its players (the player and bots) and its options
SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "turandot": (3, {}),
    "wordjam": (5, {}),
    # the individual game for three: a short match with the deck to draw from, no auction
    "muzicando": (3, {"mode": "individual"}),
}


def _phase_anchor(ruleset: str, view: View) -> str:
    return prompts(ruleset)["phases"].get(view.get("phase") or "", "overview")


def _common(ruleset: str, view: View, actions: Actions) -> Step | None:
    """The steps every ruleset has: the game is over, or the seat waits for the others."""
    if view.get("status") == "finished" or view.get("phase") in ("finished", "over"):
        return {"key": "finished", "params": {}, "anchor": "tie-breaks"}
    if not actions.get("pending"):
        return {"key": "wait", "params": {}, "anchor": _phase_anchor(ruleset, view)}
    return None


def _turandot(view: View, actions: Actions) -> Step:
    kinds = actions["pending"]
    if "bid" in kinds:
        you = view.get("you") or {}
        hand = you.get("hand") or {}
        params = {"round": view.get("round"), "money": hand.get("money", 0)}
        if view.get("round") == 1:
            return {"key": "bid_first", "params": params, "anchor": "bids"}
        if any(slot.get("card", {}).get("kind") == "director" for slot in view.get("table", ())):
            return {"key": "bid_directors", "params": params, "anchor": "directors"}
        return {"key": "bid", "params": params, "anchor": "bids"}
    if "assign_office" in kinds:
        return {"key": "office", "params": {}, "anchor": "office"}
    if "nominate" in kinds:
        return {"key": "nominate", "params": {}, "anchor": "firing"}
    if "fire_director" in kinds:
        return {"key": "fire", "params": {}, "anchor": "firing"}
    if "cast" in kinds:
        return {"key": "cast", "params": {}, "anchor": "scoring"}
    return {"key": "wait", "params": {}, "anchor": "round"}


def _wordjam(view: View, actions: Actions) -> Step:
    kinds = actions["pending"]
    if "open_sesame" in kinds:
        coins = ", ".join(f"{c['consonant']} = {c['coins']}" for c in view.get("coins", ()))
        params = {"turn": view.get("turn"), "coins": coins, "forbidden": view.get("forbidden")}
        return {"key": "call_first" if view.get("turn") == 1 else "call", "params": params,
                "anchor": "open-sesame"}
    if "challenge" in kinds:
        return {"key": "challenge", "params": {}, "anchor": "challenges"}
    if "vote" in kinds:
        return {"key": "vote", "params": {}, "anchor": "challenges"}
    if "bet" in kinds:
        return {"key": "bet", "params": {}, "anchor": "bets"}
    if "thief_word" in kinds:
        you = view.get("you") or {}
        if you.get("word") and not you.get("word_final"):
            # a word given, not final: the window stays open for the seat until it says so
            return {"key": "thief_final", "params": {"word": you["word"]}, "anchor": "thieves"}
        return {"key": "thief", "params": {}, "anchor": "thieves"}
    if "choose_side" in kinds:
        return {"key": "side", "params": {}, "anchor": "turn-8"}
    return {"key": "wait", "params": {}, "anchor": "turn"}


def _muzicando(view: View, actions: Actions) -> Step:
    kinds = actions["pending"]
    if "auction_bid" in kinds or "auction_pass" in kinds:
        return {"key": "auction", "params": {}, "anchor": "auction"}
    if "choose_layout" in kinds:
        return {"key": "choose", "params": {}, "anchor": "choose"}
    if "place" in kinds:
        you = view.get("you") or {}
        params = {"hand": view.get("hand"), "cards": len(you.get("hand") or ())}
        return {"key": "play", "params": params, "anchor": "turn"}
    if "pass" in kinds:
        return {"key": "pass", "params": {}, "anchor": "turn"}
    return {"key": "wait", "params": {}, "anchor": "turn"}


STEPS: dict[str, Callable[[View, Actions], Step]] = {
    "turandot": _turandot, "wordjam": _wordjam, "muzicando": _muzicando}


def step(ruleset: str, view: View, actions: Actions) -> Step:
    """The step of the seat whose ``view`` and ``actions`` these are: ``{"key", "params",
    "anchor"}`` (see the module's doc)."""
    if ruleset not in STEPS:
        raise RulesNotFound("ruleset_not_found", f"there is no ruleset {ruleset!r}")
    return _common(ruleset, view, actions) or STEPS[ruleset](view, actions)


@cache
def catalogue(ruleset: str) -> dict[str, dict[str, str]]:
    """The ruleset's step texts: ``{key: {lang: text}}``."""
    if ruleset not in STEPS:
        raise RulesNotFound("ruleset_not_found", f"there is no ruleset {ruleset!r}")
    path = resources.files("impresario_rules").joinpath(ruleset, "rules", "guide.json")
    return dict(json.loads(path.read_text(encoding="utf-8"))["steps"])


def placeholders(text: str) -> set[str]:
    """The ``{param}`` places of a step's text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def text(ruleset: str, lang: str, found: Step) -> str:
    """The step's text in ``lang``, its places filled from its params."""
    if lang not in LANGUAGES:
        raise RulesNotFound("language_not_found",
                            f"there is no guide in {lang!r}: one of {', '.join(LANGUAGES)}")
    return catalogue(ruleset)[found["key"]][lang].format_map(found["params"])


__all__ = ["GUIDED_SEED", "GUIDED_BOT", "GUIDED_BOT_SECONDS", "SETUPS", "guided_setup", "step",
           "catalogue", "placeholders", "text"]
