"""Turandot (daVinci, 2009) for 2–5 players, with the 2-player dummy: the whole flow of play.

Seven rounds; rounds 1–3 and 5–7 hire singers, round 4 hires directors. Each round: the maestro
lays players+1 cards, everyone commits a sealed bid, the bids are revealed together and resolved
(clear winners by money, helpers for money-only bids, office hires chosen by the maestro), and in
rounds 1–3 the maestro names a player who fires a director. After round 7 each player casts their
six singers into the six roles, and the game is scored.

The state is a plain dict (see :func:`Turandot.new_game`); every function returns a new dict and
shares the untouched parts with the old one.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Sequence

from ..base import (STALE, Action, Event, IllegalMove, InvalidOptions, OutOfTurn, Ruleset, State,
                    Viewer)
from .. import rng as rngmod
from .cards import (DEFAULT, DIRECTOR_CARDS, DIRECTORS, HELPERS, ROLES, Catalogue,
                    catalogue_for, parse_catalogue)
from .scoring import LINES, best_arrangement, score_cast

ROUNDS = 7
DIRECTOR_ROUND = 4
FIRING_ROUNDS = (1, 2, 3)
START_MONEY = 3

BIDDING, OFFICE, NOMINATE, FIRE, CASTING, FINISHED = (
    "bidding", "office", "nominate", "fire", "casting", "finished")


def helpers_for(players: int) -> int:
    """Helpers in play: only the costume designer with 2–3 players, both with 4–5."""
    return 1 if players <= 3 else 2


def _bid_dict(bid: list | None) -> dict[str, Any] | None:
    if bid is None:
        return None
    return {"slot": bid[0], "money": bid[1], "bluff": bid[2]}


def face_down(bid: list | None) -> int:
    """How many face-down cards a bid puts on the table (R3): number card, money cards, bluff."""
    if bid is None:
        return 0
    return (bid[0] is not None) + bid[1] + bid[2]


class Turandot(Ruleset):
    name = "turandot"
    title = "Turandot"
    min_players = 2
    max_players = 5

    # ------------------------------------------------------------------ setup
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int
                 ) -> tuple[State, list[Event]]:
        self.check_players(players)
        options = self.known_options(options)
        self.check_seed(seed)
        g = rngmod.seed_state(seed)
        first = options.get("first_maestro", 0)
        if first == "random":
            first, g = rngmod.below(g, players)
        elif type(first) is not int or not 0 <= first < players:
            raise InvalidOptions("invalid_first_maestro",
                                 f"first_maestro must be a seat from 0 to {players - 1} or 'random'")
        custom = options.get("catalogue")
        if custom is not None:
            cat = parse_catalogue(custom)
            catalogue = {"key": cat.key, "singers": cat.rows()}
        else:
            cat, catalogue = DEFAULT, None
        deck, g = rngmod.shuffled(g, list(cat.ids))
        state: State = {
            "n": players,
            "round": 1,
            "phase": BIDDING,
            "maestro": first,
            "first_maestro": first,
            "rng": g,
            "deck": deck[: 6 * (players + 1)],
            "pile": list(DIRECTORS),
            "fired": [],
            "removed": [],
            "table": [],
            "bids": [None] * players,
            "reveal": None,
            "money": [START_MONEY] * players,
            "stage": [0] * players,
            "singers": [[] for _ in range(players)],
            "director": [None] * players,
            "waiting": [],
            "nominee": None,
            "casts": [None] * players,
            "dummy": {"singers": [], "director": None} if players == 2 else None,
            "catalogue": catalogue,
        }
        events: list[Event] = []
        state = self._start_round(state, events)
        return state, events

    # ------------------------------------------------------------------ queries
    def is_finished(self, state: State) -> bool:
        return state["phase"] == FINISHED

    def situation(self, state: State, seat: int) -> dict[str, Any]:
        return {"round": state["round"], "phase": state["phase"],
                "pending": self.pending(state).get(seat, [])}

    def pending(self, state: State) -> dict[int, list[str]]:
        phase = state["phase"]
        if phase == BIDDING:
            # asked before every move: a plain loop is a fifth cheaper than a comprehension over
            # enumerate()
            bids = state["bids"]
            waiting: dict[int, list[str]] = {}
            for s in range(len(bids)):
                if bids[s] is None:
                    waiting[s] = ["bid"]
            return waiting
        if phase == OFFICE:
            return {state["maestro"]: ["assign_office"]}
        if phase == NOMINATE:
            return {state["maestro"]: ["nominate"]}
        if phase == FIRE:
            return {state["nominee"]: ["fire_director"]}
        if phase == CASTING:
            return {s: ["cast"] for s, c in enumerate(state["casts"]) if c is None}
        return {}

    def _kinds(self, state: State, seat: int) -> list[str] | None:
        """``pending(state).get(seat)`` without building the whole mapping (a hot path)."""
        phase = state["phase"]
        if phase == BIDDING:
            return ["bid"] if state["bids"][seat] is None else None
        if phase == CASTING:
            return ["cast"] if state["casts"][seat] is None else None
        if phase == OFFICE:
            return ["assign_office"] if seat == state["maestro"] else None
        if phase == NOMINATE:
            return ["nominate"] if seat == state["maestro"] else None
        if phase == FIRE:
            return ["fire_director"] if seat == state["nominee"] else None
        return None

    def catalogue(self, state: State) -> Catalogue:
        return catalogue_for(state["catalogue"])

    # ------------------------------------------------------------------ moves

    # -- bidding
    def _bid(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        expected = action.get("round")
        if expected is not None and expected != state["round"]:
            raise OutOfTurn("stale_round",
                            f"this bid is for round {expected!r}, but the game is in round "
                            f"{state['round']}", kind=STALE)
        slot, money, bluff = action["slot"], action["money"], action["bluff"]
        if state["phase"] != BIDDING:
            raise OutOfTurn("not_bidding_phase",
                            f"bids are made in the bidding phase; the game is in the "
                            f"{state['phase']} phase")
        bid = [slot, money, bluff]
        bids = state["bids"]
        committed = bids[seat]
        if committed is not None:
            if committed == bid:
                return state, []  # R5: re-sending the identical bid changes nothing
            raise OutOfTurn("bid_already_committed",
                            "you have already committed a different bid this round; a committed "
                            "bid is final")
        self._check_bid(state, seat, slot, money)
        bids = list(bids)
        bids[seat] = bid
        new = state.copy()
        new["bids"] = bids
        # face_down() and _bid_dict() written out: this runs for most moves of a game
        events: list[Event] = [{
            "type": "bid_committed", "round": state["round"], "seat": seat,
            "face_down": (slot is not None) + money + bluff,
            "_private": {str(seat): {"bid": {"slot": slot, "money": money, "bluff": bluff}}},
        }]
        if None not in bids:  # every seat has bid (a bid is a list, never equal to None)
            new = self._resolve(new, events)
        return new, events

    def _check_bid(self, state: State, seat: int, slot: int | None, money: int) -> None:
        n = state["n"]
        if slot is None and money == 0:
            raise IllegalMove("empty_bid",
                              "a bid needs a number card, or exactly one money card for a helper "
                              "(the bluff alone is not a bid)")
        if slot is not None and not 1 <= slot <= n + 1:
            raise IllegalMove("slot_out_of_range", f"slot must be from 1 to {n + 1}")
        if money > state["money"][seat]:
            raise IllegalMove("not_enough_money",
                              f"you bid {money} money but hold only {state['money'][seat]}")
        if slot is None:
            if seat == state["maestro"]:
                raise IllegalMove("maestro_cannot_hire_helper",
                                  "the maestro may not bid for a helper (money-only bid)")
            if state["round"] == DIRECTOR_ROUND:
                raise IllegalMove("no_helpers_in_director_round",
                                  "no helper can be hired in round 4 (the director round)")
            if money != 1:
                raise IllegalMove("helper_bid_one_money",
                                  "a bid for a helper is exactly one money card and no number card")

    # The round flow below (_resolve, _after_hiring, _begin_firing, _do_nominate, _end_round,
    # _start_round) takes ``new``, a fresh shallow copy of the state that the current move owns,
    # and updates it in place instead of copying the whole state again at each step. Only its
    # top-level keys are assigned: the lists and dicts it shares with older states are replaced,
    # never mutated.

    def _resolve(self, new: State, events: list[Event]) -> State:
        """The reveal and the hiring phase, up to the first decision a player must make."""
        n, maestro, rnd = new["n"], new["maestro"], new["round"]
        bids = new["bids"]
        events.append({
            "type": "bids_revealed", "round": rnd,
            "bids": [{"seat": s, "slot": b[0], "money": b[1], "bluff": b[2]}
                     for s, b in enumerate(bids)],
        })
        table = list(new["table"])
        money = list(new["money"])
        order = _CLOCKWISE_AFTER[n][maestro]
        by_slot: dict[int, list[int]] = {}
        helper_bidders: list[int] = []
        for s in order:
            slot = bids[s][0]
            if slot is None:
                helper_bidders.append(s)
            elif slot in by_slot:
                by_slot[slot].append(s)
            else:
                by_slot[slot] = [s]
        hires: list[tuple[int, str]] = []
        for slot in sorted(by_slot):
            bidders = by_slot[slot]
            if len(bidders) == 1:
                winner = bidders[0]
                top = bids[winner][1]
            else:
                top = max(bids[s][1] for s in bidders)
                leaders = [s for s in bidders if bids[s][1] == top]
                if len(leaders) != 1:
                    events.append({"type": "slot_tied", "round": rnd, "slot": slot,
                                   "seats": sorted(bidders)})
                    continue
                winner = leaders[0]
            card = table[slot - 1]
            table[slot - 1] = None
            money[winner] -= top
            hires.append((winner, card))
            events.append({"type": "hired", "round": rnd, "seat": winner, "slot": slot,
                           "card": card, "money_spent": top, "by": "bid"})
        if hires:
            _hire(new, hires, rnd)
        if helper_bidders:
            stage = list(new["stage"])
            available = helpers_for(n)
            for i, s in enumerate(helper_bidders):
                if i < available:
                    money[s] -= 1
                    stage[s] += 1
                    events.append({"type": "helper_hired", "round": rnd, "seat": s,
                                   "helper": HELPERS[i]})
                else:
                    events.append({"type": "helper_missed", "round": rnd, "seat": s})
            new["stage"] = stage
        new["table"] = table
        new["money"] = money
        new["reveal"] = [list(b) for b in bids]
        # office hires, clockwise from the maestro's left (the default order, R7)
        got = {s for s, _card in hires}
        waiting = [s for s in order if s not in got]
        if waiting:
            new["phase"] = OFFICE
            new["waiting"] = waiting
            events.append({"type": "office_pending", "round": rnd, "seats": waiting})
            return new
        return self._after_hiring(new, events)

    # -- office hires
    def _assign_office(self, state: State, seat: int, action: Action
                       ) -> tuple[State, list[Event]]:
        if state["phase"] != OFFICE:
            raise OutOfTurn("not_office_phase", "there are no office hires to assign now")
        if seat != state["maestro"]:
            raise OutOfTurn("not_your_turn", "only the maestro assigns the office hires")
        assignments = action["assignments"]
        waiting = state["waiting"]
        seats = [a["seat"] for a in assignments]
        if sorted(seats) != sorted(waiting):
            raise IllegalMove("office_seats_mismatch",
                              f"assign exactly one card to each waiting seat: {sorted(waiting)}",
                              waiting=list(waiting))
        slots = [a["slot"] for a in assignments]
        if len(set(slots)) != len(slots):
            raise IllegalMove("duplicate_slot", "each card can go to one seat only")
        table = state["table"]
        for slot in slots:
            if not 1 <= slot <= len(table):
                raise IllegalMove("slot_out_of_range", f"slot must be from 1 to {len(table)}")
            if table[slot - 1] is None:
                raise IllegalMove("slot_empty", f"slot {slot} has no card left")
        rnd = state["round"]
        new = state.copy()
        table = list(table)
        events: list[Event] = []
        by_seat = {a["seat"]: a["slot"] for a in assignments}
        hires: list[tuple[int, str]] = []
        for s in waiting:
            slot = by_seat[s]
            card = table[slot - 1]
            table[slot - 1] = None
            hires.append((s, card))
            events.append({"type": "hired", "round": rnd, "seat": s, "slot": slot,
                           "card": card, "money_spent": 0, "by": "office"})
        _hire(new, hires, rnd)
        new["table"] = table
        new["waiting"] = []
        return self._after_hiring(new, events), events

    def _after_hiring(self, new: State, events: list[Event]) -> State:
        """The one card left on the table is discarded (2 players: it goes to the dummy)."""
        rnd = new["round"]
        table = new["table"]
        left = [c for c in table if c is not None]
        assert len(left) == 1, table
        card = left[0]
        new["table"] = [None] * len(table)
        dummy = new["dummy"]
        if dummy is not None:
            dummy = dict(dummy)
            if rnd == DIRECTOR_ROUND:
                dummy["director"] = card
            else:
                dummy["singers"] = dummy["singers"] + [card]
            new["dummy"] = dummy
            events.append({"type": "dummy_received", "round": rnd, "card": card})
        else:
            events.append({"type": "card_discarded", "round": rnd, "card": card})
        if rnd in FIRING_ROUNDS:
            return self._begin_firing(new, events)
        return self._end_round(new, events)

    # -- firing a director
    def _begin_firing(self, new: State, events: list[Event]) -> State:
        new["phase"] = NOMINATE
        if new["n"] == 2:
            # the only player the maestro may name is the opponent: a forced move is played
            return self._do_nominate(new, 1 - new["maestro"], events, forced=True)
        return new

    def _nominate(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] != NOMINATE:
            raise OutOfTurn("not_nominate_phase", "there is no director firing to nominate for now")
        if seat != state["maestro"]:
            raise OutOfTurn("not_your_turn", "only the maestro names who fires a director")
        nominee = action["seat"]
        if not 0 <= nominee < state["n"]:
            raise IllegalMove("unknown_seat", f"there is no seat {nominee!r} at this table")
        if nominee == seat:
            raise IllegalMove("cannot_nominate_self",
                              "the maestro must name another player to fire a director")
        events: list[Event] = []
        return self._do_nominate(state.copy(), nominee, events), events

    def _do_nominate(self, new: State, nominee: int, events: list[Event],
                     forced: bool = False) -> State:
        new["phase"] = FIRE
        new["nominee"] = nominee
        event: Event = {"type": "nominated", "round": new["round"], "seat": nominee}
        if forced:
            event["forced"] = True
        events.append(event)
        return new

    def _fire_director(self, state: State, seat: int, action: Action
                       ) -> tuple[State, list[Event]]:
        if state["phase"] != FIRE:
            raise OutOfTurn("not_fire_phase", "no director is to be fired now")
        if seat != state["nominee"]:
            raise OutOfTurn("not_your_turn", "only the named player fires a director")
        director = action["director"]
        if director not in state["pile"]:
            raise IllegalMove("director_not_in_pile",
                              f"{director!r} is not in the director pile; the pile holds "
                              f"{', '.join(state['pile'])}")
        new = state.copy()
        new["pile"] = [d for d in state["pile"] if d != director]
        new["fired"] = state["fired"] + [[seat, director]]
        new["nominee"] = None
        events: list[Event] = [{"type": "director_fired", "round": state["round"], "seat": seat,
                                "director": director}]
        return self._end_round(new, events), events

    # -- rounds
    def _end_round(self, new: State, events: list[Event]) -> State:
        rnd = new["round"]
        new["bids"] = [None] * new["n"]
        if rnd == ROUNDS:
            new["phase"] = CASTING
            events.append({"type": "round_ended", "round": rnd, "next_maestro": None})
            events.append({"type": "casting_started"})
            return new
        new["maestro"] = (new["maestro"] + 1) % new["n"]  # Puccini passes to the left
        new["round"] = rnd + 1
        events.append({"type": "round_ended", "round": rnd, "next_maestro": new["maestro"]})
        return self._start_round(new, events)

    def _start_round(self, new: State, events: list[Event]) -> State:
        n, rnd = new["n"], new["round"]
        if rnd == DIRECTOR_ROUND:
            pile, g = rngmod.shuffled(new["rng"], new["pile"])
            new["rng"] = g
            new["table"] = pile[: n + 1]
            new["removed"] = pile[n + 1:]
            new["pile"] = []
        else:
            deck = new["deck"]
            new["table"] = deck[: n + 1]
            new["deck"] = deck[n + 1:]
        new["phase"] = BIDDING
        new["bids"] = [None] * n
        events.append({"type": "round_started", "round": rnd, "maestro": new["maestro"],
                       "table": list(new["table"])})
        if new["removed"] and rnd == DIRECTOR_ROUND:
            events.append({"type": "directors_removed", "round": rnd,
                           "directors": list(new["removed"])})
        return new

    # -- casting
    def _cast(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] != CASTING:
            raise OutOfTurn("not_casting_phase", "casting comes after round 7")
        roles = action["roles"]
        singers = state["singers"][seat]
        cat = self.catalogue(state)
        if roles is None:
            roles = list(best_arrangement(singers, state["director"][seat], cat))
        elif sorted(roles) != sorted(singers):
            raise IllegalMove("not_a_permutation",
                              "cast each of your 6 singers in exactly one role; your singers are "
                              + ", ".join(singers), singers=list(singers))
        committed = state["casts"][seat]
        if committed is not None:
            if committed == roles:
                return state, []
            raise OutOfTurn("already_cast", "you have already cast your singers")
        casts = list(state["casts"])
        casts[seat] = list(roles)
        new = state.copy()
        new["casts"] = casts
        events: list[Event] = [{"type": "cast", "seat": seat, "roles": list(roles)}]
        if None not in casts:  # every seat has cast (a cast is a list, never equal to None)
            new["phase"] = FINISHED
            result = self.score(new)
            events.append({
                "type": "game_finished", "winners": result["winners"],
                "dummy_wins": result["dummy_wins"],
                "totals": [p["total"] for p in result["players"]],
            })
        return new, events

    # ------------------------------------------------------------------ legal moves
    def _bid_options(self, state: State, seat: int) -> tuple[list[int], int, bool]:
        n = state["n"]
        m = state["money"][seat]
        helper = seat != state["maestro"] and state["round"] != DIRECTOR_ROUND and m >= 1
        return list(range(1, n + 2)), m, helper

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        kinds = self._kinds(state, seat)
        if not kinds:
            return []
        kind = kinds[0]
        if kind == "bid":
            slots, m, helper = self._bid_options(state, seat)
            out = [{"type": "bid", "slot": s, "money": k, "bluff": b}
                   for s in slots for k in range(m + 1) for b in (False, True)]
            if helper:
                out += [{"type": "bid", "slot": None, "money": 1, "bluff": b}
                        for b in (False, True)]
            return out
        if kind == "assign_office":
            waiting = state["waiting"]
            slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
            return [{"type": "assign_office",
                     "assignments": [{"seat": s, "slot": p} for s, p in zip(waiting, perm)]}
                    for perm in itertools.permutations(slots, len(waiting))]
        if kind == "nominate":
            return [{"type": "nominate", "seat": s} for s in range(state["n"]) if s != seat]
        if kind == "fire_director":
            return [{"type": "fire_director", "director": d} for d in state["pile"]]
        if kind == "cast":
            return [{"type": "cast", "roles": list(p)}
                    for p in itertools.permutations(state["singers"][seat])]
        raise AssertionError(kind)

    def sample_action(self, state: State, seat: int, rng: random.Random) -> Action:
        if state["phase"] == BIDDING and state["bids"][seat] is None:
            # one uniform index into legal_actions' list of bids, decoded without building it
            # (_bid_options written out: most moves of a game are bids)
            m = state["money"][seat]
            helper = seat != state["maestro"] and state["round"] != DIRECTOR_ROUND and m >= 1
            slots = _SLOTS[state["n"]]
            return decode_bid(rng.randrange(bid_count(len(slots), m, helper)), slots, m)
        kinds = self._kinds(state, seat)
        if not kinds:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        kind = kinds[0]
        if kind == "assign_office":
            slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
            chosen = rng.sample(slots, len(state["waiting"]))
            return {"type": "assign_office",
                    "assignments": [{"seat": s, "slot": p}
                                    for s, p in zip(state["waiting"], chosen)]}
        if kind == "nominate":
            others = [s for s in range(state["n"]) if s != seat]
            return {"type": "nominate", "seat": rng.choice(others)}
        if kind == "fire_director":
            return {"type": "fire_director", "director": rng.choice(state["pile"])}
        if kind == "cast":
            return {"type": "cast", "roles": rng.sample(state["singers"][seat], 6)}
        raise AssertionError(kind)

    def action_space(self, state: State, seat: int) -> list[dict[str, Any]]:
        kinds = self._kinds(state, seat)
        if not kinds:
            return []
        kind = kinds[0]
        if kind == "bid":
            slots, m, helper = self._bid_options(state, seat)
            return [{"type": "bid", "slots": slots, "max_money": m, "helper": helper,
                     "bluff": True}]
        if kind == "assign_office":
            return [{"type": "assign_office", "seats": list(state["waiting"]),
                     "slots": [i + 1 for i, c in enumerate(state["table"]) if c is not None]}]
        if kind == "nominate":
            return [{"type": "nominate", "seats": [s for s in range(state["n"]) if s != seat]}]
        if kind == "fire_director":
            return [{"type": "fire_director", "directors": list(state["pile"])}]
        if kind == "cast":
            singers = state["singers"][seat]
            best = list(best_arrangement(singers, state["director"][seat], self.catalogue(state)))
            return [{"type": "cast", "singers": list(singers), "optimal": best,
                     "optimal_total": self._line(state, seat, best)["total"]}]
        raise AssertionError(kind)

    #: a player who leaves a game in play hands the seat to the greedy bot: the others still
    #: bid against a real rival for the singers (no resignation in the rulebook)
    leave_bot = "greedy"

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        return {"first_maestro": 0, **super().lobby_options(state, options)}

    def describe(self) -> dict[str, Any]:
        """With the default catalogue's card faces and the directors: what a frontend shows in
        a calculator or beside a card id (the whole catalogue is public, R1)."""
        out = super().describe()
        out["catalogue"] = {"singers": DEFAULT.rows(),
                            "directors": [dict(DIRECTOR_CARDS[d]) for d in DIRECTORS]}
        return out


    def default_action(self, state: State, seat: int) -> Action:
        """R7: lowest number card, no money, no bluff; office hires clockwise from the maestro's
        left in slot order; the next player clockwise is named; ``neutral`` is fired if it is in
        the pile, else the first director in catalogue order; casting is R6's optimum."""
        kinds = self._kinds(state, seat)
        if not kinds:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        kind = kinds[0]
        if kind == "bid":
            return {"type": "bid", "slot": 1, "money": 0, "bluff": False}
        if kind == "assign_office":
            slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
            return {"type": "assign_office",
                    "assignments": [{"seat": s, "slot": p}
                                    for s, p in zip(state["waiting"], slots)]}
        if kind == "nominate":
            return {"type": "nominate", "seat": (seat + 1) % state["n"]}
        if kind == "fire_director":
            pile = state["pile"]
            return {"type": "fire_director",
                    "director": "neutral" if "neutral" in pile else
                    min(pile, key=DIRECTORS.index)}
        if kind == "cast":
            return {"type": "cast", "roles": None}
        raise AssertionError(kind)

    # ------------------------------------------------------------------ scoring
    def _line(self, state: State, seat: int, roles: list[str]) -> dict[str, int]:
        puccini = state["n"] == 2 and seat == state["maestro"]
        return score_cast(roles, state["director"][seat], state["stage"][seat], puccini,
                          self.catalogue(state))

    def score(self, state: State) -> dict[str, Any]:
        if state["phase"] != FINISHED:
            raise OutOfTurn("game_not_finished", "the game is not finished yet")
        players = []
        for seat in range(state["n"]):
            roles = state["casts"][seat]
            lines = self._line(state, seat, roles)
            total = lines.pop("total")
            players.append({"seat": seat, "lines": lines, "total": total, "cast": list(roles)})
        dummy = None
        if state["dummy"] is not None:
            d = state["dummy"]
            lines = score_cast(d["singers"], d["director"], 0, False, self.catalogue(state))
            total = lines.pop("total")
            dummy = {"lines": lines, "total": total, "cast": list(d["singers"])}
        best = max(p["total"] for p in players)
        dummy_wins = dummy is not None and dummy["total"] > best
        if dummy_wins:
            winners: list[int] = []
        else:
            top = [p for p in players if p["total"] == best]
            if len(top) > 1:
                most = max(p["lines"]["stars"] for p in top)
                top = [p for p in top if p["lines"]["stars"] == most]
            winners = [p["seat"] for p in top]
        return {"players": players, "dummy": dummy, "winners": winners, "dummy_wins": dummy_wins}

    # ------------------------------------------------------------------ views
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        cards = self.catalogue(state).cards
        n = state["n"]
        phase = state["phase"]
        bids = state["bids"]
        players = []
        for s in range(n):
            players.append({
                "seat": s,
                "singers": [cards[c] for c in state["singers"][s]],
                "director": cards[state["director"][s]] if state["director"][s] else None,
                "stage_elements": state["stage"][s],
                "money": state["money"][s],
                "face_down": face_down(bids[s]) if phase == BIDDING else 0,
                "has_bid": bids[s] is not None if phase == BIDDING else None,
                "cast": state["casts"][s],
            })
        pending = self.pending(state)
        out: dict[str, Any] = {
            "round": state["round"] if phase != FINISHED else ROUNDS,
            "phase": phase,
            "maestro": state["maestro"],
            "table": [{"slot": i + 1, "card": cards[c] if c is not None else None}
                      for i, c in enumerate(state["table"])],
            "directors": [DIRECTOR_CARDS[d] for d in state["pile"]],
            "fired": [{"seat": s, "director": DIRECTOR_CARDS[d]} for s, d in state["fired"]],
            "removed_directors": [DIRECTOR_CARDS[d] for d in state["removed"]],
            "helpers": list(HELPERS[: helpers_for(n)]),
            "players": players,
            "dummy": None if state["dummy"] is None else {
                "singers": [cards[c] for c in state["dummy"]["singers"]],
                "director": (cards[state["dummy"]["director"]]
                             if state["dummy"]["director"] else None),
            },
            "pending": [{"seat": s, "kinds": k} for s, k in sorted(pending.items())],
            "reveal": None if state["reveal"] is None else [
                {"seat": s, **_bid_dict(b)} for s, b in enumerate(state["reveal"])],  # type: ignore
            "reveal_round": None if state["reveal"] is None else (
                state["round"] - 1 if phase == BIDDING else min(state["round"], ROUNDS)),
            "waiting": list(state["waiting"]),
            "nominee": state["nominee"],
            "deck_left": len(state["deck"]),
        }
        if viewer is not None and 0 <= viewer < n:
            out["you"] = {
                "seat": viewer,
                "hand": {
                    "numbers": [] if bids[viewer] is not None and phase == BIDDING
                    else list(range(1, n + 2)),
                    "money": state["money"][viewer],
                    "bluff": True,
                },
                "bid": _bid_dict(bids[viewer]) if phase == BIDDING else None,
            }
            if bids[viewer] is not None and phase == BIDDING:
                b = bids[viewer]
                hand = out["you"]["hand"]
                hand["numbers"] = [k for k in range(1, n + 2) if k != b[0]]
                hand["money"] = state["money"][viewer] - b[1]
                hand["bluff"] = not b[2]
        if phase == FINISHED:
            out["score"] = self.score(state)
        return out


