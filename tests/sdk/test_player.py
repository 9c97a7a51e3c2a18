"""The SDK's players (``impresario.Player``) against the real engine on the session's Redis,
served over HTTP (``serve_app``: every response held to openapi.yaml): a player made, renamed,
moved to another device and removed; its games, listed page after page, created and sat at as
the player; a seat resumed on another device, whose old token then ends; quick match to the
seat; the profile and the leaderboard after a rated game."""

from __future__ import annotations

import logging
import time

import pytest

from impresario import Client, Conflict, ImpresarioError, Player, Unauthorized
from impresario.client import PLAY_NOW_GRACE


@pytest.fixture
def url(serve_app) -> str:
    # a player is on the board after one rated game (the engine's default asks for five)
    return serve_app(leaderboard_min_games=1)


def play_out(seat) -> None:
    """Play the seat to the end of its game with the engine's default moves."""
    for _view in seat.iter_turns(poll=0.02):
        seat.move(seat.actions()["default"])


def test_a_player_is_made_renamed_moved_to_another_device_and_removed(url):
    laptop = Client(url)
    anna = laptop.create_player("Anna")
    assert anna.token.startswith("p_") and anna.token not in repr(anna)
    assert (anna.name, anna.info and anna.info["kind"]) == ("Anna", "anonymous")
    assert anna.rename("Anna B.")["name"] == "Anna B."
    assert laptop.player(anna.token).me() == anna.info     # the credential is the player

    code = anna.device_code()
    assert len(code["code"]) == 10
    phone = Client(url).claim_player(code["code"])
    assert phone.id == anna.id and phone.name == "Anna B." and phone.token != anna.token
    assert anna.me()["id"] == anna.id                       # the laptop keeps its credential
    with pytest.raises(Unauthorized) as used:
        Client(url).claim_player(code["code"])              # a code works once
    assert used.value.code == "invalid_device_code"

    phone.delete()
    for device in (anna, phone):
        with pytest.raises(Unauthorized) as gone:
            device.me()
        assert gone.value.code == "invalid_player_token"


def test_my_games_page_after_page(url):
    client = Client(url)
    pager = client.create_player("Pager")
    made = [pager.create_game("muzicando", players=3, seed=i).id for i in range(5)]
    page = pager.list_games(limit=2)
    assert [g["id"] for g in page["games"]] == made[:-3:-1] and page["next"]
    second = pager.next_page(page)
    assert second is not None and [g["id"] for g in second["games"]] == made[-3:-5:-1]
    listed = list(pager.iter_games(page_size=2))
    assert [g["id"] for g in listed] == made[::-1]          # newest first, each once
    assert all(g["host"] and g["seat"] is None and g["status"] == "open" for g in listed)
    assert len(list(pager.iter_games(page_size=2, max_games=3))) == 3
    assert list(pager.iter_games(status="finished")) == []
    assert client.create_player("Other").list_games() == {"games": [], "next": None}


def test_a_seat_resumed_on_another_device_ends_the_old_token(url):
    client = Client(url)
    anna = client.create_player("Anna")
    game = anna.create_game("turandot", players=2, seed=3)
    first = game.join("Anna")                                # the host's seat: Anna's
    game.add_bot("Robo", "easy")
    assert first.view()["status"] == "playing"
    (listed,) = anna.iter_games()
    assert (listed["id"], listed["seat"], listed["host"], listed["status"]) == \
        (game.id, 0, True, "playing")
    assert listed["rated"] is True and listed["your_move"] is first.is_my_turn()

    phone = Client(url).claim_player(anna.device_code()["code"])
    seat = phone.resume(game.id)
    assert (seat.game_id, seat.seat) == (game.id, 0) and seat.token != first.token
    assert seat.host_token and seat.host_token != game.host_token
    for ended in (first.view, game.view):                    # the seat's and the host's
        with pytest.raises(Unauthorized):
            ended()
    play_out(seat)                                           # the resumed seat plays on

    (finished,) = phone.iter_games(status="finished")
    assert finished["id"] == game.id and finished["won"] in (True, False)
    with pytest.raises(Conflict) as over:
        phone.resume(game.id)
    assert over.value.code == "game_finished"

    profile = anna.profile()
    (rating,) = profile["ratings"]
    assert (rating["ruleset"], rating["games"], profile["games"]) == ("turandot", 1, 1)
    assert profile["recent"][0]["game"] == game.id
    assert client.profile(anna.id)["player"]["name"] == "Anna"
    board = client.leaderboard("turandot")
    assert board["min_games"] == 1 and anna.id in [r["player"]["id"] for r in board["players"]]
    rows = list(client.iter_leaderboard("turandot", page_size=1))   # one row a page
    assert [r["place"] for r in rows] == list(range(1, board["total"] + 1))
    assert {r["player"]["id"] for r in rows} == {r["player"]["id"] for r in board["players"]}


