"""Muzicando declared: its options, moves, view, score, action spaces and events, as data
(``impresario_rules.declare``).

Card ids: ``"<colour>-<1..7>"`` (Do = 1 … Si = 7) or ``"<colour>-sign"``. Coordinates: Sarabanda
and Glissando open at (0, 0) on an unbounded grid (y grows upwards); Parada and Muzicando use the
fixed board x = colour index 0–6, y = note 1–7. A sign's (x, y) is the cell of the note it covers.
"""

from __future__ import annotations

from ..declare import (Bool, Declarations, Refusals, Either, Int, List, Obj, Shape, Str, event, move,
                       space)
from ..base import SETUP
from .cards import COLOURS, DECK, SIGNS
from .layouts import LAYOUTS
from .state import (AUCTION, CHOOSE, CONTRACTS, OVER, INDIVIDUAL, MAX_HANDS, MAX_PLAYERS, PLAY,
                    TEAM)

#: 56 cards never reach further than this from the opening card
COORD = 64
MODES = (TEAM, INDIVIDUAL)
CARD = Str(enum=DECK, example="red-3")
#: in a move, the sets and ranges are the rules' to judge (unknown_contract, unknown_layout,
#: unknown_card, the layouts' cell codes)
MOVE_CARD = CARD.but(judged=True)
COORDINATE = Int(minimum=-COORD, maximum=COORD, judged=True)

# ---------------------------------------------------------------------------- options
OPTIONS = Shape("MuzicandoOptions", {
    "mode": Str(enum=MODES, required=False, judged=True,
                default_text="team with 4 players, else individual",
                description="the team game (exactly 4 players, North–South seats 0 and 2 "
                            "against East–West 1 and 3) or the individual game (2–8 players)"),
    "hands": Int(minimum=1, maximum=MAX_HANDS, required=False, judged=True,
                 default_text="4 (team), the number of players (individual)",
                 description="hands in the match: in the team game at least 4 (the rulebook's "
                             "'minimo 4 aste'), in the individual game a multiple of the "
                             f"number of players (R8); at most {MAX_HANDS}"),
    "auction": Bool(required=False,
                    default_text="true in the team game (which always has it), false in the "
                                 "individual game",
                    description="the auction for the declarer and the layout: the team game "
                                "always has it (team_game_has_auction for false); in the "
                                "individual game, for 4 or 8 players, R11's variant with the "
                                "whole deck dealt"),
    "first_dealer": Either(
        Int(minimum=0, maximum=MAX_PLAYERS - 1, judged=True),
        Str(enum=["random"], judged=True), required=False, default=0,
        description="the seat that deals the first hand, or 'random'"),
})

# ---------------------------------------------------------------------------- moves
MOVES = (
    move("auction_bid", {"contract": Str(enum=CONTRACTS, example="2G", judged=True)},
         "A bid in the auction: a contract strictly higher than the last bid, for a layout "
         "whose opening card you hold (R7)."),
    move("auction_pass", {}),
    move("choose_layout", {"layout": Str(enum=LAYOUTS, example="P", judged=True)},
         "The chooser (individual game) names the layout: S, G, P or M."),
    move("place", {"card": MOVE_CARD, "x": COORDINATE.but(example=0),
                   "y": COORDINATE.but(example=1)},
         "Place a card from your hand at (x, y); a sign's (x, y) is the cell of the note it "
         "covers."),
    move("pass", {}, "Pass: draws a card while the pile lasts; without a pile only with no "
                     "note to place (R5)."),
)

