"""Turandot in the terminal: the table, every player's singers as cards, and the five moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from impresario_rules.turandot.cards import ROLES

from .._generated import models
from ..i18n import N_, _, ngettext, pgettext
from .base import Move, Screen, and_list, indented, named
from .console import Console

#: the roles' names, as the role cards print them (the same in every edition)
ROLE_NAMES = ("Turandot", "Calaf", "Liù", "Ping", "Pong", "Pang")
ROLE_NAME = dict(zip(ROLES, ROLE_NAMES))
#: a singer's category and sex, as each edition's rulebook names them
CATEGORIES = {"professional": N_("professional"), "amateur": N_("amateur"),
              "alternative": N_("alternative"), "classic": N_("classic"), "comic": N_("comic"),
              "dark": N_("dark")}
SEXES = {"male": N_("male"), "female": N_("female"), "undefined": N_("undefined")}
#: a category said of a female singer, where the language's adjective agrees (Italian "Comica");
#: a male or undefined singer's is the plain word above
FEMALE_CATEGORIES: dict[str, Callable[[], str]] = {
    "professional": lambda: pgettext("female singer", "professional"),
    "amateur": lambda: pgettext("female singer", "amateur"),
    "alternative": lambda: pgettext("female singer", "alternative"),
    "classic": lambda: pgettext("female singer", "classic"),
    "comic": lambda: pgettext("female singer", "comic"),
    "dark": lambda: pgettext("female singer", "dark")}
HELPERS = {"costume_designer": N_("costume designer"), "carpenter": N_("carpenter")}
#: the score sheet's lines
LINES = {"stars": N_("stars"), "stage_elements": N_("stage elements"),
         "favourite_roles": N_("favourite roles"), "wrong_sex": N_("wrong sex"),
         "director": N_("director"), "puccini": N_("Puccini")}
#: the phases, as the table names them
PHASES = {"bidding": N_("sealed bids"), "office": N_("office hires"),
          "nominate": N_("nomination"), "fire": N_("firing a director"),
          "casting": N_("casting"), "finished": N_("game over")}

HOW_TO_BID = N_("""\
How to bid: you hold one number card per slot. Put the number of the slot you want face
down, with as many money cards as you like: on each slot the highest money wins the card (and
pays it), and a tie means nobody gets it (everyone keeps their money). The bluff card is one
more card face down: it changes nothing but the count the others see. Everyone sees only how
many cards each player put face down until the last bid reveals them all.
Money alone ('h'), without a number card: you hire a helper, a stage element worth one
point (not as maestro, and not in round 4). A player who gets nothing is given a card by
the maestro ("office hire").""")


def director_effect(card: Mapping[str, Any]) -> str:
    """A director's effect in the player's language, from its id (the engine's ``effect`` is
    English; a director this client does not know keeps it)."""
    key = str(card["id"])
    over = key.split("_over_")
    if len(over) == 2 and over[0] in CATEGORIES and over[1] in CATEGORIES:
        return _("+1 per {plus} singer, -1 per {minus} singer").format(
            plus=_(CATEGORIES[over[0]]), minus=_(CATEGORIES[over[1]]))
    effects = {"favourite_roles": N_("+1 per singer cast in their favourite role"),
               "stagecraft": N_("+1 per stage element"),
               "full_spectrum": N_("+3 if the cast has a singer of each of the 6 categories"),
               "undefined_sex": N_("+1 per singer of undefined sex"),
               "neutral": N_("no bonus, no penalty")}
    return _(effects[key]) if key in effects else str(card.get("effect", ""))


def category_name(category: str, sex: str | None) -> str:
    """A singer's category in the player's language, agreeing with the singer's sex where the
    language's adjective does (the sex is the card's, from the rules' card data)."""
    if category not in CATEGORIES:
        return category
    if sex == "female":
        return FEMALE_CATEGORIES[category]()
    return _(CATEGORIES[category])


def director_name(card_id: str) -> str:
    """A director as the player reads it ("Dark over comic"), never the engine's id (unless
    this client does not know the director)."""
    return _(DIRECTORS[card_id]) if card_id in DIRECTORS else card_id


#: the directors' names, as the table names them
DIRECTORS = {"dark_over_comic": N_("Dark over comic"), "comic_over_dark": N_("Comic over dark"),
             "alternative_over_classic": N_("Alternative over classic"),
             "classic_over_alternative": N_("Classic over alternative"),
             "favourite_roles": N_("Favourite roles"), "stagecraft": N_("Stagecraft"),
             "full_spectrum": N_("Full spectrum"), "undefined_sex": N_("Undefined sex"),
             "neutral": N_("Neutral")}


def card_text(card: models.Card | None) -> str:
    """A card as on the table: a singer's id, category, sex, stars and favourite role, or a
    director's id and effect."""
    if card is None:
        return "—"
    if card["kind"] == "director":
        return _("{name} (director: {effect})").format(name=director_name(str(card["id"])),
                                                       effect=director_effect(card))
    favourite = card.get("favourite_role")
    fav = (", " + _("loves {role}").format(role=ROLE_NAME.get(favourite, favourite))
           if favourite else "")
    return (f"{card['id']} {category_name(card['category'], card['sex'])} "
            f"{named(SEXES, card['sex'])} "
            f"{'★' * card['stars']}{fav}")


