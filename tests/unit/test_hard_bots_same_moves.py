"""The three ``hard`` bots share one search (``impresario_rules.search``); they make exactly
the moves they made before it was shared, drawing exactly as much of their random stream.
Seeded bots' moves feed seeded replays and ``docs/bots-report.md``'s figures, so a change to
the search that changes a move must be deliberate: these moves and random streams were
recorded from the bots as they were, at decision points of seeded games, unbudgeted and with
a think budget by a fake clock.

To record them afresh (only for a deliberate change of the bots' play)::

    .venv/bin/python tests/unit/test_hard_bots_same_moves.py
"""

from __future__ import annotations

import hashlib
import importlib
import random

import pytest

from impresario_rules import RULESETS
from impresario_rules.base import BotRandom

#: per ruleset: players, options, seed, the decision points to take (one in ``every`` of the
#: game's moves) and the kinds of decision the search weighs
GAMES = {
    "turandot": (4, None, 11, 12, 4, ("bid", "assign_office")),
    "wordjam": (5, {"language": "en"}, 12, 6, 3,
                ("open_sesame", "bet", "choose_side", "thief_word")),
    "muzicando": (4, {"hands": 4}, 13, 6, 5,
                  ("auction_bid", "auction_pass", "choose_layout", "place", "pass")),
}

#: kinds of decision taken wherever they come (they come seldom)
RARE = ("assign_office", "choose_side", "choose_layout")


