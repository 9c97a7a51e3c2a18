"""Word Jam declared: its options, moves, view, score, action spaces and events, as data
(``impresario_rules.declare``). Names carry a ``WordJam`` prefix so that they never collide with
another ruleset's in the spec's components."""

from __future__ import annotations

from ..declare import (Bool, Declarations, Refusals, Int, List, Obj, Shape, Str, event, move, space)
from .state import (MAX_EXTRA_TURNS, MAX_SECONDS, NOT_IN_DICTIONARY, OUTCOMES, PHASES,
                    SECONDS_OPTIONS, SIDE_NAMES, TURNS, VOTES_TO_STAND)
from .themes import DEFAULT_LANGUAGE, LANGUAGES
from .words import CONSONANTS, MAX_WORD_CHARS, REASON_TEXT, WORD_PATTERN

CONSONANT = Str(enum=CONSONANTS)
SIDE = Str(enum=SIDE_NAMES)
REASON = Str(enum=[*REASON_TEXT, NOT_IN_DICTIONARY])
ABOUT = Str(enum=["call", "declaration"])
WORD_ID = Int(minimum=1, maximum=2**31)
#: a word in a move: the spec says what the rules accept, the rules refuse the rest with their
#: own codes (word_empty, word_too_long, word_invalid_characters)
WORD = Str(min_length=1, max_length=MAX_WORD_CHARS, pattern=WORD_PATTERN, judged=True)
CHECK = Str(nullable=True, enum=["eight_letters", "first_letter"],
            description="what the engine checks itself beyond letters, forbidden and reuse")

# ---------------------------------------------------------------------------- options
CAVE = Shape("WordJamCave", {
    colour: List(Int(minimum=0, maximum=99), min_items=TURNS, max_items=TURNS)
    for colour in ("red", "yellow")})
OPTIONS = Shape("WordJamOptions", {
    **{key: Int(required=False, minimum=1, maximum=MAX_SECONDS, judged=True, default=default,
                example=default, description=f"{text} (seconds, 1–{MAX_SECONDS})")
       for key, (default, text) in SECONDS_OPTIONS.items()},
    "cave": Obj(CAVE, required=False, nullable=True, default=None, judged=True,
                description="R1: another cave, {red: [8 integers], yellow: [8 integers]} "
                            "(default red 2,3,3,4,4,5,5,6 and yellow 1,1,2,2,2,3,3,4)"),
    "no_visible_objects": Bool(required=False, default=False,
                               description="R11: leave the Style card 'Objects visible from "
                                           "where you sit' out"),
    "dictionary": Bool(required=False, default=False,
                       description="refuse words the lexicon (wordfreq's Italian and English "
                                   "lists) does not know (word_not_in_dictionary), for tables "
                                   "of strangers; off, words are the table's call as in the "
                                   "rulebook"),
    "language": Str(required=False, enum=list(LANGUAGES), default=DEFAULT_LANGUAGE,
                    judged=True, example=DEFAULT_LANGUAGE,
                    description="the language the table plays in: the words the bots call, "
                                "challenge and vote on (it Italian, en English; invalid_language "
                                "otherwise); the dictionary option knows Italian and English "
                                "words whatever it is"),
})

