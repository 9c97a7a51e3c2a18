"""Muzicando over HTTP: a team game (4 players, ``mode: team``) and individual games (3 and 6
players) played end to end through the Flask test client.

Human seats choose random legal moves from ``GET /actions`` (for each card in hand the action
space lists its legal cells), bot seats are played by the engine. After every move every human
seat's and the spectator's view shows only the viewer's own hand, the other hands' sizes and the
draw pile's size (never a card of another hand or of the pile), and the feed gives the dealt and
drawn cards to their owner only. Now and then a human tries an illegal placement (a card of his on
a cell not listed for it) or a move out of turn: 422 with the rule's code, 409, and the game is
unchanged (same version, same view). At the end ``GET /score`` is the rules core's score of the
replay.
"""

from __future__ import annotations

import random

import pytest

from impresario_rules.muzicando.bots import uniform
from impresario_rules.muzicando import MUZICANDO
from impresario_rules.muzicando.state import legal_map
from service_helpers import assert_problem, auth, keys_written

from .games_helpers import (check_muzicando_feed, check_muzicando_view, core_refusal, get_json,
                            illegal_placement, muzicando_move, replay_core, setup_table, truth)

LAYOUT_CODES = {
    "not_an_opening_card", "wrong_opening_cell", "cell_occupied", "not_adjacent", "not_a_step",
    "not_a_row_end", "breaks_the_scale", "oval_extends_row", "row_needs_oval",
    "not_above_or_below", "wrong_cell", "no_neighbour_note", "pile_not_open", "not_next_note",
    "anchor_not_down", "nothing_to_cover", "sign_wrong_colour", "not_surrounded",
}


def _play(client, redis_client, table, rng, illegal_rate=0.08, max_steps=3000,
          checked_hands=None):
    """Plays the game to its end; every view and feed is checked after every move of the first
    ``checked_hands`` hands (all if None), and the rest is played on without checks."""
    viewers = [None, *table.humans]
    after = {v: 0 for v in viewers}
    refused = {"illegal": 0, "out_of_turn": 0}
    moves = 0
    for _ in range(max_steps):
        version, doc = truth(redis_client, table.id)
        state = doc["state"]
        views = {}
        if checked_hands is not None and state["hand"] > checked_hands:
            return moves + _play_on(client, table, rng), refused
        for v in viewers:
            token = None if v is None else table.tokens[v]
            view = get_json(client, table.url, token)
            assert view["version"] == version
            check_muzicando_view(table, view, v, state)
            views[v] = view
            feed = get_json(client, f"{table.url}/events?after={after[v]}", token)
            check_muzicando_feed(table, feed["events"], v)
            after[v] = feed["last_seq"]
        view = views[None]
        if view["status"] == "finished":
            return moves, refused
        pending = [p["seat"] for p in view["pending"]]
        assert len(pending) == 1 and pending == [view["turn"]], view["pending"]
        (seat,) = pending
        assert table.tokens[seat] is not None, "a bot seat never keeps the game waiting"
        token = table.tokens[seat]
        actions = get_json(client, f"{table.url}/actions", token)
        assert actions["seat"] == seat and actions["default"] is not None
        # each kind of refusal is tried at its first chance, then now and then
        move = illegal_placement(actions, rng)
        if move is not None and (not refused["illegal"] or rng.random() < illegal_rate):
            err = core_refusal("muzicando", state, seat, move)
            assert err is not None and err.kind == "illegal", (move, err)
            assert err.code in LAYOUT_CODES, err.code
            body = assert_problem(client.post(f"{table.url}/moves", json=move,
                                              headers=auth(token)), 422, err.code)
            assert body["detail"]
            refused["illegal"] += 1
            again = get_json(client, table.url, token)
            assert again == views[seat], "a refused move changes nothing"
            continue
        others = [s for s in table.humans if s != seat]
        if others and (not refused["out_of_turn"] or rng.random() < illegal_rate):
            other = rng.choice(others)
            move = MUZICANDO.default_action(state, seat)  # legal for the seat whose turn it is
            assert_problem(client.post(f"{table.url}/moves", json=move,
                                       headers=auth(table.tokens[other])), 409,
                           "not_your_turn")
            refused["out_of_turn"] += 1
            assert get_json(client, table.url, table.tokens[other]) == views[other]
            continue
        move = muzicando_move(actions, rng)
        resp = client.post(f"{table.url}/moves", json=move, headers=auth(token))
        assert resp.status_code == 200, (move, resp.get_data(as_text=True))
        assert resp.get_json()["version"] == version + 1
        moves += 1
    raise AssertionError("the game does not end")


