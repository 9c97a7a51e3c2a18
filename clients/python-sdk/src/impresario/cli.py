"""impresario: play against the engine's bots in the terminal, as your player; list your games
and resume one on any device; run a tournament of the SDK's bots, follow a game live, list
the open games or a leaderboard.

  impresario play turandot                   you against 3 medium bots
  impresario play wordjam                    you against 5 medium bots
  impresario play muzicando                  the team game: you and a bot against two bots
  impresario play turandot --bots hard,medium,easy
  impresario learn turandot                  a guided first game: each step says what and why
  impresario games                           your games: your move, deadline, status, result
  impresario games --resume GAME_ID          play your seat of a game here
  impresario player                          who you are (made on first use)
  impresario player --device-code            a code for 'impresario claim CODE' elsewhere
  impresario claim CODE                      continue here as the player of that code
  impresario leaderboard turandot            the rated players, best first
  impresario tournament --games 500 --bots medium,easy,easy,easy --jobs 2
  impresario tournament --games 500 --in-process --out results.csv
  impresario watch GAME_ID
  impresario wait GAME_ID                    ring the terminal's bell when it is your move
  impresario lobby                           the open games, as a table
  impresario mcp                             an MCP server: an AI agent sits at a table

The engine's address comes from --url (before or after the command), else the IMPRESARIO_URL
environment variable, else http://127.0.0.1:8000. Your player's credential is kept in
--player-file, else $IMPRESARIO_PLAYER_FILE, else $XDG_CONFIG_HOME/impresario/player.json
(~/.config/impresario/player.json), readable by you only, one player per engine.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any, Callable

from impresario_rules.guide import guided_setup

from . import __version__
from ._generated import SPEC_VERSION
from .account import (DEFAULT_NAME, add_player_commands, cmd_claim, cmd_leaderboard,
                      cmd_my_games, cmd_player, player_file, player_file_parser, saved_player)
from ._generated.operations import JSON
from .bots import bot_names
from .client import DEFAULT_URL, Client
from .client import engine_url as client_engine_url
from .errors import APIConnectionError, APIError, ImpresarioError, operator_setting
from .i18n import N_, _, language, use
from .language import DEFAULT_LANGUAGE, pick_language
from .lobby import add_lobby_command, cmd_lobby
from .mcp_server import add_mcp_command, cmd_mcp
from .terminal import DEFAULT_BOTS, ENGINE_BOTS, Console, EndOfInput
from .terminal import play as play_game_here
from .terminal.problems import explain
from .terminal import watch as watch_game
from .tournament import GameResult, TournamentResult, bot_for, run_tournament
from .wait import add_wait_command, cmd_wait

RULESETS = ("turandot", "wordjam", "muzicando")
#: the SDK bots a tournament seats when --bots is not given
TOURNAMENT_BOTS = {"turandot": "medium,easy,easy,easy", "wordjam": "5",
                   "muzicando": "medium,easy,medium,easy"}
#: the SDK bot a count of --bots seats in a tournament
TOURNAMENT_BOT = {"turandot": "medium", "wordjam": "medium", "muzicando": "medium"}
NO_ENGINE = N_("cannot reach the Impresario engine at {url}.\n"
               "Start it with 'make run' in the repository (it serves {default}), "
               "or pass --url URL (or set IMPRESARIO_URL) to use another one.")


class UsageError(Exception):
    """A command line the CLI refuses before doing anything."""


def engine_url(args: argparse.Namespace) -> str:
    return client_engine_url(getattr(args, "url", None))


def parse_bots(spec: str | None, kind: str | None, known: tuple[str, ...] | list[str],
               default_count: int, own: bool = False) -> list[str]:
    """``--bots``: a count (``3``: that many bots of ``--bot``'s kind) or a comma-separated list
    of bot names, one per seat (``greedy,random,random``); with ``own``, an entry may also be
    ``module:Class``, the author's own bot (checked when it is loaded)."""
    kind = kind or known[0]
    if kind not in known:
        raise UsageError(_("unknown bot {bot!r}; bots here: {known}").format(
            bot=kind, known=", ".join(known)))
    if spec is None:
        return [kind] * default_count
    spec = spec.strip()
    if spec.isdigit():
        return [kind] * int(spec)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in known and not (own and ":" in n)]
    if unknown or not names:
        raise UsageError(_("unknown bot {bot!r}; --bots takes a count or names from: "
                           "{known}").format(bot=unknown[0] if unknown else spec,
                                             known=", ".join(known)))
    return names