class FakeClock:
    """A clock each reading of which is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.step, self.readings = step, 0

    def __call__(self) -> float:
        self.readings += 1
        return self.readings * self.step


def decision_points(name: str):
    """``(view, actions)`` at decision points of a seeded game of ``medium`` bots where the
    ``hard`` bot searches (and one where it does not)."""
    rules = RULESETS[name]
    players, options, seed, points, every, searched = GAMES[name]
    state, _ = rules.new_game(players, options, seed)
    step = taken = 0
    other = False
    while not rules.is_finished(state) and taken < points:
        seat = min(rules.pending(state))
        actions = rules.seat_actions(state, seat)
        kind = actions["moves"][0]["type"] if actions["moves"] else None
        if (step % every == 0 or kind in RARE) and (kind in searched or not other):
            other = other or kind not in searched
            taken += 1
            yield rules.view(state, seat), actions
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat, "medium",
                                                             BotRandom("same", step)))
        step += 1


def _digest(rng: random.Random) -> str:
    return hashlib.sha256(repr(rng.getstate()).encode()).hexdigest()[:16]


def decisions(name: str) -> list[tuple]:
    """At each decision point: the move, the random stream after it and (budgeted) the clock's
    readings; once unbudgeted, once with a budget that stops the search early."""
    search = importlib.import_module(f"impresario_rules.{name}.search")
    out = []
    for i, (view, actions) in enumerate(decision_points(name)):
        rng = random.Random(i) if i % 2 else BotRandom("pinned", i)
        out.append((search.hard(view, actions, rng), _digest(rng)))
        rng = random.Random(100 + i)
        clock = FakeClock(0.04)
        move = search.hard_with(100, clock)(view, actions, rng)
        out.append((move, _digest(rng), clock.readings))
    return out


#: recorded from the bots before their search was shared
PINNED: dict[str, list[tuple]] = {}
PINNED['turandot'] = [({'type': 'bid', 'slot': 5, 'money': 0, 'bluff': True}, '2fffc227059df636'),
 ({'type': 'bid', 'slot': 1, 'money': 0, 'bluff': True}, 'dde6170ec1d4f59d', 3),
 ({'type': 'nominate', 'seat': 1}, 'b55f01246d4598a8'),
 ({'type': 'nominate', 'seat': 1}, 'e1314f4e985ce01d', 0),
 ({'type': 'bid', 'slot': 1, 'money': 0, 'bluff': True}, '5b4ee64e9966fca9'),
 ({'type': 'bid', 'slot': 1, 'money': 0, 'bluff': True}, '2bc07d15c1105e5c', 3),
 ({'type': 'bid', 'slot': 4, 'money': 1, 'bluff': True}, '86fbdaafa78121c1'),
 ({'type': 'bid', 'slot': 4, 'money': 1, 'bluff': False}, '25c3fa9e1d25c035', 3),
 ({'type': 'bid', 'slot': 2, 'money': 0, 'bluff': False}, 'a6cf1bbf64ef5bae'),
 ({'type': 'bid', 'slot': 2, 'money': 0, 'bluff': True}, 'f01135a2fc57e3c4', 3),
 ({'type': 'bid', 'slot': 5, 'money': 1, 'bluff': True}, 'af63f7cece12214a'),
 ({'type': 'bid', 'slot': 5, 'money': 1, 'bluff': True}, 'b28e6fe9b0189426', 3),
 ({'type': 'assign_office', 'assignments': [{'seat': 1, 'slot': 1}, {'seat': 3, 'slot': 3}]},
  'bfb2a9b762d35ba9'),
 ({'type': 'assign_office', 'assignments': [{'seat': 1, 'slot': 1}, {'seat': 3, 'slot': 3}]},
  '7c8402f38a587653',
  2),
 ({'type': 'bid', 'slot': 1, 'money': 0, 'bluff': False}, 'ea8d13e4415e9fb1'),
 ({'type': 'bid', 'slot': 1, 'money': 0, 'bluff': False}, 'd71b62049f32ec98', 3),
 ({'type': 'bid', 'slot': 3, 'money': 3, 'bluff': False}, 'eddcd2a593dd19aa'),
 ({'type': 'bid', 'slot': 3, 'money': 0, 'bluff': False}, 'e262e3793bb04c95', 3),
 ({'type': 'assign_office', 'assignments': [{'seat': 3, 'slot': 1}, {'seat': 1, 'slot': 2}]},
  '52da59aa828d8eb8'),
 ({'type': 'assign_office', 'assignments': [{'seat': 3, 'slot': 1}, {'seat': 1, 'slot': 2}]},
  '592e02f67a0a99d1',
  2)]
PINNED['wordjam'] = [({'type': 'open_sesame', 'word': 'mosquito'}, '916806ea68c0ca16'),
 ({'type': 'open_sesame', 'word': 'moose'}, '50bde17d46937431', 3),
 ({'type': 'no_challenge', 'word_id': 1}, 'b55f01246d4598a8'),
 ({'type': 'no_challenge', 'word_id': 1}, 'e1314f4e985ce01d', 0),
 ({'type': 'bet', 'side': 'thieves'}, '36f9b440dd1614f6'),
 ({'type': 'bet', 'side': 'thieves'}, 'f84152979eb141bd', 3),
 ({'type': 'open_sesame', 'word': 'mirror'}, 'cdd526e9200a16eb'),
 ({'type': 'open_sesame', 'word': 'mirror'}, '371822519ddea25d', 3),
 ({'type': 'bet', 'side': 'thieves'}, '5dea44e7d47b8452'),
 ({'type': 'bet', 'side': 'thieves'}, '4e3fea378a18b89a', 3),
 ({'type': 'thief_pass'}, '194df3e255cb9f48'),
 ({'type': 'thief_pass'}, '045906318523a67a', 1)]
PINNED['muzicando'] = [({'type': 'auction_bid', 'contract': '1S'}, '33ca684174d93549'),
 ({'type': 'auction_bid', 'contract': '1S'}, '538894dbef387ef1', 3),
 ({'type': 'auction_bid', 'contract': '2M'}, '5362c87a1cf8fce7'),
 ({'type': 'auction_bid', 'contract': '3S'}, '07037808313685b3', 3),
 ({'type': 'place', 'card': 'indigo-6', 'x': 0, 'y': 0}, '48e8f04682c73437'),
 ({'type': 'place', 'card': 'blue-5', 'x': 0, 'y': 0}, '3a0c53d4194a89e2', 3),
 ({'type': 'place', 'card': 'red-2', 'x': -3, 'y': 0}, '98ba6cb816219f20'),
 ({'type': 'place', 'card': 'violet-7', 'x': -2, 'y': -1}, 'dd95c23161b8f88d', 3),
 ({'type': 'place', 'card': 'blue-2', 'x': 4, 'y': 0}, '2a94174cee1197df'),
 ({'type': 'place', 'card': 'blue-2', 'x': 4, 'y': 0}, '38de7feddf958332', 3),
 ({'type': 'place', 'card': 'orange-6', 'x': -1, 'y': -1}, 'c5851872a1615ba2'),
 ({'type': 'place', 'card': 'red-5', 'x': -4, 'y': -2}, '569d90347e6831b3', 3)]


@pytest.mark.parametrize("name", ["turandot", "wordjam", "muzicando"])
def test_the_hard_bots_make_the_moves_they_made(name):
    assert decisions(name) == PINNED[name]


if __name__ == "__main__":  # pragma: no cover - records PINNED afresh
    import pprint
    for ruleset in GAMES:
        print(f"PINNED[{ruleset!r}] = ", end="")
        pprint.pprint(decisions(ruleset), width=100, sort_dicts=False)
