"""The problem codes of the API: which ``code`` each operation may answer, per status, so the
spec can list them (an enum per response) and a client can switch on them.

A code is raised where its rule is (the rules, the table, the use cases, the HTTP helpers);
this table says where it can come out. The suite holds the two together: every problem a test
meets is validated against the operation's enum, and a test reads every code the sources raise
and fails on one no operation lists (tests/contract/test_problem_codes.py)."""

from __future__ import annotations

#: refusals made before a request reaches an operation (the worker's and Flask's own), and the
#: unexpected failure: every operation's ``default`` response
EDGE_CODES = frozenset({"bad_request", "request_timeout", "uri_too_long", "headers_too_large",
                        "method_not_allowed", "not_found", "http_error", "internal_error"})
#: the codes of the page's own routes, outside the spec: a game's rules in a language
#: (``GET /web/rules/<ruleset>``, api/web.py), as impresario_rules.texts refuses them, and the
#: QR code of a link (``POST /web/qr``)
PAGE_CODES = frozenset({"ruleset_not_found", "language_not_found", "invalid_qr_text"})

from impresario_rules import RULESETS


def _rules(what: str, *extra: str) -> tuple[str, ...]:
    """The codes every ruleset refuses ``what`` with (``Refusals`` fields), and ``extra``."""
    return tuple(sorted({*extra, *(c for r in RULESETS.values() for c in getattr(r.refusals, what))}))


LIMITED = {429: ("rate_limited", "auth_rate_limited")}
STORE = {503: ("storage_unavailable", "contention")}
BODY = {400: ("malformed_json",), 413: ("body_too_large",), 415: ("unsupported_media_type",),
        422: ("invalid_body",)}
IDEMPOTENT = {400: ("invalid_idempotency_key",),
              409: ("idempotency_key_taken", "idempotency_in_progress",
                    "idempotency_record_unreadable"),
              422: ("idempotency_key_reused",)}
#: a game read with a token, a spectator link, or nothing (a public game)
#: (a stream ticket anywhere but on the event stream is refused: ``invalid_ticket``)
READ = {401: ("missing_token", "invalid_token", "invalid_ticket"), 403: ("private_game",),
        404: ("game_not_found",)}
#: an operation that needs a seat's or the host's token
AUTHENTICATED = {401: ("missing_token", "invalid_token", "invalid_ticket"),
                 404: ("game_not_found",)}

#: an operation of the caller's player: a player credential, or a trusted issuer's JWT
ME = {401: ("missing_token", "invalid_token", "invalid_player_token", "jwt_malformed",
            "jwt_untrusted_issuer", "jwt_algorithm_refused", "jwt_unknown_key", "jwt_expired",
            "jwt_not_yet_valid", "jwt_wrong_audience", "jwt_missing_claim", "jwt_invalid"),
      503: ("jwks_unavailable",)}

#: a path whose number is not a number matches no route
ROUTE = "not_found"

