"""Muzicando for 2–8 players: the team game for 4 and the individual game, every hand of a match.

The product owner's rulings (R1–R11, stated in full in ``docs/muzicando.md``) are the authority;
the same page lists every choice made where the rulings are silent (choices 1–18).

Flow of a hand. The deal, then either the **auction** (team game, and the individual game with the
R11 ``auction`` option) or the **choice** of the layout (individual game), then **play**: the
declarer or chooser opens, and turns go clockwise until everyone is out or the table is blocked
(R6). The hand is scored and the next one dealt at once; after the last hand the game is finished.

The state is a plain dict (see :meth:`Muzicando.new_game`); every function returns a new dict and
shares the untouched parts with the old one.
"""

from __future__ import annotations

import random
from typing import Any

from .. import rng as rngmod
from ..base import Action, Event, IllegalMove, InvalidOptions, OutOfTurn, Ruleset, State, Viewer
from . import layouts as L
from .cards import (COLOURS, DECK, DECK_ORDER, REST, is_do, is_oval, is_sign, sign_kind,
                    sort_cards)

AUCTION, CHOOSE, PLAY, FINISHED = "auction", "choose", "play", "finished"
TEAM, INDIVIDUAL = "team", "individual"
#: the 16 contracts, lowest first
CONTRACTS: tuple[str, ...] = tuple(f"{level}{layout}" for level in range(1, 5)
                                   for layout in L.LAYOUTS)
CONTRACT_RANK = {c: i for i, c in enumerate(CONTRACTS)}
TEAM_PLACE_POINTS = (4, 3, 2, 1)
MAX_HANDS = 64
#: the team match lasts "minimo 4 aste" (at least 4 auctions)
MIN_TEAM_HANDS = 4
#: the team game's auction, as written, with 8 players too (R11): it ends when three players
#: pass in a row after a bid, and if the first four calls are passes the dealer must bid
PASSES_TO_END = 3
OPENING_PASSES = 4
LINES = ("places", "contracts", "chooser")


