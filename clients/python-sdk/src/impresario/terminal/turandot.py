"""Turandot in the terminal: the table, every player's singers as cards, and the five moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from .._generated import models
from .base import Move, Screen
from .console import Console

ROLE_NAMES = ("Turandot", "Calaf", "Liù", "Ping", "Pong", "Pang")

HOW_TO_BID = """\
  How to bid: you hold one number card per slot. Put the number of the slot you want face
  down, with as many money cards as you like: on each slot the highest money wins the card (and
  pays it),
  and a tie means nobody gets it (everyone keeps their money). The bluff card is one more
  card face down: it changes nothing but the count the others see. Everyone sees only how
  many cards each player put face down until the last bid reveals them all.
  Money alone ('h'), without a number card: you hire a helper, a stage element worth one
  point (not as maestro, and not in round 4). A player who gets nothing is given a card by
  the maestro ("office hire")."""


def card_text(card: models.Card | models.Singer | models.Director | None) -> str:
    """A card as on the table: a singer's id, category, sex, stars and favourite role, or a
    director's id and effect."""
    if card is None:
        return "—"
    if card["kind"] == "director":
        return f"{card['id']} (director: {card['effect']})"
    fav = f", loves {card.get('favourite_role')}" if card.get("favourite_role") else ""
    return f"{card['id']} {card['category']} {card['sex']} {'★' * card['stars']}{fav}"


def turandot(view: models.Game) -> models.TurandotGame:
    """``view`` as the Turandot game it must be here."""
    if view["ruleset"] != "turandot":
        raise ValueError(f"the Turandot screen cannot show a {view['ruleset']} game")
    return view


