"""What each guard a table's promises added costs, in process, each on its own (``make bench``):

- **sealing**: sealing and opening the five credentials of a private game's create record
  (AES-256-GCM, a key derived with HKDF per record; ``table/sealing.py``), with a seal key of a
  file and without: what a create or join with an Idempotency-Key pays, and a retry.
- **lapse note**: noting a lapse that changed every seat's situation (a Word Jam think window
  closing on 12 seats; ``record.note_lapse``), and the late-move check every move without
  If-Match makes (``record.lapse_of``: nothing noted, as in the move mix, and a fresh note).
- **stream slot**: taking and giving back a stream's slot (``api.streams.Slots``), a seat's and
  a spectator's.
- **typed bots**: a seeded in-process Turandot game of three ``medium`` bots, as the rules play
  it (``impresario_rules.play.play_bots``, the baseline), through the SDK's
  ``play_game_in_process`` (each decision's actions checked and typed as ``models.Actions``),
  and with one seat a ``BaseBot`` whose hooks take every event (redacted for its seat and
  checked as a ``models.Event``): milliseconds per game and the ratio to the baseline.

Each is timed over enough calls to take a few hundred milliseconds, best of five, in
microseconds per call; ``python bench/features.py`` prints them.
"""

from __future__ import annotations

import time
from typing import Any, Callable


def _best(fn: Callable[[], Any], calls: int) -> float:
    """Microseconds per call of ``fn``: the best of five rounds of ``calls`` calls."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - started) / calls)
    return best * 1e6


def sealing(tmp: str) -> dict[str, float]:
    from impresario_engine.table.sealing import Sealer, new_key_line

    path = f"{tmp}/seal-keys"
    with open(path, "w") as fh:
        fh.write(new_key_line() + "\n")
    body = {"game": {"id": "abcdefghijkl"}, "host_token": "h" * 32, "spectator_token": "s" * 32,
            "join_token": "j" * 32, "spectator_link": "/v1/games/x?spectator=" + "s" * 32,
            "join_link": "/v1/games/x/seats?join=" + "j" * 32}
    out = {}
    for name, sealer in (("with_key_file", Sealer.from_file(path)), ("without", Sealer())):
        sealed = sealer.seal(body, "create", "a-key")
        out[f"seal_us_{name}"] = round(_best(lambda: sealer.seal(body, "create", "a-key"), 2000), 1)
        out[f"open_us_{name}"] = round(
            _best(lambda: sealer.unseal(dict(sealed), "create", "a-key"), 2000), 1)
    return out


def lapse_note() -> dict[str, float]:
    from impresario_engine.table.record import advance, lapse_of, note_lapse
    from impresario_rules import RULESETS

    rules = RULESETS["wordjam"]
    state, _ = rules.new_game(12, {"think_seconds": 1}, 3)
    before = {"ruleset": "wordjam", "players": 12, "status": "playing", "state": state,
              "seats": [{"name": f"P{s}", "token": "t", "bot": None} for s in range(12)],
              "settings": {}, "secret": "s", "moves": [], "since": {str(s): 0.0 for s in range(12)},
              "turn_keys": {str(s): rules.turn_key(state, s) for s in range(12)}}
    events: list = []
    after = advance(before, rules, events, 10.0)
    assert len(after["moves"]) == 12, "the think window closed on every seat"
    noted = note_lapse(before, after, rules, 10.0, 2.0)
    assert len(noted["lapse"]) == 12
    return {
        "note_us_12_seats": round(_best(lambda: note_lapse(before, after, rules, 10.0, 2.0), 300), 1),
        "check_us_nothing_noted": round(_best(lambda: lapse_of(before, 0, 10.5, 2.0), 200000), 3),
        "check_us_noted": round(_best(lambda: lapse_of(noted, 0, 10.5, 2.0), 200000), 3),
    }


def stream_slot() -> dict[str, float]:
    from impresario_engine.api.streams import Slots
    from impresario_engine.config import Config

    cfg, slots = Config(), Slots()

    def seat() -> None:
        slots.give(slots.take(cfg, 0, "203.0.113.1", "g"))

    def spectator() -> None:
        slots.give(slots.take(cfg, None, "203.0.113.1", "g"))

    return {"seat_us": round(_best(seat, 100000), 3),
            "spectator_us": round(_best(spectator, 100000), 3)}


def typed_bots() -> dict[str, float]:
    from impresario import TurandotBase, make_bot, play_game_in_process
    from impresario_rules.play import play_bots

    class Diarist(TurandotBase):
        name = "diarist"

        def __init__(self) -> None:
            self.inner = make_bot("medium", seed=1)
            self.seen = 0

        def on_event(self, event) -> None:
            self.seen += 1

        def choose(self, view, actions):
            return self.inner.choose(view, actions)

    def bots(first=None):
        return [first or make_bot("medium", seed=1), make_bot("medium", seed=2),
                make_bot("medium", seed=3)]

    rules = _best(lambda: play_bots(bots(), 7), 20) / 1000
    sdk = _best(lambda: play_game_in_process(bots(), 7), 20) / 1000
    hooked = _best(lambda: play_game_in_process(bots(Diarist()), 7), 20) / 1000
    return {"rules_ms": round(rules, 1), "sdk_ms": round(sdk, 1), "hooks_ms": round(hooked, 1),
            "sdk_ratio": round(sdk / rules, 3), "hooks_ratio": round(hooked / rules, 3)}


def run(tmp: str, log=print) -> dict[str, Any]:
    out = {"sealing": sealing(tmp), "lapse_note": lapse_note(), "stream_slot": stream_slot(),
           "typed_bots": typed_bots()}
    log(f"features: {out}")
    return out


def table(r: dict[str, Any]) -> list[str]:
    s, n, t, b = r["sealing"], r["lapse_note"], r["stream_slot"], r["typed_bots"]
    return ["", "what the table's guards cost, in process (µs per call, best of 5)",
            f"  sealing a create record's 5 credentials  {s['seal_us_with_key_file']:8.1f}"
            f"   opening them {s['open_us_with_key_file']:8.1f}   (no key file: "
            f"{s['seal_us_without']:.1f} / {s['open_us_without']:.1f})",
            f"  noting a lapse on 12 seats               {n['note_us_12_seats']:8.1f}"
            f"   late-move check per move {n['check_us_nothing_noted']:.3f} "
            f"(noted: {n['check_us_noted']:.3f})",
            f"  a stream slot, taken and given back      {t['seat_us']:8.3f} (seat)"
            f"   {t['spectator_us']:.3f} (spectator)",
            f"  an in-process game of 3 medium bots (ms): rules {b['rules_ms']:.1f}, SDK "
            f"{b['sdk_ms']:.1f} (x{b['sdk_ratio']:.3f}), a seat with hooks {b['hooks_ms']:.1f} "
            f"(x{b['hooks_ratio']:.3f})"]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        print("\n".join(table(run(folder, log=lambda _m: None))))