# ---------------------------------------------------------------------------- moves
MOVES = (
    move("choose_side", {"side": SIDE.but(example="ali_baba", judged=True)},
         "Turn 8: choose your side secretly, before anyone calls.",
         name="WordJamChooseSideMove"),
    move("open_sesame", {"word": WORD.but(example="pinguino")},
         "Call Open Sesame with your word. The first call the engine commits wins (409 "
         "``sesame_already_called`` for the others); a word that fails the engine's checks is "
         "refused (422 ``word_<reason>``) and does not make you Alì Babà.",
         name="WordJamOpenSesameMove"),
    move("no_call", {}, "Give up calling for the rest of this think window (the default when "
                        "it runs out).", name="WordJamNoCallMove"),
    move("challenge", {"word_id": WORD_ID.but(example=1)},
         "Challenge the word in its challenge window: everyone then votes.",
         name="WordJamChallengeMove"),
    move("no_challenge", {"word_id": WORD_ID.but(required=False, nullable=True, description=(
        "the word you let stand: a late move about another word is refused with 409 "
        "stale_word_id"))},
         "Let the word stand (the default when the challenge window runs out).",
         name="WordJamNoChallengeMove"),
    move("vote", {"in_favour": Bool(example=True),
                  "word_id": WORD_ID.but(required=False, nullable=True)},
         f"Vote on a challenged word (the author votes too); it stands with {VOTES_TO_STAND} "
         f"votes in favour.", name="WordJamVoteMove"),
    move("bet", {"side": SIDE.but(example="thieves", judged=True)},
         "A sealed bet on Alì Babà (trust) or on the Thieves.", name="WordJamBetMove"),
    move("thief_word", {"word": WORD.but(example="schwarzenegger"),
                        "final": Bool(required=False, default=False)},
         "Submit your word secretly in the window (turns 1–7: thieves; turn 8: everyone but "
         "the caller). A later submission replaces an earlier one until the window closes; "
         "``final`` closes it for you.", name="WordJamThiefWordMove"),
    move("thief_pass", {}, "Withdraw any submitted word and pass: you are done for this "
                           "window.", name="WordJamThiefPassMove"),
)

# ---------------------------------------------------------------------------- view
COIN = Shape("WordJamCoin", {"coins": Int(example=2), "consonant": CONSONANT.but(example="P")})
STYLE = Shape("WordJamStyle", {
    "id": Str(example="animals"),
    "name": Str(),
    "name_it": Str(),
    "description": Str(),
    "dictionary": Bool(description="an asterisk card: a dictionary may settle a dispute"),
    "check": CHECK,
    "proper_nouns": Bool(),
})
CAVE_COLUMN = Shape("WordJamCaveColumn", {"column": Int(), "red": Int(), "yellow": Int()})
CAVE_VIEW = Shape("WordJamCaveView", {
    "column": Int(description="the column that scores this turn"),
    "columns": List(Obj(CAVE_COLUMN), description="the columns uncovered so far"),
    "total_columns": Int(),
})
WORD_VIEW = Shape("WordJamWord", {"word_id": Int(), "word": Str(), "value": Int()})
SIDE_CHOICE = Shape("WordJamSideChoice", {"seat": Int(), "side": SIDE})
DECLARATION = Shape("WordJamDeclaration", {
    "seat": Int(),
    "side": SIDE,
    "word": Str(nullable=True),
    "value": Int(nullable=True),
    "valid": Bool(nullable=True),
    "reason": REASON.but(nullable=True),
    "outcome": Str(enum=OUTCOMES),
})
BEST_WORD = Shape("WordJamBestWord", {"seat": Int(), "word": Str(), "value": Int()})
BEST = Shape("WordJamBest", {side: Obj(BEST_WORD, nullable=True) for side in SIDE_NAMES})
CHALLENGE = Shape("WordJamChallenge", {
    "word_id": Int(),
    "seat": Int(description="the word's author"),
    "word": Str(),
    "value": Int(),
    "about": ABOUT,
    "side": SIDE.but(nullable=True),
    "stage": Str(enum=["window", "vote"]),
    "challenger": Int(nullable=True),
    "answered": List(Int(), description="seats that let the word stand"),
    "votes_cast": Int(),
})
BALLOT = Shape("WordJamBallot", {"seat": Int(), "in_favour": Bool(nullable=True)})
VOTE_RESULT = Shape("WordJamVoteResult", {
    "word_id": Int(),
    "seat": Int(),
    "word": Str(),
    "about": ABOUT,
    "challenger": Int(nullable=True),
    "in_favour": Int(),
    "votes": List(Obj(BALLOT)),
    "stands": Bool(),
})
ROLES = ("ali_baba", "follower", "chief_thief", "thief", "best_ali_baba", "best_thieves")
AWARD = Shape("WordJamAward", {
    "seat": Int(),
    "colour": Str(enum=["red", "yellow"]),
    "points": Int(),
    "role": Str(enum=ROLES),
})
TURN_RECORD = Shape("WordJamTurnRecord", {
    "turn": Int(),
    "extra_turn": Int(),
    "column": Int(),
    "red": Int(),
    "yellow": Int(),
    "called": Bool(),
    "style": Str(),
    "ali_baba": Int(nullable=True),
    "word": Str(nullable=True),
    "value": Int(nullable=True),
    "chief_thief": Int(nullable=True),
    "bets": List(Obj(SIDE_CHOICE), nullable=True),
    "sides": List(Obj(SIDE_CHOICE), nullable=True),
    "declarations": List(Obj(DECLARATION)),
    "awards": List(Obj(AWARD)),
})
PLAYER = Shape("WordJamPlayer", {
    "seat": Int(),
    "total": Int(),
    "sitting_out": Bool(description="an extra turn among the tied players: this seat only "
                                    "votes"),
    "no_call": Bool(),
    "has_side": Bool(nullable=True),
    "has_bet": Bool(nullable=True),
    "word_final": Bool(nullable=True),
    "has_voted": Bool(nullable=True),
})
WORD_CHECK = Shape("WordJamWordCheck", {"value": Int(), "valid": Bool(),
                                        "reason": REASON.but(nullable=True)})
