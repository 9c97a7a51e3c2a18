"""The ruleset contract: what every game in Impresario must provide.

A ruleset is a set of pure functions over a game state. The state is plain JSON-compatible data
(dicts, lists, str, int, bool, None) so it round-trips through JSON exactly and can be stored as is.
Functions never mutate the state they are given: they return a new one that shares the parts that
did not change (copy-on-write). Nothing here may read a clock, a global random generator, Redis or
Flask: all randomness comes from the seeded generator whose state lives inside the game state
(see ``rng.py``), and the service supplies everything else.

Players are seats ``0..n-1``. A viewer is a seat, or ``None`` for a spectator.

Events are dicts with a ``type``. An event may carry secrets for one seat under the key
``"_private"``: ``{"<seat>": {extra fields}}``. :func:`redact_event` is the one place that decides
what a viewer sees of an event; :meth:`Ruleset.view` is the one place that decides what a viewer sees
of a state.
"""

from __future__ import annotations

import random
from typing import Any, Callable, ClassVar, Mapping

from . import rng
from .declare import MISSING, Declarations, Refusals, by_type, field_problem, preparer, type_text

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Viewer = int | None


#: The kinds of refusal: what the refusal means for the player, not how a transport reports it
#: (the HTTP layer maps each kind to a status in one table).
#: the rules forbid this move (or these options): asking again the same way never works
ILLEGAL = "illegal"
#: the move conflicts with the state of play: not your turn, not this phase, already done
NOT_NOW = "not_now"
#: the move was meant for an earlier situation (another round, another word)
STALE = "stale"
#: the game is over (the value names it as the metrics' ``rules_finished`` do)
GAME_OVER = "finished"
KINDS = (ILLEGAL, NOT_NOW, STALE, GAME_OVER)

#: the phase of a game that is over, in every ruleset (``state["phase"]``)
OVER = "finished"
#: the phase of a game set up but not dealt (``Ruleset.setup``): its seats are being taken,
#: nothing hidden is drawn yet and nobody must act, in every ruleset
SETUP = "setup"


#: the paces a game may be created at (the game option ``pace``), slowest first; what each
#: means is each ruleset's (``Ruleset.paces``)
PACES = ("relaxed", "normal", "fast")
#: the pace a game against bots is created at when its player chooses none (the lobby's
#: forms and "Play now", the terminal's ``impresario play``): a newcomer learns at the table
PACE_AGAINST_BOTS = "relaxed"


class Refusal(Exception):
    """A move (or options) the rules refuse. ``code`` is stable (clients branch on it);
    ``message`` is for humans; ``kind`` says what the refusal means (:data:`KINDS`); ``details``
    are extra facts a client may use (the seats waiting, the singers held...)."""

    kind: ClassVar[str] = ILLEGAL
    #: the kinds a refusal of this class may have
    KINDS: ClassVar[tuple[str, ...]] = KINDS

    def __init__(self, code: str, message: str, *, kind: str | None = None,
                 **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if kind is not None:
            assert kind in self.KINDS, kind
            self.kind = kind  # type: ignore[misc]
        self.details = details

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, kind={self.kind!r})"


class IllegalMove(Refusal):
    """The rules forbid this move."""

    kind = ILLEGAL


class MalformedMove(IllegalMove):
    """A move that is not what its declaration says (``invalid_move``): ``field``, the first
    field that is missing, unknown or not what it declares (``_schema``: the move is no
    object), and ``problem``, what is wrong with it."""

    def __init__(self, message: str, field: str, problem: str) -> None:
        super().__init__("invalid_move", message)
        self.field = field
        self.problem = problem


class OutOfTurn(Refusal):
    """The move conflicts with the state of play: not your turn, wrong phase, already done
    (``kind`` :data:`STALE` for a move meant for an earlier situation, :data:`GAME_OVER` once the
    game is over)."""

    kind = NOT_NOW


class InvalidOptions(Refusal):
    """Options for a new game that the ruleset does not accept."""

    kind = ILLEGAL


#: the codes every ruleset refuses with (``Ruleset.apply``, ``Ruleset.new_game``' checks)
SHARED_REFUSALS = Refusals(
    illegal=("invalid_move", "unknown_move_type", "unknown_seat"),
    not_now=("game_finished",),  # (kind finished)
    options=("invalid_options", "invalid_players", "invalid_seed", "unknown_option"),
)

