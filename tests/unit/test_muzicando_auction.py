"""The auction of the team game (and of R11): contracts 1S … 4M, three passes after a bid, four
passes at the start, R7 refusals and the redeal."""

from __future__ import annotations

from impresario_rules.muzicando import MUZICANDO as M
from impresario_rules.muzicando.rules import CONTRACTS

from muzicando_helpers import NO, bid, new, play, refused, scenario, types

NO_OPENER = ["red-2", "red-3", "orange-3", "blue-7"]   # no Do, no oval
ALL = ["red-1", "orange-2", "yellow-2"]                # red Do is a Do and an oval


def auction(held=None, dealer=0):
    s = new(4, hands=1, first_dealer=dealer)
    return scenario(s, held=held or [list(ALL)] * 4)


def test_the_contracts_rank_from_1s_to_4m():
    assert CONTRACTS[:5] == ("1S", "1G", "1P", "1M", "2S") and CONTRACTS[-1] == "4M"
    assert len(CONTRACTS) == 16


def test_the_dealer_calls_first_and_three_passes_after_a_bid_end_the_auction():
    s = auction(dealer=2)
    assert M.pending(s) == {2: ["auction_bid", "auction_pass"]}
    s, events = play(s, [(2, bid("1G")), (3, NO), (0, NO), (1, NO)])
    assert events[-1] == {"type": "auction_won", "hand": 1, "seat": 2, "contract": "1G",
                          "level": 1, "layout": "G"}
    assert s["phase"] == "play" and s["declarer"] == 2 and s["turn"] == 2
    assert M.pending(s) == {2: ["place"]}              # the declarer opens
    view = M.view(s, 0)
    assert view["auction"]["calls"] == [{"seat": 2, "call": "1G"}, {"seat": 3, "call": "pass"},
                                        {"seat": 0, "call": "pass"}, {"seat": 1, "call": "pass"}]
    assert view["contract"] == "1G" and view["declarer"] == 2 and view["layout"] == "G"


def test_a_player_who_passed_may_bid_again_and_partners_may_overbid_each_other():
    s = auction()
    s, _ = play(s, [(0, NO), (1, bid("1S")), (2, NO), (3, bid("1P")), (0, NO), (1, bid("2S")),
                    (2, NO), (3, bid("2G"))])
    assert s["phase"] == "auction" and s["bid"] == [3, "2G"]
    s, _ = play(s, [(0, NO), (1, bid("3S")), (2, NO), (3, NO), (0, NO)])
    assert s["declarer"] == 1 and s["contract"] == "3S"


def test_two_passes_do_not_end_the_auction():
    s = auction()
    s, _ = play(s, [(0, bid("1S")), (1, NO), (2, NO)])
    assert s["phase"] == "auction" and s["turn"] == 3


def test_four_passes_at_the_start_oblige_the_dealer_to_bid():
    s = auction(dealer=1)
    s, events = play(s, [(1, NO), (2, NO), (3, NO), (0, NO)])
    assert events[-1] == {"type": "dealer_must_bid", "hand": 1, "seat": 1}
    assert M.pending(s) == {1: ["auction_bid"]}
    assert M.view(s, None)["auction"]["dealer_must_bid"] is True
    refused(s, 1, NO, "dealer_must_bid")
    assert M.default_action(s, 1) == bid("1S")
    s, _ = play(s, [(1, bid("1M")), (2, NO), (3, NO), (0, NO)])
    assert s["declarer"] == 1 and s["contract"] == "1M"


def test_refused_bids():
    s = auction(held=[list(ALL), list(NO_OPENER), ["blue-1"], ["yellow-3"]])
    refused(s, 1, bid("1S"), "not_your_turn", "not_now")
    refused(s, 0, bid("5S"), "unknown_contract")
    refused(s, 0, {"type": "auction_bid"}, "invalid_move")
    s, _ = play(s, [(0, bid("2P"))])
    refused(s, 1, bid("2G"), "bid_too_low")
    refused(s, 1, bid("2P"), "bid_too_low")
    # R7: a bid for a layout whose opening card the bidder does not hold
    err = refused(s, 1, bid("3G"), "cannot_open")
    assert "R7" in err.message
    assert M.action_space(s, 1) == [{"type": "auction_pass"}]
    s, _ = play(s, [(1, NO)])
    assert M.action_space(s, 2)[0]["contracts"] == ["2M", "3S", "3M", "4S", "4M"]
    refused(s, 2, bid("3P"), "cannot_open")
    s, _ = play(s, [(2, NO)])
    assert M.action_space(s, 3)[0]["contracts"] == ["3G", "3P", "4G", "4P"]


def test_r7_a_dealer_who_must_bid_and_can_open_nothing_means_a_redeal_by_the_next_dealer():
    s = auction(held=[list(NO_OPENER), list(ALL), list(ALL), list(ALL)])
    s, events = play(s, [(0, NO), (1, NO), (2, NO), (3, NO)])
    assert types(events)[4:6] == ["redeal", "hand_dealt"]
    assert s["dealer"] == 1 and s["hand"] == 1 and s["turn"] == 1 and s["calls"] == []
    assert sum(len(h) for h in s["held"]) == 56


def test_the_individual_game_with_the_auction_r11_deals_the_whole_deck():
    for n, each in ((4, 14), (8, 7)):
        s = new(n, mode="individual", auction=True)
        assert [len(h) for h in s["held"]] == [each] * n and s["pile"] == []
        assert s["phase"] == "auction" and s["turn"] == 0

def test_r11_with_8_players_uses_the_team_auction_as_written():
    """Three passes in a row after a bid end it; four passes at the start make the dealer
    bid, with 8 players as with 4 (not 7 passes, nor 8)."""
    s = scenario(new(8, mode="individual", auction=True), held=[list(ALL)] * 8)
    s, events = play(s, [(0, NO), (1, bid("1M")), (2, NO), (3, bid("3S")), (4, NO),
                         (5, bid("4S")), (6, NO), (7, NO), (0, NO)])
    assert s["phase"] == "play" and (s["declarer"], s["contract"], s["turn"]) == (5, "4S", 5)
    assert events[-1]["type"] == "auction_won"
    s = scenario(new(8, mode="individual", auction=True, first_dealer=6),
                 held=[list(ALL)] * 8)
    s, events = play(s, [(6, NO), (7, NO), (0, NO), (1, NO)])
    assert events[-1] == {"type": "dealer_must_bid", "hand": 1, "seat": 6}
    assert M.pending(s) == {6: ["auction_bid"]}
    refused(s, 6, NO, "dealer_must_bid")
