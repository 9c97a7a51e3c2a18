"""Turns 1–7 as the rulebook tells them, one scenario per rule and ruling (R1–R12)."""

from __future__ import annotations

import copy

import pytest

from impresario_rules.base import InvalidOptions
from impresario_rules.wordjam import WORDJAM as WJ
from impresario_rules.wordjam.rules import BETS, CHALLENGE, THINK, VOTE, WINDOW

from wordjam_helpers import (NO_CALL, PASS, awards, bet, call, play, refused, stand, table,
                             votes, word)

ALICE, BRUNO, CARLA, DARIO, ERICA, FABIO = range(6)
TRUST, THIEVES = "ali_baba", "thieves"


def cinema():
    """Worked example 2: Cinema, coins S=1, D=2, G=3, R=3, V forbidden, turn 6."""
    return table(6, turn=6, coins=("S", "D", "G", "R"), forbidden="V", style="cinema")


class TestWorkedExampleCinema:
    def test_fabio_becomes_chief_thief(self):
        state = cinema()
        state, ev = play(state, (ALICE, call("GODARD")))
        assert state["ali_word"]["value"] == 10 and state["phase"] == CHALLENGE
        state, _ = stand(state)
        assert state["phase"] == BETS
        state, ev = play(state, (BRUNO, bet(THIEVES)), (CARLA, bet(THIEVES)),
                         (DARIO, bet(TRUST)), (ERICA, bet(THIEVES)), (FABIO, bet(THIEVES)))
        revealed = next(e for e in ev if e["type"] == "bets_revealed")
        assert revealed["thieves"] == [BRUNO, CARLA, ERICA, FABIO]
        assert state["phase"] == WINDOW
        state, ev = play(state, (BRUNO, word("REDFORD")), (CARLA, PASS),
                         (ERICA, word("REDGRAVE")), (FABIO, word("SCHWARZENEGGER")))
        decls = {d["seat"]: d for d in state["declarations"]}
        assert decls[BRUNO]["value"] == 10 and decls[BRUNO]["outcome"] == "not_enough"
        assert decls[CARLA]["outcome"] == "pass"
        assert decls[ERICA]["outcome"] == "invalid"
        assert decls[ERICA]["reason"] == "forbidden_consonant"
        assert decls[FABIO]["value"] == 13 and decls[FABIO]["outcome"] == "pending"
        assert state["phase"] == CHALLENGE and state["challenge"]["seat"] == FABIO
        state, ev = stand(state)
        assert any(e["type"] == "chief_thief" and e["seat"] == FABIO for e in ev)
        assert awards(state, 6) == {FABIO: 5, BRUNO: 3, CARLA: 3, ERICA: 3}
        assert WJ.totals(state) == [0, 3, 3, 0, 3, 5]
        assert state["turn"] == 7 and state["phase"] == THINK

    def test_declarations_stop_at_the_chief_thief(self):
        """A thief after the Chief Thief never shows his word (it stays secret, not used)."""
        state = table(6, turn=6, coins=("S", "D", "G", "R"), forbidden="V", style="cinema")
        state, _ = play(state, (DARIO, call("GODARD")))
        state, _ = stand(state)
        state, _ = play(state, *[(s, bet(THIEVES)) for s in (ERICA, FABIO, ALICE, BRUNO, CARLA)])
        state, _ = play(state, (ERICA, word("SCHWARZENEGGER")), (FABIO, word("REDFORD")),
                        (ALICE, PASS), (BRUNO, PASS), (CARLA, PASS))
        assert [d["seat"] for d in state["declarations"]] == [ERICA]
        state, _ = stand(state)
        assert "REDFORD" not in state["used"]
        assert all(d["word"] != "REDFORD" for r in [WJ.view(state, None)]
                   for d in r["declarations"])


