"""Rules core speed: random full games played in process, as the service plays moves.

Every move is drawn with the ruleset's ``sample_action`` and goes through its ``apply`` (which
validates it and returns a new state), with ``pending`` asked before each move as the service
does. Turandot is the measure; Word Jam and Muzicando are measured beside it with the same loop,
each at the table of :data:`BESIDE`. ``python bench/rules_core.py --players 4 --seconds 8``
prints Turandot's figures, then the others'; ``--ruleset turandot`` runs Turandot's loop alone
(the profiler target of ``make bench``).

Two marks are measured in the same run, so that the machine's noise cancels in their ratios:

- **OpenSpiel's goofspiel, 4 players** (:func:`goofspiel_play`): random games through pyspiel,
  its C++ core, with the same kind of Python loop. Issue 26 names it the long-term mark (about
  11,000 games per CPU-second on this machine when the issue was written, against its target
  of 6,000 for Turandot: 0.55 of it). Measured when ``pyspiel`` is installed (``make bench``
  installs ``open-spiel``); left out otherwise.
- **The contract's floor** (:func:`floor_play`): the least any rules core with this package's
  contract does in a game of Turandot's length, with no rule at all. Each move: ``pending``
  builds a fresh mapping (Turandot's own, in its bidding phase), one random draw, a move
  object, and ``apply`` returns a new state (a shallow copy of a state with Turandot's keys,
  one list replaced) and one event. It bounds what CPython can do with the contract: no rules
  core plays more games per CPU-second.

``python bench/rules_core.py --marks`` prints both.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any, Callable

from impresario_rules import RULESETS
from impresario_rules.base import Ruleset
from impresario_rules.turandot import TURANDOT
from impresario_rules.turandot.state import BIDDING, SEAT_KEYS
from impresario_rules.turandot.state import pending as turandot_pending

#: the games measured beside Turandot, each at one table size (Word Jam seats 5 to 12)
BESIDE = (("wordjam", 5), ("muzicando", 4))


def play(players: int, seed: int, rules: Ruleset = TURANDOT) -> int:
    """One random game to the end; returns the number of moves."""
    rng = random.Random(seed)
    state, _events = rules.new_game(players, None, seed)
    moves = 0
    while not rules.is_finished(state):
        seat = min(rules.pending(state))
        action = rules.sample_action(state, seat, rng)
        state, _evs = rules.apply(state, seat, action)
        moves += 1
    return moves


def measure(players: int, seconds: float, seed0: int = 0, rules: Ruleset = TURANDOT) -> dict:
    """Games and moves per second over at least ``seconds`` (after a short warm-up: 20 games,
    or fewer when a game is slow)."""
    return {"ruleset": rules.name, "players": players,
            **rates(lambda seed: play(players, seed, rules), seconds, seed0)}


def rates(play_one: Callable[[int], int], seconds: float, seed0: int = 0) -> dict:
    """``play_one(seed)`` (one game; returns its moves) looped for at least ``seconds`` after a
    short warm-up (20 games, or fewer when a game is slow): games and moves per second."""
    warm = time.perf_counter() + seconds / 8
    slow = False
    for i in range(20):
        play_one(10_000_000 + i)
        if time.perf_counter() >= warm:
            slow = True
            break
    # games between looks at the clock: 25 of a quick game (Turandot's), one of a slow one
    batch = 1 if slow else 25
    games = moves = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(batch):
            moves += play_one(seed0 + games)
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu0
    # wall-clock rates, and the same per CPU-second of this (single-threaded) loop: on a shared
    # machine other tenants steal the core, and the CPU rate is what an idle core would give
    return {"games": games, "moves": moves,
            "seconds": round(elapsed, 3),
            "cpu_seconds": round(cpu, 3),
            "games_per_s": games / elapsed, "actions_per_s": moves / elapsed,
            "games_per_cpu_s": games / cpu, "actions_per_cpu_s": moves / cpu,
            "moves_per_game": moves / games}


# -- the marks measured beside Turandot (see the module's doc) ---------------------------------

def goofspiel_play(game: Any, seed: int) -> int:
    """One random game of OpenSpiel's ``game`` (a pyspiel game): chance outcomes drawn by
    their index, every player's action drawn from its legal ones; returns the steps."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    players = range(game.num_players())
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def goofspiel(seconds: float, players: int = 4) -> dict:
    """Random games of OpenSpiel's goofspiel per second (``{"error": ...}`` without pyspiel)."""
    try:
        import pyspiel
    except ImportError as exc:
        return {"mark": "goofspiel", "players": players,
                "error": f"pyspiel is not installed ({exc}); pip install open-spiel"}
    game = pyspiel.load_game("goofspiel", {"players": players})
    return {"mark": "goofspiel", "players": players,
            **rates(lambda seed: goofspiel_play(game, seed), seconds)}