def bid_count(slots: int, money: int, helper: bool) -> int:
    """How many bids a seat may make with ``slots`` number cards, ``money`` money cards and
    (``helper``) the right to bid for a helper: :func:`decode_bid` numbers them."""
    return slots * (money + 1) * 2 + (2 if helper else 0)


def decode_bid(i: int, slots: Sequence[int], money: int) -> Action:
    """The ``i``-th of the bids a seat may make, in the order of ``legal_actions``: each slot
    with 0..``money`` money cards, without and with the bluff, then the one-money helper bid
    without and with it. One uniform index is one uniform bid, without listing them."""
    per_slot = (money + 1) * 2
    numbered = len(slots) * per_slot
    if i >= numbered:
        return {"type": "bid", "slot": None, "money": 1, "bluff": i - numbered == 1}
    slot, rest = divmod(i, per_slot)
    return {"type": "bid", "slot": slots[slot], "money": rest >> 1, "bluff": bool(rest & 1)}


def _hire(new: State, hires: list[tuple[int, str]], rnd: int) -> None:
    """Give each ``(seat, card)`` of ``hires`` to its seat (directors in round 4, else singers),
    in place on ``new``: one copy of the list of hands for all the hires of a move, and a new
    list for each seat that grows (the old states keep theirs)."""
    if rnd == DIRECTOR_ROUND:
        director = list(new["director"])
        for seat, card in hires:
            director[seat] = card
        new["director"] = director
    else:
        singers = list(new["singers"])
        for seat, card in hires:
            singers[seat] = singers[seat] + [card]
        new["singers"] = singers


def _clockwise_after(seat: int, n: int) -> list[int]:
    """All seats clockwise starting at the one after ``seat`` (``seat`` itself last)."""
    return [(seat + i) % n for i in range(1, n + 1)]


#: ``_CLOCKWISE_AFTER[n][seat]`` is ``_clockwise_after(seat, n)`` for every table size (read-only)
_CLOCKWISE_AFTER = {n: tuple(tuple(_clockwise_after(seat, n)) for seat in range(n))
                    for n in range(Turandot.min_players, Turandot.max_players + 1)}

#: ``_SLOTS[n]``: the number cards of a table of ``n`` (read-only)
_SLOTS = {n: tuple(range(1, n + 2)) for n in range(Turandot.min_players, Turandot.max_players + 1)}

_HANDLERS = {
    "bid": Turandot._bid,
    "assign_office": Turandot._assign_office,
    "nominate": Turandot._nominate,
    "fire_director": Turandot._fire_director,
    "cast": Turandot._cast,
}
Turandot.handlers = _HANDLERS


__all__ = ["Turandot", "LINES", "ROLES", "face_down", "helpers_for", "decode_bid", "bid_count"]
