"""Setup: players 2–5, the table, the helpers, Puccini, the money, the catalogue (R1, R2)."""

from __future__ import annotations

import copy
import csv
from pathlib import Path

import pytest

from impresario_rules.base import InvalidOptions
from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import CATEGORIES, DEFAULT, DIRECTORS

from turandot_helpers import new

SHARED_CSV = Path("/work/shared/rules/turandot-singers.csv")
PACKAGED_CSV = (Path(__file__).resolve().parents[2] / "rules/src/impresario_rules"
                / "turandot/data/singers.csv")


def default_rows() -> list[dict]:
    return [dict(DEFAULT.cards[i]) for i in DEFAULT.ids]


def plain_rows() -> list[dict]:
    return [{k: v for k, v in r.items() if k != "kind"} for r in default_rows()]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_maestro_lays_players_plus_one_singers(n):
    state, events = T.new_game(n, None, 7)
    assert len(state["table"]) == n + 1
    assert all(c in DEFAULT.singers for c in state["table"])
    assert events[0]["type"] == "round_started" and events[0]["table"] == state["table"]
    # a game uses 6 × (players+1) singers; those still to come are in the deck
    assert len(state["deck"]) == 6 * (n + 1) - (n + 1)
    assert len(set(state["deck"]) | set(state["table"])) == 6 * (n + 1)
    assert state["round"] == 1 and state["phase"] == "bidding"
    assert T.pending(state) == {s: ["bid"] for s in range(n)}


@pytest.mark.parametrize("n, helpers", [(2, ["costume_designer"]), (3, ["costume_designer"]),
                                        (4, ["costume_designer", "carpenter"]),
                                        (5, ["costume_designer", "carpenter"])])
def test_only_the_costume_designer_with_2_or_3_players_both_helpers_with_4_or_5(n, helpers):
    assert T.view(new(n), None)["helpers"] == helpers


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_everyone_starts_with_3_money_no_singer_no_director(n):
    state = new(n)
    assert state["money"] == [3] * n
    assert state["stage"] == [0] * n
    assert state["singers"] == [[] for _ in range(n)]
    assert state["director"] == [None] * n
    assert state["pile"] == list(DIRECTORS)  # the nine directors, a face-up pile


def test_the_dummy_exists_only_with_2_players():
    assert new(2)["dummy"] == {"singers": [], "director": None}
    for n in (3, 4, 5):
        assert new(n)["dummy"] is None


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R2_first_maestro_is_seat_0_by_default(n):
    state, _ = T.new_game(n, {}, 3)
    assert state["maestro"] == state["first_maestro"] == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R2_the_creator_may_pick_the_first_maestro(n):
    for seat in range(n):
        state = new(n, first_maestro=seat)
        assert state["maestro"] == state["first_maestro"] == seat
        assert T.view(state, None)["maestro"] == seat


def test_R2_random_first_maestro_is_drawn_from_the_seed_and_covers_every_seat():
    seen = set()
    for seed in range(60):
        a = new(4, first_maestro="random", seed=seed)
        b = new(4, first_maestro="random", seed=seed)
        assert a == b
        seen.add(a["maestro"])
    assert seen == {0, 1, 2, 3}


@pytest.mark.parametrize("bad", [-1, 4, "1", 1.0, True, None, "dice"])
def test_R2_an_invalid_first_maestro_is_refused(bad):
    with pytest.raises(InvalidOptions) as info:
        T.new_game(4, {"first_maestro": bad}, 1)
    assert info.value.code == "invalid_first_maestro"


@pytest.mark.parametrize("n", [0, 1, 6, "3", 3.0, None])
def test_players_outside_2_to_5_are_refused(n):
    with pytest.raises(InvalidOptions) as info:
        T.new_game(n, None, 1)
    assert info.value.code == "invalid_players"


def test_unknown_options_and_bad_seeds_are_refused():
    with pytest.raises(InvalidOptions) as info:
        T.new_game(3, {"turbo": True}, 1)
    assert info.value.code == "unknown_option"
    with pytest.raises(InvalidOptions) as info:
        T.new_game(3, None, "1")
    assert info.value.code == "invalid_seed"


@pytest.mark.parametrize("options", [["x"], "abc", 3, [("first_maestro", 1)], True])
def test_options_that_are_not_an_object_are_refused(options):
    with pytest.raises(InvalidOptions) as info:
        T.new_game(3, options, 1)
    assert info.value.code == "invalid_options"


def test_the_seed_decides_the_deck():
    decks = {tuple(new(5, seed=s)["deck"]) for s in range(20)}
    assert len(decks) == 20
    assert new(5, seed=3) == new(5, seed=3)
    # with 5 players all 36 singers are used
    s = new(5)
    assert sorted(s["deck"] + s["table"]) == sorted(DEFAULT.ids)


# ---------------------------------------------------------------- R1: the catalogue

