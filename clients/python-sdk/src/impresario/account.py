"""The terminal's player: ``impresario player``, ``claim``, ``games`` and ``leaderboard``.

    impresario player                      who you are on this engine (made on first use)
    impresario player --name Anna          ... named Anna, or renamed Anna
    impresario player --device-code        a code to continue on another device
    impresario claim 7KQ2MZ4CHP            continue here as the player of that code
    impresario games                       your games: your move, deadline, status, result
    impresario games --resume GAME         play your seat of GAME here
    impresario leaderboard turandot        the rated players, best first

The player's credential is kept in the player file (``impresario.player_file``: mode 0600,
``--player-file`` or ``$IMPRESARIO_PLAYER_FILE``, else ``$XDG_CONFIG_HOME/impresario/
player.json``), one per engine. ``impresario play`` makes the player there on first use too,
and takes its seat as the player: the game is then among ``impresario games`` on any device.
"""

from __future__ import annotations

import argparse
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import get_args

from ._generated import models
from ._generated import operations as ops
from .client import Client, Player, Seat, engine_url
from .errors import Conflict, Unauthorized
from .i18n import N_, _, ngettext
from .language import DEFAULT_LANGUAGE
from .lobby import _age, status_name
from .player_file import ENV, PlayerFile
from .terminal import Console
from .terminal.session import SCREENS, play_seat

STATUSES: tuple[ops.ListMyGamesStatus, ...] = get_args(ops.ListMyGamesStatus)
RULESETS: tuple[ops.GetLeaderboardRuleset, ...] = get_args(ops.GetLeaderboardRuleset)
#: the name a player made without --name gets (rename it: impresario player --name NAME)
DEFAULT_NAME = N_("Player")
NO_PLAYER = N_("no player of yours on {url} yet: 'impresario player' makes one here, "
               "'impresario claim CODE' brings one from another device")
GONE = N_("the engine at {url} does not know the player kept in {path} (removed, or the "
          "engine's data was reset)")


def player_file(args: argparse.Namespace) -> PlayerFile:
    """The player file: ``--player-file``, else ``$IMPRESARIO_PLAYER_FILE``, else the XDG
    config folder's."""
    return PlayerFile(getattr(args, "player_file", None))


def _err(text: str) -> None:
    print(_("error: {why}").format(why=text), file=sys.stderr)


def saved_player(client: Client, store: PlayerFile, make: str | None = None,
                 out: Callable[[str], None] = print) -> Player | None:
    """The player kept in ``store`` for the client's engine, read again from the engine (and
    kept again if it changed, a rename on another device). None when there is none; unless
    ``make`` is a name: then a new player of that name is made and kept, and ``out`` says so
    (also when the kept one is no longer known to the engine)."""
    url = client.base_url
    if store.loose():
        print(_("warning: {path} could be read by others: made readable by you only").format(
            path=store.path), file=sys.stderr)
        store.tighten()
    saved = store.get(url)
    if saved is not None:
        player = client.player(saved.token, saved.player)
        try:
            info = player.me()
        except Unauthorized as err:
            if err.code != "invalid_player_token" or make is None:
                raise
            out(_(GONE).format(url=url, path=store.path) + ": " + _("making a new one"))
        else:
            if info != saved.player:
                store.put(url, saved.token, info)
            return player
    if make is None:
        return None
    player = client.create_player(make)
    store.put(url, player.token, player.info)
    out(_("You are now the player {name} on {url}; your credential is kept in {path}, "
          "readable by you only.").format(name=player.name, url=url, path=store.path))
    return player


