"""Word Jam (Walter Obert, daVinci 2004) for 5–12 players: the whole flow of play.

Eight turns. Each turn the engine deals five consonants on the coin cards 1, 2, 3, 3 and the
scimitar (its consonant is forbidden) and reveals a Style card. Turns 1–7: the first player whose
Open Sesame call the engine commits is Alì Babà; his word may be challenged; the others bet
secretly on him or on the thieves; the thieves get a window to submit a word secretly; the engine
declares their words in seat order from Alì Babà's left; the first valid word worth strictly more
is the Chief Thief's (it may be challenged too); the turn is scored with the cave's current
column. Turn 8 is different: secret sides first, then one call, a window for everyone else, and a
single round in which each side's words must keep beating that side's best. Ties for first play up
to three extra turns among the tied players.

The core has no clock: every window is named by :meth:`WordJam.turn_key` and timed by the service
(:meth:`WordJam.turn_seconds`), which plays :meth:`WordJam.default_action` for each seat whose
window ran out. The state is a plain JSON dict; functions return new dicts and share what did not
change.
"""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from .themes import DEFAULT_LANGUAGE, LANGUAGES, language_of
from ..base import SETUP, Action, Event, InvalidOptions, Ruleset, State
from . import scoring, spaces, views
from . import words as W
from .flow import start_turn
from .moves import HANDLERS
from .state import (ALI_BABA, BETS, CALL, CHALLENGE, DECLARATION, FINAL_TURN, OVER,
                    MAX_EXTRA_TURNS, MAX_SECONDS, NOT_IN_DICTIONARY, OUTCOMES, PHASES, RED,
                    SECONDS_OPTIONS, SIDE_NAMES, SIDES, THIEVES, THINK, TURNS, VOTE,
                    VOTES_TO_STAND, WINDOW, YELLOW, check_word, column, pending, prizes, totals)


