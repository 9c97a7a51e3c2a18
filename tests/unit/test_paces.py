"""Each ruleset's paces (option pace; docs/rules.md "Paces"): every pace of PACES, slowest
first, each setting only options the game has, within their ranges, and relaxed leaving a
newcomer more time than normal, normal more than fast."""

from __future__ import annotations

import pytest

from impresario_rules import PACE_AGAINST_BOTS, PACES, RULESETS

#: the service's own timing options a pace may set (the engine's table/clock.py)
SERVICE = {"bot_seconds", "move_seconds"}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_offers_every_pace_with_options_it_has(name):
    ruleset = RULESETS[name]
    assert tuple(ruleset.paces) == PACES
    options = set(ruleset.declarations.options.fields) | {"bot_seconds"}
    if ruleset.move_seconds:
        options.add("move_seconds")
    for pace, values in ruleset.paces.items():
        assert set(values) <= options, (pace, set(values) - options)
        assert all(type(v) is int and v >= 0 for v in values.values()), pace
        rules_part = {k: v for k, v in values.items() if k not in SERVICE}
        ruleset.setup(ruleset.min_players, rules_part, 1)  # options the rules accept
    for slower, faster in zip(PACES, PACES[1:]):
        slow, fast = ruleset.paces[slower], ruleset.paces[faster]
        assert set(slow) == set(fast)
        assert all(slow[k] >= fast[k] for k in slow), (slower, faster)


def test_a_game_against_bots_is_relaxed():
    assert PACE_AGAINST_BOTS == "relaxed" and PACE_AGAINST_BOTS in PACES


def test_a_relaxed_word_jam_leaves_every_window_over_20_seconds_and_bots_slow_to_call():
    relaxed = RULESETS["wordjam"].paces["relaxed"]
    windows = {k: v for k, v in relaxed.items() if k != "bot_seconds"}
    assert len(windows) == 5 and min(windows.values()) >= 30
    # a bot's think time is drawn from a fifth of its cap up to the cap (table/clock.py)
    assert relaxed["bot_seconds"] * 0.2 >= 10
