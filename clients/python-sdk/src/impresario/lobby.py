"""``impresario lobby``: the open games of an engine as a table (the lobby in a terminal).

    impresario lobby                          # open games, newest first
    impresario lobby --ruleset wordjam --status playing --limit 50

(``impresario games`` lists the player's own games: ``impresario.account``.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from ._generated import models
from .client import Client, engine_url
from .i18n import N_, _

STATUSES = ("open", "playing", "finished")
#: each status as a player reads it
STATUS_NAMES = {"open": N_("open"), "playing": N_("playing"), "finished": N_("finished")}


def status_name(status: str) -> str:
    """A game's status in the player's language."""
    return _(STATUS_NAMES[status]) if status in STATUS_NAMES else status


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
            name += " " + _("(bot: {bot})").format(bot=seat["bot"])
        elif seat["held"]:
            name += " " + _("(held)")
        names.append(name)
    return ", ".join(names) or "—"


def _options(game: models.LobbyGame) -> str:
    return " ".join(f"{k}={v}" for k, v in game["options"].items())


def games_table(games: Sequence[models.LobbyGame], now: float | None = None) -> list[str]:
    """The lines of the table: id, ruleset, seats taken/total, age, players, options."""
    now = time.time() if now is None else now
    rows = [(_("GAME"), _("RULESET"), _("STATUS"), _("SEATS"), _("AGE"), _("PLAYERS"),
             _("OPTIONS"))]
    for g in games:
        rows.append((g["id"], g["ruleset"], status_name(g["status"]),
                     f"{g['seats_taken']}/{g['seats_total']}", _age(now - g["created"]),
                     _players(g), _options(g)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def add_lobby_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]",
                      common: argparse.ArgumentParser | None = None) -> None:
    """``impresario lobby``; ``common``: the parser of the options every command takes
    (``--url``)."""
    games = sub.add_parser("lobby", parents=[common] if common else [],
                           help=_("list the open games (the lobby) as a table"),
                           description=_("The games of an engine, newest first, as a table: "
                                         "the open ones by default."))
    games.add_argument("--ruleset", default=None, help=_("only this ruleset"))
    games.add_argument("--status", choices=STATUSES, default="open",
                       help=_("open (default), playing or finished"))
    bots = games.add_mutually_exclusive_group()
    bots.add_argument("--bots", dest="has_bots", action="store_true", default=None,
                      help=_("only games with bot seats"))
    bots.add_argument("--no-bots", dest="has_bots", action="store_false",
                      help=_("only games without bot seats"))
    games.add_argument("--limit", type=int, default=20,
                       help=_("at most this many (default 20)"))


def cmd_lobby(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    client = Client(engine_url(getattr(args, "url", None)))
    found = list(client.iter_games(args.ruleset, args.status, args.has_bots,
                                   page_size=min(100, max(1, args.limit)),
                                   max_games=args.limit))
    if not found:
        status = status_name(args.status)
        out(_("No {status} games of {ruleset}.").format(status=status, ruleset=args.ruleset)
            if args.ruleset else _("No {status} games.").format(status=status))
        return 0
    for line in games_table(found):
        out(line)
    if args.status == "open":
        out(_("Join one: {http}, or with the SDK: {sdk}").format(
            http='POST /v1/games/<GAME>/seats {"name": ...}',
            sdk="Client(url).game(<GAME>).join(name)"))
    return 0