def turandot(view: models.Game) -> models.TurandotGame:
    """``view`` as the Turandot game it must be here."""
    if view["ruleset"] != "turandot":
        raise ValueError(f"the Turandot screen cannot show a {view['ruleset']} game")
    return view


class TurandotScreen(Screen):
    ruleset = "turandot"

    def __init__(self, console: Console, names: dict[int, str], me: int | None = None) -> None:
        super().__init__(console, names, me)
        self.cards: dict[str, models.Card] = {}

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
        self.out("\n=== " + _("Round {n} of 7 · {phase} · maestro: {who}").format(
            n=view["round"], phase=named(PHASES, view["phase"]), who=self.name(view["maestro"]))
            + " ===")
        if view["phase"] in ("nominate", "fire") and not force:
            return  # nothing on the table changed since the office hires
        for place in view["table"]:
            if place["card"] is not None:
                self.out("  " + _("slot {n}: {card}").format(n=place["slot"],
                                                            card=card_text(place["card"])))
        for p in view["players"]:
            who = self.label(p["seat"])
            director = p["director"]["id"] if p["director"] else "—"
            self.out(f"  {who:<16} " + _("money {money} · stage elements {elements} · director "
                                         "{director} · face down {face_down}").format(
                money=p["money"], elements=p["stage_elements"], director=director,
                face_down=p["face_down"]))
            for c in p["singers"]:
                self.out(f"      {card_text(c)}")
        dummy = view["dummy"]
        if dummy:
            self.out("  " + _("dummy: {cards}").format(
                cards="; ".join(card_text(c) for c in dummy["singers"])))
        you = view.get("you")
        if you:
            hand = you["hand"]
            self.out("  " + _("your hand: number cards {numbers} · money {money} · bluff card "
                              "{bluff}").format(numbers=", ".join(map(str, hand["numbers"])),
                                                money=hand["money"],
                                                bluff=_("yes") if hand["bluff"] else _("no")))

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "bids_revealed":
            parts = []
            for b in e["bids"]:
                what = (_("slot {n}").format(n=b["slot"]) if b["slot"] is not None
                        else _("a helper"))
                bluff = " " + _("(bluff)") if b["bluff"] else ""
                parts.append(_("{who}: {what} + {money} money").format(
                    who=self.name(b["seat"]), what=what, money=b["money"]) + bluff)
            self.out("  " + _("bids revealed → {bids}").format(bids="; ".join(parts)))
        elif kind == "hired":
            card, slot = self.card(e["card"]), e["slot"]
            if e["by"] != "bid":
                self.says(e, _("you hire {card} from slot {slot} by the maestro's choice"),
                          _("{who} hires {card} from slot {slot} by the maestro's choice"),
                          card=card, slot=slot)
            else:
                self.says(e, _("you hire {card} from slot {slot} for {money} money"),
                          _("{who} hires {card} from slot {slot} for {money} money"),
                          card=card, slot=slot, money=e["money_spent"])
        elif kind == "slot_tied":
            self.out("  " + _("slot {n}: a tie between {seats}: nobody takes it").format(
                n=e["slot"], seats=and_list([self.object_name(seat) for seat in e["seats"]])))
        elif kind == "helper_hired":
            helper = named(HELPERS, e["helper"])
            self.says(e, _("you hire the {helper}: a stage element"),
                      _("{who} hires the {helper}: a stage element"), helper=helper)
        elif kind == "helper_missed":
            self.says(e, _("you: no helper left"), _("{who}: no helper left"))
        elif kind == "director_fired":
            self.says(e, _("you fire {director}"), _("{who} fires {director}"),
                      director=self.card(e["director"]))
        elif kind == "nominated":
            self.says(e, _("the maestro names you to fire a director"),
                      _("the maestro names {who} to fire a director"))
        elif kind == "card_discarded":
            self.out("  " + _("{card} is discarded").format(card=self.card(e["card"])))
        elif kind == "dummy_received":
            self.out("  " + _("{card} goes to the dummy").format(card=self.card(e["card"])))
        elif kind == "round_started" and self.me is None:
            self.out("\n— " + _("round {n}, maestro {who}").format(
                n=e["round"], who=self.name(e["maestro"])))
        elif kind == "bid_committed" and self.me is None:
            self.out("  " + ngettext("{who} puts {n} card face down",
                                     "{who} puts {n} cards face down", e["face_down"]).format(
                who=who, n=e["face_down"]))
        elif kind == "cast":
            cast = ", ".join(f"{r} {self.card(c).split(' ')[0]}"
                             for r, c in zip(ROLE_NAMES, e["roles"]))
            self.says(e, _("you cast: {cast}"), _("{who} casts: {cast}"), cast=cast)
        elif kind == "game_finished":
            self.out("  " + (_("game over: the dummy wins") if e.get("dummy_wins")
                             else _("game over")))

    def ask(self, game: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        view = turandot(game)
        space = actions["moves"][0]
        default = actions.get("default")
        self.hint = ""
        if space["type"] == "bid":
            return self._bid(view, space, default if default and default["type"] == "bid"
                             else None, deadline, changed)
        if space["type"] == "assign_office":
            free = ", ".join(f"{s}" for s in space["slots"])
            self.out("  " + _("You are the maestro: give each waiting player a card (free slots "
                              "{free}).").format(free=free))
            by_seat = {a["seat"]: a["slot"] for a in default["assignments"]} \
                if default and default["type"] == "assign_office" else {}
            out: list[models.OfficeAssignment] = []
            for seat in space["seats"]:
                taken = {a["slot"] for a in out}
                left = [s for s in space["slots"] if s not in taken]
                free = ", ".join(map(str, left))
                suggested = by_seat.get(seat)
                if suggested is None or suggested in taken:  # another seat just took it
                    suggested = left[0]
                while True:
                    raw = self.console.ask(
                        "  " + _("slot for {who}").format(who=self.name(seat)) + " "
                        + _("[Enter: {choice}]").format(choice=suggested) + " ",
                        deadline, changed)
                    if raw is None:
                        return None
                    raw = raw.strip() or str(suggested)
                    if raw.isdigit() and int(raw) in left:
                        out.append({"seat": seat, "slot": int(raw)})
                        break
                    self.out("  " + _("type one of the free slots: {free}").format(free=free))
            return {"type": "assign_office", "assignments": out}
        if space["type"] == "nominate":
            self.once("nominate", "  " + _("The player you name fires one director from the "
                                           "pile (the directors left are hired in round 4)."))
            seats = [(str(s), self.names.get(s, _("seat {n}").format(n=s)), s)
                     for s in space["seats"]]
            nominee = self.choose("  " + _("Name a player to fire a director"), seats,
                                  default["seat"] if default and default["type"] == "nominate"
                                  else None, deadline, changed)
            return None if nominee is None else {"type": "nominate", "seat": nominee}
        if space["type"] == "fire_director":
            for i, pile in enumerate(space["directors"], 1):
                self.out(f"    {i}) {self.card(pile)}")
            directors = [(str(i), director_name(pile), pile)
                         for i, pile in enumerate(space["directors"], 1)]
            d = self.choose("  " + _("Fire which director"), directors,
                            default["director"] if default and default["type"] == "fire_director"
                            else None, deadline, changed)
            return None if d is None else {"type": "fire_director", "director": d}
        if space["type"] == "cast":
            self.out("  " + _("Cast your six singers into {roles}.").format(
                roles=", ".join(ROLE_NAMES)))
            self.out("  " + ngettext("The best cast ({n} point): {cast}",
                                     "The best cast ({n} points): {cast}",
                                     space["optimal_total"]).format(
                n=space["optimal_total"],
                cast=", ".join(f"{r} {c}" for r, c in zip(ROLE_NAMES, space["optimal"]))))
            self.hint = _("type your six singers' ids, one per role in the order {roles}: e.g. "
                          "{example}").format(roles=", ".join(ROLE_NAMES),
                                              example=" ".join(space["optimal"]))
            raw = self.console.ask("  " + _("Six singer ids in role order") + " "
                                   + _("[Enter: {choice}]").format(choice=_("the best cast"))
                                   + " ", deadline, changed)
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
        self.once("bid", indented(_(HOW_TO_BID)))
        self.hint = _("type the slot number ({slots}), then the money, 0 to {most}: e.g. "
                      "'{first} 1', or '{first} 0 b' with the bluff card").format(
            slots=", ".join(map(str, space["slots"])), most=space["max_money"],
            first=space["slots"][0])
        helper = _(", or 'h' for a helper") if space["helper"] else ""
        bluff = " " + _("[b to add the bluff card]") if space["bluff"] else ""
        prompt = ("  " + _("Your bid: slot {first}-{last} then money 0-{most}").format(
                      first=space["slots"][0], last=space["slots"][-1], most=space["max_money"])
                  + bluff + helper + " "
                  + _("[Enter: {choice}]").format(
                      choice=_("slot {n}, no money").format(n=default["slot"])) + " ")
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
                self.out("  " + self.hint)
                continue
            if slot not in space["slots"] or not 0 <= money <= space["max_money"]:
                self.out("  " + self.hint)
                continue
            return {"type": "bid", "slot": slot, "money": money, "bluff": with_bluff,
                    "round": view["round"]}

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] != "turandot":
            return
        for p in score["players"]:
            if p["cast"]:
                self.out("    " + _("{who} cast: {cast}").format(
                    who=self.label(p["seat"]),
                    cast=", ".join(f"{r} {c}" for r, c in zip(ROLE_NAMES, p["cast"]))))
        d = score["dummy"]
        if d:
            self.out(self.score_row(_("dummy"), d["lines"], d["total"], keys, width))
        if score["dummy_wins"]:
            self.out("  " + _("the dummy wins"))

    def line_name(self, key: str) -> str:
        return named(LINES, key)
