"""Use cases of the engine service: create a game, take a seat, move, and read what a caller may see.

Each use case loads the game from the store, runs the pure rules, and saves the result with a
compare-and-set on the game's version. Nothing is kept between calls, so any worker of any pod
can serve any request; two requests racing on one game never lose a move: the loser of the
compare-and-set re-reads the game and applies its move again on the new state.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

import orjson
from redis.exceptions import RedisError

from . import lobby, names, seating
from .api.errors import ApiError
from .config import Config
from impresario_rules import RULESETS, Refusal, Ruleset
from impresario_rules.base import BotRandom, redact_event
from .lobby import FINISHED, OPEN, PLAYING  # the game's statuses (each has its list)
from .metrics import CAS_RETRIES, GAMES, MOVES
from .store import GameStore, StoreUnavailable, codec

log = logging.getLogger("impresario_engine.service")

_MOVE_COUNTERS: dict[tuple[str, str, str], Any] = {}
HOST = "host"


def _raise(error: Exception) -> Any:
    raise error


def new_token() -> str:
    """A bearer token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A game id: 72 random bits, URL-safe, never starting with "-" or "_" (a command line
    would read a leading "-" as an option: ``impresario watch -x2…``)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if game_id[0].isalnum():
            return game_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# Idempotency records replay a response that may carry a token (join: the seat's, create: the
# host's). Tokens are never stored in clear: in a record they are XORed with a pad derived from
# the Idempotency-Key and its scope, which Redis never holds (the record's name uses another
# hash of the key), so only a client presenting the key again can get the token back.
SECRET_FIELDS = ("token", "host_token")


def _pad(scope: str, key: str, size: int) -> bytes:
    seed = b"impresario:idempotency-seal\0" + scope.encode() + b"\0" + key.encode()
    return hashlib.shake_256(seed).digest(size)


def seal_secrets(body: dict[str, Any], scope: str, key: str) -> dict[str, Any]:
    out = dict(body)
    for name in SECRET_FIELDS:
        value = out.get(name)
        if isinstance(value, str):
            raw = value.encode()
            out[name] = {"sealed": bytes(a ^ b for a, b in zip(raw, _pad(scope, key, len(raw)))
                                         ).hex()}
    return out


def client_tag(key: str, client: str) -> str:
    """What binds a token-less request's Idempotency-Key to its client (its address): a replay
    of a create or join answers with the credential only to the same key from the same
    client, so a key someone else has seen (in a log, or guessed) is worth nothing to them."""
    seed = b"impresario:idempotency-client\0" + key.encode() + b"\0" + client.encode()
    return hashlib.sha256(seed).hexdigest()[:16]


def _check_client(record: dict[str, Any], tag: str | None) -> None:
    if record.get("who") and record["who"] != tag:
        raise ApiError(409, "idempotency_key_taken", "this Idempotency-Key was used by another "
                       "client; send a new random key")


def unseal_secrets(body: dict[str, Any], scope: str, key: str) -> dict[str, Any]:
    for name in SECRET_FIELDS:
        value = body.get(name)
        if isinstance(value, dict) and "sealed" in value:
            raw = bytes.fromhex(value["sealed"])
            body[name] = bytes(a ^ b for a, b in zip(raw, _pad(scope, key, len(raw)))).decode()
    return body


@dataclass(frozen=True)
class Caller:
    """Who is calling: a seat, the host, or a spectator (no token)."""

    seat: int | None = None
    host: bool = False
    token_id: str = "anon"  # a short, non-reversible id of the token, to scope idempotency keys

    @property
    def viewer(self) -> int | None:
        return self.seat


SPECTATOR = Caller()


@dataclass
class _Done:
    """A transaction step that finished without writing (a replay, a no-op)."""

    result: Any


@dataclass
class _Refused:
    """A transaction step whose write must be saved, after which the request is refused (the
    deadlines that fell due before a move the rules or the clock refuse still count)."""

    error: ApiError


MAX_MOVE_SECONDS = 7 * 86400
MAX_BOT_SECONDS = 3600
#: a bot's think time is drawn in [BOT_PACE[0], BOT_PACE[1]] times its cap: the game's
#: bot_seconds, at most BOT_WINDOW_SHARE of the window the bot must act in
BOT_PACE = (0.2, 1.0)
BOT_WINDOW_SHARE = 0.8


#: the options the service itself handles, name -> (lowest, highest) whole seconds; every
#: other option goes to the ruleset
SECONDS_SETTINGS = {"move_seconds": (1, MAX_MOVE_SECONDS), "bot_seconds": (0, MAX_BOT_SECONDS)}


def split_options(options: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the ruleset's options, the service's settings) from a game's options."""
    core = dict(options or {})
    settings: dict[str, Any] = {}
    for name, (low, high) in SECONDS_SETTINGS.items():
        seconds = core.pop(name, None)
        if seconds is None:
            continue
        if type(seconds) is not int or not low <= seconds <= high:
            raise ApiError(422, f"invalid_{name}",
                           f"{name} must be an integer from {low} to {high}",
                           errors={"options": {name: ["out of range"]}})
        settings[name] = seconds
    return core, settings


def bot_seconds(doc: dict[str, Any]) -> int:
    """The longest a bot of this game thinks before a move (the option, else the ruleset's
    default; 0 for games stored before bots had a secret to draw their times from)."""
    if not doc.get("secret"):
        return 0
    return doc["settings"].get("bot_seconds", RULESETS[doc["ruleset"]].bot_seconds)