YOU = Shape("WordJamYou", {
    "seat": Int(),
    "bet": SIDE.but(nullable=True),
    "side": SIDE.but(nullable=True),
    "word": Str(nullable=True, description="your secret word in the window"),
    "word_final": Bool(nullable=True),
    "word_check": Obj(WORD_CHECK, nullable=True),
    "vote": Bool(nullable=True),
})
SCORE_LINES = Shape("WordJamScoreLines", {
    **{f"turn_{t}": Int() for t in range(1, TURNS + 1)},
    **{f"extra_{e}": Int() for e in range(1, MAX_EXTRA_TURNS + 1)},
})
PLAYER_SCORE = Shape("WordJamPlayerScore", {
    "seat": Int(),
    "lines": Obj(SCORE_LINES),
    "total": Int(description="the sum of the lines"),
    "red": Int(description="red scores won"),
    "yellow": Int(description="yellow scores won"),
})
SCORE = Shape("WordJamScore", {
    "players": List(Obj(PLAYER_SCORE)),
    "winners": List(Int()),
    "shared": Bool(description="still tied after 3 extra turns: the victory is shared (R7)"),
    "extra_turns": Int(),
})
PENDING = Shape("Pending", {"seat": Int(), "kinds": List(Str())})
VIEW = Shape("WordJamView", {
    "turn": Int(description="1–8, then 9–11 for extra turns"),
    "extra_turn": Int(description="0, or 1–3 in an extra turn (R7)"),
    "final_turn": Bool(description="turn 8, played differently"),
    "phase": Str(enum=PHASES),
    "participants": List(Int()),
    "coins": List(Obj(COIN), description="the coin cards 1, 2, 3, 3 and their consonants"),
    "forbidden": CONSONANT.but(nullable=True, description="the scimitar's consonant (null "
                                                          "before the game starts)"),
    "style": Obj(STYLE, nullable=True, description="this turn's Style card (null before the "
                                                   "game starts)"),
    "language": Str(enum=list(LANGUAGES), description="the language the table plays in (option "
                                                      "language)"),
    "styles_left": Int(),
    "styles_used": List(Str()),
    "cave": Obj(CAVE_VIEW),
    "ali_baba": Int(nullable=True),
    "ali_word": Obj(WORD_VIEW, nullable=True),
    "barred": List(Int(), description="seats whose call was voided this turn (R6)"),
    "bets": List(Obj(SIDE_CHOICE), nullable=True,
                 description="this turn's bets, once revealed"),
    "sides": List(Obj(SIDE_CHOICE), nullable=True,
                  description="turn 8's sides, once revealed"),
    "window": List(Int(), nullable=True,
                   description="the seats of this turn's word window (the thieves; turn 8: "
                               "all but the caller)"),
    "must_beat": Int(nullable=True),
    "declarations": List(Obj(DECLARATION)),
    "chief_thief": Int(nullable=True),
    "best": Obj(BEST, nullable=True),
    "challenge": Obj(CHALLENGE, nullable=True),
    "last_vote": Obj(VOTE_RESULT, nullable=True),
    "used_words": List(Str(), description="folded words already used in this game (R9)"),
    "history": List(Obj(TURN_RECORD)),
    "players": List(Obj(PLAYER)),
    "pending": List(Obj(PENDING)),
    "you": Obj(YOU, required=False, description="present for a seated caller"),
    "score": Obj(SCORE, required=False, description="present once finished"),
}, "A game as the caller may see it (Word Jam).")

