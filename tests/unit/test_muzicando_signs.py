"""Signs and their blocks: sharp the next player, flat the previous, natural both, and the rest
with its run (R1: passed to the partner when its player goes out). Also R5, passing.

The scenarios use Parada, where a sign goes on its colour's oval once it is down: red Do (0, 1),
yellow Mi (2, 3), green Fa (3, 4), blue Sol (4, 5), violet Si (6, 7).
"""

from __future__ import annotations

from impresario_rules.muzicando import MUZICANDO as M

from muzicando_helpers import PASS, legal, play, playing, put, refused, types

OVALS = [[0, 1, "red-1"], [2, 3, "yellow-3"], [3, 4, "green-4"], [4, 5, "blue-5"],
         [6, 7, "violet-7"]]
STUCK = ["orange-7", "indigo-1"]   # cards with no cell while their ovals are not down


def table(hand0, others=None):
    others = others or [list(STUCK), list(STUCK), list(STUCK)]
    return playing("P", [hand0] + others, OVALS)


def test_a_sharp_blocks_the_next_player_for_one_turn():
    s = table(["red-sign", "red-2", "red-3"])
    s, events = play(s, [(0, put("red-sign", 0, 1))])
    assert {"type": "blocked", "seat": 0, "sign": "sharp", "seats": [1]} in events
    assert {"type": "turn_skipped", "hand": 1, "seat": 1} in events
    assert s["turn"] == 2 and s["blocked"] == [False] * 4
    assert M.view(s, None)["blocked"] == []
    # seat 1 is free again: after 2 and 3, seat 0 plays and then seat 1 has its turn
    s, _ = play(s, [(2, PASS), (3, PASS), (0, put("red-2", 0, 2))])
    assert s["turn"] == 1


def test_a_flat_blocks_the_previous_player():
    s = table(["blue-sign", "red-2"])
    s, events = play(s, [(0, put("blue-sign", 4, 5))])
    assert {"type": "blocked", "seat": 0, "sign": "flat", "seats": [3]} in events
    assert s["turn"] == 1 and s["blocked"] == [False, False, False, True]
    assert M.view(s, None)["players"][3]["blocked"] is True
    s, events = play(s, [(1, PASS), (2, PASS)])
    assert types(events)[-1] == "turn_skipped" and s["turn"] == 0   # seat 3 skipped
    assert s["blocked"] == [False] * 4


def test_a_natural_blocks_both_neighbours():
    s = table(["yellow-sign", "red-2"])
    s, events = play(s, [(0, put("yellow-sign", 2, 3))])
    assert {"type": "blocked", "seat": 0, "sign": "natural", "seats": [1, 3]} in events
    assert s["turn"] == 2
    s, _ = play(s, [(2, PASS)])
    assert s["turn"] == 0


def test_next_and_previous_are_the_nearest_players_still_holding_cards():
    s = table(["red-sign", "blue-sign", "red-2"], [[], list(STUCK), list(STUCK)])
    s["out"] = [1]
    s, events = play(s, [(0, put("red-sign", 0, 1))])
    assert {"type": "blocked", "seat": 0, "sign": "sharp", "seats": [2]} in events
    assert s["turn"] == 3


def test_blocks_do_not_accumulate():
    s = table(["red-sign", "red-2"], [list(STUCK), ["indigo-sign"] + STUCK, list(STUCK)])
    s["blocked"] = [False, True, False, False]      # already blocked by an earlier flat
    s, events = play(s, [(0, put("red-sign", 0, 1))])
    assert s["blocked"] == [False] * 4 and s["turn"] == 2
    assert types(events).count("turn_skipped") == 1


def test_a_player_may_always_keep_a_sign_signs_never_oblige():
    s = table(["red-sign"])
    assert legal(s, 0, "red-sign") == [(0, 1)]
    assert M.pending(s) == {0: ["place", "pass"]}
    assert M.default_action(s, 0) == PASS
    s, events = play(s, [(0, PASS)])
    assert events[0] == {"type": "passed", "hand": 1, "seat": 0, "drew": False, "pile_size": 0}


def test_r5_without_a_pile_you_may_not_pass_with_a_note_to_place():
    s = table(["red-2", "red-sign"])
    refused(s, 0, PASS, "must_play")
    assert [m["type"] for m in M.action_space(s, 0)] == ["place"]
    assert M.default_action(s, 0) == put("red-2", 0, 2)


