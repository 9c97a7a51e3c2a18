"""End to end: the SDK's bots play whole games through real gunicorn and a real Redis."""

from __future__ import annotations

import pytest

from impresario import Client, GreedyBot, RandomBot, play_game, run_tournament
from impresario.tournament import wilson
from impresario_rules import TURANDOT
from impresario_engine.store import GameStore


def _replay_score(redis_client, game_id: str) -> dict:
    """The rules core's score of the game rebuilt from its seed and the moves stored in Redis."""
    _version, doc, _ = GameStore(redis_client).read(game_id)  # archived: the game is over
    state, _ = TURANDOT.new_game(doc["players"], doc["options"], doc["seed"])
    for seat, move, _by in doc["moves"]:
        state, _ = TURANDOT.apply(state, seat, move)
    return {"ruleset": "turandot", **TURANDOT.score(state)}  # as GET /score answers


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_a_whole_game_and_the_sdk_reads_the_cores_score(live_server, redis_client,
                                                                   players):
    client = Client(live_server)
    bots = [GreedyBot(seed=players) if i % 2 == 0 else RandomBot(seed=players + i)
            for i in range(players)]
    game_id, score, seats = play_game(client, bots, seed=100 + players)
    assert len(score["players"]) == players
    assert score == _replay_score(redis_client, game_id)
    view = seats[0].view()
    assert view["status"] == "finished" and view["phase"] == "finished"
    assert all(len(p["singers"]) == 6 and p["director"] for p in view["players"])
    assert (score["dummy"] is not None) == (players == 2)


@pytest.mark.slow
@pytest.mark.deep
def test_greedy_beats_random_clearly(live_server):
    """Seeded tournament, greedy in seat 0 against three random bots: its 95% interval must
    sit well above the 25% a random seat would win."""
    result = run_tournament(Client(live_server), ["greedy", "random", "random", "random"],
                            games=24, seed=3)
    greedy = result["standings"][0]
    lo, _ = greedy["ci95"]
    print(f"greedy win rate {greedy['win_rate']:.0%} (95% CI from {lo:.0%}), "
          f"avg {greedy['avg_total']:.1f} vs random "
          f"{sum(r['avg_total'] for r in result['standings'][1:]) / 3:.1f}")
    assert lo > 0.5
    assert greedy["avg_total"] > max(r["avg_total"] for r in result["standings"][1:]) + 3


def test_wilson_interval():
    lo, hi = wilson(12, 24)
    assert 0.29 < lo < 0.32 and 0.68 < hi < 0.71
    assert wilson(0, 0) == (0.0, 1.0)


def test_bots_follow_the_event_stream_in_threads_to_the_end(live_server, redis_client):
    """Each seat in its own thread, driven by the SSE feed (no polling), like real bots."""
    import threading

    from impresario import play_seat

    client = Client(live_server)
    game = client.create_game("turandot", players=4, seed=21)
    seats = [game.join(f"p{i}") for i in range(4)]
    finals: dict[int, dict] = {}
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            bot = GreedyBot(seed=i) if i % 2 else RandomBot(seed=i)
            finals[i] = play_seat(seats[i], bot)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert all(finals[i]["status"] == "finished" for i in range(4))
    assert seats[0].score() == _replay_score(redis_client, game.id)


def test_watch_follows_a_bot_game_live(live_server):
    from impresario import cli
    from impresario.terminal import ScriptedConsole

    client = Client(live_server)
    game = client.create_game("turandot", players=3, seed=8)
    game.add_bot("Ada", "greedy")
    game.add_bot("Bob", "random")
    lines: list[str] = []
    watcher_args = cli.build_parser().parse_args(["--url", live_server, "watch", game.id])
    import threading

    watcher = threading.Thread(target=cli.cmd_watch,
                               args=(watcher_args, ScriptedConsole(lambda _: "", lines.append)))
    watcher.start()
    game.add_bot("Cy", "greedy")  # the last seat: the whole game is played in this request
    watcher.join(60)
    assert not watcher.is_alive()
    text = "\n".join(lines)
    assert "Cy takes seat 2 (bot: greedy)" in text
    assert "— round 7" in text and "game over" in text and "Final score:" in text


def test_the_sdk_seats_players_in_a_private_game_with_its_join_link(live_server):
    from impresario import Client
    from impresario.errors import ImpresarioError

    host = Client(live_server).create_game("turandot", players=2, seed=3, private=True)
    assert host.join_token
    # a player given the game id and the join token (the two parts of the join link)
    player = Client(live_server).game(host.id, join_token=host.join_token)
    anna = player.join("Anna")
    # a spectator with the game id alone cannot sit down
    try:
        Client(live_server).game(host.id).join("Eve")
    except ImpresarioError as err:
        assert err.status == 403 and err.code == "join_link_required"
    else:
        raise AssertionError("a private game seated a player without its join link")
    bob = player.join("Bob")
    assert (anna.seat, bob.seat) == (0, 1)
    assert bob.view()["status"] == "playing"
