"""Turandot (daVinci, 2009) for 2–5 players, with the 2-player dummy: its setup and its contract.

Seven rounds; rounds 1–3 and 5–7 hire singers, round 4 hires directors. Each round: the maestro
lays players+1 cards, everyone commits a sealed bid, the bids are revealed together and resolved
(clear winners by money, helpers for money-only bids, office hires chosen by the maestro), and in
rounds 1–3 the maestro names a player who fires a director. After round 7 each player casts their
six singers into the six roles, and the game is scored.

The state is a plain dict (see :meth:`Turandot.setup`); every function returns a new dict and
shares the untouched parts with the old one. Where each part lives: ``state.py`` (what a state
says), ``moves.py`` (each move), ``round.py`` (the reveal, hiring, firing, the round's end),
``spaces.py`` (legal moves, action spaces, defaults), ``views.py``, ``scoring.py``, ``cards.py``,
``bots.py`` and ``declarations.py``.
"""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from ..base import SETUP, Event, Ruleset, State, first_seat
from . import spaces, views
from .cards import DEFAULT, DIRECTOR_CARDS, DIRECTORS, ROLES, Catalogue, parse_catalogue
from .moves import HANDLERS
from .round import start_round
from .scoring import LINES, game_score, places
from .state import (BIDDING, CASTING, DIRECTOR_ROUND, OVER, FIRE, FIRING_ROUNDS, MAX_PLAYERS,
                    MIN_PLAYERS, NOMINATE, OFFICE, ROUNDS, START_MONEY, catalogue,
                    face_down, helpers_for, pending, random_bid)


class Turandot(Ruleset):
    name = "turandot"
    title = "Turandot"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    handlers = HANDLERS

    #: the paces a table may choose (docs/rules.md, "Paces"): the time for each move (a bid,
    #: a casting of six singers) and the longest a bot thinks. ``relaxed`` is for newcomers:
    #: five minutes to read the singers and the director and to arrange a cast. Bots move at
    #: once at every pace: the bids are sealed, and the table marks every move made since the
    #: player's last, so a bot that waited would only keep the player waiting
    paces = {
        "relaxed": {"move_seconds": 300, "bot_seconds": 0},
        "normal": {"move_seconds": 120, "bot_seconds": 0},
        "fast": {"move_seconds": 45, "bot_seconds": 0},
    }

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: dict[str, Any] | None, seed: int
              ) -> tuple[State, list[Event]]:
        """The table before the deal: the options checked, the first maestro (R2), each
        player's money, and no singer drawn."""
        self.check_players(players)
        options = self.known_options(options)
        self.check_seed(seed)
        g = rngmod.seed_state(seed)
        first, g = first_seat(options, "first_maestro", players, g)
        custom = options.get("catalogue")
        catalogue = None
        if custom is not None:
            cat = parse_catalogue(custom)
            catalogue = {"key": cat.key, "singers": cat.rows()}
        state: State = {
            "n": players,
            "round": 1,
            "phase": SETUP,
            "maestro": first,
            "first_maestro": first,
            "rng": g,
            "deck": [],
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
        return state, []

    def deal(self, state: State) -> tuple[State, list[Event]]:
        """The singers shuffled into the deck (six rounds of players + 1 cards) and round 1
        laid out."""
        deck, g = rngmod.shuffled(state["rng"], list(catalogue(state).ids))
        new = dict(state)
        new["rng"] = g
        new["deck"] = deck[: 6 * (state["n"] + 1)]
        events: list[Event] = []
        return start_round(new, events), events

    # ------------------------------------------------------------------ queries
    def situation(self, state: State, seat: int) -> dict[str, Any]:
        return {"round": state["round"], "phase": state["phase"],
                "pending": self.pending(state).get(seat, [])}

    pending = staticmethod(pending)
    #: a bid may name its round (``stale_round`` for another)
    situation_fields = ("round",)

    def catalogue(self, state: State) -> Catalogue:
        return catalogue(state)

    # ------------------------------------------------------------------ what a seat may do
    legal_actions = staticmethod(spaces.legal_actions)
    sample_action = staticmethod(spaces.sample_action)
    action_space = staticmethod(spaces.action_space)
    default_action = staticmethod(spaces.default_action)

    searching_bots = ("hard",)

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

    # ------------------------------------------------------------------ what leaves the engine
    score = staticmethod(game_score)
    places = staticmethod(places)
    view = staticmethod(views.view)


__all__ = ["Turandot", "LINES", "ROLES", "face_down", "helpers_for", "random_bid",
           "ROUNDS", "DIRECTOR_ROUND", "FIRING_ROUNDS", "START_MONEY", "BIDDING", "OFFICE",
           "NOMINATE", "FIRE", "CASTING", "OVER"]
