"""What the engine refused, in the player's language: by the problem's stable ``code``.

An English player reads the engine's own ``detail`` (it names the letter, the slot, the
amount); another language reads the catalogue's sentence for the code, or, for a code this
client does not know, a general sentence naming it: never the engine's English.
"""

from __future__ import annotations

from ..errors import ImpresarioError
from ..i18n import N_, _, language
from ..language import DEFAULT_LANGUAGE

#: the refusals a player can meet at the terminal's prompts, by code
PROBLEMS = {
    # the engine's
    "not_your_turn": N_("it is not your turn any more"),
    "deadline_passed": N_("too late: the time for that move ran out"),
    "game_finished": N_("the game is over"),
    "game_not_found": N_("there is no such game on this engine"),
    "private_game": N_("this game is private: it needs a seat's token or the spectator link"),
    "invalid_token": N_("this token does not open this game"),
    "rate_limited": N_("too many requests at once: wait a moment and try again"),
    "storage_unavailable": N_("the engine cannot reach its game store just now: try again "
                              "in a moment"),
    "invalid_body": N_("the engine did not understand the move"),
    "invalid_move": N_("the engine did not understand the move"),
    # a player's
    "invalid_player_token": N_("the engine does not know this player's credential"),
    "invalid_device_code": N_("that code is unknown, used already or expired: ask the other "
                              "device for a new one"),
    "not_seated": N_("your player has no seat at that game"),
    "seat_left": N_("your player left that seat: a bot plays it now"),
    "player_seated": N_("your player sits at that game already"),
    "player_not_found": N_("there is no such player on this engine"),
    # Turandot's
    "empty_bid": N_("a bid needs a number card, or money alone for a helper"),
    "slot_out_of_range": N_("there is no such slot on the table"),
    "slot_empty": N_("that slot has no card left"),
    "not_enough_money": N_("you do not have that much money"),
    "maestro_cannot_hire_helper": N_("the maestro cannot hire a helper"),
    "no_helpers_in_director_round": N_("no helper can be hired in round 4 (the directors' "
                                       "round)"),
    "helper_bid_one_money": N_("a helper is hired with exactly one money card"),
    "office_seats_mismatch": N_("give one card to each waiting player"),
    "duplicate_slot": N_("each card can go to one player only"),
    "cannot_nominate_self": N_("name another player, not yourself"),
    "director_not_in_pile": N_("that director is not in the pile"),
    "not_a_permutation": N_("cast each of your six singers once, in role order"),
    "not_six_singers": N_("cast each of your six singers once, in role order"),
    # Word Jam's
    "call_barred": N_("you cannot call Open Sesame again this turn"),
    "own_word": N_("you cannot challenge or vote on your own word"),
    "word_empty": N_("write a word first"),
    "word_too_long": N_("that word is too long"),
    "word_invalid_characters": N_("only letters are allowed in a word"),
    "word_forbidden_consonant": N_("that word uses the forbidden consonant (the scimitar's)"),
    "word_already_used": N_("that word was already used in this game"),
    "word_not_eight_letters": N_("the theme card asks for a word of exactly 8 letters"),
    "word_wrong_first_letter": N_("the theme card asks for a word that starts with the 1-coin "
                                  "consonant"),
    "word_not_in_dictionary": N_("the dictionary does not know that word"),
    # Muzicando's
    "bid_too_low": N_("a call must be higher than the last one"),
    "dealer_must_bid": N_("after four passes the dealer must call a contract"),
    "cannot_open": N_("you cannot open that layout: you have no opening card for it"),
    "must_open": N_("the hand opens with your opening card"),
    "must_play": N_("you have a card that can be placed: you may not pass"),
    "card_not_in_hand": N_("that card is not in your hand"),
}


def explain(err: ImpresarioError) -> str:
    """The refusal ``err`` in the player's words: the engine's detail in English, the
    catalogue's sentence for its code in another language."""
    if language() == DEFAULT_LANGUAGE and err.detail:
        return str(err.detail)
    known = PROBLEMS.get(err.code or "")
    if known:
        return _(known)
    return _("the engine refused it (code {code})").format(code=err.code or "?")