class TestOpenSesameRaceR3:
    def test_first_committed_call_wins_later_ones_are_refused_409(self):
        state = table(5)
        assert set(WJ.pending(state)) == set(range(5))
        assert all(k == ["open_sesame", "no_call"] for k in WJ.pending(state).values())
        state, _ = play(state, (3, call("pinguino")))
        err = refused(state, 1, call("gazzella"), "sesame_already_called", "not_now")
        assert err.details["ali_baba"] == 3
        assert state["ali"] == 3

    @pytest.mark.parametrize("w, code", [
        ("gorilla", "word_forbidden_consonant"),
        ("R2-D2", "word_invalid_characters"),
        ("  ", "word_empty"),
    ])
    def test_a_call_failing_the_engines_checks_does_not_make_ali_baba(self, w, code):
        state = table(5)
        refused(state, 2, call(w), code, "illegal")
        state, _ = play(state, (4, call("pinguino")))
        assert state["ali"] == 4

    def test_a_used_word_cannot_be_called(self):
        state = table(5)
        state["used"] = ["PINGUINO"]
        refused(state, 0, call("Pinguino"), "word_already_used")

    def test_theme_checks_on_a_call(self):
        state = table(5, style="eight_letters")
        refused(state, 0, call("gatto"), "word_not_eight_letters")
        assert play(state, (0, call("elefante")))[0]["ali"] == 0
        state = table(5, style="first_letter", coins=("T", "P", "N", "F"))
        refused(state, 0, call("pinguino"), "word_wrong_first_letter")
        assert play(state, (0, call("tavolo")))[0]["ali"] == 0


class TestThinkDeadlineR4:
    def test_nobody_calls_the_turn_scores_nothing_and_the_game_moves_on(self):
        state = table(5, turn=3)
        style = state["style"]
        assert WJ.turn_seconds(state, 0, None) == 120
        keys = {WJ.turn_key(state, s) for s in range(5)}
        assert len(keys) == 1  # one window for everyone
        for s in range(5):
            assert WJ.default_action(state, s) == NO_CALL
        state, ev = play(state, *[(s, NO_CALL) for s in range(5)])
        assert state["history"][-1]["called"] is False and state["history"][-1]["awards"] == []
        assert state["turn"] == 4 and style in state["styles_used"]
        assert WJ.view(state, None)["cave"]["column"] == 4

    def test_a_no_call_is_final_for_the_window_and_re_sending_it_changes_nothing(self):
        state, _ = play(table(5), (1, NO_CALL))
        assert 1 not in WJ.pending(state)
        assert WJ.apply(state, 1, NO_CALL)[0] is state
        refused(state, 1, call("pinguino"), "already_passed", "not_now")


class TestChallengesR2R6:
    def test_a_call_challenged_and_voted_down_is_void_thinking_resumes(self):
        state, _ = play(table(5), (2, call("pinguino")))
        wid = state["challenge"]["word_id"]
        refused(state, 2, {"type": "challenge", "word_id": wid}, "own_word")
        state, ev = play(state, (0, {"type": "challenge", "word_id": wid}))
        assert state["phase"] == VOTE and set(WJ.pending(state)) == set(range(5))  # author too
        state, ev = votes(state, [True, False, True, False, False])  # 2 in favour: void
        assert any(e["type"] == "call_voided" for e in ev)
        assert state["phase"] == THINK and state["ali"] is None and state["barred"] == [2]
        assert 2 not in WJ.pending(state)
        refused(state, 2, call("gazzella"), "call_barred")
        assert "PINGUINO" in state["used"]  # R9: it was revealed
        state, _ = play(state, (1, call("gazzella")))
        assert state["ali"] == 1

    def test_three_votes_in_favour_are_enough(self):
        state, _ = play(table(7), (2, call("pinguino")))
        state, _ = play(state, (5, {"type": "challenge", "word_id": state["challenge"]["word_id"]}))
        state, ev = votes(state, [True, False, True, False, False, False, True])
        assert next(e for e in ev if e["type"] == "vote_result")["stands"] is True
        assert state["phase"] == BETS and state["ali"] == 2

    def test_no_vote_counts_as_not_in_favour(self):
        state, _ = play(table(5), (2, call("pinguino")))
        state, _ = play(state, (0, {"type": "challenge", "word_id": state["challenge"]["word_id"]}))
        assert WJ.default_action(state, 3)["in_favour"] is False
        assert WJ.turn_seconds(state, 3, None) == 20

    def test_a_stale_challenge_is_refused(self):
        state, _ = play(table(5), (2, call("pinguino")))
        refused(state, 0, {"type": "challenge", "word_id": 99}, "stale_word_id", "stale")

    def test_a_challenged_would_be_chief_thief_is_skipped(self):
        state = cinema()
        state, _ = play(state, (ALICE, call("GODARD")))
        state, _ = stand(state)
        state, _ = play(state, *[(s, bet(THIEVES)) for s in (BRUNO, CARLA, DARIO, ERICA, FABIO)])
        state, _ = play(state, (BRUNO, word("SCHWARZENEGGER")), (CARLA, PASS), (DARIO, PASS),
                        (ERICA, word("FELLINI")), (FABIO, word("SPIELBERG")))
        # Bruno's 13 is challenged and voted down: the declarations go on
        state, _ = play(state, (ALICE, {"type": "challenge",
                                        "word_id": state["challenge"]["word_id"]}))
        state, _ = votes(state, [False, True, False, False, False, False])
        assert state["history"][-1]["declarations"][0]["outcome"] == "voided"
        # FELLINI: S=1 → 1, not enough; SPIELBERG: S1 G3 R3 = 7, not enough: Alice wins
        assert state["turn"] == 7
        assert awards(state, 6) == {ALICE: 5}


