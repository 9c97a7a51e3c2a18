"""``impresario games``: the open games of an engine as a table (the lobby in a terminal).

    impresario games                          # open games, newest first
    impresario games --ruleset wordjam --status playing --limit 50
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from ._generated import models
from .client import Client, engine_url

STATUSES = ("open", "playing", "finished")


def _age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _players(game: models.LobbyGame) -> str:
    names = []
    for seat in game["seats"]:
        name = seat["name"]
        if seat["bot"]:
            name += f" (bot: {seat['bot']})"
        elif seat["held"]:
            name += " (held)"
        names.append(name)
    return ", ".join(names) or "—"


def _options(game: models.LobbyGame) -> str:
    return " ".join(f"{k}={v}" for k, v in game["options"].items())


def games_table(games: Sequence[models.LobbyGame], now: float | None = None) -> list[str]:
    """The lines of the table: id, ruleset, seats taken/total, age, players, options."""
    now = time.time() if now is None else now
    rows = [("GAME", "RULESET", "STATUS", "SEATS", "AGE", "PLAYERS", "OPTIONS")]
    for g in games:
        rows.append((g["id"], g["ruleset"], g["status"],
                     f"{g['seats_taken']}/{g['seats_total']}", _age(now - g["created"]),
                     _players(g), _options(g)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def add_games_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]",
                      common: argparse.ArgumentParser | None = None) -> None:
    """``impresario games``; ``common``: the parser of the options every command takes
    (``--url``)."""
    games = sub.add_parser("games", parents=[common] if common else [],
                           help="list the open games (the lobby) as a table",
                           description="The games of an engine, newest first, as a table: "
                           "the open ones by default.")
    games.add_argument("--ruleset", default=None, help="only this ruleset")
    games.add_argument("--status", choices=STATUSES, default="open",
                       help="open (default), playing or finished")
    bots = games.add_mutually_exclusive_group()
    bots.add_argument("--bots", dest="has_bots", action="store_true", default=None,
                      help="only games with bot seats")
    bots.add_argument("--no-bots", dest="has_bots", action="store_false",
                      help="only games without bot seats")
    games.add_argument("--limit", type=int, default=20, help="at most this many (default 20)")


def cmd_games(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    client = Client(engine_url(getattr(args, "url", None)))
    found = list(client.iter_games(args.ruleset, args.status, args.has_bots,
                                   page_size=min(100, max(1, args.limit)),
                                   max_games=args.limit))
    if not found:
        out(f"No {args.status} games" + (f" of {args.ruleset}" if args.ruleset else "") + ".")
        return 0
    for line in games_table(found):
        out(line)
    if args.status == "open":
        out("Join one: POST /v1/games/<GAME>/seats {\"name\": ...}, or with the SDK: "
            "Client(url).game(<GAME>).join(name)")
    return 0
