"""Impresario's games as OpenSpiel games: importing this module registers each ruleset with
``pyspiel.register_game`` as a Python game, so OpenSpiel's algorithms run on the rules
unchanged::

    import pyspiel
    import impresario_rules.openspiel  # registers the games
    game = pyspiel.load_game("python_impresario_turandot(players=4)")

The games: ``python_impresario_turandot``, ``python_impresario_wordjam`` and
``python_impresario_muzicando`` (:data:`GAMES`). Their parameters:

``players``
    the number of seats (the ruleset's own bounds; defaults 4, 5 and 4).
``simultaneous``
    ``True`` (the default where the rules have simultaneous moves: Turandot's sealed bids,
    Word Jam's windows): a state where several seats must act is a SIMULTANEOUS node (each
    seat that has nothing to do there plays :data:`WAIT`). ``False``: those seats act one at a
    time in seat order, each seeing only its own view (a turn-based game with the same
    information: what OpenSpiel's sequential algorithms, ISMCTS among them, need).
``seed_bytes``
    the deal is drawn by chance nodes at the start: ``seed_bytes`` nodes of 256 outcomes each
    make the game's seed (big-endian), then the rules deal from it (``Ruleset.new_game``).
    Every shuffle after the deal comes from the generator inside the rules' state, so the seed
    decides all of the game's chance; 4 bytes (the default) gives 2**32 deals.
``options``
    the game's options as a JSON object (the ruleset's own, checked by it), default ``{}``.

Actions are integers by a fixed enumeration for a player count (:class:`Codec`, one per
ruleset); action 0 is :data:`WAIT`. Word Jam's words are an open set: the agent's words are
the lexicon's vocabulary (what the rules' ``legal_actions`` lists, the words its bots think
of), and its ``thief_word`` moves are final ones only (a non-final word may be replaced
without end, which no finite game allows).

Information-state and observation strings are a seat's view (``Ruleset.view``) as JSON and
nothing else, so they never show what the seat may not see. Returns: each seat's share of the
victory (``1/k`` to each of ``k`` winners, 0 to the others; nobody wins when Turandot's dummy
does).

For the sequential games, :func:`resampler` gives OpenSpiel's ``ISMCTSBot`` the worlds a
seat's view allows (:func:`sample_world`: each ruleset's own determinization), and
:class:`ISMCTS` seats that search at a table of the SDK (``choose(view, actions)``, its view
alone), with a think budget by the CPU clock: the one place in this package that reads a
clock, given to it as a parameter.

OpenSpiel is not a dependency of the rules: this module alone imports ``pyspiel`` (the
``openspiel`` extra installs it). docs/openspiel.md has the encodings and the choices.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from . import RULESETS
from .base import Action, Refusal, Ruleset, State
from .bots import THINK_MS, Budget

#: the action of a seat with nothing to do at a simultaneous node
WAIT = 0
#: the games registered, by ruleset
GAMES = {name: f"python_impresario_{name}" for name in RULESETS}
#: outcomes of a chance node drawing one byte of the seed
BYTE = 256


class Codec:
    """A ruleset's moves as action ids ``1..size-1`` for a player count (0 is :data:`WAIT`):
    segments of fixed size in a fixed order, one or more per move type."""

    def __init__(self, segments: list[tuple[str, int]]) -> None:
        self.offsets: dict[str, int] = {}
        at = 1
        for name, size in segments:
            self.offsets[name] = at
            at += size
        self.size = at
        self._ends = sorted((off, name) for name, off in self.offsets.items())

    def split(self, action: int) -> tuple[str, int]:
        """The segment of ``action`` and its index inside it."""
        found = None
        for off, name in self._ends:
            if off > action:
                break
            found = (name, action - off)
        assert found is not None and action < self.size, action
        return found

    def encode(self, state: State, seat: int, move: Action) -> int | None:
        """The id of ``move`` (None: a move outside the agent's space)."""
        raise NotImplementedError

    def decode(self, state: State, seat: int, action: int) -> Action:
        raise NotImplementedError

    def describe(self, action: int) -> str:
        name, i = self.split(action)
        return f"{name} {i}"


class TurandotCodec(Codec):
    """bid: (slot or none for a helper, money 0..START_MONEY, bluff); assign_office: the
    slots given to the waiting seats in order, a k-permutation of the slots (k = 1..n);
    nominate: a seat; fire_director: a director; cast: a permutation of the seat's six singers
    taken in sorted order."""

    def __init__(self, n: int) -> None:
        from .turandot.cards import DIRECTORS
        from .turandot.state import START_MONEY
        self.n, self.money = n, START_MONEY
        self.slots: list[int | None] = [None, *range(1, n + 2)]
        self.offices = [p for k in range(1, n + 1)
                        for p in itertools.permutations(range(1, n + 2), k)]
        self.office_id = {p: i for i, p in enumerate(self.offices)}
        self.directors = list(DIRECTORS)
        self.casts = list(itertools.permutations(range(6)))
        self.cast_id = {p: i for i, p in enumerate(self.casts)}
        super().__init__([("bid", len(self.slots) * (START_MONEY + 1) * 2),
                          ("assign_office", len(self.offices)), ("nominate", n),
                          ("fire_director", len(self.directors)), ("cast", len(self.casts))])

    def encode(self, state: State, seat: int, move: Action) -> int | None:
        off = self.offsets[move["type"]]
        kind = move["type"]
        if kind == "bid":
            return off + (self.slots.index(move["slot"]) * (self.money + 1)
                          + move["money"]) * 2 + bool(move["bluff"])
        if kind == "assign_office":
            return off + self.office_id[tuple(a["slot"] for a in move["assignments"])]
        if kind == "nominate":
            return off + move["seat"]
        if kind == "fire_director":
            return off + self.directors.index(move["director"])
        hand = sorted(state["singers"][seat])
        return off + self.cast_id[tuple(hand.index(s) for s in move["roles"])]

    def decode(self, state: State, seat: int, action: int) -> Action:
        kind, i = self.split(action)
        if kind == "bid":
            slot, rest = divmod(i, (self.money + 1) * 2)
            return {"type": "bid", "slot": self.slots[slot], "money": rest // 2,
                    "bluff": bool(rest % 2)}
        if kind == "assign_office":
            return {"type": "assign_office", "assignments": [
                {"seat": s, "slot": p} for s, p in zip(state["waiting"], self.offices[i])]}
        if kind == "nominate":
            return {"type": "nominate", "seat": i}
        if kind == "fire_director":
            return {"type": "fire_director", "director": self.directors[i]}
        hand = sorted(state["singers"][seat])
        return {"type": "cast", "roles": [hand[p] for p in self.casts[i]]}

    def describe(self, action: int) -> str:
        kind, i = self.split(action)
        if kind == "bid":
            slot, rest = divmod(i, (self.money + 1) * 2)
            where = "helper" if self.slots[slot] is None else f"slot {self.slots[slot]}"
            return f"bid {where} money {rest // 2}{' bluff' if rest % 2 else ''}"
        if kind == "assign_office":
            return f"assign_office slots {list(self.offices[i])}"
        if kind == "nominate":
            return f"nominate seat {i}"
        if kind == "fire_director":
            return f"fire_director {self.directors[i]}"
        return f"cast {list(self.casts[i])}"


class WordJamCodec(Codec):
    """choose_side, bet: a side; challenge, no_challenge: of the word under challenge; vote: for
    or against; no_call, thief_pass; open_sesame and (final) thief_word: a word of the
    lexicon's vocabulary, by its place in it."""

    def __init__(self, n: int) -> None:
        from .wordjam import lexicon
        from .wordjam.state import SIDE_NAMES
        self.sides = list(SIDE_NAMES)
        self.words: list[str] = []
        self.word_id: dict[str, int] = {}
        for word, _ in lexicon.vocabulary():
            if word not in self.word_id:
                self.word_id[word] = len(self.words)
                self.words.append(word)
        super().__init__([("choose_side", 2), ("bet", 2), ("challenge", 1),
                          ("no_challenge", 1), ("vote", 2), ("no_call", 1), ("thief_pass", 1),
                          ("open_sesame", len(self.words)), ("thief_word", len(self.words))])

    def encode(self, state: State, seat: int, move: Action) -> int | None:
        kind = move["type"]
        off = self.offsets[kind]
        if kind in ("choose_side", "bet"):
            return off + self.sides.index(move["side"])
        if kind == "vote":
            return off + (not move["in_favour"])
        if kind in ("open_sesame", "thief_word"):
            if kind == "thief_word" and not move["final"]:
                return None
            i = self.word_id.get(move["word"])
            return None if i is None else off + i
        return off

    def decode(self, state: State, seat: int, action: int) -> Action:
        kind, i = self.split(action)
        if kind in ("choose_side", "bet"):
            return {"type": kind, "side": self.sides[i]}
        if kind in ("challenge", "no_challenge"):
            return {"type": kind, "word_id": state["challenge"]["word_id"]}
        if kind == "vote":
            return {"type": kind, "word_id": state["challenge"]["word_id"],
                    "in_favour": i == 0}
        if kind == "open_sesame":
            return {"type": kind, "word": self.words[i]}
        if kind == "thief_word":
            return {"type": kind, "word": self.words[i], "final": True}
        return {"type": kind}

    def describe(self, action: int) -> str:
        kind, i = self.split(action)
        if kind in ("choose_side", "bet"):
            return f"{kind} {self.sides[i]}"
        if kind == "vote":
            return "vote for" if i == 0 else "vote against"
        if kind in ("open_sesame", "thief_word"):
            return f"{kind} {self.words[i]}"
        return kind


class MuzicandoCodec(Codec):
    """auction_bid: a contract; auction_pass; choose_layout: a layout; pass; place: a card of
    the deck at a cell ``(x, y)`` with ``|x|, |y| <= REACH`` (a table of connected cards from
    (0, 0) never reaches further than the deck is long)."""

    def __init__(self, n: int) -> None:
        from .muzicando.cards import DECK
        from .muzicando.layouts import LAYOUTS
        from .muzicando.state import CONTRACTS
        self.contracts, self.layouts, self.deck = list(CONTRACTS), list(LAYOUTS), list(DECK)
        self.reach = len(DECK) - 1
        self.side = 2 * self.reach + 1
        super().__init__([("auction_bid", len(CONTRACTS)), ("auction_pass", 1),
                          ("choose_layout", len(LAYOUTS)), ("pass", 1),
                          ("place", len(DECK) * self.side * self.side)])

    def encode(self, state: State, seat: int, move: Action) -> int | None:
        kind = move["type"]
        off = self.offsets[kind]
        if kind == "auction_bid":
            return off + self.contracts.index(move["contract"])
        if kind == "choose_layout":
            return off + self.layouts.index(move["layout"])
        if kind == "place":
            x, y = move["x"] + self.reach, move["y"] + self.reach
            assert 0 <= x < self.side and 0 <= y < self.side, move
            return off + (self.deck.index(move["card"]) * self.side + x) * self.side + y
        return off

    def _place(self, i: int) -> tuple[str, int, int]:
        card, cell = divmod(i, self.side * self.side)
        x, y = divmod(cell, self.side)
        return self.deck[card], x - self.reach, y - self.reach

    def decode(self, state: State, seat: int, action: int) -> Action:
        kind, i = self.split(action)
        if kind == "auction_bid":
            return {"type": kind, "contract": self.contracts[i]}
        if kind == "choose_layout":
            return {"type": kind, "layout": self.layouts[i]}
        if kind == "place":
            card, x, y = self._place(i)
            return {"type": kind, "card": card, "x": x, "y": y}
        return {"type": kind}

    def describe(self, action: int) -> str:
        move = self.decode({}, 0, action)
        return " ".join(str(v) for v in move.values())


#: per ruleset: its codec, whether its rules have simultaneous moves, the default player
#: count, and a bound on its moves for n players (checked by tests/unit/test_openspiel.py
#: against random games: Turandot's from its structure, the others' generous)
SPECS: dict[str, tuple[Callable[[int], Codec], bool, int, Callable[[int], int]]] = {
    # 7 rounds, each: n bids, at most n office hires, a nomination, a firing; then n casts
    "turandot": (TurandotCodec, True, 4, lambda n: 7 * (2 * n + 2) + n),
    "wordjam": (WordJamCodec, True, 5, lambda n: 120 * n),
    "muzicando": (MuzicandoCodec, False, 4, lambda n: 250 * n),
}


class _Shared:
    """Data that a state's clones share instead of copying (OpenSpiel deep-copies a Python
    state's attributes on ``clone``): the rules' states are never mutated."""

    __slots__ = ("value", "legal")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.legal: dict[int, list[int]] = {}

    def __deepcopy__(self, memo: dict) -> "_Shared":
        return self

    def __reduce__(self) -> tuple:
        return (_Shared, (self.value,))


class _Config:
    """A game's settings, rebuilt by name when a state is unpickled (deserialized)."""

    def __init__(self, name: str, players: int, simultaneous: bool, seed_bytes: int,
                 options: str) -> None:
        self.args = (name, players, simultaneous, seed_bytes, options)
        self.name, self.n, self.simultaneous, self.seed_bytes = name, players, simultaneous, \
            seed_bytes
        self.rules: Ruleset = RULESETS[name]
        self.options: dict[str, Any] = json.loads(options)
        self.codec = _codec(name, players)

    def __deepcopy__(self, memo: dict) -> "_Config":
        return self

    def __reduce__(self) -> tuple:
        return (_config, self.args)


_CODECS: dict[tuple[str, int], Codec] = {}
_CONFIGS: dict[tuple, _Config] = {}


def _codec(name: str, players: int) -> Codec:
    if (name, players) not in _CODECS:
        _CODECS[name, players] = SPECS[name][0](players)
    return _CODECS[name, players]


def _config(*args: Any) -> _Config:
    if args not in _CONFIGS:
        _CONFIGS[args] = _Config(*args)
    return _CONFIGS[args]


def win_shares(rules: Ruleset, state: State) -> list[float]:
    """Each seat's share of the victory in a finished game."""
    winners = rules.score(state)["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(state["n"])]


class ImpresarioState(pyspiel.State):
    """A game in progress: the seed bytes drawn so far, then the rules' state."""

    def __init__(self, game: "ImpresarioGame") -> None:
        super().__init__(game)
        self._cfg = game.config
        self._seed: list[int] = []
        self._rules: _Shared | None = None

    # -- who acts ---------------------------------------------------------------------------
    def _acting(self) -> list[int]:
        assert self._rules is not None
        pending = self._cfg.rules.pending(self._rules.value)
        return sorted(s for s, kinds in pending.items() if kinds)

    def current_player(self) -> int:
        if self._rules is None:
            return pyspiel.PlayerId.CHANCE
        if self._cfg.rules.is_finished(self._rules.value):
            return pyspiel.PlayerId.TERMINAL
        acting = self._acting()
        if len(acting) > 1 and self._cfg.simultaneous:
            return pyspiel.PlayerId.SIMULTANEOUS
        return acting[0]

    def is_terminal(self) -> bool:
        return self._rules is not None and self._cfg.rules.is_finished(self._rules.value)

    def _moves(self, seat: int) -> list[int]:
        """The ids of ``seat``'s legal moves now (cached with the rules' state)."""
        assert self._rules is not None
        cached = self._rules.legal.get(seat)
        if cached is None:
            state, codec = self._rules.value, self._cfg.codec
            ids = {codec.encode(state, seat, m)
                   for m in self._cfg.rules.legal_actions(state, seat)}
            ids.discard(None)
            cached = self._rules.legal[seat] = sorted(ids)  # type: ignore[type-var]
        return cached

    def _legal_actions(self, player: int) -> list[int]:
        if self.current_player() == pyspiel.PlayerId.SIMULTANEOUS \
                and player not in self._acting():
            return [WAIT]
        return self._moves(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / BYTE) for b in range(BYTE)]

    # -- moves ------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self._rules is None:
            self._seed.append(int(action))
            if len(self._seed) == self._cfg.seed_bytes:
                seed = int.from_bytes(bytes(self._seed), "big")
                state, _ = self._cfg.rules.new_game(self._cfg.n, dict(self._cfg.options),
                                                    seed)
                self._rules = _Shared(state)
            return
        self._play(self.current_player(), int(action))

    def _play(self, seat: int, action: int) -> None:
        assert self._rules is not None
        state = self._rules.value
        move = self._cfg.codec.decode(state, seat, action)
        state, _ = self._cfg.rules.apply(state, seat, move)
        self._rules = _Shared(state)

    def _apply_actions(self, actions: list[int]) -> None:
        """The seats that must act move in seat order; a seat whose move the moves before it
        made illegal (a window another seat closed) loses it."""
        for seat in self._acting():
            if actions[seat] == WAIT or seat not in self._acting():
                continue
            try:
                self._play(seat, int(actions[seat]))
            except Refusal:
                pass

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        if action == WAIT:
            return "wait"
        return self._cfg.codec.describe(action)

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._cfg.n
        assert self._rules is not None
        return win_shares(self._cfg.rules, self._rules.value)

    def rules_state(self) -> State | None:
        """The rules' state (None while the seed is drawn)."""
        return None if self._rules is None else self._rules.value

    def __str__(self) -> str:
        if self._rules is None:
            return f"drawing the seed: {len(self._seed)} of {self._cfg.seed_bytes} bytes"
        return json.dumps(self._rules.value, sort_keys=True, separators=(",", ":"))


class ImpresarioObserver:
    """A seat's view as a string; no tensor."""

    def __init__(self, game: "ImpresarioGame") -> None:
        self._cfg = game.config
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: ImpresarioState, player: int) -> None:
        pass

    def string_from(self, state: ImpresarioState, player: int) -> str:
        rules_state = state.rules_state()
        if rules_state is None:
            return f"seat {player}: the seed is being drawn"
        view = self._cfg.rules.view(rules_state, player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


class ImpresarioGame(pyspiel.Game):
    def __init__(self, name: str, game_type: pyspiel.GameType,
                 params: dict[str, Any]) -> None:
        rules = RULESETS[name]
        n = int(params["players"])
        rules.check_players(n)
        options = json.dumps(json.loads(params["options"]), sort_keys=True)
        self.config = _config(name, n, bool(params["simultaneous"]),
                              int(params["seed_bytes"]), options)
        rules.new_game(n, json.loads(options), 0)  # the options checked now, not mid-search
        dynamics = (pyspiel.GameType.Dynamics.SIMULTANEOUS if self.config.simultaneous
                    else pyspiel.GameType.Dynamics.SEQUENTIAL)
        instance_type = pyspiel.GameType(
            **{**_type_fields(game_type), "dynamics": dynamics})
        super().__init__(instance_type, pyspiel.GameInfo(
            num_distinct_actions=self.config.codec.size,
            max_chance_outcomes=BYTE,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.config.seed_bytes + SPECS[name][3](n),
        ), params)

    def new_initial_state(self) -> ImpresarioState:
        return ImpresarioState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Any = None) -> ImpresarioObserver:
        return ImpresarioObserver(self)


