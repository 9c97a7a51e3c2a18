"""Bots playing whole games through the service: one game (:func:`play_game`) and a seeded
tournament with win rates and their 95% confidence intervals (:func:`run_tournament`)."""

from __future__ import annotations

import importlib
import inspect
import math
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeAlias, TypedDict

from ._generated import models
from ._generated.operations import JSON, JSONObject
from .bots import AnyBot, hook, make_bot, take_turn
from .client import Client, Seat
from .events import Event

if TYPE_CHECKING:
    from typing_extensions import TypeIs

#: a seat of a tournament: a level (``"medium"``), ``"module:Class"``, a bot class or any
#: callable that makes a bot (called for each game, with ``seed=`` when it takes one), or a bot
#: (the same one every game: with ``jobs`` > 1 each worker process plays a copy of it)
BotEntry: TypeAlias = "str | AnyBot | Callable[..., AnyBot]"
#: the hooks a play loop calls (:class:`impresario.BaseBot`)
HOOKS = ("on_start", "on_event", "on_end")


def play_game(client: Client, bots: Sequence[AnyBot], seed: int | None = None,
              options: dict[str, JSON] | None = None, ruleset: str = "turandot"
              ) -> tuple[str, models.Score, list[Seat]]:
    """Create a game for ``len(bots)`` seats, seat the bots and play it to the end in this
    thread. Returns the game id, the score and the seats. The bots' hooks
    (:class:`~impresario.BaseBot`) are called: ``on_start`` once every seat is taken,
    ``on_event`` with the seat's events before each of its decisions, ``on_end`` at the end.

    Each bot decides on its own seat's view of the game as it stands (and the seat's actions),
    exactly as if the view were read just before. While no pending seat has a deadline, the game
    changes only through the moves made here, so a view is not read again when one at the game's
    current version is at hand: every move answers with the moving seat's new view, and any
    seat's view carries the (public) status and pending seats. A game whose pending seats have
    deadlines (``move_seconds``, Word Jam's windows) can move on between requests: then every
    view is read before it is used."""
    game = client.create_game(ruleset, players=len(bots), seed=seed, options=options)
    seats = [game.join(f"{bot.name}-{i}") for i, bot in enumerate(bots)]
    # views no bot has been given yet, by seat (each bot gets a view of its own, as when read)
    unseen: dict[int, models.Game] = {s.seat: s.last_view for s in seats if s.last_view}
    events = _Events(seats, bots)
    for seat, bot in zip(seats, bots):
        start = hook(bot, "on_start")
        if start is not None:
            start(seat.view())
    # a view at the game's current version while that is known (no deadline pending), or None
    latest = seats[-1].last_view if _settled(seats[-1].last_view) else None
    view = latest or seats[0].view()
    while view["status"] != "finished":
        moved = False
        for seat_no in [p["seat"] for p in view["pending"]]:
            seat = seats[seat_no]
            if latest is not None and (latest["status"] != "playing" or all(
                    p["seat"] != seat_no for p in latest["pending"])):
                continue  # a view read now would say the same: nothing to do
            own = unseen.pop(seat_no, None)
            if latest is None or own is None or own["version"] != latest["version"]:
                own = seat.view()
            latest = None
            events.tell(seat_no)
            if take_turn(seat, bots[seat_no], own):
                moved = True
                latest = seat.last_view  # the move's answer: the view after it
                if latest is not None:
                    unseen[seat_no] = latest
                if not _settled(latest):
                    latest = None
        if moved and latest is not None:
            view = latest
        else:
            view = seats[0].view()
            latest = None
        if not moved and view["status"] != "finished" and not view["pending"]:
            raise RuntimeError(f"game {game.id} is stuck: nobody has to act")
    if seats[0].last_view is None or seats[0].last_view["version"] != view["version"]:
        seats[0].view()  # seat 0's last view is the finished game, as when it was re-read
    score = seats[0].score()
    for seat, bot in zip(seats, bots):
        events.tell(seat.seat)
        end = hook(bot, "on_end")
        if end is not None:
            end(seat.view(), score)
    return game.id, score, seats