def floor_play(players: int, seed: int, moves: int = 44) -> int:
    """A game of ``moves`` moves (a 4-player Turandot game makes about 44) that does, each
    move, only what the rules core's contract asks of any ruleset and nothing of the rules:
    ``pending`` builds a fresh mapping (Turandot's own, in its bidding phase), one random draw
    makes a move, ``apply`` returns a new state (a shallow copy with one list replaced) and one
    event. The state has Turandot's keys; a round is a bid from each seat, then the bids start
    again."""
    rng = random.Random(seed)
    state: dict[str, Any] = dict(_FLOOR_STATE)
    state["bids"] = [None] * players
    made = 0
    while made < moves:
        seat = min(turandot_pending(state))  # the bidding phase's: the cheapest there is
        move = {"type": "bid", "slot": 1 + rng.getrandbits(2), "money": 0, "bluff": False}
        state, _events = _floor_apply(state, seat, move)
        made += 1
    return made


def _floor_apply(state: dict[str, Any], seat: int, move: dict[str, Any]
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    bids = list(state["bids"])
    bids[seat] = [move["slot"], move["money"], move["bluff"]]
    new = state.copy()
    new["bids"] = bids if None in bids else [None] * len(bids)
    return new, [{"type": "bid_committed", "round": state["round"], "seat": seat,
                  "_private": {SEAT_KEYS[seat]: {"bid": {"slot": move["slot"]}}}}]


#: a state with Turandot's keys, in its bidding phase (the other values are not read by
#: :func:`floor_play`)
_FLOOR_STATE: dict[str, Any] = {**{key: None for key in TURANDOT.new_game(4, None, 0)[0]},
                                "phase": BIDDING, "round": 1}


def contract_floor(seconds: float, players: int = 4) -> dict:
    """:func:`floor_play` games per second (a 4-player game's length)."""
    return {"mark": "contract_floor", "players": players,
            **rates(lambda seed: floor_play(players, seed), seconds)}


def marks(seconds: float) -> list[dict]:
    """Both marks, as ``make bench`` measures them beside Turandot."""
    return [goofspiel(seconds), contract_floor(seconds)]


def beside(seconds: float) -> list[dict]:
    """The same measure of the games of :data:`BESIDE`."""
    return [measure(players, seconds, rules=RULESETS[name]) for name, players in BESIDE]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4, help="Turandot's table")
    parser.add_argument("--seconds", type=float, default=5.0, help="per game measured")
    parser.add_argument("--marks", action="store_true",
                        help="measure the marks alone: OpenSpiel's goofspiel and the contract's "
                             "floor (see the module's doc)")
    parser.add_argument("--ruleset", choices=sorted(RULESETS),
                        help="measure this game alone (its table: --players for Turandot, "
                             "else the one of BESIDE)")
    args = parser.parse_args()
    if args.marks:
        for result in marks(args.seconds):
            print(json.dumps(result))
        return
    if args.ruleset is None or args.ruleset == TURANDOT.name:
        print(json.dumps(measure(args.players, args.seconds)))
    if args.ruleset is None:
        for result in beside(args.seconds):
            print(json.dumps(result))
    elif args.ruleset != TURANDOT.name:
        players = dict(BESIDE)[args.ruleset]
        print(json.dumps(measure(players, args.seconds, rules=RULESETS[args.ruleset])))


if __name__ == "__main__":
    main()
