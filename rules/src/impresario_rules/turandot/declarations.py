"""Turandot declared: its options, moves, view, score, action spaces and events, as data
(``impresario_rules.declare``). The engine's HTTP schemas and ``openapi.yaml`` are built from
these; the rules check moves with them; tests hold every view, event and action space to them.
"""

from __future__ import annotations

from ..declare import (Bool, Declarations, Refusals, Either, Int, List, Obj, OneOf, Shape, Str, event,
                       move, space)
from ..base import SETUP
from .cards import CATEGORIES, DIRECTORS, FAVOURITE_ROLES, HELPERS, SEXES, SINGER_ID
from .scoring import LINES
from .state import (BIDDING, CASTING, OVER, FIRE, MAX_PLAYERS, NOMINATE, OFFICE, ROUNDS,
                    START_MONEY)

#: the most seats and slots any Turandot table has
MAX_SEATS = MAX_PLAYERS
MAX_SLOTS = MAX_PLAYERS + 1
PHASES = (SETUP, BIDDING, OFFICE, NOMINATE, FIRE, CASTING, OVER)

# ---------------------------------------------------------------------------- cards
SINGER = Shape("Singer", {
    "id": Str(example="S04"),
    "kind": Str(enum=["singer"]),
    "category": Str(enum=CATEGORIES),
    "sex": Str(enum=SEXES),
    "stars": Int(minimum=1, maximum=3),
    "favourite_role": Str(nullable=True, enum=FAVOURITE_ROLES),
})
DIRECTOR = Shape("Director", {
    "id": Str(example="neutral"),
    "kind": Str(enum=["director"]),
    "effect": Str(),
})
CARD = OneOf("Card", (SINGER, DIRECTOR), by="kind",
             doc="A singer or a director, told apart by `kind`.")
CATALOGUE_ENTRY = Shape("CatalogueEntry", {
    "id": Str(pattern=SINGER_ID, judged=True),
    "category": Str(enum=CATEGORIES, judged=True),
    "sex": Str(enum=SEXES, judged=True),
    "stars": Int(minimum=1, maximum=3, judged=True),
    "favourite_role": Str(required=False, nullable=True, enum=[*FAVOURITE_ROLES, "", None],
                          judged=True, description="empty or null: none"),
    "kind": Str(required=False, enum=["singer"], judged=True),
})

# ---------------------------------------------------------------------------- options
OPTIONS = Shape("TurandotOptions", {
    "first_maestro": Either(
        Int(minimum=0, maximum=MAX_SEATS - 1, judged=True), Str(enum=["random"], judged=True),
        required=False, default=0,
        description="seat of the first maestro (Puccini), or 'random' to draw it"),
    "catalogue": List(
        Obj(CATALOGUE_ENTRY), required=False, nullable=True, default=None, min_items=36,
        max_items=36, judged=True,
        description="another singer catalogue: 36 objects {id, category, sex, stars, "
                    "favourite_role}, 6 per category (default: the shipped design)"),
})

# ---------------------------------------------------------------------------- moves
SEAT = Int(minimum=0, maximum=MAX_SEATS - 1, judged=True)
SLOT = Int(minimum=1, maximum=MAX_SLOTS, judged=True)
OFFICE_ASSIGNMENT = Shape("OfficeAssignment", {"seat": SEAT, "slot": SLOT})
MOVES = (
    move("bid", {
        "slot": SLOT.but(nullable=True, example=3,
                         description="1 to players + 1 (slot_out_of_range), or null for a "
                                     "helper"),
        "money": Int(required=False, default=0, minimum=0, maximum=START_MONEY, example=1),
        "bluff": Bool(required=False, default=False, example=False),
        "round": Int(required=False, nullable=True, minimum=1, maximum=ROUNDS,
                     description="the round this bid is for: a late retry that would land in "
                                 "another round is refused with 409 stale_round instead"),
    }, "A sealed bid: a number card (slot) with 0+ money, or one money card alone (slot null) "
       "for a helper; the bluff card may be added to either."),
    move("assign_office", {
        "assignments": List(Obj(OFFICE_ASSIGNMENT), min_items=1, max_items=MAX_SEATS),
    }),
    move("nominate", {"seat": SEAT}),
    move("fire_director", {
        "director": Str(example="neutral", enum=DIRECTORS, judged=True),
    }),
    move("cast", {
        "roles": List(Str(min_length=1, max_length=32, pattern=SINGER_ID, judged=("pattern",)),
                      required=False, nullable=True, default=None, min_items=6, max_items=6),
    }, "Your 6 singers in role order: Turandot, Calaf, Liù, Ping, Pong, Pang; null or omitted: "
       "the engine's optimal arrangement (R6)."),
)

