"""Muzicando in the terminal: the table drawn as a grid, the hand numbered, a card then a cell."""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Callable, Sequence

from .._generated import models
from ..i18n import N_, _, ngettext
from ..muzicando import SIGN_KIND
from .base import BOT_LEVELS, Move, Screen, and_list, indented, named

#: the layouts' names, the same in every language (the game's own words)
LAYOUT_NAMES = {"S": "Sarabanda", "G": "Glissando", "P": "Parada", "M": "Muzicando"}
#: the notes' names, as the cards print them (German sings C…H)
NOTE_NAMES = (N_("Do"), N_("Re"), N_("Mi"), N_("Fa"), N_("Sol"), N_("La"), N_("Si"))
SIGNS = {"red": "♯", "orange": "♯", "yellow": "♮", "green": "♮", "blue": "♭", "indigo": "♭",
         "violet": "-"}
COLOURS = {"red": N_("red"), "orange": N_("orange"), "yellow": N_("yellow"),
           "green": N_("green"), "blue": N_("blue"), "indigo": N_("indigo"),
           "violet": N_("violet")}
SIGN_NAMES = {"sharp": N_("sharp"), "natural": N_("natural"), "flat": N_("flat"),
              "rest": N_("rest")}
PHASES = {"auction": N_("auction"), "choose": N_("choosing the layout"), "play": N_("play"),
          "finished": N_("game over")}
LINES = {"places": N_("places"), "contracts": N_("contracts"), "chooser": N_("chooser")}
LEGEND = N_("""\
Cards: colour initial and value (R3 = red Mi), or a sign (R♯ sharp, Y♮ natural, B♭ flat,
V- rest). Colours: Red Orange Yellow Green Blue Indigo Violet; values Do=1 … Si=7.""")
LABELS = string.ascii_lowercase + string.ascii_uppercase


def note_name(value: int) -> str:
    """A note's name, as the player's language sings it (Do…Si; C…H in German)."""
    return _(NOTE_NAMES[value - 1])


def short(card: str) -> str:
    """``red-3`` → ``R3``; ``blue-sign`` → ``B♭``."""
    colour, tail = card.split("-", 1)
    return colour[0].upper() + (SIGNS[colour] if tail == "sign" else tail)


def long_name(card: str) -> str:
    colour, tail = card.split("-", 1)
    if tail == "sign":
        return _("{colour} {sign} sign").format(colour=named(COLOURS, colour),
                                                 sign=named(SIGN_NAMES, SIGN_KIND[colour]))
    return _("{colour} {note} ({value})").format(colour=named(COLOURS, colour),
                                                 note=note_name(int(tail)), value=tail)


def grid(cells: Sequence[models.Cell], marks: dict[tuple[int, int], str] | None = None
         ) -> list[str]:
    """The table as rows of 3-character cells, ``y`` growing upwards; ``marks`` labels empty
    cells (where the chosen card may go)."""
    marks = marks or {}
    placed = {(c["x"], c["y"]): c for c in cells}
    points = list(placed) + list(marks)
    if not points:
        return ["  " + _("(the table is empty)")]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    lines = ["      " + "".join(f"{x:>4}" for x in range(lo_x, hi_x + 1))]
    for y in range(hi_y, lo_y - 1, -1):
        row = []
        for x in range(lo_x, hi_x + 1):
            cell = placed.get((x, y))
            if cell is not None:
                covered_by = cell["covered_by"]
                text = short(covered_by) if covered_by else short(cell["card"])
                text += marks.get((x, y), "")
            elif (x, y) in marks:
                text = f"<{marks[(x, y)]}>"
            else:
                text = " ·"
            row.append(f"{text:>4}")
        lines.append(f"  {y:>3} " + "".join(row))
    return lines


def muzicando(view: models.Game) -> models.MuzicandoGame:
    """``view`` as the Muzicando game it must be here."""
    if view["ruleset"] != "muzicando":
        raise ValueError(f"the Muzicando screen cannot show a {view['ruleset']} game")
    return view


#: what the final score's columns count (a player meets "contracts" and "chooser" there first)
SCORE_LEGEND = N_("""\
places: the points for the order in which each player went out, hand by hand;
contracts: the points won or lost on the contracts called in the auction;
chooser: the layout's value for whoever chose it and went out first.""")


