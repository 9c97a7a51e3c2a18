"""The search the ``hard`` bots share: each of the seat's candidate moves weighed in the worlds
its view allows (determinized, information-set search, in the manner of OpenSpiel's
``ismcts.py``).

A seat does not see the whole game: the others' hands, their sealed bids, the deck. The search
samples a world the seat cannot tell apart from the real one (a full state its view allows, the
unseen part drawn at random), plays every candidate out in it, and values the outcome for the
seat; then the next world, until it has weighed ``worlds`` of them or its think budget
(:class:`~impresario_rules.bots.Budget`) is spent. Every candidate meets the same worlds, and
the candidate the policy chooses by its outcomes is the move.

The loop is written once, here (:func:`best_move`). A ruleset gives only what is its own, as a
:class:`Game`: what its worlds share (:meth:`Game.begin`, drawn once), how to sample a world
(:meth:`Game.sample`), how to play a candidate out in one and value it (:meth:`Game.value`),
and, if it differs from the best total, how to choose (:meth:`Game.choose`). Which moves are
candidates, and what the bot plays where it does not search, stay with the ruleset's
``search.py``.

Like everything in this package it reads no clock of its own: the budget's clock, if any, is the
caller's; without one a search is bounded by its worlds alone, and reproducible from its random
stream. The loop itself draws nothing from that stream: the game does (:meth:`~Game.begin`,
then :meth:`~Game.sample` world after world), so a ruleset decides exactly what each world
costs of it.
"""

from __future__ import annotations

import random
from typing import Any, Generic, Sequence, TypeVar

from .bots import Budget, Move

#: a sampled world, as a ruleset's :class:`Game` makes it (a state, with what goes with it)
World = TypeVar("World")


def best_total(values: Sequence[Sequence[float]]) -> int:
    """The candidate with the best total over the worlds (``values[i][w]``: candidate ``i`` in
    world ``w``), the first of those tied; totals summed world after world, from the first."""
    totals = [0.0] * len(values)
    for i, outcomes in enumerate(values):
        for value in outcomes:
            totals[i] += value
    return max(range(len(values)), key=lambda i: (totals[i], -i))


class Game(Generic[World]):
    """What a ruleset gives the search for one decision of one seat (it knows the seat's view
    and whatever else its worlds share)."""

    def begin(self, rng: random.Random) -> None:
        """Draws from ``rng`` what every world of the decision shares, once, before the first
        world (when there are candidates to weigh). Nothing, unless the ruleset says so."""

    def sample(self, rng: random.Random) -> World | None:
        """A world the seat cannot tell apart from the real one, its unseen part drawn from
        ``rng``; ``None`` when the view allows none (the search then plays its first
        candidate)."""
        raise NotImplementedError

    def value(self, world: World, move: Move) -> float:
        """What ``move`` comes to for the seat in ``world``: the candidate played out there by
        the rules, the position reached valued (higher is better)."""
        raise NotImplementedError

    def choose(self, values: list[list[float]]) -> int:
        """The candidate to play by its outcomes in the same worlds (``values[i][w]``):
        the best total, the first of those tied."""
        return best_total(values)


def best_move(game: Game[Any], candidates: Sequence[Move], rng: random.Random, budget: Budget,
              worlds: int) -> Move:
    """The move of ``candidates`` that ``game`` chooses by their outcomes in at most ``worlds``
    sampled worlds (fewer once ``budget`` is likely spent): what the worlds share drawn, then
    each world sampled and every candidate valued in it, in order. A lone candidate is played
    unweighed; the first is played when the view allows no world."""
    if len(candidates) == 1:
        return candidates[0]
    game.begin(rng)
    values: list[list[float]] = [[] for _ in candidates]
    done = 0
    while done < worlds:
        world = game.sample(rng)
        if world is None:
            return candidates[0]
        for i, move in enumerate(candidates):
            values[i].append(game.value(world, move))
        done += 1
        if budget.spent(done):
            break
    return candidates[game.choose(values)]


__all__ = ["Game", "World", "best_move", "best_total"]
