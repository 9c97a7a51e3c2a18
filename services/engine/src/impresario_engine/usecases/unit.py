"""The unit of work every use case runs in: load a game (one Redis read: its version, document,
idempotency record and rematch link), decide, save (one atomic write: a compare-and-set on the
version that also appends the events, stores the idempotency record and the list's summary).
Nothing is kept between calls, so any worker of any pod can serve any request; two requests
racing on one game never lose a move: the loser of the compare-and-set loads the game again and
decides again on the new state.

:class:`Engine` is what every use case is given: the store, the settings and the clock.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from impresario_rules import RULESETS, Ruleset

from ..config import Config
from ..metrics import CAS_RETRIES, GAMES, MOVES
from ..store import UNSCHEDULED, GameStore, StoreError
from ..table import listing
from ..table.access import new_game_id, new_secret
from ..table.sealing import Sealer
from ..table.webhooks import OperatorEndpoints
from ..table.clock import FINISHED, OPEN, PLAYING, next_deadline
from ..table.errors import BUSY, Refused, contention, game_not_found
from ..table.record import who_acts
from . import ratings

log = logging.getLogger("impresario_engine.usecases")


@dataclass
class Engine:
    """What the use cases work with: the game store, the settings, the clock (Unix seconds;
    tests move it by hand) and the sealer of the credentials in idempotency records (from the
    settings' ``seal_keys_file`` when not given)."""

    store: GameStore
    config: Config
    clock: Callable[[], float] = field(default=time.time)
    sealer: Sealer = field(default_factory=Sealer)
    #: the operator's webhook endpoints (``WEBHOOKS_FILE``; table/webhooks.py)
    hooks: OperatorEndpoints = field(default_factory=OperatorEndpoints)

    def __post_init__(self) -> None:
        if not self.sealer.keys and self.config.seal_keys_file:
            self.sealer = Sealer.from_file(self.config.seal_keys_file)
        if not self.hooks.endpoints and self.config.webhooks_file:
            try:
                with open(self.config.webhooks_file, encoding="utf-8") as fh:
                    self.hooks = OperatorEndpoints.parse(fh.read())
            except (OSError, ValueError) as exc:
                raise SystemExit(f"WEBHOOKS_FILE {self.config.webhooks_file}: {exc}") from exc


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


@dataclass(slots=True)
class Answer:
    """What a use case answers a request that may be retried with an Idempotency-Key: ``body``,
    whether it is the first answer given again (``replayed``), and the body's JSON when the use
    case made it already (a move's, whose record keeps its digest: ``encoded``)."""

    body: dict[str, Any]
    replayed: bool = False
    encoded: bytes | None = None

    def json(self) -> bytes:
        """The body's JSON, made once."""
        return self.encoded if self.encoded is not None else orjson.dumps(self.body)


@dataclass(slots=True)
class Save:
    """What a step decided: the game's new document and the events to append (and the
    idempotency record ``(field, record)`` to keep with them), saved with a compare-and-set;
    then the use case answers ``result``, or, with ``refusal``, refuses the request all the same
    (the deadlines that fell due before a move the rules or the clock refuse still count)."""

    doc: dict[str, Any]
    events: list[dict[str, Any]]
    result: Any = None
    idem: tuple[str, bytes] | None = None
    refusal: Exception | None = None
    #: a write that is no activity at the table (a flag the service keeps, usecases/push.py):
    #: the game's ``updated`` stays, so its idle time (ABANDON_AFTER_SECONDS) goes on
    quiet: bool = False


@dataclass(slots=True)
class Done:
    """A step that finished without writing (a replay, a no-op): its result."""

    result: Any


_MOVE_COUNTERS: dict[tuple[str, str, str], Any] = {}


def load(engine: Engine, game_id: str, idempotency_key: str | None = None) -> Loaded:
    version, doc, idem, rematch = engine.store.read_game(game_id, idempotency_key)
    if doc is None:
        raise game_not_found(game_id)
    return Loaded(version, doc, idem, rematch)  # type: ignore[arg-type]


def transact(engine: Engine, game_id: str, step: Callable[[Loaded], Save | Done],
             idempotency_key: str | None = None) -> Any:
    """Run ``step`` on the freshly loaded game and save what it decided with a compare-and-set,
    again on a fresh copy whenever another writer got there first. ``step`` returns a
    :class:`Save`, a :class:`Done`, or raises."""
    for _ in range(engine.config.cas_attempts):
        loaded = load(engine, game_id, idempotency_key)
        outcome = step(loaded)
        if isinstance(outcome, Done):
            return outcome.result
        if save(engine, game_id, loaded, outcome.doc, outcome.events, outcome.idem,
                quiet=outcome.quiet) is not None:
            if outcome.refusal is not None:
                raise outcome.refusal
            return outcome.result
    raise contention()


def save(engine: Engine, game_id: str, loaded: Loaded | None, doc: dict[str, Any],
         events: list[dict[str, Any]], idem: tuple[str, bytes] | None = None,
         quiet: bool = False) -> int | None:
    """Compare-and-set; returns the new version, or None when another writer won. ``quiet``:
    the write is no activity at the table, the game's ``updated`` stays."""
    store, config = engine.store, engine.config
    first_seq = (loaded.doc["seq"] if loaded else 0) + 1
    doc["seq"] = first_seq - 1 + len(events)
    if not quiet or loaded is None:
        doc["updated"] = engine.clock()
    ruleset = RULESETS[doc["ruleset"]]
    deadline = next_deadline(doc, ruleset, who_acts(ruleset, doc["state"]))
    doc["scheduled"] = deadline is not None
    keep = ttl(config, doc["status"])
    version_next = loaded.version + 1 if loaded else 1
    # the list of games first (table/listing.py: why a game is then never missing from its list)
    announce(engine, loaded.doc if loaded else None, doc, version_next)
    finishing = doc["status"] == FINISHED and (loaded is None or loaded.doc["status"] != FINISHED)
    # a rated game's finish is queued first, so a pod that dies after the write loses nothing
    rated = finishing and ratings.about_to_finish(store, doc, engine.clock())
    # the deadline index the reaper reads (advisory: the reaper re-checks every game)
    due = deadline if deadline is not None else UNSCHEDULED \
        if loaded is not None and loaded.doc.get("scheduled") else None
    ok, version = store.write(
        game_id, loaded.version if loaded else None, doc, events, first_seq, keep,
        idempotency_key=idem[0] if idem else None,
        idempotency_record=idem[1] if idem else None,
        idempotency_ttl=min(config.idempotency_ttl, keep),
        summary=orjson.dumps(listing.summary(doc, version_next)), deadline=due,
        notify=bool(doc.get("notify")))
    if not ok:
        CAS_RETRIES.inc()
        return None
    _count(loaded, doc)
    if finishing:
        _archive(engine, game_id, version, doc)
        if rated:
            ratings.finished(store, config, doc)
    return version


def insert(engine: Engine, fields: dict[str, Any], events: list[dict[str, Any]],
           game_id: str | None = None) -> tuple[int, dict[str, Any]] | None:
    """Store a new open game made of ``fields`` (ruleset, players, seed, options, settings,
    tokens' hashes, seats, state…): its version and document. Under ``game_id`` when given
    (None when a game has that id already), else under a fresh id."""
    now = engine.clock()
    if not fields.get("notify") and engine.hooks.covering(fields):
        # an operator's endpoint covers every game, or the platform's: a rematch and a quick
        # match too, however the game came to be
        fields = {**fields, "notify": True}
    for _ in range(1 if game_id is not None else 5):
        gid = game_id or new_game_id()
        doc = {"id": gid, **fields,
               # the bots' randomness (their choices and think times): never sent to anyone
               "secret": new_secret(),
               "created": now, "updated": now, "status": OPEN,
               "seq": 0, "since": {}, "moves": []}
        version = save(engine, gid, None, doc, events)
        if version is not None:
            return version, doc
    if game_id is not None:
        return None
    raise Refused("id_collision", BUSY, "could not allocate a game id; try again")


def ttl(config: Config, status: str) -> int:
    """How long Redis keeps a game after a write: finished, in play, or open (not started:
    OPEN_GAME_TTL_SECONDS, so a game nobody joins goes soon)."""
    if status == FINISHED:
        return config.finished_ttl
    return config.open_game_ttl if status == OPEN else config.idle_ttl


def due_time(config: Config, status: str, updated: float) -> float:
    """When the game leaves its list: when Redis lets it expire, or for a game in play with
    ABANDON_AFTER_SECONDS, when the reaper may finish it."""
    keep = ttl(config, status)
    abandon = config.abandon_after
    return updated + (min(abandon, keep) if status == PLAYING and abandon else keep)


def announce(engine: Engine, before: dict[str, Any] | None, doc: dict[str, Any],
             version: int) -> None:
    """Before a write: enter the game in the list the write gives it, when that changes."""
    target = listing.list_of(doc)
    if before is not None and listing.list_of(before) == target:
        return
    engine.store.lobby.note(doc["id"], version, target, listing.member(doc["id"], doc["created"]),
                            due_time(engine.config, doc["status"], doc["updated"]))


def _archive(engine: Engine, game_id: str, version: int, doc: dict[str, Any]) -> None:
    """Make the just-finished game compact. The move is saved already: if Redis fails now, the
    game stays as it was (correct, only larger) until it expires."""
    try:
        done = engine.store.archive(game_id, version, doc,
                                    engine.config.finished_idempotency_seconds * 1000)
    except StoreError as exc:  # the move stands all the same
        log.warning("archiving finished game %s failed: %s", game_id, exc)
    else:
        if not done:
            log.warning("finished game %s was not archived: it changed, or its event stream is "
                        "not whole", game_id)


def _count(loaded: Loaded | None, doc: dict[str, Any]) -> None:
    """Metrics of a saved write."""
    before = loaded.doc if loaded is not None else None
    if before is None:
        GAMES.labels("created").inc()
        return
    for _seat, move, by in doc["moves"][len(before["moves"]):]:
        key = (doc["ruleset"], str(move.get("type")), by)
        counter = _MOVE_COUNTERS.get(key)
        if counter is None:  # a label lookup takes a lock: once per combination
            counter = _MOVE_COUNTERS[key] = MOVES.labels(*key)
        counter.inc()
    if doc["status"] == FINISHED and before["status"] != FINISHED:
        GAMES.labels("finished").inc()
