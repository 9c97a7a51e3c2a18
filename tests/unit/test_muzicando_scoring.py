"""Places and scores: a hand of the team game by its contract level (R8), the individual game's
place points and chooser's bonus, R11, a blocked table (R6), matches of several hands, R10 and
the options."""

from __future__ import annotations

import pytest

from impresario_rules.base import InvalidOptions
from impresario_rules.muzicando import MUZICANDO as M

from muzicando_helpers import PASS, new, play, playing, put, types

GREEN = [[3, 4, "green-4"]]   # Parada: the green Fa oval


def run_out(state, order):
    """Each seat in ``order`` places its single card (a green note next to the column)."""
    moves = [(s, put(state["held"][s][0], 3, int(state["held"][s][0][-1]))) for s in order]
    return play(state, moves)


@pytest.mark.parametrize("level,made", [(1, True), (2, True), (3, False), (4, False)])
def test_a_team_hand_places_1234_and_the_declarers_target_by_level(level, made):
    # seat 0 goes out first, 1 second, 2 third, 3 last (laying down every card)
    s = playing("P", [["green-5"], ["green-3"], ["green-6"], ["green-2"]], GREEN, level=level)
    s, events = run_out(s, [0, 1, 2, 3])
    assert s["phase"] == "finished"
    result = s["results"][0]
    assert [p["place"] for p in result["places"]] == [1, 2, 3, 4]
    assert result["place_points"] == [4, 3, 2, 1]
    assert result["made"] is made
    bonus = level * 6 if made else -level * 6            # team 0 holds 4 + 2 place points
    assert result["contract_points"] == [bonus, 0, 0, 0]
    score = M.score(s)
    assert [t["total"] for t in score["teams"]] == [6 + bonus, 4]
    assert score["winners"] == ([0, 2] if 6 + bonus > 4 else [1, 3])
    for p in score["players"]:
        assert p["total"] == sum(p["lines"].values())
    assert events[-1]["type"] == "game_finished"


def test_level_4_is_the_declarer_himself_first_and_his_partner_second():
    held = [["green-5"], ["green-7"], ["green-6"], ["green-3"]]
    # 0 goes out, 1 cannot play the Si yet and passes, 2 second, 3 third, 1 last
    moves = [(0, put("green-5", 3, 5)), (1, PASS), (2, put("green-6", 3, 6)),
             (3, put("green-3", 3, 3)), (1, put("green-7", 3, 7))]
    s, _ = play(playing("P", held, GREEN, level=4, declarer=0), moves)
    assert [p["seat"] for p in s["results"][0]["places"]] == [0, 2, 3, 1]
    assert s["results"][0]["made"] is True
    assert s["results"][0]["contract_points"][0] == 4 * (4 + 3)
    s, _ = play(playing("P", held, GREEN, level=4, declarer=2), moves)
    assert s["results"][0]["made"] is False               # the partner first is not enough
    assert s["results"][0]["contract_points"][2] == -4 * 7


def test_r6_a_blocked_table_places_the_stuck_players_fewer_cards_first():
    # seat 0 goes out; nobody else can play; seats 1 and 3 tie with one card each
    s = playing("P", [["green-5"], ["orange-7"], ["indigo-1", "red-7"], ["blue-3"]], GREEN,
                level=1)
    s, events = play(s, [(0, put("green-5", 3, 5)), (1, PASS), (2, PASS), (3, PASS)])
    assert "table_blocked" in types(events)
    places = {p["seat"]: p for p in s["results"][0]["places"]}
    assert places[0] == {"seat": 0, "place": 1, "finished": True, "cards_left": 0}
    # tied players each take the lowest of their places (2 and 3: both 3rd)
    assert places[1]["place"] == places[3]["place"] == 3 and not places[1]["finished"]
    assert places[2]["place"] == 4
    assert s["results"][0]["place_points"] == [4, 2, 0, 2]   # the last stuck player scores 0
    assert s["results"][0]["made"] is True