def _play_on(client, table, rng, max_steps=3000):
    """The rest of the game, random legal moves only (no checks): the number of moves."""
    view = get_json(client, table.url)
    for moves in range(max_steps):
        if view["status"] == "finished":
            return moves
        token = table.tokens[view["turn"]]
        move = muzicando_move(get_json(client, f"{table.url}/actions", token), rng)
        resp = client.post(f"{table.url}/moves", json=move, headers=auth(token))
        assert resp.status_code == 200, (move, resp.get_data(as_text=True))
        view = resp.get_json()["game"]
    raise AssertionError("the game does not end")


def _finish(client, redis_client, table, kinds):
    replay = get_json(client, f"{table.url}/replay")
    assert replay["bots"] == kinds
    state = replay_core(table, replay)
    score = get_json(client, f"{table.url}/score")
    assert score == {"ruleset": "muzicando", **MUZICANDO.score(state)} == replay["score"]
    _, doc = truth(redis_client, table.id)
    assert doc["state"] == state
    for p in score["players"]:
        assert p["total"] == sum(p["lines"].values())
    return score


def test_team_game_for_four(client, redis_client):
    kinds = [None, "greedy", None, "random"]
    table = setup_table(client, "muzicando", kinds, 41, mode="team")
    view = get_json(client, table.url)
    assert view["mode"] == "team" and view["phase"] == "auction" and view["hands"] == 4
    assert view["pile_size"] == 0 and [p["hand_size"] for p in view["players"]] == [14] * 4
    # the match is at least 4 hands (the rulebook's "minimo 4 aste"): the first is checked
    # move by move, the others played to the end
    moves, refused = _play(client, redis_client, table, random.Random(41), checked_hands=1)
    assert moves > 5 and refused["illegal"] and refused["out_of_turn"]
    score = _finish(client, redis_client, table, kinds)
    assert score["mode"] == "team" and len(score["teams"]) == 2 and len(score["hands"]) == 4
    for t in score["teams"]:
        assert t["total"] == sum(score["players"][s]["total"] for s in t["seats"])


@pytest.mark.parametrize("kinds,seed", [
    ([None, "greedy", "random"], 43),
    pytest.param([None, "random", "greedy", "random", None, "greedy"], 46,
                 marks=pytest.mark.slow),
])
def test_individual_game(client, redis_client, kinds, seed):
    n = len(kinds)
    # an individual match is a multiple of the players in hands (R8): one round of deals
    table = setup_table(client, "muzicando", kinds, seed, mode="individual", hands=n)
    view = get_json(client, table.url)
    assert view["mode"] == "individual" and view["auction"] is None
    # every card is in a hand, in the pile or on the table (a bot may have opened already)
    on_table = len(view["table"]["cells"]) + sum(1 for c in view["table"]["cells"]
                                                 if c["covered_by"])
    assert sum(p["hand_size"] for p in view["players"]) + view["pile_size"] + on_table == 56
    assert all(p["hand_size"] >= 6 for p in view["players"])
    moves, refused = _play(client, redis_client, table, random.Random(seed))
    assert moves > 5 and refused["illegal"]
    assert bool(refused["out_of_turn"]) == (len(table.humans) > 1)
    score = _finish(client, redis_client, table, kinds)
    assert score["mode"] == "individual" and score["teams"] == []
    assert len(score["hands"]) == n


