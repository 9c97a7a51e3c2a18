"""Word Jam in the terminal: the turn's coins, forbidden letter, theme and cave column, and a
prompt for every move, each with the window's countdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

from .._generated import models
from ..wordjam import word_value
from .base import Move, Screen

#: Word Jam's languages (the game option language)
LANGUAGE_NAMES = {"it": "Italian", "en": "English"}

SIDE_NAMES = {"ali_baba": "Alì Babà", "thieves": "the Thieves"}
SIDES = [("a", "Alì Babà", "ali_baba"), ("t", "Thieves", "thieves")]

HOW_TO_PLAY = """\
  How a turn goes: think of a word that fits the theme and holds the coin consonants (each
  occurrence earns its coins) but never the forbidden one. The first to call Open Sesame with
  a valid word is Alì Babà; everyone may challenge the word, then vote on it. The others bet:
  trust Alì Babà, or join the Thieves and try to beat his word in secret. Points come from the
  cave's column of the turn: red for the winner (Alì Babà or the Chief Thief), yellow for
  those who backed him."""


def wordjam(view: models.Game) -> models.WordJamGame:
    """``view`` as the Word Jam game it must be here."""
    if view["ruleset"] != "wordjam":
        raise ValueError(f"the Word Jam screen cannot show a {view['ruleset']} game")
    return view


class WordJamScreen(Screen):
    ruleset = "wordjam"

    def show(self, game: models.Game, actions: models.Actions | None = None,
             force: bool = False) -> None:
        view = wordjam(game)
        self.remember(view)
        challenge = view["challenge"]
        key = (view["turn"], view["phase"], challenge and challenge["word_id"])
        if key == self.shown and not force:
            return
        first = self.shown is None or self.shown[0] != view["turn"]
        self.shown = key
        if first or force:
            self.turn_header(view)
        else:
            self.out(f"  — {view['phase']} —")

    def turn_header(self, view: models.WordJamGame) -> None:
        turn = view["turn"]
        title = (f"extra turn {view['extra_turn']}" if view.get("extra_turn")
                 else "turn 8 of 8 (the final turn)" if view.get("final_turn")
                 else f"turn {turn} of 8")
        style = view["style"]
        self.out(f"\n=== Word Jam · {title} · {view['phase']} ===")
        self.out(f"  theme: {style['name']} — {style['description']}")
        if view.get("language"):
            language = LANGUAGE_NAMES.get(view["language"], view["language"])
            self.out(f"  words in {language}")
        self.out("  coins: " + "   ".join(f"{c['consonant']} = {c['coins']}"
                                          for c in view["coins"])
                 + f"      forbidden: {view['forbidden']}")
        column = view["cave"]["columns"][-1]
        self.out(f"  cave column {column['column']}: red {column['red']} (the winner), "
                 f"yellow {column['yellow']} (each who backed him)")
        self.out("  totals: " + " · ".join(f"{self.name(p['seat'])} {p['total']}"
                                          for p in view["players"]))
        if view["used_words"]:
            self.out("  words used: " + ", ".join(view["used_words"]))

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "sesame_called":
            self.out(f"  Open Sesame! {who} call{s} "
                     f"{e['word'].upper()} ({e['value']} coins)")
        elif kind == "nobody_called":
            self.out("  nobody called Open Sesame: no points this turn")
        elif kind == "word_challenged":
            self.out(f"  {who} challenge{s} "
                     f"{self.name(e['author'])}'s word: everyone votes")
        elif kind == "vote_result":
            self.out(f"  the vote on {e['word'].upper()}: {e['in_favour']} in favour → "
                     f"{'it stands' if e['stands'] else 'it falls'}")
        elif kind == "call_voided":
            self.out(f"  the call is void: {who} may not call again this turn")
        elif kind == "bets_revealed":
            thieves = [self.name(s) for s in e["thieves"]]
            self.out("  bets revealed: " + (f"Thieves: {', '.join(thieves)}" if thieves
                                            else "everyone trusts Alì Babà"))
        elif kind == "window_opened" and e.get("must_beat") is not None:
            self.out(f"  the Thieves' window opens: beat {e['must_beat']} coins")
        elif kind == "declaration":
            word = f"{e['word'].upper()} ({e['value']})" if e.get("word") else ""
            says = "declare" if who == "you" else "declares"
            outcome = {"pass": "pass" if who == "you" else "passes",
                       "not_counted": "stay silent" if who == "you" else "stays silent",
                       "invalid": f"{says} {word}: invalid "
                       f"({(e.get('reason') or '').replace('_', ' ')})",
                       "not_enough": f"{says} {word}: not enough",
                       "pending": f"{says} {word}: it wins unless challenged",
                       "counted": f"{says} {word}: it counts",
                       "chief": f"{says} {word}: the Chief Thief",
                       "voided": f"{says} {word}: voided"}.get(
                           e["outcome"], f"{says} {word}: {e['outcome']}")
            self.out(f"  {who} {outcome}")
        elif kind == "chief_thief":
            self.out(f"  {who} {'are' if who == 'you' else 'is'} the Chief Thief")
        elif kind == "sides_revealed":
            for side in ("ali_baba", "thieves"):
                seats = [self.name(s["seat"]) for s in e["sides"] if s["side"] == side]
                self.out(f"  {SIDE_NAMES[side]}: {', '.join(seats) or 'nobody'}")
        elif kind == "word_counted":
            self.out(f"  {who} count{s} {e['word'].upper()} "
                     f"({e['value']}) for {SIDE_NAMES.get(e['side'], e['side'])}")
        elif kind == "turn_scored":
            awards = ", ".join(f"{self.name(a['seat'])} +{a['points']}"
                               for a in e["awards"]) or "nobody scores"
            self.out(f"  turn scored: {awards}")
        elif kind == "extra_turn":
            self.out("  a tie for first: an extra turn")
        elif kind == "game_finished":
            self.out("  game over")

    def ask(self, game: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        view = wordjam(game)
        space = actions["moves"][0]
        default = actions.get("default")
        if space["type"] == "open_sesame":
            self.once("turn", HOW_TO_PLAY)
            check = {"eight_letters": " (exactly 8 letters)",
                     "first_letter": f" (starting with {space['first_letter']})"}.get(
                         space["check"] or "", "")
            raw = self.console.ask(f"  Open Sesame: type a word{check} [Enter: no word this turn] ",
                                   deadline, changed)
            if raw is None:
                return None
            word = raw.strip()
            if not word:
                return {"type": "no_call"}
            self.preview(word, view)
            return {"type": "open_sesame", "word": word}
        if space["type"] == "challenge":
            self.out(f"  {self.name(space['author'])}'s word: {space['word'].upper()} "
                     f"({space['value']} coins), theme {view['style']['name']}")
            yes = self.choose("  Challenge it", [("y", "yes, challenge", True),
                                                  ("n", "no, let it stand", False)],
                              False, deadline, changed)
            if yes is None:
                return None
            return {"type": "challenge" if yes else "no_challenge", "word_id": space["word_id"]}
        if space["type"] == "vote":
            favour = default["in_favour"] if default and default["type"] == "vote" else False
            yes = self.choose(f"  Vote: does {space['word'].upper()} fit "
                              f"'{view['style']['name']}'",
                              [("y", "yes", True), ("n", "no", False)], favour, deadline, changed)
            if yes is None:
                return None
            return {"type": "vote", "word_id": space["word_id"], "in_favour": yes}
        if space["type"] == "bet":
            self.out(f"  Alì Babà's word: {space['word'].upper()} ({space['value']} coins). "
                     "Bet: trust him, or join the Thieves if you can beat it.")
            side = self.choose("  Your bet", SIDES,
                               default["side"] if default and default["type"] == "bet" else None,
                               deadline, changed)
            return None if side is None else {"type": "bet", "side": side}
        if space["type"] == "choose_side":
            self.out("  The final turn: choose your side in secret; the best word on each "
                     "side scores.")
            side = self.choose("  Your side", SIDES, default["side"] if default and
                               default["type"] == "choose_side" else None, deadline, changed)
            return None if side is None else {"type": "choose_side", "side": side}
        if space["type"] == "thief_word":
            beat = (f" worth more than {space['must_beat']}" if space["must_beat"] is not None
                    else "")
            current = space["current"]
            keep = f"keep {current.upper()}" if current else "pass"
            you = view.get("you")
            mine = you["side"] if you and view["final_turn"] else None
            for_side = f" for {SIDE_NAMES[mine]}" if mine in SIDE_NAMES else ""
            raw = self.console.ask(f"  Your secret word{for_side}{beat} [Enter: {keep}] ",
                                   deadline, changed)
            if raw is None:
                return None
            word = raw.strip()
            if not word:
                if current:
                    return {"type": "thief_word", "word": current, "final": True}
                return {"type": "thief_pass"}
            self.preview(word, view)
            return {"type": "thief_word", "word": word, "final": False}
        return default

    def preview(self, word: str, view: models.WordJamGame) -> None:
        coins: dict[str, int] = {c["consonant"]: c["coins"] for c in view["coins"]}
        checked = word_value(word, coins, view["forbidden"], used=view["used_words"])
        reason = (checked["reason"] or "").replace("_", " ")
        note = "" if checked["valid"] else f", invalid: {reason}"
        self.out(f"  {word.upper()}: {checked['value']} coins{note}")

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] == "wordjam" and score["shared"]:
            self.out("  the victory is shared")

    def score(self, score: models.Score, lines: Sequence[str] | None = None) -> None:
        if score["ruleset"] != "wordjam":
            super().score(score, lines)
            return
        players = score["players"]
        keys = [k for k in (players[0]["lines"] if players else ())
                if not k.startswith("extra_") or any(p["lines"].get(k) for p in players)]
        super().score(score, keys)
