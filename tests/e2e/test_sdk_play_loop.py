"""End to end: ``play_game`` reads a view only when it has no current one, and that changes
nothing the bots see or decide.

The reference is the straightforward loop (read seat 0's view, then for each pending seat its
view, its actions and the move, then seat 0's view again). Both loops play the same seeded games
against real gunicorn; every decision (the view and actions a bot was given and the move it
chose) must be the same, and so must the tournament standings, while the new loop makes fewer
requests: at most one view read per move (plus the one at the end), one actions read per move.
"""

from __future__ import annotations

import collections
import copy
import time
from typing import Any

import pytest

from impresario import Client, make_bot, run_tournament, tournament
from impresario.bots import take_turn


def _reference_play_game(client, bots, seed=None, options=None, ruleset="turandot"):
    game = client.create_game(ruleset, players=len(bots), seed=seed, options=options)
    seats = [game.join(f"{bot.name}-{i}") for i, bot in enumerate(bots)]
    view = seats[0].view()
    while view["status"] != "finished":
        moved = False
        for p in view["pending"]:
            seat = seats[p["seat"]]
            moved |= take_turn(seat, bots[p["seat"]], seat.view())
        view = seats[0].view()
        if not moved and view["status"] != "finished" and not view["pending"]:
            raise RuntimeError(f"game {game.id} is stuck: nobody has to act")
    return game.id, seats[0].score(), seats


class _Recorded:
    """A bot that notes every decision: the view (without the game id) and actions it was given
    and the move it chose."""

    def __init__(self, bot, log: list) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        seen = {k: v for k, v in copy.deepcopy(view).items() if k != "id"}
        for entry in seen.get("pending", ()):
            entry.pop("deadline", None)  # a clock time when the game has deadlines
        move = self.bot.choose(view, actions)
        self.log.append((view.get("you", {}).get("seat"), seen, copy.deepcopy(actions),
                         copy.deepcopy(move)))
        return move


class _Counting:
    """Counts the client's HTTP requests by kind."""

    def __init__(self, client: Client) -> None:
        self.counts: collections.Counter = collections.Counter()
        send = client.session.request

        def counted(method, url, **kw):
            tail = url.split("/v1/games", 1)[1].strip("/").split("/")
            kind = tail[1] if len(tail) > 1 else ("game" if tail[0] else "create")
            self.counts[(method, kind)] += 1
            return send(method, url, **kw)

        client.session.request = counted


def _play(url: str, play, ruleset: str, names: list[str], seed: int,
          options: dict[str, Any] | None = None):
    client = Client(url)
    counting = _Counting(client)
    log: list = []
    bots = [_Recorded(make_bot(n, seed=seed + i, ruleset=ruleset), log)
            for i, n in enumerate(names)]
    _, score, seats = play(client, bots, seed=seed, options=options, ruleset=ruleset)
    return log, score, counting.counts, seats


CASES = [
    ("turandot", ["greedy", "random", "random", "random"], 41),
    ("turandot", ["random", "greedy", "greedy"], 42),
    ("turandot", ["greedy", "random"], 43),  # two players: the dummy
    pytest.param("muzicando", ["greedy", "random", "greedy", "random"], 44,
                 marks=pytest.mark.deep),
]


@pytest.mark.parametrize("ruleset,names,seed", CASES)
def test_same_decisions_with_at_most_one_view_read_per_move(live_server, ruleset, names, seed):
    ref_log, ref_score, ref_counts, _ = _play(live_server, _reference_play_game, ruleset,
                                              names, seed)
    log, score, counts, seats = _play(live_server, tournament.play_game, ruleset, names, seed)
    assert score == ref_score
    assert len(log) == len(ref_log)
    assert log == ref_log  # every bot saw the same view and actions and chose the same move
    moves = counts[("POST", "moves")]
    assert moves == ref_counts[("POST", "moves")] == len(log)
    assert counts[("GET", "actions")] == moves
    assert counts[("GET", "game")] <= moves + 1
    assert sum(counts.values()) <= 3 * moves + len(names) + 3  # create, joins, score, 1 view
    assert sum(counts.values()) < sum(ref_counts.values())
    assert seats[0].last_view["status"] == "finished"  # seat 0 holds the finished game, as before


@pytest.mark.parametrize("ruleset,names,seed,options", [
    ("turandot", ["greedy", "random", "random"], 45, {"move_seconds": 600}),
    ("wordjam", ["wordsmith"] * 6, 46, None),  # its windows are always timed
])
def test_games_with_deadlines_read_every_view_as_before(live_server, ruleset, names, seed,
                                                        options):
    """A pending seat with a deadline means the game can move on between two requests: the loop
    then reads each view right before it is used, request for request like the reference."""
    ref_log, ref_score, ref_counts, _ = _play(live_server, _reference_play_game, ruleset,
                                              names, seed, options)
    log, score, counts, _ = _play(live_server, tournament.play_game, ruleset, names, seed,
                                  options)
    assert score == ref_score
    assert log == ref_log
    assert counts == ref_counts


def test_seeded_tournament_standings_match_the_reference_loop(live_server, monkeypatch):
    names = ["greedy", "random", "random", "random"]
    new = run_tournament(Client(live_server), names, games=4, seed=5)
    monkeypatch.setattr(tournament, "play_game", _reference_play_game)
    ref = run_tournament(Client(live_server), names, games=4, seed=5)
    assert new["standings"] == ref["standings"]
    assert new["dummy_wins"] == ref["dummy_wins"]


class _SlowFirst:
    """Says "no call" from every view; the first time, thinks past the think window's deadline
    while another player's page reads the game (which plays the lapsed window's defaults)."""

    name = "slow-first"

    def __init__(self, other) -> None:
        self.other, self.chosen = other, []

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        self.chosen.append(view["turn"])
        if len(self.chosen) == 1:
            deadline = next(p["deadline"] for p in view["pending"] if p["seat"] == 0)
            while self.other.view()["turn"] == view["turn"]:
                assert time.time() < deadline + 10, "the think window never lapsed"
                time.sleep(0.1)
        return {"type": "no_call"}


def test_a_move_thought_past_a_deadline_is_chosen_again_never_sent_into_the_next_turn(
        live_server):
    """take_turn sends the version the bot chose from (If-Match): when the game moved on while
    the bot thought (another request played the deadline first, so the engine could not tell
    the move was late), the move is refused with 412 and the bot chooses again from the new
    turn, instead of its turn-1 decision landing in turn 2."""
    client = Client(live_server)
    game = client.create_game("wordjam", players=5, seed=31,
                              options={"think_seconds": 3, "bot_seconds": 0})
    seats = [game.join(f"P{i}") for i in range(5)]
    bot = _SlowFirst(seats[1])
    assert take_turn(seats[0], bot, seats[0].view())
    assert bot.chosen == [1, 2], "chosen again, from turn 2"
    mine = seats[0].view()
    assert mine["history"][0]["called"] is False  # turn 1 lapsed: nobody called
    assert mine["turn"] == 2 and mine["players"][0]["no_call"] is True  # said in turn 2
