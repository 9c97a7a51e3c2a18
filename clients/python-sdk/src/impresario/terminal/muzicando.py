"""Muzicando in the terminal: the table drawn as a grid, the hand numbered, a card then a cell."""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Callable, Sequence

from .._generated import models
from ..muzicando import SIGN_KIND
from .base import Move, Screen

LAYOUT_NAMES = {"S": "Sarabanda", "G": "Glissando", "P": "Parada", "M": "Muzicando"}
NOTE_NAMES = ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")
SIGNS = {"red": "♯", "orange": "♯", "yellow": "♮", "green": "♮", "blue": "♭", "indigo": "♭",
         "violet": "-"}
LEGEND = """\
  Cards: colour initial and value (R3 = red Mi), or a sign (R♯ sharp, Y♮ natural, B♭ flat,
  V- rest). Colours: Red Orange Yellow Green Blue Indigo Violet; values Do=1 … Si=7."""
LABELS = string.ascii_lowercase + string.ascii_uppercase


def short(card: str) -> str:
    """``red-3`` → ``R3``; ``blue-sign`` → ``B♭``."""
    colour, tail = card.split("-", 1)
    return colour[0].upper() + (SIGNS[colour] if tail == "sign" else tail)


def long_name(card: str) -> str:
    colour, tail = card.split("-", 1)
    if tail == "sign":
        return f"{colour} {SIGN_KIND[colour]} sign"
    return f"{colour} {NOTE_NAMES[int(tail) - 1]} ({tail})"


def grid(cells: Sequence[models.Cell], marks: dict[tuple[int, int], str] | None = None
         ) -> list[str]:
    """The table as rows of 3-character cells, ``y`` growing upwards; ``marks`` labels empty
    cells (where the chosen card may go)."""
    marks = marks or {}
    placed = {(c["x"], c["y"]): c for c in cells}
    points = list(placed) + list(marks)
    if not points:
        return ["  (the table is empty)"]
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
        self.out(f"\n=== Hand {view['hand']} of {view['hands']} · {view['phase']} · dealer "
                 f"{self.name(view['dealer'])} · layout "
                 f"{LAYOUT_NAMES.get(layout, '—') if layout else '—'} · contract "
                 f"{view['contract'] or '—'}"
                 + (f" by {self.name(view['declarer'])}" if view["declarer"] is not None
                    else "") + " ===")
        cells = view["table"]["cells"]
        if view["phase"] != "auction" or cells:
            for line in grid(cells):
                self.out(line)
        for p in view["players"]:
            status = f"out ({p['place']}.)" if p["out"] else f"{p['hand_size']} cards"
            team = f" team {p['team']}" if p["team"] is not None else ""
            self.out(f"  {self.label(p['seat']):<16}{team} {status}"
                     + (" · blocked" if p["blocked"] else "") + f" · total {p['total']}")
        auction = view["auction"]
        if auction and view["phase"] == "auction":
            calls = auction["calls"]
            if calls:
                self.out("  auction: " + ", ".join(f"{self.name(c['seat'])} {c['call']}"
                                                    for c in calls))
        you = view.get("you")
        if you:
            self.once("legend", LEGEND)
            self.out("  your hand: " + "  ".join(short(c) for c in you["hand"]))

    def partners(self, view: models.MuzicandoGame) -> None:
        if self.me is None or view["mode"] != "team" or "partner" in self.told:
            return
        mine = next(p["team"] for p in view["players"] if p["seat"] == self.me)
        partner = [p for p in view["players"] if p["team"] == mine and p["seat"] != self.me]
        others = [p for p in view["players"] if p["team"] != mine]
        if partner:
            p = partner[0]
            kind = f" ({p['bot']} bot)" if p["bot"] else ""
            self.once("partner", f"  Team game: your partner is {self.name(p['seat'])}{kind}, "
                      f"seat {p['seat']}, against "
                      + " and ".join(self.name(o["seat"]) for o in others) + ".")

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "auction_won":
            self.out(f"  {who} win{s} the auction: {e['contract']} "
                     f"({LAYOUT_NAMES.get(e['layout'], e['layout'])}, level {e['level']})")
        elif kind == "layout_chosen":
            layout = str(e.get("layout"))
            self.out(f"  {who} choose{s} {LAYOUT_NAMES.get(layout, layout)}")
        elif kind == "card_placed":
            self.out(f"  {who} place{s} {long_name(e['card'])} at ({e['x']}, {e['y']})")
        elif kind == "blocked":
            self.out(f"  {who} play{s} a {e['sign']} sign: "
                     f"{', '.join(self.name(b) for b in e['seats'])} blocked")
        elif kind == "turn_skipped":
            self.out(f"  {who} {'are' if who == 'you' else 'is'} blocked: turn skipped")
        elif kind == "passed":
            self.out(f"  {who} pass{'' if who == 'you' else 'es'}"
                     + (" and draw" + s if e.get("drew") else ""))
        elif kind == "player_out":
            self.out(f"  {who} {'are' if who == 'you' else 'is'} out: place {e['place']}")
        elif kind == "hand_scored":
            made = "made" if e["made"] else "failed"
            self.out(f"  hand {e['hand']} scored: contract {e['contract']} {made}; points "
                     + ", ".join(f"{self.name(i)} {p:+d}" for i, p in enumerate(e["points"])))
        elif kind == "redeal":
            self.out("  redeal")

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
                calls.append(("p", "pass", {"type": "auction_pass"}))
            self.once("contracts", "  A contract is a level (1-4) and a layout: S Sarabanda, "
                      "G Glissando, P Parada, M Muzicando.")
            return self.choose("  Your call", calls, default, deadline, changed)
        if layouts is not None:
            choices: list[tuple[str, str, Move]] = [
                (lay, LAYOUT_NAMES[lay], {"type": "choose_layout", "layout": lay})
                for lay in layouts["layouts"]]
            return self.choose("  Choose the layout", choices, default, deadline, changed)
        cards = [e for e in (place["cards"] if place else []) if e["cells"]]
        menu: list[tuple[str, str, models.MuzicandoPlaceOption | None]] = [
            (str(i), long_name(e["card"]), e) for i, e in enumerate(cards, 1)]
        if passing is not None:
            draws = " and draw" if passing["draws"] else ""
            menu.append(("p", f"pass{draws}", None))
        placing = default if default is not None and default["type"] == "place" else None
        default_entry = next((e for e in cards if placing and e["card"] == placing["card"]),
                             None)
        for key, label, _ in menu:
            self.out(f"    {key}) {label}")
        while True:
            raw = self.console.ask(
                "  Card to place"
                + (f" [Enter: {long_name(placing['card'])}] " if placing else " [Enter: pass] "),
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
                self.out("  type the number of a card" + (" or p" if passing else ""))
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
            raw = self.console.ask(f"  Where ({LABELS[0]}-{LABELS[len(cells) - 1]}) "
                                   f"[Enter: {first}] ", deadline, changed)
            if raw is None:
                return None
            raw = raw.strip() or first
            if raw in LABELS[:len(cells)]:
                cell = cells[LABELS.index(raw)]
                break
            self.out("  type the letter of a marked cell")
        else:
            cell = cells[0]
        return {"type": "place", "card": entry["card"], "x": cell["x"], "y": cell["y"]}

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] != "muzicando":
            return
        for team in score["teams"]:
            self.out(f"  team {team['team']} ("
                     + " and ".join(self.label(s) for s in team["seats"])
                     + f"): {team['total']}")