class _Events:
    """Each seat's events for its bot's ``on_event`` hook, read (``GET /events``) only for
    the bots that have one, just before they decide and at the end."""

    def __init__(self, seats: Sequence[Seat], bots: Sequence[AnyBot]) -> None:
        self.seats = seats
        self.hooks = [hook(bot, "on_event") for bot in bots]
        self.told = [0] * len(seats)

    def tell(self, seat: int) -> None:
        seen = self.hooks[seat]
        if seen is None:
            return
        for event in self.seats[seat].events(after=self.told[seat]):
            self.told[seat] = event["seq"]
            seen(Event(event["seq"], event["type"], event))


def _settled(view: models.Game | None) -> bool:
    """Whether the game stays as ``view`` shows it until someone moves here: no seat that must
    act has a deadline (once one passes, the engine plays a default at the next request or by
    itself)."""
    return view is not None and view["status"] != "open" and not any(
        p["deadline"] is not None for p in view["pending"])


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class PlayerResult(TypedDict):
    """One seat of one tournament game: its bot, total and score lines."""

    seat: int
    bot: str
    total: float
    lines: dict[str, float]
    #: the CPU time of each of the bot's decisions, in milliseconds
    think_ms: list[float]


class Throttling(TypedDict):
    """How much the engine throttled a tournament's requests (429 answers waited out)."""

    #: the 429 answers retried
    retries: int
    #: the seconds waited for them
    seconds: float
    #: the latest one's problem code (``create_rate_limited``...), None when none came
    code: str | None


class GameResult(TypedDict):
    """One tournament game: its number, seed, id (None in process), winners and seats, and the
    throttling its requests met."""

    game: int
    seed: int
    id: str | None
    winners: list[int]
    dummy_wins: bool
    players: list[PlayerResult]
    throttled: Throttling


class StandingRow(TypedDict):
    """One seat's standing over a tournament."""

    seat: int
    bot: str
    games: int
    win_rate: float
    ci95: list[float]
    avg_total: float
    avg_lines: dict[str, float]


class BotRow(TypedDict):
    """One bot's standing over a tournament, whatever seats it sat in."""

    bot: str
    games: int
    win_rate: float
    #: a seat's fair share of the wins (1 / players)
    fair_share: float
    ci95: list[float]
    avg_total: float
    rating: float
    decisions: int
    think_ms_p50: float
    think_ms_p95: float
    think_ms_max: float


class TournamentResult(TypedDict):
    """What :func:`run_tournament` returns (and ``impresario tournament --out F.json`` writes)."""

    ruleset: str
    bots: list[str]
    seed: int
    options: dict[str, JSON]
    games: int
    jobs: int
    in_process: bool
    seconds: float
    games_per_second: float
    dummy_wins: int
    rotate: bool
    think_ms: float | None
    standings: list[StandingRow]
    by_bot: list[BotRow]
    #: every game's throttling, summed
    throttled: Throttling
    results: list[GameResult]


@dataclass
class Standing:
    bot: str
    seat: int
    games: int = 0
    wins: float = 0.0
    lines: dict[str, float] = field(default_factory=dict)
    total: float = 0.0

    def row(self) -> StandingRow:
        lo, hi = wilson(self.wins, self.games)
        n = max(1, self.games)
        return {"seat": self.seat, "bot": self.bot, "games": self.games,
                "win_rate": self.wins / n, "ci95": [lo, hi],
                "avg_total": self.total / n,
                "avg_lines": {k: v / n for k, v in self.lines.items()}}


def game_seeds(seed: int, game: int, seats: int) -> tuple[int, list[int]]:
    """The seed of tournament game ``game`` and of each of its bots (a run is reproducible from
    its arguments, whatever the number of jobs and whether it plays over HTTP or in process)."""
    base = seed * 1_000_003
    return base + game, [base + game * 7 + i for i in range(seats)]


@dataclass(frozen=True)
class _Plan:
    """What every game of a tournament needs; sent to each worker process once."""

    bots: tuple[BotEntry, ...]
    ruleset: str
    options: dict[str, JSON] | None
    seed: int
    base_url: str | None  # None: in process
    timeout: float = 10.0
    max_retries: int = 3
    think_ms: float | None = None
    rotate: bool = False


@dataclass
class _Worker:
    """A worker process's plan and client (set by :func:`_start_worker`)."""

    plan: _Plan | None = None
    client: Client | None = None


_worker = _Worker()


def _start_worker(plan: _Plan) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker.plan = plan
    _worker.client = _client(plan) if plan.base_url else None


