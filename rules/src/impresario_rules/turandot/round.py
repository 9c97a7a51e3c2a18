"""Turandot's round: the reveal and the hiring, the leftover card, the firing of a director, and
the passing of Puccini, each rule of the rulebook a named step (rulings from
``shared/rules/turandot.md``). The moves (``moves.py``) lead here.

The steps take ``new``, a fresh shallow copy of the state that the current move owns, and update
it in place instead of copying the whole state again at each step. Only its top-level keys are
assigned: the lists and dicts it shares with older states are replaced, never mutated.
"""

from __future__ import annotations

from .. import rng as rngmod
from ..base import Event, State
from .cards import HELPERS
from .state import (BIDDING, CASTING, CLOCKWISE_AFTER, DIRECTOR_ROUND, FIRE, FIRING_ROUNDS, MONEY,
                    NOMINATE, OFFICE, ROUNDS, SLOT, helpers_for)


def resolve(new: State, events: list[Event]) -> State:
    """The reveal and the hiring phase, up to the first decision a player must make."""
    n, maestro, rnd = new["n"], new["maestro"], new["round"]
    bids = new["bids"]
    events.append({
        "type": "bids_revealed", "round": rnd,
        "bids": [{"seat": s, "slot": slot, "money": money, "bluff": bluff}
                 for s, (slot, money, bluff) in enumerate(bids)],
    })
    table = list(new["table"])
    money = list(new["money"])
    order = CLOCKWISE_AFTER[n][maestro]
    by_slot: dict[int, list[int]] = {}
    helper_bidders: list[int] = []
    for s in order:
        slot = bids[s][SLOT]
        if slot is None:
            helper_bidders.append(s)
        elif slot in by_slot:
            by_slot[slot].append(s)
        else:
            by_slot[slot] = [s]
    hires: list[tuple[int, str]] = []
    for slot in sorted(by_slot):
        bidders = by_slot[slot]
        winner = bidders[0] if len(bidders) == 1 else slot_winner(bidders, bids)
        if winner is None:
            events.append({"type": "slot_tied", "round": rnd, "slot": slot,
                           "seats": sorted(bidders)})
            continue
        top = bids[winner][MONEY]
        card = table[slot - 1]
        table[slot - 1] = None
        money[winner] -= top
        hires.append((winner, card))
        events.append({"type": "hired", "round": rnd, "seat": winner, "slot": slot,
                       "card": card, "money_spent": top, "by": "bid"})
    if hires:
        hire(new, hires, rnd)
    if helper_bidders:
        stage = list(new["stage"])
        hired, missed = helpers_hired(helper_bidders, n)
        for helper, s in zip(HELPERS, hired):
            money[s] -= 1
            stage[s] += 1
            events.append({"type": "helper_hired", "round": rnd, "seat": s, "helper": helper})
        for s in missed:
            events.append({"type": "helper_missed", "round": rnd, "seat": s})
        new["stage"] = stage
    new["table"] = table
    new["money"] = money
    # the bids as revealed: a list of its own, sharing the bids (a committed bid's list is never
    # changed, only replaced)
    new["reveal"] = list(bids)
    waiting = office_hires(order, hires)
    if waiting:
        new["phase"] = OFFICE
        new["waiting"] = waiting
        events.append({"type": "office_pending", "round": rnd, "seats": waiting})
        return new
    return after_hiring(new, events)


def after_hiring(new: State, events: list[Event]) -> State:
    """The one card left on the table is discarded (2 players: it goes to the dummy)."""
    rnd = new["round"]
    table = new["table"]
    assert len(table) - table.count(None) == 1, table
    for card in table:
        if card is not None:
            break
    new["table"] = [None] * len(table)
    dummy = new["dummy"]
    if dummy is not None:
        dummy = dict(dummy)
        if rnd == DIRECTOR_ROUND:
            dummy["director"] = card
        else:
            dummy["singers"] = dummy["singers"] + [card]
        new["dummy"] = dummy
        events.append({"type": "dummy_received", "round": rnd, "card": card})
    else:
        events.append({"type": "card_discarded", "round": rnd, "card": card})
    if rnd in FIRING_ROUNDS:
        return begin_firing(new, events)
    return end_round(new, events)