# ------------------------------------------------------------------------------ player, claim
def cmd_player(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    client = Client(engine_url(getattr(args, "url", None)))
    store = player_file(args)
    player = saved_player(client, store, make=args.name or _(DEFAULT_NAME), out=out)
    assert player is not None
    if args.name and unicodedata.normalize("NFKC", " ".join(args.name.split())) != player.name:
        store.put(client.base_url, player.token, player.rename(args.name))
        out(_("Renamed: profiles and leaderboards show {name} (the tables you sat at keep "
              "the name you sat under).").format(name=player.name))
    out(_("You are {name} (player {id}) on {url}.").format(name=player.name, id=player.id,
                                                          url=client.base_url))
    out(_("Your credential is kept in {path}.").format(path=store.path))
    if args.device_code:
        code = player.device_code()
        until = time.strftime("%H:%M", time.localtime(code["expires_at"]))
        out(_("On the other device, before {time} (once): {command}").format(
            time=until, command=f"impresario claim {code['code']} --url {client.base_url}"))
    return 0


def cmd_claim(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    client = Client(engine_url(getattr(args, "url", None)))
    store = player_file(args)
    saved = store.get(client.base_url)
    if saved is not None and not args.replace:
        try:
            known = client.player(saved.token, saved.player).me()
        except Unauthorized as err:
            if err.code != "invalid_player_token":
                raise
        else:
            _err(_("this device is the player {name} on {url} already ({path}); "
                   "--replace makes it the player of the code instead, and the player kept "
                   "there is lost to this device").format(name=known["name"],
                                                          url=client.base_url, path=store.path))
            return 2
    player = client.claim_player(args.code)
    store.put(client.base_url, player.token, player.info)
    out(_("This device is now {name} (player {id}) on {url}; the credential is kept in "
          "{path}.").format(name=player.name, id=player.id, url=client.base_url,
                            path=store.path))
    return 0


# ------------------------------------------------------------------------------ games
def _deadline(game: models.MyGame, now: float) -> str:
    if game["deadline"] is None:
        return "—"
    left = game["deadline"] - now
    return _("in {time}").format(time=_age(left)) if left > 0 else _("passed")


def _result(game: models.MyGame) -> str:
    if game["won"] is None:
        return "—"
    return _("won") if game["won"] else _("lost")


def my_games_table(games: Sequence[models.MyGame], now: float | None = None) -> list[str]:
    """The lines of the table of the player's games: id, ruleset, status, the player's seat,
    seats taken, whether it is the player's move and until when, the result, the last
    change."""
    now = time.time() if now is None else now
    rows = [(_("GAME"), _("RULESET"), _("STATUS"), _("SEAT"), _("SEATS"), _("YOUR MOVE"),
             _("DEADLINE"), _("RESULT"), _("CHANGED"))]
    for g in games:
        seat = str(g["seat"]) if g["seat"] is not None else _("host")
        move = ("→ " + _("yes")) if g["your_move"] else "—"
        rows.append((g["id"], g["ruleset"], status_name(g["status"]), seat,
                     f"{g['seats_taken']}/{g['seats_total']}", move, _deadline(g, now),
                     _result(g), _("{time} ago").format(time=_age(now - g["updated"]))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def command_player(args: argparse.Namespace) -> Player | None:
    """The player of a command's player file on its engine; None, having said why on stderr,
    when there is none or the engine no longer knows it."""
    client = Client(engine_url(getattr(args, "url", None)))
    store = player_file(args)
    try:
        player = saved_player(client, store)
    except Unauthorized as err:
        if err.code != "invalid_player_token":
            raise
        _err(_(GONE).format(url=client.base_url, path=store.path) + "; " + _(
            "'impresario player' makes a new one"))
        return None
    if player is None:
        _err(_(NO_PLAYER).format(url=client.base_url))
    return player


def cmd_my_games(args: argparse.Namespace, out: Callable[[str], None] = print,
                 console: Console | None = None) -> int:
    player = command_player(args)
    if player is None:
        return 1
    if args.resume:
        return resume_here(player, args.resume, console or Console(),
                           getattr(args, "lang", DEFAULT_LANGUAGE))
    found = list(player.iter_games(args.status, page_size=min(100, max(1, args.limit)),
                                   max_games=args.limit))
    if not found:
        out(_("No {status} games of yours.").format(status=status_name(args.status))
            if args.status else _("No games of yours on {url} yet: 'impresario play' starts "
                                  "one.").format(url=player.client.base_url))
        return 0
    for line in my_games_table(found):
        out(line)
    waiting = sum(1 for g in found if g["your_move"])
    if waiting:
        out(ngettext("Your move in {n} game: 'impresario games --resume GAME' plays it here.",
                     "Your move in {n} games: 'impresario games --resume GAME' plays one "
                     "here.", waiting).format(n=waiting))
    return 0


def resume_here(player: Player, game_id: str, console: Console,
                lang: str = DEFAULT_LANGUAGE) -> int:
    """Play the player's seat of ``game_id`` in the terminal, on a fresh seat token (the
    seat's token on any other device stops working)."""
    dashes = "-- " if game_id.startswith("-") else ""
    try:
        answer = player.resume_game(game_id)
    except Conflict as err:
        if err.code != "game_finished":
            raise
        console.out(_("Game {game} is over: {command} shows how it went.").format(
            game=game_id, command=f"impresario watch {dashes}{game_id}"))
        return 0
    if answer["seat"] is None or answer["token"] is None:
        console.out(_("You host game {game} without a seat at it: nothing to play here "
                      "({command} follows it).").format(
            game=game_id, command=f"impresario watch {dashes}{game_id}"))
        return 1
    seat = Seat(player.client, game_id, answer["seat"], answer["token"], view=answer["game"])
    view = answer["game"]
    names = {p["seat"]: p["name"] or _("seat {n}").format(n=p["seat"]) for p in view["players"]}
    screen = SCREENS[view["ruleset"]](console, names, me=seat.seat)
    console.out(_("Game {game} ({ruleset}): you are seat {seat} again, here; the seat's "
                  "token on any other device no longer works.").format(
        game=game_id, ruleset=view["ruleset"], seat=seat.seat))
    return play_seat(seat, screen, console, lang)


# ------------------------------------------------------------------------------ leaderboard
def leaderboard_table(rows: Sequence[models.LeaderRow], me: str | None = None) -> list[str]:
    """The lines of a leaderboard: place, player (``me``: marked as you), rating, games."""
    table = [(_("PLACE"), _("PLAYER"), _("RATING"), _("GAMES"))]
    for row in rows:
        name = row["player"]["name"]
        if row["player"]["id"] == me:
            name = _("{name} (you)").format(name=name)
        table.append((str(row["place"]), name, f"{row['rating']:.1f}", str(row["games"])))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return ["  ".join(c.rjust(w) if i in (0, 2, 3) else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in table]


def cmd_leaderboard(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    client = Client(engine_url(getattr(args, "url", None)))
    saved = player_file(args).get(client.base_url)
    me = saved.player["id"] if saved is not None and saved.player is not None else None
    first = client.leaderboard(args.ruleset, limit=min(100, args.limit))
    rows, page = list(first["players"]), client.next_leaderboard_page(first)
    while page is not None and len(rows) < args.limit:
        rows += page["players"]
        page = client.next_leaderboard_page(page) if len(rows) < args.limit else None
    rows = rows[:args.limit]
    if not rows:
        out(ngettext("Nobody is on the {ruleset} leaderboard yet: it lists the players with "
                     "{n} rated game or more.",
                     "Nobody is on the {ruleset} leaderboard yet: it lists the players with "
                     "{n} rated games or more.", first["min_games"]).format(
            ruleset=args.ruleset, n=first["min_games"]))
        return 0
    for line in leaderboard_table(rows, me):
        out(line)
    out(ngettext("{total} player on the board.", "{total} players on the board.",
                 first["total"]).format(total=first["total"]))
    return 0


# ------------------------------------------------------------------------------ the parsers
def positive(text: str) -> int:
    """An argument that is a whole number of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(_("{value!r} is not a whole number of 1 or more")
                                         .format(value=text))
    return value


def player_file_parser() -> argparse.ArgumentParser:
    """``--player-file``: a parent parser of the commands that use the player."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--player-file", default=None, metavar="PATH",
                        help=_("where your player's credential is kept (default: ${env}, else "
                               "$XDG_CONFIG_HOME/impresario/player.json)").format(env=ENV))
    return parent


def add_player_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]",
                        common: argparse.ArgumentParser) -> None:
    """``impresario player``, ``claim``, ``games`` and ``leaderboard``; ``common``: the parser
    of the options every command takes (``--url``, ``--lang``)."""
    credential = player_file_parser()
    player = sub.add_parser("player", parents=[common, credential],
                            help=_("who you are on this engine (a player is made on first "
                                   "use)"),
                            description=_("Your player on this engine: its name and id, and "
                                          "where its credential is kept. Made on first use; "
                                          "your games, ratings and seats are its own on any "
                                          "device."))
    player.add_argument("--name", default=None,
                        help=_("the name of the player made, or a new name for yours"))
    player.add_argument("--device-code", action="store_true",
                        help=_("print a code to continue as this player on another device "
                               "(impresario claim CODE there, within ten minutes)"))

    claim = sub.add_parser("claim", parents=[common, credential],
                           help=_("continue here as your player of another device"),
                           description=_("Continue on this device as the player of a code "
                                         "printed by 'impresario player --device-code' on "
                                         "another device (the code works once)."))
    claim.add_argument("code", help=_("the code from the other device"))
    claim.add_argument("--replace", action="store_true",
                       help=_("replace the player this device has already (it is lost to "
                              "this device)"))

    games = sub.add_parser("games", parents=[common, credential],
                           help=_("your games: your move, deadline, status; --resume plays "
                                  "one here"),
                           description=_("Your games on this engine, newest first: the ones "
                                         "you created or sat at, on any device, whether each "
                                         "waits for your move and until when, and how the "
                                         "finished ones went."))
    games.add_argument("--status", choices=STATUSES, default=None,
                       help=_("only the open, playing or finished ones"))
    games.add_argument("--limit", type=positive, default=20,
                       help=_("at most this many (default 20)"))
    games.add_argument("--resume", default=None, metavar="GAME",
                       help=_("play your seat of this game here, in the terminal (the seat's "
                              "token on any other device stops working)"))

    board = sub.add_parser("leaderboard", parents=[common, credential],
                           help=_("the rated players of a game, best first"),
                           description=_("A game's leaderboard: its rated players by rating "
                                         "(μ − 3σ), best first."))
    board.add_argument("ruleset", choices=RULESETS, help=_("the game"))
    board.add_argument("--limit", type=positive, default=20,
                       help=_("at most this many (default 20)"))
