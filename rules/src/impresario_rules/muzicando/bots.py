"""Muzicando's bots: ``random`` (uniform over the legal moves) and ``greedy`` (bids by counting
openers and playable runs, keeps the cards that open new rows, sheds signs when they block
opponents).

Each is a function of the seat's view, its actions and a random stream (``impresario_rules.bots``):
its own hand, the layout, the table, the auction and every player's hand size; never another
hand or the draw pile.
"""

from __future__ import annotations

import random
from typing import Any

from ..bots import Actions, Move, SeatBot, View, seat_bot
from .cards import colour_of, is_sign, sign_kind, value_of
from .layouts import LAYOUTS, is_opening_card
from .state import CONTRACTS


# ------------------------------------------------------------------------------ heuristics
def layout_strength(layout: str, hand: list[str]) -> float:
    """How well a hand plays a layout: its openers, and the runs it can play from them."""
    notes = [c for c in hand if not is_sign(c)]
    have = {(colour_of(c), value_of(c)) for c in notes}
    openers = [c for c in notes if is_opening_card(layout, c)]
    if not openers:
        return 0.0
    if layout == "M":       # a pile from each Do held: Do, Re, Mi … in a row
        runs = 0
        for c in openers:
            v = 1
            while (colour_of(c), v + 1) in have:
                v += 1
            runs += v
    elif layout == "P":     # the notes next to each oval held, in its column, both ways
        runs = 0
        for c in openers:
            col, v = colour_of(c), value_of(c)
            lo = v
            while (col, lo - 1) in have:
                lo -= 1
            hi = v
            while (col, hi + 1) in have:
                hi += 1
            runs += hi - lo + 1
    else:                   # Sarabanda, Glissando: notes with a neighbour note in hand
        values = [value_of(c) for c in notes]
        runs = sum(1 for v in values if any((v - w) % 7 in (1, 6) for w in values))
        runs = runs * (0.6 if layout == "G" else 0.8)
    return len(openers) * 1.5 + runs + 0.5 * len([c for c in hand if is_sign(c)])


def bid_level(strength: float, hand_size: int) -> int:
    """The highest level a hand of this strength should bid (0: do not bid)."""
    ratio = strength / max(hand_size, 1)
    if ratio >= 1.2:
        return 4
    if ratio >= 0.95:
        return 3
    if ratio >= 0.75:
        return 2
    if ratio >= 0.4:
        return 1
    return 0


def _holding(view: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["hand_size"] for p in view["players"]}


def _neighbours(view: dict[str, Any], me: int) -> tuple[int | None, int | None]:
    sizes = _holding(view)
    n = len(sizes)
    nxt = next((s for s in ((me + i) % n for i in range(1, n)) if sizes[s]), None)
    prev = next((s for s in ((me - i) % n for i in range(1, n)) if sizes[s]), None)
    return nxt, prev


def _is_opponent(view: dict[str, Any], me: int, seat: int) -> bool:
    team = {p["seat"]: p.get("team") for p in view["players"]}
    return team[me] is None or team[seat] != team[me]


def _follow_ups(layout: str, card: str, hand: list[str]) -> int:
    """My own cards that this note makes (more) playable."""
    col, v = colour_of(card), value_of(card)
    others = [c for c in hand if c != card and not is_sign(c)]
    if layout == "M":
        return sum(1 for c in others if colour_of(c) == col and value_of(c) == v + 1)
    if layout == "P":
        return sum(1 for c in others if colour_of(c) == col and abs(value_of(c) - v) == 1)
    return sum(1 for c in others if (value_of(c) - v) % 7 in (1, 6))


def score_placement(view: dict[str, Any], me: int, card: str, hand: list[str],
                    playable: int = 0) -> float:
    """How much the greedy bot likes placing ``card`` now (``playable``: its notes that have a
    legal cell now; a pass scores 0)."""
    layout = view["layout"]
    if is_sign(card):
        kind = sign_kind(card)
        if len(hand) <= 2:
            return 12.0                    # shed it: it is in the way of going out
        if kind == "rest":
            return 4.0 * playable - 3          # a run: worth it with several notes to play
        nxt, prev = _neighbours(view, me)
        targets = set()
        if kind in ("sharp", "natural") and nxt is not None:
            targets.add(nxt)
        if kind in ("flat", "natural") and prev is not None:
            targets.add(prev)
        gain = sum(8 if _is_opponent(view, me, t) else -10 for t in targets)
        return gain - 1.0                  # only when it blocks opponents
    score = 10.0 + 3 * _follow_ups(layout, card, hand)
    if is_opening_card(layout, card) and layout in ("G", "P", "M") and view["table"]["cells"]:
        # it opens a new row, column or pile for everyone: keep it unless it helps us
        score -= 6 if _follow_ups(layout, card, hand) == 0 else 2
    return score