PRIVATE = "_private"
#: the "bot" of a seat the engine plays with its defaults (a player who left, for some rulesets)
DEFAULTS = "defaults"

def first_seat(options: dict[str, Any], option: str, players: int, g: int) -> tuple[int, int]:
    """The seat an option names to play first (Turandot's first maestro, R2; Muzicando's first
    dealer): seat 0 by default, a seat of the table, or ``"random"`` to draw it from the game's
    generator (``g``, its state). Returns the seat and the generator's next state."""
    first = options.get(option, 0)
    if first == "random":
        return rng.below(g, players)
    if type(first) is not int or not 0 <= first < players:
        raise InvalidOptions(f"invalid_{option}",
                             f"{option} must be a seat from 0 to {players - 1} or 'random'")
    return first, g


def redact_event(event: Event, viewer: Viewer, reveal_all: bool = False) -> Event:
    """What ``viewer`` may see of ``event``: the public fields, plus their own private fields.

    ``reveal_all`` merges every seat's private part (for replays of finished games).
    """
    private = event.get(PRIVATE)
    if private is None:
        return event
    public = {k: v for k, v in event.items() if k != PRIVATE}
    if reveal_all:
        public["private"] = private
        return public
    if viewer is not None:
        mine = private.get(str(viewer))
        if mine:
            public.update(mine)
    return public


