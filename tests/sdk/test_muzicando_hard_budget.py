"""The SDK gives Muzicando's ``hard`` bot its think budget, as Turandot's."""

from __future__ import annotations

from impresario.bots import HardBot, make_bot
from impresario_rules.bots import seat_actions
from impresario_rules.muzicando import MUZICANDO as ruleset


def test_the_sdk_gives_muzicandos_hard_its_think_budget():
    bot = make_bot("hard", seed=3, ruleset="muzicando", think_ms=50)
    assert isinstance(bot, HardBot) and bot.ruleset == "muzicando" and bot.think_ms == 50
    assert isinstance(make_bot("hard", seed=3, think_ms=50), HardBot)  # Turandot's, as before
    state, _ = ruleset.new_game(4, {"hands": 4}, 11)
    seat = min(ruleset.pending(state))
    move = bot.choose(ruleset.view(state, seat), seat_actions(ruleset, state, seat))
    assert move in ruleset.legal_actions(state, seat)
    # without a budget: the rules package's bot, reproducible from its seed
    plain = [make_bot("hard", seed=5, ruleset="muzicando").choose(
        ruleset.view(state, seat), seat_actions(ruleset, state, seat)) for _ in range(2)]
    assert plain[0] == plain[1]
