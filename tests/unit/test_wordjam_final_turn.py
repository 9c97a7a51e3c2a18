"""Turn 8 (secret sides, one call, a single round), R13, and the extra turns for ties (R7)."""

from __future__ import annotations

import copy

from impresario_rules.wordjam import WORDJAM as WJ
from impresario_rules.wordjam.rules import CHALLENGE, OVER, SIDES, THINK, WINDOW

from wordjam_helpers import (NO_CALL, PASS, bet, call, play, refused, side, stand, table,
                             word)

ALICE, BRUNO, CARLA, DARIO, ERICA, FABIO, GIOIA = range(7)
TRUST, THIEVES = "ali_baba", "thieves"


def final_turn():
    """Worked example 3: Imaginary characters, coins K=1, H=2, N=3, S=3 (B forbidden)."""
    return table(7, turn=8, coins=("K", "H", "N", "S"), forbidden="B",
                 style="imaginary_characters")


def with_history(state, totals):
    """``state`` as if earlier turns had given these totals (one record per seat)."""
    s = copy.deepcopy(state)
    s["history"] = [{"turn": 1, "extra_turn": 0, "column": 1, "red": 2, "yellow": 1,
                     "called": True, "style": "animals", "ali_baba": 0, "word": "x", "value": 0,
                     "chief_thief": None, "bets": None, "sides": None, "declarations": [],
                     "awards": [{"seat": seat, "colour": "red", "points": t, "role": "ali_baba"}
                                for seat, t in enumerate(totals) if t]}]
    return s


class TestWorkedExampleFinalTurn:
    def test_dario_scores_6_and_gioia_4(self):
        state = final_turn()
        assert state["phase"] == SIDES and set(WJ.pending(state)) == set(range(7))
        sides = {BRUNO: THIEVES, GIOIA: THIEVES}
        state, _ = play(state, *[(s, side(sides.get(s, TRUST))) for s in range(7)])
        assert state["phase"] == THINK
        state, ev = play(state, (GIOIA, call("SHERLOCK HOLMES")))
        assert state["ali_word"]["value"] == 11
        state, _ = stand(state)
        assert state["phase"] == WINDOW and state["thieves"] == [0, 1, 2, 3, 4, 5]
        state, _ = play(state, (ALICE, word("ARSÈNE LUPIN")), (BRUNO, word("Tarzan")),
                        (CARLA, PASS), (DARIO, word("FRANKENSTEIN")), (ERICA, word("Pinocchio")),
                        (FABIO, word("Peter Pan")))
        # Gioia's word is counted first on her side; Alice's 9 counts (first on hers)
        assert state["best"]["thieves"]["seat"] == GIOIA
        assert state["phase"] == CHALLENGE and state["challenge"]["seat"] == ALICE
        state, _ = stand(state)
        assert state["challenge"]["seat"] == DARIO and state["challenge"]["value"] == 13
        state, ev = stand(state)
        assert state["phase"] == OVER
        record = state["history"][-1]
        assert {a["seat"]: a["points"] for a in record["awards"]} == {DARIO: 6, GIOIA: 4}
        outcomes = {d["seat"]: d["outcome"] for d in record["declarations"]}
        assert outcomes == {GIOIA: "counted", ALICE: "counted", BRUNO: "not_counted",
                            CARLA: "pass", DARIO: "counted", ERICA: "not_counted",
                            FABIO: "not_counted"}
        # words that did not count were never said: they stay secret and unused
        public = str(WJ.view(state, None)) + str([e for e in ev if "_private" not in e])
        assert "Tarzan" not in public and "Pinocchio" not in public
        assert WJ.score(state)["winners"] == [DARIO]

    def test_sides_stay_secret_until_the_window_closes(self):
        state = final_turn()
        state, ev = play(state, (BRUNO, side(THIEVES)))
        assert WJ.view(state, BRUNO)["you"]["side"] == THIEVES
        for viewer in (None, ALICE):
            assert "thieves" not in str(WJ.view(state, viewer)["sides"])
        assert ev[0].keys() == {"type", "seat", "_private"}
        refused(state, BRUNO, side(TRUST), "side_already_chosen", "not_now")
        assert WJ.default_action(state, ALICE) == side(TRUST)
        refused(state, ALICE, call("Zorro"), "not_thinking_phase", "not_now")

    def test_strictly_more_than_the_same_sides_best(self):
        state = final_turn()
        state, _ = play(state, *[(s, side(TRUST)) for s in range(7)])
        state, _ = play(state, (ALICE, call("Tarzan")))  # N: 3
        state, _ = stand(state)
        state, _ = play(state, (BRUNO, word("Nemo")), (CARLA, word("Zorro")),  # 3 and 0
                        (DARIO, PASS), (ERICA, PASS), (FABIO, PASS), (GIOIA, PASS))
        assert state["phase"] == OVER
        assert {a["seat"]: a["points"] for a in state["history"][-1]["awards"]} == {ALICE: 6}


class TestNobodyCallsInTurn8R13:
    def test_turn_8_scores_nothing(self):
        state = with_history(final_turn(), [5, 2, 0, 0, 0, 0, 0])
        state, _ = play(state, *[(s, side(TRUST)) for s in range(7)])
        state, _ = play(state, *[(s, NO_CALL) for s in range(7)])
        assert state["history"][-1]["awards"] == [] and state["phase"] == OVER


class TestExtraTurnsR7:
    def tied(self):
        state = with_history(table(5, turn=8, style="animals"), [7, 7, 3, 0, 0])
        state, _ = play(state, *[(s, side(TRUST)) for s in range(5)])
        state, ev = play(state, *[(s, NO_CALL) for s in range(5)])
        assert any(e["type"] == "extra_turn" for e in ev)
        return state

    def test_the_tied_players_play_an_extra_turn_with_the_last_column(self):
        state = self.tied()
        assert state["extra"] == 1 and state["participants"] == [0, 1]
        assert state["phase"] == THINK and set(WJ.pending(state)) == {0, 1}
        view = WJ.view(state, 2)
        assert view["players"][2]["sitting_out"] is True and view["cave"]["column"] == 8
        refused(state, 2, call("pinguino"), "sitting_out", "not_now")
        state, _ = play(state, (0, {"type": "open_sesame", "word": state_word(state)}))
        # the others sit out but still take part in the challenge window
        assert set(WJ.pending(state)) == {1, 2, 3, 4}
        state, _ = stand(state)
        assert set(WJ.pending(state)) == {1}
        refused(state, 3, bet(TRUST), "sitting_out", "not_now")
        state, _ = play(state, (1, bet(TRUST)))
        assert state["phase"] == OVER
        assert WJ.score(state)["winners"] == [0]
        assert WJ.score(state)["players"][0]["lines"]["extra_1"] == 6
        assert WJ.score(state)["players"][1]["lines"]["extra_1"] == 4

    def test_at_most_three_extra_turns_then_the_victory_is_shared(self):
        state = self.tied()
        for _ in range(3):
            assert state["phase"] == THINK
            state, _ = play(state, (0, NO_CALL), (1, NO_CALL))
        assert state["phase"] == OVER
        score = WJ.score(state)
        assert score["winners"] == [0, 1] and score["shared"] is True
        assert score["extra_turns"] == 3
        themes = state["styles_used"] + [state["style"]]
        assert len(themes) == len(set(themes)) == 4  # turn 8, then a new theme each extra turn


def state_word(state):
    """A word valid for this turn's consonants (the themes are the players' call)."""
    for w in ("aaaa", "eee", "ooo"):
        if WJ.check_word(state, w)["valid"]:
            return w
    raise AssertionError