def test_R1_the_default_catalogue_is_the_shared_design_S01_to_S36():
    assert list(DEFAULT.ids) == [f"S{i:02d}" for i in range(1, 37)]
    if SHARED_CSV.exists():
        assert SHARED_CSV.read_text() == PACKAGED_CSV.read_text()
    with PACKAGED_CSV.open() as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        card = DEFAULT.cards[row["id"]]
        assert card["category"] == row["category"]
        assert card["sex"] == row["sex"]
        assert card["stars"] == int(row["stars"])
        assert card["favourite_role"] == (row["favourite_role"] or None)
    for cat in CATEGORIES:
        assert sum(1 for r in rows if r["category"] == cat) == 6
    assert {r["favourite_role"] for r in rows} <= {"", "turandot", "calaf", "liu"}


def test_R1_a_custom_catalogue_is_accepted_and_used():
    rows = plain_rows()
    for i, r in enumerate(rows):
        r["id"] = f"card-{i}"
        r["stars"] = 1 + (i % 3)
    state, _ = T.new_game(3, {"catalogue": rows}, 5)
    assert state["catalogue"] is not None
    assert set(state["deck"] + state["table"]) <= {r["id"] for r in rows}
    view = T.view(state, None)
    by_id = {r["id"]: r for r in rows}
    for slot in view["table"]:
        card = slot["card"]
        assert card["stars"] == by_id[card["id"]]["stars"]
    # the catalogue is stored as data in the state: the state is still plain JSON
    import json
    assert json.loads(json.dumps(state)) == state


def test_R1_two_singers_may_share_every_attribute_they_are_keyed_by_id():
    rows = plain_rows()
    for r in rows:
        r.update(stars=2, sex="male", favourite_role=None)
    state, _ = T.new_game(2, {"catalogue": rows}, 5)
    assert len(set(state["table"])) == 3


def test_R1_an_exported_catalogue_with_kind_singer_is_accepted():
    T.new_game(2, {"catalogue": default_rows()}, 5)


def test_R1_favourite_role_may_be_empty_string_or_null():
    rows = plain_rows()
    rows[0]["favourite_role"] = ""
    rows[1]["favourite_role"] = None
    del rows[2]["favourite_role"]
    T.new_game(2, {"catalogue": rows}, 5)


def _bad(mutate):
    rows = plain_rows()
    out = mutate(rows)
    return rows if out is None else out


BAD_CATALOGUES = {
    "not_a_list": lambda r: {"singers": r},
    "a_string": lambda r: "S01,S02",
    "35_singers": lambda r: r[:35],
    "37_singers": lambda r: r + [dict(r[0], id="S37")],
    "empty": lambda r: [],
    "row_not_object": lambda r: r[:35] + [["S36", "dark"]],
    "unknown_field": lambda r: r[0].update(colour="red"),
    "missing_id": lambda r: r[0].pop("id") and None,
    "empty_id": lambda r: r[0].update(id=""),
    "numeric_id": lambda r: r[0].update(id=1),
    "long_id": lambda r: r[0].update(id="x" * 33),
    "unprintable_id": lambda r: r[0].update(id="S\n01"),
    "duplicate_id": lambda r: r[1].update(id="S01"),
    "director_name_as_id": lambda r: r[0].update(id="neutral"),
    "unknown_category": lambda r: r[0].update(category="baroque"),
    "missing_category": lambda r: r[0].pop("category") and None,
    "seven_of_a_category": lambda r: r[6].update(category="professional"),
    "unknown_sex": lambda r: r[0].update(sex="other"),
    "missing_sex": lambda r: r[0].pop("sex") and None,
    "zero_stars": lambda r: r[0].update(stars=0),
    "four_stars": lambda r: r[0].update(stars=4),
    "string_stars": lambda r: r[0].update(stars="3"),
    "float_stars": lambda r: r[0].update(stars=2.0),
    "bool_stars": lambda r: r[0].update(stars=True),
    "missing_stars": lambda r: r[0].pop("stars") and None,
    "favourite_ping": lambda r: r[0].update(favourite_role="ping"),
    "favourite_pong": lambda r: r[0].update(favourite_role="pong"),
    "favourite_pang": lambda r: r[0].update(favourite_role="pang"),
    "favourite_unknown": lambda r: r[0].update(favourite_role="tosca"),
    "favourite_number": lambda r: r[0].update(favourite_role=1),
    "favourite_capitalised": lambda r: r[0].update(favourite_role="Turandot"),
    "favourite_false": lambda r: r[0].update(favourite_role=False),
    "favourite_zero": lambda r: r[0].update(favourite_role=0),
    "favourite_empty_list": lambda r: r[0].update(favourite_role=[]),
    "favourite_list": lambda r: r[0].update(favourite_role=["turandot"]),
    "kind_director": lambda r: r[0].update(kind="director"),
    "kind_number": lambda r: r[0].update(kind=1),
}


@pytest.mark.parametrize("name", sorted(BAD_CATALOGUES))
def test_R1_every_kind_of_bad_catalogue_is_refused_with_invalid_catalogue(name):
    catalogue = _bad(BAD_CATALOGUES[name])
    before = copy.deepcopy(catalogue)
    with pytest.raises(InvalidOptions) as info:
        T.new_game(3, {"catalogue": catalogue}, 1)
    assert info.value.code == "invalid_catalogue"
    assert info.value.kind == "illegal"
    assert info.value.message  # a clear, human error
    assert catalogue == before