def test_r6_nobody_finished_first_when_everyone_is_stuck():
    s = playing("P", [["orange-7"], ["indigo-1", "red-7"], ["blue-3"], ["red-6"]], GREEN,
                level=1)
    s, _ = play(s, [(0, PASS), (1, PASS), (2, PASS), (3, PASS)])
    r = s["results"][0]
    assert [p["place"] for p in r["places"]] == [3, 3, 3, 4]
    assert r["made"] is False and r["place_points"] == [2, 0, 2, 2]


def test_the_last_player_alone_plays_on_and_keeps_his_point_only_with_an_empty_hand():
    s = playing("P", [["green-5"], ["green-3"], ["green-6"], ["green-2", "orange-7"]], GREEN)
    s, _ = run_out(s, [0, 1, 2])
    assert s["turn"] == 3
    s, _ = play(s, [(3, put("green-2", 3, 2))])
    assert s["turn"] == 3                                 # he plays on alone
    s, events = play(s, [(3, PASS)])
    assert "table_blocked" in types(events)
    assert s["results"][0]["place_points"] == [4, 3, 2, 0]


def test_individual_place_points_and_the_choosers_bonus():
    s = playing("M", [["red-4"], ["red-2"], ["red-3"]], [[0, 1, "red-1"]], turn=1, declarer=1,
                mode="individual", hands=3)
    assert s["chooser"] == 1
    s, _ = play(s, [(1, put("red-2", 0, 2)), (2, put("red-3", 0, 3)), (0, put("red-4", 0, 4))])
    r = s["results"][0]
    assert r["place_points"] == [1, 3, 2] and r["chooser_points"] == [0, 4, 0]
    assert r["points"] == [1, 7, 2] and r["made"] is None
    assert s["hand"] == 2 and s["dealer"] == 1            # the chooser deals the next hand


def test_individual_a_chooser_who_does_not_finish_first_gets_nothing():
    s = playing("S", [["red-2"], ["blue-2"], ["green-7"]], [[0, 0, "red-1"]], turn=0,
                declarer=1, mode="individual", hands=3)
    s, _ = play(s, [(0, put("red-2", 1, 0))])
    s, _ = play(s, [(1, put("blue-2", -1, 0)), (2, put("green-7", 0, 1))])
    r = s["results"][0]
    assert r["place_points"] == [3, 2, 1] and r["chooser_points"] == [0, 0, 0]


@pytest.mark.parametrize("first,expected", [(0, 4 + 2 * 4), (1, 1 - 2 * 1)])
def test_r11_the_declarer_must_finish_first(first, expected):
    held = [["green-5"], ["green-3"], ["blue-4"], ["blue-6"]]
    table = GREEN + [[4, 5, "blue-5"]]
    s = playing("P", held, table, level=2, mode="individual", auction=True, hands=4,
                turn=first)
    cells = {"green-5": (3, 5), "green-3": (3, 3), "blue-4": (4, 4), "blue-6": (4, 6)}
    order = [(first + i) % 4 for i in range(4)]
    s, _ = play(s, [(x, put(held[x][0], *cells[held[x][0]])) for x in order])
    r = s["results"][0]
    assert r["points"][0] == expected
    assert r["made"] is (first == 0)


def play_out(state):
    while not M.is_finished(state):
        seat = min(M.pending(state))
        state, _ = M.apply(state, seat, M.default_action(state, seat))
    return state


def test_a_team_match_of_several_hands_moves_the_deal_and_adds_up():
    state = play_out(new(4, seed=5, hands=4))
    results = state["results"]
    assert [r["hand"] for r in results] == [1, 2, 3, 4]
    for a, b in zip(results, results[1:]):
        assert b["dealer"] != a["dealer"]
    score = M.score(state)
    for p in score["players"]:
        assert p["total"] == sum(r["points"][p["seat"]] for r in results)
        assert p["total"] == sum(p["lines"].values())
    assert [t["total"] for t in score["teams"]] == [
        score["players"][0]["total"] + score["players"][2]["total"],
        score["players"][1]["total"] + score["players"][3]["total"]]
    assert M.view(state, None)["team_totals"] == [t["total"] for t in score["teams"]]