def test_a_game_the_player_won_is_listed_won(url):
    client = Client(url)
    anna = client.create_player("Anna")
    for seed in range(30):                      # the bots' choices follow the test's name
        game = anna.create_game("turandot", players=2, seed=seed)
        seat = game.join("Anna")
        game.add_bot("Robo", "easy")
        play_out(seat)
        if seat.seat in seat.score()["winners"]:
            break
    else:
        pytest.fail("Anna won none of 30 games against the easy bot")
    (listed,) = anna.list_games(limit=1)["games"]
    assert (listed["id"], listed["status"], listed["won"]) == (game.id, "finished", True)


def test_joining_as_a_player_and_hosting_without_a_seat(url):
    client = Client(url)
    bruno = client.create_player("Bruno")
    someone = client.create_game("turandot", players=3, seed=1)   # nobody's game
    seat = bruno.join(someone.id, "Bruno")
    (listed,) = bruno.iter_games()
    assert (listed["id"], listed["seat"], listed["host"]) == (someone.id, seat.seat, False)
    with pytest.raises(Conflict) as twice:
        bruno.join(someone.id, "Bruno again")
    assert twice.value.code == "player_seated"
    assert bruno.resume(someone.id).seat == seat.seat

    hosted = bruno.create_game("muzicando", players=3, seed=2)  # hosted, not sat at
    with pytest.raises(ImpresarioError, match="without a seat"):
        bruno.resume(hosted.id)
    again = bruno.resume_host(hosted.id)
    assert again.add_bot("Robo", "easy") == 0                  # the fresh host token works
    with pytest.raises(Unauthorized):
        hosted.add_bot("Rita", "easy")                          # the old one ended


def test_play_now_seats_the_player_with_bots_after_a_short_wait(url, caplog):
    client = Client(url)
    anna = client.create_player("Anna")
    caplog.set_level(logging.INFO, logger="impresario.player")
    started = time.monotonic()
    seat = anna.play_now("turandot", players=3, wait_seconds=1, poll=0.2)
    assert 0.9 <= time.monotonic() - started < 10         # the chosen wait, then the bots
    view = seat.view()
    assert view["status"] == "playing" and [p["bot"] is not None for p in view["players"]] == \
        [p["seat"] != seat.seat for p in view["players"]]
    assert anna.match_status() is not None and anna.match_status()["game"] == seat.game_id
    stream = seat.stream()
    assert next(stream).seq == 1                                # the seat's own event stream
    stream.close()
    seat.wait_for_turn(poll=0.05, timeout=10)
    assert seat.move(seat.actions()["default"])["game"]["version"] > view["version"]
    said = [r.getMessage() for r in caplog.records if r.name == "impresario.player"]
    assert said[0] == "waiting for a turandot table of 3 (bots fill the empty seats after 1 s)"
    assert said[-1] == f"seated at turandot game {seat.game_id}, seat {seat.seat}"
    assert anna.token not in caplog.text and seat.token not in caplog.text


def test_play_now_gives_up_in_time_and_leaves_the_queue(url):
    anna = Client(url).create_player("Anna")
    with pytest.raises(TimeoutError, match="within 1 s: left the queue"):
        anna.play_now("wordjam", players=6, wait_seconds=60, timeout=0.6, poll=0.2)
    assert anna.match_status() is None and anna.leave_match() is False
    assert PLAY_NOW_GRACE > 0


def test_a_player_handle_reads_who_it_is_when_asked(url):
    client = Client(url)
    token = client.create_player("Cleo").token
    later = Player(client, token)
    assert repr(later) == "Player(unread)"
    assert later.name == "Cleo" and repr(later) == f"Player(id={later.id!r}, name='Cleo')"
