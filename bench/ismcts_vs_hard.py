"""OpenSpiel's ISMCTS against our ``hard`` bot in 4-player Turandot, at the same think budget.

One seat (it turns round the table game by game) is OpenSpiel's ``ISMCTSBot`` on the
sequential game (``python_impresario_turandot(players=4,simultaneous=false)``, see
docs/openspiel.md) with a random-rollout evaluator and the rules' own determinization as its
resampler; the three others are the rules' ``hard`` bot (``hard_with(think_ms,
time.process_time)``). ISMCTS has no time budget of its own: it is given as many simulations
as fit in ``--think-ms`` of CPU, measured on the first decisions of the run (the count is
printed). Prints each side's share of the victories with a 95% interval (Wilson; a shared
victory counts its share).

    PYTHONPATH=rules/src python bench/ismcts_vs_hard.py --games 20 --think-ms 200
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from impresario_rules import RULESETS
from impresario_rules import openspiel as impresario_openspiel
from impresario_rules.turandot.search import hard_with

PLAYERS = 4
SPEC = f"python_impresario_turandot(players={PLAYERS},simultaneous=false)"


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_ismcts(game: pyspiel.Game, sims: int, seed: int) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                           uct_c=2.0, max_simulations=sims, random_state=rng)
    bot.set_resampler(impresario_openspiel.turandot_resampler(seed))
    return bot


def calibrate(game: pyspiel.Game, think_ms: float) -> int:
    """The simulations that fit in ``think_ms`` of CPU, from a few decisions at a bid."""
    probe = 30
    bot = make_ismcts(game, probe, 0)
    state = game.new_initial_state()
    for b in (1, 2, 3, 4):
        state.apply_action(b)
    start = time.process_time()
    for _ in range(3):
        bot.step(state)
    per_sim = (time.process_time() - start) / (3 * probe)
    return max(1, int(think_ms / 1000 / per_sim))


def play(game: pyspiel.Game, seat: int, sims: int, think_ms: float, seed: int) -> list[float]:
    rules = RULESETS["turandot"]
    codec = impresario_openspiel._codec("turandot", PLAYERS)
    bot = make_ismcts(game, sims, seed)
    hard = hard_with(think_ms, time.process_time)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for b in seed.to_bytes(4, "big"):
        state.apply_action(b)
    while not state.is_terminal():
        player = state.current_player()
        if player == seat:
            action = int(bot.step(state))
        else:
            raw = state.rules_state()
            move = rules.prepare(hard(rules.view(raw, player), rules.seat_actions(raw, player),
                                      rng))
            if move["type"] == "cast" and move["roles"] is None:  # the rules' optimal cast
                move = {"type": "cast",
                        "roles": rules.apply(raw, player, move)[0]["casts"][player]}
            action = codec.encode(raw, player, move)
        state.apply_action(action)
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game(SPEC)
    sims = calibrate(game, args.think_ms)
    print(f"ISMCTS: {sims} simulations a decision (~{args.think_ms:g} ms of CPU); "
          f"hard: think_ms={args.think_ms:g}")
    ismcts_wins = hard_wins = 0.0
    start = time.time()
    for g in range(args.games):
        seat = g % PLAYERS
        returns = play(game, seat, sims, args.think_ms, args.seed * 100003 + g)
        ismcts_wins += returns[seat]
        hard_wins += sum(returns) - returns[seat]
    n = args.games
    lo, hi = wilson(ismcts_wins, n)
    hlo, hhi = wilson(hard_wins / (PLAYERS - 1), n)
    print(f"{n} games of {PLAYERS} players in {time.time() - start:.0f} s")
    print("| bot | seats | victories (share) | rate per seat | 95% interval |")
    print("|---|---|---|---|---|")
    print(f"| OpenSpiel ISMCTS ({sims} sims) | 1 | {ismcts_wins:.2f} of {n} | "
          f"{ismcts_wins / n:.3f} | {lo:.3f}–{hi:.3f} |")
    print(f"| hard | 3 | {hard_wins:.2f} of {n} | {hard_wins / n / (PLAYERS - 1):.3f} | "
          f"{hlo:.3f}–{hhi:.3f} |")


if __name__ == "__main__":
    main()
