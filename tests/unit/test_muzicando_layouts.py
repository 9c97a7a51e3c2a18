"""The four layouts, rule by rule (rulings R2, R3 and the Parada/Muzicando boards).

Coordinates: Sarabanda and Glissando open at (0, 0), y grows upwards; Parada and Muzicando use
the fixed board x = colour (0 red … 6 violet), y = note (1 Do … 7 Si).
"""

from __future__ import annotations

import random

import pytest

from impresario_rules.play import play_random_game
from impresario_rules.muzicando import MUZICANDO as M
from impresario_rules.muzicando import layouts as L
from impresario_rules.muzicando.cards import DECK

from muzicando_helpers import PASS, legal, play, playing, put, refused

FILLER = ["violet-3"]  # a card that keeps a seat in the hand


# ------------------------------------------------------------------ opening
@pytest.mark.parametrize("layout,card,cell,wrong", [
    ("S", "yellow-1", (0, 0), "orange-2"),     # Sarabanda opens with any Do at (0, 0)
    ("G", "green-4", (0, 0), "green-1"),       # Glissando with any oval (green Fa)
    ("P", "blue-5", (4, 5), "blue-1"),         # Parada with any oval, on its own cell
    ("M", "indigo-1", (5, 1), "indigo-6"),     # Muzicando with any Do, foot of its pile
])
def test_the_declarer_opens_with_the_layouts_opening_card(layout, card, cell, wrong):
    s = playing(layout, [[card, wrong], FILLER, FILLER, FILLER])
    assert M.pending(s) == {0: ["place"]}
    refused(s, 0, PASS, "must_open")
    refused(s, 0, put(wrong, *cell), "not_an_opening_card")
    refused(s, 0, put(card, cell[0] + 1, cell[1]), "wrong_opening_cell")
    assert legal(s, 0, card) == [cell]
    s2, events = play(s, [(0, put(card, *cell))])
    assert events[0] == {"type": "card_placed", "hand": 1, "seat": 0, "card": card,
                         "x": cell[0], "y": cell[1], "cards_left": 1}
    assert s2["turn"] == 1


# ------------------------------------------------------------------ Sarabanda (R2)
SARABANDA = [[0, 0, "red-1"], [1, 0, "orange-2"], [1, 1, "blue-3"]]


def test_sarabanda_a_card_touching_two_neighbours_needs_a_step_from_one_of_them():
    # (0, 1) touches the red Do below it and the blue Mi to its right
    hand = ["green-2", "indigo-7", "yellow-4", "violet-5", "red-6"]
    s = playing("S", [hand, FILLER, FILLER, FILLER], SARABANDA)
    assert (0, 1) in legal(s, 0, "green-2")      # Re: a step from both
    assert (0, 1) in legal(s, 0, "indigo-7")     # Si: a step from Do (cyclic)
    assert (0, 1) in legal(s, 0, "yellow-4")     # Fa: a step from Mi only
    refused(s, 0, put("violet-5", 0, 1), "not_a_step")   # Sol: neither
    refused(s, 0, put("red-6", 0, 1), "not_a_step")      # La: neither
    assert (0, 1) not in legal(s, 0, "violet-5")
    s2, _ = play(s, [(0, put("indigo-7", 0, 1))])
    assert [0, 1, "indigo-7"] in s2["table"]["cells"]


def test_sarabanda_a_card_goes_next_to_a_card_on_an_empty_cell_any_colour():
    s = playing("S", [["green-2", "blue-2"], FILLER, FILLER, FILLER], SARABANDA)
    refused(s, 0, put("green-2", 5, 5), "not_adjacent")
    refused(s, 0, put("green-2", 0, 0), "cell_occupied")
    refused(s, 0, put("green-2", 1, -1), "not_a_step")   # under the orange Re
    assert legal(s, 0, "green-2") == [(-1, 0), (0, -1), (0, 1), (1, 2), (2, 1)]


def test_sarabanda_a_sign_covers_a_card_of_its_colour_with_four_sides_occupied():
    plus = [[0, 0, "red-4"], [1, 0, "orange-5"], [-1, 0, "yellow-3"], [0, 1, "green-5"],
            [0, -1, "blue-3"]]
    s = playing("S", [["red-sign", "orange-sign", "green-sign", "violet-1"], FILLER, FILLER,
                      FILLER], plus)
    assert legal(s, 0, "red-sign") == [(0, 0)]
    assert legal(s, 0, "orange-sign") == []           # the orange Sol has an empty side
    refused(s, 0, put("orange-sign", 1, 0), "not_surrounded")
    refused(s, 0, put("green-sign", 0, 0), "sign_wrong_colour")
    refused(s, 0, put("red-sign", 4, 4), "nothing_to_cover")
    s2, _ = play(s, [(0, put("red-sign", 0, 0))])
    view = M.view(s2, None)
    centre = next(c for c in view["table"]["cells"] if (c["x"], c["y"]) == (0, 0))
    assert centre == {"x": 0, "y": 0, "card": "red-4", "covered_by": "red-sign"}
    # the covered card keeps its cell and value: a Mi or a Fa... next to it still counts
    assert (0, 0) not in legal(s2, 0, "violet-1")


