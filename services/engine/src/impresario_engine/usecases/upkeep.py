"""The list of games' upkeep: the games that are due leave the lists when they are gone, a game
in play nobody moved in for ``ABANDON_AFTER_SECONDS`` is finished (the reaper's pass), and the
others get their right due time."""

from __future__ import annotations


from ..table import listing
from ..table.clock import PLAYING
from ..table.record import abandon as finish_abandoned
from . import lobby
from .unit import Done, Engine, Loaded, Save, due_time, transact

#: entries a creation looks at for expired games (so the lists shrink where they grow)
SWEEP_ON_CREATE = 2


#: a game in play the sweep did not abandon though idle (a turn-based game's deadlines move it
#: on, days apart) is looked at again this much later
DECLINED_RECHECK_SECONDS = 3600


def sweep(engine: Engine, limit: int, abandon: bool) -> dict[str, int]:
    """Look at the games that are due: the gone leave the lists; with ``abandon``, games in
    play without a move for ABANDON_AFTER_SECONDS are finished with the deadline defaults; the
    others get their right due time."""
    now = engine.clock()
    index = engine.store.lobby
    report = {"due": 0, "expired": 0, "abandoned": 0, "rescheduled": 0}
    ids = index.due(now, limit)
    if not ids:
        return report
    report["due"] = len(ids)
    found = lobby.summaries(engine, ids)
    every = listing.EVERY_LIST
    for gid in ids:
        sm = found.get(gid)
        if sm is None:
            report["expired"] += index.fix(gid, "", 0, None, 0, now, every)
            continue
        idle = engine.config.abandon_after
        declined = False
        if abandon and idle and sm["s"] == PLAYING and sm["u"] + idle <= now:
            if abandon_game(engine, gid):
                report["abandoned"] += 1
                continue
            declined = True  # it moved meanwhile, or its deadlines move it on (turn-based)
        due = due_time(engine.config, sm["s"], sm["u"])
        if declined:  # looked at again in an hour, not at every pass
            due = max(due, now + DECLINED_RECHECK_SECONDS)
        if not abandon:  # left for the reaper: out of the way of the next creations
            due = max(due, now + 60)
        report["rescheduled"] += index.fix(
            gid, listing.member(gid, sm["c"]), sm["v"], listing.summary_list(sm), due, now, every)
    return report


def abandon_game(engine: Engine, game_id: str) -> bool:
    """Finish a game in play nobody has moved in for ABANDON_AFTER_SECONDS (see
    :func:`~impresario_engine.table.record.abandon`). False if it moved meanwhile."""

    def step(loaded: Loaded) -> Save | Done:
        doc = loaded.doc
        now = engine.clock()
        idle = now - doc["updated"]
        if doc["status"] != PLAYING or idle < engine.config.abandon_after:
            return Done(False)
        if doc.get("scheduled"):  # its deadlines move it on: a turn-based game may take days
            return Done(False)
        new, events = finish_abandoned(doc, loaded.ruleset, idle, now)
        return Save(new, events, True)

    return bool(transact(engine, game_id, step))