# ---------------------------------------------------------------------------- view
TABLE_PLACE = Shape("TablePlace", {"slot": Int(), "card": Obj(CARD, nullable=True)})
FIRED = Shape("Fired", {"seat": Int(), "director": Obj(DIRECTOR)})
PLAYER = Shape("TurandotPlayer", {
    "seat": Int(),
    "singers": List(Obj(SINGER)),
    "director": Obj(DIRECTOR, nullable=True),
    "stage_elements": Int(),
    "money": Int(),
    "face_down": Int(description="cards this seat has committed face down this round (R3)"),
    "has_bid": Bool(nullable=True),
    "cast": List(Str(), nullable=True),
})
PENDING = Shape("Pending", {"seat": Int(), "kinds": List(Str())})
REVEALED_BID = Shape("RevealedBid", {
    "seat": Int(), "slot": Int(nullable=True), "money": Int(), "bluff": Bool()})
BID = Shape("Bid", {"slot": Int(nullable=True), "money": Int(), "bluff": Bool()})
HAND = Shape("Hand", {"numbers": List(Int()), "money": Int(), "bluff": Bool()})
YOU = Shape("You", {"seat": Int(), "hand": Obj(HAND), "bid": Obj(BID, nullable=True)})
DUMMY = Shape("Dummy", {"singers": List(Obj(SINGER)), "director": Obj(DIRECTOR, nullable=True)})
SCORE_LINES = Shape("ScoreLines", {line: Int() for line in LINES})
PLAYER_SCORE = Shape("PlayerScore", {
    "seat": Int(), "lines": Obj(SCORE_LINES), "total": Int(), "cast": List(Str())})
DUMMY_SCORE = Shape("DummyScore", {
    "lines": Obj(SCORE_LINES), "total": Int(), "cast": List(Str())})
SCORE = Shape("TurandotScore", {
    "players": List(Obj(PLAYER_SCORE)),
    "dummy": Obj(DUMMY_SCORE, nullable=True),
    "winners": List(Int()),
    "dummy_wins": Bool(),
})
VIEW = Shape("TurandotView", {
    "round": Int(),
    "phase": Str(enum=PHASES),
    "maestro": Int(),
    "table": List(Obj(TABLE_PLACE)),
    "directors": List(Obj(DIRECTOR), description="the public director pile"),
    "fired": List(Obj(FIRED)),
    "removed_directors": List(Obj(DIRECTOR)),
    "helpers": List(Str()),
    "players": List(Obj(PLAYER)),
    "dummy": Obj(DUMMY, nullable=True),
    "pending": List(Obj(PENDING)),
    "reveal": List(Obj(REVEALED_BID), nullable=True,
                   description="the bids of the last reveal"),
    "reveal_round": Int(nullable=True, description="the round whose bids `reveal` shows (the "
                                                   "previous one while bidding)"),
    "waiting": List(Int()),
    "nominee": Int(nullable=True),
    "deck_left": Int(),
    "you": Obj(YOU, required=False, description="present for a seated caller"),
    "score": Obj(SCORE, required=False, description="present once finished"),
}, "A Turandot game as the caller may see it.")