# ------------------------------------------------------------------ Glissando (R3)
def test_glissando_the_second_card_fixes_the_direction_of_the_row():
    s = playing("G", [["red-3", "blue-3", "red-6"], FILLER, FILLER, FILLER],
                [[0, 0, "green-4"]])
    assert legal(s, 0, "red-3") == [(-1, 0), (1, 0)]  # a Mi beside the Fa oval, either side
    refused(s, 0, put("red-6", 1, 0), "not_a_step")
    s2, _ = play(s, [(0, put("red-3", -1, 0))])       # Mi Fa: a rising scale
    assert M.view(s2, None)["table"]["rows"] == [
        {"y": 0, "from_x": -1, "to_x": 0, "direction": "rising"}]


def test_glissando_each_end_grows_only_by_continuing_the_scale():
    row = [[-1, 0, "red-3"], [0, 0, "green-4"]]      # Mi Fa, rising
    hand = ["red-2", "red-5", "blue-3", "yellow-5"]
    s = playing("G", [hand, FILLER, FILLER, FILLER], row)
    assert legal(s, 0, "red-2") == [(-2, 0)]          # Re on the left
    assert legal(s, 0, "red-5") == [(1, 0)]           # Sol on the right
    refused(s, 0, put("blue-3", 1, 0), "breaks_the_scale")
    refused(s, 0, put("red-5", -2, 0), "breaks_the_scale")
    refused(s, 0, put("red-5", 3, 0), "not_a_row_end")
    refused(s, 0, put("red-5", 0, 0), "cell_occupied")


def test_glissando_a_new_row_opens_with_an_oval_above_or_below_one_step_away():
    row = [[0, 0, "green-4"], [1, 0, "red-5"]]        # Fa Sol
    hand = ["blue-5", "indigo-6", "yellow-3", "red-3"]
    s = playing("G", [hand, FILLER, FILLER, FILLER], row)
    # the blue Sol oval above the Fa (a step), not above the Sol; below works the same
    assert legal(s, 0, "blue-5") == [(0, -1), (0, 1)]
    refused(s, 0, put("blue-5", 1, 1), "not_a_step")
    assert legal(s, 0, "indigo-6") == [(1, -1), (1, 1)]  # the indigo La oval by the Sol
    assert legal(s, 0, "yellow-3") == [(0, -1), (0, 1)]  # the yellow Mi oval by the Fa
    refused(s, 0, put("red-3", 0, 1), "row_needs_oval")
    refused(s, 0, put("blue-5", 2, 0), "oval_extends_row")
    refused(s, 0, put("blue-5", 5, 3), "not_above_or_below")
    s2, _ = play(s, [(0, put("blue-5", 0, 1))])
    # the line y=1 now holds a row: another oval may not join it, above or below works
    s3 = dict(s2, turn=0)
    refused(s3, 0, put("indigo-6", 1, 1), "oval_extends_row")
    assert legal(s3, 0, "indigo-6") == [(0, 2), (1, -1)]
    s4, _ = play(s3, [(0, put("yellow-3", 0, -1))])
    assert [r["y"] for r in M.view(s4, None)["table"]["rows"]] == [-1, 0, 1]


def test_glissando_cards_above_or_below_a_growing_row_are_ignored():
    # row y=1 is the lone blue Sol oval at (0, 1); (1, 1) sits above the red Sol
    table = [[0, 0, "green-4"], [1, 0, "red-5"], [0, 1, "blue-5"]]
    s = playing("G", [["orange-6", "violet-4"], FILLER, FILLER, FILLER], table)
    assert legal(s, 0, "orange-6") == [(-1, 1), (1, 1), (2, 0)]   # La also ends Fa Sol
    assert legal(s, 0, "violet-4") == [(-1, 1), (1, 1)]


# ------------------------------------------------------------------ Parada
def test_parada_notes_grow_from_their_colours_oval_in_its_column():
    s = playing("P", [["green-5", "green-6", "red-1", "red-2"], FILLER, FILLER, FILLER],
                [[3, 4, "green-4"]])
    assert legal(s, 0, "green-5") == [(3, 5)]
    assert legal(s, 0, "green-6") == []
    refused(s, 0, put("green-6", 3, 6), "no_neighbour_note")
    refused(s, 0, put("green-5", 2, 5), "wrong_cell")
    assert legal(s, 0, "red-1") == [(0, 1)]           # another oval, any time
    refused(s, 0, put("red-2", 0, 2), "no_neighbour_note")