_TYPE_FIELDS = ("short_name", "long_name", "dynamics", "chance_mode", "information",
                "utility", "reward_model", "max_num_players", "min_num_players",
                "provides_information_state_string", "provides_information_state_tensor",
                "provides_observation_string", "provides_observation_tensor",
                "parameter_specification")


def _type_fields(game_type: pyspiel.GameType) -> dict[str, Any]:
    fields = {f: getattr(game_type, f) for f in _TYPE_FIELDS}
    fields["provides_factored_observation_string"] = False
    return fields


def _register(name: str) -> None:
    rules = RULESETS[name]
    _, simultaneous, players, _ = SPECS[name]
    game_type = pyspiel.GameType(
        short_name=GAMES[name],
        long_name=f"Python Impresario {rules.title}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification={"players": players, "simultaneous": simultaneous,
                                 "seed_bytes": 4, "options": "{}"})
    def __init__(self: ImpresarioGame, params: dict[str, Any] | None = None) -> None:
        ImpresarioGame.__init__(self, name, game_type,
                                {**game_type.parameter_specification, **(params or {})})

    cls = type(f"Impresario{rules.title.replace(' ', '')}Game", (ImpresarioGame,),
               {"__init__": __init__, "__module__": __name__})
    globals()[cls.__name__] = cls
    pyspiel.register_game(game_type, cls)