def begin_firing(new: State, events: list[Event]) -> State:
    new["phase"] = NOMINATE
    if new["n"] == 2:
        # the only player the maestro may name is the opponent: a forced move is played
        return do_nominate(new, 1 - new["maestro"], events, forced=True)
    return new


def do_nominate(new: State, nominee: int, events: list[Event],
                 forced: bool = False) -> State:
    new["phase"] = FIRE
    new["nominee"] = nominee
    event: Event = {"type": "nominated", "round": new["round"], "seat": nominee}
    if forced:
        event["forced"] = True
    events.append(event)
    return new


def end_round(new: State, events: list[Event]) -> State:
    rnd = new["round"]
    new["bids"] = [None] * new["n"]
    if rnd == ROUNDS:
        new["phase"] = CASTING
        events.append({"type": "round_ended", "round": rnd, "next_maestro": None})
        events.append({"type": "casting_started"})
        return new
    new["maestro"] = (new["maestro"] + 1) % new["n"]  # Puccini passes to the left
    new["round"] = rnd + 1
    events.append({"type": "round_ended", "round": rnd, "next_maestro": new["maestro"]})
    return start_round(new, events)


def start_round(new: State, events: list[Event]) -> State:
    n, rnd = new["n"], new["round"]
    if rnd == DIRECTOR_ROUND:
        pile, g = rngmod.shuffled(new["rng"], new["pile"])
        new["rng"] = g
        new["table"] = pile[: n + 1]
        new["removed"] = pile[n + 1:]
        new["pile"] = []
    else:
        deck = new["deck"]
        new["table"] = deck[: n + 1]
        new["deck"] = deck[n + 1:]
    new["phase"] = BIDDING
    new["bids"] = [None] * n
    events.append({"type": "round_started", "round": rnd, "maestro": new["maestro"],
                   "table": list(new["table"])})
    if new["removed"] and rnd == DIRECTOR_ROUND:
        events.append({"type": "directors_removed", "round": rnd,
                       "directors": list(new["removed"])})
    return new


def hire(new: State, hires: list[tuple[int, str]], rnd: int) -> None:
    """Give each ``(seat, card)`` of ``hires`` to its seat (directors in round 4, else singers),
    in place on ``new``: one copy of the list of hands for all the hires of a move, and a new
    list for each seat that grows (the old states keep theirs)."""
    if rnd == DIRECTOR_ROUND:
        director = list(new["director"])
        for seat, card in hires:
            director[seat] = card
        new["director"] = director
    else:
        singers = list(new["singers"])
        for seat, card in hires:
            singers[seat] = singers[seat] + [card]
        new["singers"] = singers


def slot_winner(bidders: list[int], bids: list[list]) -> int | None:
    """Hiring, rules 1 and 2 (the tie at the top): a slot bid on by one player goes to that
    player; by several, to the one who played strictly more money than each other. All equal,
    zero included, or a tie at the top: nobody takes it (None), everyone takes their money
    back, and the card stays on the table for the office hires (worked examples 3 and 4)."""
    if len(bidders) == 1:
        return bidders[0]
    top = max(bids[s][MONEY] for s in bidders)
    leaders = [s for s in bidders if bids[s][MONEY] == top]
    return leaders[0] if len(leaders) == 1 else None


def helpers_hired(bidders: list[int], players: int) -> tuple[list[int], list[int]]:
    """Hiring, rule 3: the money-only bidders (``bidders``, clockwise from the maestro's left;
    never the maestro, never in round 4: R4) want a helper. There are 1 with 2–3 players, 2
    with 4–5; they go to the first bidders clockwise after the maestro: ``(hired, missed)``.
    The others take their money back."""
    available = helpers_for(players)
    return bidders[:available], bidders[available:]


def office_hires(order: tuple[int, ...], hires: list[tuple[int, str]]) -> list[int]:
    """Hiring, rule 4 (office hires): every player still without a card this round (outbid,
    tied or money-only) waits for one of the cards left on the table, all of them chosen by the
    maestro in one decision; the seats wait clockwise from the maestro's left (``order``), the
    order the default assigns them in (R7)."""
    got = {s for s, _card in hires}
    return [s for s in order if s not in got]