# ---------------------------------------------------------------------------- view
PLAYER = Shape("MuzicandoPlayer", {
    "seat": Int(),
    "team": Int(nullable=True, description="team game: 0 North–South (seats 0, 2), 1 East–West "
                                           "(seats 1, 3)"),
    "hand_size": Int(),
    "blocked": Bool(description="skips his next turn"),
    "out": Bool(description="emptied his hand this hand"),
    "place": Int(nullable=True, description="finishing place, once out"),
    "total": Int(description="points so far in the match"),
})
CALL = Shape("Call", {"seat": Int(), "call": Str(enum=[*CONTRACTS, "pass"])})
STANDING_BID = Shape("StandingBid", {"seat": Int(), "contract": Str(enum=CONTRACTS)})
AUCTION_VIEW = Shape("Auction", {
    "calls": List(Obj(CALL)),
    "bid": Obj(STANDING_BID, nullable=True),
    "dealer_must_bid": Bool(),
})
CELL = Shape("Cell", {
    "x": Int(), "y": Int(), "card": CARD,
    "covered_by": Str(nullable=True, enum=SIGNS),
})
ROW = Shape("Row", {
    "y": Int(), "from_x": Int(), "to_x": Int(),
    "direction": Str(nullable=True, enum=["rising", "falling"]),
})
PILE = Shape("Pile", {
    "colour": Str(enum=COLOURS),
    "x": Int(),
    "top": CARD,
    "complete": Bool(),
    "sign": Str(nullable=True),
})
TABLE = Shape("MuzicandoTable", {
    "cells": List(Obj(CELL)),
    "rows": List(Obj(ROW), description="Glissando: the rows, one per line"),
    "piles": List(Obj(PILE), description="Muzicando: the open piles"),
})
PLACE_ENTRY = Shape("PlaceEntry", {"seat": Int(), "place": Int()})
HAND_PLACE = Shape("HandPlace", {
    "seat": Int(),
    "place": Int(),
    "finished": Bool(description="went out (false: placed by R6 with cards left)"),
    "cards_left": Int(),
})
HAND_RESULT = Shape("HandResult", {
    "hand": Int(),
    "dealer": Int(),
    "layout": Str(enum=LAYOUTS),
    "contract": Str(nullable=True),
    "declarer": Int(nullable=True),
    "chooser": Int(nullable=True),
    "made": Bool(nullable=True, description="the declarer's target met (null without an "
                                            "auction)"),
    "places": List(Obj(HAND_PLACE)),
    "place_points": List(Int()),
    "contract_points": List(Int()),
    "chooser_points": List(Int()),
    "points": List(Int()),
})
YOU = Shape("MuzicandoYou", {"seat": Int(), "hand": List(CARD)})
LINES = Shape("MuzicandoLines", {"places": Int(), "contracts": Int(), "chooser": Int()})
PLAYER_SCORE = Shape("MuzicandoPlayerScore", {
    "seat": Int(), "lines": Obj(LINES), "total": Int()})
TEAM_SCORE = Shape("MuzicandoTeamScore", {"team": Int(), "seats": List(Int()), "total": Int()})
SCORE = Shape("MuzicandoScore", {
    "mode": Str(enum=MODES),
    "players": List(Obj(PLAYER_SCORE)),
    "teams": List(Obj(TEAM_SCORE), description="team game: both teams (empty in the individual "
                                               "game)"),
    "winners": List(Int()),
    "hands": List(Obj(HAND_RESULT)),
})
PENDING = Shape("Pending", {"seat": Int(), "kinds": List(Str())})
VIEW = Shape("MuzicandoView", {
    "mode": Str(enum=MODES),
    "auction_variant": Bool(description="hands open with the auction (team game, or R11)"),
    "hand": Int(),
    "hands": Int(),
    "phase": Str(enum=[SETUP, AUCTION, CHOOSE, PLAY, OVER],
                 description="setup: seats are still being taken, nothing is dealt"),
    "dealer": Int(),
    "turn": Int(nullable=True),
    "players": List(Obj(PLAYER)),
    "pending": List(Obj(PENDING)),
    "pile_size": Int(),
    "auction": Obj(AUCTION_VIEW, nullable=True),
    "contract": Str(nullable=True),
    "declarer": Int(nullable=True),
    "chooser": Int(nullable=True),
    "layout": Str(nullable=True, enum=LAYOUTS),
    "table": Obj(TABLE),
    "blocked": List(Int()),
    "queued_blocks": List(Int(), description="blocks laid during a rest's run, taking effect "
                                             "when it ends"),
    "run": Int(nullable=True, description="the seat on a rest's run"),
    "places": List(Obj(PLACE_ENTRY)),
    "results": List(Obj(HAND_RESULT)),
    "totals": List(Int()),
    "team_totals": List(Int(), nullable=True),
    "you": Obj(YOU, required=False, description="present for a seated caller"),
    "score": Obj(SCORE, required=False, description="present once finished"),
}, "A game as the caller may see it (Muzicando).")

# ---------------------------------------------------------------------------- action spaces
CELL_XY = Shape("MuzicandoCellXY", {"x": Int(), "y": Int()})
PLACE_OPTION = Shape("MuzicandoPlaceOption", {"card": CARD, "cells": List(Obj(CELL_XY))})
SPACES = (
    space("auction_bid", {"contracts": List(Str(enum=CONTRACTS)),
                          "last_bid": Str(nullable=True, enum=CONTRACTS)},
          "Bid one of `contracts` (higher than `last_bid`, for a layout you can open)."),
    space("auction_pass", {}, "Pass in the auction."),
    space("choose_layout", {"layouts": List(Str(enum=LAYOUTS))},
          "Choose one of `layouts` (those you can open)."),
    space("place", {"cards": List(Obj(PLACE_OPTION))},
          "Place one of your cards on one of its legal cells (a card with no cell cannot be "
          "placed now)."),
    space("pass", {"draws": Bool(description="passing draws a card from the pile")},
          "Pass."),
)

