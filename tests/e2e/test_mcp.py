"""``impresario mcp``: an agent written as a plain script plays whole games through the MCP
server's tools, over stdio (the MCP client library spawns ``python -m impresario.cli mcp``)
and over Streamable HTTP (the server on a free 127.0.0.1 port), against gunicorn and its
engine bots: one game of each ruleset, to the score; and two agents, each its own server,
meet at a table one of them made and the other found. An illegal move comes back as a tool
error naming the rules' code; no tool answer carries a token, and every answer about a game
is checked against the stored game as it was when the answer was made
(tests/service/test_secrets.py's AnswerChecker: the seat's own view of it, no other seat's
hand, bid, bet, side, word or vote, no card of a deck or a pile)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from suite_helpers import in_own_thread

pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from test_secrets import AnswerChecker, _walk  # noqa: E402  (tests/service)

from impresario_engine.serve import stop_process  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PYTHONPATH = os.pathsep.join(str(REPO / p) for p in
                             ("rules/src", "services/engine/src", "clients/python-sdk/src"))
#: one game of each ruleset: (ruleset, players, engine bots, options, seed)
GAMES = [
    ("turandot", 3, ["medium", "easy"], {}, 11),
    ("wordjam", 5, ["medium"] * 4, {"bot_seconds": 0}, 3),
    ("muzicando", 4, ["medium", "easy", "medium"], {"mode": "team", "hands": 4}, 4),
]
pytestmark = pytest.mark.slow


def server_argv(url: str, *more: str) -> list[str]:
    return [sys.executable, "-m", "impresario.cli", "mcp", "--url", url, *more]


def server_env() -> dict[str, str]:
    return {"PYTHONPATH": PYTHONPATH + os.pathsep + os.environ.get("PYTHONPATH", "")}


@asynccontextmanager
async def over_stdio(url: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=server_argv(url)[1:],
                                   env=server_env(), cwd=str(REPO))
    async with Client(params, read_timeout_seconds=120) as client:
        yield client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def over_http(url: str) -> AsyncIterator[Client]:
    port = free_port()
    proc = subprocess.Popen(server_argv(url, "--transport", "http", "--port", str(port)),
                            env={**os.environ, **server_env()}, cwd=str(REPO),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the MCP server did not listen"
                await anyio.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=120) as client:
            yield client
    finally:
        stop_process(proc)


class Agent:
    """The agent: a plain script that uses the tools only, and checks each answer."""

    def __init__(self, client: Client,
                 check: Callable[[str, dict[str, Any], Any], None] | None = None) -> None:
        self.client = client
        self.check = check
        self.answers = 0

    async def call(self, tool: str, **arguments: Any) -> Any:
        result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, (tool, arguments, result.content)
        return self.seen(tool, arguments, result.structured_content)

    def seen(self, tool: str, arguments: dict[str, Any], body: Any) -> Any:
        self.answers += 1
        tokens = [path for path, node in _walk(body) if isinstance(node, dict)
                  and any("token" in k for k in node)]
        assert not tokens, (tool, "a token in a tool answer", tokens)
        if self.check is not None:
            self.check(tool, arguments, body)
        return body

    async def refused(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        assert result.is_error, (tool, arguments, result.structured_content)
        said = json.loads(result.content[0].text)  # type: ignore[union-attr]
        assert said == result.structured_content
        return self.seen(tool, arguments, said)

    async def play(self, game: str) -> dict[str, Any]:
        """wait_for_turn → get_actions → the default move → make_move, to the end."""
        moves = 0
        while True:
            turn = await self.call("wait_for_turn", game=game, timeout=60)
            if turn["finished"]:
                break
            if not turn["your_move"]:
                continue  # timed out: wait again
            legal = await self.call("get_actions", game=game)
            move = legal["actions"].get("default")
            assert move is not None, legal
            arguments = {"game": game, "move": move, "version": legal["version"]}
            result = await self.client.call_tool("make_move", arguments)
            if result.is_error:  # the table moved on meanwhile (a window closed): wait again
                said = self.seen("make_move", arguments, result.structured_content)
                assert said["status"] in (409, 412), said
                continue
            self.seen("make_move", arguments, result.structured_content)
            moves += 1
        assert moves > 0
        return await self.call("get_score", game=game)


class SeatChecks:
    """Checks each answer about a game the agent holds a seat at (the seat a create_game or
    join_game answer names) against what that seat may see there: test_secrets's
    AnswerChecker, and for every ruleset cards in a hand only in its ``you`` (a Muzicando
    ``hand`` elsewhere is the hand's number); each game find_games lists, as anyone sees it."""

    def __init__(self, redis_client: Any) -> None:
        self.redis = redis_client
        self.seats: dict[str, int] = {}
        self.checkers: dict[str, AnswerChecker] = {}

    def checker(self, game: str) -> AnswerChecker:
        return self.checkers.setdefault(game, AnswerChecker(self.redis, game))

    def __call__(self, tool: str, arguments: dict[str, Any], body: Any) -> None:
        if not isinstance(body, dict):
            return
        if tool in ("create_game", "join_game") and "seat" in body:
            self.seats[body["game"]] = body["seat"]
        if tool == "find_games" and "games" in body:
            for listed in body["games"]:
                self.checker(listed["id"]).check(None, listed, tool)
            return
        game = arguments.get("game", body.get("game"))
        if not isinstance(game, str) or game not in self.seats:
            return
        self.checker(game).check(self.seats[game], body, tool)
        for path, node in _walk(body):
            if isinstance(node, dict) and isinstance(node.get("hand"), list | dict):
                assert "you" in path or "you" in node, (tool, path, "another seat's hand")


async def play_each_ruleset(client: Client, redis_client: Any) -> list[dict[str, Any]]:
    checks = SeatChecks(redis_client)
    agent = Agent(client, checks)
    listed = await agent.call("list_rulesets")
    assert {r["name"] for r in listed["rulesets"]} >= {g[0] for g in GAMES}
    scores, games = [], []
    for ruleset, players, bots, options, seed in GAMES:
        seated = await agent.call("create_game", ruleset=ruleset, players=players, bots=bots,
                                  options=options, seed=seed, name="Claude")
        games.append(seated["game"])
        assert seated["status"] == "playing"
        score = await agent.play(seated["game"])
        # an answer that is not an object comes as {"result": ...} (docs/agents.md)
        assert score["result"]["ruleset"] == ruleset and score["result"]["winners"], score
        scores.append(score)
        checked = checks.checkers[seated["game"]]  # each view and event of it, at least
        assert checked.views > 10 and checked.events > 10, (ruleset, checked.views,
                                                             checked.events)
    mine = await agent.call("my_seats")
    assert [s["game"] for s in mine["seats"]] == games
    return scores


def test_an_agent_plays_each_ruleset_over_stdio(live_server, redis_client):
    async def main() -> list[dict[str, Any]]:
        async with over_stdio(live_server) as client:
            return await play_each_ruleset(client, redis_client)

    assert len(in_own_thread(anyio.run, main)) == len(GAMES)


def test_an_agent_plays_each_ruleset_over_http(live_server, redis_client):
    async def main() -> list[dict[str, Any]]:
        async with over_http(live_server) as client:
            return await play_each_ruleset(client, redis_client)

    assert len(in_own_thread(anyio.run, main)) == len(GAMES)


def test_two_agents_meet_at_a_table(live_server, redis_client):
    """Agent A creates a Muzicando table for two and takes a seat; agent B, its own server,
    finds the open seat with find_games and takes it with join_game; both play the game out
    at once. Every answer each agent receives is checked for its own seat (AnswerChecker):
    neither sees a card of the other's hand or of the pile."""
    async def main() -> None:
        async with over_stdio(live_server) as a_client, over_stdio(live_server) as b_client:
            a = Agent(a_client, a_checks := SeatChecks(redis_client))
            b = Agent(b_client, b_checks := SeatChecks(redis_client))
            made = await a.call("create_game", ruleset="muzicando", players=2, seed=7,
                                name="A")
            game = made["game"]
            assert made["status"] == "open" and made["view"]["seats_taken"] == 1, made
            found = await b.call("find_games", ruleset="muzicando")
            listed = [g for g in found["games"] if g["id"] == game]
            assert listed and listed[0]["seats_taken"] == 1 and listed[0]["seats_total"] == 2
            joined = await b.call("join_game", game=game, name="B")
            assert (joined["seat"], joined["status"], joined["ruleset"]) == (
                1, "playing", "muzicando"), joined
            assert joined["view"]["you"]["seat"] == 1
            scores: list[dict[str, Any]] = []

            async def play(agent: Agent) -> None:
                scores.append(await agent.play(game))

            async with anyio.create_task_group() as both:
                both.start_soon(play, a)
                both.start_soon(play, b)
        assert len(scores) == 2 and scores[0] == scores[1]
        assert scores[0]["result"]["ruleset"] == "muzicando", scores[0]
        for checks, seat in ((a_checks, 0), (b_checks, 1)):
            assert checks.seats == {game: seat}
            checked = checks.checkers[game]
            assert checked.views > 10 and checked.events > 10, (checked.views, checked.events)

    in_own_thread(anyio.run, main)


def test_a_refusal_names_the_rules_code(live_server, redis_client):
    async def main() -> None:
        async with over_stdio(live_server) as client:
            agent = Agent(client, SeatChecks(redis_client))
            seated = await agent.call("create_game", ruleset="turandot", players=3,
                                      bots=["easy", "easy"], seed=5)
            game = seated["game"]
            turn = await agent.call("wait_for_turn", game=game, timeout=30)
            assert turn["your_move"] and "bid" in turn["pending"], turn
            legal = await agent.call("get_actions", game=game, rules_text=True)
            assert legal["rules"]["anchor"] == "bids" and legal["rules"]["text"]
            said = await agent.refused("make_move", game=game, version=legal["version"],
                                       move={"type": "bid", "slot": 99, "money": 0,
                                             "bluff": False})
            assert said["code"] == "slot_out_of_range" and said["status"] == 422, said
            assert said["detail"]
            after = await agent.call("get_view", game=game)  # the refusal changed nothing
            assert after["view"]["version"] == legal["version"] and after["your_move"]
            # a game the agent has no seat at, and rules that are not there
            assert (await agent.refused("get_view", game="nope"))["code"] == "not_seated"
            rules = await agent.call("read_rules", ruleset="turandot", lang="it")
            assert "bids" in [s["anchor"] for s in rules["sections"]]
            assert (await agent.refused("read_rules", ruleset="turandot",
                                        section="nope"))["code"] == "section_not_found"

    in_own_thread(anyio.run, main)


def test_the_command_says_how_to_install_the_extra(tmp_path):
    """Without the mcp package the command says what to install (mcp hidden from it)."""
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "__init__.py").write_text("raise ImportError('no mcp here')\n")
    done = subprocess.run(server_argv("http://127.0.0.1:1"), capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{PYTHONPATH}"},
                          timeout=60)
    assert done.returncode == 1
    assert 'pip install "impresario[mcp]"' in done.stderr
