"""A bot author's own bot, written in this file on the SDK's typed interface: it plays a
tournament against the shipped `medium` bots in process and against the service (gunicorn and
the reaper) with the same standings for the same seed; its hooks are called by every loop; the
command seats a `module:Class`; the typed example bot of `clients/python-sdk/examples` passes
`mypy --strict` with no escape hatch and plays its tournament."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from impresario import (Client, Conflict, Event, IllegalMove, TurandotBase, make_bot, models, play_game,
                        play_game_in_process, play_seat, run_tournament, take_turn)
from impresario.bots import hook

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "clients" / "python-sdk" / "examples"
CLI = [sys.executable, "-m", "impresario.cli"]


class Sopranist(TurandotBase):
    """Bids for the singer with the most stars, paying one money when its seed is odd; casts
    the best arrangement; the engine's default for the rest. Its hooks keep a diary."""

    name = "sopranist"

    def __init__(self, seed: int | None = None) -> None:
        self.pay = 1 if (seed or 0) % 2 else 0
        self.diary: list[tuple[str, object]] = []

    def on_start(self, view: models.TurandotGame) -> None:
        self.diary.append(("start", view["status"]))

    def on_event(self, event: Event) -> None:
        self.diary.append(("event", event.seq))

    def on_end(self, view: models.TurandotGame, score: models.Score) -> None:
        self.diary.append(("end", (view["status"], tuple(score["winners"]))))

    def choose(self, view: models.TurandotGame, actions: models.Actions) -> models.TurandotMove:
        for space in actions["moves"]:
            if space["type"] == "bid":
                stars = {p["slot"]: (p["card"]["stars"] if p["card"]["kind"] == "singer" else 2)
                         for p in view["table"]
                         if p["card"] is not None and p["slot"] in space["slots"]}
                if stars:
                    slot = max(sorted(stars), key=lambda s: stars[s])
                    return {"type": "bid", "slot": slot,
                            "money": min(self.pay, space["max_money"]), "bluff": False}
            if space["type"] == "cast":
                return {"type": "cast", "roles": space["optimal"]}
        return self.default(actions)


def played(result):
    """What the games were (not how long the bots thought)."""
    return [(r["seed"], r["winners"], [(p["bot"], p["total"], p["lines"]) for p in r["players"]])
            for r in result["results"]]


def test_an_own_bot_plays_a_tournament_with_the_same_standings_here_and_over_http(live_server):
    seats = [Sopranist, "medium", "medium"]
    here = run_tournament(None, seats, 6, seed=40, in_process=True)
    there = run_tournament(Client(live_server), seats, 6, seed=40)
    assert here["standings"] == there["standings"]
    assert played(here) == played(there)
    assert [s["bot"] for s in here["standings"]] == ["sopranist", "medium", "medium"]
    assert here["by_bot"][0]["bot"] == "sopranist" and here["by_bot"][0]["games"] == 6
    # in parallel processes, and rotating through the seats, the same games again
    assert played(run_tournament(None, seats, 6, seed=40, in_process=True, jobs=2)) == \
        played(here)
    rotated = run_tournament(None, seats, 6, seed=40, in_process=True, rotate=True)
    assert {p["bot"] for r in rotated["results"] for p in r["players"] if p["seat"] == 1} == \
        {"sopranist", "medium"}


def test_the_own_bot_is_made_with_each_games_seed_and_an_instance_is_kept():
    made: list[int | None] = []

    def factory(seed: int | None = None) -> Sopranist:
        made.append(seed)
        return Sopranist(seed)

    run_tournament(None, [factory, "easy", "easy"], 3, seed=2, in_process=True)
    assert len(made) == 4 and made[0] is None and len(set(made[1:])) == 3  # a probe, then 3 games
    one = Sopranist()
    run_tournament(None, [one, "easy", "easy"], 2, seed=2, in_process=True)
    assert [entry for entry in one.diary if entry[0] == "start"] == [("start", "playing")] * 2


def test_a_bot_that_is_not_one_is_refused_before_any_game():
    with pytest.raises(ValueError, match="a bot needs a name and choose"):
        run_tournament(None, [lambda: object(), "easy", "easy"], 1, in_process=True)
    with pytest.raises(ValueError, match="unknown turandot bot"):
        run_tournament(None, ["grandmaster", "easy", "easy"], 1, in_process=True)


