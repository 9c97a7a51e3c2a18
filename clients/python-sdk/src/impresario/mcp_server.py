"""``impresario mcp``: an MCP server so that an AI agent can sit at a table of the engine.

The server is the official MCP SDK's ``MCPServer`` (``pip install "impresario[mcp]"``), served
over stdio (a desktop client starts it) or Streamable HTTP (``http://127.0.0.1:PORT/mcp``), and
plays on this SDK (:class:`~impresario.Client`, :class:`~impresario.Game`,
:class:`~impresario.Seat`). One server process is one agent: the seats it takes are kept in
the process's memory, with their tokens, and named by game id in every tool; no tool answer
carries a token (a seat's, the host's, a spectator's), and an agent sees only what its seats
see, as every bot.

The tools (docs/agents.md): ``list_rulesets``, ``read_rules``, ``find_games``,
``create_game``, ``join_game``, ``my_seats``, ``wait_for_turn``, ``get_view``, ``get_actions``,
``make_move``, ``get_score``. Their answers are typed by the spec's models
(:mod:`impresario.models`), published as the tools' output schemas. A refusal of the engine
comes back as a tool error (``isError``) whose text is JSON with the problem's ``code``,
``detail`` and ``status``, so that the agent can correct itself.

``mcp`` is imported only when the server is built: ``import impresario`` works without it.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from impresario_rules.texts import LANGUAGES, RulesNotFound, anchor_for, rules_text

from ._generated import models
from ._generated import operations as ops
from .client import Client, Game, Seat, engine_url
from .errors import APIError, ImpresarioError
from .events import Event
from .terminal.rules import rules_contents, section_text

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

#: how an agent installs the server's dependency
INSTALL = 'pip install "impresario[mcp]"'
#: the longest ``wait_for_turn`` blocks, in seconds (MCP clients time a call out too)
MAX_WAIT = 300.0
#: the most events one ``wait_for_turn`` answer lists (the newest)
MAX_EVENTS = 40
INSTRUCTIONS = (
    "Play Impresario's card games (Turandot, Word Jam, Muzicando) at a table of the engine. "
    "list_rulesets and read_rules say the games; find_games lists open tables, join_game takes a "
    "seat, create_game makes a table (engine bots may fill the other seats) and seats you. "
    "Then loop: wait_for_turn (blocks until you must act or the game is over), get_actions "
    "(your legal moves, a default move, the rules section behind the question), make_move "
    "(pass the version get_actions gave), until finished; get_score reads the result. Your "
    "seat is named by its game id; a refused move comes back as an error with the rules' "
    "code and detail.")


# ------------------------------------------------------------------------------ the answers
class SectionTitle(TypedDict):
    anchor: str
    title: str


class Rules(TypedDict):
    """The rules of a ruleset in a language: its sections, and the text asked for."""
    ruleset: str
    lang: str
    sections: list[SectionTitle]
    section: str | None
    """the section shown (its anchor); null: the whole rules, or only the list of sections"""
    text: str


class RulesetList(TypedDict):
    rulesets: list[models.Ruleset]


class OpenGames(TypedDict):
    games: list[models.LobbyGame]


class Seated(TypedDict):
    """A seat taken: the game's id names it in every other tool."""
    game: str
    seat: int
    ruleset: str
    status: str
    view: models.Game


class SeatSummary(TypedDict):
    game: str
    seat: int
    ruleset: str
    status: str


class MySeats(TypedDict):
    seats: list[SeatSummary]


class Turn(TypedDict):
    """What ``wait_for_turn`` saw: whether the seat must act, the game over, or time up."""
    game: str
    seat: int
    your_move: bool
    finished: bool
    timed_out: bool
    version: int
    pending: list[str]
    """the move kinds this seat is asked for now (empty when it is not its move)"""
    events: list[models.Event]
    """what happened since the last wait_for_turn, as this seat may see it (the newest)"""
    events_left_out: int
    view: models.Game


class RulesSection(TypedDict):
    anchor: str
    title: str
    text: NotRequired[str]


class SeatView(TypedDict):
    game: str
    seat: int
    your_move: bool
    view: models.Game


class Legal(TypedDict):
    """The seat's legal moves now, the game's version to pass to ``make_move``, and the
    rules section behind the question."""
    game: str
    seat: int
    version: int
    actions: models.Actions
    rules: RulesSection | None