def test_an_individual_match_is_a_multiple_of_the_players_and_equal_totals_share():
    state = play_out(new(3, seed=2, hands=6))
    score = M.score(state)
    assert len(score["hands"]) == 6 and score["teams"] == []
    best = max(p["total"] for p in score["players"])
    assert score["winners"] == [p["seat"] for p in score["players"] if p["total"] == best]
    # the dealer of each hand is the previous hand's chooser
    for a, b in zip(score["hands"], score["hands"][1:]):
        assert b["dealer"] == a["chooser"]


def test_r10_the_choice_passes_to_a_player_who_can_open():
    from impresario_rules.muzicando.state import is_opener
    for seed in range(200):
        state, events = M.new_game(3, {}, seed)
        if "choice_passed" in types(events) and "redeal" not in types(events):
            break
    passed = [e["seat"] for e in events if e["type"] == "choice_passed"]
    assert passed[0] == 1                                # left of the dealer
    for s in passed:
        assert not any(is_opener(c) for c in state["held"][s])
    assert state["chooser"] == (passed[-1] + 1) % 3
    assert M.pending(state) == {state["chooser"]: ["choose_layout"]}


def test_r10_nobody_can_open_the_same_dealer_deals_again():
    for seed in range(2000):
        state, events = M.new_game(2, {}, seed)
        if "redeal" in types(events):
            break
    else:
        pytest.skip("no redeal in these seeds")
    assert state["dealer"] == 0 and state["hand"] == 1 and state["phase"] == "choose"
    assert types(events).count("hand_dealt") == types(events).count("redeal") + 1


def test_the_chooser_chooses_a_layout_he_can_open_and_opens():
    state = new(3, seed=1)
    seat = state["chooser"]
    state["held"][seat] = ["blue-5", "blue-6", "red-2"]   # a blue oval, no Do
    assert M.action_space(state, seat) == [{"type": "choose_layout", "layouts": ["G", "P"]}]
    from muzicando_helpers import refused
    refused(state, seat, {"type": "choose_layout", "layout": "S"}, "cannot_open")
    refused(state, seat, {"type": "choose_layout", "layout": "X"}, "unknown_layout")
    state, _ = play(state, [(seat, {"type": "choose_layout", "layout": "P"})])
    assert M.pending(state) == {seat: ["place"]} and state["layout"] == "P"
    assert M.default_action(state, seat) == put("blue-5", 4, 5)


@pytest.mark.parametrize("n,options,code", [
    (3, {"mode": "team"}, "team_needs_four_players"),
    (4, {"mode": "duo"}, "invalid_mode"),
    (4, {"hands": 0}, "invalid_hands"),
    (4, {"hands": True}, "invalid_hands"),
    (3, {"hands": 4}, "hands_not_multiple"),
    (5, {"auction": True}, "auction_needs_four_or_eight"),
    (4, {"auction": "yes"}, "invalid_auction"),
    (4, {"auction": False}, "team_game_has_auction"),
    (4, {"first_dealer": 4}, "invalid_first_dealer"),
    (4, {"colour": "red"}, "unknown_option"),
    (9, {}, "invalid_players"),
    (1, {}, "invalid_players"),
])
def test_options_are_validated_with_stable_codes(n, options, code):
    with pytest.raises(InvalidOptions) as info:
        M.new_game(n, options, 1)
    assert info.value.code == code and info.value.message


def test_option_defaults():
    s = new(4)
    assert (s["mode"], s["hands"], s["auction"], s["dealer"]) == ("team", 4, True, 0)
    s = new(5)
    assert (s["mode"], s["hands"], s["auction"]) == ("individual", 5, False)
    assert [len(h) for h in s["held"]] == [7] * 5 and len(s["pile"]) == 21
    s = new(4, mode="individual", first_dealer="random", seed=3)
    assert s["mode"] == "individual" and 0 <= s["dealer"] < 4 and len(s["pile"]) == 28