def team_of(seat: int) -> int:
    """North–South (seats 0 and 2) are team 0, East–West (1 and 3) team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def level_of(contract: str) -> int:
    return int(contract[0])


def layout_of(contract: str) -> str:
    return contract[1]


def is_opener(card: str) -> bool:
    """A card that opens at least one layout (a Do or an oval)."""
    return not is_sign(card) and (is_do(card) or is_oval(card))


class Muzicando(Ruleset):
    name = "muzicando"
    title = "Muzicando"
    min_players = 2
    max_players = 8

    # ------------------------------------------------------------------ setup
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int
                 ) -> tuple[State, list[Event]]:
        self.check_players(players)
        options = self.known_options(options)
        self.check_seed(seed)
        n = players
        mode = options.get("mode", TEAM if n == 4 else INDIVIDUAL)
        if mode not in (TEAM, INDIVIDUAL):
            raise InvalidOptions("invalid_mode", "mode must be 'team' or 'individual'")
        if mode == TEAM and n != 4:
            raise InvalidOptions("team_needs_four_players",
                                 f"the team game is for exactly 4 players, not {n}")
        auction = options.get("auction", mode == TEAM)
        if type(auction) is not bool:
            raise InvalidOptions("invalid_auction", "auction must be true or false")
        if mode == TEAM and not auction:
            raise InvalidOptions("team_game_has_auction",
                                 "the team game always opens with the auction")
        if mode == INDIVIDUAL and auction and n not in (4, 8):
            raise InvalidOptions("auction_needs_four_or_eight",
                                 "the auction variant (R11) is for 4 or 8 players: only then is "
                                 "the whole deck dealt evenly")
        hands = options.get("hands", 4 if mode == TEAM else n)
        if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
            raise InvalidOptions("invalid_hands", f"hands must be an integer from 1 to {MAX_HANDS}")
        if mode == TEAM and hands < MIN_TEAM_HANDS:
            raise InvalidOptions("team_needs_four_hands",
                                 f"the team match is at least {MIN_TEAM_HANDS} hands (the "
                                 f"rulebook's 'minimo 4 aste'), not {hands}")
        if mode == INDIVIDUAL and hands % n:
            raise InvalidOptions("hands_not_multiple",
                                 f"an individual match is a multiple of the number of players in "
                                 f"hands: {hands} is not a multiple of {n}")
        g = rngmod.seed_state(seed)
        first = options.get("first_dealer", 0)
        if first == "random":
            first, g = rngmod.below(g, n)
        elif type(first) is not int or not 0 <= first < n:
            raise InvalidOptions("invalid_first_dealer",
                                 f"first_dealer must be a seat from 0 to {n - 1} or 'random'")
        state: State = {
            "n": n, "mode": mode, "auction": auction, "hands": hands, "rng": g,
            "hand": 1, "dealer": first, "first_dealer": first, "phase": AUCTION,
            "held": [[] for _ in range(n)], "pile": [],
            "calls": [], "bid": None, "forced": False, "turn": None,
            "chooser": None, "declarer": None, "contract": None, "layout": None, "table": None,
            "blocked": [False] * n, "queued": [], "run": None, "passed": [], "out": [],
            "redeals": 0, "results": [],
        }
        events: list[Event] = []
        state = self._deal(state, events)
        return state, events

    def _deal(self, state: State, events: list[Event]) -> State:
        """Shuffle and deal a hand (again, for redeals), up to the first decision."""
        n = state["n"]
        new = dict(state)
        while True:
            deck, g = rngmod.shuffled(new["rng"], list(DECK))
            new["rng"] = g
            each = len(DECK) // n if new["auction"] else 7
            held = [sort_cards(deck[i * each:(i + 1) * each]) for i in range(n)]
            pile = deck[n * each:]
            new.update({
                "held": held, "pile": pile, "calls": [], "bid": None, "forced": False,
                "chooser": None, "declarer": None, "contract": None, "layout": None,
                "table": None, "blocked": [False] * n, "queued": [], "run": None, "passed": [],
                "out": [],
            })
            events.append({
                "type": "hand_dealt", "hand": new["hand"], "dealer": new["dealer"],
                "hand_sizes": [len(h) for h in held], "pile_size": len(pile),
                "_private": {str(s): {"cards": list(held[s])} for s in range(n)},
            })
            if new["auction"]:
                new["phase"] = AUCTION
                new["turn"] = new["dealer"]
                events.append({"type": "auction_started", "hand": new["hand"],
                               "dealer": new["dealer"]})
                return new
            # R10: the player left of the dealer chooses; the choice passes clockwise to one
            # who can open a layout; if nobody can, the same dealer deals again
            for i in range(1, n + 1):
                s = (new["dealer"] + i) % n
                if any(is_opener(c) for c in held[s]):
                    new["phase"] = CHOOSE
                    new["chooser"] = s
                    new["turn"] = s
                    events.append({"type": "chooser", "hand": new["hand"], "seat": s})
                    return new
                events.append({"type": "choice_passed", "hand": new["hand"], "seat": s,
                               "reason": "holds no Do and no oval: can open no layout"})
            new["redeals"] = new["redeals"] + 1
            events.append({"type": "redeal", "hand": new["hand"], "dealer": new["dealer"],
                           "reason": "nobody can open a layout (R10)"})

    # ------------------------------------------------------------------ queries
    def is_finished(self, state: State) -> bool:
        return state["phase"] == FINISHED

    def situation(self, state: State, seat: int) -> dict[str, Any]:
        return {"hand": state["hand"], "phase": state["phase"],
                "pending": self.pending(state).get(seat, [])}

    def pending(self, state: State) -> dict[int, list[str]]:
        """Who acts and which kinds of move the rules allow in that phase. The kinds never
        depend on the seat's hand (that would tell the table what he holds): in the auction
        ``auction_bid`` and ``auction_pass`` (only ``auction_bid`` when the dealer must bid), in
        play ``place`` and ``pass`` (only ``place`` for the opening card). The seat's action
        space says exactly which contracts, cards and cells are legal for him."""
        phase = state["phase"]
        turn = state["turn"]
        if phase == AUCTION:
            return {turn: ["auction_bid"] if state["forced"] else ["auction_bid", "auction_pass"]}
        if phase == CHOOSE:
            return {turn: ["choose_layout"]}
        if phase == PLAY:
            return {turn: ["place", "pass"] if state["table"]["cells"] else ["place"]}
        return {}

    def _play_kinds(self, state: State, seat: int, cells: dict[str, list]) -> list[str]:
        kinds = []
        if any(cells.values()):
            kinds.append("place")
        if self._may_pass(state, seat, cells):
            kinds.append("pass")
        return kinds

    def _biddable(self, state: State, seat: int) -> list[str]:
        bid = state["bid"]
        low = CONTRACT_RANK[bid[1]] + 1 if bid else 0
        hand = state["held"][seat]
        can = {lay for lay in L.LAYOUTS if L.can_open(lay, hand)}
        return [c for c in CONTRACTS[low:] if layout_of(c) in can]

    def _openable(self, state: State, seat: int) -> list[str]:
        return [lay for lay in L.LAYOUTS if L.can_open(lay, state["held"][seat])]

    def _legal_map(self, state: State, seat: int) -> dict[str, list[tuple[int, int]]]:
        return L.legal_map(state["table"], state["held"][seat])

    def _may_pass(self, state: State, seat: int, cells: dict[str, list] | None = None) -> bool:
        """R5: never before the opening card; always while a draw pile lasts; otherwise only
        with no note to place (signs never oblige)."""
        if not state["table"]["cells"]:
            return False
        if state["pile"]:
            return True
        cells = self._legal_map(state, seat) if cells is None else cells
        return not any(v for c, v in cells.items() if not is_sign(c))

    # ------------------------------------------------------------------ moves

    def _my_turn(self, state: State, seat: int, phase: str, what: str) -> None:
        if state["phase"] != phase:
            raise OutOfTurn(f"not_{phase}_phase",
                            f"{what} belongs to the {phase} phase; the hand is in the "
                            f"{state['phase']} phase")
        if seat != state["turn"]:
            raise OutOfTurn("not_your_turn", f"it is seat {state['turn']}'s turn, not seat {seat}'s")

    # -- auction
    def _auction_bid(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        contract = action["contract"]
        self._my_turn(state, seat, AUCTION, "a bid")
        if contract not in CONTRACT_RANK:
            raise IllegalMove("unknown_contract",
                              f"unknown contract {contract!r}: a level 1–4 and a layout S, G, P "
                              f"or M, e.g. '1S' or '3P'")
        bid = state["bid"]
        if bid is not None and CONTRACT_RANK[contract] <= CONTRACT_RANK[bid[1]]:
            raise IllegalMove("bid_too_low",
                              f"a bid must be higher than the last bid {bid[1]} (order: "
                              f"{' '.join(CONTRACTS)})", last_bid=bid[1])
        layout = layout_of(contract)
        if not L.can_open(layout, state["held"][seat]):
            need = "a Do" if layout in ("S", "M") else "an oval card"
            raise IllegalMove("cannot_open",
                              f"R7: you cannot bid {L.LAYOUT_NAMES[layout]} without its opening "
                              f"card ({need})")
        new = dict(state)
        new["calls"] = state["calls"] + [[seat, contract]]
        new["bid"] = [seat, contract]
        new["forced"] = False
        new["turn"] = (seat + 1) % state["n"]
        return new, [{"type": "auction_bid", "hand": state["hand"], "seat": seat,
                      "contract": contract}]

    def _auction_pass(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._my_turn(state, seat, AUCTION, "a pass in the auction")
        if state["forced"]:
            raise IllegalMove("dealer_must_bid",
                              f"the first {OPENING_PASSES} calls were passes: the dealer must bid "
                              f"(any contract he can open)")
        n = state["n"]
        calls = state["calls"] + [[seat, "pass"]]
        new = dict(state)
        new["calls"] = calls
        events: list[Event] = [{"type": "auction_pass", "hand": state["hand"], "seat": seat}]
        bid = state["bid"]
        if bid is not None:
            # three passes in a row after a bid (the last bid is before them), with 8 players
            # too (R11 plays the team game's auction as written)
            if all(c == "pass" for _, c in calls[-PASSES_TO_END:]):
                return self._auction_won(new, events), events
        elif len(calls) == OPENING_PASSES:  # no bid yet: every call so far was a pass
            dealer = state["dealer"]
            if L.can_open("S", state["held"][dealer]) or L.can_open("G", state["held"][dealer]):
                new["forced"] = True
                new["turn"] = dealer
                events.append({"type": "dealer_must_bid", "hand": state["hand"], "seat": dealer})
                return new, events
            events.append({"type": "redeal", "hand": state["hand"], "dealer": (dealer + 1) % n,
                           "reason": "R7: everyone passed and the dealer can open no layout; "
                                     "the next dealer deals again"})
            new["dealer"] = (dealer + 1) % n
            new["redeals"] = state["redeals"] + 1
            return self._deal(new, events), events
        new["turn"] = (seat + 1) % n
        return new, events

    def _auction_won(self, state: State, events: list[Event]) -> State:
        seat, contract = state["bid"]
        new = dict(state)
        new.update({"phase": PLAY, "declarer": seat, "contract": contract,
                    "layout": layout_of(contract), "table": L.new_table(layout_of(contract)),
                    "turn": seat})
        events.append({"type": "auction_won", "hand": state["hand"], "seat": seat,
                       "contract": contract, "level": level_of(contract),
                       "layout": layout_of(contract)})
        return new

    # -- the chooser (individual game)
    def _choose_layout(self, state: State, seat: int, action: Action
                       ) -> tuple[State, list[Event]]:
        layout = action["layout"]
        self._my_turn(state, seat, CHOOSE, "choosing the layout")
        if layout not in L.LAYOUTS:
            raise IllegalMove("unknown_layout",
                              f"unknown layout {layout!r}: S (Sarabanda), G (Glissando), "
                              f"P (Parada) or M (Muzicando)")
        if not L.can_open(layout, state["held"][seat]):
            need = "a Do" if layout in ("S", "M") else "an oval card"
            raise IllegalMove("cannot_open",
                              f"R7: you cannot choose {L.LAYOUT_NAMES[layout]} without its "
                              f"opening card ({need})")
        new = dict(state)
        new.update({"phase": PLAY, "layout": layout, "table": L.new_table(layout), "turn": seat})
        return new, [{"type": "layout_chosen", "hand": state["hand"], "seat": seat,
                      "layout": layout}]

    # -- play
    def _place(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        card, x, y = action["card"], action["x"], action["y"]
        self._my_turn(state, seat, PLAY, "placing a card")
        if card not in DECK_ORDER:
            raise IllegalMove("unknown_card",
                              f"unknown card {card!r}: cards are '<colour>-<1..7>' or "
                              f"'<colour>-sign' with colours {', '.join(COLOURS)}")
        hand = state["held"][seat]
        if card not in hand:
            raise IllegalMove("card_not_in_hand", f"{card} is not in your hand")
        L.check(state["table"], card, x, y)
        held = list(state["held"])
        held[seat] = [c for c in hand if c != card]
        new = dict(state)
        new["held"] = held
        new["table"] = L.place(state["table"], card, x, y)
        new["passed"] = []
        events: list[Event] = [{"type": "card_placed", "hand": state["hand"], "seat": seat,
                                "card": card, "x": x, "y": y, "cards_left": len(held[seat])}]
        if is_sign(card):
            kind = sign_kind(card)
            if kind == REST:
                new["run"] = seat  # as his last card, R1 hands the run on below
                events.append({"type": "run_started", "seat": seat})
            else:
                targets = self._targets(new, seat, kind)
                if targets:
                    if new["run"] is not None:
                        new["queued"] = sorted(set(state["queued"]) | set(targets))
                        events.append({"type": "block_queued", "seat": seat, "sign": kind,
                                       "seats": targets})
                    else:
                        blocked = list(new["blocked"])
                        for t in targets:
                            blocked[t] = True
                        new["blocked"] = blocked
                        events.append({"type": "blocked", "seat": seat, "sign": kind,
                                       "seats": targets})
        if not held[seat]:
            new["out"] = state["out"] + [seat]
            if new["blocked"][seat]:  # a block on a player who goes out lapses
                new["blocked"] = [b and s != seat for s, b in enumerate(new["blocked"])]
            events.append({"type": "player_out", "hand": state["hand"], "seat": seat,
                           "place": len(new["out"])})
            if new["run"] == seat:
                partner = partner_of(seat) if state["mode"] == TEAM else None
                if partner is not None and held[partner]:
                    new["run"] = partner
                    new["turn"] = partner
                    events.append({"type": "run_passed", "seat": seat, "to": partner})
                    return new, events
                new = self._end_run(new, seat, events)
            return self._advance(new, seat, events), events
        if new["run"] == seat:
            return new, events  # the run goes on
        return self._advance(new, seat, events), events

    def _pass(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._my_turn(state, seat, PLAY, "a pass")
        if not state["table"]["cells"]:
            raise IllegalMove("must_open", "the hand opens with your opening card: you may not "
                                           "pass before it is on the table")
        if not self._may_pass(state, seat):
            raise IllegalMove("must_play",
                              "R5: with no draw pile you may pass only when you have no note to "
                              "place, and you have one")
        new = dict(state)
        events: list[Event] = []
        if state["pile"]:
            card = state["pile"][0]
            new["pile"] = state["pile"][1:]
            held = list(state["held"])
            held[seat] = sort_cards(held[seat] + [card])
            new["held"] = held
            new["passed"] = [s for s in state["passed"] if s != seat]
            events.append({"type": "passed", "hand": state["hand"], "seat": seat, "drew": True,
                           "pile_size": len(new["pile"]), "_private": {str(seat): {"card": card}}})
        else:
            new["passed"] = sorted(set(state["passed"]) | {seat})
            events.append({"type": "passed", "hand": state["hand"], "seat": seat, "drew": False,
                           "pile_size": 0})
        if state["run"] == seat:
            new = self._end_run(new, seat, events)
        holding = [s for s in range(state["n"]) if new["held"][s]]
        if not new["pile"] and set(holding) <= set(new["passed"]):
            events.append({"type": "table_blocked", "hand": state["hand"], "seats": holding})
            return self._end_hand(new, events), events
        return self._advance(new, seat, events), events

    def _end_run(self, state: State, seat: int, events: list[Event]) -> State:
        new = dict(state)
        new["run"] = None
        events.append({"type": "run_ended", "seat": seat})
        if state["queued"]:
            new["queued"] = []
            # a block queued for a player who has gone out since lapses (choice 5)
            targets = [t for t in state["queued"] if state["held"][t]]
            if targets:
                blocked = list(state["blocked"])
                for t in targets:
                    blocked[t] = True
                new["blocked"] = blocked
                events.append({"type": "blocked", "seat": seat, "sign": None, "seats": targets})
        return new

    def _targets(self, state: State, seat: int, kind: str) -> list[int]:
        """The nearest players clockwise (next) and anticlockwise (previous) still holding
        cards, other than ``seat``."""
        n = state["n"]
        held = state["held"]
        nxt = next((s for s in ((seat + i) % n for i in range(1, n)) if held[s]), None)
        prev = next((s for s in ((seat - i) % n for i in range(1, n)) if held[s]), None)
        out = set()
        if kind in ("sharp", "natural") and nxt is not None:
            out.add(nxt)
        if kind in ("flat", "natural") and prev is not None:
            out.add(prev)
        return sorted(out)

    def _advance(self, state: State, seat: int, events: list[Event]) -> State:
        """The turn moves clockwise from ``seat`` to the next player holding cards; a blocked
        player skips that turn and is free again. With nobody holding cards the hand ends."""
        n = state["n"]
        held = state["held"]
        blocked = state["blocked"]
        new = dict(state)
        if not any(held):
            return self._end_hand(new, events)
        changed = False
        i = 1
        while True:
            s = (seat + i) % n
            i += 1
            if not held[s]:
                continue
            if blocked[s]:
                if not changed:
                    blocked = list(blocked)
                    changed = True
                blocked[s] = False
                events.append({"type": "turn_skipped", "hand": state["hand"], "seat": s})
                continue
            new["turn"] = s
            if changed:
                new["blocked"] = blocked
            return new

    # ------------------------------------------------------------------ end of a hand
    def _places(self, state: State) -> list[dict[str, Any]]:
        """Places of the hand: players out in order, then the rest (R6) fewer cards first, tied
        players sharing the lowest of their places."""
        out = [{"seat": s, "place": i + 1, "finished": True, "cards_left": 0}
               for i, s in enumerate(state["out"])]
        stuck = sorted((s for s in range(state["n"]) if state["held"][s]),
                       key=lambda s: (len(state["held"][s]), s))
        k = len(out)
        i = 0
        while i < len(stuck):
            j = i
            size = len(state["held"][stuck[i]])
            while j + 1 < len(stuck) and len(state["held"][stuck[j + 1]]) == size:
                j += 1
            for s in stuck[i:j + 1]:
                out.append({"seat": s, "place": k + j + 1, "finished": False, "cards_left": size})
            i = j + 1
        return out

    def _place_points(self, state: State, entry: dict[str, Any]) -> int:
        n = state["n"]
        if not entry["finished"] and entry["place"] == n:
            return 0  # the last player who could not lay down every card loses his point
        if state["mode"] == TEAM:
            return TEAM_PLACE_POINTS[entry["place"] - 1]
        return n + 1 - entry["place"]

    def _end_hand(self, state: State, events: list[Event]) -> State:
        n = state["n"]
        places = self._places(state)
        by_seat = {p["seat"]: p for p in places}
        place_pts = [self._place_points(state, by_seat[s]) for s in range(n)]
        contract_pts = [0] * n
        chooser_pts = [0] * n
        first = next((p["seat"] for p in places if p["place"] == 1 and p["finished"]), None)
        made = None
        declarer = state["declarer"]
        if state["mode"] == TEAM:
            level = level_of(state["contract"])
            partner = partner_of(declarer)
            pp = by_seat[partner]["place"]
            team_first = first in (declarer, partner)
            other = partner if first == declarer else declarer
            if level == 1:
                made = team_first
            elif level == 2:
                made = team_first and by_seat[other]["place"] < n
            elif level == 3:
                made = team_first and by_seat[other]["place"] == 2
            else:
                made = first == declarer and pp == 2
            team_points = place_pts[declarer] + place_pts[partner]
            contract_pts[declarer] = (1 if made else -1) * level * team_points
        elif state["auction"]:
            level = level_of(state["contract"])
            made = first == declarer
            contract_pts[declarer] = (1 if made else -1) * level * place_pts[declarer]
        else:
            chooser = state["chooser"]
            if first == chooser:
                chooser_pts[chooser] = L.LAYOUT_VALUE[state["layout"]]
        points = [place_pts[s] + contract_pts[s] + chooser_pts[s] for s in range(n)]
        result = {
            "hand": state["hand"], "dealer": state["dealer"], "layout": state["layout"],
            "contract": state["contract"], "declarer": declarer, "chooser": state["chooser"],
            "made": made, "places": places, "place_points": place_pts,
            "contract_points": contract_pts, "chooser_points": chooser_pts, "points": points,
        }
        new = dict(state)
        new["results"] = state["results"] + [result]
        new["turn"] = None
        new["run"] = None
        events.append({"type": "hand_scored", **_public_result(result)})
        if state["hand"] >= state["hands"]:
            new["phase"] = FINISHED
            score = self.score(new)
            events.append({"type": "game_finished", "winners": score["winners"],
                           "totals": [p["total"] for p in score["players"]]})
            return new
        new["hand"] = state["hand"] + 1
        if state["mode"] == INDIVIDUAL and not state["auction"]:
            new["dealer"] = state["chooser"]
        else:
            new["dealer"] = (state["dealer"] + 1) % n
        new["redeals"] = 0
        return self._deal(new, events)

    # ------------------------------------------------------------------ legal moves
    def _kinds(self, state: State, seat: int) -> tuple[list[str], dict[str, list] | None]:
        """The kinds of move ``seat`` may make now, and in play its legal cells per card."""
        if seat != state["turn"] or state["phase"] == FINISHED:
            return [], None
        if state["phase"] == PLAY:
            cells = self._legal_map(state, seat)
            return self._play_kinds(state, seat, cells), cells
        if state["phase"] == AUCTION:
            kinds = ["auction_bid"] if self._biddable(state, seat) else []
            return kinds + ([] if state["forced"] else ["auction_pass"]), None
        return ["choose_layout"], None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        kinds, cells = self._kinds(state, seat)
        if not kinds:
            return []
        phase = state["phase"]
        if phase == AUCTION:
            out: list[Action] = [{"type": "auction_bid", "contract": c}
                                 for c in self._biddable(state, seat)]
            if "auction_pass" in kinds:
                out.append({"type": "auction_pass"})
            return out
        if phase == CHOOSE:
            return [{"type": "choose_layout", "layout": lay}
                    for lay in self._openable(state, seat)]
        assert cells is not None
        out = [{"type": "place", "card": c, "x": x, "y": y}
               for c in sort_cards(list(cells)) for x, y in cells[c]]
        if "pass" in kinds:
            out.append({"type": "pass"})
        return out

    def action_space(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Auction: the contracts the seat may bid; choice: the layouts it may choose; play:
        every card in hand with its legal cells (possibly none), and whether passing draws."""
        kinds, cells = self._kinds(state, seat)
        if not kinds:
            return []
        phase = state["phase"]
        out: list[dict[str, Any]] = []
        if phase == AUCTION:
            if "auction_bid" in kinds:
                bid = state["bid"]
                out.append({"type": "auction_bid", "contracts": self._biddable(state, seat),
                            "last_bid": bid[1] if bid else None})
            if "auction_pass" in kinds:
                out.append({"type": "auction_pass"})
            return out
        if phase == CHOOSE:
            return [{"type": "choose_layout", "layouts": self._openable(state, seat)}]
        assert cells is not None
        if "place" in kinds:
            out.append({"type": "place", "cards": [
                {"card": c, "cells": [{"x": x, "y": y} for x, y in cells[c]]}
                for c in sort_cards(list(cells))]})
        if "pass" in kinds:
            out.append({"type": "pass", "draws": bool(state["pile"])})
        return out

    def sample_action(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = self.legal_actions(state, seat)
        if not actions:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        return rng.choice(actions)

    #: a player who leaves a game in play hands the seat to the greedy bot, so a team game
    #: keeps two partners who play their cards (no resignation in the rulebook)
    leave_bot = "greedy"

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        return {**super().lobby_options(state, options), "mode": state["mode"],
                "hands": state["hands"], "auction": state["auction"],
                "first_dealer": options.get("first_dealer", 0)}


    def default_action(self, state: State, seat: int) -> Action:
        """Auction: pass, or when the dealer must bid, the lowest contract he can open. Choice:
        the first layout he can open in the order S, G, P, M. Play: the first legal note in deck
        order (colours red to violet, Do to Si) on its first legal cell by (x, y); with no note
        to place, pass (R5 then allows it; it draws while the pile lasts). Never a sign."""
        kinds, cells = self._kinds(state, seat)
        if not kinds:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        phase = state["phase"]
        if phase == AUCTION:
            if "auction_pass" in kinds:
                return {"type": "auction_pass"}
            return {"type": "auction_bid", "contract": self._biddable(state, seat)[0]}
        if phase == CHOOSE:
            return {"type": "choose_layout", "layout": self._openable(state, seat)[0]}
        assert cells is not None
        for c in sort_cards(list(cells)):
            if cells[c] and not is_sign(c):
                x, y = cells[c][0]
                return {"type": "place", "card": c, "x": x, "y": y}
        assert "pass" in kinds, "a seat with no note to place may pass (R5)"
        return {"type": "pass"}

    # ------------------------------------------------------------------ scoring
    def totals(self, state: State) -> list[dict[str, Any]]:
        n = state["n"]
        out = []
        for s in range(n):
            lines = {
                "places": sum(r["place_points"][s] for r in state["results"]),
                "contracts": sum(r["contract_points"][s] for r in state["results"]),
                "chooser": sum(r["chooser_points"][s] for r in state["results"]),
            }
            out.append({"seat": s, "lines": lines, "total": sum(lines.values())})
        return out

    def _teams(self, state: State, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if state["mode"] != TEAM:
            return []
        return [{"team": t, "seats": [t, t + 2],
                 "total": players[t]["total"] + players[t + 2]["total"]} for t in (0, 1)]

    def score(self, state: State) -> dict[str, Any]:
        if state["phase"] != FINISHED:
            raise OutOfTurn("game_not_finished", "the game is not finished yet")
        return self._score(state)

    def _score(self, state: State) -> dict[str, Any]:
        players = self.totals(state)
        teams = self._teams(state, players)
        if teams:
            best = max(t["total"] for t in teams)
            winners = sorted(s for t in teams if t["total"] == best for s in t["seats"])
        else:
            best = max(p["total"] for p in players)
            winners = [p["seat"] for p in players if p["total"] == best]
        return {"mode": state["mode"], "players": players, "teams": teams, "winners": winners,
                "hands": [_public_result(r) for r in state["results"]]}

    # ------------------------------------------------------------------ views
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        n = state["n"]
        phase = state["phase"]
        out_set = set(state["out"])
        places = {s: i + 1 for i, s in enumerate(state["out"])}
        totals = self.totals(state)
        players = [{
            "seat": s,
            "team": team_of(s) if state["mode"] == TEAM else None,
            "hand_size": len(state["held"][s]),
            "blocked": state["blocked"][s],
            "out": s in out_set,
            "place": places.get(s),
            "total": totals[s]["total"],
        } for s in range(n)]
        pending = self.pending(state)
        table = state["table"]
        bid = state["bid"]
        view: dict[str, Any] = {
            "mode": state["mode"],
            "auction_variant": state["auction"],
            "hand": state["hand"],
            "hands": state["hands"],
            "phase": phase,
            "dealer": state["dealer"],
            "turn": state["turn"],
            "players": players,
            "pending": [{"seat": s, "kinds": k} for s, k in sorted(pending.items())],
            "pile_size": len(state["pile"]),
            "auction": None if not state["auction"] else {
                "calls": [{"seat": s, "call": c} for s, c in state["calls"]],
                "bid": None if bid is None else {"seat": bid[0], "contract": bid[1]},
                "dealer_must_bid": state["forced"],
            },
            "contract": state["contract"],
            "declarer": state["declarer"],
            "chooser": state["chooser"],
            "layout": state["layout"],
            "table": {
                "cells": L.cells_view(table) if table else [],
                "rows": L.rows_view(table) if table else [],
                "piles": L.piles_view(table) if table else [],
            },
            "blocked": [s for s in range(n) if state["blocked"][s]],
            "queued_blocks": list(state["queued"]),
            "run": state["run"],
            "places": [{"seat": s, "place": i + 1} for i, s in enumerate(state["out"])]
            if phase == PLAY else [],
            "results": [_public_result(r) for r in state["results"]],
            "totals": [t["total"] for t in totals],
            "team_totals": ([t["total"] for t in self._teams(state, totals)]
                            if state["mode"] == TEAM else None),
        }
        if viewer is not None and 0 <= viewer < n:
            view["you"] = {"seat": viewer, "hand": list(state["held"][viewer])}
        if phase == FINISHED:
            view["score"] = self._score(state)
        return view


def _public_result(result: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in result.items()}




_HANDLERS = {
    "auction_bid": Muzicando._auction_bid,
    "auction_pass": Muzicando._auction_pass,
    "choose_layout": Muzicando._choose_layout,
    "place": Muzicando._place,
    "pass": Muzicando._pass,
}
Muzicando.handlers = _HANDLERS


__all__ = ["Muzicando", "CONTRACTS", "LINES", "team_of", "partner_of"]
