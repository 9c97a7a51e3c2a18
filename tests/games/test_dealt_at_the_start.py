"""Nothing hidden exists before a game starts (all rulesets).

A game is set up when it is created (``Ruleset.setup``: the options, the generator, a random
first seat) and dealt when its last seat is taken (``Ruleset.deal``, ``record.start``): until
then no hand, deck order, consonant or Style card has been drawn, so no seat can read one, give
its seat back, and let the next player sit down with cards someone has already seen.
"""

from __future__ import annotations

import pytest

from impresario_rules import RULESETS
from service_helpers import auth

from .games_helpers import get_json, truth

#: (ruleset, players, options) of each table tried
TABLES = [("turandot", 3, {}), ("turandot", 2, {}), ("wordjam", 5, {}),
          ("muzicando", 3, {}), ("muzicando", 4, {})]
#: the events of a game before its start: its seats
SEATING = {"seat_taken", "seat_left", "seat_held"}


def _join(client, url: str, name: str) -> dict:
    resp = client.post(f"{url}/seats", json={"name": name})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()


def test_a_stranger_who_takes_muzicando_seats_and_gives_them_back_has_read_no_hand(client):
    """The finding: in a public 3-player game a stranger takes two seats without a token,
    reads what the join answers and the feed show the seats, and gives both seats back; the
    players who then sit there must hold cards the stranger never saw."""
    created = client.post("/v1/games", json={"ruleset": "muzicando", "players": 3}).get_json()
    url = f"/v1/games/{created['game']['id']}"
    peeked: list = []
    stranger = [_join(client, url, name) for name in ("Mallory", "Trudy")]
    for taken in stranger:
        peeked.append(taken["game"]["you"]["hand"])
        headers = auth(taken["token"])
        peeked.append(get_json(client, url, taken["token"])["you"]["hand"])
        feed = client.get(f"{url}/events?after=0", headers=headers).get_json()["events"]
        assert {e["type"] for e in feed} <= SEATING, feed
        peeked.extend(e.get("cards") for e in feed)
    assert all(not hand for hand in peeked), f"a seat read cards before the start: {peeked}"
    for taken in stranger:
        gone = client.delete(f"{url}/seats/{taken['seat']}", headers=auth(taken["token"]))
        assert gone.status_code == 200, gone.get_data(as_text=True)
    players = [_join(client, url, name) for name in ("Anna", "Bruno", "Carla")]
    hands = [get_json(client, url, p["token"])["you"]["hand"] for p in players]
    assert all(len(hand) == 7 for hand in hands), "dealt once the third seat was taken"


@pytest.mark.parametrize("ruleset,players,options", TABLES,
                         ids=[f"{r}-{n}" for r, n, _ in TABLES])
def test_no_seat_sees_anything_drawn_before_the_game_starts(client, redis_client, ruleset,
                                                            players, options):
    """Seat by seat until the last: each seat's view is the spectator's view and its own
    ``you``, the same as any other seat's before the start; the feed holds only the seating;
    the stored state has drawn nothing (its phase is ``setup``). The last seat deals."""
    created = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                             "options": options}).get_json()
    gid = created["game"]["id"]
    url = f"/v1/games/{gid}"
    assert created["game"]["phase"] == "setup" and created["game"]["pending"] == []
    tokens = []
    for seat in range(players - 1):
        tokens.append(_join(client, url, f"P{seat}")["token"])
        spectator = get_json(client, url)
        yous = []
        for token in tokens:
            view = get_json(client, url, token)
            yous.append({k: v for k, v in view.pop("you").items() if k != "seat"})
            assert view == spectator
            feed = client.get(f"{url}/events?after=0", headers=auth(token)).get_json()
            assert {e["type"] for e in feed["events"]} <= SEATING
        assert all(you == yous[0] for you in yous), "every seat holds the same before the deal"
        _, doc = truth(redis_client, gid)
        assert doc["status"] == "open" and doc["state"]["phase"] == "setup"
    tokens.append(_join(client, url, "Last")["token"])
    view = get_json(client, url, tokens[0])
    assert view["status"] == "playing" and view["phase"] != "setup" and view["pending"]
    feed = client.get(f"{url}/events?after=0", headers=auth(tokens[0])).get_json()["events"]
    types = [e["type"] for e in feed]
    started = types.index("game_started")
    assert set(types[:started]) <= SEATING and len(types) > started + 1, types


@pytest.mark.parametrize("ruleset,players,options", TABLES,
                         ids=[f"{r}-{n}" for r, n, _ in TABLES])
def test_a_setup_draws_nothing_and_the_deal_keeps_the_seeded_game(ruleset, players, options):
    """Two seeds give set-up games that differ only in their generators: nothing was drawn
    (``first_*`` left at seat 0). Setting up then dealing is the game ``new_game`` makes, so a
    seed gives the same game whenever its table fills."""
    rules = RULESETS[ruleset]
    one, events = rules.setup(players, dict(options), 1)
    two, _ = rules.setup(players, dict(options), 2)
    assert events == [] and one["phase"] == "setup" and rules.pending(one) == {}
    assert {k: v for k, v in one.items() if k != "rng"} == {
        k: v for k, v in two.items() if k != "rng"}
    assert not rules.is_dealt(one)
    for seed in (1, 2, 77):
        state, setup_events = rules.setup(players, dict(options), seed)
        dealt, dealt_events = rules.deal(state)
        assert rules.is_dealt(dealt)
        assert (dealt, setup_events + dealt_events) == rules.new_game(players, dict(options),
                                                                      seed)


def test_a_word_is_checked_only_once_the_consonants_are_dealt(client):
    created = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5}).get_json()
    url = f"/v1/games/{created['game']['id']}"
    resp = client.post(f"{url}/word-check", json={"word": "pinguino"})
    assert resp.status_code == 409 and resp.get_json()["code"] == "game_not_started"