class MuzicandoScreen(Screen):
    ruleset = "muzicando"

    def show(self, game: models.Game, actions: models.Actions | None = None,
             force: bool = False) -> None:
        view = muzicando(game)
        self.remember(view)
        self.partners(view)
        key = (view["hand"], view["phase"], view["last_seq"])
        if key == self.shown and not force:
            return
        self.shown = key
        layout = view["layout"]
        contract = view["contract"] or "—"
        if view["declarer"] is not None:
            contract = _("{contract} by {who}").format(contract=contract,
                                                       who=self.name(view["declarer"]))
        self.out("\n=== " + _("Hand {n} of {total} · {phase} · dealer {dealer} · layout {layout} "
                              "· contract {contract}").format(
            n=view["hand"], total=view["hands"], phase=named(PHASES, view["phase"]),
            dealer=self.name(view["dealer"]),
            layout=LAYOUT_NAMES.get(layout, "—") if layout else "—", contract=contract)
            + " ===")
        cells = view["table"]["cells"]
        if view["phase"] != "auction" or cells:
            for line in grid(cells):
                self.out(line)
        for p in view["players"]:
            status = (_("out ({place}.)").format(place=p["place"]) if p["out"]
                      else ngettext("{n} card", "{n} cards", p["hand_size"]).format(
                          n=p["hand_size"]))
            team = " " + _("team {n}").format(n=p["team"]) if p["team"] is not None else ""
            self.out(f"  {self.label(p['seat']):<16}{team} {status}"
                     + (" · " + _("blocked") if p["blocked"] else "") + " · "
                     + _("total {n}").format(n=p["total"]))
        auction = view["auction"]
        if auction and view["phase"] == "auction":
            calls = auction["calls"]
            if calls:
                self.out("  " + _("auction: {calls}").format(calls=", ".join(
                    f"{self.name(c['seat'])} {self.call(c['call'])}" for c in calls)))
        you = view.get("you")
        if you:
            self.once("legend", indented(_(LEGEND)))
            self.out("  " + _("your hand: {cards}").format(
                cards="  ".join(short(c) for c in you["hand"])))

    def partners(self, view: models.MuzicandoGame) -> None:
        if self.me is None or view["mode"] != "team" or "partner" in self.told:
            return
        mine = next(p["team"] for p in view["players"] if p["seat"] == self.me)
        partner = [p for p in view["players"] if p["team"] == mine and p["seat"] != self.me]
        others = [p for p in view["players"] if p["team"] != mine]
        if partner:
            p = partner[0]
            bot = p["bot"]
            kind = (" " + _("({level} bot)").format(level=named(BOT_LEVELS, bot)) if bot
                    else "")
            self.once("partner", "  " + _("Team game: your partner is {partner}{bot}, seat {seat}, "
                                          "against {others}.").format(
                partner=self.name(p["seat"]), bot=kind, seat=p["seat"],
                others=and_list([self.name(o["seat"]) for o in others])))

    def call(self, call: str) -> str:
        """An auction call as said at the table: a contract (``2P``), or a pass."""
        return _("pass") if call == "pass" else call

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "auction_won":
            self.says(e, _("you win the auction: {contract} ({layout}, level {level})"),
                      _("{who} wins the auction: {contract} ({layout}, level {level})"),
                      contract=e["contract"], layout=LAYOUT_NAMES.get(e["layout"], e["layout"]),
                      level=e["level"])
        elif kind == "layout_chosen":
            layout = str(e.get("layout"))
            self.says(e, _("you choose {layout}"), _("{who} chooses {layout}"),
                      layout=LAYOUT_NAMES.get(layout, layout))
        elif kind == "card_placed":
            self.says(e, _("you place {card} at ({x}, {y})"),
                      _("{who} places {card} at ({x}, {y})"), card=long_name(e["card"]),
                      x=e["x"], y=e["y"])
        elif kind == "blocked":
            self.says(e, _("you play a {sign} sign: {seats} blocked"),
                      _("{who} plays a {sign} sign: {seats} blocked"),
                      sign=named(SIGN_NAMES, e["sign"]),
                      seats=", ".join(self.name(b) for b in e["seats"]))
        elif kind == "turn_skipped":
            self.says(e, _("you are blocked: turn skipped"), _("{who} is blocked: turn skipped"))
        elif kind == "passed":
            if e.get("drew"):
                self.says(e, _("you pass and draw"), _("{who} passes and draws"))
            else:
                self.says(e, _("you pass"), _("{who} passes"))
        elif kind == "player_out":
            self.says(e, _("you are out: place {place}"), _("{who} is out: place {place}"),
                      place=e["place"])
        elif kind == "hand_scored":
            text = (_("hand {n} scored: points {points}") if e["contract"] is None  # no auction
                    else _("hand {n} scored: contract {contract} made; points {points}")
                    if e["made"] else
                    _("hand {n} scored: contract {contract} failed; points {points}"))
            self.out("  " + text.format(
                n=e["hand"], contract=e["contract"],
                points=", ".join(f"{self.name(i)} {p:+d}" for i, p in enumerate(e["points"]))))
        elif kind == "redeal":
            self.out("  " + _("redeal"))

    def ask(self, game: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        view = muzicando(game)
        default = actions.get("default")
        bid: models.AuctionBidSpace | None = None
        layouts: models.ChooseLayoutSpace | None = None
        place: models.PlaceSpace | None = None
        passing: models.PassSpace | None = None
        may_pass_auction = False
        for space in actions["moves"]:
            if space["type"] == "auction_bid":
                bid = space
            elif space["type"] == "auction_pass":
                may_pass_auction = True
            elif space["type"] == "choose_layout":
                layouts = space
            elif space["type"] == "place":
                place = space
            elif space["type"] == "pass":
                passing = space
        if bid is not None or may_pass_auction:
            calls: list[tuple[str, str, Move]] = [
                (str(i), c, {"type": "auction_bid", "contract": c})
                for i, c in enumerate(bid["contracts"] if bid else [], 1)]
            if may_pass_auction:
                calls.append(("p", _("pass"), {"type": "auction_pass"}))
            names = ", ".join(f"{k} {n}" for k, n in LAYOUT_NAMES.items())
            self.once("contracts", "  " + _("A contract is a level (1-4) and a layout: "
                                            "{layouts}.").format(layouts=names))
            return self.choose("  " + _("Your call"), calls, default, deadline, changed)
        if layouts is not None:
            choices: list[tuple[str, str, Move]] = [
                (lay, LAYOUT_NAMES[lay], {"type": "choose_layout", "layout": lay})
                for lay in layouts["layouts"]]
            return self.choose("  " + _("Choose the layout"), choices, default, deadline, changed)
        cards = [e for e in (place["cards"] if place else []) if e["cells"]]
        menu: list[tuple[str, str, models.MuzicandoPlaceOption | None]] = [
            (str(i), long_name(e["card"]), e) for i, e in enumerate(cards, 1)]
        if passing is not None:
            menu.append(("p", _("pass and draw") if passing["draws"] else _("pass"), None))
        placing = default if default is not None and default["type"] == "place" else None
        default_entry = next((e for e in cards if placing and e["card"] == placing["card"]),
                             None)
        for key, label, _entry in menu:
            self.out(f"    {key}) {label}")
        while True:
            raw = self.console.ask(
                "  " + _("Card to place") + " "
                + _("[Enter: {choice}]").format(
                    choice=long_name(placing["card"]) if placing else _("pass")) + " ",
                deadline, changed)
            if raw is None:
                return None
            raw = raw.strip().lower()
            if not raw:
                if placing is None:
                    return default
                entry = default_entry
            elif raw == "p" and passing is not None:
                return {"type": "pass"}
            elif raw.isdigit() and 1 <= int(raw) <= len(cards):
                entry = cards[int(raw) - 1]
            else:
                self.out("  " + (_("type the number of a card or p") if passing
                                 else _("type the number of a card")))
                continue
            break
        if entry is None:
            return default
        cells = entry["cells"][:len(LABELS)]
        marks = {(c["x"], c["y"]): LABELS[i] for i, c in enumerate(cells)}
        if len(cells) > 1:
            for line in grid(view["table"]["cells"], marks):
                self.out(line)
        first = LABELS[0]
        if placing and entry["card"] == placing["card"]:
            first = marks.get((placing["x"], placing["y"]), first)
        while len(cells) > 1:
            raw = self.console.ask("  " + _("Where ({first}-{last})").format(
                first=LABELS[0], last=LABELS[len(cells) - 1]) + " "
                + _("[Enter: {choice}]").format(choice=first) + " ", deadline, changed)
            if raw is None:
                return None
            raw = raw.strip() or first
            if raw in LABELS[:len(cells)]:
                cell = cells[LABELS.index(raw)]
                break
            self.out("  " + _("type the letter of a marked cell"))
        else:
            cell = cells[0]
        return {"type": "place", "card": entry["card"], "x": cell["x"], "y": cell["y"]}

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] != "muzicando":
            return
        self.out(indented(_(SCORE_LEGEND)))
        for team in score["teams"]:
            self.out("  " + _("team {n} ({players}): {total}").format(
                n=team["team"], players=and_list([self.label(s) for s in team["seats"]]),
                total=team["total"]))

    def line_name(self, key: str) -> str:
        return named(LINES, key)
