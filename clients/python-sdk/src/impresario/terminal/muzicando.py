"""Muzicando in the terminal: the table drawn as a grid, the hand numbered, a card then a cell."""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Callable, Sequence

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


def grid(cells: Sequence[Mapping[str, Any]], marks: dict[tuple[int, int], str] | None = None
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
                text = short(cell["covered_by"]) if cell.get("covered_by") else short(cell["card"])
                text += marks.get((x, y), "")
            elif (x, y) in marks:
                text = f"<{marks[(x, y)]}>"
            else:
                text = " ·"
            row.append(f"{text:>4}")
        lines.append(f"  {y:>3} " + "".join(row))
    return lines


class MuzicandoScreen(Screen):
    ruleset = "muzicando"

    def show(self, view: Mapping[str, Any], actions: Mapping[str, Any] | None = None,
             force: bool = False) -> None:
        self.remember(view)
        self.partners(view)
        key = (view["hand"], view["phase"], view["last_seq"])
        if key == self.shown and not force:
            return
        self.shown = key
        layout = view.get("layout")
        self.out(f"\n=== Hand {view['hand']} of {view['hands']} · {view['phase']} · dealer "
                 f"{self.name(view['dealer'])} · layout "
                 f"{LAYOUT_NAMES.get(layout, '—') if layout else '—'} · contract "
                 f"{view.get('contract') or '—'}"
                 + (f" by {self.name(view['declarer'])}" if view.get("declarer") is not None
                    else "") + " ===")
        cells = view["table"]["cells"] if isinstance(view.get("table"), dict) else []
        if view["phase"] != "auction" or cells:
            for line in grid(cells):
                self.out(line)
        for p in view["players"]:
            status = f"out ({p['place']}.)" if p["out"] else f"{p['hand_size']} cards"
            team = f" team {p['team']}" if p.get("team") is not None else ""
            self.out(f"  {self.label(p['seat']):<16}{team} {status}"
                     + (" · blocked" if p["blocked"] else "") + f" · total {p['total']}")
        if view.get("auction") and view["phase"] == "auction":
            calls = view["auction"]["calls"]
            if calls:
                self.out("  auction: " + ", ".join(f"{self.name(c['seat'])} {c['call']}"
                                                    for c in calls))
        you = view.get("you")
        if you:
            self.once("legend", LEGEND)
            self.out("  your hand: " + "  ".join(short(c) for c in you["hand"]))

    def partners(self, view: Mapping[str, Any]) -> None:
        if self.me is None or view.get("mode") != "team" or "partner" in self.told:
            return
        mine = next(p["team"] for p in view["players"] if p["seat"] == self.me)
        partner = [p for p in view["players"] if p["team"] == mine and p["seat"] != self.me]
        others = [p for p in view["players"] if p["team"] != mine]
        if partner:
            p = partner[0]
            kind = f" ({p['bot']} bot)" if p.get("bot") else ""
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

    def ask(self, view: Mapping[str, Any], actions: Mapping[str, Any], deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        spaces = {m["type"]: m for m in actions["moves"]}
        default = actions["default"]
        if "auction_bid" in spaces or "auction_pass" in spaces:
            contracts = spaces.get("auction_bid", {}).get("contracts", [])
            options = [(str(i), c, {"type": "auction_bid", "contract": c})
                       for i, c in enumerate(contracts, 1)]
            if "auction_pass" in spaces:
                options.append(("p", "pass", {"type": "auction_pass"}))
            self.once("contracts", "  A contract is a level (1-4) and a layout: S Sarabanda, "
                      "G Glissando, P Parada, M Muzicando.")
            return self.choose("  Your call", options, default, deadline, changed)
        if "choose_layout" in spaces:
            options = [(lay, LAYOUT_NAMES[lay], {"type": "choose_layout", "layout": lay})
                       for lay in spaces["choose_layout"]["layouts"]]
            return self.choose("  Choose the layout", options, default, deadline, changed)
        cards = [e for e in spaces.get("place", {}).get("cards", []) if e["cells"]]
        menu: list[tuple[str, str, Any]] = [(str(i), long_name(e["card"]), e)
                                            for i, e in enumerate(cards, 1)]
        if "pass" in spaces:
            draws = " and draw" if spaces["pass"].get("draws") else ""
            menu.append(("p", f"pass{draws}", None))
        default_entry = next((e for e in cards if e["card"] == default.get("card")), None)
        for key, label, _ in menu:
            self.out(f"    {key}) {label}")
        while True:
            raw = self.console.ask(
                "  Card to place"
                + (f" [Enter: {long_name(default['card'])}] " if default.get("type") == "place"
                   else " [Enter: pass] "), deadline, changed)
            if raw is None:
                return None
            raw = raw.strip().lower()
            if not raw:
                if default.get("type") != "place":
                    return dict(default)
                entry = default_entry
            elif raw == "p" and "pass" in spaces:
                return {"type": "pass"}
            elif raw.isdigit() and 1 <= int(raw) <= len(cards):
                entry = cards[int(raw) - 1]
            else:
                self.out("  type the number of a card" + (" or p" if "pass" in spaces else ""))
                continue
            break
        if entry is None:
            return dict(default)
        cells = entry["cells"][:len(LABELS)]
        marks = {(c["x"], c["y"]): LABELS[i] for i, c in enumerate(cells)}
        cells_now = view["table"]["cells"] if isinstance(view.get("table"), dict) else []
        if len(cells) > 1:
            for line in grid(cells_now, marks):
                self.out(line)
        first = LABELS[0]
        if entry["card"] == default.get("card"):
            first = marks.get((default["x"], default["y"]), first)
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

    def extra_score(self, score: Mapping[str, Any], keys: list[str], width: int) -> None:
        for team in score.get("teams") or ():
            self.out(f"  team {team['team']} ("
                     + " and ".join(self.label(s) for s in team["seats"])
                     + f"): {team['total']}")