class Refusal(ImpresarioError):
    """A tool's refusal of the server's own (no such seat of this agent, no such rules)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}", code=code, detail=detail)


class Problem(TypedDict):
    """A tool error's content: the problem's ``code`` (the rules' or the engine's), its
    ``detail`` and the HTTP status the engine answered (null: the server's own refusal)."""
    code: str
    detail: str
    status: int | None


def problem(err: ImpresarioError) -> Problem:
    """An error as a tool error says it."""
    return {"code": err.code or "error", "detail": err.detail or str(err),
            "status": err.status}


# ------------------------------------------------------------------------------ the agent's table
class Follower:
    """A seat's event stream, followed on a thread of its own into a queue, so that
    ``wait_for_turn`` blocks on it (with a timeout) and never polls the engine."""

    END = object()

    def __init__(self, seat: Seat, after: int) -> None:
        # a client of its own: the stream's connection stays open while tools use the other
        self.seat = Seat(Client(seat.client.base_url), seat.game_id, seat.seat, seat.token)
        self.events: queue.Queue[object] = queue.Queue()
        self.last = after
        self.thread = threading.Thread(target=self.run, daemon=True,
                                       name=f"events {seat.game_id}/{seat.seat}")
        self.thread.start()

    def run(self) -> None:
        try:
            for event in self.seat.stream(after=self.last):
                self.last = event.seq
                self.events.put(event)
        except ImpresarioError as err:
            self.events.put(err)
        self.events.put(self.END)


class AgentSeat:
    def __init__(self, seat: Seat, ruleset: str, host: Game | None = None) -> None:
        self.seat = seat
        self.ruleset = ruleset
        #: the host's handle of a game the agent created (kept, never shown)
        self.host = host
        self.follower: Follower | None = None
        self.seen: list[models.Event] = []
        self.left_out = 0

    def follow(self, after: int) -> Follower:
        if self.follower is None or not self.follower.thread.is_alive() \
                and self.follower.events.empty():
            self.follower = Follower(self.seat, after if self.follower is None
                                     else self.follower.last)
        return self.follower

    def take(self, event: Event) -> None:
        self.seen.append(event.data)
        if len(self.seen) > MAX_EVENTS:
            self.left_out += len(self.seen) - MAX_EVENTS
            del self.seen[:-MAX_EVENTS]


def my_kinds(view: models.Game, seat: int) -> list[str]:
    """The move kinds ``seat`` is asked for in ``view``."""
    if view["status"] != "playing":
        return []
    return [str(k) for p in view["pending"] if p["seat"] == seat for k in p["kinds"]]


class Table:
    """The agent's side of the engine: its seats (game id → seat, tokens kept here) and what
    each tool does. Plain Python: :func:`build_server` makes the tools of it."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seats: dict[str, AgentSeat] = {}
        self.lock = threading.Lock()

    def _seat(self, game: str) -> AgentSeat:
        with self.lock:
            found = self.seats.get(game)
        if found is None:
            raise Refusal("not_seated", f"this agent has no seat at game {game!r}: join_game or "
                          "create_game takes one (my_seats lists the agent's seats)")
        return found

    def _seated(self, seat: Seat, ruleset: str, host: Game | None = None) -> Seated:
        with self.lock:
            self.seats[seat.game_id] = AgentSeat(seat, ruleset, host)
        view = seat.view()
        return {"game": seat.game_id, "seat": seat.seat, "ruleset": ruleset,
                "status": view["status"], "view": view}

    # -- the games
    def list_rulesets(self) -> RulesetList:
        return {"rulesets": self.client.rulesets()}

    def read_rules(self, ruleset: str, lang: str = "en", section: str | None = None) -> Rules:
        try:
            contents = rules_contents(ruleset, lang)
            if section in (None, "", "all"):
                text = rules_text(ruleset, lang) if section == "all" else ""
                anchor = None
            else:
                assert section is not None
                found = section_text(ruleset, lang, section)
                if found is None:
                    raise Refusal("section_not_found", f"the rules of {ruleset} have no section "
                                  f"{section!r}: one of {', '.join(a for a, _t in contents)}")
                text, anchor = found, section
        except RulesNotFound as err:
            raise Refusal(err.code, err.message) from None
        return {"ruleset": ruleset, "lang": lang, "section": anchor, "text": text,
                "sections": [{"anchor": a, "title": t} for a, t in contents]}

    def find_games(self, ruleset: str | None = None, limit: int = 20) -> OpenGames:
        found = self.client.list_games(ruleset=typing.cast(Any, ruleset), status="open",
                                       limit=max(1, min(100, limit)))
        return {"games": found["games"]}

    def create_game(self, ruleset: str, players: int, bots: list[str] | None = None,
                    name: str = "Agent", seed: int | None = None,
                    options: dict[str, ops.JSON] | None = None) -> Seated:
        game = self.client.create_game(ruleset, players=players, seed=seed, options=options)
        seat = game.join(name)
        for i, level in enumerate(bots or (), start=1):
            game.add_bot(f"Bot {i}", level)
        return self._seated(seat, ruleset, host=game)

    def join_game(self, game: str, name: str = "Agent") -> Seated:
        if game in self.seats:
            raise Refusal("already_seated", f"this agent already has seat "
                          f"{self.seats[game].seat.seat} at game {game}")
        seat = self.client.game(game).join(name)
        return self._seated(seat, seat.last_view["ruleset"] if seat.last_view else "")

    def my_seats(self) -> MySeats:
        with self.lock:
            held = list(self.seats.values())
        out: list[SeatSummary] = []
        for s in held:
            view = s.seat.last_view
            out.append({"game": s.seat.game_id, "seat": s.seat.seat, "ruleset": s.ruleset,
                        "status": view["status"] if view else "unknown"})
        return {"seats": out}

    # -- playing
    def wait_for_turn(self, game: str, timeout: float = 60.0) -> Turn:
        agent = self._seat(game)
        seat = agent.seat
        deadline = time.monotonic() + max(0.0, min(MAX_WAIT, timeout))
        view = seat.view()
        follower = agent.follow(view["last_seq"])
        timed_out = False
        while view["status"] != "finished" and not my_kinds(view, seat.seat):
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            try:
                got = follower.events.get(timeout=left)
            except queue.Empty:
                continue
            while True:  # whatever else came meanwhile
                if got is Follower.END:
                    follower = agent.follow(view["last_seq"])
                    break
                if isinstance(got, ImpresarioError):
                    raise got
                if isinstance(got, Event):
                    agent.take(got)
                try:
                    got = follower.events.get_nowait()
                except queue.Empty:
                    break
            view = seat.view()
            if got is Follower.END and view["status"] != "finished" \
                    and not my_kinds(view, seat.seat):
                time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))  # reconnecting
        while True:  # the events that came with the last change
            try:
                got = follower.events.get_nowait()
            except queue.Empty:
                break
            if isinstance(got, Event):
                agent.take(got)
        events, left_out = agent.seen, agent.left_out
        agent.seen, agent.left_out = [], 0
        return {"game": game, "seat": seat.seat, "your_move": bool(my_kinds(view, seat.seat)),
                "finished": view["status"] == "finished", "timed_out": timed_out,
                "version": view["version"], "pending": my_kinds(view, seat.seat),
                "events": events, "events_left_out": left_out, "view": view}

    def get_view(self, game: str) -> SeatView:
        seat = self._seat(game).seat
        view = seat.view()
        return {"game": game, "seat": seat.seat, "your_move": bool(my_kinds(view, seat.seat)),
                "view": view}

    def get_actions(self, game: str, lang: str = "en", with_text: bool = False) -> Legal:
        agent = self._seat(game)
        seat = agent.seat
        view = seat.view()
        actions = seat.actions()
        phase = view.get("phase")
        anchor = anchor_for(agent.ruleset, [str(k) for k in actions["pending"]],
                            phase if isinstance(phase, str) else None)
        rules: RulesSection | None = None
        if anchor is not None and lang in LANGUAGES:
            titles = dict(rules_contents(agent.ruleset, lang))
            rules = {"anchor": anchor, "title": titles.get(anchor, anchor)}
            if with_text:
                rules["text"] = section_text(agent.ruleset, lang, anchor) or ""
        return {"game": game, "seat": seat.seat, "version": view["version"],
                "actions": actions, "rules": rules}

    def make_move(self, game: str, move: models.Move, version: int | None = None
                  ) -> models.MoveResult:
        return self._seat(game).seat.move(move, if_match=version)

    def get_score(self, game: str) -> models.Score:
        return self._seat(game).seat.score()


# ------------------------------------------------------------------------------ the MCP server
_SPEC_TYPES: dict[Any, Any] = {}


def spec_type(tp: Any) -> Any:
    """``tp`` with every TypedDict in it rebuilt as a ``typing_extensions.TypedDict``: pydantic
    (which derives the MCP tools' schemas and checks their answers) refuses the generated
    models' ``typing.TypedDict`` below Python 3.12. The keys, their types, what is required and
    the docstrings are kept; a TypedDict met inside itself becomes ``Any``."""
    import typing_extensions as te

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is None:
        if not typing.is_typeddict(tp):
            return tp
        if tp in _SPEC_TYPES:
            return _SPEC_TYPES[tp] if _SPEC_TYPES[tp] is not None else Any
        _SPEC_TYPES[tp] = None
        items: dict[str, Any] = {}
        for key, hint in typing.get_type_hints(tp, include_extras=True).items():
            # (the generated module's annotations are strings: the class's own
            # __required_keys__ cannot see a NotRequired in them below Python 3.12)
            required = bool(tp.__total__)
            if typing.get_origin(hint) in (typing.NotRequired, typing.Required):
                required, hint = typing.get_origin(hint) is typing.Required, \
                    typing.get_args(hint)[0]
            item = spec_type(hint)
            items[key] = item if required else te.NotRequired[item]
        made: Any = typing.cast("Callable[[str, dict[str, Any]], Any]", te.TypedDict)(
            tp.__name__, items)
        made.__doc__, made.__module__ = tp.__doc__, tp.__module__
        _SPEC_TYPES[tp] = made
        return made
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(spec_type(a) for a in args)]
    if origin is list:
        return list[spec_type(args[0])]  # type: ignore[misc]
    if origin is dict:
        return dict[spec_type(args[0]), spec_type(args[1])]  # type: ignore[misc]
    return tp  # Literal and the like


def tool_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a tool: its annotations made pydantic's (:func:`spec_type`), and the engine's
    refusals (and the server's own) answered as MCP tool errors (``isError``) whose text, and
    structured content, is the problem: ``{"code", "detail", "status"}``."""
    from mcp.types import CallToolResult, TextContent

    def tool(**kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except (APIError, Refusal) as err:
            said = problem(err)
            return CallToolResult(content=[TextContent(type="text", text=json.dumps(said))],
                                  structured_content=dict(said), is_error=True)

    hints = typing.get_type_hints(fn)
    tool.__name__, tool.__doc__ = fn.__name__, fn.__doc__
    tool.__signature__ = _signature(fn, hints)  # type: ignore[attr-defined]
    tool.__annotations__ = {k: spec_type(v) for k, v in hints.items()}
    return tool


def _signature(fn: Callable[..., Any], hints: dict[str, Any]) -> Any:
    import inspect

    sig = inspect.signature(fn)
    return sig.replace(
        parameters=[p.replace(annotation=spec_type(hints[p.name])) for p in sig.parameters.values()],
        return_annotation=spec_type(hints["return"]))


def build_server(url: str | None = None, client: Client | None = None) -> MCPServer[Any]:
    """The MCP server of one agent, playing at the engine at ``url`` (or with ``client``)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from . import __version__

    table = Table(client or Client(engine_url(url)))
    server: MCPServer[Any] = MCPServer("impresario", title="Impresario", version=__version__,
                                       instructions=INSTRUCTIONS, log_level="WARNING")
    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    acts = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    def list_rulesets() -> RulesetList:
        """The engine's games (rulesets): name, title, players, options and their defaults."""
        return table.list_rulesets()

    def read_rules(ruleset: str, lang: Literal["en", "it", "de", "fr"] = "en",
                   section: str | None = None) -> Rules:
        """The players' rules of a ruleset in a language (en, it, de, fr): always the list of
        sections (anchor, title); with section=<anchor> that section's text, with
        section="all" the whole rules."""
        return table.read_rules(ruleset, lang, section)

    def find_games(ruleset: Literal["turandot", "wordjam", "muzicando"] | None = None,
                   limit: int = 20) -> OpenGames:
        """Public games waiting for players (newest first), optionally of one ruleset."""
        return table.find_games(ruleset, limit)

    def create_game(ruleset: Literal["turandot", "wordjam", "muzicando"], players: int,
                    bots: list[str] | None = None, name: str = "Agent", seed: int | None = None,
                    options: dict[str, Any] | None = None) -> Seated:
        """Create a game for `players` seats, take the first seat as `name`, and seat one
        engine bot per entry of `bots` (its level: easy, medium, Turandot's hard). The game
        starts when every seat is taken. `options`: the ruleset's (list_rulesets), e.g.
        {"bot_seconds": 0} for Word Jam bots that answer at once, {"mode": "team", "hands": 2}
        for Muzicando. Answers the game's id (it names the seat in the other tools)."""
        return table.create_game(ruleset, players, bots, name, seed, options)

    def join_game(game: str, name: str = "Agent") -> Seated:
        """Take the next free seat of an open game (find_games lists them) as `name`."""
        return table.join_game(game, name)

    def my_seats() -> MySeats:
        """The seats this agent holds: game id, seat number, ruleset, status as last seen."""
        return table.my_seats()

    def wait_for_turn(game: str, timeout: float = 60.0) -> Turn:
        """Block until your seat at `game` must act or the game is over, at most `timeout`
        seconds (up to 300; then timed_out is true: call again). Follows the seat's event
        stream. Answers your_move, finished, the move kinds asked for (pending), the version,
        your seat's view and the events since the last call."""
        return table.wait_for_turn(game, timeout)

    def get_view(game: str) -> SeatView:
        """Your seat's view of `game` (what your seat may see: your hand, the table)."""
        return table.get_view(game)

    def get_actions(game: str, lang: Literal["en", "it", "de", "fr"] = "en",
                    rules_text: bool = False) -> Legal:
        """Your legal moves at `game` now (per move type, with the move the engine would
        make for you as `default`), the version to pass to make_move, and the rules section
        behind the question (its text too with rules_text=true)."""
        return table.get_actions(game, lang, rules_text)

    def make_move(game: str, move: models.Move, version: int | None = None
                  ) -> models.MoveResult:
        """Make a move at `game` (a move as the spec types it, e.g. {"type": "bid", "slot":
        2, "money": 1, "bluff": false}); `version`: the game's version you chose it on
        (get_actions), so that a move chosen on an old state is refused. A refused move is an
        error carrying the rules' code and detail."""
        return table.make_move(game, move, version)

    def get_score(game: str) -> models.Score:
        """The score of `game` (final once it is finished)."""
        return table.get_score(game)

    for fn, hints in ((list_rulesets, reads), (read_rules, reads), (find_games, reads),
                      (create_game, acts), (join_game, acts), (my_seats, reads),
                      (wait_for_turn, reads), (get_view, reads), (get_actions, reads),
                      (make_move, acts), (get_score, reads)):
        server.add_tool(tool_errors(fn), annotations=hints, structured_output=True)
    return server


def serve(url: str | None, transport: str = "stdio", host: str = "127.0.0.1",
          port: int = 8765) -> None:
    server = build_server(url)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)


# ------------------------------------------------------------------------------ the command
def add_mcp_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]",
                    common: argparse.ArgumentParser) -> None:
    mcp = sub.add_parser(
        "mcp", parents=[common], help="serve an MCP server so an AI agent can play",
        description="Serve an MCP (Model Context Protocol) server so that an AI agent can sit "
                    "at a table of the engine: list and read the rules, find or create a game, "
                    "take a seat, wait for its move, read its view and legal moves, move, read "
                    "the score. Over stdio (a desktop client starts the command) or Streamable "
                    f"HTTP (http://HOST:PORT/mcp). Needs the mcp extra: {INSTALL}. "
                    "docs/agents.md says how to plug it in.")
    mcp.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                     help="stdio (default) or http (Streamable HTTP)")
    mcp.add_argument("--host", default="127.0.0.1",
                     help="http: the address to bind (default 127.0.0.1: this machine only)")
    mcp.add_argument("--port", type=int, default=8765,
                     help="http: the port (default 8765); the endpoint is /mcp")


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401
    except ImportError:
        print(f"impresario mcp: the MCP server needs the mcp package: {INSTALL}",
              file=sys.stderr)
        return 1
    serve(getattr(args, "url", None), "stdio" if args.transport == "stdio" else "http",
          args.host, args.port)
    return 0

