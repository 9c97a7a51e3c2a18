"""``/v1/games``: create a game, take seats, read the caller's view, move, follow events, score."""

from __future__ import annotations


from flask import Response, request
from flask_smorest import Blueprint
from impresario_rules.wordjam.words import EMPTY, INVALID_CHARACTERS, REASON_TEXT, TOO_LONG

from ..usecases import create, play, reading, seats, tickets
from . import schemas as s
from . import schemas_streams as ss
from . import streams
from .players import is_player_bearer, platform_of, player_of
from .declared import load_body
from .credentials import checked_game_id, credentials_first
from .edge import client_address
from .documented import problems
from .errors import ApiError
from .http import (GAME_ID_PATTERN, IDEMPOTENCY_KEY_PATTERN, IF_MATCH_PATTERN, JWT_MAX, bearer_token, engine, etag,
                   fingerprint, idempotency_key, json_body, json_response, replay_headers)

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="Games: seats, views, moves, events and scores")

#: the path's game id, documented with its pattern (another id is 404 game_not_found)
GAME_ID_PARAM = [{"in": "path", "name": "game_id", "required": True,
                  "schema": {"type": "string", "pattern": GAME_ID_PATTERN},
                  "description": "the game's id, as created"}]
AUTH = [{"bearer": []}, {}]


@blp.before_request
def _credentials_first() -> None:
    """The credentials are checked before anything else in the request (``credentials.py``)."""
    credentials_first(request.endpoint or "", request.headers.get("Authorization"),
                      request.args, streams.wants_stream())


def _read(game_id: str):
    """The game and its caller: the bearer token's, else a spectator link's (``?spectator=``,
    which opens only with a private game's spectator token: a seat's or the host's token never
    belongs in a URL)."""
    token = bearer_token()
    link = None if token is not None else (request.args.get("spectator") or None)
    return reading.read(engine(), checked_game_id(game_id), token, link=link)


SPECTATOR_PARAM = {"in": "query", "name": "spectator", "required": False,
                   "schema": {"type": "string", "maxLength": 256},
                   "description": "the token of a private game's spectator link"}


def _none_match(header: str | None, tag: str) -> bool:
    """RFC 9110 If-None-Match: ``*`` or a list of tags, compared weakly (``W/"3"`` matches)."""
    if header is None:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in tags or tag in tags


IDEMPOTENCY_PARAM = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
    "description": "1 to 200 visible ASCII characters, spaces allowed between them. Same key "
                   "and request (body and query, a join link's `?join=` included) from the same "
                   "caller: the same response again, marked `Idempotent-Replayed` (the request "
                   "is not made twice); another body or query: 422 "
                   "`idempotency_key_reused`. The caller is the bearer token; a request "
                   "without one (creating a game, taking a seat) is bound to the client's "
                   "address too, so its replay, which carries the new host or seat token, "
                   "goes only to the same key from the same address: from another address "
                   "the key answers 409 `idempotency_key_taken` and no token. Use a fresh "
                   "random key per request (the SDK sends a UUID) and keep it as private as "
                   "a token until the response has arrived. Keys are remembered for "
                   "`IDEMPOTENCY_TTL_SECONDS` (a day) after the game's last keyed request, "
                   "and for `FINISHED_IDEMPOTENCY_SECONDS` (10 minutes) once the game is over"}

_GAME_FROM_CREATE = {"game_id": "$response.body#/game/id"}
_GAME_FROM_PATH = {"game_id": "$request.path.game_id"}
CREATE_LINKS = {name: {"operationId": name, "parameters": _GAME_FROM_CREATE}
                for name in ("getGame", "joinGame", "getActions", "makeMove", "getEvents",
                             "getScore")}
CREATE_LINKS["listGames"] = {"operationId": "listGames",
                             "parameters": {"ruleset": "$request.body#/ruleset"}}
JOIN_LINKS = {name: {"operationId": name, "parameters": _GAME_FROM_PATH}
              for name in ("getGame", "joinGame", "getActions", "makeMove", "getEvents",
                           "resolveGame")}
JOIN_LINKS["leaveSeat"] = {"operationId": "leaveSeat",
                           "parameters": {**_GAME_FROM_PATH, "seat": "$response.body#/seat"}}