@dataclass
class Loaded:
    version: int
    doc: dict[str, Any]
    idem: bytes | None
    #: the id of the game's rematch, once a player of the finished game has asked for one
    rematch: str | None = None

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.doc["ruleset"]]


class GameService:
    def __init__(self, store: GameStore, config: Config,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        #: STORAGE_FORMAT=1: write what versions before storage format 2 read
        self.legacy_storage = config.storage_format == 1
        #: the list of games (GET /v1/games) and its upkeep
        self.lobby = lobby.Lobby(self)

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str, idempotency_key: str | None = None) -> Loaded:
        version, doc, idem, rematch = self.store.read_game(game_id, idempotency_key)
        if doc is None:
            raise ApiError(404, "game_not_found", f"there is no game {game_id!r}")
        return Loaded(version, doc, idem, rematch)  # type: ignore[arg-type]

    def authenticate(self, doc: dict[str, Any], token: str | None) -> Caller:
        """The caller a bearer token stands for in this game (constant-time comparisons).

        No token is a spectator, except in a private game, which shows spectators nothing
        without the spectator token the host was given."""
        if token is None:
            if doc.get("settings", {}).get("private"):
                raise ApiError(403, "private_game", "this game is private: spectators need the "
                               "host's spectator link")
            return SPECTATOR
        digest = token_hash(token)
        found: Caller | None = None
        if hmac.compare_digest(digest, doc["host"]):
            found = Caller(host=True, token_id=digest[:16])
        spectator = doc.get("spectator")
        if spectator and hmac.compare_digest(digest, spectator):
            found = Caller(token_id=digest[:16])
        for seat, info in enumerate(doc["seats"]):
            if info.get("token") and hmac.compare_digest(digest, info["token"]):
                found = Caller(seat=seat, token_id=digest[:16])
        if found is None:
            raise ApiError(401, "invalid_token", "the bearer token is not valid for this game",
                           headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return found

    def read(self, game_id: str, token: str | None) -> tuple[Loaded, Caller]:
        """Load a game for a caller, first applying any deadline that has passed (deadlines are
        enforced lazily by whichever request touches the game next)."""
        loaded = self.load(game_id)
        caller = self.authenticate(loaded.doc, token)
        if self._due(loaded.doc):
            loaded = self.settle(game_id)[0]
        return loaded, caller

    def view(self, loaded: Loaded, caller: Caller) -> dict[str, Any]:
        doc = loaded.doc
        ruleset = loaded.ruleset
        core = ruleset.view(doc["state"], caller.viewer)
        if doc["status"] == OPEN:
            core["pending"] = []
        else:
            entries = core.get("pending", ())
            deadlines = self._deadlines(doc, {e["seat"]: e["kinds"] for e in entries})
            for entry in entries:
                entry["deadline"] = deadlines.get(entry["seat"])
        return self._dressed(loaded, doc["status"], core)

    def _dressed(self, loaded: Loaded, status: str, core: dict[str, Any]) -> dict[str, Any]:
        """A ruleset's view with the game's own fields and the players' names."""
        doc = loaded.doc
        seats = doc["seats"]
        for player in core.get("players", ()):
            s = player["seat"]
            player["name"] = seats[s]["name"] if s < len(seats) else None
            player["bot"] = seats[s].get("bot") if s < len(seats) else None
        out = {
            "id": doc["id"],
            "ruleset": doc["ruleset"],
            "version": loaded.version,
            "status": status,
            "seats_taken": seating.seats_taken(seats, self.clock()),
            "seats_total": doc["players"],
            "last_seq": doc["seq"],
            "private": bool(doc["settings"].get("private")),
            "move_seconds": doc["settings"].get("move_seconds"),
            "bot_seconds": bot_seconds(doc),
            "seeded": bool(doc.get("seeded")),
            "rematch": loaded.rematch,
        }
        out.update(core)
        return out

    def actions(self, loaded: Loaded, caller: Caller) -> dict[str, Any]:
        """The caller's legal moves, compactly, and the default the engine would play."""
        seat = caller.seat
        if seat is None or loaded.doc["status"] != PLAYING:
            return {"seat": seat, "pending": [], "moves": [], "default": None}
        ruleset = loaded.ruleset
        state = loaded.doc["state"]
        kinds = ruleset.pending(state).get(seat, [])
        if not kinds:
            return {"seat": seat, "pending": [], "moves": [], "default": None}
        return {"seat": seat, "pending": kinds, "moves": ruleset.action_space(state, seat),
                "default": ruleset.default_action(state, seat)}

    def replay(self, loaded: Loaded) -> dict[str, Any]:
        """Seed, options and every move of a finished game. What the rules never reveal (a
        Word Jam thief's word nobody heard) stays hidden: the ruleset redacts those moves so
        that replaying them still gives the same game. The bots' secret is not part of it."""
        doc = loaded.doc
        if doc["status"] != FINISHED:
            raise ApiError(409, "game_not_finished", "a replay is available once the game is over")
        options = dict(doc["options"])
        ruleset = loaded.ruleset
        moves = self._public_moves(loaded)
        return {
            "id": doc["id"],
            "ruleset": doc["ruleset"],
            "players": doc["players"],
            "seed": doc["seed"],
            "options": options,
            "move_seconds": doc["settings"].get("move_seconds"),
            "bot_seconds": bot_seconds(doc),
            "names": [s["name"] for s in doc["seats"]],
            "bots": [s.get("bot") for s in doc["seats"]],
            "moves": [{"seat": m[0], "move": move, "by": m[2]}
                      for m, move in zip(doc["moves"], moves)],
            "score": ruleset.score(doc["state"]),
        }

    @staticmethod
    def _public_moves(loaded: Loaded) -> list[dict[str, Any]]:
        """A finished game's moves as its replay shows them (the ruleset redacts its secrets)."""
        doc = loaded.doc
        return loaded.ruleset.public_moves(doc["players"], dict(doc["options"]), doc["seed"],
                                           [(m[0], m[1]) for m in doc["moves"]])

    def replay_step(self, loaded: Loaded, step: int, seat: int | None) -> dict[str, Any]:
        """A finished game as ``seat`` (None: a spectator) saw it after ``step`` moves,
        replayed from the seed through the moves as :meth:`replay` shows them. What the replay
        hides (a Word Jam thief's word nobody heard, a side never revealed) is hidden here
        too, even from its own seat: a step shows nothing the replay does not already give."""
        doc = loaded.doc
        if doc["status"] != FINISHED:
            raise ApiError(409, "game_not_finished", "a replay is available once the game is over")
        raw = doc["moves"]
        if step > len(raw):
            raise ApiError(404, "step_not_found",
                           f"this game has {len(raw)} moves: steps go from 0 to {len(raw)}")
        if seat is not None and seat >= doc["players"]:
            raise ApiError(422, "unknown_seat", f"this game has seats 0 to {doc['players'] - 1}")
        ruleset = loaded.ruleset
        moves = self._public_moves(loaded)
        state, _ = ruleset.new_game(doc["players"], dict(doc["options"]), doc["seed"])
        for (mover, _move, _by), move in zip(raw[:step], moves):
            state, _ = ruleset.apply(state, mover, move)
        core = ruleset.view(state, seat)
        for entry in core.get("pending", ()):
            entry["deadline"] = None
        status = FINISHED if step == len(raw) else PLAYING
        last = {"seat": raw[step - 1][0], "move": moves[step - 1], "by": raw[step - 1][2]} \
            if step else None
        return {"step": step, "steps": len(raw), "seat": seat, "move": last,
                "game": self._dressed(loaded, status, core)}

    # ------------------------------------------------------------------ the flow of play
    def _apply(self, doc: dict[str, Any], ruleset: Ruleset, seat: int, action: dict[str, Any],
               by: str, events: list[dict[str, Any]]) -> dict[str, Any]:
        """``doc`` with one move applied (raises Refusal; returns ``doc`` itself for a no-op).

        Keeps, for each seat that must act, the time its turn began (for deadlines): a seat that
        was already waiting with the same kinds of move, and did not just act, keeps its time."""
        state = doc["state"]
        before = ruleset.pending(state)
        new_state, new_events = ruleset.apply(state, seat, action)
        if new_state is state:
            return doc
        events.extend(new_events)
        after = ruleset.pending(new_state)
        now = self.clock()
        old_since = doc.get("since", {})
        old_keys = doc.get("turn_keys", {})
        since: dict[str, float] = {}
        keys: dict[str, str] = {}
        for s, kinds in after.items():
            key = str(s)
            window = ruleset.turn_key(new_state, s)
            if window is not None:
                keys[key] = window
                same = old_keys.get(key) == window
            else:
                same = s != seat and before.get(s) == kinds
            since[key] = old_since[key] if same and key in old_since else now
        new = dict(doc)
        if keys or old_keys:
            new["turn_keys"] = keys
        new["state"] = new_state
        new["since"] = since
        new["moves"] = doc["moves"] + [[seat, action, by]]
        if ruleset.is_finished(new_state):
            new["status"] = FINISHED
        return new

    @staticmethod
    def _deadlines(doc: dict[str, Any], pending: dict[int, list[str]]) -> dict[int, float]:
        """When each pending seat's time runs out (seats without a deadline are left out)."""
        if doc["status"] != PLAYING:
            return {}
        ruleset = RULESETS[doc["ruleset"]]
        state = doc["state"]
        limit = doc["settings"].get("move_seconds")
        since = doc.get("since", {})
        out = {}
        for s in pending:
            seconds = ruleset.turn_seconds(state, s, limit)
            start = since.get(str(s))
            if seconds and start is not None:
                out[s] = start + seconds
        return out

    @staticmethod
    def _bot_times(doc: dict[str, Any], pending: dict[int, list[str]]
                   ) -> dict[int, tuple[float, float]]:
        """When each pending bot seat moves: ``(time, tie-break)``. A bot thinks for a time
        drawn from the game's secret (never from anything public), at most ``bot_seconds`` and
        at most a share of the window it must act in, counted from when its turn began; the
        tie-break (equal times, as with ``bot_seconds`` 0) is secret too, so no seat wins a
        race by its number. The draw depends only on the secret, the window and the seat: it
        stays the same however often the game is read."""
        if doc["status"] != PLAYING:
            return {}
        seats = doc["seats"]
        bots = [s for s in pending if seats[s].get("bot")]
        if not bots:
            return {}
        secret = doc.get("secret")
        pace = bot_seconds(doc)
        ruleset = RULESETS[doc["ruleset"]]
        state = doc["state"]
        limit = doc["settings"].get("move_seconds")
        since = doc.get("since", {})
        out = {}
        for s in bots:
            start = since.get(str(s), 0.0)
            if not secret:  # stored before bots had a secret: at once, in seat order
                out[s] = (start, float(s))
                continue
            window = ruleset.turn_key(state, s) or ""  # else the start alone names the turn
            draw = random.Random(f"{secret}:think:{start!r}:{window}:{s}")
            seconds = ruleset.turn_seconds(state, s, limit)
            cap = pace if not seconds else min(pace, BOT_WINDOW_SHARE * seconds)
            delay = cap * draw.uniform(*BOT_PACE) if cap > 0 else 0.0
            out[s] = (start + delay, draw.random())
        return out

    def _due_moves(self, doc: dict[str, Any], deadlines: bool = True
                   ) -> list[tuple[float, float, int]]:
        """What the engine must play now, earliest first: ``(time, tie-break, seat)`` for each
        bot whose think time is over and each human seat whose deadline has passed."""
        if doc["status"] != PLAYING:
            return []
        now = self.clock()
        pending = RULESETS[doc["ruleset"]].pending(doc["state"])
        due = [(t, tie, s) for s, (t, tie) in self._bot_times(doc, pending).items() if t <= now]
        if deadlines:
            seats = doc["seats"]
            due += [(t, float(s), s) for s, t in self._deadlines(doc, pending).items()
                    if t <= now and not seats[s].get("bot")]
        return sorted(due)

    def _due(self, doc: dict[str, Any]) -> bool:
        return bool(self._due_moves(doc))

    def _advance(self, doc: dict[str, Any], ruleset: Ruleset, events: list[dict[str, Any]],
                 deadlines: bool = True) -> dict[str, Any]:
        """Play every move that is the engine's to make now, in the order they fell due: the
        bots whose think time is over, and the default move of every seat whose deadline has
        passed, until nothing more is due."""
        seats = doc["seats"]
        for _ in range(10_000):  # a game is far shorter; this only guards against a loop
            due = self._due_moves(doc, deadlines)
            if not due:
                break
            _, _, seat = due[0]
            if not seats[seat].get("bot"):
                events.append({"type": "deadline_passed", "seat": seat,
                               "kinds": ruleset.pending(doc["state"])[seat]})
            doc = self._engine_move(doc, ruleset, seat, events)
        return doc

    def _engine_move(self, doc: dict[str, Any], ruleset: Ruleset, seat: int,
                     events: list[dict[str, Any]]) -> dict[str, Any]:
        """The move the engine makes for a seat: its bot's (by "bot", drawn from the game's
        secret), or else the seat's deadline default (by "deadline")."""
        state = doc["state"]
        bot = doc["seats"][seat].get("bot")
        if not bot:
            return self._apply(doc, ruleset, seat, ruleset.default_action(state, seat),
                               "deadline", events)
        if not doc.get("secret"):  # a game stored before bots had a secret
            doc = {**doc, "secret": secrets.token_hex(16)}
        rng = BotRandom(doc["secret"], len(doc["moves"]), seat)
        return self._apply(doc, ruleset, seat, ruleset.bot_action(state, seat, bot, rng), "bot",
                           events)

    # ------------------------------------------------------------------ writing
    def _save(self, game_id: str, loaded: Loaded | None, doc: dict[str, Any],
              events: list[dict[str, Any]], idem: tuple[str, bytes] | None = None) -> int | None:
        """Compare-and-set; returns the new version, or None when another writer won."""
        first_seq = (loaded.doc["seq"] if loaded else 0) + 1
        doc["seq"] = first_seq - 1 + len(events)
        doc["updated"] = self.clock()
        deadline = self._next_deadline(doc)
        doc["scheduled"] = deadline is not None
        ttl = self._ttl(doc["status"])
        version_next = loaded.version + 1 if loaded else 1
        # the list of games first (lobby.py: why a game is then never missing from its list)
        self.lobby.announce(loaded.doc if loaded else None, doc, version_next)
        ok, version = self.store.write(
            game_id, loaded.version if loaded else None, doc, events, first_seq, ttl,
            idempotency_key=idem[0] if idem else None,
            idempotency_record=idem[1] if idem else None,
            idempotency_ttl=min(self.config.idempotency_ttl, ttl),
            record_key_of_its_own=self.legacy_storage,
            summary=orjson.dumps(lobby.summary(doc, version_next)))
        if not ok:
            CAS_RETRIES.inc()
            return None
        self._count(loaded, doc)
        if doc["status"] == FINISHED and (loaded is None or loaded.doc["status"] != FINISHED) \
                and not self.legacy_storage:
            self._archive(game_id, version, doc)
        # the deadline index the reaper reads (advisory: the reaper re-checks every game)
        if deadline is not None:
            self.store.schedule(game_id, deadline)
        elif loaded is not None and loaded.doc.get("scheduled"):
            self.store.unschedule(game_id)
        return version

    def _ttl(self, status: str) -> int:
        """How long Redis keeps a game after a write: finished, in play, or open (not started:
        OPEN_GAME_TTL_SECONDS, so a game nobody joins goes soon)."""
        if status == FINISHED:
            return self.config.finished_ttl
        return self.config.open_game_ttl if status == OPEN else self.config.idle_ttl

    def _archive(self, game_id: str, version: int, doc: dict[str, Any]) -> None:
        """Make the just-finished game compact. The move is saved already: if Redis fails
        now, the game stays as it was (correct, only larger) until it expires."""
        try:
            done = self.store.archive(game_id, version, doc,
                                      self.config.finished_idempotency_seconds * 1000)
        except (RedisError, StoreUnavailable) as exc:  # the move stands all the same
            log.warning("archiving finished game %s failed: %s", game_id, exc)
        else:
            if not done:
                log.warning("finished game %s was not archived: it changed, or its event "
                            "stream is not whole", game_id)

    def _count(self, loaded: Loaded | None, doc: dict[str, Any]) -> None:
        """Metrics of a saved write."""
        before = loaded.doc if loaded is not None else None
        if before is None:
            GAMES.labels("created").inc()
            return
        for seat, move, by in doc["moves"][len(before["moves"]):]:
            key = (doc["ruleset"], str(move.get("type")), by)
            counter = _MOVE_COUNTERS.get(key)
            if counter is None:  # a label lookup takes a lock: once per combination
                counter = _MOVE_COUNTERS[key] = MOVES.labels(*key)
            counter.inc()
        if doc["status"] == FINISHED and before["status"] != FINISHED:
            GAMES.labels("finished").inc()

    def _next_deadline(self, doc: dict[str, Any]) -> float | None:
        """The next time the engine has something to play: a deadline or a bot's move."""
        if doc["status"] != PLAYING:
            return None
        pending = RULESETS[doc["ruleset"]].pending(doc["state"])
        times = [*self._deadlines(doc, pending).values(),
                 *(t for t, _ in self._bot_times(doc, pending).values())]
        return min(times, default=None)

    def _transact(self, game_id: str, step: Callable[[Loaded], tuple[dict, list, Any] | None],
                  idempotency_key: str | None = None) -> Any:
        """Run ``step`` on the freshly loaded game and save its result with a compare-and-set,
        again on a fresh copy whenever another writer got there first. ``step`` returns
        ``(doc, events, result)`` or raises; ``result`` may be a function of the new version."""
        for _ in range(self.config.cas_attempts):
            loaded = self.load(game_id, idempotency_key)
            outcome = step(loaded)
            if isinstance(outcome, _Done):
                return outcome.result
            doc, events, result, idem = outcome
            if self._save(game_id, loaded, doc, events, idem) is not None:
                if isinstance(result, _Refused):
                    raise result.error
                return result
        raise self._contention()

    def settle(self, game_id: str) -> tuple[Loaded, list[dict]]:
        """Apply every due deadline (and the bot moves that follow) now. Returns the game as
        saved and the events that produced (none when nothing was due)."""

        def step(loaded: Loaded):
            if not self._due(loaded.doc):
                return _Done((loaded, []))
            events: list[dict[str, Any]] = []
            doc = self._advance(dict(loaded.doc), loaded.ruleset, events)
            return doc, events, (Loaded(loaded.version + 1, doc, None), events), None

        return self._transact(game_id, step)

    def create_game(self, ruleset_name: str, players: int, seed: int | None,
                    options: dict[str, Any] | None, private: bool = False
                    ) -> tuple[dict[str, Any], str, str | None, str | None]:
        """A new open game: ``(its view, the host token, the spectator token, the join
        token)``; the last two only for a private game (each shown once, stored hashed)."""
        ruleset = RULESETS.get(ruleset_name)
        if ruleset is None:
            raise ApiError(404, "ruleset_not_found",
                           f"there is no ruleset {ruleset_name!r}; available: "
                           f"{', '.join(sorted(RULESETS))}")
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ApiError(422, "invalid_players",
                           f"{ruleset.title} is for {ruleset.min_players} to "
                           f"{ruleset.max_players} players, not {players}")
        core_options, settings = split_options(options)
        settings["private"] = bool(private)
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbits(63)
        try:
            state, events = ruleset.new_game(players, core_options, seed)
        except Refusal as err:
            raise ApiError.from_rules(err) from err
        host_token = new_token()
        spectator_token = new_token() if private else None
        join_token = new_token() if private else None
        version, doc = self._insert({
            "ruleset": ruleset.name, "players": players, "seed": seed, "seeded": seeded,
            "options": core_options, "settings": settings,
            "host": token_hash(host_token),
            "spectator": token_hash(spectator_token) if spectator_token else None,
            "joiner": token_hash(join_token) if join_token else None,
            "seats": [], "state": state}, events)
        self._sweep_a_little()
        return (self.view(Loaded(version, doc, None), Caller(host=True)), host_token,
                spectator_token, join_token)

    def _insert(self, fields: dict[str, Any], events: list[dict[str, Any]]
                ) -> tuple[int, dict[str, Any]]:
        """Store a new open game made of ``fields`` (ruleset, players, seed, options,
        settings, tokens' hashes, seats, state…) under a fresh id: its version and document."""
        now = self.clock()
        for _ in range(5):
            game_id = new_game_id()
            doc = {"id": game_id, **fields,
                   # the bots' randomness (their choices and think times): never sent to anyone
                   "secret": secrets.token_hex(16),
                   "created": now, "updated": now, "status": OPEN,
                   "seq": 0, "since": {}, "moves": []}
            version = self._save(game_id, None, doc, events)
            if version is not None:
                return version, doc
        raise ApiError(503, "id_collision", "could not allocate a game id; try again")

    def _sweep_a_little(self) -> None:
        """Where the list of games grows, a creation drops a couple of expired games from it,
        so it stays bounded even without the reaper (which does the rest)."""
        try:
            self.lobby.sweep(lobby.SWEEP_ON_CREATE, abandon=False)
        except (StoreUnavailable, ApiError, RedisError) as exc:  # the game is created all the same
            log.warning("sweeping the list of games failed: %s", exc)

    def join(self, game_id: str, name: str, idempotency_key: str | None = None,
             fingerprint: str = "", token: str | None = None, bot: str | None = None,
             client: str = "", join_token: str | None = None) -> dict[str, Any]:
        """Take the next free seat: ``{"seat", "token", "bot", "game"}``. A bot seat is added by
        the host and gets no token: the engine plays it. ``client`` (the caller's address)
        scopes the Idempotency-Key of a request without a token. A private game seats only
        the host and whoever brings its join link's token (``join_token``)."""
        name = names.normalise(name)
        looks = names.likeness(name)
        seat_token = None if bot else new_token()
        scope = "anon" if token is None else token_hash(token)[:16]
        who = client_tag(idempotency_key, client) if token is None and idempotency_key else None

        def step(loaded: Loaded):
            replay = self._replayed(loaded, fingerprint, idempotency_key, who)
            if replay is not None:
                return _Done(replay)
            doc = loaded.doc
            caller = self.authenticate(doc, token) if token is not None else None
            ruleset = loaded.ruleset
            if bot is not None:
                if caller is None or not caller.host:
                    raise ApiError(403 if caller else 401, "host_only",
                                   "only the host's token can add a bot seat")
                if bot not in ruleset.bot_names:
                    raise ApiError(422, "unknown_bot", f"unknown bot {bot!r}; {ruleset.title} "
                                   f"bots: {', '.join(ruleset.bot_names)}")
            self._may_join(doc, caller, join_token)
            now = self.clock()
            seat = seating.free_seat(doc["seats"], doc["players"], now)
            if doc["status"] != OPEN or seat is None:
                raise ApiError(409, "game_full", "every seat of this game is taken")
            for taken in doc["seats"]:
                if seating.occupied(taken, now) and names.likeness(taken["name"]) == looks:
                    raise ApiError(409, "name_taken", f"a player called {taken['name']!r} is "
                                   "already seated, and names that look alike (case, "
                                   "look-alike letters) would confuse the table")
            new_doc = dict(doc)
            new_doc["seats"] = seating.put(doc["seats"], seat, {
                "name": name, "token": token_hash(seat_token) if seat_token else None,
                "bot": bot})
            events: list[dict[str, Any]] = [{"type": "seat_taken", "seat": seat, "name": name,
                                             "bot": bot}]
            if seating.all_claimed(new_doc["seats"], doc["players"]):
                new_doc = self._start(new_doc, ruleset, events)
            new_doc["seq"] = doc["seq"] + len(events)
            result_loaded = Loaded(loaded.version + 1, new_doc, None)
            viewer = Caller(seat=seat) if not bot else Caller(host=True)
            result = {"seat": seat, "token": seat_token, "bot": bot,
                      "game": self.view(result_loaded, viewer)}
            idem = self._idem_record(loaded, scope, idempotency_key, fingerprint, 201, result,
                                     who)
            return new_doc, events, result, idem

        return self._transact(game_id, step, self._idem_key(scope, idempotency_key))

    @staticmethod
    def _may_join(doc: dict[str, Any], caller: Caller | None, join_token: str | None) -> None:
        """Refuse a seat in a private game to anyone but the host and the holders of its join
        link. The spectator token only ever shows the game; neither it nor a seat's token opens
        a seat. (A private game made before join links existed has none: it seats anyone, as
        it did then.)"""
        joiner = doc.get("joiner")
        if not doc["settings"].get("private") or not joiner or (caller and caller.host):
            return
        if join_token is not None:
            if hmac.compare_digest(token_hash(join_token), joiner):
                return
            raise ApiError(403, "invalid_join_token", "the join link's token is not valid for "
                           "this game")
        if caller is not None and caller.seat is None:
            raise ApiError(403, "spectator_read_only", "the spectator link only shows the game; "
                           "taking a seat needs the game's join link")
        raise ApiError(403, "join_link_required", "this game is private: taking a seat needs "
                       "its join link (the host has it)")

    def _start(self, doc: dict[str, Any], ruleset: Ruleset, events: list[dict[str, Any]]
               ) -> dict[str, Any]:
        """The game with every seat taken starts: the seats' turns begin now, and the bots
        whose turn it is play."""
        new_doc = dict(doc)
        new_doc["status"] = PLAYING
        now = self.clock()
        new_doc["since"] = {str(s): now for s in ruleset.pending(doc["state"])}
        # the windows the seats start in (as _apply keeps them): without them the first
        # move of the game would restart everyone else's window
        keys = {str(s): k for s in ruleset.pending(doc["state"])
                if (k := ruleset.turn_key(doc["state"], s)) is not None}
        if keys:
            new_doc["turn_keys"] = keys
        events.append({"type": "game_started"})
        return self._advance(new_doc, ruleset, events)

    def act(self, game_id: str, token: str | None, action: dict[str, Any],
            if_match: int | None = None, idempotency_key: str | None = None,
            fingerprint: str = "",
            parse: Callable[[Ruleset, Any], dict[str, Any]] | None = None) -> dict[str, Any]:
        """One move by the caller's seat, then every move that is the engine's to make (bots,
        passed deadlines). Returns ``{"version", "events", "game"}``. ``parse(ruleset, action)``,
        if given, turns the request's body into the move once the game's ruleset is known and
        the caller is found to hold a seat (the HTTP API checks it against that ruleset's move
        schemas)."""
        if token is None:
            raise ApiError(401, "missing_token", "a move needs the seat's bearer token",
                           headers={"WWW-Authenticate": "Bearer"})
        token_id = token_hash(token)[:16]
        first: dict[str, Any] = {}  # what the first attempt found: the situation the sender saw

        def step(loaded: Loaded):
            caller = self.authenticate(loaded.doc, token)
            replay = self._replayed(loaded, fingerprint, idempotency_key)
            if replay is not None:
                return _Done(replay)
            if caller.seat is None:
                raise ApiError(403, "not_a_seat", "only a seated player can make moves; the host "
                               "token is for managing the game")
            move = action if parse is None else parse(loaded.ruleset, action)
            if if_match is not None and if_match != loaded.version:
                raise ApiError(412, "stale_version",
                               f"the game is at version {loaded.version}, not {if_match}",
                               version=loaded.version)
            doc = loaded.doc
            if doc["status"] == OPEN:
                raise ApiError(409, "game_not_started", "the game starts when every seat is taken")
            if doc["status"] == FINISHED:
                raise ApiError(409, "game_finished", "the game is over")
            ruleset = loaded.ruleset
            seat = caller.seat
            if not first:
                first.update(seen=ruleset.situation(doc["state"], seat), moves=len(doc["moves"]))
            # moves the engine made since this request arrived (another writer won the race to
            # save them): the sender still means the situation the first attempt found
            fell = [m for m in doc["moves"][first["moves"]:] if m[2] != "seat"]
            seen = first["seen"] if fell else ruleset.situation(doc["state"], seat)
            events: list[dict[str, Any]] = []
            # what fell due before this move (deadlines, bots' think times) is played first,
            # as it would have been had anyone been looking
            doc = self._advance(doc, ruleset, events)
            if events or fell:
                refusal = self._late(loaded, doc, ruleset, seat, seen, fell, events, if_match)
                if refusal is not None:
                    return (doc, events, refusal, None) if events else _raise(refusal.error)
            try:
                new_doc = self._apply(doc, ruleset, seat, move, "seat", events)
            except Refusal as err:
                if events:  # the deadlines still count: save them, then report the refusal
                    return doc, events, _Refused(ApiError.from_rules(err)), None
                raise ApiError.from_rules(err) from err
            if new_doc is loaded.doc:  # an idempotent re-send: nothing to write
                return _Done({"version": loaded.version, "events": [],
                              "game": self.view(loaded, caller)})
            new_doc = self._advance(new_doc, ruleset, events)
            new_doc["seq"] = loaded.doc["seq"] + len(events)
            first_seq = loaded.doc["seq"] + 1
            result = {
                "version": loaded.version + 1,
                "events": [self._numbered(first_seq + i, e, caller.viewer)
                           for i, e in enumerate(events)],
                "game": self.view(Loaded(loaded.version + 1, new_doc, None), caller),
            }
            idem = self._idem_record(loaded, caller.token_id, idempotency_key, fingerprint, 200,
                                     result)
            return new_doc, events, result, idem

        try:
            return self._transact(game_id, step, self._idem_key(token_id, idempotency_key))
        except ApiError as err:
            if err.code == "contention" and if_match is not None:
                raise ApiError(412, "stale_version",
                               "the game changed while this move was made") from err
            raise

    @staticmethod
    def _late(loaded: Loaded, doc: dict[str, Any], ruleset: Ruleset, seat: int,
              seen: dict[str, Any], fell: list[list[Any]], events: list[dict[str, Any]],
              if_match: int | None) -> _Refused | None:
        """The refusal of a move that arrives after deadlines or bot moves fell due (``doc``:
        the game with them played), or None when the move may still be made.

        ``409 deadline_passed`` when they changed the seat's situation (the turn, round or hand,
        the phase, what the seat must do) or played the seat's own default; ``412
        stale_version`` when the move came with If-Match (it was based on a version that is no
        longer the game's, even if the seat's situation is the same); ``409 game_finished``
        when they ended the game."""
        version = loaded.version + (1 if events else 0)
        if doc["status"] == FINISHED:
            return _Refused(ApiError(409, "game_finished", "the game ended before this move: "
                                     "the deadlines that had passed were played first",
                                     version=version))
        own = any(m[0] == seat and m[2] == "deadline" for m in fell) or any(
            e["type"] == "deadline_passed" and e["seat"] == seat for e in events)
        now = ruleset.situation(doc["state"], seat)
        if own or now != seen:
            what = ", ".join(f"{k} {v}" for k, v in now.items() if k != "pending" and v is not None)
            # what moved the game on: a deadline, or only bots whose think time was over
            timed_out = any(m[2] == "deadline" for m in fell) or any(
                e["type"] == "deadline_passed" for e in events)
            cause = "time ran out" if timed_out else "a bot moved first"
            return _Refused(ApiError(
                409, "deadline_passed",
                f"{cause} before this move arrived: the game moved on to {what}"
                + ("; your default move was played" if own else ""),
                version=version, default_played=own,
                cause="deadline" if timed_out else "bot", **now))
        if if_match is not None and events:
            return _Refused(ApiError(412, "stale_version",
                                     f"deadlines passed before this move: the game is now at "
                                     f"version {version}, not {if_match}", version=version))
        return None

    def resolve(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Apply every default that is due now (``POST /resolve``); 409 when nothing is due."""
        if token is None:
            raise ApiError(401, "missing_token", "resolving a game needs the host's or a seat's "
                           "token", headers={"WWW-Authenticate": "Bearer"})
        loaded = self.load(game_id)
        caller = self.authenticate(loaded.doc, token)
        if not (caller.host or caller.seat is not None):
            raise ApiError(403, "not_a_player", "only the host or a seated player can resolve")
        status = loaded.doc["status"]
        if status != PLAYING:
            raise ApiError(409, "game_not_started" if status == OPEN else "game_finished",
                           "only a game in play can be resolved")
        after, events = self.settle(game_id)
        if not events:
            limit = loaded.doc["settings"].get("move_seconds")
            raise ApiError(409, "nothing_due", "no deadline has passed" if limit else
                           "this game has no move deadlines (option move_seconds)")
        first = after.doc["seq"] - len(events) + 1
        return {"version": after.version,
                "events": [self._numbered(first + i, e, caller.viewer)
                           for i, e in enumerate(events)],
                "game": self.view(after, caller)}

    # ------------------------------------------------------------------ events
    def events(self, loaded: Loaded, caller: Caller, after: int) -> list[dict[str, Any]]:
        return [self._numbered(seq, e, caller.viewer)
                for seq, e in self.store.events(loaded.doc["id"], after)]

    @staticmethod
    def _numbered(seq: int, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        out = {"seq": seq}
        out.update(redact_event(event, viewer))
        return out

    # ------------------------------------------------------------------ idempotency
    @staticmethod
    def _idem_key(token_id: str, key: str | None) -> str | None:
        return None if key is None else f"{token_id}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    def _idem_record(self, loaded: Loaded, token_id: str, key: str | None, fingerprint: str,
                     status: int, body: dict[str, Any], who: str | None = None
                     ) -> tuple[str, bytes] | None:
        if key is None:
            return None
        fields = {"fp": fingerprint, "status": status,
                  "body": seal_secrets(body, loaded.doc["id"], key)}
        if who:
            fields["who"] = who
        record = codec.pack(fields, legacy=self.legacy_storage)
        return self._idem_key(token_id, key), record  # type: ignore[return-value]

    @staticmethod
    def _replayed(loaded: Loaded, fingerprint: str, key: str | None, who: str | None = None
                  ) -> dict[str, Any] | None:
        if loaded.idem is None or key is None:
            return None
        record = codec.unpack(loaded.idem)
        _check_client(record, who)
        if record["fp"] != fingerprint:
            raise ApiError(422, "idempotency_key_reused",
                           "this Idempotency-Key was used with a different request")
        body = unseal_secrets(record["body"], loaded.doc["id"], key)
        body["_replayed"] = True
        return body

    # Creating a game has no game key to hang the record on: a key of its own, claimed first
    # with SET NX so that two racing retries cannot both create a game.
    @staticmethod
    def _create_key(key: str) -> str:
        return "idem:create:{" + hashlib.sha256(key.encode()).hexdigest()[:32] + "}"

    def begin_create_idempotency(self, key: str, fingerprint: str, client: str = ""
                                 ) -> dict[str, Any] | None:
        """The recorded answer to an earlier create with this key by this client, or None
        (then this request may create the game, and records its answer with
        :meth:`finish_create_idempotency`)."""
        name = self._create_key(key)
        for _ in range(3):
            if self.store.set_if_absent(name, b"pending", 60):
                return None
            raw = self.store.get(name)
            if raw is None:
                continue
            if raw == b"pending":
                raise ApiError(409, "idempotency_in_progress",
                               "a request with this Idempotency-Key is still being processed",
                               headers={"Retry-After": "1"})
            record = codec.unpack(raw)
            _check_client(record, client_tag(key, client))
            if record["fp"] != fingerprint:
                raise ApiError(422, "idempotency_key_reused",
                               "this Idempotency-Key was used with a different request")
            return unseal_secrets(record["body"], "create", key)
        raise self._contention()

    def finish_create_idempotency(self, key: str, fingerprint: str, body: dict[str, Any],
                                  client: str = "") -> None:
        record = {"fp": fingerprint, "body": seal_secrets(body, "create", key),
                  "who": client_tag(key, client)}
        self.store.set(self._create_key(key),
                       codec.pack(record, legacy=self.legacy_storage),
                       self.config.idempotency_ttl)

    def abort_create_idempotency(self, key: str) -> None:
        try:
            self.store.delete(self._create_key(key))
        except Exception:  # noqa: BLE001 - the record expires by itself anyway
            pass

    @staticmethod
    def _contention() -> ApiError:
        return ApiError(503, "contention", "the game is changing too fast; try again",
                        headers={"Retry-After": "1"})
