"""Bots that play a seat through the API, and the loop that plays a seat to the end.

A bot is anything with ``choose(view, actions) -> move``: ``view`` is the seat's view of the game
(``GET /v1/games/{id}``), ``actions`` the seat's legal moves (``GET /v1/games/{id}/actions``).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Protocol

from .client import Seat
from .errors import Conflict, PreconditionFailed

ROLES = ("turandot", "calaf", "liu", "ping", "pong", "pang")
ROLE_SEX = ("female", "male", "female", "male", "male", "male")
CATEGORIES = ("professional", "amateur", "alternative", "classic", "comic", "dark")


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]: ...


# ------------------------------------------------------------------------------ random
class RandomBot:
    """Uniform over the legal moves (the compact descriptions are expanded by counting, so the
    choice is uniform without listing every move)."""

    name = "random"

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        space = actions["moves"][0]
        kind = space["type"]
        rng = self.rng
        if kind == "bid":
            slots, m = space["slots"], space["max_money"]
            per_slot = (m + 1) * 2
            total = len(slots) * per_slot + (2 if space["helper"] else 0)
            i = rng.randrange(total)
            if i >= len(slots) * per_slot:
                return {"type": "bid", "slot": None, "money": 1,
                        "bluff": i - len(slots) * per_slot == 1}
            slot, rest = divmod(i, per_slot)
            return {"type": "bid", "slot": slots[slot], "money": rest >> 1,
                    "bluff": bool(rest & 1)}
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


# ------------------------------------------------------------------------------ greedy
def _director_bonus(director: str | None, cards: list[dict], favourites: int,
                    stage: int) -> int:
    cats = [c["category"] for c in cards]
    if director in (None, "neutral"):
        return 0
    pairs = {"dark_over_comic": ("dark", "comic"), "comic_over_dark": ("comic", "dark"),
             "alternative_over_classic": ("alternative", "classic"),
             "classic_over_alternative": ("classic", "alternative")}
    if director in pairs:
        plus, minus = pairs[director]
        return cats.count(plus) - cats.count(minus)
    if director == "favourite_roles":
        return favourites
    if director == "stagecraft":
        return stage
    if director == "full_spectrum":
        return 3 if set(CATEGORIES) <= set(cats) else 0
    if director == "undefined_sex":
        return sum(1 for c in cards if c["sex"] == "undefined")
    return 0


def _key(cards: list[dict]) -> tuple:
    return tuple((c["id"], c["category"], c["sex"], c["stars"], c["favourite_role"])
                 for c in cards)


@lru_cache(maxsize=100_000)
def _best_points(cards_key: tuple, director: str | None, stage: int) -> int:
    """Best score of up to 6 singers placed in distinct roles, director included.

    Everything that depends on the roles is a sum over singers of what each earns in its role
    (its favourite role, twice with the favourite-roles director; minus one in a role of the
    other sex), so the best placement is found role set by role set (64 sets) instead of
    trying all 720 orders; the rest (stars, stage, the director's other effects) is fixed."""
    cards = [{"id": i, "category": c, "sex": s, "stars": st, "favourite_role": f}
             for i, c, s, st, f in cards_key]
    if len(cards) > len(ROLES):
        return stage
    per_fav = 2 if director == "favourite_roles" else 1
    base = sum(c["stars"] for c in cards) + stage + _director_bonus(director, cards, 0, stage)
    best_by_roles = {0: 0}
    for c in cards:
        gains = [per_fav * (c["favourite_role"] == role)
                 - (c["sex"] != "undefined" and c["sex"] != sex)
                 for role, sex in zip(ROLES, ROLE_SEX)]
        nxt: dict[int, int] = {}
        for used, value in best_by_roles.items():
            for r, gain in enumerate(gains):
                if not used >> r & 1:
                    key = used | 1 << r
                    if nxt.get(key, value + gain - 1) < value + gain:
                        nxt[key] = value + gain
        best_by_roles = nxt
    return base + max(best_by_roles.values())


def cast_value(singers: list[dict], director: str | None, stage: int = 0) -> int:
    return _best_points(_key(singers), director, stage)


class GreedyBot:
    """A real heuristic: values each card by its marginal score for the bot's own cast (stars,
    sex fit, favourite roles and the director's synergy), spends money only on a card that is
    clearly its best and that another player wants too, takes a helper (a stage element) when no
    card is worth much, fires the director that would hurt it most, assigns office hires to
    give itself the best card and the others their worst, and casts optimally."""

    name = "greedy"

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # the marginal value of a card for a player
    def _value(self, player: dict, card: dict, view: dict) -> float:
        singers = player["singers"]
        director = player["director"]["id"] if player["director"] else None
        stage = player["stage_elements"]
        if card["kind"] == "director":
            base = cast_value(singers, None, stage)
            return cast_value(singers, card["id"], stage) - base + 0.3 * (6 - len(singers)) * (
                1 if card["id"] in ("favourite_roles", "full_spectrum", "undefined_sex") else 0)
        before = cast_value(singers, director, stage)
        return cast_value(singers + [card], director, stage) - before

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        space = actions["moves"][0]
        kind = space["type"]
        me = view["you"]["seat"]
        players = view["players"]
        mine = players[me]
        if kind == "cast":
            return {"type": "cast", "roles": space["optimal"]}
        if kind == "bid":
            return self._bid(view, space, mine, me)
        if kind == "assign_office":
            return self._office(view, space, me)
        if kind == "nominate":
            # name the leader by stars: whoever fires will remove what hurts them, not us
            others = sorted(space["seats"], key=lambda s: -sum(c["stars"] for c in players[s]["singers"]))
            return {"type": "nominate", "seat": others[-1]}
        if kind == "fire_director":
            worst = min(space["directors"], key=lambda d: self._value(
                mine, {"kind": "director", "id": d}, view))
            return {"type": "fire_director", "director": worst}
        return dict(actions["default"])

    def _bid(self, view: dict, space: dict, mine: dict, me: int) -> dict[str, Any]:
        table = {t["slot"]: t["card"] for t in view["table"] if t["card"] is not None}
        values = {slot: self._value(mine, card, view) for slot, card in table.items()
                  if slot in space["slots"]}
        ranked = sorted(values, key=lambda s: (-values[s], s))
        best = ranked[0]
        second = values[ranked[1]] if len(ranked) > 1 else values[best]
        worst = min(values.values())
        money = space["max_money"]
        bluff = self.rng.random() < 0.5
        # a helper is a sure point; the office hire that comes with it is likely the worst card
        if space["helper"] and money >= 1 and 1 + worst >= values[best] - 0.5:
            return {"type": "bid", "slot": None, "money": 1, "bluff": bluff}
        # do others want the same card? (their best card by their own values)
        contested = 0
        for p in view["players"]:
            if p["seat"] == me:
                continue
            theirs = {s: self._value(p, c, view) for s, c in table.items()}
            if theirs and max(theirs, key=lambda s: (theirs[s], -s)) == best:
                contested += 1
        pay = 0
        margin = values[best] - second
        if contested and money and margin >= 1:
            pay = 2 if (margin >= 3 and money >= 2 and contested > 1) else 1
        return {"type": "bid", "slot": best, "money": pay, "bluff": bluff}

    def _office(self, view: dict, space: dict, me: int) -> dict[str, Any]:
        players = view["players"]
        table = {t["slot"]: t["card"] for t in view["table"] if t["card"] is not None}
        free = [s for s in space["slots"] if s in table]
        out = []
        seats = list(space["seats"])
        if me in seats:
            mine = max(free, key=lambda s: (self._value(players[me], table[s], view), -s))
            out.append({"seat": me, "slot": mine})
            free.remove(mine)
            seats.remove(me)
        for seat in seats:
            worst = min(free, key=lambda s: (self._value(players[seat], table[s], view), s))
            out.append({"seat": seat, "slot": worst})
            free.remove(worst)
        return {"type": "assign_office", "assignments": out}


def _bots() -> dict[str, dict[str, Callable[..., Bot]]]:
    from .muzicando import MuzicandoGreedyBot, MuzicandoRandomBot
    from .wordjam import WordJamBot

    return {
        "turandot": {"random": RandomBot, "greedy": GreedyBot},
        "wordjam": {"wordsmith": WordJamBot},
        "muzicando": {"random": MuzicandoRandomBot, "greedy": MuzicandoGreedyBot},
    }


def bot_names(ruleset: str = "turandot") -> list[str]:
    return list(_bots().get(ruleset, {}))


def make_bot(name: str, seed: int | None = None, ruleset: str = "turandot") -> Bot:
    """A bot of ``ruleset`` by name (turandot: random, greedy; wordjam: wordsmith;
    muzicando: random, greedy)."""
    by_game = _bots()
    if ruleset not in by_game:
        raise ValueError(f"no bots for {ruleset!r}; rulesets: {', '.join(by_game)}")
    try:
        return by_game[ruleset][name](seed=seed)
    except KeyError:
        raise ValueError(f"unknown {ruleset} bot {name!r}; bots: "
                         f"{', '.join(by_game[ruleset])}") from None


# ------------------------------------------------------------------------------ play loop
def with_round(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A bid stamped with the view's round (unless it has one), so it never lands in a later
    round; any other move as it is."""
    if move.get("type") == "bid" and "round" not in move and view.get("round"):
        return {**move, "round": view["round"]}
    return move


def take_turn(seat: Seat, bot: Bot, view: dict[str, Any] | None = None) -> bool:
    """If the seat must act now, let the bot choose and move. Returns whether it moved.

    The move is sent with the version of the view the bot chose from (``If-Match``), so it
    applies to that situation or not at all: a choice made from an old view never lands in a
    later turn. When the game moved on first (412), the bot chooses again from a fresh view
    (each 412 means someone else's move or a deadline made progress, so this ends)."""
    view = view or seat.view()
    while view["status"] == "playing" and seat.is_my_turn(view):
        actions = seat.actions()
        if not actions["moves"]:
            return False
        move = with_round(bot.choose(view, actions), view)
        try:
            seat.move(move, if_match=view["version"])
        except PreconditionFailed:
            sent, view = view["version"], seat.view()
            if view["version"] == sent:  # refused, yet nothing changed: do not spin
                return False
            continue
        except Conflict:
            return False  # a window closed or the phase changed: the caller re-reads
        return True
    return False


#: events after which the seat's turn cannot have come (someone else's sealed bid or cast)
_QUIET = {"bid_committed", "cast", "seat_taken", "deadline_passed", "helper_hired",
          "helper_missed", "slot_tied", "bids_revealed", "card_discarded", "dummy_received",
          "directors_removed", "round_ended"}


def play_seat(seat: Seat, bot: Bot,
              on_move: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``seat`` with ``bot`` until the game is over; returns the final view.

    The seat follows the game's event stream (server-sent events) instead of polling: it reads
    the view again only after an event that can hand it a turn."""
    view = seat.view()
    if take_turn(seat, bot, view) and on_move is not None:
        on_move(seat.last_view or view)
    for event in seat.stream(after=view["last_seq"]):
        if event.type in _QUIET:
            continue
        view = seat.view()
        if view["status"] == "finished":
            break
        while take_turn(seat, bot, view):
            if on_move is not None:
                on_move(seat.last_view or view)
            view = seat.view()
    return seat.view()