for _name in GAMES:
    _register(_name)


# -- ISMCTS: a world the seat's view allows ---------------------------------------------------
#: a ruleset's world builder: ``(view, rng, memo) -> state`` (``memo``: what a builder keeps
#: from one call to the next on the same view, e.g. Word Jam's card of words)
WorldOf = Callable[[Mapping[str, Any], random.Random, dict[Any, Any]], State]


def _turandot_world(view: Mapping[str, Any], rng: random.Random, memo: dict[Any, Any]
                    ) -> State:
    """The rules' determinization (:func:`~.turandot.search.determinize`: the deck a shuffle
    of the singers nobody sees), then the sealed bids the other seats made already, each drawn
    at random among the bids of as many face-down cards as the view shows (R3)."""
    from .turandot.search import determinize
    from .turandot.state import face_down, sealed_bid
    rules = RULESETS["turandot"]
    world = determinize(view, rng)
    if world is None:
        raise ValueError("cannot sample a world of a game with its own catalogue")
    me = view["you"]["seat"]
    for p in view["players"]:
        seat = p["seat"]
        if seat != me and p.get("has_bid") and world["bids"][seat] is None:
            bids = [m for m in rules.legal_actions(world, seat)
                    if face_down(sealed_bid(m["slot"], m["money"], m["bluff"]))
                    == p["face_down"]]
            world, _ = rules.apply(world, seat, rng.choice(bids))
    return world


