"""Use cases of the engine service: create a game, take a seat, move, and read what a caller may see.

Each use case loads the game from the store, runs the pure rules, and saves the result with a
compare-and-set on the game's version. Nothing is kept between calls, so any worker of any pod
can serve any request; two requests racing on one game never lose a move: the loser of the
compare-and-set re-reads the game and applies its move again on the new state.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

import orjson

from .api.errors import ApiError
from .config import Config
from .games import RULESETS, RulesError, Ruleset
from .games.base import redact_event
from .store import GameStore

OPEN, PLAYING, FINISHED = "open", "playing", "finished"
HOST = "host"


def new_token() -> str:
    """A bearer token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


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
class Loaded:
    version: int
    doc: dict[str, Any]
    idem: bytes | None

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.doc["ruleset"]]


class GameService:
    def __init__(self, store: GameStore, config: Config,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config
        self.clock = clock

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str, idempotency_key: str | None = None) -> Loaded:
        version, doc, idem = self.store.read(game_id, idempotency_key)
        if doc is None:
            raise ApiError(404, "game_not_found", f"there is no game {game_id!r}")
        return Loaded(version, doc, idem)  # type: ignore[arg-type]

    def authenticate(self, doc: dict[str, Any], token: str | None) -> Caller:
        """The caller a bearer token stands for in this game (constant-time comparisons)."""
        if token is None:
            return SPECTATOR
        digest = token_hash(token)
        found: Caller | None = None
        if hmac.compare_digest(digest, doc["host"]):
            found = Caller(host=True, token_id=digest[:16])
        for seat, info in enumerate(doc["seats"]):
            if hmac.compare_digest(digest, info["token"]):
                found = Caller(seat=seat, token_id=digest[:16])
        if found is None:
            raise ApiError(401, "invalid_token", "the bearer token is not valid for this game",
                           headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return found

    def view(self, loaded: Loaded, caller: Caller) -> dict[str, Any]:
        doc = loaded.doc
        ruleset = loaded.ruleset
        core = ruleset.view(doc["state"], caller.viewer)
        seats = doc["seats"]
        for player in core.get("players", ()):
            s = player["seat"]
            player["name"] = seats[s]["name"] if s < len(seats) else None
        if doc["status"] == OPEN:
            core["pending"] = []
            core.pop("you", None) if caller.seat is None else None
        out = {
            "id": doc["id"],
            "ruleset": doc["ruleset"],
            "version": loaded.version,
            "status": doc["status"],
            "seats_taken": len(seats),
            "seats_total": doc["players"],
        }
        out.update(core)
        return out

    # ------------------------------------------------------------------ writing
    def _save(self, game_id: str, loaded: Loaded | None, doc: dict[str, Any],
              events: list[dict[str, Any]], idem: tuple[str, bytes] | None = None) -> int | None:
        """Compare-and-set; returns the new version, or None when another writer won."""
        first_seq = (loaded.doc["seq"] if loaded else 0) + 1
        ttl = self.config.finished_ttl if doc["status"] == FINISHED else self.config.idle_ttl
        ok, version = self.store.write(
            game_id, loaded.version if loaded else None, doc, events, first_seq, ttl,
            idempotency_key=idem[0] if idem else None,
            idempotency_record=idem[1] if idem else None,
            idempotency_ttl=min(self.config.idempotency_ttl, ttl))
        return version if ok else None

    def create_game(self, ruleset_name: str, players: int, seed: int | None,
                    options: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        ruleset = RULESETS.get(ruleset_name)
        if ruleset is None:
            raise ApiError(404, "ruleset_not_found",
                           f"there is no ruleset {ruleset_name!r}; available: "
                           f"{', '.join(sorted(RULESETS))}")
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ApiError(422, "invalid_players",
                           f"{ruleset.title} is for {ruleset.min_players} to "
                           f"{ruleset.max_players} players, not {players}")
        if seed is None:
            seed = secrets.randbits(63)
        try:
            state, events = ruleset.new_game(players, options, seed)
        except RulesError as err:
            raise ApiError.from_rules(err) from err
        host_token = new_token()
        now = self.clock()
        for _ in range(5):
            game_id = secrets.token_urlsafe(9)
            doc = {
                "id": game_id,
                "ruleset": ruleset.name,
                "players": players,
                "seed": seed,
                "options": options or {},
                "created": now,
                "updated": now,
                "status": OPEN,
                "host": token_hash(host_token),
                "seats": [],
                "state": state,
                "seq": len(events),
                "moves": [],
            }
            version = self._save(game_id, None, doc, events)
            if version is not None:
                loaded = Loaded(version, doc, None)
                return self.view(loaded, Caller(host=True)), host_token
        raise ApiError(503, "id_collision", "could not allocate a game id; try again")

    def join(self, game_id: str, name: str, idempotency_key: str | None = None,
             fingerprint: str = "") -> dict[str, Any]:
        """Take the next free seat. Returns ``{"seat", "token", "game"}``."""
        token = new_token()
        for _ in range(self.config.cas_attempts):
            loaded = self.load(game_id, self._idem_key("anon", idempotency_key))
            replay = self._replayed(loaded, fingerprint, idempotency_key)
            if replay is not None:
                return replay
            doc = loaded.doc
            if doc["status"] != OPEN:
                raise ApiError(409, "game_full", "every seat of this game is taken")
            if any(s["name"] == name for s in doc["seats"]):
                raise ApiError(409, "name_taken", f"a player called {name!r} is already seated")
            seat = len(doc["seats"])
            new_doc = dict(doc)
            new_doc["seats"] = doc["seats"] + [{"name": name, "token": token_hash(token)}]
            events: list[dict[str, Any]] = [{"type": "seat_taken", "seat": seat, "name": name}]
            if seat + 1 == doc["players"]:
                new_doc["status"] = PLAYING
                events.append({"type": "game_started"})
            new_doc["seq"] = doc["seq"] + len(events)
            new_doc["updated"] = self.clock()
            result_loaded = Loaded(loaded.version + 1, new_doc, None)
            result = {
                "seat": seat,
                "token": token,
                "game": self.view(result_loaded, Caller(seat=seat)),
            }
            idem = self._idem_record(loaded, "anon", idempotency_key, fingerprint, 201, result)
            if self._save(game_id, loaded, new_doc, events, idem) is not None:
                return result
        raise self._contention()

    def act(self, game_id: str, token: str | None, action: dict[str, Any],
            if_match: int | None = None, idempotency_key: str | None = None,
            fingerprint: str = "") -> dict[str, Any]:
        """One move by the caller's seat. Returns ``{"version", "events", "game"}``."""
        if token is None:
            raise ApiError(401, "missing_token", "a move needs the seat's bearer token",
                           headers={"WWW-Authenticate": "Bearer"})
        token_id = token_hash(token)[:16]
        for _ in range(self.config.cas_attempts):
            loaded = self.load(game_id, self._idem_key(token_id, idempotency_key))
            caller = self.authenticate(loaded.doc, token)
            replay = self._replayed(loaded, fingerprint, idempotency_key)
            if replay is not None:
                return replay
            if caller.seat is None:
                raise ApiError(403, "not_a_seat", "only a seated player can make moves; the host "
                               "token is for managing the game")
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
            try:
                state, events = ruleset.apply(doc["state"], caller.seat, action)
            except RulesError as err:
                raise ApiError.from_rules(err) from err
            if state is doc["state"]:  # an idempotent re-send: nothing to write
                return {"version": loaded.version, "events": [],
                        "game": self.view(loaded, caller)}
            new_doc = dict(doc)
            new_doc["state"] = state
            new_doc["moves"] = doc["moves"] + [[caller.seat, action]]
            new_doc["seq"] = doc["seq"] + len(events)
            new_doc["updated"] = self.clock()
            if ruleset.is_finished(state):
                new_doc["status"] = FINISHED
            result_loaded = Loaded(loaded.version + 1, new_doc, None)
            result = {
                "version": loaded.version + 1,
                "events": [self._numbered(doc["seq"] + 1 + i, e, ruleset, caller.viewer)
                           for i, e in enumerate(events)],
                "game": self.view(result_loaded, caller),
            }
            idem = self._idem_record(loaded, caller.token_id, idempotency_key, fingerprint, 200,
                                     result)
            if self._save(game_id, loaded, new_doc, events, idem) is not None:
                return result
            if if_match is not None:
                raise ApiError(412, "stale_version", "the game changed while this move was made")
        raise self._contention()

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

    # ------------------------------------------------------------------ events
    def events(self, loaded: Loaded, caller: Caller, after: int) -> list[dict[str, Any]]:
        ruleset = loaded.ruleset
        return [self._numbered(seq, e, ruleset, caller.viewer)
                for seq, e in self.store.events(loaded.doc["id"], after)]

    @staticmethod
    def _numbered(seq: int, event: dict[str, Any], ruleset: Ruleset, viewer: int | None
                  ) -> dict[str, Any]:
        out = {"seq": seq}
        out.update(redact_event(event, viewer))
        return out

    # ------------------------------------------------------------------ idempotency
    @staticmethod
    def _idem_key(token_id: str, key: str | None) -> str | None:
        return None if key is None else f"{token_id}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    def _idem_record(self, loaded: Loaded, token_id: str, key: str | None, fingerprint: str,
                     status: int, body: dict[str, Any]) -> tuple[str, bytes] | None:
        if key is None:
            return None
        record = orjson.dumps({"fp": fingerprint, "status": status,
                               "body": seal_secrets(body, loaded.doc["id"], key)})
        return self._idem_key(token_id, key), record  # type: ignore[return-value]

    @staticmethod
    def _replayed(loaded: Loaded, fingerprint: str, key: str | None) -> dict[str, Any] | None:
        if loaded.idem is None or key is None:
            return None
        record = orjson.loads(loaded.idem)
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

    def begin_create_idempotency(self, key: str, fingerprint: str) -> dict[str, Any] | None:
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
            record = orjson.loads(raw)
            if record["fp"] != fingerprint:
                raise ApiError(422, "idempotency_key_reused",
                               "this Idempotency-Key was used with a different request")
            return unseal_secrets(record["body"], "create", key)
        raise self._contention()

    def finish_create_idempotency(self, key: str, fingerprint: str, body: dict[str, Any]) -> None:
        record = {"fp": fingerprint, "body": seal_secrets(body, "create", key)}
        self.store.set(self._create_key(key), orjson.dumps(record), self.config.idempotency_ttl)

    def abort_create_idempotency(self, key: str) -> None:
        try:
            self.store.delete(self._create_key(key))
        except Exception:  # noqa: BLE001 - the record expires by itself anyway
            pass

    @staticmethod
    def _contention() -> ApiError:
        return ApiError(503, "contention", "the game is changing too fast; try again",
                        headers={"Retry-After": "1"})