def parse_options(args: argparse.Namespace) -> dict[str, JSON] | None:
    opts: dict[str, JSON] = {}
    for item in getattr(args, "option", None) or ():
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UsageError(_("--option takes KEY=VALUE, not {item!r}").format(item=item))
        try:
            opts[key] = json.loads(raw)
        except ValueError:
            opts[key] = raw
    if getattr(args, "mode", None):
        opts["mode"] = args.mode
    if getattr(args, "hands", None):
        opts["hands"] = args.hands
    return opts or None


#: ``--pace none``: no pace, each option's own default
NO_PACE = "none"


def with_pace(client: Client, ruleset: str, pace: str | None,
              options: dict[str, JSON] | None) -> dict[str, JSON] | None:
    """The options of a game against bots at ``pace`` (None: the engine's pace against bots,
    when it has paces; ``none``: no pace). An ``--option pace=...`` is left as given; the
    engine refuses an unknown pace (invalid_pace, naming the paces)."""
    if options and "pace" in options:
        return options
    if pace is None:
        try:
            pace = client.paces(ruleset)["against_bots"]
        except APIError:  # an engine without paces: the options as given
            return options
    if pace == NO_PACE:
        return options
    return {**(options or {}), "pace": pace}


def check_table(client: Client, ruleset: str, players: int, mode: str | None) -> None:
    """Refuse a table the ruleset cannot seat, saying what to pass (nothing is created)."""
    described = {r["name"]: r for r in client.rulesets()}
    if ruleset not in described:
        raise UsageError(_("the engine has no ruleset {ruleset!r}; it has: {rulesets}").format(
            ruleset=ruleset, rulesets=", ".join(described)))
    lo, hi = described[ruleset]["min_players"], described[ruleset]["max_players"]
    if mode == "team" and players != 4:
        raise UsageError(_("the team game is for 4 players, not {n}: pass --bots 3").format(
            n=players))
    if not lo <= players <= hi:
        raise UsageError(_("{game} is for {lo} to {hi} players, not {n} (you and {bots} bots): "
                           "pass --bots {fewest} to {most}").format(
            game=described[ruleset]["title"], lo=lo, hi=hi, n=players, bots=players - 1,
            fewest=lo - 1, most=hi - 1))


def cmd_play(args: argparse.Namespace, console: Console | None = None) -> int:
    ruleset = args.ruleset
    known = ENGINE_BOTS[ruleset]
    default = DEFAULT_BOTS[ruleset]
    if ruleset == "muzicando" and args.mode == "individual" and args.bots is None:
        default = 2
    bots = parse_bots(args.bots, args.bot, known, default)
    options = parse_options(args)
    client = Client(engine_url(args))
    check_table(client, ruleset, len(bots) + 1, args.mode if ruleset == "muzicando" else None)
    options = with_pace(client, ruleset, getattr(args, "pace", None), options)
    console = console or Console()
    # the seat is the player's: the game is among `impresario games` on any device
    player = saved_player(client, player_file(args), make=args.name or _(DEFAULT_NAME),
                          out=console.out)
    return play_game_here(client, ruleset, bots, args.name or _("You"), args.seed, options,
                          console, getattr(args, "lang", DEFAULT_LANGUAGE), player=player)


def cmd_learn(args: argparse.Namespace, console: Console | None = None) -> int:
    """A guided first game of the ruleset (the rules package's guided table: its seed, its
    gentle bots), each step printed before its prompt in the player's language."""
    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    setup = guided_setup(args.ruleset, lang)
    client = Client(engine_url(args))
    console = console or Console()
    player = saved_player(client, player_file(args), make=args.name or _(DEFAULT_NAME),
                          out=console.out)
    console.out(_("A guided game of {game}: each step says what to do and why. The bots wait "
                  "for you; take your time.").format(game=args.ruleset))
    return play_game_here(client, args.ruleset, setup["bots"], args.name or _("You"),
                          setup["seed"], setup["options"], console, lang, player=player,
                          guided=True)