class TestBetsR12:
    def test_bets_are_sealed_and_default_to_trust(self):
        state, _ = play(table(5), (0, call("pinguino")))
        state, _ = stand(state)
        assert set(WJ.pending(state)) == {1, 2, 3, 4}
        assert WJ.default_action(state, 1) == bet(TRUST)
        assert WJ.turn_seconds(state, 1, None) == 15
        refused(state, 0, bet(TRUST), "ali_baba_does_not_bet", "not_now")
        state, _ = play(state, (1, bet(THIEVES)))
        assert WJ.apply(state, 1, bet(THIEVES))[0] is state
        refused(state, 1, bet(TRUST), "bet_already_placed", "not_now")
        for viewer in (None, 0, 2):
            assert "thieves" not in str(WJ.view(state, viewer)["bets"])
        assert WJ.view(state, 1)["you"]["bet"] == THIEVES

    def test_everyone_trusts_ali_baba_scores_red_and_followers_yellow(self):
        state, _ = play(table(5, turn=1), (0, call("pinguino")))
        state, _ = stand(state)
        state, _ = play(state, *[(s, bet(TRUST)) for s in (1, 2, 3, 4)])
        assert awards(state, 1) == {0: 2, 1: 1, 2: 1, 3: 1, 4: 1}

    def test_thieves_failing_ali_baba_scores_and_only_trusters_follow(self):
        state, _ = play(table(5, turn=2), (0, call("pinguino")))
        state, _ = stand(state)
        state, _ = play(state, (1, bet(TRUST)), (2, bet(THIEVES)), (3, bet(THIEVES)),
                        (4, bet(TRUST)))
        state, _ = play(state, (2, word("pinguino")), (3, word("gazzella")))
        d = {x["seat"]: x for x in state["history"][-1]["declarations"]}
        assert d[2]["reason"] == "already_used"  # R9: Alì Babà's word is used
        assert d[3]["outcome"] == "not_enough"
        assert awards(state, 2) == {0: 3, 1: 1, 4: 1}