# ---------------------------------------------------------------------------- action spaces
SPACES = (
    space("bid", {"slots": List(Int()), "max_money": Int(), "helper": Bool(), "bluff": Bool()},
          "Bid one of `slots` with up to `max_money` money cards, the bluff card or not; with "
          "`helper`, one money card alone bids for a helper."),
    space("assign_office", {"seats": List(Int()), "slots": List(Int())},
          "Give each of `seats` one of the cards left under `slots`."),
    space("nominate", {"seats": List(Int())}, "Name one of `seats` to fire a director."),
    space("fire_director", {"directors": List(Str(enum=DIRECTORS))},
          "Fire one of `directors`."),
    space("cast", {"singers": List(Str()), "optimal": List(Str()), "optimal_total": Int()},
          "Cast `singers` in the six roles; `optimal` is the best arrangement (R6), worth "
          "`optimal_total`."),
)

# ---------------------------------------------------------------------------- events
ROUND = Int(minimum=1, maximum=ROUNDS)
EVENTS = (
    event("round_started", {"round": ROUND, "maestro": Int(), "table": List(Str())},
          "The maestro lays the round's cards under the slots."),
    event("directors_removed", {"round": ROUND, "directors": List(Str(enum=DIRECTORS))},
          "Round 4: the directors not laid out leave the game."),
    event("bid_committed", {"round": ROUND, "seat": Int(), "face_down": Int(),
                            "bid": Obj(BID, required=False,
                                       description="to the bidder only")},
          "A seat committed its sealed bid (everyone sees how many cards, R3)."),
    event("bids_revealed", {"round": ROUND, "bids": List(Obj(REVEALED_BID))}),
    event("slot_tied", {"round": ROUND, "slot": Int(), "seats": List(Int())},
          "Nobody played strictly more money on the slot: nobody takes it."),
    event("hired", {"round": ROUND, "seat": Int(), "slot": Int(), "card": Str(),
                    "money_spent": Int(), "by": Str(enum=["bid", "office"])}),
    event("helper_hired", {"round": ROUND, "seat": Int(), "helper": Str(enum=HELPERS)}),
    event("helper_missed", {"round": ROUND, "seat": Int()}),
    event("office_pending", {"round": ROUND, "seats": List(Int())}),
    event("dummy_received", {"round": ROUND, "card": Str()}),
    event("card_discarded", {"round": ROUND, "card": Str()}),
    event("nominated", {"round": ROUND, "seat": Int(),
                        "forced": Bool(required=False, description="the only choice (2 players)")}),
    event("director_fired", {"round": ROUND, "seat": Int(), "director": Str(enum=DIRECTORS)}),
    event("round_ended", {"round": ROUND, "next_maestro": Int(nullable=True)}),
    event("casting_started", {}),
    event("cast", {"seat": Int(), "roles": List(Str())}),
    event("game_finished", {"winners": List(Int()), "dummy_wins": Bool(),
                            "totals": List(Int())}, name="TurandotGameFinishedEvent"),
)

# ---------------------------------------------------------------------------- refusals
REFUSALS = Refusals(
    illegal=("cannot_nominate_self", "director_not_in_pile", "duplicate_slot", "empty_bid",
             "helper_bid_one_money", "maestro_cannot_hire_helper",
             "no_helpers_in_director_round", "not_a_permutation", "not_enough_money",
             "office_seats_mismatch", "slot_empty", "slot_out_of_range"),
    not_now=("already_cast", "bid_already_committed", "not_bidding_phase", "not_casting_phase",
             "not_fire_phase", "not_nominate_phase", "not_office_phase", "not_your_turn"),
    stale=("stale_round",),
    options=("invalid_catalogue", "invalid_first_maestro"),
    calculator=("not_six_singers",),
    score=("game_not_finished",),
)

DECLARATIONS = Declarations(options=OPTIONS, moves=MOVES, view=VIEW, score=SCORE, spaces=SPACES,
                            events=EVENTS, refusals=REFUSALS)
