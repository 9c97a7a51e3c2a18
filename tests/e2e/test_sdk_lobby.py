"""End to end: the SDK's lobby (``Client.list_games``/``iter_games``, ``Seat.leave``,
``Seat.rematch``, ``Game.remove_seat``) and ``impresario lobby`` through real gunicorn."""

from __future__ import annotations

import pytest

from impresario import Client, Conflict, Unauthorized
from impresario.cli import main
from impresario.lobby import games_table


def test_pages_of_games_leave_and_rematch(live_server):
    client = Client(live_server)
    made = [client.create_game("muzicando", players=3, seed=i) for i in range(7)]
    ids = [g.id for g in made]
    listed = [g["id"] for g in client.iter_games(ruleset="muzicando", status="open",
                                                 page_size=3)]
    assert len(listed) == len(set(listed))  # no game twice across the pages
    mine = [i for i in listed if i in ids]
    assert mine == ids[::-1]  # newest first
    page = client.list_games(ruleset="muzicando", status="open", limit=2)
    assert len(page["games"]) == 2 and page["next"]
    assert client.next_page(page)["games"][0]["id"] not in {g["id"] for g in page["games"]}
    assert len(list(client.iter_games(ruleset="muzicando", max_games=4, page_size=3))) == 4

    game = made[0]
    anna, bruno = game.join("Anna"), game.join("Bruno")
    bot_seat = game.add_bot("Robo", "greedy")
    assert bot_seat == 2 and anna.view()["status"] == "playing"
    assert anna.leave()["game"]["players"][0]["bot"] == "greedy"  # in play: the bot takes over
    with pytest.raises(Unauthorized):
        anna.view()

    other = client.create_game("turandot", players=3, seed=5)
    ada = other.join("Ada")
    robo = other.add_bot("Robo")
    assert other.remove_seat(robo)["game"]["seats_taken"] == 1
    assert ada.leave()["game"]["seats_taken"] == 0
    assert [s.seat for s in (other.join("Cy"), other.join("Di"))] == [0, 1]

    # a finished game: its players ask for a rematch
    duel = client.create_game("turandot", players=2, seed=9)
    p0, p1 = duel.join("P0"), duel.join("P1")
    while True:
        view = p0.view()
        if view["status"] == "finished":
            break
        seat = (p0, p1)[view["pending"][0]["seat"]]
        seat.move(seat.actions()["default"])
    with pytest.raises(Conflict):
        p0.leave()
    again0 = p0.rematch()
    again1 = duel.rematch(p1)
    assert again0.game_id == again1.game_id == duel.view()["rematch"]
    assert (again0.seat, again1.seat) == (1, 0)  # the first maestro's role to the left
    assert again0.view()["status"] == "playing" and p0.rematch().token == again0.token


def test_impresario_lobby_prints_the_open_games(live_server, capsys):
    client = Client(live_server)
    game = client.create_game("wordjam", players=5, seed=1, options={"think_seconds": 77})
    game.join("Zoë")
    game.add_bot("Robo", "wordsmith")
    # --lang en: the headings read below are the English ones, whatever this machine's locale
    assert main(["--url", live_server, "--lang", "en", "lobby", "--ruleset", "wordjam",
                 "--limit", "100"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["GAME", "RULESET", "STATUS", "SEATS", "AGE", "PLAYERS", "OPTIONS"]
    row = next(line for line in out if line.startswith(game.id))
    assert "wordjam" in row and "2/5" in row and "Zoë, Robo (bot: wordsmith)" in row
    assert "think_seconds=77" in row
    assert main(["--url", live_server, "lobby", "--status", "finished", "--ruleset",
                 "wordjam", "--no-bots"]) == 0
    assert game.id not in capsys.readouterr().out


def test_games_table_lines_up():
    games = [{"id": "abc", "ruleset": "turandot", "status": "open", "seats_taken": 1,
              "seats_total": 4, "created": 1000.0,
              "seats": [{"seat": 0, "name": "Ann", "bot": None, "held": True}],
              "options": {"move_seconds": 60}},
             {"id": "abcdefgh", "ruleset": "wordjam", "status": "open", "seats_taken": 0,
              "seats_total": 5, "created": 900.0, "seats": [], "options": {}}]
    lines = games_table(games, now=1000.0 + 3 * 3600)
    assert lines[1].index("turandot") == lines[2].index("wordjam") == lines[0].index("RULESET")
    assert "3h" in lines[1] and "Ann (held)" in lines[1] and "move_seconds=60" in lines[1]
    assert "—" in lines[2]
