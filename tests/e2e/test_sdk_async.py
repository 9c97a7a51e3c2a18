"""End to end: the SDK's AsyncClient (httpx, asyncio) plays whole games of every ruleset through
real gunicorn and a real Redis, several tables at once, with the sync client's models and
errors."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from suite_helpers import in_own_thread

from impresario import Client, IllegalMove, NotFound, TurandotBase, make_bot, tournament
from impresario.aio import AsyncClient, AsyncSeat, play_game, play_seat

#: (ruleset, levels, seed): the bots of each ruleset's games
GAMES = [
    ("turandot", ["medium", "easy", "easy", "medium"], 61),
    ("wordjam", ["medium", "easy", "medium", "easy", "easy"], 62),
    ("muzicando", ["medium", "easy", "medium"], 63),
]


def _bots(ruleset: str, levels: list[str], seed: int) -> list:
    return [make_bot(level, seed=seed + i, ruleset=ruleset) for i, level in enumerate(levels)]


@pytest.mark.parametrize("ruleset,levels,seed", GAMES, ids=[g[0] for g in GAMES])
def test_the_async_client_plays_a_whole_game_as_the_sync_one_does(live_server, ruleset,
                                                                   levels, seed):
    """The async play_game lets each bot choose from the view read just before, as the sync
    one does: on the same seed with the same bots, the same game, the same score."""

    async def play():
        async with AsyncClient(live_server) as client:
            return await play_game(client, _bots(ruleset, levels, seed), seed=seed,
                                   ruleset=ruleset)

    game_id, score, seats = in_own_thread(asyncio.run, play())
    assert all(isinstance(s, AsyncSeat) for s in seats) and len(seats) == len(levels)
    with Client(live_server) as client:
        assert client.game(game_id).view()["status"] == "finished"
        assert client.game(game_id).score() == score
        _, sync_score, _ = tournament.play_game(client, _bots(ruleset, levels, seed), seed=seed,
                                                ruleset=ruleset)
    assert score["ruleset"] == ruleset and len(score["players"]) == len(levels)
    assert {k: v for k, v in score.items() if k != "game_id"} == \
        {k: v for k, v in sync_score.items() if k != "game_id"}


def test_several_tables_at_once(live_server):
    """Two Turandot games played by bots at once on one AsyncClient, and a third whose seats
    each follow the game's event stream (play_seat), all in one event loop."""

    async def streamed(client: AsyncClient) -> list:
        game = await client.create_game("turandot", players=3, seed=73)
        seats = [await game.join(f"s{i}") for i in range(3)]
        return await asyncio.gather(*(play_seat(seat, make_bot("medium", seed=i))
                                      for i, seat in enumerate(seats)))

    async def main():
        async with AsyncClient(live_server) as client:
            return await asyncio.gather(
                play_game(client, _bots("turandot", ["medium", "easy", "easy"], 71), seed=71),
                play_game(client, _bots("turandot", ["easy", "medium"], 72), seed=72),
                streamed(client))

    started = time.monotonic()
    first, second, finals = in_own_thread(asyncio.run, main())
    elapsed = time.monotonic() - started
    assert first[0] != second[0]
    assert len(first[1]["players"]) == 3 and len(second[1]["players"]) == 2
    assert [view["status"] for view in finals] == ["finished"] * 3
    assert len({view["id"] for view in finals}) == 1
    print(f"three tables at once in {elapsed:.1f} s")


def test_async_errors_and_models_are_the_sync_clients(live_server):
    async def main():
        async with AsyncClient(live_server) as client:
            with pytest.raises(NotFound) as missing:
                await client.game("no-such-game").view()
            game = await client.create_game("turandot", players=3, seed=5)
            seats = [await game.join(f"p{i}") for i in range(3)]
            view = await seats[0].view()
            pending = [s for s in seats if await s.is_my_turn(view)][0]
            with pytest.raises(IllegalMove) as illegal:
                await pending.move({"type": "bid", "slot": 1, "money": 999})
            return missing.value, illegal.value, game, pending

    missing, illegal, game, pending = in_own_thread(asyncio.run, main())
    assert missing.status == 404 and missing.code == "game_not_found"
    assert illegal.status == 422 and illegal.code and illegal.request_id
    with Client(live_server) as client:  # the sync client: the same error, the same code
        with pytest.raises(IllegalMove) as sync_illegal:
            client.seat(game.id, pending.seat, pending.token).move(
                {"type": "bid", "slot": 1, "money": 999})
    assert sync_illegal.value.code == illegal.code


def test_async_client_closes_its_own_http_client_never_the_callers(live_server):
    async def main():
        async with AsyncClient(live_server) as client:
            assert (await client.rulesets())
            own = client.http
        mine = httpx.AsyncClient()
        async with AsyncClient(live_server, http=mine) as client:
            assert (await client.list_games(limit=1))["games"] is not None
        assert not mine.is_closed
        await mine.aclose()
        return own

    assert in_own_thread(asyncio.run, main()).is_closed



class _Hooked(TurandotBase):
    """Plays the default move and notes what each hook was given."""

    name = "hooked"

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def choose(self, view, actions):
        self.calls.append(("choose", view["version"]))
        return self.default(actions)

    def on_start(self, view):
        self.calls.append(("start", view["status"]))

    def on_event(self, event):
        self.calls.append(("event", event.seq))

    def on_end(self, view, score):
        self.calls.append(("end", (view["status"], len(score["players"]))))


@pytest.mark.parametrize("loop", ["play_game", "play_seat"])
def test_the_async_loops_call_the_bots_hooks(live_server, loop):
    """on_start first, every event of the seat once and in order, on_end last with the
    finished view and the score, as the sync loops call them."""
    bots = [_Hooked(), _Hooked()]

    async def main():
        async with AsyncClient(live_server) as client:
            if loop == "play_game":
                await play_game(client, bots, seed=81)
                return
            game = await client.create_game("turandot", players=2, seed=82)
            seats = [await game.join(f"h{i}") for i in range(2)]
            await asyncio.gather(*(play_seat(s, b) for s, b in zip(seats, bots)))

    in_own_thread(asyncio.run, main())
    for bot in bots:
        kinds = [kind for kind, _ in bot.calls]
        assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("choose") > 3
        assert bot.calls[-1][1] == ("finished", 2)
        seqs = [seq for kind, seq in bot.calls if kind == "event"]
        assert seqs == sorted(set(seqs)) and len(seqs) > 5