def _wordjam_world(view: Mapping[str, Any], rng: random.Random, memo: dict[Any, Any]
                   ) -> State:
    """The rules' determinization (:func:`~.wordjam.search.determinize`: the Style cards
    still to come, the next deals), then what the others decided in secret and the view says
    they did: turn 8's sides and the sealed bets, each a side at random; the votes cast, each
    for or against at random; the final words in the window and the words of the thieves
    still to declare (the seat's own too: its view no longer shows it), each what a seat
    that thinks of a random half of the card settles on (the ``hard`` bot's model,
    :func:`~.wordjam.search.sample_words`), or a pass when that does not beat Alì Babà."""
    from .wordjam.bots import TOP
    from .wordjam.search import determinize, playable_card, sample_words
    from .wordjam.state import BETS, FINAL_TURN, SIDE_NAMES, SIDES, VOTE, WINDOW
    world = determinize(view, rng)
    me, phase, final = view["you"]["seat"], view["phase"], view["turn"] == FINAL_TURN
    players = view["players"]
    if final and not world["sides_revealed"]:
        for s in world["participants"]:
            if s != me and (phase != SIDES or players[s]["has_side"]):
                world["sides"][s] = rng.choice(SIDE_NAMES)
    if phase == BETS:
        for p in players:
            if p["seat"] != me and p["has_bet"]:
                world["bets"][p["seat"]] = rng.choice(SIDE_NAMES)
    if phase == VOTE:
        for p in players:
            if p["seat"] != me and p["has_voted"]:
                world["challenge"]["votes"][p["seat"]] = rng.random() < 0.5
    if phase == WINDOW:
        unknown = [p["seat"] for p in players if p["seat"] != me and p["word_final"]]
    else:
        unknown = list(world["queue"])
    if unknown:
        key = ("card", json.dumps([view["turn"], view["extra_turn"], view["used_words"]]))
        if key not in memo:
            memo.clear()
            memo[key] = playable_card(view)
        used = set(world["used"])
        ali = world["ali_word"]
        for s in unknown:
            found, pick = sample_words(memo[key], rng)
            left = [w for w in found if w[1] not in used][:TOP]
            word = left[min(pick, len(left) - 1)] if left else None
            if word is not None and (final or ali is None or word[2] > ali["value"]):
                world["words"][s] = word[0]
    return world


