"""Whole games played in this process, with no server: random play (property tests, the
simulator, the rules-core benchmark) and games of bots (the SDK's ``tournament --in-process``).

A game of bots gives each bot what it would get over HTTP: its seat's view (the rules' view
with the players' names and the game's envelope) and its actions. The seats that must act move
in seat order, as the SDK's play loop does through a server, so a seeded game plays out the same
in process as through a server where no deadline passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from . import RULESETS
from .base import Action, Event, Ruleset, State
from .bots import SeatBot, seat_bot
from .muzicando.bots import SEAT_BOTS as MUZICANDO_BOTS
from .turandot.bots import SEAT_BOTS as TURANDOT_BOTS
from .wordjam.bots import SEAT_BOTS as WORDJAM_BOTS


def _seat_bots(ruleset: Ruleset, named: dict[str, type[SeatBot]]) -> dict[str, type[SeatBot]]:
    """A ruleset's bots for clients: a class per level (``TurandotHardBot``...) playing what
    the ruleset plays for it, and under each older name the class the SDK has long exported
    by it (``GreedyBot``...)."""
    out: dict[str, type[SeatBot]] = {}
    prefix = ruleset.title.replace(" ", "")
    for level in ruleset.bot_names:
        older = [named[a] for a, lv in ruleset.bot_aliases.items() if lv == level and a in named]
        if older:  # the same bot under its level's name (with whatever the older class adds)
            out[level] = type(f"{prefix}{level.title()}Bot", (older[0],),
                              {"name": level, "__module__": older[0].__module__})
        else:
            out[level] = seat_bot(f"{prefix}{level.title()}Bot", level, ruleset.bot_play(level))
    for alias, level in ruleset.bot_aliases.items():
        out[alias] = named.get(alias, out[level])
    return out


#: the bots a client can seat, per ruleset and name: the levels, then their older names
SEAT_BOTS: dict[str, dict[str, type[SeatBot]]] = {
    name: _seat_bots(RULESETS[name], named) for name, named in (
        ("turandot", TURANDOT_BOTS), ("wordjam", WORDJAM_BOTS), ("muzicando", MUZICANDO_BOTS))}


class Bot(Protocol):
    """Anything that chooses a seat's move from its view and actions."""

    name: str

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]: ...


def bot_names(ruleset: str = "turandot") -> list[str]:
    return list(SEAT_BOTS.get(ruleset, {}))


def make_bot(name: str, seed: int | None = None, ruleset: str = "turandot") -> SeatBot:
    """A bot of ``ruleset`` by level (``easy``, ``medium``; Turandot and Muzicando also
    ``hard``) or by an older name (turandot and muzicando: random, greedy; wordjam: random,
    wordsmith), with its own random stream (``seed``: reproducible)."""
    if ruleset not in SEAT_BOTS:
        raise ValueError(f"no bots for {ruleset!r}; rulesets: {', '.join(SEAT_BOTS)}")
    try:
        return SEAT_BOTS[ruleset][name](seed=seed)
    except KeyError:
        raise ValueError(f"unknown {ruleset} bot {name!r}; bots: "
                         f"{', '.join(SEAT_BOTS[ruleset])}") from None


def play_random_game(
    ruleset: Ruleset, players: int, seed: int, options: dict[str, Any] | None = None,
    bot_seed: int | None = None,
) -> tuple[State, list[tuple[int, Action]], list[Event]]:
    """Play one game with every seat choosing uniformly among its legal moves
    (``Ruleset.sample_action``).

    Returns the final state, the moves made (seat, action) and every event. The seats that must
    act move in seat order; that is one valid schedule among many for simultaneous phases.
    """
    rng = random.Random(seed if bot_seed is None else bot_seed)
    state, events = ruleset.new_game(players, options, seed)
    moves: list[tuple[int, Action]] = []
    while not ruleset.is_finished(state):
        pending = ruleset.pending(state)
        seat = min(pending)
        action = ruleset.sample_action(state, seat, rng)
        state, evs = ruleset.apply(state, seat, action)
        moves.append((seat, action))
        events.extend(evs)
    return state, moves, events


#: what :func:`play_bots` tells a watcher after the deal and after each move: the events that
#: happened (unredacted: the watcher redacts them per seat) and each seat's view then, by seat
Watch = Callable[[list[Event], Callable[[int], dict[str, Any]]], None]


def play_bots(bots: list[Bot], seed: int, options: dict[str, Any] | None = None,
              ruleset: str = "turandot", watch: Watch | None = None) -> dict[str, Any]:
    """Play one seeded game with ``bots`` in seats 0..n-1; returns its score (as the API's).
    Raises :class:`~impresario_rules.base.Refusal` for options the ruleset refuses.
    ``watch``, if given, is told the events and the seats' views after the deal and after
    each move (it cannot change the game)."""
    rules = RULESETS[ruleset]
    state, events = rules.new_game(len(bots), dict(options or {}), seed)
    names = [f"{bot.name}-{i}" for i, bot in enumerate(bots)]
    version, last_seq = 1, len(events)
    if watch is not None:
        watch(events, partial(_seat_view, rules, state, names=names, version=version,
                              last_seq=last_seq))
    while not rules.is_finished(state):
        for seat in sorted(rules.pending(state)):
            if not rules.pending(state).get(seat):
                continue  # an earlier seat's move ended this seat's turn
            view = _seat_view(rules, state, seat, names, version, last_seq)
            state, events = rules.apply(state, seat, bots[seat].choose(
                view, rules.seat_actions(state, seat)))
            version, last_seq = version + 1, last_seq + len(events)
            if watch is not None:
                watch(events, partial(_seat_view, rules, state, names=names, version=version,
                                      last_seq=last_seq))
    return rules.score(state)


def _seat_view(rules: Ruleset, state: State, seat: int, names: list[str], version: int,
               last_seq: int = 0) -> dict[str, Any]:
    """The seat's view as the API gives it: the rules' view, the players' names, the envelope."""
    core = rules.view(state, seat)
    for player in core.get("players", ()):
        player["name"] = names[player["seat"]]
        player["bot"] = None
    out: dict[str, Any] = {"id": "in-process", "ruleset": rules.name, "version": version,
                           "status": "finished" if rules.is_finished(state) else "playing",
                           "seats_taken": len(names), "seats_total": len(names),
                           "private": False, "move_seconds": None, "seeded": True,
                           "rematch": None, "bot_seconds": rules.bot_seconds,
                           "last_seq": last_seq}
    out.update(core)
    return out