# ---------------------------------------------------------------------------- events
HAND = Int(minimum=1, maximum=MAX_HANDS)
EVENTS = (
    event("hand_dealt", {"hand": HAND, "dealer": Int(), "hand_sizes": List(Int()),
                         "pile_size": Int(),
                         "cards": List(CARD, required=False, description="to each seat: its "
                                                                          "own hand")}),
    event("auction_started", {"hand": HAND, "dealer": Int()}),
    event("chooser", {"hand": HAND, "seat": Int()}, "The seat that chooses the layout (R10).",
          name="ChooserEvent"),
    event("choice_passed", {"hand": HAND, "seat": Int(), "reason": Str()}),
    event("redeal", {"hand": HAND, "dealer": Int(), "reason": Str()}),
    event("auction_bid", {"hand": HAND, "seat": Int(), "contract": Str(enum=CONTRACTS)}),
    event("auction_pass", {"hand": HAND, "seat": Int()}),
    event("dealer_must_bid", {"hand": HAND, "seat": Int()}),
    event("auction_won", {"hand": HAND, "seat": Int(), "contract": Str(enum=CONTRACTS),
                          "level": Int(minimum=1, maximum=4), "layout": Str(enum=LAYOUTS)}),
    event("layout_chosen", {"hand": HAND, "seat": Int(), "layout": Str(enum=LAYOUTS)}),
    event("card_placed", {"hand": HAND, "seat": Int(), "card": CARD, "x": Int(), "y": Int(),
                          "cards_left": Int()}),
    event("run_started", {"seat": Int()}),
    event("run_passed", {"seat": Int(), "to": Int()}),
    event("run_ended", {"seat": Int()}),
    event("block_queued", {"seat": Int(), "sign": Str(enum=["sharp", "natural", "flat"]),
                           "seats": List(Int())}),
    event("blocked", {"seat": Int(), "sign": Str(nullable=True,
                                                 enum=["sharp", "natural", "flat"]),
                      "seats": List(Int())}),
    event("turn_skipped", {"hand": HAND, "seat": Int()}),
    event("passed", {"hand": HAND, "seat": Int(), "drew": Bool(), "pile_size": Int(),
                     "card": CARD.but(required=False, description="to the drawer only")}),
    event("player_out", {"hand": HAND, "seat": Int(), "place": Int()}),
    event("table_blocked", {"hand": HAND, "seats": List(Int())}),
    event("hand_scored", dict(HAND_RESULT.fields), "A hand's places and points (R6, R8)."),
    event("game_finished", {"winners": List(Int()), "totals": List(Int())},
          name="MuzicandoGameFinishedEvent"),
)

# ---------------------------------------------------------------------------- refusals
#: a card that cannot go to a cell, and why (layouts.refusal)
CELL_REFUSALS = ("anchor_not_down", "breaks_the_scale", "cell_occupied", "no_neighbour_note",
                 "not_a_row_end", "not_a_step", "not_above_or_below", "not_adjacent",
                 "not_an_opening_card", "not_next_note", "not_surrounded", "nothing_to_cover",
                 "oval_extends_row", "pile_not_open", "row_needs_oval", "sign_wrong_colour",
                 "wrong_cell", "wrong_opening_cell")
REFUSALS = Refusals(
    illegal=("bid_too_low", "cannot_open", "card_not_in_hand", "dealer_must_bid", "must_open",
             "must_play", "unknown_card", "unknown_contract", "unknown_layout",
             *CELL_REFUSALS),
    not_now=("not_auction_phase", "not_choose_phase", "not_play_phase", "not_your_turn"),
    options=("auction_needs_four_or_eight", "hands_not_multiple", "invalid_auction",
             "invalid_first_dealer", "invalid_hands", "invalid_mode", "team_game_has_auction",
             "team_needs_four_hands", "team_needs_four_players"),
    score=("game_not_finished",),
)

DECLARATIONS = Declarations(options=OPTIONS, moves=MOVES, view=VIEW, score=SCORE, spaces=SPACES,
                            events=EVENTS, refusals=REFUSALS)
