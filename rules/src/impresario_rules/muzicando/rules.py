"""Muzicando for 2–8 players: the team game for 4 and the individual game, every hand of a match.

The product owner's rulings (R1–R11, stated in full in ``docs/muzicando.md``) are the authority;
the same page lists every choice made where the rulings are silent (choices 1–18).

Flow of a hand. The deal, then either the **auction** (team game, and the individual game with the
R11 ``auction`` option) or the **choice** of the layout (individual game), then **play**: the
declarer or chooser opens, and turns go clockwise until everyone is out or the table is blocked
(R6). The hand is scored and the next one dealt at once; after the last hand the game is finished.

The state is a plain dict (see :meth:`Muzicando.setup`); every function returns a new dict and
shares the untouched parts with the old one. Where each part lives: ``state.py`` (what a state
says), ``hands.py`` (the deal, a hand's end), ``scoring.py`` (a hand's points, the match's score), ``auction.py`` (the
auction and the choice), ``play.py`` (placing and passing), ``layouts.py`` (where a card may go),
``spaces.py`` (legal moves, action spaces, defaults), ``views.py``, ``cards.py``, ``bots.py`` and
``declarations.py``.
"""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from ..base import SETUP, Event, InvalidOptions, Ruleset, State, first_seat
from . import spaces, views
from .auction import auction_bid, auction_pass, choose_layout
from .hands import deal
from .scoring import game_score
from .play import pass_move, place
from .state import (AUCTION, CHOOSE, CONTRACTS, OVER, INDIVIDUAL, LINES, MAX_HANDS,
                    MAX_PLAYERS, MIN_PLAYERS, MIN_TEAM_HANDS, OPENING_PASSES, PASSES_TO_END,
                    PLAY, TEAM, partner_of, pending, team_of)


class Muzicando(Ruleset):
    name = "muzicando"
    title = "Muzicando"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    handlers = {"auction_bid": auction_bid, "auction_pass": auction_pass,
                "choose_layout": choose_layout, "place": place, "pass": pass_move}

    #: the paces a table may choose (docs/rules.md, "Paces"): the time for each move (a bid,
    #: a layout, a card placed) and the longest a bot thinks. ``relaxed`` is for newcomers: four
    #: minutes to read the board and place a card. Bots move at once at every pace: the table
    #: marks every card placed since the player's last move, so none is missed
    paces = {
        "relaxed": {"move_seconds": 240, "bot_seconds": 0},
        "normal": {"move_seconds": 90, "bot_seconds": 0},
        "fast": {"move_seconds": 30, "bot_seconds": 0},
    }

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: dict[str, Any] | None, seed: int
              ) -> tuple[State, list[Event]]:
        """The match before the first deal: the options checked, the first dealer, and no
        card dealt."""
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
        first, g = first_seat(options, "first_dealer", n, g)
        state: State = {
            "n": n, "mode": mode, "auction": auction, "hands": hands, "rng": g,
            "hand": 1, "dealer": first, "first_dealer": first, "phase": SETUP,
            "held": [[] for _ in range(n)], "pile": [],
            "calls": [], "bid": None, "forced": False, "turn": None,
            "chooser": None, "declarer": None, "contract": None, "layout": None, "table": None,
            "blocked": [False] * n, "queued": [], "run": None, "passed": [], "out": [],
            "redeals": 0, "results": [],
        }
        return state, []

    def deal(self, state: State) -> tuple[State, list[Event]]:
        """The first hand dealt, up to its first decision (the auction, or the choice)."""
        events: list[Event] = []
        return deal(state, events), events

    # ------------------------------------------------------------------ queries
    def situation(self, state: State, seat: int) -> dict[str, Any]:
        return {"hand": state["hand"], "phase": state["phase"],
                "pending": self.pending(state).get(seat, [])}

    pending = staticmethod(pending)

    # ------------------------------------------------------------------ what a seat may do
    legal_actions = staticmethod(spaces.legal_actions)
    sample_action = staticmethod(spaces.sample_action)
    action_space = staticmethod(spaces.action_space)
    default_action = staticmethod(spaces.default_action)

    #: a player who leaves a game in play hands the seat to the greedy bot, so a team game
    #: keeps two partners who play their cards (no resignation in the rulebook)
    leave_bot = "greedy"
    #: ``hard`` plays each of its moves out in sampled deals: it thinks off the request path
    searching_bots = ("hard",)

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        return {**super().lobby_options(state, options), "mode": state["mode"],
                "hands": state["hands"], "auction": state["auction"],
                "first_dealer": options.get("first_dealer", 0)}

    # ------------------------------------------------------------------ what leaves the engine
    score = staticmethod(game_score)
    view = staticmethod(views.view)


__all__ = ["Muzicando", "CONTRACTS", "LINES", "MAX_HANDS", "TEAM", "INDIVIDUAL", "AUCTION",
           "CHOOSE", "PLAY", "OVER", "PASSES_TO_END", "OPENING_PASSES", "team_of",
           "partner_of"]