def test_illegal_placements_name_the_rule(client, redis_client):
    """The opening card off its cell, a card not in hand, a pass before the opening card."""
    table = setup_table(client, "muzicando", [None, None, None], 7, mode="individual", hands=3)
    view = get_json(client, table.url)
    chooser = view["chooser"]
    token = table.tokens[chooser]
    actions = get_json(client, f"{table.url}/actions", token)
    (space,) = actions["moves"]
    assert space["type"] == "choose_layout" and space["layouts"]
    for bad in set("SGPM") - set(space["layouts"]):  # a layout he holds no opener for
        assert_problem(client.post(f"{table.url}/moves", json={"type": "choose_layout",
                                                               "layout": bad},
                                   headers=auth(token)), 422, "cannot_open")
    # a layout letter the game does not know: the rules' code (the spec lists the four)
    assert_problem(client.post(f"{table.url}/moves", json={"type": "choose_layout",
                                                           "layout": "X"},
                               headers=auth(token)), 422, "unknown_layout")
    others = [s for s in range(3) if s != chooser]
    assert_problem(client.post(f"{table.url}/moves", json={"type": "choose_layout",
                                                           "layout": space["layouts"][0]},
                               headers=auth(table.tokens[others[0]])), 409, "not_your_turn")
    resp = client.post(f"{table.url}/moves", json={"type": "choose_layout",
                                                   "layout": space["layouts"][0]},
                       headers=auth(token))
    assert resp.status_code == 200
    _, doc = truth(redis_client, table.id)
    state = doc["state"]
    seat = state["turn"]
    token = table.tokens[seat]
    before = get_json(client, table.url, token)
    other_card = next(c for s, h in enumerate(state["held"]) if s != seat for c in h)
    cases = [({"type": "place", "card": other_card, "x": 0, "y": 0}, "card_not_in_hand"),
             ({"type": "pass"}, "must_open")]
    actions = get_json(client, f"{table.url}/actions", token)
    place = next(m for m in actions["moves"] if m["type"] == "place")
    for entry in place["cards"]:
        legal = {(c["x"], c["y"]) for c in entry["cells"]}
        if (5, 5) not in legal:
            err = core_refusal("muzicando", state, seat,
                               {"type": "place", "card": entry["card"], "x": 5, "y": 5})
            cases.append(({"type": "place", "card": entry["card"], "x": 5, "y": 5}, err.code))
    for move, code in cases:
        assert_problem(client.post(f"{table.url}/moves", json=move, headers=auth(token)),
                       422, code)
        assert get_json(client, table.url, token) == before
    assert {c for _, c in cases[2:]} <= LAYOUT_CODES


# ------------------------------------------------------------------------------ issue 13 §6
def _call(client, table, seat, move):
    resp = client.post(f"{table.url}/moves", json=move, headers=auth(table.tokens[seat]))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def test_r11_for_8_plays_the_team_auction_as_written(client):
    """Three passes in a row after a bid end the auction (not everyone else's 7), and four
    passes at the start make the dealer bid (not all 8)."""
    table = setup_table(client, "muzicando", [None] * 8, 7, mode="individual", auction=True)
    calls = [(0, "pass"), (1, "1M"), (2, "pass"), (3, "3P"), (4, "pass"), (5, "4P"),
             (6, "pass"), (7, "pass")]
    for seat, call in calls:
        _call(client, table, seat, {"type": "auction_pass"} if call == "pass"
              else {"type": "auction_bid", "contract": call})
    assert get_json(client, table.url)["phase"] == "auction"
    game = _call(client, table, 0, {"type": "auction_pass"})["game"]
    assert game["phase"] == "play" and (game["declarer"], game["contract"]) == (5, "4P")
    assert game["turn"] == 5

    table = setup_table(client, "muzicando", [None] * 8, 7, mode="individual", auction=True)
    for seat in range(3):
        _call(client, table, seat, {"type": "auction_pass"})
    game = _call(client, table, 3, {"type": "auction_pass"})["game"]
    assert game["auction"]["dealer_must_bid"] is True and game["turn"] == 0
    assert game["pending"] == [{"seat": 0, "kinds": ["auction_bid"], "deadline": None}]
    assert_problem(client.post(f"{table.url}/moves", json={"type": "auction_pass"},
                               headers=auth(table.tokens[0])), 422, "dealer_must_bid")