class Ruleset:
    """Base class of a ruleset. Subclasses are stateless singletons; every method is pure.

    ``bots``: the ruleset's bots by level, each a function of a seat's view, its actions and a
    random stream (``impresario_rules.bots``); ``aliases``: older names of some levels."""

    def __init__(self, bots: Mapping[str, Callable[[dict, dict, random.Random], Action]],
                 declarations: Declarations, aliases: Mapping[str, str] | None = None) -> None:
        #: the bots by level, weakest first (``easy``, ``medium``, ``hard``)
        self._bots = dict(bots)
        #: older names of levels a client may still use (``random`` for ``easy``...)
        self.bot_aliases: dict[str, str] = dict(aliases or {})
        assert set(self.bot_aliases.values()) <= set(self._bots), self.bot_aliases
        #: what the ruleset declares: options, moves, view, score, action spaces, events
        self.declarations = declarations
        #: every code it refuses with: its own and the ones all rulesets share
        self.refusals = SHARED_REFUSALS + declarations.refusals
        #: the move types this ruleset accepts, in the order a client would meet them
        self.move_types: tuple[str, ...] = tuple(by_type(declarations.moves))
        # each move's check leaves out its "type": the move was found by it
        self._moves = {kind: (shape, preparer(shape, known=("type",)), self.handlers[kind])
                       for kind, shape in by_type(declarations.moves).items()}

    #: registry key, e.g. ``"turandot"``
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    # -- life cycle -------------------------------------------------------------------------
    def new_game(
        self, players: int, options: dict[str, Any] | None, seed: int
    ) -> tuple[State, list[Event]]:
        """A new game for ``players`` seats, dealt: :meth:`setup`, then :meth:`deal`, and the
        events of both (the first round laid out). Raises :class:`InvalidOptions` for bad
        options."""
        state, events = self.setup(players, options, seed)
        state, dealt = self.deal(state)
        return state, events + dealt

    def setup(self, players: int, options: dict[str, Any] | None, seed: int
              ) -> tuple[State, list[Event]]:
        """A game for ``players`` seats as it stands while its seats are taken: the options
        checked (:class:`InvalidOptions`), the generator seeded, what the options choose in
        the open (a random first seat), and nothing hidden drawn. Its phase is :data:`SETUP`:
        nobody must act, and every viewer sees the same."""
        raise NotImplementedError

    def deal(self, state: State) -> tuple[State, list[Event]]:
        """A :data:`SETUP` state dealt, once every seat is taken: every hidden thing drawn
        from the game's generator (the decks shuffled, the hands dealt) and the first round,
        turn or hand laid out; and the events of it. ``setup`` then ``deal`` draw from the
        generator in the order a game always has, so a seed gives the same game whether it is
        dealt at once (:meth:`new_game`) or when its table fills."""
        raise NotImplementedError

    def is_dealt(self, state: State) -> bool:
        """Whether the game was dealt (its phase is no longer :data:`SETUP`)."""
        return state["phase"] != SETUP

    # the checks every new game starts with, in this order: players, options, seed
    def check_players(self, players: Any) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("invalid_players", f"{self.title} is for {self.min_players} "
                                 f"to {self.max_players} players")

    @property
    def options_doc(self) -> dict[str, dict[str, Any]]:
        """The options in words, from their declarations: ``{name: {type, default,
        description}}``."""
        return {name: {"type": type_text(f),
                       "default": f.default_text if f.default_text is not None else
                       None if f.default is MISSING else f.default,
                       "description": f.description}
                for name, f in self.declarations.options.fields.items()}

    def known_options(self, options: Any) -> dict[str, Any]:
        """A copy of ``options``: an object whose every name the ruleset declares."""
        if options is not None and not isinstance(options, dict):
            raise InvalidOptions("invalid_options", "the options must be an object")
        options = dict(options or {})
        unknown = set(options) - set(self.declarations.options.fields)
        if unknown:
            raise InvalidOptions("unknown_option", f"unknown options: {sorted(unknown)}",
                                 options=sorted(unknown))
        return options

    @staticmethod
    def check_seed(seed: Any) -> None:
        if type(seed) is not int:
            raise InvalidOptions("invalid_seed", "the seed must be an integer")

    def pending(self, state: State) -> dict[int, list[str]]:
        """Who must act now and which kinds of move each may make (several seats at once when
        moves are simultaneous; empty when the game is over)."""
        raise NotImplementedError

    def is_finished(self, state: State) -> bool:
        """Whether the game is over: its phase is :data:`OVER` (a fact of every ruleset's
        state)."""
        return state["phase"] == OVER

    # -- moves ------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal move of ``seat`` now, enumerated (may be long: see :meth:`action_space`)."""
        raise NotImplementedError

    def action_space(self, state: State, seat: int) -> list[dict[str, Any]]:
        """A compact description of the legal moves of ``seat``, for UIs and the HTTP API."""
        raise NotImplementedError

    def sample_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """A legal move drawn uniformly at random (rulesets override this when the legal set is
        large, to avoid enumerating it)."""
        return rng.choice(self.legal_actions(state, seat))

    #: the function applying each move type: ``handlers[type](state, seat, move)`` (the move
    #: well formed by its declaration, defaults filled in)
    handlers: ClassVar[dict[str, Callable[..., tuple[State, list[Event]]]]] = {}

    def validate(self, state: State, seat: int, action: Action) -> None:
        """Raise a :class:`Refusal` if ``seat`` may not make ``action`` now."""
        self.apply(state, seat, action)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Validate and apply ``action`` by ``seat``; return the new state and the events:
        :meth:`prepare`, then :meth:`play`.

        Never mutates ``state``. A move that changes nothing (an idempotent re-send) returns the
        same state object and no events."""
        return self.play(state, seat, self.prepare(action))

    def prepare(self, action: Any) -> Action:
        """``action`` checked against the declaration of its type, once (the function
        :func:`~.declare.preparer` wrote for it): the move with its fields in their declared
        order and the defaults of those left out. Raises :class:`IllegalMove`
        ``unknown_move_type`` when it names none of the ruleset's move types (``move_types``:
        them), :class:`MalformedMove` (``invalid_move``) when it is no object, or a field is
        missing, unknown or not what it declares."""
        try:
            # every move of a game passes here: one lookup for the well-formed case, and the
            # refusals below only when it fails (not an object, no type, an unknown type)
            shape, prepare, _ = self._moves[action["type"]]
        except (KeyError, TypeError, IndexError):
            self._refuse_type(action)
            raise
        move = prepare(action)
        if move is None:
            field, why = field_problem(shape, action) or ("_schema", "malformed")
            raise MalformedMove(f"a {action['type']} move: {why}", field, why)
        return move

    def play(self, state: State, seat: int, move: Action) -> tuple[State, list[Event]]:
        """Apply ``move`` by ``seat``, a move :meth:`prepare` made (:meth:`apply` checks and
        plays one in one call). The checks every ruleset shares are made here, in this order:
        the seat is at the table, the game is not over. The move's own handler judges the
        rest."""
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalMove("unknown_seat", f"there is no seat {seat!r} at this table")
        if state["phase"] == OVER:  # is_finished(), written out: every move passes here
            raise OutOfTurn("game_finished", "the game is over", kind=GAME_OVER)
        return self._moves[move["type"]][2](state, seat, move)

    def _refuse_type(self, action: Any) -> None:
        """The refusal of a move that names none of the ruleset's move types (``prepare``)."""
        kind = action.get("type") if isinstance(action, dict) else None
        if isinstance(kind, str) and kind in self._moves:
            return
        if not isinstance(action, dict):
            raise MalformedMove("a move must be an object with a 'type'", "_schema",
                                "must be an object")
        names = ", ".join(self.move_types)
        if kind is None:
            what = "a move needs a 'type'"
        else:
            shown = repr(kind)
            what = f"unknown move type {shown if len(shown) <= 42 else shown[:40] + '…'}"
        raise IllegalMove("unknown_move_type", f"{what}; {self.title} moves are {names}",
                          move_types=list(self.move_types))

    # -- time (the core has no clock: it names windows, the service times them) --------------
    def turn_key(self, state: State, seat: int) -> str | None:
        """An id of the window in which ``seat`` must act now. While it stays the same the
        seat's deadline does not move, even if the seat acts and must act again (a replaceable
        submission). ``None``: the seat's deadline restarts whenever it acts."""
        return None

    def turn_seconds(self, state: State, seat: int, move_seconds: int | None) -> float | None:
        """How long ``seat`` has for the move it must make now; ``move_seconds`` is the game's
        per-move setting. Rulesets with their own windows (think time, betting time) override
        this. ``None``: no deadline."""
        return move_seconds

    def situation(self, state: State, seat: int) -> dict[str, Any]:
        """What a move by ``seat`` is about: the turn (round, hand), the phase and the kinds of
        move the seat must make now. The service refuses a move (``409 deadline_passed``) when
        the deadlines or bot moves that fell due before it changed this, so a late move never
        lands in a situation its sender did not see. Rulesets name their own turn counter."""
        return {"phase": state.get("phase"), "pending": self.pending(state).get(seat, [])}

    #: the fields by which a move may name the situation it is meant for (a Turandot bid's
    #: ``round``, a Word Jam vote's ``word_id``): the rules refuse it as stale when the game is
    #: elsewhere, so the service judges such a move by them rather than by its arrival time
    situation_fields: ClassVar[tuple[str, ...]] = ()

    def names_situation(self, move: Action) -> bool:
        """Whether ``move`` names the situation it is meant for (:attr:`situation_fields`)."""
        for name in self.situation_fields:
            if move.get(name) is not None:
                return True
        return False

    #: the longest a server bot thinks before a move, in seconds (the game option
    #: ``bot_seconds`` overrides it; 0: bots move as soon as it is their turn)
    bot_seconds: ClassVar[int] = 0

    #: the paces a table may choose when a game is created (the game option ``pace``): each
    #: pace (:data:`PACES`) names values of the game's timing options (the ruleset's windows,
    #: the service's ``move_seconds`` and ``bot_seconds``), which the options given explicitly
    #: override. Empty: the ruleset offers no pace
    paces: ClassVar[Mapping[str, Mapping[str, int]]] = {}

    #: whether the game option ``move_seconds`` (one time for every move) applies: a ruleset
    #: with windows of its own (Word Jam's) has no such option, and its view no such field
    move_seconds: ClassVar[bool] = True

    #: the bots that search before they move (the engine makes their moves only in its
    #: background player, never in a player's request)
    searching_bots: ClassVar[tuple[str, ...]] = ()

    @property
    def bot_names(self) -> tuple[str, ...]:
        """The levels of bot this ruleset offers for bot seats, weakest first."""
        return tuple(self._bots)

    @property
    def bot_names_accepted(self) -> tuple[str, ...]:
        """Every name a bot seat may be asked for: the levels, then their aliases."""
        return (*self._bots, *self.bot_aliases)

    def bot_play(self, bot: str) -> Callable[[dict, dict, random.Random], Action]:
        """The function a bot of this name (a level or an alias) plays."""
        play = self._bots.get(self.bot_aliases.get(bot, bot))
        if play is None:
            raise ValueError(f"unknown bot {bot!r}")
        return play

    def bot_action(self, state: State, seat: int, bot: str, rng: random.Random) -> Action:
        """The move the bot ``bot`` makes for ``seat`` now. A bot is given what the seat sees
        and nothing else: the seat's view and its actions (``impresario_rules.bots``). ``rng``
        is the bot's randomness: in the service a :class:`BotRandom` drawn from the game's
        secret, so nothing public predicts it. :data:`DEFAULTS` is the engine playing the
        seat's defaults."""
        if bot == DEFAULTS:
            return self.default_action(state, seat)
        return self.bot_play(bot)(self.view(state, seat), self.seat_actions(state, seat), rng)

    def seat_actions(self, state: State, seat: int) -> dict[str, Any]:
        """What a seat may do now, as ``GET /v1/games/{id}/actions`` answers it: the kinds of
        move it must make, their action spaces, and the move the engine would make for it
        (empty, and no default, when it has nothing to do)."""
        kinds = self.pending(state).get(seat)
        if not kinds:
            return {"seat": seat, "pending": [], "moves": [], "default": None}
        return {"seat": seat, "pending": kinds, "moves": self.action_space(state, seat),
                "default": self.default_action(state, seat)}

    # -- the table around the rules: leaving, playing again, the list of games ---------------
    #: who plays a seat whose player leaves a game in play. None of the rulebooks lets a
    #: player resign, so the seat stays in the game: a bot of :attr:`bot_names`, or
    #: :data:`DEFAULTS` (the seat plays what a passed deadline plays for it)
    leave_bot: ClassVar[str] = DEFAULTS

    def rematch_order(self, players: int) -> list[int]:
        """The seats of a rematch: ``order[i]`` is the seat of the finished game whose player
        sits at seat ``i``. The base passes the first player's role to the left, as a first
        player (maestro, dealer) passes it: everyone moves one seat anticlockwise, so the
        player left of the old seat 0 is the new seat 0 and the options still name seat 0."""
        return [(i + 1) % players for i in range(players)]

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        """The options a player deciding to join wants to see: each option given, a long one
        (a custom catalogue, a cave...) only as ``"custom"``."""
        return {k: (v if v is None or isinstance(v, (bool, int, float, str)) else "custom")
                for k, v in options.items()}

    def default_action(self, state: State, seat: int) -> Action:
        """The move the engine makes for ``seat`` when a deadline passes."""
        raise NotImplementedError

    # -- what leaves the engine ------------------------------------------------------------
    def public_moves(self, players: int, options: dict[str, Any] | None, seed: int,
                     moves: list[tuple[int, Action]]) -> list[Action]:
        """The moves of a finished game as its replay shows them: each move as made, except
        what the rules never reveal, which a ruleset replaces by a stand-in that leads to the
        same game (replaying the result from the seed gives the same states and score)."""
        return [move for _, move in moves]

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """The state as ``viewer`` may see it. The only way state leaves the engine."""
        raise NotImplementedError

    def redact_event(self, event: Event, viewer: Viewer) -> Event:
        return redact_event(event, viewer)

    def score(self, state: State) -> dict[str, Any]:
        """The final score: per player a line-by-line breakdown and total, and the winners."""
        raise NotImplementedError

    def places(self, score: dict[str, Any]) -> list[int] | None:
        """Each player's place (1 best, a tie sharing it) in a final score, by the rules' own
        tie-break, when the ruleset ranks every player; None when it names winners only."""
        return None

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.options_doc,
            "move_types": list(self.move_types),
            "bots": list(self.bot_names),
            "bot_aliases": dict(self.bot_aliases),
            "bot_seconds": self.bot_seconds,
            "leave_bot": self.leave_bot,
        }


class BotRandom(random.Random):
    """A bot's random generator in the service: seeded from the game's secret (kept in the
    stored game, sent to nobody) and the move's place in the game. ``stable(...)``
    gives a generator that stays the same for the same parts (a bot that must remember, all
    turn long, which words it thought of)."""

    def __init__(self, secret: str, *parts: Any) -> None:
        super().__init__(":".join(map(str, (secret, *parts))))
        self.secret = secret

    def stable(self, *parts: Any) -> random.Random:
        return random.Random(":".join(map(str, (self.secret, "stable", *parts))))


def stable_random(rng: random.Random, *parts: Any) -> random.Random:
    """``rng.stable(*parts)`` for a :class:`BotRandom`; for any other generator (simulations,
    tests) one seeded from the parts alone."""
    if isinstance(rng, BotRandom):
        return rng.stable(*parts)
    return random.Random(":".join(map(str, ("stable", *parts))))

