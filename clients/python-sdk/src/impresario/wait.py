"""``impresario wait GAME_ID``: wait, in a terminal, until it is your move at one of your
games, then ring the terminal's bell and say so (exit 0). It follows the game's event stream
(the SDK's :func:`~impresario.events.stream_events`, reconnecting) and, after each event,
asks your games whether the move is yours now; a private game, whose stream needs a token of
the game, is asked every ``--poll`` seconds instead. Exits 1, saying why, when the game is
not yours, you host it without a seat, or it is over."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from ._generated import models
from ._generated import operations as ops
from .account import _deadline, command_player, player_file_parser
from .client import Player
from .errors import Forbidden
from .events import stream_events
from .i18n import _

BELL = "\a"


def _err(text: str) -> None:
    print(_("error: {why}").format(why=text), file=sys.stderr)


def find_game(player: Player, game_id: str) -> models.MyGame | None:
    """The player's game ``game_id`` as their list of games shows it (None: not theirs)."""
    for game in player.iter_games(page_size=100):
        if game["id"] == game_id:
            return game
    return None


def _changes(player: Player, game_id: str, poll: float) -> Any:
    """Yields whenever the game may have changed: after each event of its stream, or every
    ``poll`` seconds for a game whose stream this terminal may not open (a private game)."""
    client = player.client
    try:
        after = ops.get_game(client, game_id)["last_seq"]
    except Forbidden:
        after = None
    if after is not None:
        for _event in stream_events(client, game_id, after=after):
            yield
    while True:  # (after the stream's end too: the game is over, the next look says so)
        time.sleep(poll)
        yield


def cmd_wait(args: argparse.Namespace, out: Callable[[str], None] = print,
             bell: TextIO | None = None) -> int:
    player = command_player(args)
    if player is None:
        return 1
    game_id = args.game
    game = find_game(player, game_id)
    if game is None:
        _err(_("game {game} is not one of your games ('impresario games' lists them)").format(
            game=game_id))
        return 1
    if game["seat"] is None:
        _err(_("you host game {game} without a seat at it: it is never your move there")
             .format(game=game_id))
        return 1
    changes = _changes(player, game_id, args.poll)
    while True:
        if game["status"] == "finished":
            _err(_("game {game} is over: it is nobody's move any more").format(game=game_id))
            return 1
        if game["your_move"]:
            (bell or sys.stdout).write(BELL)
            (bell or sys.stdout).flush()
            line = _("Your move at game {game} ({ruleset}), time left: {left}; 'impresario "
                     "games --resume {game}' plays it here.") if game["deadline"] is not None \
                else _("Your move at game {game} ({ruleset}); 'impresario games --resume "
                       "{game}' plays it here.")
            out(line.format(game=game_id, ruleset=game["ruleset"],
                            left=_deadline(game, time.time())))
            return 0
        next(changes)
        found = find_game(player, game_id)
        if found is None:
            _err(_("game {game} is no longer one of your games").format(game=game_id))
            return 1
        game = found



def _seconds(text: str) -> float:
    """A --poll value: seconds, at least 0.1 (no busy loop against the engine)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected seconds, not {text!r}").format(
            text=text)) from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError(_("--poll must be from 0.1 to 3600 seconds"))
    return value

def add_wait_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]",
                     common: argparse.ArgumentParser) -> None:
    wait = sub.add_parser("wait", parents=[common, player_file_parser()],
                          help=_("wait until it is your move at a game, then ring"),
                          description=_("Wait until it is your move at one of your games (your "
                                        "player's, made by 'impresario player'), then ring the "
                                        "terminal's bell, say so and exit 0. Exits 1 when the "
                                        "game is not yours or is over."))
    wait.add_argument("game", help=_("the game's id"))
    wait.add_argument("--poll", type=_seconds, default=5.0, metavar="SECONDS",
                      help=_("how often a private game is asked (default 5): its event "
                             "stream needs a token of the game"))