class TurandotScreen(Screen):
    ruleset = "turandot"

    def __init__(self, console: Console, names: dict[int, str], me: int | None = None) -> None:
        super().__init__(console, names, me)
        self.cards: dict[str, models.Card | models.Singer | models.Director] = {}

    def learn(self, view: models.TurandotGame) -> None:
        for place in view["table"]:
            if place["card"]:
                self.cards[place["card"]["id"]] = place["card"]
        for p in view["players"]:
            for c in p["singers"]:
                self.cards[c["id"]] = c
        for d in view["directors"]:
            self.cards[d["id"]] = d

    def card(self, card_id: str) -> str:
        return card_text(self.cards[card_id]) if card_id in self.cards else card_id

    def show(self, game: models.Game, actions: models.Actions | None = None,
             force: bool = False) -> None:
        view = turandot(game)
        self.remember(view)
        self.learn(view)
        key = (view["round"], view["phase"])
        if key == self.shown and not force:
            return
        self.shown = key
        self.out(f"\n=== Round {view['round']} of 7 · {view['phase']} · maestro: "
                 f"{self.name(view['maestro'])} ===")
        if view["phase"] in ("nominate", "fire") and not force:
            return  # nothing on the table changed since the office hires
        for place in view["table"]:
            if place["card"] is not None:
                self.out(f"  slot {place['slot']}: {card_text(place['card'])}")
        for p in view["players"]:
            who = self.label(p["seat"])
            director = p["director"]["id"] if p["director"] else "—"
            self.out(f"  {who:<16} money {p['money']} · stage elements {p['stage_elements']} · "
                     f"director {director} · face down {p['face_down']}")
            for c in p["singers"]:
                self.out(f"      {card_text(c)}")
        dummy = view["dummy"]
        if dummy:
            self.out("  dummy: " + "; ".join(card_text(c) for c in dummy["singers"]))
        you = view.get("you")
        if you:
            hand = you["hand"]
            self.out(f"  your hand: number cards {', '.join(map(str, hand['numbers']))} · "
                     f"money {hand['money']} · bluff card {'yes' if hand['bluff'] else 'no'}")

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "bids_revealed":
            parts = []
            for b in e["bids"]:
                what = f"slot {b['slot']}" if b["slot"] is not None else "a helper"
                parts.append(f"{self.name(b['seat'])}: {what} + {b['money']} money"
                             f"{' (bluff)' if b['bluff'] else ''}")
            self.out("  bids revealed → " + "; ".join(parts))
        elif kind == "hired":
            how = "by the maestro's choice" if e["by"] != "bid" else f"for {e['money_spent']} money"
            self.out(f"  {who} hire{s} {self.card(e['card'])} "
                     f"from slot {e['slot']} {how}")
        elif kind == "slot_tied":
            self.out(f"  slot {e['slot']}: a tie between "
                     f"{', '.join(self.name(seat) for seat in e['seats'])}: nobody takes it")
        elif kind == "helper_hired":
            self.out(f"  {who} hire{s} the "
                     f"{e['helper'].replace('_', ' ')}: a stage element")
        elif kind == "helper_missed":
            self.out(f"  {who}: no helper left")
        elif kind == "director_fired":
            self.out(f"  {who} fire{s} {e['director']}")
        elif kind == "nominated":
            self.out(f"  {who} {'are' if who == 'you' else 'is'} named to fire a director")
        elif kind == "card_discarded":
            self.out(f"  {self.card(e['card'])} is discarded")
        elif kind == "dummy_received":
            self.out(f"  {self.card(e['card'])} goes to the dummy")
        elif kind == "round_started" and self.me is None:
            self.out(f"\n— round {e['round']}, maestro {self.name(e['maestro'])}")
        elif kind == "bid_committed" and self.me is None:
            self.out(f"  {who} puts {e['face_down']} card(s) face down")
        elif kind == "cast":
            self.out(f"  {who} cast{s}: "
                     + ", ".join(f"{r} {self.card(c).split(' ')[0]}"
                                 for r, c in zip(ROLE_NAMES, e["roles"])))
        elif kind == "game_finished":
            self.out("  game over" + (": the dummy wins" if e.get("dummy_wins") else ""))

    def ask(self, game: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        view = turandot(game)
        space = actions["moves"][0]
        default = actions.get("default")
        if space["type"] == "bid":
            return self._bid(view, space, default if default and default["type"] == "bid"
                             else None, deadline, changed)
        if space["type"] == "assign_office":
            free = ", ".join(f"{s}" for s in space["slots"])
            self.out(f"  You are the maestro: give each waiting player a card (free slots {free}).")
            by_seat = {a["seat"]: a["slot"] for a in default["assignments"]} \
                if default and default["type"] == "assign_office" else {}
            out: list[models.OfficeAssignment] = []
            for seat in space["seats"]:
                while True:
                    suggested = by_seat.get(seat, space["slots"][0])
                    raw = self.console.ask(f"  slot for {self.name(seat)} [Enter: {suggested}] ",
                                           deadline, changed)
                    if raw is None:
                        return None
                    raw = raw.strip() or str(suggested)
                    if raw.isdigit() and int(raw) in space["slots"]:
                        out.append({"seat": seat, "slot": int(raw)})
                        break
                    self.out(f"  type one of the free slots: {free}")
            return {"type": "assign_office", "assignments": out}
        if space["type"] == "nominate":
            self.once("nominate", "  The player you name fires one director from the pile "
                      "(the directors left are hired in round 4).")
            seats = [(str(s), self.names.get(s, f"seat {s}"), s) for s in space["seats"]]
            named = self.choose("  Name a player to fire a director", seats,
                                default["seat"] if default and default["type"] == "nominate"
                                else None, deadline, changed)
            return None if named is None else {"type": "nominate", "seat": named}
        if space["type"] == "fire_director":
            directors = [(str(i), d, d) for i, d in enumerate(space["directors"], 1)]
            for key, director, _ in directors:
                self.out(f"    {key}) {self.card(director)}")
            d = self.choose("  Fire which director", directors,
                            default["director"] if default and default["type"] == "fire_director"
                            else None, deadline, changed)
            return None if d is None else {"type": "fire_director", "director": d}
        if space["type"] == "cast":
            self.out("  Cast your six singers into Turandot, Calaf, Liù, Ping, Pong, Pang.")
            self.out(f"  The best cast ({space['optimal_total']} points): "
                     + ", ".join(f"{r} {c}" for r, c in zip(ROLE_NAMES, space["optimal"])))
            raw = self.console.ask("  Six singer ids in role order [Enter: the best cast] ",
                                   deadline, changed)
            if raw is None:
                return None
            roles = raw.replace(",", " ").upper().split()
            return {"type": "cast", "roles": roles or None}
        return default

    def _bid(self, view: models.TurandotGame, space: models.BidSpace,
             default: models.BidMove | None, deadline: float | None,
             changed: Callable[[], bool] | None) -> Move | None:
        if default is None:
            default = {"type": "bid", "slot": space["slots"][0], "money": 0}
        self.once("bid", HOW_TO_BID)
        helper = ", or 'h' for a helper" if space["helper"] else ""
        bluff = " [b to add the bluff card]" if space["bluff"] else ""
        prompt = (f"  Your bid: slot {space['slots'][0]}-{space['slots'][-1]} then money 0-"
                  f"{space['max_money']}{bluff}{helper} "
                  f"[Enter: slot {default['slot']}, no money] ")
        while True:
            raw = self.console.ask(prompt, deadline, changed)
            if raw is None:
                return None
            words = raw.lower().replace(",", " ").split()
            if not words:
                return {**default, "round": view["round"]}
            with_bluff = "b" in words
            words = [w for w in words if w != "b"]
            try:
                if words and words[0] == "h":
                    return {"type": "bid", "slot": None, "money": 1, "bluff": with_bluff,
                            "round": view["round"]}
                slot = int(words[0]) if words else default["slot"]
                money = int(words[1]) if len(words) > 1 else 0
            except ValueError:
                self.out("  type a slot number, then the money, e.g. '2 1' or '3 0 b'")
                continue
            return {"type": "bid", "slot": slot, "money": money, "bluff": with_bluff,
                    "round": view["round"]}

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] != "turandot":
            return
        for p in score["players"]:
            if p["cast"]:
                self.out(f"    {self.label(p['seat'])} cast: "
                         + ", ".join(f"{r} {c}" for r, c in zip(ROLE_NAMES, p["cast"])))
        d = score["dummy"]
        if d:
            self.out(self.score_row("dummy", d["lines"], d["total"], keys, width))
        if score["dummy_wins"]:
            self.out("  the dummy wins")