def test_every_loop_calls_the_hooks_in_order(live_server):
    """play_game over HTTP, play_seat on the event stream and play_game_in_process each call
    on_start once, then on_event with rising sequence numbers, then on_end with the finished
    game; the hooks change nothing: the same seed gives the same game each way."""
    client = Client(live_server)
    over_http = Sopranist(seed=1)
    _, score_http, seats = play_game(client, [over_http, make_bot("medium", seed=2),
                                              make_bot("medium", seed=3)], seed=11)
    here = Sopranist(seed=1)
    score_here = play_game_in_process([here, make_bot("medium", seed=2),
                                       make_bot("medium", seed=3)], 11)
    assert score_here["winners"] == score_http["winners"]
    assert [p["total"] for p in score_here["players"]] == \
        [p["total"] for p in score_http["players"]]
    for bot in (over_http, here):
        kinds = [kind for kind, _ in bot.diary]
        assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("end") == 1
        seqs = [seq for kind, seq in bot.diary if kind == "event"]
        assert len(seqs) > 10 and seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        assert bot.diary[-1] == ("end", ("finished", tuple(score_http["winners"])))
    # over HTTP the bot saw every event of its seat, exactly the ones the API lists for it
    assert [seq for kind, seq in over_http.diary if kind == "event"] == \
        [e["seq"] for e in seats[0].events()]

    game = client.create_game("turandot", players=3, seed=12)
    game.add_bot("Robo", "medium")
    game.add_bot("Rita", "easy")
    streamed = Sopranist(seed=1)
    final = play_seat(game.join("Sopranist"), streamed)
    assert final["status"] == "finished"
    assert streamed.diary[0] == ("start", "playing") and streamed.diary[-1][0] == "end"
    assert [seq for kind, seq in streamed.diary if kind == "event"] == \
        list(range(1, final["last_seq"] + 1))


def test_a_bot_without_hooks_costs_no_event_reads():
    """A loop reads events only for a bot that defines on_event: BaseBot's own does nothing."""
    assert hook(Sopranist(), "on_event") is not None
    assert hook(make_bot("medium"), "on_event") is None

    class Quiet(TurandotBase):
        name = "quiet"

        def choose(self, view: models.TurandotGame, actions: models.Actions
                   ) -> models.TurandotMove:
            return self.default(actions)

    assert all(hook(Quiet(), name) is None for name in ("on_start", "on_event", "on_end"))


def test_a_move_is_stamped_with_the_round_of_the_view_it_was_chosen_from(live_server):
    """Seat.move fills a bid's round from the view it was chosen on: a bid chosen in round 1
    and sent once round 2 has begun is refused (409 stale_round), never placed in round 2."""
    client = Client(live_server)
    game = client.create_game("turandot", players=3, seed=5)
    seats = [game.join(f"p{i}") for i in range(3)]
    first = seats[0].view()
    chosen = seats[0].actions()["default"]
    assert first["round"] == 1 and chosen is not None and chosen["type"] == "bid"
    assert "round" not in chosen
    bots = [make_bot("easy", seed=i) for i in range(3)]
    while True:
        view = seats[0].view()
        if view["round"] == 2 and seats[0].is_my_turn(view):
            break
        for seat, bot in zip(seats, bots):
            take_turn(seat, bot)
    with pytest.raises(Conflict) as refused:
        seats[0].move(chosen, view=first)
    assert refused.value.code == "stale_round"
    assert seats[0].view()["version"] == view["version"]  # nothing changed
    seats[0].move(chosen, view=view)  # chosen again on round 2's view: it lands in round 2
    assert seats[0].view()["version"] > view["version"]


def test_the_command_seats_module_class(tmp_path):
    done = subprocess.run([*CLI, "tournament", "--in-process", "--games", "4", "--seed", "1",
                           "--bots", "star_seeker:StarSeeker,medium,medium", "--json",
                           "--quiet"], capture_output=True, text=True, timeout=300,
                          cwd=EXAMPLES)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [s["bot"] for s in result["standings"]] == ["stars", "medium", "medium"]
    assert sum(s["games"] for s in result["standings"]) == 12
    missing = subprocess.run([*CLI, "tournament", "--in-process", "--games", "1",
                              "--bots", "nowhere:Bot,medium,medium"], capture_output=True,
                             text=True, timeout=300, cwd=tmp_path)
    assert missing.returncode == 2
    assert "--bots nowhere:Bot: cannot import 'nowhere'" in missing.stderr


def test_the_example_bot_passes_mypy_strict_with_no_escape_hatch(tmp_path, mypy_strict):
    source = (EXAMPLES / "star_seeker.py").read_text(encoding="utf-8")
    assert "type: ignore" not in source and "cast(" not in source and "Any" not in source
    # one run of both: the example passes, and the types reach it: a bot returning another
    # ruleset's move is caught
    wrong = source.replace('return {"type": "cast", "roles": space["optimal"]}',
                           'return {"type": "auction_pass"}')
    assert wrong != source
    (tmp_path / "star_seeker.py").write_text(source, encoding="utf-8")
    (tmp_path / "wrong_seeker.py").write_text(wrong, encoding="utf-8")
    done = mypy_strict("star_seeker.py", "wrong_seeker.py", cwd=tmp_path)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 1 and errors, done.stdout + done.stderr
    assert all(line.startswith("wrong_seeker.py:") for line in errors), done.stdout


def test_the_example_bot_plays_against_the_service(live_server):
    done = subprocess.run([sys.executable, "star_seeker.py"], capture_output=True, text=True,
                          timeout=300, cwd=EXAMPLES,
                          env={**os.environ, "IMPRESARIO_URL": live_server})
    assert done.returncode == 0, done.stderr
    assert "winners:" in done.stdout and "rounds seen: 7" in done.stdout  # 3 players: 7 rounds


def test_options_the_ruleset_refuses_are_refused_in_process_as_the_service_would():
    with pytest.raises(IllegalMove) as refused:
        play_game_in_process([Sopranist(), make_bot("easy"), make_bot("easy")], 1,
                             {"first_maestro": 9})
    assert refused.value.status == 422 and refused.value.code
