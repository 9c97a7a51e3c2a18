"""The terminal client's two loops: play a seat against the engine's bots, and watch a game."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import cast

from impresario_rules import RULESETS
from impresario_rules.texts import DEFAULT_LANGUAGE

from .._generated import models
from .._generated import operations as ops
from .._generated.operations import JSON
from ..client import Client, Player, Seat
from ..errors import Conflict, IllegalMove, PreconditionFailed
from ..i18n import _
from ..lobby import status_name
from .base import BOT_LEVELS, Screen
from .console import Console
from .muzicando import MuzicandoScreen
from .problems import explain
from .rules import RulesHelp
from .turandot import TurandotScreen
from .wordjam import WordJamScreen

SCREENS: dict[str, type[Screen]] = {"turandot": TurandotScreen, "wordjam": WordJamScreen,
                                    "muzicando": MuzicandoScreen}
#: the bots the engine plays (seats added by the host), the rules' own levels and their older
#: names; the first is each ruleset's default (``medium``: a fair game for a newcomer)
ENGINE_BOTS = {name: tuple(sorted(r.bot_names_accepted, key=lambda bot: bot != "medium"))
               for name, r in RULESETS.items()}
#: how many bots ``impresario play`` seats when not told: a legal, typical table
DEFAULT_BOTS = {"turandot": 3, "wordjam": 5, "muzicando": 3}
BOT_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elsa", "Fabio", "Gina", "Ivo", "Lea", "Marco",
             "Nora")


def pending_deadline(view: models.Game, seat: int | None) -> float | None:
    for p in view["pending"]:
        if p["seat"] == seat:
            return p["deadline"]
    return None


class Follower:
    """Reads the game for one seat (or a spectator) and narrates what is new."""

    def __init__(self, seat: Seat, screen: Screen) -> None:
        self.seat = seat
        self.screen = screen
        self.seq = 0
        self.known: int | None = None

    def read(self) -> models.Game:
        view = self.seat.view()
        if view["last_seq"] != self.known:  # no new events since the last read: no request
            self.news()
            self.known = view["last_seq"]
        return view

    def news(self) -> None:
        events = self.seat.events(after=self.seq)
        if events:
            self.seq = events[-1]["seq"]
            self.screen.events(events)


def play(client: Client, ruleset: str, bots: list[str], name: str, seed: int | None,
         options: Mapping[str, JSON] | None, console: Console, lang: str = DEFAULT_LANGUAGE,
         player: Player | None = None, guided: bool = False) -> int:
    """Create a game, take seat 0, seat ``bots`` (the engine's bots) and play it to the end.
    With a ``player`` the game and the seat are the player's (listed on any device, resumed
    with ``impresario games --resume``). ``guided``: a guided game (``impresario learn``), each
    step printed before its prompt."""
    game = client.create_game(ruleset, players=len(bots) + 1, seed=seed, options=options,
                              player=player)
    me = game.join(name)
    names = {me.seat: name}
    for i, kind in enumerate(bots):
        bot_name = BOT_NAMES[i % len(BOT_NAMES)]
        seat = game.add_bot(bot_name, kind)
        names[seat] = bot_name
    screen = SCREENS[ruleset](console, names, me=me.seat)
    table = ", ".join(f"{names[s]} ({_(BOT_LEVELS[kind]) if kind in BOT_LEVELS else kind})"
                      for s, kind in zip(sorted(names)[1:], bots))
    console.out(_("Game {game} ({ruleset}): you are seat {seat}, against {table}.").format(
        game=game.id, ruleset=ruleset, seat=me.seat, table=table))
    dashes = "-- " if game.id.startswith("-") else ""
    console.out(_("Follow it from another terminal: {command}").format(
        command=f"impresario watch {dashes}{game.id}"))
    return play_seat(me, screen, console, lang, guided=guided)


def show_step(me: Seat, console: Console, lang: str, rules: RulesHelp) -> None:
    """A guided game's step for this seat, from the engine (``GET /guide``): what to do now and
    why, and the rules section ``?`` shows now."""
    step = me.guide(cast(ops.GetGuideLang, lang))
    console.out("")
    console.out(_("Guide: {text}").format(text=step["text"]))
    if step["rule_title"]:
        console.out("  " + _("? shows the rule behind it: {title}").format(
            title=step["rule_title"]))
    rules.pinned = step["anchor"]


def play_seat(me: Seat, screen: Screen, console: Console, lang: str = DEFAULT_LANGUAGE,
              guided: bool = False) -> int:
    """The loop of one human seat: narrate, show the state, ask, move; until the game ends.
    ``?`` at any prompt shows the rules in ``lang`` (terminal/rules.py). ``guided``: the seat's
    step (a guided game's) is printed before each prompt, and once the game is over."""
    rules = RulesHelp(console, screen.ruleset, lang)
    console.help = rules
    console.out(_("  ? at any prompt: the rule behind the question (?? the whole rules)"))
    follow = Follower(me, screen)
    waited_for = None
    while True:
        view = follow.read()
        if view["status"] == "finished":
            screen.score(me.score())
            if guided:
                show_step(me, console, lang, rules)
            return 0
        if not me.is_my_turn(view):
            line = screen.waiting(view)
            if line and line != waited_for:
                console.out(line)
                waited_for = line
            time.sleep(0.5)
            continue
        waited_for = None
        actions = me.actions()
        if not actions["moves"]:
            time.sleep(0.2)
            continue
        screen.show(view, actions)
        seen = {"version": view["version"]}

        def changed() -> bool:
            """Whether the question on screen lapsed; the same question at a newer version of
            the game (someone else moved, and the player was told) keeps standing."""
            now = me.view()
            if now["version"] == seen["version"]:
                return False
            follow.news()
            if now["status"] != "playing" or not me.is_my_turn(now) or me.actions() != actions:
                return True
            seen["version"] = now["version"]
            return False

        rules.at(actions["pending"], view.get("phase"))
        if guided:
            show_step(me, console, lang, rules)
        deadline = pending_deadline(view, me.seat)
        watch = changed if deadline is not None or view.get("ruleset") == "wordjam" else None
        move = screen.ask(view, actions, deadline, watch)
        if move is None:
            continue
        try:
            me.move(move, if_match=seen["version"])
        except PreconditionFailed:
            console.out("  " + _("the game moved on while you were deciding: here it is now"))
            screen.shown = None
        except Conflict as err:
            if err.code == "deadline_passed":
                console.out("  " + _("too late: that window has closed"))
            else:
                console.out("  " + _("not now: {why}").format(why=explain(err)))
            screen.shown = None
        except IllegalMove as err:
            console.out("  " + _("refused: {why}").format(why=explain(err)))
            if screen.hint:
                console.out("  " + screen.hint)


def watch(client: Client, game_id: str, console: Console, token: str | None = None,
          spectator: str | None = None, after: int = 0) -> int:
    """Follow a game live (server-sent events): what happens, the state at each new round or
    turn, and the score."""
    spectator = spectator or None  # an empty link is no link: not sent
    view = ops.get_game(client, game_id, spectator=spectator, token=token)
    ruleset = view["ruleset"]
    names = {p["seat"]: p["name"] or _("seat {n}").format(n=p["seat"]) for p in view["players"]}
    yours = view.get("you")
    you = yours["seat"] if yours else None
    screen = SCREENS[ruleset](console, names, me=you)
    status = status_name(view["status"])
    console.out(_("Watching game {game} ({ruleset}, {status}).").format(
        game=game_id, ruleset=ruleset, status=status))
    if view["status"] != "open":
        screen.show(view, force=True)
    game = client.game(game_id, host_token=token)
    for event in game.stream(after=after, spectator=spectator):
        if event.type == "seat_taken":
            names[event["seat"]] = event["name"]
            if event.get("bot"):
                bot = event["bot"]
                console.out("  " + _("{name} takes seat {seat} (bot: {bot})").format(
                    name=event["name"], seat=event["seat"],
                    bot=_(BOT_LEVELS[bot]) if bot in BOT_LEVELS else bot))
            else:
                console.out("  " + _("{name} takes seat {seat}").format(name=event["name"],
                                                                      seat=event["seat"]))
            continue
        if event.type in ("game_started", "round_started", "turn_started", "hand_dealt",
                          "casting_started"):
            screen.events([event.data])
            now = ops.get_game(client, game_id, spectator=spectator, token=token)
            if now["status"] != "open":
                screen.show(now, force=True)
            continue
        screen.events([event.data])
    score = ops.get_score(client, game_id, spectator=spectator, token=token)
    screen.score(score)
    return 0