def test_r5_while_the_pile_lasts_you_may_always_pass_and_draw():
    s = playing("P", [["red-2"], ["blue-4"], ["green-5"]], OVALS, pile=["indigo-6", "orange-1"],
                mode="individual")
    assert M.action_space(s, 0)[-1] == {"type": "pass", "draws": True}
    s, events = play(s, [(0, PASS)])
    assert s["held"][0] == ["red-2", "indigo-6"] and s["pile"] == ["orange-1"]
    e = events[0]
    assert e["drew"] is True and e["_private"] == {"0": {"card": "indigo-6"}}
    assert "card" not in {k for k in e if k != "_private"}
    assert M.redact_event(e, 1).get("card") is None
    assert M.redact_event(e, 0)["card"] == "indigo-6"


def test_the_rest_gives_a_run_that_ends_with_a_pass():
    s = table(["violet-sign", "red-2", "red-3", "red-sign", "orange-7"])
    s, events = play(s, [(0, put("violet-sign", 6, 7))])
    assert "run_started" in types(events) and s["turn"] == 0 and s["run"] == 0
    assert M.view(s, 1)["run"] == 0
    # a sharp in the run: its block waits for the end of the run
    s, events = play(s, [(0, put("red-sign", 0, 1)), (0, put("red-2", 0, 2)),
                         (0, put("red-3", 0, 3))])
    assert {"type": "block_queued", "seat": 0, "sign": "sharp", "seats": [1]} in events
    assert s["turn"] == 0 and s["blocked"] == [False] * 4 and s["queued"] == [1]
    s, events = play(s, [(0, PASS)])
    assert types(events)[:3] == ["passed", "run_ended", "blocked"]
    assert "turn_skipped" in types(events) and s["turn"] == 2 and s["run"] is None


def test_r1_a_run_passes_to_the_partner_when_its_player_goes_out():
    s = table(["violet-sign", "red-2"], [list(STUCK), ["red-3", "red-4"] + STUCK, list(STUCK)])
    s, _ = play(s, [(0, put("violet-sign", 6, 7))])
    s, events = play(s, [(0, put("red-2", 0, 2))])
    assert {"type": "player_out", "hand": 1, "seat": 0, "place": 1} in events
    assert {"type": "run_passed", "seat": 0, "to": 2} in events
    assert s["turn"] == 2 and s["run"] == 2
    s, _ = play(s, [(2, put("red-3", 0, 3)), (2, put("red-4", 0, 4))])
    assert s["turn"] == 2 and s["run"] == 2           # the run goes on until he passes
    s, _ = play(s, [(2, PASS)])
    assert s["run"] is None and s["turn"] == 3


def test_r1_the_rest_as_last_card_hands_the_run_to_the_partner():
    s = table(["violet-sign"], [list(STUCK), ["red-2"] + STUCK, list(STUCK)])
    s, events = play(s, [(0, put("violet-sign", 6, 7))])
    assert s["run"] == 2 and s["turn"] == 2 and "run_passed" in types(events)


def test_r1_with_the_partner_out_play_resumes_with_the_next_player():
    s = table(["violet-sign"], [list(STUCK), [], list(STUCK)])
    s["out"] = [2]
    s, events = play(s, [(0, put("violet-sign", 6, 7))])
    assert s["run"] is None and s["turn"] == 1 and "run_passed" not in types(events)


def test_in_the_individual_game_a_run_ending_with_an_empty_hand_resumes_with_the_next():
    s = playing("P", [["violet-sign", "red-2"], list(STUCK), list(STUCK)], OVALS,
                mode="individual")
    s, _ = play(s, [(0, put("violet-sign", 6, 7))])
    s, events = play(s, [(0, put("red-2", 0, 2))])
    assert s["run"] is None and s["turn"] == 1 and "run_ended" in types(events)


def test_moves_out_of_turn_or_phase_are_conflicts():
    s = table(["red-2"])
    refused(s, 1, PASS, "not_your_turn", "not_now")
    refused(s, 0, {"type": "auction_pass"}, "not_auction_phase", "not_now")
    refused(s, 0, {"type": "choose_layout", "layout": "S"}, "not_choose_phase", "not_now")
    refused(s, 0, put("blue-2", 4, 2), "card_not_in_hand", "illegal")
    refused(s, 0, put("pink-2", 4, 2), "unknown_card", "illegal")
    refused(s, 0, {"type": "place", "card": "red-2", "x": "0", "y": 2}, "invalid_move")
    refused(s, 0, {"type": "place", "card": "red-2", "x": True, "y": 2}, "invalid_move")
    refused(s, 0, {"type": "pass", "extra": 1}, "invalid_move")
    refused(s, 0, {"type": "discard"}, "unknown_move_type")
    refused(s, 7, PASS, "unknown_seat")
    refused(s, 0, "pass", "invalid_move")