class WordJam(Ruleset):
    name = "wordjam"
    title = "Word Jam"
    min_players = 5
    max_players = 12
    handlers = HANDLERS

    # ------------------------------------------------------------------ setup
    def parse_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        options = self.known_options(options)
        out: dict[str, Any] = {}
        for key, (default, _) in SECONDS_OPTIONS.items():
            value = options.get(key, default)
            if type(value) is not int or not 1 <= value <= MAX_SECONDS:
                raise InvalidOptions(f"invalid_{key}",
                                     f"{key} must be an integer from 1 to {MAX_SECONDS}")
            out[key] = value
        cave = options.get("cave")
        if cave is None:
            cave = W.default_cave()
        elif (not isinstance(cave, dict) or set(cave) != {"red", "yellow"}
              or not all(isinstance(cave[k], list) and len(cave[k]) == TURNS
                         and all(type(v) is int and 0 <= v <= 99 for v in cave[k])
                         for k in ("red", "yellow"))):
            raise InvalidOptions("invalid_cave", "cave must be {red: [8 integers 0–99], "
                                 "yellow: [8 integers 0–99]}")
        out["cave"] = {"red": list(cave["red"]), "yellow": list(cave["yellow"])}
        flag = options.get("no_visible_objects", False)
        if type(flag) is not bool:
            raise InvalidOptions("invalid_no_visible_objects",
                                 "no_visible_objects must be true or false")
        out["no_visible_objects"] = flag
        dictionary = options.get("dictionary", False)
        if type(dictionary) is not bool:
            raise InvalidOptions("invalid_dictionary", "dictionary must be true or false")
        out["dictionary"] = dictionary
        language = options.get("language", DEFAULT_LANGUAGE)
        if language not in LANGUAGES:
            raise InvalidOptions("invalid_language",
                                 f"language must be one of {', '.join(LANGUAGES)}")
        out["language"] = language
        return out

    def setup(self, players: int, options: dict[str, Any] | None, seed: int
              ) -> tuple[State, list[Event]]:
        """The table before the first turn: the options checked, the Style cards in the box
        (not shuffled), no consonant dealt, no column of the cave uncovered."""
        self.check_players(players)
        opts = self.parse_options(options)
        self.check_seed(seed)
        state: State = {
            "n": players,
            "opts": opts,
            "rng": rngmod.seed_state(seed),
            "styles": style_deck(opts),
            "styles_used": [],
            "style": None,
            "turn": 0,
            "extra": 0,
            "participants": list(range(players)),
            "used": [],
            "next_word_id": 1,
            "history": [],
            "last_vote": None,
            # what a turn lays out (``flow.start_turn``), before the first
            "phase": SETUP, "coins": [], "forbidden": None, "attempt": 0, "passed": [],
            "barred": [], "ali": None, "ali_word": None, "bets": [None] * players,
            "bets_revealed": False, "sides": [None] * players, "sides_revealed": False,
            "thieves": None, "words": [None] * players, "final": [False] * players,
            "queue": [], "declarations": [], "chief": None, "best": None, "challenge": None,
        }
        return state, []

    def deal(self, state: State) -> tuple[State, list[Event]]:
        """The Style cards shuffled, and turn 1 laid out: its consonants dealt and its Style
        card turned."""
        deck, g = rngmod.shuffled(state["rng"], list(state["styles"]))
        events: list[Event] = []
        new = start_turn({**state, "rng": g, "styles": deck}, events, 1, 0,
                         list(range(state["n"])))
        return new, events

    # ------------------------------------------------------------------ queries
    pending = staticmethod(pending)

    def column(self, state: State) -> int:
        return column(state)

    def prizes(self, state: State) -> tuple[int, int]:
        return prizes(state)

    def totals(self, state: State) -> list[int]:
        return totals(state)

    def check_word(self, state: State, word: str) -> dict[str, Any]:
        return check_word(state, word)

    def situation(self, state: State, seat: int) -> dict[str, Any]:
        """The turn, the phase (a think window's attempt, the word in question) and what the
        seat must do."""
        ch = state["challenge"]
        return {"turn": state["turn"], "extra_turn": state["extra"], "phase": state["phase"],
                "attempt": state["attempt"], "word_id": ch["word_id"] if ch else None,
                "pending": self.pending(state).get(seat, [])}

    #: a challenge, a let-stand or a vote may name its word (``stale_word_id`` for another)
    situation_fields = ("word_id",)

    # ------------------------------------------------------------------ time
    def turn_key(self, state: State, seat: int) -> str | None:
        """The window ``seat`` is in: the same key for everyone in one window, so a seat that
        replaces its secret word keeps its deadline (R5) and all the window's deadlines fall
        together."""
        if seat not in self.pending(state):
            return None
        phase = state["phase"]
        if phase == THINK:
            return f"think:{state['turn']}:{state['attempt']}"
        if phase in (CHALLENGE, VOTE):
            return f"{phase}:{state['challenge']['word_id']}"
        return f"{phase}:{state['turn']}"

    move_seconds = False  # each window's length is an option of its own (R4)

    def turn_seconds(self, state: State, seat: int, move_seconds: int | None) -> float | None:
        """Word Jam's windows are game options; the service's ``move_seconds`` is not used."""
        opts = state["opts"]
        phase = state["phase"]
        if phase == THINK:
            return opts["think_seconds"]
        if phase in (SIDES, BETS):
            return opts["bet_seconds"]
        if phase == WINDOW:
            return opts["thief_seconds"]
        if phase == CHALLENGE:
            return opts["challenge_seconds"]
        if phase == VOTE:
            return opts["vote_seconds"]
        return None

    # ------------------------------------------------------------------ what a seat may do
    legal_actions = staticmethod(spaces.legal_actions)
    sample_action = staticmethod(spaces.sample_action)
    action_space = staticmethod(spaces.action_space)
    default_action = staticmethod(spaces.default_action)

    #: bots think like people by default: each call, bet, word and vote comes after a secret
    #: delay of up to 20 seconds (at most 80% of the window); the game option bot_seconds
    #: changes it (0: at once)
    bot_seconds = 20
    #: the paces a table may choose (docs/rules.md, "Paces"). ``normal`` is the options'
    #: defaults. ``relaxed`` is for newcomers: every window leaves well over 20 seconds to read
    #: the coins, the word or the bets and then click, and the bots take up to a minute to call
    #: (at least 12 s: a newcomer may call first), so a turn is not over before it is read.
    #: ``fast`` is for players who know the game (and tests)
    paces = {
        "relaxed": {"think_seconds": 240, "bet_seconds": 45, "thief_seconds": 60,
                    "challenge_seconds": 40, "vote_seconds": 45, "bot_seconds": 60},
        "normal": {"think_seconds": 120, "bet_seconds": 15, "thief_seconds": 20,
                   "challenge_seconds": 10, "vote_seconds": 20, "bot_seconds": 20},
        "fast": {"think_seconds": 60, "bet_seconds": 10, "thief_seconds": 15,
                 "challenge_seconds": 6, "vote_seconds": 10, "bot_seconds": 8},
    }
    #: the ``hard`` bot searches (``search.py``): the engine lets it think off the request path
    searching_bots = ("hard",)
    # leave_bot stays the base's: a player who leaves a game in play keeps the seat playing
    # its defaults (no call, trust Alì Babà, no challenge, votes against): it stops competing
    # for the prizes, where a bot would go on taking them from the players still at the table

    def rematch_order(self, players: int) -> list[int]:
        """The same seats: the dealer has no role (R8) and nobody plays first."""
        return list(range(players))

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        opts = state["opts"]
        out = super().lobby_options(state, options)
        out.update({k: opts[k] for k in SECONDS_OPTIONS})
        out["no_visible_objects"] = opts["no_visible_objects"]
        out["dictionary"] = opts.get("dictionary", False)
        out["language"] = language_of(opts)
        return out

    # ------------------------------------------------------------------ what leaves the engine
    score = staticmethod(scoring.score)
    view = staticmethod(views.view)

    def public_moves(self, players: int, options: dict[str, Any] | None, seed: int,
                     moves: list[tuple[int, Action]]) -> list[Action]:
        """The moves as a finished game's replay shows them. A thief's word that was never
        declared (replaced in the window, withdrawn, after the Chief Thief, or not counted in
        turn 8) and a turn-8 side that was never revealed (nobody called) stay secret: the word
        becomes that turn's forbidden consonant (so it is refused at any declaration, as a word
        that was never said), the side ``ali_baba``. Neither changes the game: the rules forget
        both when the turn ends."""
        state, _ = self.new_game(players, options, seed)
        out: list[Action] = []
        hidden: list[tuple[int, int, int, str]] = []  # (move index, turn record, seat, word)
        sides: list[tuple[int, int]] = []  # (move index, turn record) of choose_side moves
        for i, (seat, move) in enumerate(moves):
            out.append(move)
            if move.get("type") == "thief_word":
                hidden.append((i, len(state["history"]), seat, state["forbidden"]))
            elif move.get("type") == "choose_side":
                sides.append((i, len(state["history"])))
            state, _ = self.apply(state, seat, move)
        history = state["history"]
        for i, record, seat, forbidden in hidden:
            said = {d["word"] for d in history[record]["declarations"]
                    if d["seat"] == seat and d["word"] is not None}
            if moves[i][1].get("word") not in said:
                out[i] = {**moves[i][1], "word": forbidden}
        for i, record in sides:
            if history[record]["sides"] is None:
                out[i] = {**moves[i][1], "side": ALI_BABA}
        return out



def style_deck(opts: dict[str, Any]) -> list[str]:
    """The Style cards a game plays with, in rulebook order (then shuffled): all 15, or (R11,
    the option ``no_visible_objects``) all but "Objects visible from where you sit", which a
    table online cannot judge."""
    return [s["id"] for s in W.styles() if not (opts["no_visible_objects"]
                                                and s["visible_objects"])]


__all__ = ["WordJam", "PHASES", "OUTCOMES", "TURNS", "FINAL_TURN", "MAX_EXTRA_TURNS",
           "VOTES_TO_STAND", "SIDE_NAMES", "ALI_BABA", "THIEVES", "MAX_SECONDS",
           "SECONDS_OPTIONS", "NOT_IN_DICTIONARY", "SIDES", "THINK", "CHALLENGE", "VOTE", "BETS",
           "WINDOW", "OVER", "CALL", "DECLARATION", "RED", "YELLOW"]