# ---------------------------------------------------------------------------- action spaces
SPACES = (
    space("choose_side", {"sides": List(SIDE)}, "Choose one of `sides`.",
          name="WordJamChooseSideSpace"),
    space("open_sesame", {
        "coins": List(Obj(COIN)), "forbidden": CONSONANT, "style": Str(), "check": CHECK,
        "first_letter": Str(nullable=True, description="the letter the word must start with "
                                                       "(the 1-coin consonant's theme)"),
        "max_length": Int(),
    }, "Call Open Sesame with a word that passes the checks described.",
        name="WordJamOpenSesameSpace"),
    space("no_call", {}, "Say you have no call this time.", name="WordJamNoCallSpace"),
    space("challenge", {"word_id": Int(), "word": Str(), "value": Int(), "author": Int(),
                        "about": ABOUT}, "Challenge the word in question.",
          name="WordJamChallengeSpace"),
    space("no_challenge", {"word_id": Int()}, "Let the word in question stand.",
          name="WordJamNoChallengeSpace"),
    space("vote", {"word_id": Int(), "word": Str(), "author": Int(),
                   "in_favour": List(Bool())}, "Vote on the challenged word.",
          name="WordJamVoteSpace"),
    space("bet", {"sides": List(SIDE), "word": Str(), "value": Int()},
          "Bet on Alì Babà's word or on the thieves.", name="WordJamBetSpace"),
    space("thief_word", {"must_beat": Int(nullable=True), "current": Str(nullable=True),
                         "final": List(Bool()), "max_length": Int()},
          "Submit a word in the window (`current`: the one submitted so far).",
          name="WordJamThiefWordSpace"),
    space("thief_pass", {}, "Pass for this window.", name="WordJamThiefPassSpace"),
)

