"""Word Jam in the terminal: the turn's coins, forbidden letter, theme and cave column, and a
prompt for every move, each with the window's countdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

from .._generated import models
from ..i18n import N_, _, ngettext, pgettext
from ..wordjam import word_value
from .base import Move, Screen, indented, named

#: Word Jam's languages (the game option language)
LANGUAGE_NAMES = {"it": N_("Italian"), "en": N_("English")}

SIDE_NAMES = {"ali_baba": N_("Alì Babà"), "thieves": N_("the Thieves")}
SIDES = [("a", N_("Alì Babà"), "ali_baba"), ("t", N_("Thieves"), "thieves")]
#: the phases, as the table names them
PHASES = {"sides": N_("choose a side"), "think": N_("find a word"),
          "challenge": N_("challenge?"), "vote": N_("vote"), "bets": N_("bets"),
          "window": N_("thieves' window"), "finished": N_("game over")}
#: why a word does not count (the rules' reasons)
REASONS = {"empty": N_("no letters"), "too_long": N_("too long"),
           "invalid_characters": N_("letters only"),
           "forbidden_consonant": N_("forbidden consonant"),
           "already_used": N_("already used"), "not_eight_letters": N_("not eight letters"),
           "wrong_first_letter": N_("wrong first letter"),
           "not_in_dictionary": N_("not in the dictionary")}

HOW_TO_PLAY = N_("""\
How a turn goes: think of a word that fits the theme and holds the coin consonants (each
occurrence earns its coins) but never the forbidden one. The first to call Open Sesame with
a valid word is Alì Babà; everyone may challenge the word, then vote on it. The others bet:
trust Alì Babà, or join the Thieves and try to beat the word in secret. Points come from the
cave's column of the turn: red for the winner (Alì Babà or the Chief Thief), yellow for
those who backed the winner.""")


def reason(code: str | None) -> str:
    """Why a word does not count, in the player's language."""
    return named(REASONS, code) if code in REASONS else (code or "").replace("_", " ")