#: per operation id: the codes of each status it documents (merged from the groups above)
OPERATIONS: dict[str, tuple[dict[int, tuple[str, ...]], ...]] = {
    "listRulesets": (LIMITED,),
    "createPlayer": (LIMITED, STORE, BODY, {422: ("name_blank", "name_invisible_characters",
                                                  "name_too_long"),
                                            429: ("create_rate_limited",)}),
    "getMe": (LIMITED, STORE, ME),
    "renameMe": (LIMITED, STORE, BODY, ME, {422: ("name_blank", "name_invisible_characters",
                                                  "name_too_long")}),
    "deleteMe": (LIMITED, STORE, ME),
    "createDeviceCode": (LIMITED, STORE, ME),
    "claimDeviceCode": (LIMITED, STORE, BODY, {401: ("invalid_device_code",)}),
    "getRuleset": (LIMITED, {404: ("ruleset_not_found",)}),
    "getPaces": (LIMITED, {404: ("ruleset_not_found",)}),
    "scoreTurandotCast": (LIMITED, BODY, {422: ("not_a_permutation", "unknown_director",
                                               "unknown_singer", *RULESETS["turandot"]
                                               .refusals.calculator)}),
    "wordJamValue": (LIMITED, BODY, {422: RULESETS["wordjam"].refusals.calculator}),
    "listMyGames": (LIMITED, STORE, ME, {400: ("invalid_filter", "invalid_limit",
                                               "invalid_cursor")}),
    "resumeGame": (LIMITED, STORE, ME, {404: ("game_not_found", "not_seated"),
                                        409: ("seat_left", "game_finished")}),
    "deleteMe": (LIMITED, STORE, ME),
    "joinMatch": (LIMITED, STORE, BODY, ME, {404: ("ruleset_not_found",),
                                             422: ("invalid_players", "invalid_wait")}),
    "getMatch": (LIMITED, STORE, ME, {404: ("not_waiting",)}),
    "leaveMatch": (LIMITED, STORE, ME, {409: ("not_waiting",)}),
    "getPlayer": (LIMITED, STORE, {404: ("player_not_found", ROUTE)}),
    "getLeaderboard": (LIMITED, STORE, {400: ("invalid_limit", "invalid_cursor"),
                                        404: ("ruleset_not_found",)}),
    "createGame": (LIMITED, STORE, BODY, IDEMPOTENT, ME, {
        404: ("ruleset_not_found",),
        422: _rules("options", "invalid_move_seconds", "invalid_bot_seconds",
                    "invalid_bank_seconds", "invalid_bank_refill_seconds", "invalid_pace",
                    "invalid_guided"),
        429: ("create_rate_limited",), 503: ("id_collision",)}),
    "listGames": (LIMITED, STORE, {400: ("invalid_filter", "invalid_limit", "invalid_cursor",
                                         "cursor_expired")}),
    "getGame": (LIMITED, STORE, READ),
    "getActions": (LIMITED, STORE, READ),
    "getGuide": (LIMITED, STORE, READ, {403: ("not_a_seat",), 409: ("not_guided",),
                                        422: ("invalid_body",)}),
    "getEvents": (LIMITED, STORE, READ, {422: ("invalid_body",), 429: ("too_many_streams",),
                                         503: ("too_many_streams",)}),
    "createStreamTicket": (LIMITED, STORE, AUTHENTICATED),
    "getReplay": (LIMITED, STORE, READ, {409: ("game_not_finished",)}),
    "getReplayStep": (LIMITED, STORE, READ, {404: ("step_not_found", ROUTE),
                                             409: ("game_not_finished",),
                                             422: ("invalid_body", "unknown_seat")}),
    "getScore": (LIMITED, STORE, READ, {409: _rules("score")}),
    "getPlaces": (LIMITED, STORE, READ, {409: _rules("score")}),
    "checkWord": (LIMITED, STORE, BODY, READ, {
        409: ("not_a_word_game", "game_not_started"),
        422: ("word_empty", "word_too_long", "word_invalid_characters")}),
    "joinGame": (LIMITED, STORE, BODY, IDEMPOTENT, READ, ME, {
        401: ("host_only",),
        403: ("host_only", "invalid_join_token", "join_link_required", "spectator_read_only"),
        409: ("game_full", "name_taken", "game_finished", "game_not_started",
              "player_seated"),
        422: ("name_blank", "name_invisible_characters", "name_too_long", "unknown_bot")}),
    "makeMove": (LIMITED, STORE, BODY, IDEMPOTENT, AUTHENTICATED, {
        400: ("invalid_if_match",),
        403: ("not_a_seat", "spectator_read_only"),
        409: _rules("not_now", "deadline_passed", "game_not_started", *_rules("stale")),
        412: ("stale_version",),
        422: _rules("illegal", "unknown_move_type")}),
    "resolveGame": (LIMITED, STORE, AUTHENTICATED, {
        403: ("not_a_player", "spectator_read_only"),
        409: ("game_finished", "game_not_started", "nothing_due")}),
    "leaveSeat": (LIMITED, STORE, IDEMPOTENT, AUTHENTICATED, {
        403: ("not_your_seat", "seat_only", "spectator_read_only"),
        404: ("seat_not_found", ROUTE), 409: ("game_finished",)}),
    "requestRematch": (LIMITED, STORE, AUTHENTICATED, {
        403: ("not_a_seat", "spectator_read_only"),
        409: ("game_not_finished", "rematch_seat_taken")}),
    "getVapidPublicKey": (LIMITED, {404: ("push_unavailable",)}),
    "createPushSubscription": (LIMITED, STORE, BODY, ME, {
        404: ("push_unavailable",), 409: ("too_many_subscriptions",),
        422: ("invalid_subscription",)}),
    "listPushSubscriptions": (LIMITED, STORE, ME, {404: ("push_unavailable",)}),
    "deletePushSubscription": (LIMITED, STORE, ME, {404: ("push_unavailable",
                                                          "subscription_not_found")}),
    "createWebhook": (LIMITED, STORE, BODY, AUTHENTICATED, {
        403: ("host_only",), 409: ("too_many_webhooks", "game_finished"),
        422: ("webhook_url_refused", "invalid_webhook_events")}),
    "listWebhooks": (LIMITED, STORE, AUTHENTICATED, {403: ("host_only",)}),
    "deleteWebhook": (LIMITED, STORE, AUTHENTICATED, {403: ("host_only",),
                                                      404: ("webhook_not_found",),
                                                      409: ("game_finished",)}),
    "listWebhookDeliveries": (LIMITED, STORE, AUTHENTICATED, {403: ("host_only",),
                                                              404: ("webhook_not_found",)}),
    "redeliverWebhookMessage": (LIMITED, STORE, AUTHENTICATED, {
        403: ("host_only",), 404: ("webhook_not_found", "message_not_found"),
        409: ("webhook_disabled",)}),
    "listOperatorWebhookDeliveries": (LIMITED, STORE, {401: ("missing_token",
                                                             "invalid_token")}),
    "redeliverOperatorWebhookMessage": (LIMITED, STORE, {
        401: ("missing_token", "invalid_token"), 404: ("message_not_found",),
        409: ("webhook_disabled",)}),
    "readyz": ({503: ("storage_unavailable", "storage_refuses_writes")},),
    "metrics": ({404: ("not_found",)},),
}


def codes(operation: str) -> dict[int, list[str]]:
    """The codes of each status ``operation`` may answer (empty for one not listed)."""
    merged: dict[int, set[str]] = {}
    for group in OPERATIONS.get(operation, ()):
        for status, found in group.items():
            merged.setdefault(status, set()).update(found)
    return {status: sorted(found) for status, found in merged.items()}