def greedy_move(view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
    """The greedy heuristic on a seat's view and its action space."""
    me = view["you"]["seat"]
    hand = list(view["you"]["hand"])
    spaces = {m["type"]: m for m in actions["moves"]}
    if "auction_bid" in spaces or "auction_pass" in spaces:
        return _greedy_bid(view, spaces, me, hand)
    if "choose_layout" in spaces:
        layouts = spaces["choose_layout"]["layouts"]
        best = max(layouts, key=lambda lay: (layout_strength(lay, hand), -LAYOUTS.index(lay)))
        return {"type": "choose_layout", "layout": best}
    options: list[tuple[float, int, dict[str, Any]]] = []
    if "place" in spaces:
        cards = spaces["place"]["cards"]
        playable = sum(1 for e in cards if e["cells"] and not is_sign(e["card"]))
        for i, entry in enumerate(cards):
            if entry["cells"]:
                cell = entry["cells"][0]
                s = score_placement(view, me, entry["card"], hand, playable)
                options.append((s, -i, {"type": "place", "card": entry["card"],
                                        "x": cell["x"], "y": cell["y"]}))
    if "pass" in spaces:
        options.append((0.0 if not spaces["pass"].get("draws") else -0.5, 1,
                        {"type": "pass"}))
    if not options:
        return dict(actions["default"])
    return max(options, key=lambda o: (o[0], o[1]))[2]


def _greedy_bid(view: dict[str, Any], spaces: dict[str, Any], me: int, hand: list[str]
                ) -> dict[str, Any]:
    bid = (view.get("auction") or {}).get("bid")
    contracts = spaces.get("auction_bid", {}).get("contracts", [])
    if "auction_pass" in spaces:
        if bid is not None and not _is_opponent(view, me, bid["seat"]) and bid["seat"] != me:
            return {"type": "auction_pass"}  # never overbid the partner
        best = None
        for c in contracts:
            level, layout = int(c[0]), c[1]
            strength = layout_strength(layout, hand)
            if level <= bid_level(strength, len(hand)):
                key = (strength - 2 * level, -CONTRACTS.index(c))
                if best is None or key > best[0]:
                    best = (key, c)
        if best is None:
            return {"type": "auction_pass"}
        return {"type": "auction_bid", "contract": best[1]}
    # the dealer must bid: the lowest contract of his strongest layout
    strongest = max(contracts, key=lambda c: (layout_strength(c[1], hand), -CONTRACTS.index(c)))
    lowest = min((c for c in contracts if c[1] == strongest[1]), key=CONTRACTS.index)
    return {"type": "auction_bid", "contract": lowest}


def random_move(view: dict[str, Any], actions: dict[str, Any], rng: random.Random
                ) -> dict[str, Any]:
    """Uniform over the legal moves described by the action space."""
    moves: list[dict[str, Any]] = []
    for space in actions["moves"]:
        kind = space["type"]
        if kind == "auction_bid":
            moves += [{"type": kind, "contract": c} for c in space["contracts"]]
        elif kind == "choose_layout":
            moves += [{"type": kind, "layout": lay} for lay in space["layouts"]]
        elif kind == "place":
            moves += [{"type": kind, "card": e["card"], "x": cell["x"], "y": cell["y"]}
                      for e in space["cards"] for cell in e["cells"]]
        else:
            moves.append({"type": kind})
    if not moves:
        return dict(actions["default"])
    return rng.choice(moves)


def greedy(view: View, actions: Actions, rng: random.Random) -> Move:
    """Bids by counting openers and the runs it can play from them (never over its partner);
    chooses its strongest layout; in play sheds notes that unlock its own next notes, keeps the
    cards that would open a new row, column or pile for everyone, and plays a sign only when its
    block falls on opponents (or to go out). It needs no randomness."""
    return greedy_move(view, actions)


def uniform(view: View, actions: Actions, rng: random.Random) -> Move:
    """Uniform over the legal moves the action space lists."""
    return random_move(view, actions, rng)


def easy(view: View, actions: Actions, rng: random.Random) -> Move:
    """A newcomer: bids and chooses the layout as ``medium`` does (a contract drawn at random
    throws the hand, and in the team game the partner's with it), and plays the cards at
    random."""
    if any(space["type"] in ("auction_bid", "auction_pass", "choose_layout")
           for space in actions["moves"]):
        return greedy_move(view, actions)
    return random_move(view, actions, rng)




MuzicandoRandomBot = seat_bot("MuzicandoRandomBot", "random", easy)
MuzicandoGreedyBot = seat_bot("MuzicandoGreedyBot", "greedy", greedy)
SEAT_BOTS: dict[str, type[SeatBot]] = {"random": MuzicandoRandomBot, "greedy": MuzicandoGreedyBot}