MOVE_LINKS = {name: {"operationId": name, "parameters": _GAME_FROM_PATH}
              for name in ("getGame", "getActions", "makeMove", "getEvents", "getScore",
                           "getReplay", "resolveGame", "requestRematch")}


@blp.route("", methods=["POST"])
@blp.doc(operationId="createGame", security=AUTH, responses={201: {"links": CREATE_LINKS}},
         parameters=[IDEMPOTENCY_PARAM], requestBody={
    "required": True, "content": {"application/json": {"schema": "CreateGame",
                                                       "example": {"ruleset": "turandot", "players": 4, "seed": 7,
                                                                   "options": {"first_maestro": 0}}}}})
@blp.response(201, s.CreatedGameSchema, description="The game, and the host token (shown once)",
              headers={"Location": {"description": "the game's URL", "schema": {"type": "string"}}})
@problems(400, 401, 409, 413, 415, 404, 422, 503, blueprint=blp)
def create_game():
    """Create a game

    The game opens with every seat free and starts when the last seat is taken. The response
    carries the host token, shown only once; a private game also gets a spectator token and
    link, without which spectators see nothing, and a join token and link, without which
    nobody but the host takes a seat (the two links are distinct: the spectator link never
    seats anyone). `options.move_seconds` sets a deadline per
    move: when it passes, the engine plays the seat's default move. `options.bot_seconds`
    (0-3600) is the longest a bot seat thinks before a move (Word Jam 20 by default, others 0).
    A game created with `seed` says `seeded: true` in every view: whoever chose the seed can
    work out its deck, so seeded games are for practice, tests and replays.

    With a player's bearer (a player credential, or a trusted platform's JWT) the game is the
    player's: it is among their games (`GET /v1/me/games`), and the host's own seat (taken
    with the host token) is theirs. `rated` (default: public games) rates the players when the
    game ends, if every seat is a player's or a bot's.
    """
    token = bearer_token(JWT_MAX)
    player = player_of(token).id if token is not None and is_player_bearer(token) else None
    platform = platform_of(token) if player is not None else None
    body = load_body(_CREATE, json_body())
    key = idempotency_key()
    answer = create.create_game(engine(), body["ruleset"], body["players"], body.get("seed"),
                                body.get("options"), private=body["private"],
                                idempotency_key=key, fingerprint=fingerprint() if key else "",
                                client=client_address(), host_player=player,
                                rated=body.get("rated"), platform=platform)
    headers = replay_headers(answer)
    headers["Location"] = f"/v1/games/{answer.body['game']['id']}"
    if not answer.replayed:
        headers["ETag"] = etag(answer.body["game"]["version"])
    return json_response(answer.json(), 201, headers)