# ------------------------------------------------------------------------------ tournament
class Progress:
    """Games done, their rate and the time left: a rich progress bar when ``rich`` is installed
    (``pip install impresario[cli]``) and standard error is a terminal, else a plain line every
    few seconds."""

    def __init__(self, total: int, label: str, stream: Any = None, every: float = 5.0) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.every = every
        self.started = time.perf_counter()
        self.last = self.started
        self.bar: Any = None
        if getattr(self.stream, "isatty", lambda: False)():
            try:
                from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar,
                                           TextColumn, TimeElapsedColumn, TimeRemainingColumn)
                from rich.console import Console as RichConsole
            except ImportError:
                self.stream.write("(pip install 'impresario[cli]' for a live progress bar)\n")
            else:
                self.bar = Bar(TextColumn("{task.description}"), BarColumn(),
                               MofNCompleteColumn(), TextColumn("games ·"), TimeElapsedColumn(),
                               TextColumn("· ETA"), TimeRemainingColumn(),
                               console=RichConsole(file=self.stream), transient=True)
                self.task = self.bar.add_task(label, total=total)
                self.bar.start()

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
            return
        now = time.perf_counter()
        if now - self.last < self.every and done < total:
            return
        self.last = now
        rate = done / (now - self.started) if now > self.started else 0.0
        eta = (total - done) / rate if rate else 0.0
        self.stream.write(f"{self.label}: {done}/{total} games, {rate:.1f} games/s, "
                          f"ETA {int(eta) // 60}:{int(eta) % 60:02d}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


class GameLog:
    """``--out FILE.csv`` or ``FILE.jsonl``: each game written as soon as it ends (one CSV row
    per game and seat, or one JSON line per game), so stopping a tournament loses none of the
    games played."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.csv = self.path.suffix == ".csv"
        self.file = self.path.open("w", newline="", encoding="utf-8")
        self.writer = csv.writer(self.file) if self.csv else None
        self.keys: list[str] | None = None

    def write(self, r: GameResult) -> None:
        if self.writer is None:
            self.file.write(json.dumps(r) + "\n")
        else:
            if self.keys is None:  # every game of a ruleset has the same score lines
                self.keys = sorted({k for p in r["players"] for k in p["lines"]})
                self.writer.writerow(["game", "seed", "game_id", "seat", "bot", "won",
                                      "total", *self.keys])
            for p in r["players"]:
                won = 1 / len(r["winners"]) if p["seat"] in r["winners"] else 0
                self.writer.writerow([r["game"], r["seed"], r["id"] or "", p["seat"], p["bot"],
                                      round(won, 6), p["total"],
                                      *(p["lines"].get(k, 0) for k in self.keys)])
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def write_results(path: str, result: TournamentResult) -> None:
    """``--out``: the whole result as JSON, or one CSV row per game and seat."""
    target = Path(path)
    if target.suffix == ".json":
        target.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        return
    keys = sorted({k for r in result["results"] for p in r["players"] for k in p["lines"]})
    with target.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["game", "seed", "game_id", "seat", "bot", "won", "total", *keys])
        for r in result["results"]:
            for p in r["players"]:
                won = 1 / len(r["winners"]) if p["seat"] in r["winners"] else 0
                out.writerow([r["game"], r["seed"], r["id"] or "", p["seat"], p["bot"],
                              round(won, 6), p["total"], *(p["lines"].get(k, 0) for k in keys)])


def throttle_remedy(code: str | None) -> str:
    """What lifts a throttle: the engine's setting its operator raises, or playing here."""
    setting = operator_setting(code)
    where = f"its operator raises {setting} (0: no limit)" if setting else \
        "its operator raises its rate limits"
    return f"{where}; --in-process plays without the engine"


class ThrottleNotice:
    """Each game to ``then`` (the ``--out`` log), and the first time the engine throttles the
    tournament, a line on standard error saying so and how it is lifted (the client's own
    warnings for the retries after it are left out: the report sums them up)."""

    def __init__(self, then: Callable[[GameResult], None] | None) -> None:
        self.then = then
        self.said = False

    def __call__(self, result: GameResult) -> None:
        if self.then is not None:
            self.then(result)
        throttled = result["throttled"]
        if throttled["retries"] and not self.said:
            self.said = True
            sys.stderr.write(f"the engine is throttling this tournament (429 {throttled['code']}): "
                             "each game waits as long as it asks; "
                             + throttle_remedy(throttled["code"]) + "\n")
            logging.getLogger("impresario.client").addFilter(_not_throttled)


def _not_throttled(record: logging.LogRecord) -> bool:
    """Leaves out the client's warnings of throttled retries (once the notice said so)."""
    return " 429 " not in record.getMessage()


def cmd_tournament(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    ruleset = args.ruleset
    known = bot_names(ruleset)
    spec = args.bots if args.bots is not None else TOURNAMENT_BOTS[ruleset]
    names = parse_bots(spec, args.bot or TOURNAMENT_BOT[ruleset], known, 4, own=True)
    for name in names:
        if ":" in name:
            try:
                bot_for(name, ruleset=ruleset)
            except Exception as err:  # the author's code: whatever it raises, said plainly
                raise UsageError(f"--bots {name}: {err}") from None
    if args.out and Path(args.out).suffix not in (".json", ".csv"):
        raise UsageError("--out takes a file name ending in .json or .csv")
    if args.games < 1 or args.jobs < 1:
        raise UsageError("--games and --jobs must be at least 1")
    options = parse_options(args)
    client = None if args.in_process else Client(engine_url(args))
    if client is not None:
        check_table(client, ruleset, len(names), args.mode if ruleset == "muzicando" else None)
    if args.think_ms is not None and args.think_ms <= 0:
        raise UsageError("--think-ms must be a positive number of milliseconds")
    progress = None if args.quiet else Progress(args.games, f"{ruleset} tournament")
    stream = GameLog(args.out) if args.out and Path(args.out).suffix in (".csv", ".jsonl") \
        else None
    notice = ThrottleNotice(stream.write if stream is not None else None)
    try:
        result = run_tournament(client, names, args.games, seed=args.seed, progress=progress,
                                ruleset=ruleset, options=options, jobs=args.jobs,
                                in_process=args.in_process, think_ms=args.think_ms,
                                rotate=args.rotate, ray=args.ray, on_result=notice)
    except ImportError as err:
        if args.ray is None:
            raise
        raise UsageError(str(err)) from None
    finally:
        if progress is not None:
            progress.close()
        if stream is not None:
            stream.close()
    if args.out and stream is None:
        write_results(args.out, result)
    if args.json:
        out(json.dumps({k: v for k, v in result.items() if k != "results"}, indent=2))
        return 0
    where = f"over HTTP ({client.base_url})" if client is not None else "in process"
    how = f"on Ray ({args.ray})" if args.ray else f"{args.jobs} job(s)"
    out(f"{result['games']} games {where}, {how}, in {result['seconds']:.1f} s "
        f"({result['games_per_second']:.2f} games/s)")
    keys = list(result["standings"][0]["avg_lines"]) if result["standings"] else []
    out(f"{'seat':<5}{'bot':<10}{'win rate':>10}{'95% CI':>18}{'avg total':>11}  "
        + "  ".join(keys))
    for row in result["standings"]:
        lo, hi = row["ci95"]
        out(f"{row['seat']:<5}{row['bot']:<10}{row['win_rate']:>10.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{row['avg_total']:>11.2f}  "
            + "  ".join(f"{row['avg_lines'][k]:>{len(k)}.2f}" for k in keys))
    out("")
    out(f"{'bot':<10}{'seats':>7}{'win rate':>10}{'fair':>7}{'95% CI':>18}{'rating':>8}"
        f"{'decisions':>11}{'think p50':>11}{'p95':>8}{'max':>8}  (ms of CPU)")
    for b in result["by_bot"]:
        lo, hi = b["ci95"]
        out(f"{b['bot']:<10}{b['games']:>7}{b['win_rate']:>10.1%}{b['fair_share']:>7.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{b['rating']:>8.0f}{b['decisions']:>11}"
            f"{b['think_ms_p50']:>11.1f}{b['think_ms_p95']:>8.1f}{b['think_ms_max']:>8.1f}")
    if ruleset == "turandot" and len(names) == 2:
        out(f"dummy wins: {result['dummy_wins']}")
    throttled = result["throttled"]
    if throttled["retries"]:
        out(f"throttled: the engine answered 429 {throttled['code']} {throttled['retries']} "
            f"time(s), and the games waited {throttled['seconds']:.1f} s for it ("
            + throttle_remedy(throttled["code"]) + ")")
    if args.out:
        out(f"results written to {args.out}")
    return 0


def cmd_watch(args: argparse.Namespace, console: Console | None = None) -> int:
    return watch_game(Client(engine_url(args)), args.game, console or Console(),
                      token=args.token, spectator=args.spectator, after=args.after)


# ------------------------------------------------------------------------------ the parser
def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=argparse.SUPPRESS,
                        help=_("the engine's address (default: $IMPRESARIO_URL, else {url})")
                        .format(url=DEFAULT_URL))
    common.add_argument("--lang", default=argparse.SUPPRESS, metavar="CODE",
                        help=_("it, de, fr or en (default: $LANGUAGE, $LC_ALL, $LC_MESSAGES or "
                               "$LANG, as gettext reads them; else en)"))
    parser = argparse.ArgumentParser(prog="impresario", description=__doc__, parents=[common],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"impresario {__version__} (API {SPEC_VERSION})",
                        help="print the SDK's version and the API version it was generated from")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                help=_("play, learn, games, player, claim, leaderboard, tournament, "
                                       "watch, lobby or wait (COMMAND --help for its "
                                       "options)") + "; mcp: an MCP server for an AI agent")

    def bots_help(where: str, translated: bool = True) -> str:
        text = N_("a count (3: that many bots of --bot's kind) or bot names, one per seat "
                  "({where})")
        return (_(text) if translated else text).format(where=where)

    # what a player reads (play, watch, games) in the player's language; the tournament's in
    # English, as its report
    play = sub.add_parser("play", parents=[common, player_file_parser()],
                          help=_("play a game in the terminal "
                                 "against the engine's bots"),
                          description=_("Play a game in the terminal against the engine's "
                                        "bots. Enter takes the default shown in brackets; "
                                        "Ctrl-D or Ctrl-C leaves.") + " " + _(
                              "? shows the rule behind the question, ?? the whole rules.") + " "
                          + _("The game and your seat are your player's (made on first use): "
                              "'impresario games' lists them on any device."))
    play.add_argument("ruleset", nargs="?", default="turandot", choices=RULESETS,
                      help=_("the game (default turandot)"))
    add_learn_command(sub, common)
    play.add_argument("--bots", default=None,
                      help=bots_help(_("default: 3 for turandot and muzicando, 5 for wordjam, "
                                       "of level medium; levels easy, medium, and hard for "
                                       "turandot; older names random, greedy, wordsmith")))
    play.add_argument("--bot", default=None,
                      help=_("the kind of bot a count of --bots seats (default: the first "
                             "named above)"))
    play.add_argument("--mode", choices=["team", "individual"], default=None,
                      help=_("muzicando: the team game for four (default with 3 bots) or the "
                             "individual game"))
    play.add_argument("--hands", type=int, default=None, help=_("muzicando: hands in the match"))
    play.add_argument("--name", default=None,
                      help=_("your name at the table (default {name})").format(name=_("You"))
                      + "; " + _("also your player's name, when this game makes your player"))
    play.add_argument("--seed", type=int, default=None,
                      help=_("deal a given game again (default: a random deal)"))
    play.add_argument("--pace", default=None,
                      help=_("the table's pace: relaxed, normal or fast (how long each move "
                             "or window lasts and the bots think; default: the engine's pace "
                             "against bots, relaxed), or none for each option's own default"))
    play.add_argument("--option", action="append", metavar="KEY=VALUE",
                      help=_("a ruleset option, e.g. think_seconds=60 for wordjam (repeatable; "
                             "see GET /v1/rulesets)"))

    add_player_commands(sub, common)

    tour = sub.add_parser("tournament", parents=[common],
                          help="play seeded games between the SDK's bots and print win rates",
                          description="Play seeded games between the SDK's bots, in fixed "
                          "seats, and print each seat's win rate with its 95% confidence "
                          "interval and average score lines.")
    tour.add_argument("--ruleset", default="turandot", choices=RULESETS,
                      help="the game (default turandot)")
    tour.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    tour.add_argument("--bots", default=None,
                      help=bots_help("levels easy, medium, hard (turandot), the older "
                                     "names random, greedy, wordsmith, or your own bot as "
                                     "module:Class (./mybot.py's class: mybot:MyBot); "
                                     "default: "
                                     "medium,easy,easy,easy for turandot, 5 medium for "
                                     "wordjam, medium,easy,medium,easy for muzicando",
                                     translated=False))
    tour.add_argument("--bot", default=None, help="the kind of bot a count of --bots seats")
    tour.add_argument("--seed", type=int, default=0,
                      help="the tournament's seed: the same seed plays the same games "
                           "(default 0)")
    tour.add_argument("--mode", choices=["team", "individual"], default=None,
                      help="muzicando: the team game (4 bots) or the individual game")
    tour.add_argument("--hands", type=int, default=None, help="muzicando: hands per match")
    tour.add_argument("--option", action="append", metavar="KEY=VALUE",
                      help="a ruleset option (repeatable)")
    tour.add_argument("--jobs", type=int, default=1,
                      help="games played at a time, each in its own process (default 1)")
    tour.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                      help="play the games as Ray tasks: alone, on Ray started here (--jobs "
                           "CPUs, else all); with the address of a Ray cluster, there "
                           "(pip install 'impresario[ray]')")
    tour.add_argument("--in-process", action="store_true",
                      help="play against the rules in this process, without a server (the "
                           "rules package the SDK depends on: no engine needed)")
    tour.add_argument("--out", default=None, metavar="FILE",
                      help="also write the results: FILE.csv (one row per game and seat) or "
                           "FILE.jsonl (one line per game), each game as it ends; or FILE.json "
                           "(everything, at the end)")
    tour.add_argument("--think-ms", type=float, default=None, metavar="N",
                      help="the think budget of searching bots (the hard bots), in "
                           "milliseconds of CPU a decision (default: bounded by the worlds "
                           "it samples, and reproducible)")
    tour.add_argument("--rotate", action="store_true",
                      help="game g moves every bot g seats on, so no seat order favours one "
                           "(the standings by bot count every seat)")
    tour.add_argument("--json", action="store_true", help="print the summary as JSON")
    tour.add_argument("--quiet", action="store_true", help="no progress display")

    watch = sub.add_parser("watch", parents=[common], help=_("follow a game live"),
                           description=_("Follow a game live, whatever its ruleset: every "
                                         "event as it happens, the table at each new round, "
                                         "the final score."))
    watch.add_argument("game", help=_("the game's id"))
    watch.add_argument("--token", default=None,
                       help=_("a seat's token (to see that seat's secrets) or the host's"))
    watch.add_argument("--spectator", default=None, help=_("a private game's spectator token"))
    watch.add_argument("--after", type=int, default=0,
                       help=_("start after this event number (default 0: from the "
                              "beginning)"))
    add_lobby_command(sub, common)
    add_wait_command(sub, common)
    add_mcp_command(sub, common)
    return parser


