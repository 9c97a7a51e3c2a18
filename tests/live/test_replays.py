"""Replays: over 100 finished games (2-5 players; all bots, humans with bots, and games moved on
by deadlines under a fake clock), ``GET /replay`` gives the seed, the options and every move, and
replaying those moves through the rules core reproduces the game exactly:

- each move's events equal, in order, the stored event stream (every secret in it) once the
  service's own events (seat_taken, game_started, deadline_passed) are set aside, and each
  deadline move comes right after its ``deadline_passed``;
- the final state equals the stored document's state; the score equals the replay's and
  ``GET /score``'s.

Before the end, ``GET /replay`` is 409 ``game_not_finished``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from impresario_rules import TURANDOT
from .live_helpers import doc_of, play_humans, raw_events, setup_game
from service_helpers import assert_problem

GAMES = 102
MOVE_SECONDS = 30


def _kinds(rng: random.Random, players: int, style: str) -> list[str | None]:
    if style == "bots":
        return [rng.choice(["greedy", "random"]) for _ in range(players)]
    kinds: list[str | None] = [None] + [rng.choice([None, "greedy", "random"])
                                        for _ in range(players - 1)]
    rng.shuffle(kinds)
    return kinds


def _play(client, clock, gid: str, tokens: list[str | None], rng: random.Random,
          deadlines: bool) -> None:
    """Humans move at random; in a game with deadlines, now and then nobody does and the clock
    runs out (the next read plays the defaults)."""
    def idle() -> bool:
        if deadlines and rng.random() < 0.4:
            clock.advance(MOVE_SECONDS)
            return True
        return False

    play_humans(client, gid, tokens, rng, max_moves=500, idle=idle)


def _check_replay(client, redis_client, gid: str, expect: dict[str, Any]) -> int:
    resp = client.get(f"/v1/games/{gid}/replay")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    replay = resp.get_json()
    doc = doc_of(redis_client, gid)
    assert replay["id"] == gid and replay["ruleset"] == "turandot"
    assert (replay["players"], replay["seed"], replay["options"], replay["move_seconds"]) == (
        expect["players"], expect["seed"], expect["options"], expect["move_seconds"])
    assert replay["bots"] == expect["bots"]
    assert replay["names"] == [s["name"] for s in doc["seats"]]

    stream = raw_events(redis_client, gid)
    assert [q for q, _ in stream] == list(range(1, doc["seq"] + 1))
    stored = [e for _, e in stream]
    state, events = TURANDOT.new_game(replay["players"], replay["options"], replay["seed"])
    cursor = 0

    def take(expected: list[dict], what: str) -> None:
        nonlocal cursor
        # the service's own events come between moves, never inside one move's events
        while stored[cursor]["type"] in ("seat_taken", "game_started"):
            cursor += 1
        got = stored[cursor:cursor + len(expected)]
        assert got == expected, (what, got, expected)
        cursor += len(expected)

    take(events, "setup")
    for k, m in enumerate(replay["moves"]):
        seat, move, by = m["seat"], m["move"], m["by"]
        assert by in (("bot",) if replay["bots"][seat] else
                      ("seat", "deadline") if replay["move_seconds"] else ("seat",)), m
        if by == "deadline":
            while stored[cursor]["type"] in ("seat_taken", "game_started"):
                cursor += 1
            passed = stored[cursor]
            assert passed["type"] == "deadline_passed" and passed["seat"] == seat, (k, passed)
            assert passed["kinds"] == TURANDOT.pending(state)[seat]
            assert move == TURANDOT.default_action(state, seat)
            cursor += 1
        assert not TURANDOT.is_finished(state), "no move after the end"
        state, events = TURANDOT.apply(state, seat, move)
        assert events, f"move {k} changed nothing"
        take(events, f"move {k}")
    assert cursor == len(stored), "nothing in the stream that the moves do not explain"
    assert sum(e["type"] == "deadline_passed" for e in stored) == sum(
        m["by"] == "deadline" for m in replay["moves"])
    assert [e["type"] for e in stored].count("game_started") == 1
    assert sum(e["type"] == "seat_taken" for e in stored) == replay["players"]
    assert TURANDOT.is_finished(state)
    assert state == doc["state"], "the replay reproduces the stored final state"
    score = {"ruleset": "turandot", **TURANDOT.score(state)}
    assert replay["score"] == score
    assert client.get(f"/v1/games/{gid}/score").get_json() == score
    return len(replay["moves"])


@pytest.mark.slow
@pytest.mark.deep
def test_replays_reproduce_over_a_hundred_games(client, clock, redis_client):
    rng = random.Random(2024)
    styles = {"bots": 0, "humans": 0, "deadlines": 0}
    by_kind = {"seat": 0, "bot": 0, "deadline": 0}
    total_moves = 0
    for i in range(GAMES):
        players = 2 + i % 4
        style = ("bots", "humans", "deadlines")[i % 3]
        styles[style] += 1
        kinds = _kinds(rng, players, style)
        options: dict[str, Any] = {"first_maestro": rng.choice([0, players - 1, "random"])}
        deadline_opts = {"move_seconds": MOVE_SECONDS} if style == "deadlines" else {}
        seed = rng.randrange(2**40)
        created, tokens = setup_game(client, kinds, seed=seed, **options, **deadline_opts)
        gid = created["game"]["id"]
        if style != "bots":
            assert_problem(client.get(f"/v1/games/{gid}/replay"), 409, "game_not_finished")
            _play(client, clock, gid, tokens, rng, deadlines=style == "deadlines")
        total_moves += _check_replay(client, redis_client, gid, {
            "players": players, "seed": seed, "options": options,
            "move_seconds": deadline_opts.get("move_seconds"), "bots": kinds})
        for m in doc_of(redis_client, gid)["moves"]:
            by_kind[m[2]] += 1
        if i % 10 == 9:
            redis_client.flushdb()  # keep the session's Redis small
    assert sum(styles.values()) >= 100
    assert all(by_kind.values()), by_kind  # every kind of move was replayed
    assert total_moves > 100 * 30