def _client(plan: _Plan) -> Client:
    """A tournament's client of the engine: it waits as long as the engine asks when it
    throttles (``Retry-After``: a batch of games has time to wait), and says so in the
    results (:class:`Throttling`)."""
    assert plan.base_url is not None
    return Client(plan.base_url, timeout=plan.timeout, max_retries=plan.max_retries,
                  honour_retry_after=True)


def _play_one(g: int, plan: _Plan | None = None, client: Client | None = None
              ) -> GameResult:
    plan = plan or _worker.plan
    assert plan is not None, "a worker plays the plan it was started with"
    if client is None and _worker.client is None and plan.base_url is not None:
        _worker.client = _client(plan)  # a Ray task's process: its client, made once
    client = client or _worker.client
    n = len(plan.bots)
    game_seed, bot_seeds = game_seeds(plan.seed, g, n)
    shift = g % n if plan.rotate else 0
    entries = [plan.bots[(i + shift) % n] for i in range(n)]
    bots = [Timed(bot_for(entry, seed=s, ruleset=plan.ruleset, think_ms=plan.think_ms))
            for entry, s in zip(entries, bot_seeds)]
    names = [bot_label(entry, bot.bot) for entry, bot in zip(entries, bots)]
    throttled: Throttling = {"retries": 0, "seconds": 0.0, "code": None}
    if plan.base_url is None:
        from .inprocess import play_game_in_process

        game_id = None
        score = play_game_in_process(bots, game_seed, plan.options, plan.ruleset)
    else:
        assert client is not None
        before = replace(client.throttled)
        game_id, score, _ = play_game(client, bots, seed=game_seed, options=plan.options,
                                      ruleset=plan.ruleset)
        after = client.throttled
        throttled = {"retries": after.retries - before.retries,
                     "seconds": round(after.seconds - before.seconds, 3),
                     "code": after.last_code if after.retries > before.retries else None}
    return {"game": g, "seed": game_seed, "id": game_id, "winners": list(score["winners"]),
            "throttled": throttled,
            "dummy_wins": bool(score.get("dummy_wins")),
            "players": [{"seat": p["seat"], "bot": names[p["seat"]],
                         "total": p["total"],
                         "think_ms": [round(t * 1000, 2) for t in bots[p["seat"]].seconds],
                         # every ruleset's score lines are numbers (the spec's *Lines schemas)
                         "lines": {k: v for k, v in p["lines"].items()
                                   if isinstance(v, (int, float))}}
                        for p in score["players"]]}