def add_learn_command(sub: Any, common: argparse.ArgumentParser) -> None:
    learn = sub.add_parser("learn", parents=[common, player_file_parser()],
                           help=_("a guided first game against gentle bots"),
                           description=_("A guided first game against gentle bots: before "
                                         "each prompt, what to do and why, with the rule "
                                         "behind it (? shows it). The bots wait for you."))
    learn.add_argument("ruleset", choices=RULESETS, help=_("the game to learn"))
    learn.add_argument("--name", default=None,
                       help=_("your name at the table (default {name})").format(name=_("You")))


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "learn": cmd_learn,
    "play": cmd_play, "games": cmd_my_games, "player": cmd_player, "claim": cmd_claim,
    "leaderboard": cmd_leaderboard, "tournament": cmd_tournament, "watch": cmd_watch,
    "lobby": cmd_lobby, "wait": cmd_wait, "mcp": cmd_mcp}


def early_language(argv: list[str]) -> str:
    """The language to build the parser in (its help): ``--lang`` if it is a good one, else
    the environment's; the parser refuses a bad ``--lang`` afterwards."""
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", default=None)
    try:
        return pick_language(early.parse_known_args(argv)[0].lang)
    except (argparse.ArgumentError, ValueError):
        return pick_language(None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    before = language()
    try:
        return run(argv)
    finally:
        use(before)  # a caller in the same process (a test, an embedding) keeps its language


def run(argv: list[str]) -> int:
    try:
        use(early_language(argv))
    except RuntimeError as err:  # no Babel: the cli extra is not installed
        print(f"impresario: {err}; speaking English", file=sys.stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.lang = pick_language(getattr(args, "lang", None))
    except ValueError as err:
        parser.exit(2, f"impresario: {err}\n")
    try:
        return COMMANDS[args.command](args)
    except UsageError as err:
        parser.exit(2, f"impresario {args.command}: {err}\n")
    except APIConnectionError:
        print(_("error: {why}").format(why=_(NO_ENGINE).format(url=engine_url(args),
                                                                  default=DEFAULT_URL)),
              file=sys.stderr)
    except EndOfInput:
        print("\n" + _("No more input: leaving the game (it stays on the server; "
                       "'impresario watch' follows it)."), file=sys.stderr)
        if args.command in ("play", "games"):
            print(_("Your seat waits for you: 'impresario games --resume GAME' plays it on, "
                    "here or on another device."), file=sys.stderr)
    except KeyboardInterrupt:
        print("\n" + _("Interrupted: bye."), file=sys.stderr)
        return 130
    except ImpresarioError as err:
        # the engine's English words for an English player, its code's sentence for another
        why = explain(err) if err.code and language() != "en" else str(err)
        print(_("error: {why}").format(why=why), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
