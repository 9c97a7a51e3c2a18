"""Turandot's bots by level: ``easy`` (random moves, softened: at most one money card a bid,
the best cast; alias ``random``),
``medium`` (a heuristic on the marginal value of each card for the bot's own cast; alias
``greedy``) and ``hard`` (a search over the worlds its view allows, ``search.py``).

Each is a function of the seat's view, its actions and a random stream (``impresario_rules.bots``):
the cards on the table, every player's singers, director, stage elements and money, who is
maestro, and the seat's action space. Nothing here reads a game state.
"""

from __future__ import annotations

import random
from typing import Any

from ..bots import Actions, Move, SeatBot, View, seat_bot
from .cards import Singer
from .state import random_bid
from .scoring import best_points_of


# ------------------------------------------------------------------------------ random
def uniform(view: View, actions: Actions, rng: random.Random) -> Move:
    """Uniform over the legal moves (the action space is counted, not listed)."""
    space = actions["moves"][0]
    kind = space["type"]
    if kind == "bid":
        slots, money, helper = space["slots"], space["max_money"], space["helper"]
        return random_bid(rng, slots, money, helper)
    if kind == "assign_office":
        chosen = rng.sample(space["slots"], len(space["seats"]))
        return {"type": "assign_office",
                "assignments": [{"seat": s, "slot": p} for s, p in zip(space["seats"], chosen)]}
    if kind == "nominate":
        return {"type": "nominate", "seat": rng.choice(space["seats"])}
    if kind == "fire_director":
        return {"type": "fire_director", "director": rng.choice(space["directors"])}
    if kind == "cast":
        return {"type": "cast", "roles": rng.sample(space["singers"], len(space["singers"]))}
    return dict(actions["default"])


# ------------------------------------------------------------------------------ easy
def easy(view: View, actions: Actions, rng: random.Random) -> Move:
    """A newcomer: a bid drawn at random with at most one money card (money spread over every
    round instead of thrown away at once), office hires, the nomination and the firing at
    random, and the best cast (a cast at random only throws points away)."""
    space = actions["moves"][0]
    if space["type"] == "bid":
        return random_bid(rng, space["slots"], min(space["max_money"], 1), space["helper"])
    if space["type"] == "cast":
        return {"type": "cast", "roles": None}
    return uniform(view, actions, rng)


# ------------------------------------------------------------------------------ greedy
def _singer(card: dict[str, Any]) -> Singer:
    return Singer(card["id"], card["category"], card["sex"], card["stars"],
                  card["favourite_role"])


def value(player: dict[str, Any], card: dict[str, Any]) -> float:
    """How many points ``card`` (a face on the table) adds to ``player``'s best possible cast
    so far (``player``: an entry of the view's ``players``)."""
    singers = tuple(_singer(c) for c in player["singers"])
    director = player["director"]["id"] if player["director"] else None
    stage = player["stage_elements"]
    if card["kind"] == "director":
        return best_points_of(singers, card["id"], stage) - best_points_of(singers, None, stage)
    return (best_points_of(singers + (_singer(card),), director, stage)
            - best_points_of(singers, director, stage))


def greedy(view: View, actions: Actions, rng: random.Random) -> Move:
    """Values each card by what it adds to its own best cast (stars, sex fit, favourite roles,
    the director), takes a helper (a stage element) when no card is worth much more than the
    worst, shares the cards out with the others as all can foresee (the richest claims first,
    so players who want the same card do not all bid it and tie), spends money only on a card
    that is clearly its best and that an earlier claimant wants too, gives itself the best office hire and the others their worst, names the player
    with the fewest stars to fire a director, fires the director that would help it least, and
    casts optimally."""
    kind = actions["pending"][0]
    if kind == "cast":
        return {"type": "cast", "roles": None}
    space = actions["moves"][0]
    me = view["you"]["seat"]
    players = view["players"]
    table = {t["slot"]: t["card"] for t in view["table"] if t["card"] is not None}
    if kind == "bid":
        values = {slot: value(players[me], c) for slot, c in table.items()}
        best = min(values, key=lambda s: (-values[s], s))
        money = space["max_money"]
        bluff = rng.random() < 0.5
        # a helper is a sure point; the office hire that comes with it is likely the worst card
        if space["helper"] and 1 + min(values.values()) >= values[best] - 0.5:
            return {"type": "bid", "slot": None, "money": 1, "bluff": bluff}
        # players who want the same card all bidding it tie and lose it (hiring rule 2). So
        # the cards are shared out in the order of a claim all can see, the most money first
        # (equal money: the first clockwise after the maestro): each takes its best card not
        # taken yet, unless that is much worse than its best, which it then contests
        n = len(players)
        maestro = view["maestro"]
        worth = {me: values}
        for other in players:
            if other["seat"] != me:
                worth[other["seat"]] = {s: value(other, c) for s, c in table.items()}
        order = sorted(worth, key=lambda s: (-players[s]["money"], (s - maestro - 1) % n))
        taken: dict[int, int] = {}  # slot: how many earlier claimants go for it
        choice = best
        for seat in order:
            theirs = worth[seat]
            top = max(theirs, key=lambda s: (theirs[s], -s))
            free = [s for s in sorted(theirs, key=lambda s: (-theirs[s], s)) if s not in taken]
            pick = free[0] if free and theirs[free[0]] >= theirs[top] - 2 else top
            if seat == me:
                choice = pick
                break
            taken[pick] = taken.get(pick, 0) + 1
        pay = 0
        rivals = taken.get(choice, 0)
        margin = values[choice] - max((v for s, v in values.items() if s != choice),
                                      default=values[choice])
        if rivals and money and margin >= 1:
            pay = 2 if (margin >= 3 and money >= 2 and rivals > 1) else 1
        return {"type": "bid", "slot": choice, "money": pay, "bluff": bluff}
    if kind == "assign_office":
        free = list(space["slots"])
        out = []
        waiting = list(space["seats"])
        if me in waiting:
            mine = max(free, key=lambda s: (value(players[me], table[s]), -s))
            out.append({"seat": me, "slot": mine})
            free.remove(mine)
            waiting.remove(me)
        for other in waiting:
            worst = min(free, key=lambda s: (value(players[other], table[s]), s))
            out.append({"seat": other, "slot": worst})
            free.remove(worst)
        return {"type": "assign_office", "assignments": out}
    if kind == "nominate":
        weakest = min(space["seats"], key=lambda s: (
            sum(c["stars"] for c in players[s]["singers"]), s))
        return {"type": "nominate", "seat": weakest}
    if kind == "fire_director":
        mine = players[me]
        singers = tuple(_singer(c) for c in mine["singers"])
        stage = mine["stage_elements"]
        worst = min(space["directors"], key=lambda d: best_points_of(singers, d, stage))
        return {"type": "fire_director", "director": worst}
    return dict(actions["default"])




RandomBot = seat_bot("RandomBot", "random", easy)
GreedyBot = seat_bot("GreedyBot", "greedy", greedy)
#: the classes the SDK has long exported, by the older names of the levels ``easy`` and
#: ``medium`` (``impresario_rules.play.SEAT_BOTS`` has every level)
SEAT_BOTS: dict[str, type[SeatBot]] = {"random": RandomBot, "greedy": GreedyBot}