# ---------------------------------------------------------------------------- events
SEAT = Int()
EVENTS = (
    event("turn_started", {"turn": Int(), "extra_turn": Int(), "final_turn": Bool(),
                           "participants": List(Int()), "coins": List(Obj(COIN)),
                           "forbidden": CONSONANT, "style": Obj(STYLE),
                           "column": Obj(CAVE_COLUMN)}, name="WordJamTurnStartedEvent"),
    event("side_chosen", {"seat": SEAT, "side": SIDE.but(required=False,
                                                         description="to the chooser only")},
          name="WordJamSideChosenEvent"),
    event("sides_chosen", {}, name="WordJamSidesChosenEvent"),
    event("sesame_called", {"turn": Int(), "seat": SEAT, "word_id": Int(), "word": Str(),
                            "value": Int()}, name="WordJamSesameCalledEvent"),
    event("no_call", {"seat": SEAT}, name="WordJamNoCallEvent"),
    event("nobody_called", {"turn": Int()}, name="WordJamNobodyCalledEvent"),
    event("challenge_window", {"word_id": Int(), "seat": SEAT, "about": ABOUT},
          name="WordJamChallengeWindowEvent"),
    event("word_challenged", {"word_id": Int(), "seat": SEAT, "author": Int()},
          name="WordJamWordChallengedEvent"),
    event("no_challenge", {"word_id": Int(), "seat": SEAT}, name="WordJamNoChallengeEvent"),
    event("word_stands", {"word_id": Int(), "seat": SEAT, "challenged": Bool()},
          name="WordJamWordStandsEvent"),
    event("vote_cast", {"word_id": Int(), "seat": SEAT,
                        "in_favour": Bool(required=False, description="to the voter only")},
          name="WordJamVoteCastEvent"),
    event("vote_result", {"word_id": Int(), "seat": SEAT, "word": Str(), "about": ABOUT,
                          "challenger": Int(nullable=True), "in_favour": Int(),
                          "stands": Bool(), "votes": List(Obj(BALLOT))},
          name="WordJamVoteResultEvent"),
    event("call_voided", {"seat": SEAT, "word_id": Int()}, name="WordJamCallVoidedEvent"),
    event("betting_opened", {"seats": List(Int()), "word_id": Int(), "value": Int()},
          name="WordJamBettingOpenedEvent"),
    event("bet_placed", {"seat": SEAT, "side": SIDE.but(required=False,
                                                        description="to the bettor only")},
          name="WordJamBetPlacedEvent"),
    event("bets_revealed", {"bets": List(Obj(SIDE_CHOICE)), "thieves": List(Int())},
          name="WordJamBetsRevealedEvent"),
    event("window_opened", {"seats": List(Int()), "must_beat": Int(nullable=True)},
          name="WordJamWindowOpenedEvent"),
    event("word_submitted", {"seat": SEAT, "final": Bool(),
                             "word": Str(required=False, description="to the thief only")},
          name="WordJamWordSubmittedEvent"),
    event("window_passed", {"seat": SEAT}, name="WordJamWindowPassedEvent"),
    event("window_closed", {"turn": Int()}, name="WordJamWindowClosedEvent"),
    event("sides_revealed", {"sides": List(Obj(SIDE_CHOICE))},
          name="WordJamSidesRevealedEvent"),
    event("declaration", {"seat": SEAT, "side": SIDE, "outcome": Str(enum=OUTCOMES),
                          "word_id": Int(required=False), "word": Str(required=False),
                          "value": Int(required=False), "valid": Bool(required=False),
                          "reason": REASON.but(required=False, nullable=True)},
          "A thief's word, declared by the engine (``pass`` and ``not_counted`` say no word).",
          name="WordJamDeclarationEvent"),
    event("declaration_voided", {"seat": SEAT, "word_id": Int()},
          name="WordJamDeclarationVoidedEvent"),
    event("chief_thief", {"seat": SEAT, "word": Str(), "value": Int()},
          name="WordJamChiefThiefEvent"),
    event("word_counted", {"seat": SEAT, "side": SIDE, "word": Str(), "value": Int()},
          name="WordJamWordCountedEvent"),
    event("turn_scored", {"turn": Int(), "extra_turn": Int(), "called": Bool(),
                          "awards": List(Obj(AWARD)), "totals": List(Int())},
          name="WordJamTurnScoredEvent"),
    event("extra_turn", {"extra_turn": Int(), "participants": List(Int())},
          name="WordJamExtraTurnEvent"),
    event("game_finished", {"winners": List(Int()), "shared": Bool(), "totals": List(Int())},
          name="WordJamGameFinishedEvent"),
)

# ---------------------------------------------------------------------------- refusals
#: a word refused for a reason (``word_<reason>``, words.REASON_TEXT)
WORD_REFUSALS = ("word_already_used", "word_empty", "word_forbidden_consonant",
                 "word_invalid_characters", "word_not_eight_letters", "word_not_in_dictionary",
                 "word_too_long", "word_wrong_first_letter")
REFUSALS = Refusals(
    illegal=("call_barred", "invalid_side", "own_word", *WORD_REFUSALS),
    not_now=("ali_baba_does_not_bet", "already_answered", "already_finished", "already_passed",
             "bet_already_placed", "no_challenge_window", "no_word_window",
             "not_betting_phase", "not_choosing_sides", "not_in_window", "not_thinking_phase",
             "not_voting_phase", "not_your_turn", "sesame_already_called",
             "side_already_chosen", "sitting_out", "vote_already_cast"),
    stale=("stale_word_id",),
    options=("invalid_bet_seconds", "invalid_cave", "invalid_challenge_seconds",
             "invalid_dictionary", "invalid_language", "invalid_no_visible_objects", "invalid_thief_seconds",
             "invalid_think_seconds", "invalid_vote_seconds"),
    calculator=("invalid_coins", "invalid_consonant", "invalid_word", "word_empty",
                "word_invalid_characters", "word_too_long"),
    score=("game_not_finished",),
)

DECLARATIONS = Declarations(options=OPTIONS, moves=MOVES, view=VIEW, score=SCORE, spaces=SPACES,
                            events=EVENTS, refusals=REFUSALS)