def _muzicando_world(view: Mapping[str, Any], rng: random.Random, memo: dict[Any, Any]
                     ) -> State:
    """The rules' determinization (:func:`~.muzicando.search.determinize`): the cards the seat
    has not seen dealt to the others and the pile, keeping what the auction said."""
    from .muzicando.search import determinize
    world = determinize(view, rng)
    if world is None:
        raise ValueError("the view's card counts do not add up")
    return world


#: each ruleset's world builder
WORLDS: dict[str, WorldOf] = {"turandot": _turandot_world, "wordjam": _wordjam_world,
                              "muzicando": _muzicando_world}


def sample_world(name: str, view: Mapping[str, Any], rng: random.Random,
                 memo: dict[Any, Any] | None = None) -> State:
    """A full rules' state of ruleset ``name`` that ``view`` (a seat's view: the rules' own,
    or the API's with its envelope) allows, whose view for that seat is the rules' view of
    the game it came from: the rules' determinization of each ruleset, and the secret moves
    the view says the others made already drawn at random (see each builder). It reads
    nothing but ``view``."""
    return WORLDS[name](view, rng, {} if memo is None else memo)


def state_of(game: pyspiel.Game, world: State) -> ImpresarioState:
    """An OpenSpiel state of ``game`` whose rules' state is ``world`` (its seed bytes
    zeros: the rules' state carries its own generator)."""
    out = game.new_initial_state()
    assert isinstance(out, ImpresarioState)
    out._seed = [0] * out._cfg.seed_bytes
    out._rules = _Shared(world)
    return out


