"""The events the table records itself, beside each ruleset's own (``Declarations.events``):
seats taken, held, left; the start; a deadline that passed; a game abandoned; the game a
rematch comes from. Declared once here; the API's ``Event`` union is built from these and the
rulesets' declarations."""

from __future__ import annotations

from impresario_rules import RULESETS
from impresario_rules import declare as D

#: every move type of every ruleset (what a seat may be asked for)
MOVE_TYPES = tuple(sorted({kind for r in RULESETS.values() for kind in r.move_types}))
SEAT = D.Int(minimum=0)

EVENTS = (
    D.event("seat_taken", {"seat": SEAT, "name": D.Str(),
                           "bot": D.Str(nullable=True, description="the bot playing the seat")},
            "A player (or the host's bot) took a seat."),
    D.event("seat_held", {"seat": SEAT, "name": D.Str(),
                          "until": D.Num(description="Unix time, seconds: the seat is free "
                                                     "for anyone after it")},
            "A rematch holds the seat for the player who had it in the finished game."),
    D.event("seat_left", {"seat": SEAT, "name": D.Str(nullable=True),
                          "bot": D.Str(nullable=True, description="who plays the seat from "
                                                                  "now on (null: it is free)")},
            "A player left the seat."),
    D.event("game_started", {}, "Every seat is taken: the game begins."),
    D.event("deadline_passed", {"seat": SEAT, "kinds": D.List(D.Str(enum=MOVE_TYPES))},
            "The seat's time ran out: the engine plays its default move for it."),
    D.event("game_abandoned", {"idle_seconds": D.Int(minimum=0)},
            "Nobody moved for too long: the engine plays out the game."),
    D.event("rematch_of", {"game": D.Str(description="the finished game's id")},
            "This game is the rematch of a finished game."),
)
