"""Seeded games of every ruleset, recorded move by move, to prove that a change of the code did
not change what the rules do.

``seeded_games.json`` was recorded from the code as it stood before the rules moved into their
own package (``python tests/golden/golden.py --record``). For each game it keeps the seed, the
options and every move, and a digest of everything the rules give out along the way: after the
setup and after every move, the state, the move's events, every viewer's view (each seat's and
the spectator's), who must act, and for each seat that must act its action space, its default
move, its situation, its window and that window's length; at the end the score, the replay's
public moves and the list of games' options. Games played by the engine's bots also keep which
bot played each seat, so the bots' choices are checked too (the same random streams give the
same moves).

A digest is a chain: each step's is the SHA-256 of the previous one and the step's canonical
JSON, so one digest at the end covers the whole game, and checkpoints every ``CHECKPOINT``
steps say where two runs first differ.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "seeded_games.json"
CHECKPOINT = 25
#: the per-move window the digests ask each ruleset about (``turn_seconds``)
MOVE_SECONDS = 60


def rules():
    """(RULESETS, BotRandom): the rulesets by name and the engine's bots' random generator,
    from their own package (``impresario_rules``) once the rules have moved there, else from
    where they were recorded (``impresario_engine.games``)."""
    try:
        from impresario_rules import RULESETS
        from impresario_rules.base import BotRandom
    except ModuleNotFoundError as exc:
        if exc.name != "impresario_rules":
            raise
        from impresario_engine.games import RULESETS
        from impresario_engine.games.base import BotRandom

    return RULESETS, BotRandom


def canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=_default).encode()


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(type(value))


def step_record(ruleset: Any, state: dict, events: list, with_legal: bool) -> dict[str, Any]:
    """Everything the rules give out about ``state`` (reached with ``events``)."""
    n = state["n"]
    pending = ruleset.pending(state)
    seats = {}
    for seat in sorted(pending):
        entry = {
            "action_space": ruleset.action_space(state, seat),
            "default": ruleset.default_action(state, seat),
            "situation": ruleset.situation(state, seat),
            "turn_key": ruleset.turn_key(state, seat),
            "turn_seconds": ruleset.turn_seconds(state, seat, MOVE_SECONDS),
        }
        if with_legal:
            entry["legal"] = ruleset.legal_actions(state, seat)
        seats[str(seat)] = entry
    return {
        "state": state,
        "events": events,
        "views": [ruleset.view(state, viewer) for viewer in [None, *range(n)]],
        "pending": {str(k): v for k, v in pending.items()},
        "seats": seats,
        "finished": ruleset.is_finished(state),
    }


def chain(previous: str, record: dict[str, Any]) -> str:
    return hashlib.sha256(previous.encode() + canon(record)).hexdigest()


def play(spec: dict[str, Any]) -> dict[str, Any]:
    """Play ``spec``'s game: its recorded moves, or (no moves yet) moves chosen now — by the
    bots it names, else uniformly at random from ``bot_seed``. Returns the digests and moves."""
    RULESETS, BotRandom = rules()
    ruleset = RULESETS[spec["ruleset"]]
    with_legal = spec["ruleset"] != "wordjam"  # Word Jam's legal words are the whole lexicon
    state, events = ruleset.new_game(spec["players"], spec.get("options"), spec["seed"])
    digest = chain("", step_record(ruleset, state, events, with_legal))
    checkpoints = [digest[:16]]
    recorded = spec.get("moves")
    moves: list[list[Any]] = []
    bots = spec.get("bots")
    rng = random.Random(spec.get("bot_seed", 0))
    chosen: list[list[Any]] = []
    while not ruleset.is_finished(state):
        i = len(moves)
        if bots is not None:
            seat = min(ruleset.pending(state))
            bot_rng = BotRandom(spec["secret"], i, seat)
            action = ruleset.bot_action(state, seat, bots[seat], bot_rng)
            chosen.append([seat, action])
        if recorded is not None:
            if i >= len(recorded):
                raise AssertionError(f"the game is not over after its {len(recorded)} moves")
            seat, action = recorded[i]
        elif bots is None:
            seat = min(ruleset.pending(state))
            action = ruleset.sample_action(state, seat, rng)
        state, events = ruleset.apply(state, seat, json.loads(canon(action)))
        moves.append([seat, action])
        digest = chain(digest, step_record(ruleset, state, events, with_legal))
        if len(moves) % CHECKPOINT == 0:
            checkpoints.append(digest[:16])
        if len(moves) > 20_000:
            raise AssertionError("a game this long is a loop")
    if recorded is not None and len(moves) != len(recorded):
        raise AssertionError(f"the game ended after {len(moves)} of {len(recorded)} moves")
    final = {
        "score": ruleset.score(state),
        "public_moves": ruleset.public_moves(spec["players"], spec.get("options"),
                                             spec["seed"], [(s, m) for s, m in moves]),
        "lobby_options": ruleset.lobby_options(state, dict(spec.get("options") or {})),
    }
    digest = chain(digest, final)
    return {"digest": digest, "checkpoints": checkpoints, "moves": moves, "chosen": chosen,
            "score": final["score"]}


def _custom_catalogue() -> list[dict[str, Any]]:
    """The default singers under other ids and in another order (a table's own catalogue)."""
    RULESETS, _ = rules()
    singers = RULESETS["turandot"].describe()["catalogue"]["singers"]
    out = [{k: v for k, v in s.items() if k != "kind"} | {"id": f"X{i:02d}"}
           for i, s in enumerate(reversed(singers))]
    return out


def specs() -> list[dict[str, Any]]:
    """The games recorded: each ruleset's table sizes and options, played at random and by
    the engine's bots."""
    out: list[dict[str, Any]] = []
    for players, seed in ((2, 1), (2, 7), (3, 2), (3, 11), (4, 3), (4, 12), (5, 4), (5, 13)):
        out.append({"ruleset": "turandot", "players": players, "seed": seed,
                    "bot_seed": seed + 100})
    out.append({"ruleset": "turandot", "players": 4, "seed": 21, "bot_seed": 5,
                "options": {"first_maestro": "random"}})
    out.append({"ruleset": "turandot", "players": 3, "seed": 22, "bot_seed": 6,
                "options": {"first_maestro": 2}})
    out.append({"ruleset": "turandot", "players": 4, "seed": 23, "bot_seed": 7,
                "options": {"catalogue": _custom_catalogue()}})
    out.append({"ruleset": "turandot", "players": 2, "seed": 24, "bot_seed": 8,
                "options": {"catalogue": _custom_catalogue(), "first_maestro": 1}})
    for players, bots, seed in ((3, ["greedy", "random", "greedy"], 31),
                                (2, ["greedy", "greedy"], 32),
                                (5, ["greedy"] * 5, 33), (4, ["random"] * 4, 34)):
        out.append({"ruleset": "turandot", "players": players, "seed": seed, "bots": bots,
                    "secret": f"golden-{seed}"})

    for players, seed, options in ((5, 1, None), (6, 2, None), (8, 3, None), (12, 4, None),
                                   (5, 5, {"dictionary": True}),
                                   (7, 6, {"no_visible_objects": True}),
                                   (6, 7, {"cave": {"red": [9, 8, 7, 6, 5, 4, 3, 2],
                                                    "yellow": [1, 2, 3, 4, 5, 6, 7, 8]}}),
                                   (5, 8, {"think_seconds": 30, "vote_seconds": 5})):
        out.append({"ruleset": "wordjam", "players": players, "seed": seed,
                    "bot_seed": seed + 200, "options": options})
    for players, bots, seed in ((6, ["wordsmith"] * 6, 41),
                                (5, ["wordsmith", "random", "wordsmith", "random", "wordsmith"],
                                 42),
                                (7, ["wordsmith"] * 7, 43)):
        out.append({"ruleset": "wordjam", "players": players, "seed": seed, "bots": bots,
                    "secret": f"golden-{seed}"})

    for players, seed, options in ((4, 1, None), (4, 2, {"hands": 5}), (2, 3, None),
                                   (3, 4, None), (5, 5, {"first_dealer": "random"}),
                                   (8, 6, {"auction": True, "hands": 8}),
                                   (4, 7, {"mode": "individual", "auction": True}),
                                   (6, 8, {"first_dealer": 3, "hands": 6})):
        out.append({"ruleset": "muzicando", "players": players, "seed": seed,
                    "bot_seed": seed + 300, "options": options})
    for players, bots, seed, options in ((4, ["greedy", "random", "greedy", "random"], 51,
                                          None),
                                         (3, ["greedy"] * 3, 52, None),
                                         (4, ["greedy"] * 4, 53, None),
                                         (8, ["greedy", "random"] * 4, 54,
                                          {"auction": True, "hands": 8})):
        out.append({"ruleset": "muzicando", "players": players, "seed": seed, "bots": bots,
                    "secret": f"golden-{seed}", "options": options})
    for spec in out:
        if spec.get("options") is None:
            spec.pop("options", None)
    return out


def describe_all() -> dict[str, Any]:
    RULESETS, _ = rules()
    return {name: r.describe() for name, r in RULESETS.items()}


def record(path: Path = DATA) -> None:
    games = []
    for spec in specs():
        result = play(spec)
        entry = dict(spec)
        entry.update(moves=result["moves"], digest=result["digest"],
                     checkpoints=result["checkpoints"], winners=result["score"]["winners"])
        games.append(entry)
        print(f"{spec['ruleset']:9} {spec['players']:2} players seed {spec['seed']:3}: "
              f"{len(result['moves'])} moves", file=sys.stderr)
    out = {"about": "seeded games recorded move by move (tests/golden/golden.py)",
           "describe": hashlib.sha256(canon(describe_all())).hexdigest(),
           "games": games}
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    # one game a line: a diff says which game changed
    text = text.replace('{"ruleset"', '\n{"ruleset"')
    path.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/golden/golden.py --record")
    record()