class Timed:
    """A bot whose decisions are timed (CPU time of this process, in seconds), with the
    bot's own hooks."""

    def __init__(self, bot: AnyBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds: list[float] = []
        for name in HOOKS:
            found = hook(bot, name)
            if found is not None:
                setattr(self, name, found)

    def choose(self, view: Any, actions: models.Actions) -> models.Move | JSONObject:
        start = time.process_time()
        move = self.bot.choose(view, actions)
        self.seconds.append(time.process_time() - start)
        return move


def load_bot(spec: str) -> Callable[..., AnyBot]:
    """The bot class (or factory) ``"module:Class"`` names, ``module`` imported as Python
    imports it, the current folder first (as ``python -m`` does): ``mybot:StarSeeker`` is
    the class ``StarSeeker`` of ``./mybot.py``."""
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise ValueError(f"{spec!r} is not module:Class")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found: Any = importlib.import_module(module)
    except ImportError as err:
        raise ValueError(f"cannot import {module!r} for the bot {spec!r}: {err}") from None
    for part in attr.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ValueError(f"{module!r} has no {attr!r} for the bot {spec!r}") from None
    if not callable(found):
        raise ValueError(f"{spec!r} is not a class or a function that makes a bot")
    factory: Callable[..., AnyBot] = found
    return factory


def bot_for(entry: BotEntry, seed: int | None = None, ruleset: str = "turandot",
            think_ms: float | None = None) -> AnyBot:
    """The bot a tournament seat plays one game with: a level by name (:func:`make_bot`), a
    class or factory (``module:Class`` too) made anew with the game's ``seed`` when it takes
    one and the tournament's ``think_ms``, when set, if it has a ``think_ms`` parameter; or
    the bot given."""
    if isinstance(entry, str):
        if ":" not in entry:
            return make_bot(entry, seed=seed, ruleset=ruleset, think_ms=think_ms)
        entry = load_bot(entry)
    if _is_bot(entry):
        return entry
    made = entry(**_arguments(entry, seed, think_ms))
    if not _is_bot(made):
        raise ValueError(f"{entry!r} made {made!r}: a bot needs a name and "
                         "choose(view, actions)")
    return made


def _is_bot(entry: object) -> TypeIs[AnyBot]:
    """Whether ``entry`` is a bot itself (not a class or a factory of bots)."""
    return not isinstance(entry, type) and callable(getattr(entry, "choose", None)) \
        and isinstance(getattr(entry, "name", None), str)


def bot_label(entry: BotEntry, bot: AnyBot) -> str:
    """How the report names a seat's bot: its level as given, else the bot's ``name``."""
    return entry if isinstance(entry, str) and ":" not in entry else bot.name


def _arguments(factory: Callable[..., Any], seed: int | None,
               think_ms: float | None) -> dict[str, Any]:
    """What a bot factory is given: ``seed`` if it takes one (by name or ``**kwargs``), the
    think budget if set and the factory names a ``think_ms`` parameter."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    out: dict[str, Any] = {}
    if any(p.name == "seed" or p.kind is p.VAR_KEYWORD for p in params):
        out["seed"] = seed
    if think_ms is not None and any(p.name == "think_ms" for p in params):
        out["think_ms"] = think_ms
    return out


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def elo(results: Sequence[GameResult], k: float = 8.0, passes: int = 3) -> dict[str, float]:
    """A rating per bot: Elo over every pair of seats of every game, ranked by the game (the
    winners first, then by total; equal: a draw), from 1500, the games played ``passes``
    times in order so the early ones count as much as the late. Two seats of the same bot
    do not play each other."""
    rating: dict[str, float] = {}
    for r in results:
        for p in r["players"]:
            rating.setdefault(p["bot"], 1500.0)
    for _ in range(passes):
        for r in results:
            ranked = [((p["seat"] in r["winners"]), p["total"], p["bot"]) for p in r["players"]]
            delta: dict[str, float] = {}
            for i, (won_a, total_a, a) in enumerate(ranked):
                for won_b, total_b, b in ranked[i + 1:]:
                    if a == b:
                        continue
                    score = 1.0 if (won_a, total_a) > (won_b, total_b) else \
                        0.5 if (won_a, total_a) == (won_b, total_b) else 0.0
                    expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
                    delta[a] = delta.get(a, 0.0) + k * (score - expected)
                    delta[b] = delta.get(b, 0.0) - k * (score - expected)
            for name, d in delta.items():
                rating[name] += d
    return rating


def throttling(results: Sequence[GameResult]) -> Throttling:
    """The games' throttling, summed (the code: the latest game's that was throttled)."""
    codes = [r["throttled"]["code"] for r in results if r["throttled"]["code"]]
    return {"retries": sum(r["throttled"]["retries"] for r in results),
            "seconds": round(sum(r["throttled"]["seconds"] for r in results), 3),
            "code": codes[-1] if codes else None}


def by_bot(results: Sequence[GameResult], players: int) -> list[BotRow]:
    """Each bot's results over every seat it sat in, with its rating and think times."""
    names: list[str] = []
    for r in results:
        for p in r["players"]:
            if p["bot"] not in names:
                names.append(p["bot"])
    ratings = elo(results)
    rows: list[BotRow] = []
    for name in names:
        games = 0
        wins = total = 0.0
        think: list[float] = []
        for r in results:
            for p in r["players"]:
                if p["bot"] == name:
                    games += 1
                    total += p["total"]
                    think += p.get("think_ms", [])
                    if p["seat"] in r["winners"]:
                        wins += 1 / len(r["winners"])
        lo, hi = wilson(wins, games)
        rows.append({"bot": name, "games": games, "win_rate": wins / max(1, games),
                     "fair_share": 1 / players, "ci95": [lo, hi],
                     "avg_total": total / max(1, games), "rating": round(ratings[name], 1),
                     "decisions": len(think), "think_ms_p50": _percentile(think, 0.5),
                     "think_ms_p95": _percentile(think, 0.95),
                     "think_ms_max": max(think, default=0.0)})
    return rows