def theme(style: Mapping[str, Any] | None) -> tuple[str, str]:
    """The theme card's name and description in the player's language (``styles.json``'s
    English, translated by the catalogues); blank before the game starts, when no card is
    turned yet."""
    if style is None:
        return "", ""
    name, description = style["name"], style["description"]
    return _(name), _(description)


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
            self.out(f"  — {named(PHASES, view['phase'])} —")

    def turn_header(self, view: models.WordJamGame) -> None:
        turn = view["turn"]
        title = (_("extra turn {n}").format(n=view["extra_turn"]) if view.get("extra_turn")
                 else _("turn 8 of 8 (the final turn)") if view.get("final_turn")
                 else _("turn {n} of 8").format(n=turn))
        name, description = theme(view["style"])
        self.out(f"\n=== Word Jam · {title} · {named(PHASES, view['phase'])} ===")
        self.out("  " + _("theme: {name} — {description}").format(name=name,
                                                                 description=description))
        if view.get("language"):
            language = named(LANGUAGE_NAMES, view["language"])
            self.out("  " + _("words in {language}").format(language=language))
        self.out("  " + _("coins: {coins}      forbidden: {forbidden}").format(
            coins="   ".join(f"{c['consonant']} = {c['coins']}" for c in view["coins"]),
            forbidden=view["forbidden"]))
        column = view["cave"]["columns"][-1]
        self.out("  " + _("cave column {n}: red {red} (the winner), yellow {yellow} (each who "
                          "backed the winner)").format(n=column["column"], red=column["red"],
                                                 yellow=column["yellow"]))
        self.out("  " + _("totals: {totals}").format(
            totals=" · ".join(f"{self.name(p['seat'])} {p['total']}" for p in view["players"])))
        if view["used_words"]:
            self.out("  " + _("words used: {words}").format(words=", ".join(view["used_words"])))

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        if kind == "sesame_called":
            self.says(e, _("Open Sesame! you call {word} ({value} coins)"),
                      _("Open Sesame! {who} calls {word} ({value} coins)"),
                      word=e["word"].upper(), value=e["value"])
        elif kind == "nobody_called":
            self.out("  " + _("nobody called Open Sesame: no points this turn"))
        elif kind == "word_challenged":
            self.says(e, _("you challenge {author}'s word: everyone votes"),
                      _("{who} challenges {author}'s word: everyone votes"),
                      author=self.name(e["author"]))
        elif kind == "vote_result":
            self.out("  " + ngettext("the vote on {word}: {n} in favour → {outcome}",
                                     "the vote on {word}: {n} in favour → {outcome}",
                                     e["in_favour"]).format(
                word=e["word"].upper(), n=e["in_favour"],
                outcome=_("it stands") if e["stands"] else _("it falls")))
        elif kind == "call_voided":
            self.says(e, _("the call is void: you may not call again this turn"),
                      _("the call is void: {who} may not call again this turn"))
        elif kind == "bets_revealed":
            thieves = [self.name(s) for s in e["thieves"]]
            self.out("  " + (_("bets revealed: Thieves: {thieves}").format(
                thieves=", ".join(thieves)) if thieves
                else _("bets revealed: everyone trusts Alì Babà")))
        elif kind == "window_opened" and e.get("must_beat") is not None:
            self.out("  " + _("the Thieves' window opens: beat {n} coins").format(
                n=e["must_beat"]))
        elif kind == "declaration":
            word = f"{e['word'].upper()} ({e['value']})" if e.get("word") else ""
            outcome = e["outcome"]
            if outcome == "pass":
                self.says(e, _("you pass"), _("{who} passes"))
            elif outcome == "not_counted":
                self.says(e, _("you stay silent"), _("{who} stays silent"))
            elif outcome == "invalid":
                self.says(e, _("you declare {word}: invalid ({reason})"),
                          _("{who} declares {word}: invalid ({reason})"), word=word,
                          reason=reason(e.get("reason")))
            else:
                said = {"not_enough": (_("you declare {word}: not enough"),
                                       _("{who} declares {word}: not enough")),
                        "pending": (_("you declare {word}: it wins unless challenged"),
                                    _("{who} declares {word}: it wins unless challenged")),
                        "counted": (_("you declare {word}: it counts"),
                                    _("{who} declares {word}: it counts")),
                        "chief": (_("you declare {word}: the Chief Thief"),
                                  _("{who} declares {word}: the Chief Thief")),
                        "voided": (_("you declare {word}: voided"),
                                   _("{who} declares {word}: voided"))}.get(outcome)
                if said is None:
                    said = (_("you declare {word}: {outcome}"), _("{who} declares {word}: {outcome}"))
                self.says(e, *said, word=word, outcome=outcome)
        elif kind == "chief_thief":
            self.says(e, _("you are the Chief Thief"), _("{who} is the Chief Thief"))
        elif kind == "sides_revealed":
            for side in ("ali_baba", "thieves"):
                seats = [self.name(s["seat"]) for s in e["sides"] if s["side"] == side]
                self.out("  " + _("{side}: {seats}").format(
                    side=_(SIDE_NAMES[side]), seats=", ".join(seats) or _("nobody")))
        elif kind == "word_counted":
            self.says(e, _("you count {word} ({value}) for {side}"),
                      _("{who} counts {word} ({value}) for {side}"), word=e["word"].upper(),
                      value=e["value"], side=named(SIDE_NAMES, e["side"]))
        elif kind == "turn_scored":
            awards = ", ".join(f"{self.name(a['seat'])} +{a['points']}"
                               for a in e["awards"]) or _("nobody scores")
            self.out("  " + _("turn scored: {awards}").format(awards=awards))
        elif kind == "extra_turn":
            self.out("  " + _("a tie for first: an extra turn"))
        elif kind == "game_finished":
            self.out("  " + _("game over"))

    def ask(self, game: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        view = wordjam(game)
        space = actions["moves"][0]
        default = actions.get("default")
        if space["type"] == "open_sesame":
            self.once("turn", indented(_(HOW_TO_PLAY)))
            check = {"eight_letters": " " + _("(exactly 8 letters)"),
                     "first_letter": " " + _("(starting with {letter})").format(
                         letter=space["first_letter"])}.get(space["check"] or "", "")
            raw = self.console.ask("  " + _("Open Sesame: type a word") + check + " "
                                   + _("[Enter: {choice}]").format(
                                       choice=_("no word this turn")) + " ",
                                   deadline, changed)
            if raw is None:
                return None
            word = raw.strip()
            if not word:
                return {"type": "no_call"}
            self.preview(word, view)
            return {"type": "open_sesame", "word": word}
        if space["type"] == "challenge":
            self.out("  " + _("{author}'s word: {word} ({value} coins), theme {theme}").format(
                author=self.name(space["author"]), word=space["word"].upper(),
                value=space["value"], theme=theme(view["style"])[0]))
            yes = self.choose("  " + _("Challenge it"),
                              [(pgettext("the key that answers yes", "y"), _("yes, challenge"), True),
                               (pgettext("the key that answers no", "n"), _("no, let it stand"), False)],
                              False, deadline, changed)
            if yes is None:
                return None
            return {"type": "challenge" if yes else "no_challenge", "word_id": space["word_id"]}
        if space["type"] == "vote":
            favour = default["in_favour"] if default and default["type"] == "vote" else False
            yes = self.choose("  " + _("Vote: does {word} fit '{theme}'").format(
                                  word=space["word"].upper(), theme=theme(view["style"])[0]),
                              [(pgettext("the key that answers yes", "y"), _("yes"), True), (pgettext("the key that answers no", "n"), _("no"), False)], favour,
                              deadline, changed)
            if yes is None:
                return None
            return {"type": "vote", "word_id": space["word_id"], "in_favour": yes}
        if space["type"] == "bet":
            self.out("  " + _("Alì Babà's word: {word} ({value} coins). Bet: trust Alì Babà, or "
                              "join the Thieves if you can beat the word.").format(
                word=space["word"].upper(), value=space["value"]))
            side = self.choose("  " + _("Your bet"), self.sides(),
                               default["side"] if default and default["type"] == "bet" else None,
                               deadline, changed)
            return None if side is None else {"type": "bet", "side": side}
        if space["type"] == "choose_side":
            self.out("  " + _("The final turn: choose your side in secret; the best word on "
                              "each side scores."))
            side = self.choose("  " + _("Your side"), self.sides(), default["side"] if default and
                               default["type"] == "choose_side" else None, deadline, changed)
            return None if side is None else {"type": "choose_side", "side": side}
        if space["type"] == "thief_word":
            beat = (" " + _("worth more than {n}").format(n=space["must_beat"])
                    if space["must_beat"] is not None else "")
            current = space["current"]
            keep = _("keep {word}").format(word=current.upper()) if current else _("pass")
            you = view.get("you")
            mine = you["side"] if you and view["final_turn"] else None
            for_side = (" " + _("for {side}").format(side=_(SIDE_NAMES[mine]))
                        if mine in SIDE_NAMES else "")
            raw = self.console.ask("  " + _("Your secret word") + for_side + beat + " "
                                   + _("[Enter: {choice}]").format(choice=keep) + " ",
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
        if checked["valid"]:
            self.out("  " + ngettext("{word}: {n} coin", "{word}: {n} coins",
                                     checked["value"]).format(word=word.upper(),
                                                              n=checked["value"]))
        else:
            self.out("  " + ngettext("{word}: {n} coin, invalid: {reason}",
                                     "{word}: {n} coins, invalid: {reason}",
                                     checked["value"]).format(
                word=word.upper(), n=checked["value"], reason=reason(checked["reason"])))

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        if score["ruleset"] == "wordjam" and score["shared"]:
            self.out("  " + _("the victory is shared"))

    def sides(self) -> list[tuple[str, str, str]]:
        """The two sides to choose between, named in the player's language."""
        return [(key, _(label), side) for key, label, side in SIDES]

    def line_name(self, key: str) -> str:
        kind, _sep, n = key.rpartition("_")
        if kind == "turn" and n.isdigit():
            return _("turn {n}").format(n=n)
        if kind == "extra" and n.isdigit():
            return _("extra {n}").format(n=n)
        return key

    def score(self, score: models.Score, lines: Sequence[str] | None = None) -> None:
        if score["ruleset"] != "wordjam":
            super().score(score, lines)
            return
        players = score["players"]
        keys = [k for k in (players[0]["lines"] if players else ())
                if not k.startswith("extra_") or any(p["lines"].get(k) for p in players)]
        super().score(score, keys)
