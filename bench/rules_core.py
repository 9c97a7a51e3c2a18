"""Rules core speed: random full games played in process, as the service plays moves.

Every move is drawn with the ruleset's ``sample_action`` and goes through its ``apply`` (which
validates it and returns a new state), with ``pending`` asked before each move as the service
does. Turandot is the measure; Word Jam and Muzicando are measured beside it with the same loop,
each at the table of :data:`BESIDE`. ``python bench/rules_core.py --players 4 --seconds 8``
prints Turandot's figures, then the others'; ``--ruleset turandot`` runs Turandot's loop alone
(the profiler target of ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from impresario_rules import RULESETS
from impresario_rules.base import Ruleset
from impresario_rules.turandot import TURANDOT

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
    warm = time.perf_counter() + seconds / 8
    slow = False
    for i in range(20):
        play(players, 10_000_000 + i, rules)
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
            moves += play(players, seed0 + games, rules)
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu0
    # wall-clock rates, and the same per CPU-second of this (single-threaded) loop: on a shared
    # machine other tenants steal the core, and the CPU rate is what an idle core would give
    return {"ruleset": rules.name, "players": players, "games": games, "moves": moves,
            "seconds": round(elapsed, 3),
            "cpu_seconds": round(cpu, 3),
            "games_per_s": games / elapsed, "actions_per_s": moves / elapsed,
            "games_per_cpu_s": games / cpu, "actions_per_cpu_s": moves / cpu,
            "moves_per_game": moves / games}


def beside(seconds: float) -> list[dict]:
    """The same measure of the games of :data:`BESIDE`."""
    return [measure(players, seconds, rules=RULESETS[name]) for name, players in BESIDE]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4, help="Turandot's table")
    parser.add_argument("--seconds", type=float, default=5.0, help="per game measured")
    parser.add_argument("--ruleset", choices=sorted(RULESETS),
                        help="measure this game alone (its table: --players for Turandot, "
                             "else the one of BESIDE)")
    args = parser.parse_args()
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