def resampler(seed: int = 0) -> Callable[[ImpresarioState, int], ImpresarioState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` on the sequential games
    (``simultaneous=false``) of every ruleset: a state whose rules' state is a world the
    seat's view allows (:func:`sample_world`), with the same information state for the
    seat."""
    rng = random.Random(seed)
    memo: dict[Any, Any] = {}

    def resample(state: ImpresarioState, player: int) -> ImpresarioState:
        rules, real = state._cfg.rules, state.rules_state()
        assert real is not None
        world = sample_world(state._cfg.name, rules.view(real, player), rng, memo)
        out = state_of(state.get_game(), world)
        out._seed = list(state._seed)
        return out

    return resample


def turandot_resampler(seed: int = 0) -> Callable[[ImpresarioState, int], ImpresarioState]:
    """:func:`resampler`, by its first name (it began with Turandot)."""
    return resampler(seed)


# -- ISMCTS as a seat of the SDK's tournament ---------------------------------------------------
class _Spent(Exception):
    """The think budget ran out between two simulations."""


class _BudgetedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot whose search also ends once one more simulation would likely
    overrun the think budget (the rules' :class:`~.bots.Budget`), after two at least (the
    first only expands the root)."""

    budget: Budget | None = None
    _done = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self._done = 0
        try:
            policy: list[tuple[int, float]] = super().run_search(state)
        except _Spent:
            policy = self.get_final_policy(state, self._root_node)
        return policy

    def sample_root_state(self, state: pyspiel.State) -> pyspiel.State:
        if self.budget is not None and self._done >= 2 and self.budget.spent(self._done):
            raise _Spent
        self._done += 1
        return super().sample_root_state(state)


_SEQUENTIAL: dict[tuple[str, int], pyspiel.Game] = {}


def sequential_game(name: str, players: int) -> pyspiel.Game:
    """The sequential game (``simultaneous=false``) of ruleset ``name`` for ``players``."""
    if (name, players) not in _SEQUENTIAL:
        _SEQUENTIAL[name, players] = pyspiel.load_game(
            f"{GAMES[name]}(players={players},simultaneous=false)")
    return _SEQUENTIAL[name, players]


class ISMCTS:
    """OpenSpiel's ``ISMCTSBot`` as a seat of any of the three games: a bot of the SDK's
    tournament (``--bots impresario_rules.openspiel:ISMCTS,hard,hard,hard``, in process) and
    of its play loops, ``choose(view, actions) -> move``.

    It sees its seat's view and actions only. Each decision it samples a world the view
    allows (:func:`sample_world`), makes it the root of the sequential OpenSpiel game, and
    runs ISMCTS from there with :func:`resampler` (random rollouts to the end of the game,
    or of at most ``rollout_length`` moves, scored 0 where they stop; UCT constant
    ``uct_c``); the action chosen is decoded back into the rules' move
    (:class:`Codec`) and checked against the seat's actions and the rules.

    The search runs ``simulations`` simulations when given (reproducible from ``seed``);
    otherwise as many as fit in ``think_ms`` milliseconds by ``clock`` (default the process's
    CPU time, as the SDK's ``hard`` bot measures its budget: the rules read no clock, so this
    seat is given one), and two at least (the first only expands the root: a decision whose
    rollouts cost more than the budget overruns it). The SDK's tournament gives it the
    game's ``seed`` and its own ``think_ms`` when one is set. The ruleset is the view's
    ``ruleset`` (the API's envelope), else ``ruleset``."""

    name = "ismcts"

    def __init__(self, *, seed: int | None = None, think_ms: float | None = THINK_MS,
                 simulations: int | None = None, uct_c: float = 2.0,
                 rollout_length: int | None = None, ruleset: str | None = None,
                 clock: Callable[[], float] | None = time.process_time) -> None:
        if simulations is None and (think_ms is None or clock is None):
            raise ValueError("ISMCTS needs simulations= or a think budget and a clock")
        self.rng = random.Random(seed)
        self.random_state = np.random.RandomState(seed)
        self.think_ms = think_ms
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollout_length = rollout_length
        self.ruleset = ruleset
        self.clock = clock
        #: the simulations each decision ran (for reports)
        self.searched: list[int] = []

    def choose(self, view: Mapping[str, Any], actions: Mapping[str, Any]) -> Action:
        budget = Budget(None if self.simulations else self.think_ms,
                        None if self.simulations else self.clock)
        name = view.get("ruleset") or self.ruleset
        if name not in SPECS:
            raise ValueError(f"which game? the view names no ruleset ({name!r}): "
                             "ISMCTS(ruleset=...)")
        rules, seat = RULESETS[name], view["you"]["seat"]
        game = sequential_game(name, len(view["players"]))
        world = self._in_turn(rules, sample_world(name, view, self.rng), seat,
                              list(actions["pending"]))
        root = state_of(game, world)
        bot = _BudgetedISMCTS(
            game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.random_state,
                                              max_length=self.rollout_length),
            uct_c=self.uct_c, max_simulations=max(2, self.simulations or 10**9),
            random_state=self.random_state)
        bot.budget = budget
        bot.set_resampler(resampler(self.rng.getrandbits(32)))
        action = int(bot.step(root))
        self.searched.append(bot._done)
        move = _codec(name, len(view["players"])).decode(world, seat, action)
        if move["type"] not in actions["pending"]:
            raise AssertionError(f"ISMCTS chose {move}; the seat must {actions['pending']}")
        rules.validate(world, seat, move)  # a seat's own moves are judged by what it sees
        return move

    def _in_turn(self, rules: Ruleset, world: State, seat: int, kinds: list[str]) -> State:
        """``world`` where ``seat`` acts first. A seat may be asked while a lower one still has
        to act (a lower seat's move opened a window for both; and over HTTP, in any order):
        the sequential game lets the lowest act first, so here the lower seats act first, each
        a move at random among those that leave ``seat`` the decision it has (``kinds``:
        a lower seat that challenged would make it a vote)."""
        while True:
            pending = rules.pending(world)
            acting = sorted(s for s, kinds_of in pending.items() if kinds_of)
            if seat not in acting or pending[seat] != kinds:
                raise ValueError(f"seat {seat} does not have to {kinds} in this world")
            if acting[0] == seat:
                return world
            other = acting[0]
            tries = [rules.sample_action(world, other, self.rng) for _ in range(8)]
            for move in tries + rules.legal_actions(world, other):
                try:
                    after, _ = rules.apply(world, other, move)
                except Refusal:
                    continue
                if rules.pending(after).get(seat) == kinds:
                    world = after
                    break
            else:
                raise ValueError(f"no move of seat {other} leaves seat {seat} its decision")
