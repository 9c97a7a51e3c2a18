"""What a player is told outside the table (Web Push, usecases/push.py): which notices a game's
document calls for, for the seats that belong to players, and their text in the player's
language. Pure: no I/O, no clock of its own.

A notice says only what anyone at the table may know: the game's id, the ruleset's title,
that it is the player's move, how long the turn has left, and, once the game is over, the
place the seat finished in. Never a hand, a bid, a word, a card: nothing of the game's state
beyond those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from impresario_rules import Ruleset

from .clock import FINISHED, PLAYING, deadlines
from .ratings import placings
from .record import who_acts
from .views import ranked

LANGUAGES = ("en", "it", "de", "fr")
YOUR_MOVE, DEADLINE_NEAR, GAME_OVER = "your_move", "deadline_near", "game_over"
#: a turn that ends sooner than this is not announced: nobody arrives from a notification in
#: time, and whoever plays such a game is at the table
MIN_NOTICE_SECONDS = 30.0


@dataclass(frozen=True)
class Notice:
    kind: str
    seat: int
    player: str
    #: names the turn (the time it began), so that each turn is told once
    turn: str
    deadline: float | None = None
    place: int | None = None
    sides: int | None = None


def owned_seats(doc: dict[str, Any]) -> dict[int, str]:
    """The seats that belong to a player and are still the player's: seat -> player id."""
    return {i: s["player"] for i, s in enumerate(doc["seats"])
            if s.get("player") and not s.get("bot") and not s.get("left")}


def after_write(doc: dict[str, Any], ruleset: Ruleset, now: float) -> list[Notice]:
    """The notices the game as a write left it calls for: each player's seat whose move it is
    (once per turn: the caller keeps which turns were told), and each player's place once the
    game is over."""
    owners = owned_seats(doc)
    if not owners:
        return []
    if doc["status"] == FINISHED:
        sides, ranks = placings(ranked(ruleset, ruleset.score(doc["state"])))
        out = []
        for side, rank in zip(sides, ranks):
            out += [Notice(GAME_OVER, s, owners[s], "end", place=rank, sides=len(sides))
                    for s in side if s in owners]
        return out
    if doc["status"] != PLAYING:
        return []
    pending = who_acts(ruleset, doc["state"])
    ends = deadlines(doc, ruleset, pending)
    since = doc.get("since", {})
    out = []
    for seat in sorted(pending):
        if seat not in owners:
            continue
        end = ends.get(seat)
        if end is not None and end - now < MIN_NOTICE_SECONDS:
            continue
        out.append(Notice(YOUR_MOVE, seat, owners[seat], repr(since.get(str(seat))),
                          deadline=end))
    return out


def deadlines_near(doc: dict[str, Any], ruleset: Ruleset, now: float, within: float
                   ) -> list[Notice]:
    """The players' seats whose time to move runs out within ``within`` seconds from ``now``,
    in a turn at least twice that long (a shorter turn has its "your move" notice only)."""
    owners = owned_seats(doc)
    if not owners or doc["status"] != PLAYING:
        return []
    pending = who_acts(ruleset, doc["state"])
    since = doc.get("since", {})
    out = []
    for seat, end in sorted(deadlines(doc, ruleset, pending).items()):
        began = since.get(str(seat))
        if seat in owners and began is not None and now < end <= now + within \
                and end - began >= 2 * within:
            out.append(Notice(DEADLINE_NEAR, seat, owners[seat], repr(began), deadline=end))
    return out


# ---------------------------------------------------------------------------- texts
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "your_move.title": "Your move — {ruleset}",
        "your_move.body": "Game {game}: it is your move.",
        "your_move.left": "Game {game}: it is your move. Time left: {left}.",
        "deadline_near.title": "Time is running out — {ruleset}",
        "deadline_near.body": "Game {game}: your time to move runs out in {left}; then the "
                              "default move is played for you.",
        "game_over.title": "Game over — {ruleset}",
        "game_over.body": "Game {game} is over: you finished in place {place} of {sides}.",
        "units": "d h min",
    },
    "it": {
        "your_move.title": "Tocca a te — {ruleset}",
        "your_move.body": "Partita {game}: tocca a te.",
        "your_move.left": "Partita {game}: tocca a te. Tempo rimasto: {left}.",
        "deadline_near.title": "Il tempo sta per scadere — {ruleset}",
        "deadline_near.body": "Partita {game}: il tuo tempo per muovere scade tra {left}; poi "
                              "per te si gioca la mossa predefinita.",
        "game_over.title": "Partita finita — {ruleset}",
        "game_over.body": "La partita {game} è finita: hai chiuso al posto {place} su {sides}.",
        "units": "g h min",
    },
    "de": {
        "your_move.title": "Du bist am Zug — {ruleset}",
        "your_move.body": "Partie {game}: Du bist am Zug.",
        "your_move.left": "Partie {game}: Du bist am Zug. Verbleibende Zeit: {left}.",
        "deadline_near.title": "Die Zeit läuft ab — {ruleset}",
        "deadline_near.body": "Partie {game}: Deine Zeit für den Zug läuft in {left} ab; "
                              "danach wird der Standardzug für dich gespielt.",
        "game_over.title": "Partie beendet — {ruleset}",
        "game_over.body": "Die Partie {game} ist beendet: Du bist auf Platz {place} von "
                          "{sides}.",
        "units": "T Std. Min.",
    },
    "fr": {
        "your_move.title": "À vous de jouer — {ruleset}",
        "your_move.body": "Partie {game} : c'est à vous de jouer.",
        "your_move.left": "Partie {game} : c'est à vous de jouer. Temps restant : {left}.",
        "deadline_near.title": "Le temps presse — {ruleset}",
        "deadline_near.body": "Partie {game} : votre temps pour jouer expire dans {left} ; "
                              "ensuite, le coup par défaut est joué pour vous.",
        "game_over.title": "Partie terminée — {ruleset}",
        "game_over.body": "La partie {game} est terminée : vous finissez à la place {place} "
                          "sur {sides}.",
        "units": "j h min",
    },
}


def duration(seconds: float, lang: str) -> str:
    """A time left, rounded up to the minute, in the language's units: "2 d 3 h", "45 min"."""
    day, hour, minute = TEXTS[lang]["units"].split()
    whole = max(1, int(-(-seconds // 60)))  # minutes, rounded up
    days, rest = divmod(whole, 1440)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} {day} {hours} {hour}" if hours else f"{days} {day}"
    if hours:
        return f"{hours} {hour} {minutes} {minute}" if minutes else f"{hours} {hour}"
    return f"{minutes} {minute}"


def message(notice: Notice, game_id: str, title: str, lang: str, now: float
            ) -> dict[str, Any]:
    """What the notification shows and opens: ``{"title", "body", "url", "tag", "kind",
    "game", "lang"}``; the URL is the table's, relative to the page's origin."""
    texts = TEXTS[lang if lang in TEXTS else "en"]
    left = duration(notice.deadline - now, lang) if notice.deadline is not None else None
    key = f"{notice.kind}.body"
    if notice.kind == YOUR_MOVE and left is not None:
        key = "your_move.left"
    values = {"ruleset": title, "game": game_id, "left": left, "place": notice.place,
              "sides": notice.sides}
    return {"title": texts[f"{notice.kind}.title"].format(**values),
            "body": texts[key].format(**values),
            "url": f"/#/game/{game_id}", "tag": f"{game_id}:{notice.seat}",
            "kind": notice.kind, "game": game_id, "lang": lang}
