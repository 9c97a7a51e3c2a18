"""The four layouts ("game types") as exact placement rules on a grid (rulings R2, R3).

A table is plain JSON data::

    {"layout": "S" | "G" | "P" | "M",
     "cells":  [[x, y, card], ...],    # notes, in the order they were placed
     "covers": [[x, y, sign], ...]}    # signs, each covering the note of its cell

Coordinates. Sarabanda and Glissando: an unbounded grid; the opening card is at (0, 0), ``x``
grows to the right, ``y`` grows upwards ("above" is ``y + 1``). Parada and Muzicando: the fixed
board of one column per colour and one row per note: a note's cell is ``(colour index, value)``,
``x`` = 0 (red) .. 6 (violet), ``y`` = 1 (Do) .. 7 (Si). In Muzicando each column is a colour's pile,
growing upwards from its Do at ``y = 1``.

A sign never takes a cell: its ``x, y`` name the note it covers (Sarabanda, Glissando: a note of its
colour whose four sides are occupied; Parada: its colour's oval; Muzicando: its colour's Do, the
foot of the pile).

:func:`refusal` says why a placement is illegal (a stable code and a message), :func:`legal_map`
lists every legal cell of every card quickly; the tests check that the two agree.
:class:`LegalCells` answers what ``legal_map`` answers for a table that only grows, keeping its
cells up to date move by move (the searching bot's playouts).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..base import IllegalMove
from .cards import (COLOURS, VALUE, NOTES, colour_index, colour_of, is_do, is_oval, is_sign)

LAYOUTS = ("S", "G", "P", "M")
LAYOUT_NAMES = {"S": "Sarabanda", "G": "Glissando", "P": "Parada", "M": "Muzicando"}
#: the value of a layout (individual game, chooser's bonus R8)
LAYOUT_VALUE = {"S": 1, "G": 2, "P": 3, "M": 4}

Cell = tuple[int, int]
Table = dict[str, Any]
_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def new_table(layout: str) -> Table:
    return {"layout": layout, "cells": [], "covers": []}


def is_opening_card(layout: str, card: str) -> bool:
    """Sarabanda and Muzicando open with any Do, Glissando and Parada with any oval."""
    if is_sign(card):
        return False
    return is_do(card) if layout in ("S", "M") else is_oval(card)


def opening_cell(layout: str, card: str) -> Cell:
    if layout in ("S", "G"):
        return (0, 0)
    if layout == "P":
        return (colour_index(card), _v(card))
    return (colour_index(card), 1)


def can_open(layout: str, hand: Iterable[str]) -> bool:
    return any(is_opening_card(layout, c) for c in hand)


def grid(table: Table) -> dict[Cell, str]:
    return {(x, y): c for x, y, c in table["cells"]}


def covered(table: Table) -> dict[Cell, str]:
    return {(x, y): s for x, y, s in table["covers"]}


def place(table: Table, card: str, x: int, y: int) -> Table:
    """``table`` with ``card`` placed (no checks: call :func:`refusal` first)."""
    new = dict(table)
    if is_sign(card):
        new["covers"] = table["covers"] + [[x, y, card]]
    else:
        new["cells"] = table["cells"] + [[x, y, card]]
    return new


_v = VALUE.__getitem__


def _up(v: int, d: int) -> int:
    """``v`` moved ``d`` steps along the cyclic scale 1..7."""
    return (v - 1 + d) % 7 + 1


# --------------------------------------------------------------------------- refusals
def refusal(table: Table, card: str, x: int, y: int) -> tuple[str, str] | None:
    """Why ``card`` may not go at ``(x, y)``: ``(code, message)``, or ``None`` when legal."""
    layout = table["layout"]
    name = LAYOUT_NAMES[layout]
    if not table["cells"]:
        if not is_opening_card(layout, card):
            need = "a Do" if layout in ("S", "M") else "an oval card"
            return ("not_an_opening_card", f"{name} opens with {need}; {card} is not one")
        cell = opening_cell(layout, card)
        if (x, y) != cell:
            return ("wrong_opening_cell",
                    f"the opening card {card} goes at ({cell[0]}, {cell[1]})")
        return None
    g = grid(table)
    if is_sign(card):
        return _sign_refusal(table, g, card, x, y)
    if layout == "S":
        return sarabanda(g, card, x, y)
    if layout == "G":
        return glissando(g, card, x, y)
    if layout == "P":
        return parada(g, card, x, y)
    return muzicando(g, card, x, y)


def check(table: Table, card: str, x: int, y: int) -> None:
    why = refusal(table, card, x, y)
    if why is not None:
        raise IllegalMove(why[0], why[1], card=card, x=x, y=y)


def sarabanda(g: dict[Cell, str], card: str, x: int, y: int) -> tuple[str, str] | None:
    """R2, Sarabanda: a note goes in an empty cell orthogonally next to at least one card, one
    step (cyclic) from at least one card it touches, any colour."""
    if (x, y) in g:
        return ("cell_occupied", f"({x}, {y}) already holds {g[(x, y)]}")
    touching = [g[(x + dx, y + dy)] for dx, dy in _SIDES if (x + dx, y + dy) in g]
    if not touching:
        return ("not_adjacent",
                f"in Sarabanda a card goes next to (left, right, above or below) a card on the "
                f"table; ({x}, {y}) touches none")
    v = _v(card)
    if not any((v - _v(t)) % 7 in (1, 6) for t in touching):
        return ("not_a_step",
                f"in Sarabanda a card must be one note above or below (Si and Do touch) at least "
                f"one card it touches; {card} touches {', '.join(touching)}")
    return None


def rows(g: dict[Cell, str]) -> dict[int, tuple[int, int, int | None]]:
    """Glissando rows by line ``y``: ``(lowest x, highest x, direction)``; the direction is +1
    for a scale rising to the right, -1 falling, ``None`` for a row of one card."""
    lines: dict[int, list[int]] = {}
    for (x, y) in g:
        lines.setdefault(y, []).append(x)
    out = {}
    for y, xs in lines.items():
        lo, hi = min(xs), max(xs)
        d = None
        if hi > lo:
            d = 1 if (_v(g[(lo + 1, y)]) - _v(g[(lo, y)])) % 7 == 1 else -1
        out[y] = (lo, hi, d)
    return out


def glissando(g: dict[Cell, str], card: str, x: int, y: int) -> tuple[str, str] | None:
    """R3, Glissando: a row is a scale, its second card fixing whether it rises or falls; a
    new row opens only with an oval, above or below a card of a row, one step from it, on a
    line that holds no row yet."""
    if (x, y) in g:
        return ("cell_occupied", f"({x}, {y}) already holds {g[(x, y)]}")
    r = rows(g)
    v = _v(card)
    if y in r:
        lo, hi, d = r[y]
        if is_oval(card):
            return ("oval_extends_row",
                    f"an oval never extends a row, and line y={y} already holds a row "
                    f"(each line holds at most one row)")
        if x not in (lo - 1, hi + 1):
            return ("not_a_row_end",
                    f"a row grows only at its ends: line y={y} ends at x={lo - 1} and x={hi + 1}")
        end = g[(hi, y)] if x == hi + 1 else g[(lo, y)]
        if d is None:
            if (v - _v(end)) % 7 not in (1, 6):
                return ("not_a_step",
                        f"the second card of a row is one note above or below its oval {end}")
            return None
        want = _up(_v(end), d if x == hi + 1 else -d)
        if v != want:
            return ("breaks_the_scale",
                    f"the row on line y={y} is a {'rising' if d == 1 else 'falling'} scale: "
                    f"x={x} takes a {NOTES[want - 1]}, not a {NOTES[v - 1]}")
        return None
    if not is_oval(card):
        return ("row_needs_oval",
                f"line y={y} holds no row, and a new row opens only with an oval card")
    near = [g[(x, y + dy)] for dy in (1, -1) if (x, y + dy) in g]
    if not near:
        return ("not_above_or_below",
                "a new row opens directly above or below a card of an existing row")
    if not any((v - _v(t)) % 7 in (1, 6) for t in near):
        return ("not_a_step",
                f"a new row's oval must be one note above or below the card it sits on or under "
                f"({', '.join(near)})")
    return None


def _fixed_cell(card: str) -> Cell:
    return (colour_index(card), _v(card))


def parada(g: dict[Cell, str], card: str, x: int, y: int) -> tuple[str, str] | None:
    """Parada: a colour's oval at any time; a note once the note below or above it in its
    colour is down (Do and Si never touch)."""
    cell = _fixed_cell(card)
    if (x, y) != cell:
        return ("wrong_cell",
                f"in Parada each card has its cell (column = colour, row = note): {card} goes at "
                f"({cell[0]}, {cell[1]})")
    if is_oval(card):
        return None
    c, v = cell
    if (c, v - 1) not in g and (c, v + 1) not in g:
        return ("no_neighbour_note",
                f"in Parada {card} needs its colour's note just below or above it on the board "
                f"(Parada is not cyclic: Do and Si never touch)")
    return None


def muzicando(g: dict[Cell, str], card: str, x: int, y: int) -> tuple[str, str] | None:
    """Muzicando: another colour's Do opens a pile; on a pile, that colour's next note."""
    cell = _fixed_cell(card)
    if (x, y) != cell:
        return ("wrong_cell",
                f"in Muzicando each colour's pile is column {colour_index(card)} with the notes "
                f"upwards from Do at y=1: {card} goes at ({cell[0]}, {cell[1]})")
    c, v = cell
    if v == 1:
        return None
    if (c, 1) not in g:
        return ("pile_not_open",
                f"the {colour_of(card)} pile is not open: it starts with the {colour_of(card)} Do")
    if (c, v - 1) not in g:
        top = max(yy for (xx, yy) in g if xx == c)
        return ("not_next_note",
                f"on the {colour_of(card)} pile only its next note ({NOTES[top]}) may be played")
    return None


def _sign_refusal(table: Table, g: dict[Cell, str], card: str, x: int, y: int
                  ) -> tuple[str, str] | None:
    layout = table["layout"]
    colour = colour_of(card)
    ci = COLOURS.index(colour)
    if layout == "P":
        oval = (ci, ci + 1)
        if oval not in g:
            return ("anchor_not_down",
                    f"in Parada the {colour} sign goes on the {colour} oval, which is not down yet")
        if (x, y) != oval:
            return ("wrong_cell", f"in Parada the {colour} sign goes on the {colour} oval at "
                                  f"({oval[0]}, {oval[1]})")
        return None
    if layout == "M":
        foot = (ci, 1)
        if foot not in g:
            return ("anchor_not_down",
                    f"in Muzicando the {colour} sign is played beside the {colour} pile, which is "
                    f"not open yet")
        if (x, y) != foot:
            return ("wrong_cell", f"in Muzicando the {colour} sign is played at its pile's foot "
                                  f"({foot[0]}, {foot[1]})")
        return None
    target = g.get((x, y))
    if target is None:
        return ("nothing_to_cover", f"a sign covers a card, and ({x}, {y}) is empty")
    if colour_of(target) != colour:
        return ("sign_wrong_colour", f"the {colour} sign covers only a {colour} card, not {target}")
    if not all((x + dx, y + dy) in g for dx, dy in _SIDES):
        return ("not_surrounded",
                f"a sign covers a card whose four sides are all occupied; {target} at ({x}, {y}) "
                f"has an empty side")
    return None


# --------------------------------------------------------------------------- enumeration
def legal_map(table: Table, cards: Iterable[str]) -> dict[str, list[Cell]]:
    """Every legal cell of each card (cells sorted by ``(x, y)``)."""
    cards = list(cards)
    layout = table["layout"]
    out: dict[str, list[Cell]] = {c: [] for c in cards}
    if not table["cells"]:
        for c in cards:
            if is_opening_card(layout, c):
                out[c] = [opening_cell(layout, c)]
        return out
    g = grid(table)
    notes = [c for c in cards if not is_sign(c)]
    for c in cards:
        if is_sign(c):
            out[c] = _sign_cells(table, g, c)
    if layout == "S":
        by_value: dict[int, set[Cell]] = {}
        for (x, y), c in g.items():
            v = _v(c)
            up, down = by_value.setdefault(_up(v, 1), set()), by_value.setdefault(_up(v, -1), set())
            for dx, dy in _SIDES:
                cell = (x + dx, y + dy)
                if cell not in g:
                    up.add(cell)
                    down.add(cell)
        for c in notes:
            out[c] = sorted(by_value.get(_v(c), ()))
    elif layout == "G":
        r = rows(g)
        by_value = _row_ends(g, r)   # non-oval cards: row ends
        ovals: dict[int, set[Cell]] = {}      # ovals: new rows
        for (x, y), c in g.items():
            v = _v(c)
            for dy in (1, -1):
                if y + dy not in r:
                    for w in (_up(v, 1), _up(v, -1)):
                        ovals.setdefault(w, set()).add((x, y + dy))
        for c in notes:
            src = ovals if is_oval(c) else by_value
            out[c] = sorted(src.get(_v(c), ()))
    else:
        for c in notes:
            cell = _fixed_cell(c)
            if cell in g:
                continue
            if (parada if layout == "P" else muzicando)(g, c, *cell) is None:
                out[c] = [cell]
    return out


def _sign_cells(table: Table, g: dict[Cell, str], card: str) -> list[Cell]:
    layout = table["layout"]
    ci = COLOURS.index(colour_of(card))
    if layout in ("P", "M"):
        anchor = (ci, ci + 1) if layout == "P" else (ci, 1)
        return [anchor] if anchor in g else []
    colour = COLOURS[ci]
    return sorted(cell for cell, c in g.items() if colour_of(c) == colour
                  and all((cell[0] + dx, cell[1] + dy) in g for dx, dy in _SIDES))


def _row_ends(g: dict[Cell, str], lines: dict[int, Any]) -> dict[int, set[Cell]]:
    """Glissando: the cells at the ends of the rows ``lines`` (``y -> (lo, hi, direction)``)
    that a note of each value may take."""
    by_value: dict[int, set[Cell]] = {}
    for y, (lo, hi, d) in lines.items():
        vlo, vhi = _v(g[(lo, y)]), _v(g[(hi, y)])
        if d is None:
            for cell in ((lo - 1, y), (hi + 1, y)):
                for v in (_up(vlo, 1), _up(vlo, -1)):
                    by_value.setdefault(v, set()).add(cell)
        else:
            by_value.setdefault(_up(vhi, d), set()).add((hi + 1, y))
            by_value.setdefault(_up(vlo, -d), set()).add((lo - 1, y))
    return by_value


class LegalCells:
    """The legal cells of each card on one table, kept up to date as the table grows
    (:func:`legal_map` works them out afresh from every card on the table, which is most of a
    search's playout's cost on Sarabanda's and Glissando's open grids). The table may only
    grow: notes added to its cells, signs to its covers, as in one hand; :meth:`cells` takes
    in the notes added since it last looked and answers what ``legal_map`` answers (a test
    checks it, move by move)."""

    def __init__(self, layout: str) -> None:
        self.layout = layout
        self.seen = 0                               # the table's notes taken in so far
        self.grid: dict[Cell, str] = {}
        self.by_value: dict[int, set[Cell]] = {}    # S: empty cells by the value
        self.rows: dict[int, list[Any]] = {}        # G: line -> [lo, hi, direction]
        self.sides: list[tuple[int, Cell]] = []     # G: (oval value, cell) above/below
        self.surrounded: set[Cell] = set()          # notes with four sides taken

    def _add(self, x: int, y: int, card: str) -> None:
        g = self.grid
        g[(x, y)] = card
        v = _v(card)
        for cx, cy in ((x, y), (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (cx, cy) in g and all((cx + dx, cy + dy) in g for dx, dy in _SIDES):
                self.surrounded.add((cx, cy))
        if self.layout == "S":
            for cells in self.by_value.values():
                cells.discard((x, y))
            up = self.by_value.setdefault(_up(v, 1), set())
            down = self.by_value.setdefault(_up(v, -1), set())
            for dx, dy in _SIDES:
                cell = (x + dx, y + dy)
                if cell not in g:
                    up.add(cell)
                    down.add(cell)
        elif self.layout == "G":
            row = self.rows.get(y)
            if row is None:
                self.rows[y] = [x, x, None]
            else:
                row[0], row[1] = min(row[0], x), max(row[1], x)
                if row[2] is None:
                    lo = row[0]
                    row[2] = 1 if (_v(g[(lo + 1, y)]) - _v(g[(lo, y)])) % 7 == 1 else -1
            for dy in (1, -1):
                for w in (_up(v, 1), _up(v, -1)):
                    self.sides.append((w, (x, y + dy)))

    def cells(self, table: dict[str, Any], cards: list[str]) -> dict[str, list[Cell]]:
        """``legal_map(table, cards)``, for this playout's table."""
        layout = self.layout
        if not table["cells"] or layout in ("P", "M"):
            return legal_map(table, cards)
        new = table["cells"]
        for x, y, c in new[self.seen:]:
            self._add(x, y, c)
        self.seen = len(new)
        g = self.grid
        out: dict[str, list[Cell]] = {}
        if layout == "S":
            for c in cards:
                out[c] = (self._sign_cells(c) if is_sign(c)
                          else sorted(self.by_value.get(_v(c), ())))
            return out
        by_value = _row_ends(g, self.rows)
        ovals: dict[int, set[Cell]] = {}
        for w, cell in self.sides:
            if cell[1] not in self.rows:
                ovals.setdefault(w, set()).add(cell)
        for c in cards:
            if is_sign(c):
                out[c] = self._sign_cells(c)
            else:
                out[c] = sorted((ovals if is_oval(c) else by_value).get(_v(c), ()))
        return out

    def _sign_cells(self, card: str) -> list[Cell]:
        colour = colour_of(card)
        return sorted(cell for cell in self.surrounded if colour_of(self.grid[cell]) == colour)



def cells_view(table: Table) -> list[dict[str, Any]]:
    cov = covered(table)
    return [{"x": x, "y": y, "card": c, "covered_by": cov.get((x, y))}
            for x, y, c in sorted(table["cells"], key=lambda t: (t[1], t[0]))]


def rows_view(table: Table) -> list[dict[str, Any]]:
    if table["layout"] != "G":
        return []
    out = []
    for y, (lo, hi, d) in sorted(rows(grid(table)).items()):
        out.append({"y": y, "from_x": lo, "to_x": hi,
                    "direction": None if d is None else ("rising" if d == 1 else "falling")})
    return out


def piles_view(table: Table) -> list[dict[str, Any]]:
    if table["layout"] != "M":
        return []
    g = grid(table)
    cov = covered(table)
    out = []
    for ci, colour in enumerate(COLOURS):
        if (ci, 1) not in g:
            continue
        top = max(y for (x, y) in g if x == ci)
        out.append({"colour": colour, "x": ci, "top": g[(ci, top)], "complete": top == 7,
                    "sign": cov.get((ci, 1))})
    return out