def _games(plan: _Plan, games: int, jobs: int, ray: str | None, client: Client | None
           ) -> Iterator[GameResult]:
    """The games of ``plan``, each as it ends: here one after another, in ``jobs`` processes,
    or as Ray tasks (``ray``: a cluster's address, or ``"local"``)."""
    if ray is not None:
        from .ray_games import play_on_ray

        yield from play_on_ray(_play_one, plan, games, ray, jobs)
        return
    if jobs <= 1:
        for g in range(games):
            yield _play_one(g, plan, client)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(plan,))
    try:
        queued = iter(range(games))
        running = {pool.submit(_play_one, g) for g in islice(queued, jobs * 4)}
        while running:  # a few games per job in flight: memory stays flat, Ctrl-C is quick
            done, running = wait(running, return_when=FIRST_COMPLETED)
            running |= {pool.submit(_play_one, g) for g in islice(queued, len(done))}
            for future in done:
                yield future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # no waiting for the games left
        raise
    pool.shutdown()


def run_tournament(client: Client | None, bots: Sequence[BotEntry], games: int, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None,
                   ruleset: str = "turandot", options: dict[str, JSON] | None = None, *,
                   jobs: int = 1, in_process: bool = False, think_ms: float | None = None,
                   rotate: bool = False,
                   on_result: Callable[[GameResult], None] | None = None,
                   ray: str | None = None) -> TournamentResult:
    """Play ``games`` seeded games of ``ruleset`` with ``bots`` in fixed seats, one entry a
    seat: a level (``"medium"``), ``"module:Class"``, your bot's class (made anew each game,
    with the game's bot seed as ``seed=`` when it takes one) or a bot (``rotate``:
    game ``g`` moves every bot ``g`` seats on, so no seat order favours one); a shared
    victory counts as a fraction of a win for each winner. ``think_ms``: the think budget of
    the searching bots. ``on_result`` is called with each game as it ends (a record that
    survives stopping the tournament).

    ``jobs`` > 1 plays that many games at a time, each in its own process (the bots think in
    Python, so threads would take turns). ``in_process`` plays against the rules in this
    process instead of a server (``client`` may then be None). ``ray`` plays the games as Ray
    tasks (``pip install 'impresario[ray]'``): ``"local"`` starts Ray on this machine (``jobs``
    CPUs when above 1, else all of them), an address joins that cluster, whose workers need
    this SDK and the bots. The result is the same for the same arguments every way: the
    standings, and under ``results`` every game (its seed, id, winners and each seat's total
    and lines).

    Over HTTP the games are played with a client of the tournament's own (``client``'s
    address, timeout and retries) that waits as long as the engine asks when it throttles
    (``Retry-After``): a batch of games has the time, where one call of yours would rather
    fail fast. ``throttled`` in the result, and in each game's, says how much it waited."""
    if games < 1:
        raise ValueError("games must be at least 1")
    base_url = None
    if not in_process:
        if client is None:
            raise ValueError("a client is needed unless in_process")
        base_url = client.base_url
    # an unknown name or a bot that cannot be made fails before any game
    bot_names = [bot_label(entry, bot_for(entry, ruleset=ruleset)) for entry in bots]
    plan = _Plan(tuple(bots), ruleset, options, seed, base_url,
                 timeout=client.timeout if client else 10.0,
                 max_retries=client.max_retries if client else 3, think_ms=think_ms,
                 rotate=rotate)
    started = time.perf_counter()
    results: list[GameResult] = []
    for result in _games(plan, games, jobs, ray, _client(plan) if base_url else None):
        results.append(result)
        if on_result:
            on_result(result)
        if progress:
            progress(len(results), games)
    results.sort(key=lambda r: r["game"])
    elapsed = time.perf_counter() - started
    standings = [Standing(name if not rotate else "(rotating)", i)
                 for i, name in enumerate(bot_names)]
    for r in results:
        for p in r["players"]:
            st = standings[p["seat"]]
            st.games += 1
            st.total += p["total"]
            for k, v in p["lines"].items():
                st.lines[k] = st.lines.get(k, 0.0) + v
            if p["seat"] in r["winners"]:
                st.wins += 1 / len(r["winners"])
    return {"ruleset": ruleset, "bots": list(bot_names), "seed": seed, "options": options or {},
            "games": games, "jobs": jobs, "in_process": in_process, "seconds": elapsed,
            "games_per_second": games / elapsed if elapsed else 0.0,
            "dummy_wins": sum(r["dummy_wins"] for r in results), "rotate": rotate,
            "think_ms": think_ms, "standings": [s.row() for s in standings],
            "throttled": throttling(results),
            "by_bot": by_bot(results, len(bot_names)), "results": results}