@blp.route("/<game_id>", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getGame", security=AUTH, parameters=[SPECTATOR_PARAM])
@blp.response(200, "Game", description="The game as the caller may see it",
              headers={"ETag": {"description": "the game's version", "schema": {"type": "string"}}})
@blp.alt_response(304, description="Not modified since the If-None-Match version")
@problems(401, 403, 404, 503, blueprint=blp)
def get_game(game_id: str):
    """Get the caller's view of a game

    A seat token shows that seat's hand and bid; the host token or no token shows the
    spectator's view (a private game needs its spectator link). Deadlines that have passed are
    applied first.
    """
    ctx = engine()
    loaded, caller = _read(game_id)
    tag = etag(loaded.version)
    if _none_match(request.headers.get("If-None-Match"), tag):
        return json_response(None, 304, {"ETag": tag})
    return json_response(reading.view(ctx, loaded, caller), 200, {"ETag": tag})


JOIN_PARAM = {"in": "query", "name": "join", "required": False,
              "schema": {"type": "string", "maxLength": 256},
              "description": "a private game's join token: the `join` parameter of its join "
                             "link, `/v1/games/{game_id}/seats?join=<join_token>`"}


@blp.route("/<game_id>/seats", methods=["POST"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="joinGame", security=AUTH, responses={201: {"links": JOIN_LINKS}},
         parameters=[IDEMPOTENCY_PARAM, JOIN_PARAM],
         requestBody={"required": True, "content": {"application/json": {
             "schema": "Join", "examples": {"player": {"value": {"name": "Anna"}},
                                            "bot": {"value": {"name": "Robo", "bot": "medium"}}}}}})
@blp.response(201, s.JoinedSchema, description="The seat taken and its token (shown once)")
@problems(400, 401, 403, 404, 409, 413, 415, 422, 503, blueprint=blp)
def join_game(game_id: str):
    """Take the next free seat

    Seats are given in join order, clockwise. The game starts when the last seat is taken.
    With the host's token and `bot` (a level of the ruleset's `bots`: "easy", "medium",
    Turandot's "hard"; or an older name of one, "random", "greedy", "wordsmith") the seat is a
    bot's: the engine plays it, and no token is returned. A bot moves once its think time is over (option
    `bot_seconds`; 0, the default for Turandot and Muzicando, plays it inside the request that
    makes it its turn); when is never shown.

    A private game seats the host (its token as the bearer) and whoever brings its join link:
    POST to the link (`/v1/games/{game_id}/seats?join=<join_token>`). Without it: 403
    `join_link_required`; with the spectator token: 403 `spectator_read_only` (that token
    never writes); with a wrong one: 403 `invalid_join_token`.

    With a player's bearer (a player credential, or a trusted platform's JWT) instead of a
    token of the game, the seat is the player's: it is among their games, and from any device
    `POST /v1/me/games/{game_id}/resume` hands them a fresh seat token (the old one ends). A
    player sits at a game once (409 `player_seated`).
    """
    token = bearer_token(JWT_MAX)
    player = None
    if is_player_bearer(token):
        player, token = player_of(token).id, None  # type: ignore[arg-type]
    body = load_body(_JOIN, json_body())
    key = idempotency_key()
    join_token = request.args.get("join")  # its form is checked first (_credentials_first)
    answer = seats.join(engine(), checked_game_id(game_id), body["name"], key,
                        fingerprint() if key else "", token=token, bot=body.get("bot"),
                        client=client_address(), join_token=join_token, player=player)
    headers = replay_headers(answer)
    headers["Location"] = f"/v1/games/{game_id}"
    return json_response(answer.json(), 201, headers)


@blp.route("/<game_id>/actions", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getActions", security=AUTH, parameters=[SPECTATOR_PARAM])
@blp.response(200, s.ActionsSchema, description="The caller's legal moves now")
@problems(401, 403, 404, 503, blueprint=blp)
def get_actions(game_id: str):
    """List the caller's legal moves

    Empty for spectators and for seats with nothing to do now.
    """
    loaded, caller = _read(game_id)
    return json_response(reading.actions(loaded, caller))


@blp.route("/<game_id>/guide", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getGuide", security=[{"bearer": []}])
@blp.arguments(s.GuideQuerySchema, location="query", as_kwargs=True)
@blp.response(200, s.GuideSchema, description="The seat's step in its guided game")
@problems(401, 403, 404, 409, 422, 503, blueprint=blp)
def get_guide(game_id: str, lang: str = "en"):
    """Get the caller's step in a guided game

    A guided game (option `guided`) tells its player, at every moment, what to do now and why:
    the step's `text` in `lang` (en, it, de, fr), with the section of the rules behind it
    (`anchor`, `rule_title`: `GET /web/rules/{ruleset}?lang=` has the section). The step is made
    from the seat's own view and actions, never from anything the seat cannot see. 403
    `not_a_seat` without a seat's token; 409 `not_guided` for a game without the option.
    """
    loaded, caller = _read(game_id)
    return json_response(reading.guide(engine(), loaded, caller, lang))


@blp.route("/<game_id>/moves", methods=["POST"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="makeMove", security=[{"bearer": []}],
         responses={200: {"links": MOVE_LINKS}}, requestBody={
    "required": True, "content": {"application/json": {
        "schema": "Move",
        "examples": {
            "bid": {"value": {"type": "bid", "slot": 3, "money": 1, "bluff": False}},
            "helper": {"value": {"type": "bid", "slot": None, "money": 1, "bluff": True}},
            "assign_office": {"value": {"type": "assign_office", "assignments": [{"seat": 2, "slot": 5}]}},
            "nominate": {"value": {"type": "nominate", "seat": 1}},
            "fire_director": {"value": {"type": "fire_director", "director": "neutral"}},
            "cast": {"value": {"type": "cast", "roles": ["S04", "S01", "S10", "S02", "S03", "S07"]}},
        }}}},
    parameters=[{"in": "header", "name": "If-Match", "required": False,
                 "schema": {"type": "string", "pattern": IF_MATCH_PATTERN},
                 "description": "the ETag the move is based on (412 if the game moved on)"},
                IDEMPOTENCY_PARAM])
@blp.response(200, s.MoveResultSchema, description="The move's events and the new view")
@problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 503, blueprint=blp)
def make_move(game_id: str):
    """Make a move

    A sealed bid, or a decision the rules hand to the caller. Bids are revealed, and the round
    resolved, the moment the last bid arrives.

    A move is about the situation its sender saw. Deadlines that passed, and bot moves whose
    think time is over, are played first, in the order they fell due. When they changed the
    caller's situation (the round, turn or hand, the phase, or the kinds of move the seat must
    make) or played the caller's own default, the move is refused with `409 deadline_passed`:
    the problem carries the new situation (`round`, `turn` or `hand`, `phase`, `pending`, and
    Word Jam's `extra_turn`, `attempt`, `word_id`), the `version` the game is now at and
    `default_played`. With `If-Match`, the move is refused whenever anything fell due before it:
    `409 deadline_passed` when the situation changed, else `412 stale_version` with the new
    `version`. What fell due is saved in every case, and nothing else. When another request (a
    read, an event stream, the reaper) played what fell due first, the game remembers it for
    `LATE_MOVE_SECONDS` (2 by default): a move that arrives within them without `If-Match` (or
    the round or word it names) is judged against the situation before, `409 deadline_passed`
    when that changed. Send `If-Match` so that a move is judged by the version its sender saw,
    whenever it arrives. A searching bot's move
    (`hard`) is made only by the engine's background player, never by a request: a move that
    arrives while one is due is made before it, unless the caller's own deadline has passed
    meanwhile (`409 deadline_passed` with `default_played` false: the default follows the bot's
    move).

    The body is one of the game's own moves: a `type` that is missing or not one of its
    ruleset's is 422 `unknown_move_type` (the problem's `move_types` lists them), a field
    missing, of the wrong type or unknown is 422 `invalid_body`. Values are the rules' to judge,
    by the game's own range or set (a 2-player Turandot's slots are 1 to 3:
    `slot_out_of_range`). Checked in this order: the token's presence and form (401), the body's
    JSON and the headers (415, 413, 400), the game (404), the token (401, 403), the move's type
    and fields (422), `If-Match` and what fell due (412, 409), the state of play (409), the rules
    (422).
    """
    # every POST here is answered in front of Flask, by the move's own route: this view only
    # documents the operation (the spec is generated from it)
    raise RuntimeError("POST /v1/games/{game_id}/moves is answered by api/move_route.py")


_STREAM_204 = (
    "The game is over and the caller has every event (`Last-Event-ID`, else `after`, is at "
    "least its last sequence number): with `Accept: text/event-stream` only. No body; a "
    "browser's EventSource stops reconnecting on it")


@blp.route("/<game_id>/events", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getEvents", security=AUTH, parameters=[
    {"in": "query", "name": "after", "required": False,
     "schema": {"type": "integer", "minimum": 0, "maximum": 2**53, "default": 0},
     "description": "only events with a greater sequence number"},
    SPECTATOR_PARAM, ss.TICKET_PARAM,
    {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"},
     "description": "SSE: resume after this event's sequence number"}],
    responses={200: {"content": {"text/event-stream": {"schema": {
        "type": "string",
        "description": "Server-sent events: `id` is the sequence number, `event` the type, "
                       "`data` the event as JSON (an `Event`, as `contentSchema` says); "
                       "comment lines are heartbeats",
        "contentMediaType": "application/json",
        "contentSchema": {"$ref": "#/components/schemas/Event"}}}}}})
@blp.arguments(ss.StreamEventsQuerySchema, location="query", as_kwargs=True)
@blp.response(200, s.EventsSchema, description="Events after the given sequence number")
@blp.alt_response(204, description=_STREAM_204)
@problems(401, 403, 404, 422, 503, blueprint=blp, examples={
    401: ("invalid_ticket", "the stream ticket is not valid: unknown, already used, or for "
                            "another game; ask for a new one")})
def get_events(game_id: str, after: int = 0, spectator: str | None = None,
               ticket: str | None = None):
    """Follow the game's events

    The events the caller may see after `after` (a sequence number), redacted per viewer
    like the view. With `Accept: text/event-stream` the same URL streams them as server-sent
    events, resumable with `Last-Event-ID`, with heartbeats. A stream closes after the game's
    last event; once the game is over, a stream asked for by a caller that has every event
    (`Last-Event-ID`, else `after`, at or past the game's last sequence number) is 204 No
    Content, which stops a browser's EventSource from reconnecting.

    A seat's stream (or the host's) needs its token, as a bearer token; a browser's
    EventSource, which cannot send one, brings a stream ticket instead (`?ticket=`, from
    `POST /v1/games/{game_id}/stream-tickets`): the stream is then exactly what the token's
    would be. A ticket opens one stream, once: it is refused (401 `invalid_ticket`) when
    unknown, expired, used already, of another game, beside another credential, or on a
    request that is not a stream.
    """
    ctx = engine()
    if ticket is not None:
        loaded, caller = tickets.redeem(ctx, checked_game_id(game_id), ticket,
                                        opens=request.method == "GET" and streams.wants_stream())
    else:
        loaded, caller = _read(game_id)
    if streams.wants_stream():
        after = streams.resume_after(after)
        if loaded.doc["status"] == "finished" and after >= loaded.doc["seq"]:
            return Response(status=204, headers={"Cache-Control": "no-store"})
        return streams.event_stream(ctx, loaded, caller, after)
    events = reading.events(ctx, loaded, caller, after)
    return json_response({"events": events, "last_seq": loaded.doc["seq"]})


@blp.route("/<game_id>/stream-tickets", methods=["POST"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="createStreamTicket", security=[{"bearer": []}])
@blp.response(201, ss.StreamTicketSchema, description="A ticket for one event stream",
              example={"ticket": "3mV0c1Jx8kQm2b7Zr5TqWn4yHd9aLs0E",
                       "expires_at": 1767225660,
                       "url": "/v1/games/q3Jx0Lr2mTZ_/events?ticket=3mV0c1Jx8kQm2b7Zr5TqWn4yHd9aLs0E"})
@problems(401, 404, 503, blueprint=blp)
def create_stream_ticket(game_id: str):
    """Get a stream ticket

    For a browser's `EventSource`, which cannot send an Authorization header: with a token of
    the game as the bearer (a seat's, the host's, or a private game's spectator token), a
    ticket that opens the game's event stream once, as that token would (a seat's ticket
    shows that seat's own secrets, and its stream ends after its own `seat_left` like the
    token's): `new EventSource(url)`. It is good for `STREAM_TICKET_SECONDS` (60) and for
    one stream: a page that reconnects asks for a new one each time, with `&after=<seq>` of
    the last event it has. Only the ticket's hash is stored. No body.
    """
    gid = checked_game_id(game_id)
    result = tickets.issue(engine(), gid, bearer_token())
    result["url"] = f"/v1/games/{gid}/events?ticket={result['ticket']}"
    return json_response(result, 201)


@blp.route("/<game_id>/resolve", methods=["POST"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="resolveGame", security=[{"bearer": []}])
@blp.response(200, s.MoveResultSchema, description="The defaults applied and the new view")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def resolve_game(game_id: str):
    """Apply the defaults that are due

    For games with `move_seconds`: plays the default move of every seat whose deadline has
    passed (and any bot moves that follow). 409 `nothing_due` when no deadline has passed.
    Needs the host's or a seat's token.
    """
    result = play.resolve(engine(), checked_game_id(game_id), bearer_token())
    return json_response(result, 200, {"ETag": etag(result["version"])})


@blp.route("/<game_id>/replay", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getReplay", security=AUTH, parameters=[SPECTATOR_PARAM])
@blp.response(200, s.ReplaySchema, description="Seed, options and every move, secrets revealed")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def get_replay(game_id: str):
    """Get the replay of a finished game

    The seed, the options and the full list of moves (who made each: the seat, its bot, or the
    engine when a deadline passed), every secret revealed now that the game is over. Replaying
    the moves through the rules from the seed reproduces every state and the score.
    """
    loaded, _caller = _read(game_id)
    return json_response(reading.replay(loaded))


@blp.route("/<game_id>/replay/<int:step>", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getReplayStep", security=AUTH)
@blp.arguments(s.ReplayStepQuerySchema, location="query", as_kwargs=True)
@blp.response(200, s.ReplayStepSchema, description="The table after `step` moves")
@problems(401, 403, 404, 409, 422, 503, blueprint=blp)
def get_replay_step(game_id: str, step: int, seat: int | None = None,
                    spectator: str | None = None):
    """Get a finished game's table after a number of moves

    The view after `step` moves (0: as dealt), by a spectator or, with `seat`, by that
    seat (its hand included), replayed from the seed through the moves as `/replay` shows
    them (what the rules never reveal stays hidden here too): what a replay viewer steps
    through. `move` is the move that led there. 404 `step_not_found` beyond the last move.
    """
    loaded, _caller = _read(game_id)
    return json_response(reading.replay_step(engine(), loaded, step, seat))


@blp.route("/<game_id>/word-check", methods=["POST"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="checkWord", security=AUTH, parameters=[SPECTATOR_PARAM], requestBody={
    "required": True, "content": {"application/json": {"schema": "WordCheckRequest",
                                                        "example": {"word": "scissors"}}}})
@blp.response(200, s.WordCheckSchema, description="The word's coins now, and whether a call "
              "with it would be taken")
@problems(400, 401, 403, 404, 409, 413, 415, 422, 503, blueprint=blp)
def check_word(game_id: str):
    """Check a Word Jam word against the game as it is

    What a call (or a thief's word) with `word` would be worth now, and whether the engine would
    take it, judged by the same checks as a move: its letters, the forbidden consonant, a word
    already used (R9), the theme card's rule (the first letter is the 1-coin consonant; exactly
    eight letters) and, in a game with the dictionary, the lexicon. `reason` says why not.
    Fit to a theme's meaning is the players' call (a challenge) and is not judged. A word that
    is not one is refused as the calculator refuses it: 422 `word_empty`, `word_too_long`,
    `word_invalid_characters`. A game of another ruleset: 409 `not_a_word_game`. Nothing is
    played or recorded.
    """
    body = load_body(_WORD_CHECK, json_body())
    loaded, _caller = _read(game_id)
    result = reading.check_word(loaded, body["word"])
    if result["reason"] in _MALFORMED_WORD:
        raise ApiError(422, f"word_{result['reason']}", REASON_TEXT[result["reason"]],
                       reason=result["reason"])
    return json_response(result)


@blp.route("/<game_id>/score", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getScore", security=AUTH, parameters=[SPECTATOR_PARAM])
@blp.response(200, "Score", description="The final score, line by line")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def get_score(game_id: str):
    """Get the final score

    409 `game_not_finished` until the game is over.
    """
    loaded, _caller = _read(game_id)
    return json_response(reading.score(loaded))


@blp.route("/<game_id>/places", methods=["GET"], parameters=GAME_ID_PARAM)
@blp.doc(operationId="getPlaces", security=AUTH, parameters=[SPECTATOR_PARAM])
@blp.response(200, s.PlacesSchema, description="Each player's place, as the rules rank them")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def get_places(game_id: str):
    """Get the players' places

    Each player's place in the final score (1 best, in seat order), by the ruleset's own
    tie-break: Turandot's higher total first, a tie on points broken by stars alone, players
    still tied sharing the place (the next one is ranked after all of them). `places` is null
    for a ruleset that names its winners only. 409 `game_not_finished` until the game is over.
    """
    loaded, _caller = _read(game_id)
    return json_response(reading.places(loaded))


_CREATE = s.CreateGameSchema()
_WORD_CHECK = s.WordCheckRequestSchema()
#: a word that is not one: refused as the calculator refuses it, not judged
_MALFORMED_WORD = (EMPTY, TOO_LONG, INVALID_CHARACTERS)
_JOIN = s.JoinSchema()
