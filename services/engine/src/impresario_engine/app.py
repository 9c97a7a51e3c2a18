"""``create_app(config)``: wiring only — settings, Redis, blueprints, errors, probes and metrics."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from flask import Flask, Response
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from impresario_rules import RULESETS, Refusal

from . import __version__
from .api import contract
from .api import docs as docs_ui
from .api import edge
from .api import games as games_api
from .api import lobby as lobby_api
from .api import ops as ops_api
from .api import players as players_api
from .api import push as push_api
from .api import rulesets as rulesets_api
from .api import schemas as s
from .api import schemas_rulesets as sr
from .api import web as web_client
from .api import webhooks as webhooks_api
from .api.declared import MOVE_SCHEMAS, SPACE_SCHEMAS, UNIONS, move_schemas, schema_for
from .api.identity import Verifier, load_issuers
from .api.errors import ApiError, RequestTimeout, problem_of, respond
from .api.move_route import MoveRoute
from .config import Config
from .logs import configure_logging
from .store import GameStore, StoreUnavailable, connect
from .usecases.unit import Engine

log = logging.getLogger("impresario_engine")

class _Api(Api):
    # every error is documented per operation as problem JSON; no generic "default" entry
    DEFAULT_ERROR_RESPONSE_NAME = None


def create_app(config: Config | dict[str, Any] | None = None, *,
               clock: Callable[[], float] | None = None) -> Flask:
    """The engine's Flask app on the settings ``config`` (a :class:`Config`, or overrides of
    the environment's). ``clock`` (Unix seconds; default ``time.time``) is the time every
    deadline, bot think time and expiry is counted in: tests move it instead of waiting."""
    if isinstance(config, Config):
        cfg = config
    else:
        cfg = Config.from_env().with_overrides(config)
    if not cfg.redis_url:
        raise RuntimeError("REDIS_URL is not set: run the service with `make run` (embedded "
                           "Redis) or point REDIS_URL (or REDIS_URL_FILE) at a Redis server")
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Impresario engine",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=cfg.max_body_bytes,
        API_SPEC_OPTIONS={
            "info": {"description": "Card games played with secret bids: create a game, take "
                                    "seats, submit sealed bids, make decisions, follow events "
                                    "and score. Errors are application/problem+json with a "
                                    "stable `code`, also those refused before they reach an "
                                    "operation (400 `bad_request`, 408 `request_timeout`, "
                                    "414 `uri_too_long`, 431 `headers_too_large`)."},
            "servers": [{"url": "/"}],
        },
    )
    app.config["IMPRESARIO"] = cfg
    api = _Api(app)
    _document(api)
    api.register_blueprint(rulesets_api.blp)
    api.register_blueprint(games_api.blp)
    api.register_blueprint(lobby_api.blp)
    api.register_blueprint(ops_api.blp)
    app.url_map.converters["player_id"] = players_api.PlayerIdConverter
    api.register_converter(players_api.PlayerIdConverter, players_api.player_id_schema)
    api.register_blueprint(players_api.blp)
    api.register_blueprint(push_api.blp)
    api.register_blueprint(webhooks_api.blp)
    app.register_blueprint(docs_ui.bp)  # Swagger UI from the pinned package, not a CDN
    app.register_blueprint(web_client.blp)  # the browser table: static files, not in the spec
    for unused in ("Error", "PaginationMetadata"):  # flask-smorest's defaults; ours is Problem
        api.spec.components.schemas.pop(unused, None)
    # what apispec cannot say itself, said for every operation (api/contract.py)
    described = api.spec.to_dict
    api.spec.to_dict = lambda: contract.finish(described())  # type: ignore[method-assign]

    if cfg.vapid_private_key_file:  # Web Push on: its key read now, a bad one stops the start
        from .usecases import push

        try:
            push.vapid(cfg)
        except push.VapidKeyError as exc:
            raise SystemExit(f"VAPID_PRIVATE_KEY_FILE: {exc}") from None
    store = GameStore(connect(cfg.redis_url, cfg.redis_timeout))
    app.extensions["impresario"] = Engine(store, cfg, clock or time.time)
    app.extensions["impresario_store"] = store
    issuers = {}
    if cfg.trusted_issuers_file:
        with open(cfg.trusted_issuers_file, encoding="utf-8") as fh:
            issuers = load_issuers(fh.read())
    app.extensions["impresario_identity"] = Verifier(issuers, clock or time.time)
    app.extensions["impresario_api"] = api
    _errors(app, cfg.max_body_bytes)
    configure_logging(cfg.log_level)
    shared = edge.install(app, cfg, store)
    # moves are answered in front of Flask's request machinery, everything else behind it
    move_rule = next(r.rule for r in app.url_map.iter_rules() if r.endpoint == "games.make_move")
    app.wsgi_app = MoveRoute(app.wsgi_app, app.extensions["impresario"], cfg,  # type: ignore[method-assign]
                             shared, move_rule)
    if cfg.trusted_proxies:  # the client's address, for every route the move's included
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=cfg.trusted_proxies,  # type: ignore[method-assign]
                                x_proto=cfg.trusted_proxies)
    return app


def _document(api: Api) -> None:
    spec = api.spec
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer",
                                               "description": "a seat token or the host token"})
    _union(spec, "CreateGame", "ruleset", {
        name: _component(spec, schema) for name, schema in s.create_game_schemas().items()})
    spec.components.schema("FieldErrors", s.FIELD_ERRORS)
    spec.components.schema("Join", schema=s.JoinSchema)
    spec.components.schema("NewPlayer", schema=players_api.s.NewPlayerSchema)
    spec.components.schema("Claim", schema=players_api.s.ClaimSchema)
    spec.components.schema("MatchRequest", schema=players_api.s.MatchRequestSchema)
    spec.components.schema("PushSubscription", schema=push_api.s.PushSubscriptionSchema)
    spec.components.schema("Calculator", schema=sr.CalculatorSchema)
    spec.components.schema("WordJamValueRequest", schema=s.WordJamValueRequestSchema)
    spec.components.schema("WordCheckRequest", schema=s.WordCheckRequestSchema)
    spec.components.schema("NewWebhook", schema=webhooks_api.NewWebhookSchema)
    games, scores = {}, {}
    for ruleset, (game_schema, score_schema) in s.VIEW_SCHEMAS.items():
        scores[ruleset] = _component(spec, score_schema)
        games[ruleset] = _component(spec, game_schema)
    _union(spec, "Game", "ruleset", games)
    _union(spec, "Score", "ruleset", scores)
    _union(spec, "Move", "type", {kind: _component(spec, schema)
                                  for kind, schema in MOVE_SCHEMAS.items()})
    for ruleset in RULESETS.values():  # a ruleset's own moves: what its bots return
        _union(spec, ruleset.title.replace(" ", "") + "Move", "type",
               {kind: _ref(schema) for kind, schema in move_schemas(ruleset).items()})
    _union(spec, "ActionSpace", "type", {kind: _component(spec, schema)
                                         for kind, schema in SPACE_SCHEMAS.items()})
    _union(spec, "Event", "type", {kind: _component(spec, schema)
                                   for kind, schema in s.EVENT_SCHEMAS.items()})
    for union in UNIONS.values():
        _union(spec, union.name, union.by, {
            tag: _component(spec, schema_for(shape)) for tag, shape in union.mapping().items()},
            union.doc)


def _component(spec, schema) -> str:
    """Register ``schema`` under its class name without "Schema" (unless a schema holding it
    has already); its $ref."""
    name = schema.__name__.removesuffix("Schema")
    if name not in spec.components.schemas:
        spec.components.schema(name, schema=schema)
    return _ref(schema)


def _ref(schema) -> str:
    """The $ref of a component registered by :func:`_component`."""
    return f"#/components/schemas/{schema.__name__.removesuffix('Schema')}"


def _union(spec, name: str, field: str, mapping: dict[str, str], doc: str = "") -> None:
    """A oneOf of the components in ``mapping`` ($refs), told apart by ``field`` (its value:
    the key in ``mapping``)."""
    spec.components.schema(name, {
        "oneOf": [{"$ref": r} for r in mapping.values()],
        "discriminator": {"propertyName": field, "mapping": mapping},
        **({"description": doc} if doc else {}),
    })


def _errors(app: Flask, max_body: int) -> None:
    """Every error a request ends in answered as problem JSON, by the one problem writer the
    move's route uses too (``api/errors.problem_of``)."""
    def _answer(err: Exception) -> Response:
        return respond(problem_of(err, max_body))

    for kind in (ApiError, Refusal, StoreUnavailable, RequestTimeout, HTTPException, Exception):
        app.register_error_handler(kind, _answer)


