"""Rules core speed: random full Turandot games played in process, as the service plays moves.

Every move is drawn with ``TURANDOT.sample_action`` and goes through ``TURANDOT.apply`` (which
validates it and returns a new state), with ``pending`` asked before each move as the service
does. ``python bench/rules_core.py --players 4 --seconds 8`` runs the loop alone (the profiler
target of ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from impresario_rules.turandot import TURANDOT


def play(players: int, seed: int) -> int:
    """One random game to the end; returns the number of moves."""
    rules = TURANDOT
    rng = random.Random(seed)
    state, _events = rules.new_game(players, None, seed)
    moves = 0
    while not rules.is_finished(state):
        seat = min(rules.pending(state))
        action = rules.sample_action(state, seat, rng)
        state, _evs = rules.apply(state, seat, action)
        moves += 1
    return moves


def measure(players: int, seconds: float, seed0: int = 0) -> dict:
    """Games and moves per second over at least ``seconds`` (after a short warm-up)."""
    for i in range(20):
        play(players, 10_000_000 + i)
    games = moves = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(25):
            moves += play(players, seed0 + games)
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu0
    # wall-clock rates, and the same per CPU-second of this (single-threaded) loop: on a shared
    # machine other tenants steal the core, and the CPU rate is what an idle core would give
    return {"players": players, "games": games, "moves": moves, "seconds": round(elapsed, 3),
            "cpu_seconds": round(cpu, 3),
            "games_per_s": games / elapsed, "actions_per_s": moves / elapsed,
            "games_per_cpu_s": games / cpu, "actions_per_cpu_s": moves / cpu,
            "moves_per_game": moves / games}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(json.dumps(measure(args.players, args.seconds)))


if __name__ == "__main__":
    main()