class TestThievesWindowR5:
    def start(self):
        state, _ = play(table(6), (0, call("gazzella")))
        state, _ = stand(state)
        return play(state, (1, bet(THIEVES)), (2, bet(THIEVES)), (3, bet(TRUST)),
                    (4, bet(TRUST)), (5, bet(TRUST)))[0]

    def test_a_later_submission_replaces_an_earlier_one_and_keeps_the_deadline(self):
        state = self.start()
        assert state["phase"] == WINDOW and set(WJ.pending(state)) == {1, 2}
        assert WJ.turn_seconds(state, 1, None) == 20
        key = WJ.turn_key(state, 1)
        state, _ = play(state, (1, word("pinguino", final=False)))
        assert WJ.turn_key(state, 1) == key and 1 in WJ.pending(state)
        state, _ = play(state, (1, word("panda", final=False)))
        assert WJ.turn_key(state, 1) == key
        assert WJ.view(state, 1)["you"]["word"] == "panda"
        assert WJ.apply(state, 1, word("panda", final=False))[0] is state
        # the deadline closes the window with the latest word
        assert WJ.default_action(state, 1) == word("panda")
        assert WJ.default_action(state, 2) == PASS
        state, _ = play(state, (2, WJ.default_action(state, 2)), (1, WJ.default_action(state, 1)))
        assert state["declarations"][0]["word"] == "panda"  # seat 1 declares first (left of 0)
        assert state["phase"] == CHALLENGE  # 5 coins beat 0: the would-be Chief Thief

    def test_a_final_word_cannot_change(self):
        state = self.start()
        state, _ = play(state, (1, word("pinguino")))
        refused(state, 1, word("panda"), "already_finished", "not_now")
        refused(state, 3, word("panda"), "not_in_window", "not_now")

    def test_the_window_refuses_malformed_words_only(self):
        state = self.start()
        refused(state, 1, word("4x4"), "word_invalid_characters")
        state, _ = play(state, (1, word("gorilla", final=False)))  # forbidden R: declared invalid
        assert state["words"][1] == "gorilla"

    def test_declarations_start_at_ali_babas_left(self):
        state, _ = play(table(6), (3, call("gazzella")))
        state, _ = stand(state)
        state, _ = play(state, (0, bet(TRUST)), (1, bet(THIEVES)), (2, bet(TRUST)),
                        (4, bet(THIEVES)), (5, bet(TRUST)))
        state, _ = play(state, (1, word("pinguino")), (4, word("panda")))
        assert state["challenge"]["seat"] == 4  # 4 sits at 3's left: he declares first
        state, _ = stand(state)
        assert awards(state, 1) == {4: 2, 1: 1}


class TestCaveR1:
    def test_a_table_may_override_the_cave(self):
        cave = {"red": [10, 20, 30, 40, 50, 60, 70, 80], "yellow": [1, 2, 3, 4, 5, 6, 7, 8]}
        state = table(5, turn=3, cave=cave)
        state, _ = play(state, (0, call("pinguino")))
        state, _ = stand(state)
        state, _ = play(state, *[(s, bet(TRUST)) for s in (1, 2, 3, 4)])
        assert awards(state, 3) == {0: 30, 1: 3, 2: 3, 3: 3, 4: 3}

    @pytest.mark.parametrize("options, code", [
        ({"cave": {"red": [1] * 7, "yellow": [1] * 8}}, "invalid_cave"),
        ({"cave": [1, 2]}, "invalid_cave"),
        ({"think_seconds": 0}, "invalid_think_seconds"),
        ({"vote_seconds": True}, "invalid_vote_seconds"),
        ({"no_visible_objects": "yes"}, "invalid_no_visible_objects"),
        ({"language": "de"}, "invalid_language"),
        ({"language": None}, "invalid_language"),
        ({"move_seconds": 4}, "unknown_option"),
    ])
    def test_bad_options_are_refused_with_stable_codes(self, options, code):
        with pytest.raises(InvalidOptions) as info:
            WJ.new_game(5, options, 1)
        assert info.value.code == code

    @pytest.mark.parametrize("n", [4, 13, True])
    def test_five_to_twelve_players(self, n):
        with pytest.raises(InvalidOptions) as info:
            WJ.new_game(n, None, 1)
        assert info.value.code == "invalid_players"


class TestStylesR11:
    def test_visible_objects_can_be_left_out(self):
        state, _ = WJ.new_game(5, {"no_visible_objects": True}, 1)
        deck = state["styles"] + [state["style"]]
        assert len(deck) == 14 and "visible_objects" not in deck
        state, _ = WJ.new_game(5, None, 1)
        assert len(state["styles"]) + 1 == 15

    def test_a_theme_never_repeats_within_a_game(self):
        state, _ = WJ.new_game(5, None, 3)
        seen = [state["style"]]
        for _ in range(7):
            state, _ = play(state, *[(s, NO_CALL) for s in range(5)])
            seen.append(state["style"])
        assert len(set(seen)) == 8


class TestSecretsInViews:
    def test_the_deck_order_never_leaves_the_engine(self):
        state, events = WJ.new_game(6, None, 5)
        text = str(WJ.view(state, None)) + str(WJ.view(state, 2)) + str(events)
        assert str(state["styles"]) not in text
        assert WJ.view(state, None)["styles_left"] == 14

    def test_the_moves_never_mutate_the_state(self):
        state, _ = play(table(5), (0, call("pinguino")))
        before = copy.deepcopy(state)
        WJ.apply(state, 1, {"type": "no_challenge"})
        assert state == before