def test_parada_do_and_si_never_touch():
    table = [[6, 7, "violet-7"], [0, 1, "red-1"]]       # the violet Si and red Do ovals
    s = playing("P", [["violet-1", "violet-6", "red-7", "red-2"], FILLER, FILLER, FILLER],
                table)
    err = refused(s, 0, put("violet-1", 6, 1), "no_neighbour_note")
    assert "Do and Si never touch" in err.message
    refused(s, 0, put("red-7", 0, 7), "no_neighbour_note")
    assert legal(s, 0, "violet-6") == [(6, 6)]
    assert legal(s, 0, "red-2") == [(0, 2)]


def test_parada_a_sign_goes_on_its_colours_oval_once_it_is_down():
    s = playing("P", [["green-sign", "red-sign", "violet-2"], FILLER, FILLER, FILLER],
                [[3, 4, "green-4"]])
    assert legal(s, 0, "green-sign") == [(3, 4)]
    refused(s, 0, put("red-sign", 0, 1), "anchor_not_down")
    refused(s, 0, put("green-sign", 3, 5), "wrong_cell")


# ------------------------------------------------------------------ Muzicando
def test_muzicando_piles_take_their_colours_next_note_or_a_new_do():
    s = playing("M", [["red-2", "red-3", "orange-2", "yellow-1", "red-sign", "orange-sign"],
                      FILLER, FILLER, FILLER], [[0, 1, "red-1"]])
    assert legal(s, 0, "red-2") == [(0, 2)]
    refused(s, 0, put("red-3", 0, 3), "not_next_note")
    refused(s, 0, put("orange-2", 1, 2), "pile_not_open")
    refused(s, 0, put("red-2", 1, 2), "wrong_cell")
    assert legal(s, 0, "yellow-1") == [(2, 1)]        # a new pile
    assert legal(s, 0, "red-sign") == [(0, 1)]        # beside its open pile
    refused(s, 0, put("orange-sign", 1, 1), "anchor_not_down")


def test_muzicando_a_pile_completes_with_its_si_and_takes_its_sign_on_top():
    pile = [[0, v, f"red-{v}"] for v in range(1, 7)]
    s = playing("M", [["red-7", "violet-1"], ["red-sign", "violet-2"], FILLER, FILLER], pile,
                turn=0)
    assert M.view(s, None)["table"]["piles"] == [
        {"colour": "red", "x": 0, "top": "red-6", "complete": False, "sign": None}]
    s2, _ = play(s, [(0, put("red-7", 0, 7)), (1, put("red-sign", 0, 1))])
    assert M.view(s2, None)["table"]["piles"] == [
        {"colour": "red", "x": 0, "top": "red-7", "complete": True, "sign": "red-sign"}]


# ------------------------------------------------------------------ refusal ⇔ legal cells
def _tables(layout: str, count: int):
    """Tables met in random play with ``layout`` chosen."""
    rng = random.Random(layout)
    found = 0
    seed = 0
    while found < count:
        seed += 1
        state, _ = M.new_game(3, {"hands": 3}, seed)
        while not M.is_finished(state) and found < count:
            seat = state["turn"]
            if state["phase"] == "choose":
                opts = [a for a in M.legal_actions(state, seat) if a["layout"] == layout]
                if not opts:
                    break
                action = opts[0]
            else:
                action = M.sample_action(state, seat, rng)
            state, _ = M.apply(state, seat, action)
            if state["phase"] == "play" and state["layout"] == layout and \
                    len(state["table"]["cells"]) % 4 == 1:
                found += 1
                yield state["table"]
            if state["phase"] != "play" and state["hand"] > 1:
                break


@pytest.mark.parametrize("layout", L.LAYOUTS)
def test_every_refusal_agrees_with_the_listed_legal_cells(layout):
    for table in _tables(layout, 12):
        on_table = {c for _, _, c in table["cells"]} | {c for _, _, c in table["covers"]}
        cards = [c for c in DECK if c not in on_table]
        cells = L.legal_map(table, cards)
        xs = [x for x, _, _ in table["cells"]]
        ys = [y for _, y, _ in table["cells"]]
        for card in cards:
            for x in range(min(xs) - 2, max(xs) + 3):
                for y in range(min(ys) - 2, max(ys) + 3):
                    ok = L.refusal(table, card, x, y) is None
                    assert ok == ((x, y) in cells[card]), (layout, card, x, y, table)


def test_random_play_of_every_layout_finishes():
    state, moves, _ = play_random_game(M, 5, 3, {"hands": 5})
    assert M.is_finished(state)
    assert {r["layout"] for r in state["results"]} <= set(L.LAYOUTS)
