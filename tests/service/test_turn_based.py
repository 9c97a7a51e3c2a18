"""Turn-based tables: a time per move in hours and a time bank per seat (options bank_seconds,
bank_refill_seconds; docs/api.md). The clock is the test's: days pass without sleeping."""

from __future__ import annotations

import random

import pytest

from service_helpers import FakeClock, assert_problem, auth, random_move

HOUR = 3600
DAY = 24 * HOUR
OPTIONS = {"move_seconds": HOUR, "bank_seconds": DAY, "bank_refill_seconds": HOUR // 2}


def _game(client, ruleset: str, players: int, seed: int, options: dict) -> tuple[str, list]:
    created = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                             "seed": seed, "options": options})
    assert created.status_code == 201, created.get_data(as_text=True)
    gid = created.get_json()["game"]["id"]
    tokens = [client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).get_json()["token"]
              for i in range(players)]
    return gid, tokens


def _expected_bank(bank: float, start: float, now: float, own: bool) -> float:
    """The documented rule, worked out apart from the engine: the move's hour is free, what is
    beyond it comes out of the bank, and a move of the seat's own gives back the refill, never
    above the full bank."""
    left = max(0.0, bank - max(0.0, now - start - HOUR))
    return min(float(DAY), left + HOUR // 2) if own else left


@pytest.mark.parametrize("ruleset, players, seed", [("turandot", 3, 5), ("muzicando", 3, 3)])
def test_a_turn_based_game_plays_to_its_end_drawing_and_refilling_banks(
        app_factory, ruleset, players, seed):
    clock = FakeClock()
    client = app_factory(clock=clock).test_client()
    options = dict(OPTIONS, **({"hands": 3, "mode": "individual"} if ruleset == "muzicando"
                               else {}))
    gid, tokens = _game(client, ruleset, players, seed, options)
    rng = random.Random(seed)
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["bank_seconds"] == DAY and view["bank_refill_seconds"] == HOUR // 2
    assert view["banks"] == [DAY] * players
    timed_out = moved = drawn = 0
    for _ in range(2000):
        if view["status"] == "finished":
            break
        pending = view["pending"]
        banks = view["banks"]
        # each pending seat's turn began at its deadline less its hour and its bank
        start = {p["seat"]: p["deadline"] - HOUR - banks[p["seat"]] for p in pending}
        for p in pending:
            assert p["deadline"] == pytest.approx(start[p["seat"]] + HOUR + banks[p["seat"]])
        first = min(p["deadline"] for p in pending)
        if rng.random() < 0.25:  # nobody moves: the earliest deadline passes, days perhaps
            clock.advance(first - clock.now + 1)
            late = {p["seat"] for p in pending if p["deadline"] <= clock.now}
            resolved = client.post(f"/v1/games/{gid}/resolve", headers=auth(tokens[0]))
            assert resolved.status_code == 200, resolved.get_data(as_text=True)
            after = client.get(f"/v1/games/{gid}").get_json()
            for s in late:  # a bank that ran out: its default, no refill
                assert after["banks"][s] == 0.0, (s, after["banks"])
            timed_out += len(late)
        else:  # one pending seat moves, perhaps beyond its hour
            seat = rng.choice(pending)["seat"]
            clock.advance(min(rng.uniform(0, 3 * HOUR), first - clock.now - 1))
            actions = client.get(f"/v1/games/{gid}/actions",
                                 headers=auth(tokens[seat])).get_json()
            # Turandot's moves drawn at random; Muzicando's the default (any legal move will do)
            move = random_move(actions, rng) if ruleset == "turandot" else actions["default"]
            done = client.post(f"/v1/games/{gid}/moves", json=move, headers=auth(tokens[seat]))
            assert done.status_code in (200, 201), done.get_data(as_text=True)
            after = client.get(f"/v1/games/{gid}").get_json()
            still = {p["seat"]: p for p in after["pending"]}
            if seat not in still or still[seat]["deadline"] != pending_deadline(pending, seat):
                want = _expected_bank(banks[seat], start[seat], clock.now, own=True)
                assert after["banks"][seat] == pytest.approx(want), (seat, banks, after["banks"])
                drawn += want < banks[seat] + HOUR // 2 - 1e-6
            moved += 1
        view = after
    assert view["status"] == "finished"
    assert moved and timed_out and drawn, (moved, timed_out, drawn)  # each rule was exercised


def pending_deadline(pending: list[dict], seat: int) -> float | None:
    return next((p["deadline"] for p in pending if p["seat"] == seat), None)


def test_time_bank_options_are_checked_and_word_jam_stays_real_time(client):
    refused = client.post("/v1/games", json={
        "ruleset": "wordjam", "players": 5, "options": {"bank_seconds": DAY}})
    body = assert_problem(refused, 422, "unknown_option")
    assert "real time" in body["detail"]
    for options, code in [({"bank_seconds": DAY}, "invalid_bank_seconds"),
                          ({"move_seconds": HOUR, "bank_refill_seconds": 60},
                           "invalid_bank_refill_seconds"),
                          ({"move_seconds": HOUR, "bank_seconds": 0}, "invalid_bank_seconds"),
                          ({"move_seconds": HOUR, "bank_seconds": 15 * DAY},
                           "invalid_bank_seconds"),
                          ({"move_seconds": HOUR, "bank_seconds": DAY,
                            "bank_refill_seconds": "1h"}, "invalid_bank_refill_seconds")]:
        resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 3,
                                              "options": options})
        assert_problem(resp, 422, code)
    listed = client.get("/v1/games?status=open").get_json()
    assert listed["games"] == []  # nothing was created by the refusals


def test_a_game_without_a_bank_shows_none(client, make_game):
    game = make_game(players=3, move_seconds=60)
    view = client.get(game.url).get_json()
    assert "banks" not in view and "bank_seconds" not in view


def test_a_turn_based_game_is_never_taken_for_abandoned_while_a_deadline_is_ahead(app_factory):
    """A week without a move abandons a game without deadlines; a turn-based game's deadlines
    move it on themselves, days apart perhaps: it is left to them."""
    from impresario_engine.usecases.upkeep import abandon_game

    clock = FakeClock()
    app = app_factory(clock=clock)
    client = app.test_client()
    engine = app.extensions["impresario"]
    gid, _ = _game(client, "turandot", 3, 8, {"move_seconds": DAY, "bank_seconds": 14 * DAY})
    clock.advance(engine.config.abandon_after + 1)
    assert abandon_game(engine, gid) is False
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["status"] == "playing" and "abandoned" not in view
    assert all(p["deadline"] > clock.now for p in view["pending"])
