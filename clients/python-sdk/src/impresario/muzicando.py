"""Muzicando helpers and bots for the SDK.

Helpers send the five Muzicando moves for a :class:`~impresario.client.Seat`::

    auction_bid(seat, "2G"); auction_pass(seat); choose_layout(seat, "P")
    place(seat, "red-3", 0, 2); pass_turn(seat)

Bots have ``choose(view, actions) -> move`` and work on the dicts the API returns: ``view`` is the
seat's view of the game, ``actions`` the seat's ``GET /actions`` answer (``moves`` lists, for
``place``, every card in hand with its legal cells). They are the rules package's
(``impresario_rules.muzicando.bots``), the same the engine plays its bot seats with.

Cards are ``"<colour>-<1..7>"`` (Do = 1 … Si = 7) or ``"<colour>-sign"``; colours in order red,
orange, yellow, green, blue, indigo, violet. Layouts: S (Sarabanda), G (Glissando), P (Parada),
M (Muzicando); contracts are a level and a layout, "1S" (lowest) … "4M".
"""

from __future__ import annotations

from impresario_rules.muzicando.bots import (MuzicandoGreedyBot, MuzicandoRandomBot, bid_level,
                                             greedy_move, layout_strength, random_move)
from impresario_rules.muzicando.cards import COLOURS, SIGN_OF
from impresario_rules.muzicando.layouts import LAYOUTS
from impresario_rules.muzicando.rules import CONTRACTS

from ._generated import models
from .client import Seat

#: the sign of each colour (sharp, natural, flat, rest)
SIGN_KIND = SIGN_OF


# ------------------------------------------------------------------------------ helpers
def auction_bid(seat: Seat, contract: str) -> models.MoveResult:
    """Bid a contract such as ``"2G"`` (strictly higher than the last bid)."""
    return seat.move({"type": "auction_bid", "contract": contract})


def auction_pass(seat: Seat) -> models.MoveResult:
    return seat.move({"type": "auction_pass"})


def choose_layout(seat: Seat, layout: str) -> models.MoveResult:
    """As chooser (individual game): ``"S"``, ``"G"``, ``"P"`` or ``"M"``."""
    return seat.move({"type": "choose_layout", "layout": layout})


def place(seat: Seat, card: str, x: int, y: int) -> models.MoveResult:
    """Place ``card`` at ``(x, y)``; a sign's ``(x, y)`` is the cell of the note it covers."""
    return seat.move({"type": "place", "card": card, "x": x, "y": y})


def pass_turn(seat: Seat) -> models.MoveResult:
    """Pass (draws a card while the draw pile lasts; without a pile only with no note to place)."""
    return seat.move({"type": "pass"})


__all__ = ["auction_bid", "auction_pass", "choose_layout", "place", "pass_turn",
           "MuzicandoRandomBot", "MuzicandoGreedyBot", "greedy_move", "random_move",
           "layout_strength", "bid_level", "CONTRACTS", "LAYOUTS", "COLOURS", "SIGN_KIND"]