def test_a_team_match_is_at_least_four_auctions(client, redis_client):
    for hands in (1, 3):
        body = assert_problem(client.post("/v1/games", json={
            "ruleset": "muzicando", "players": 4, "options": {"mode": "team", "hands": hands}}),
            422, "team_needs_four_hands")
        assert "minimo 4 aste" in body["detail"]
    assert keys_written(redis_client) == []
    resp = client.post("/v1/games", json={"ruleset": "muzicando", "players": 4,
                                          "options": {"mode": "team", "hands": 4}})
    assert resp.status_code == 201 and resp.get_json()["game"]["hands"] == 4


def test_a_block_queued_for_a_player_who_has_gone_out_lapses(client):
    """Team game, seed 146: a rest's run ends after the player it queued a block for has gone
    out. He is neither listed in a `blocked` event nor blocked in the view (it was
    `{"type": "blocked", "seat": 2, "sign": null, "seats": [2]}`)."""
    table = setup_table(client, "muzicando", [None] * 4, 146, mode="team")
    state, _ = MUZICANDO.new_game(4, {"mode": "team"}, 146)
    rng = random.Random(146)
    gone: set[int] = set()  # out this hand before the move
    for _ in range(400):  # the moves of two seeded bots, sent through the API
        (seat,) = MUZICANDO.pending(state)
        # medium, or a player uniform over the legal moves (the seed's scenario was found
        # with these two; ``easy`` now bids as medium does)
        play = MUZICANDO.bot_play("medium") if rng.choice(["greedy", "random"]) == "greedy" \
            else uniform
        move = play(MUZICANDO.view(state, seat), MUZICANDO.seat_actions(state, seat), rng)
        queued = set(state["queued"])
        state, events = MUZICANDO.apply(state, seat, move)
        result = _call(client, table, seat, move)
        out = set(gone)  # and who goes out in this move, as the feed says
        for event in result["events"]:
            if event["type"] == "player_out":
                out.add(event["seat"])
            elif event["type"] == "blocked":
                assert not set(event["seats"]) & out, event
        gone = {p["seat"] for p in result["game"]["players"] if p["out"]}
        if result["game"]["phase"] == "play":
            assert not set(result["game"]["blocked"]) & gone
            assert not any(p["blocked"] for p in result["game"]["players"] if p["out"])
        if queued & out and any(e["type"] == "run_ended" for e in events):
            break  # the run ended after a player it had blocked went out
    else:
        raise AssertionError("the seed no longer leads to a block on a player gone out")


def test_the_default_places_a_note_when_it_can_even_with_a_pile(client, clock):
    """The individual game's default (a deadline, Enter in the terminal) was always
    pass-and-draw while the pile lasted; now it places a note when one can be placed."""
    for seed in range(1, 60):
        state, _ = MUZICANDO.new_game(3, {"mode": "individual", "hands": 3}, seed)
        chooser = state["chooser"]
        layout = MUZICANDO.default_action(state, chooser)
        state, _ = MUZICANDO.apply(state, chooser, layout)
        state, _ = MUZICANDO.apply(state, chooser, MUZICANDO.default_action(state, chooser))
        seat = state["turn"]
        notes = [c for c, cells in legal_map(state, seat).items()
                 if cells and not c.endswith("-sign")]
        if state["pile"] and notes and seat != chooser:
            break
    else:
        raise AssertionError("no seed gives the second player a note to place")
    table = setup_table(client, "muzicando", [None] * 3, seed, mode="individual", hands=3,
                        move_seconds=30)
    _call(client, table, chooser, layout)
    _call(client, table, chooser, get_json(client, f"{table.url}/actions",
                                           table.tokens[chooser])["default"])
    actions = get_json(client, f"{table.url}/actions", table.tokens[seat])
    assert actions["default"]["type"] == "place" and actions["default"]["card"] in notes
    clock.advance(31)
    resolved = client.post(f"{table.url}/resolve", headers=auth(table.host_token)).get_json()
    placed = [e for e in resolved["events"] if e["type"] == "card_placed"]
    assert placed and placed[0]["seat"] == seat and placed[0]["card"] == actions["default"]["card"]
    assert not any(e["type"] == "passed" and e["seat"] == seat for e in resolved["events"])
