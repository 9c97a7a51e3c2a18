"""Helpers of the Word Jam and Muzicando HTTP tests: games with human and bot seats created
through the Flask test client, random legal moves built from ``GET /actions``, replays through the
rules cores, and the secrets a viewer must never see."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import impresario_engine
from impresario_rules import RULESETS
from impresario_rules.base import Refusal
from impresario_rules.muzicando.cards import DECK
from impresario_rules.wordjam import lexicon
from impresario_rules.wordjam import rules as WJ_RULES
from impresario_rules.wordjam import words as W
from service_helpers import FakeClock, auth, random_move, stored  # noqa: F401 - re-exported


@dataclass
class Table:
    """A game created through the API: humans have a token, bot seats None."""

    id: str
    ruleset: str
    host_token: str
    players: int
    seed: int
    options: dict[str, Any]
    tokens: list[str | None] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"

    @property
    def humans(self) -> list[int]:
        return [s for s, t in enumerate(self.tokens) if t is not None]

    def secrets(self) -> list[str]:
        """The tokens known (a table whose tokens are kept elsewhere, as by an MCP server, has
        none here)."""
        return [t for t in (self.host_token, *self.tokens) if t]


def setup_table(client, ruleset: str, kinds: list[str | None], seed: int,
                **options: Any) -> Table:
    """A game with one seat per entry of ``kinds`` (None: a human, else a bot's name)."""
    resp = client.post("/v1/games", json={"ruleset": ruleset, "players": len(kinds),
                                          "seed": seed, "options": options})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    created = resp.get_json()
    assert created["game"]["ruleset"] == ruleset
    table = Table(created["game"]["id"], ruleset, created["host_token"], len(kinds), seed,
                  options)
    for i, bot in enumerate(kinds):
        body: dict[str, Any] = {"name": f"{'Bot' if bot else 'P'}{i}"}
        if bot:
            body["bot"] = bot
        joined = client.post(f"{table.url}/seats", json=body,
                             headers=auth(table.host_token if bot else None))
        assert joined.status_code == 201, joined.get_data(as_text=True)
        data = joined.get_json()
        assert data["seat"] == i and (data["token"] is None) == (bot is not None)
        table.tokens.append(data["token"])
    return table


def get_json(client, url: str, token: str | None = None) -> dict[str, Any]:
    resp = client.get(url, headers=auth(token))
    assert resp.status_code == 200, (url, resp.get_data(as_text=True))
    return resp.get_json()


def truth(redis_client, game_id: str) -> tuple[int, dict[str, Any]]:
    """The stored version and document (the state with every secret)."""
    return stored(redis_client, game_id)


def walk(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) of a JSON document, containers included."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def keys_in(obj: Any) -> set[str]:
    return {p.rsplit(".", 1)[-1] for p, _ in walk(obj) if "." in p}


def secret_fields(obj: Any, names: set[str]) -> set[str]:
    """The keys among ``names`` a JSON document has, but a flag named like one (a listed
    seat's ``held``: whether it is kept for someone)."""
    return {p.rsplit(".", 1)[-1] for p, v in walk(obj)
            if "." in p and p.rsplit(".", 1)[-1] in names and not isinstance(v, bool)}


def strings_in(obj: Any) -> set[str]:
    """Every string value of a JSON document (not its keys: a secret word may be spelt like a
    field's name, such as a vote's ``stands``, without anything leaking)."""
    return {v for _, v in walk(obj) if isinstance(v, str)}


def assert_no_tokens(table: Table, text: str, where: str) -> None:
    for secret in table.secrets():
        assert secret not in text, f"a bearer token leaked in {where}"


def replay_core(table: Table, replay: dict[str, Any], check_defaults: bool = True
                ) -> dict[str, Any]:
    """Replay ``GET /replay``'s moves through the rules core from the seed and options; checks
    each move the engine made at a deadline is the ruleset's default move then. Returns the
    final state."""
    ruleset = RULESETS[table.ruleset]
    assert replay["seed"] == table.seed and replay["players"] == table.players
    state, _ = ruleset.new_game(replay["players"], replay["options"], replay["seed"])
    for m in replay["moves"]:
        if check_defaults and m["by"] == "deadline":
            assert m["move"] == ruleset.default_action(state, m["seat"]), m
        if m["by"] == "bot":
            assert replay["bots"][m["seat"]], m
        elif m["by"] == "seat":
            assert replay["bots"][m["seat"]] is None, m
        state, _ = ruleset.apply(state, m["seat"], m["move"])
    assert ruleset.is_finished(state)
    return state


# ------------------------------------------------------------------------------------ Word Jam
def valid_word(coins: list[dict[str, Any]], forbidden: str, check: str | None,
               used: list[str], rng: random.Random, style: str | None = None,
               avoid: set[str] = frozenset()) -> str:
    """A word that passes the engine's checks for these coins: from the lexicon's vocabulary
    when one fits, otherwise made up (the engine judges only letters, forbidden, reuse and the
    two checked themes, unless the game has the dictionary option)."""
    table = {c["consonant"]: c["coins"] for c in coins}
    one = coins[0]["consonant"]

    def ok(w: str) -> bool:
        r = W.check(w, table, forbidden, used=used, theme_check=check, one_coin=one)
        return r["valid"] and r["folded"] not in avoid

    listed = [w for w, folded in lexicon.vocabulary()[::7] if ok(w)]
    if listed and rng.random() < 0.8:
        return rng.choice(listed)
    allowed = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c != forbidden]
    while True:
        letters = [rng.choice(allowed) for _ in range(8 if check == "eight_letters"
                                                        else rng.randint(4, 10))]
        if check == "first_letter":
            letters[0] = one
        word = "".join(letters)
        if ok(word):
            return word


def playable_words(view: dict[str, Any], count: int | None = None) -> list[str]:
    """The lexicon's words that pass the engine's checks in this Word Jam view now (the words
    the bots know: they neither challenge nor vote against them), most valuable first."""
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    found = lexicon.playable(lexicon.vocabulary(), coins, view["forbidden"], view["used_words"],
                             view["style"]["check"], view["coins"][0]["consonant"])
    return [w for w, _ in sorted(found, key=lambda wv: -wv[1])][:count]


# the strings a view or an event carries as values (phases, roles, sides, Style ids…): a secret
# word equal to one of them could not be told apart from it in a view's text
_API_STRINGS = {str(v).lower() for v in (
    *WJ_RULES.PHASES, *WJ_RULES.OUTCOMES, *RULESETS["wordjam"].move_types, *WJ_RULES.SIDE_NAMES,
    WJ_RULES.RED, WJ_RULES.YELLOW, WJ_RULES.CALL, WJ_RULES.DECLARATION, "chief_thief", "thief",
    "follower", "best_ali_baba", "best_thieves", "playing", "finished", "open", "window",
    "vote", "call", "pass", "chief", "sides", "challenge",
    *(c["id"] for c in W.styles()), *(c["name"] for c in W.styles()),
    *(kind for r in RULESETS.values() for kind in r.bot_names))}
_SECRET_WORDS = [w for w, _ in lexicon.vocabulary() if w.lower() not in _API_STRINGS]


def wordjam_move(actions: dict[str, Any], view: dict[str, Any], rng: random.Random
                 ) -> dict[str, Any]:
    """A random legal Word Jam move from ``GET /actions`` (and the seat's view for the words
    already used)."""
    spaces = {m["type"]: m for m in actions["moves"]}
    if "choose_side" in spaces:
        return {"type": "choose_side", "side": rng.choice(spaces["choose_side"]["sides"])}
    if "open_sesame" in spaces:
        sp = spaces["open_sesame"]
        if rng.random() < 0.45:
            return {"type": "no_call"}
        word = valid_word(sp["coins"], sp["forbidden"], sp["check"], view["used_words"], rng,
                          sp["style"])
        if sp["first_letter"] is not None:
            assert W.fold(word).startswith(sp["first_letter"])
        return {"type": "open_sesame", "word": word}
    if "challenge" in spaces:
        wid = spaces["challenge"]["word_id"]
        if rng.random() < 0.15:
            return {"type": "challenge", "word_id": wid}
        return {"type": "no_challenge", "word_id": wid}
    if "vote" in spaces:
        sp = spaces["vote"]
        return {"type": "vote", "word_id": sp["word_id"], "in_favour": rng.choice(sp["in_favour"])}
    if "bet" in spaces:
        return {"type": "bet", "side": rng.choice(spaces["bet"]["sides"])}
    if "thief_word" in spaces:
        r = rng.random()
        if r < 0.2:
            return {"type": "thief_pass"}
        word = rng.choice(_SECRET_WORDS)
        if r < 0.35:  # a word made up, possibly invalid by the rules: it is still legal
            word = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(6))
        return {"type": "thief_word", "word": word, "final": rng.random() < 0.75}
    raise AssertionError(f"no move in {actions}")


SECRET_EVENT_FIELDS = {"bet_placed": "side", "side_chosen": "side", "word_submitted": "word",
                       "vote_cast": "in_favour"}


def wordjam_public_words(events: list[dict[str, Any]]) -> set[str]:
    """Folded words revealed by the stored events (calls and declarations)."""
    out = set()
    for e in events:
        if e["type"] in ("sesame_called", "declaration") and e.get("word"):
            out.add(W.fold(e["word"]))
    return out


def wordjam_secret_words(raw: list[tuple[int, dict[str, Any]]]) -> dict[int, set[str]]:
    """Per seat, the words it submitted secretly that were never revealed (as sent)."""
    public = wordjam_public_words([e for _, e in raw])
    out: dict[int, set[str]] = {}
    for _, e in raw:
        if e["type"] == "word_submitted":
            word = e["_private"][str(e["seat"])]["word"]
            if W.fold(word) not in public:
                out.setdefault(e["seat"], set()).add(word)
    return out


#: every name in the engine's code: a key of a view or event is one of them, so a secret word
#: spelt like one (a vote's "stands") cannot be told apart from a field; any other key that
#: equals a secret word would be the word leaking
_CODE_NAMES = {name for path in Path(impresario_engine.__file__).parent.rglob("*.py")
               for name in re.findall(r"[A-Za-z_]+", path.read_text(encoding="utf-8"))}
_WORD_PATH = re.compile(r"(\.word|\.used_words\[\d+\])$")


def _shown(obj: Any) -> tuple[set[str], set[str], set[str]]:
    """What a view or feed shows: the words players said (``word`` fields, the used words),
    folded; every other string value; and its keys."""
    words, others = set(), set()
    for path, v in walk(obj):
        if isinstance(v, str):
            (words.add(W.fold(v)) if _WORD_PATH.search(path) else others.add(v))
    return words, others, keys_in(obj)


def _assert_no_secret_words(shown: tuple[set[str], set[str], set[str]], where: str,
                            secret_words: dict[int, set[str]], viewer: int | None,
                            own: set[str]) -> None:
    """No other seat's secret word in what is ``shown``: in a word field, in any spelling
    (folded); nor anywhere else as a value, unless it is spelt like one of the API's own values
    (a phase, a bot's kind, a Style id…), which could not be told apart from it; nor as a key
    that is not a name from the engine's code."""
    words, others, keys = shown
    keys = keys - _CODE_NAMES
    own_folds = {W.fold(w) for w in own}
    for seat, secrets in secret_words.items():
        if seat == viewer:
            continue
        for w in secrets:
            if W.fold(w) in own_folds:
                continue
            assert W.fold(w) not in words, f"{where} shows seat {seat}'s secret word {w!r}"
            assert w.lower() in _API_STRINGS or w not in others, \
                f"{where} shows seat {seat}'s secret word {w!r}"
            assert w not in keys, f"{where} shows seat {seat}'s secret word {w!r} as a key"


def check_wordjam_answer(table: Table, obj: Any, viewer: int | None, state: dict[str, Any],
                         secret_words: dict[int, set[str]], where: str) -> None:
    """Any answer ``viewer`` (a seat, None: a spectator) receives (a view, its legal moves, a
    score...) spells out none of the secrets of the stored ``state``: no token, no secret
    field, no Style card still in the deck, no other seat's secret word (``secret_words``:
    :func:`wordjam_secret_words`; the viewer's own, and the word it holds now, are its own)."""
    assert_no_tokens(table, json.dumps(obj, ensure_ascii=False), where)
    shown = _shown(obj)
    _, others, keys = shown
    fields = secret_fields(obj, {"rng", "styles", "_private", "words", "queue", "token", "held"})
    assert not fields, (where, fields)
    # the deck orders: no Style card still in the deck is named
    for sid in state["styles"]:  # outside the word fields: "animals" is a Style id and a word
        assert sid not in others and sid not in keys, f"{where} names the undealt Style card {sid}"
    # the thieves' words not yet declared (and never, if never declared)
    own = secret_words.get(viewer, set()) if viewer is not None else set()
    own_now = {state["words"][viewer]} if viewer is not None and state["words"][viewer] else set()
    _assert_no_secret_words(shown, where, secret_words, viewer, own | own_now)


def check_wordjam_view(table: Table, view: dict[str, Any], viewer: int | None,
                       state: dict[str, Any], secret_words: dict[int, set[str]]) -> None:
    """``view`` (seat ``viewer``'s, None: the spectator's) shows none of the secrets of the
    stored ``state``."""
    where = f"the view of {viewer}"
    check_wordjam_answer(table, view, viewer, state, secret_words, where)
    # sealed bets and turn 8's sides before their reveal
    if not state["bets_revealed"]:
        assert view["bets"] is None, where
    else:
        assert view["bets"] == [{"seat": s, "side": state["bets"][s]}
                                for s in state["participants"] if s != state["ali"]]
    if not state["sides_revealed"]:
        assert view["sides"] is None, where
    for p in view["players"]:
        assert set(p) == {"seat", "total", "sitting_out", "no_call", "has_side", "has_bet",
                          "word_final", "has_voted", "name", "bot"}, p
    you = view.get("you")
    if viewer is None:
        assert you is None
    else:
        assert you["seat"] == viewer
        if you["bet"] is not None:
            assert you["bet"] == state["bets"][viewer]
        if you["side"] is not None:
            assert you["side"] == state["sides"][viewer]
        if you["word"] is not None:
            assert you["word"] == state["words"][viewer]
    # the open vote: only how many were cast
    if view["challenge"] is not None:
        assert "votes" not in view["challenge"]


def check_wordjam_feed(table: Table, events: list[dict[str, Any]], viewer: int | None,
                       secret_words: dict[int, set[str]]) -> None:
    text = json.dumps(events, ensure_ascii=False)
    where = f"the feed of {viewer}"
    assert_no_tokens(table, text, where)
    for e in events:
        assert "_private" not in e and "private" not in e, e
        field_ = SECRET_EVENT_FIELDS.get(e["type"])
        if field_ is not None:
            assert (field_ in e) == (e["seat"] == viewer), (where, e)
        assert not keys_in(e) & {"rng", "styles", "words", "token"}, e
    own = secret_words.get(viewer, set()) if viewer is not None else set()
    _assert_no_secret_words(_shown(events), where, secret_words, viewer, own)


def random_legal_move(ruleset: str, actions: dict[str, Any], view: dict[str, Any],
                      rng: random.Random) -> dict[str, Any]:
    """A random legal move of any ruleset, from ``GET /actions`` (and the seat's view)."""
    if ruleset == "wordjam":
        return wordjam_move(actions, view, rng)
    if ruleset == "muzicando":
        return muzicando_move(actions, rng)
    return random_move(actions, rng)


# ------------------------------------------------------------------------------------ Muzicando
MUZICANDO_CARDS = frozenset(DECK)


def muzicando_cards(obj: Any) -> set[str]:
    """The Muzicando cards a JSON document names anywhere."""
    text = json.dumps(obj)
    return {c for c in MUZICANDO_CARDS if json.dumps(c) in text}


def muzicando_hidden(state: dict[str, Any], viewer: int | None) -> set[str]:
    """The cards ``viewer`` (a seat, None: a spectator) may not see in ``state``: the draw
    pile's and every other seat's hand's."""
    return set(state["pile"]).union(*[set(h) for s, h in enumerate(state["held"])
                                      if s != viewer])


def check_muzicando_answer(table: Table, obj: Any, viewer: int | None, state: dict[str, Any],
                           where: str) -> None:
    """Any answer ``viewer`` receives (a view, its legal moves, a score...) names no card of
    another hand or of the pile in the stored ``state``, no secret field and no token."""
    assert_no_tokens(table, json.dumps(obj), where)
    fields = secret_fields(obj, {"held", "pile", "rng", "deck", "_private"})
    assert not fields, (where, fields)
    shown = muzicando_cards(obj) & muzicando_hidden(state, viewer)
    assert not shown, f"{where} shows hidden cards {sorted(shown)}"


def check_muzicando_view(table: Table, view: dict[str, Any], viewer: int | None,
                         state: dict[str, Any]) -> None:
    """``view`` (seat ``viewer``'s, None: the spectator's) shows only the viewer's own hand,
    the other hands' sizes and the draw pile's size of the stored ``state``: no card of
    another hand or of the pile appears anywhere (past hands' results hold no cards, only
    counts)."""
    where = f"the view of {viewer}"
    check_muzicando_answer(table, view, viewer, state, where)
    assert view["pile_size"] == len(state["pile"])
    assert [p["hand_size"] for p in view["players"]] == [len(h) for h in state["held"]]
    you = view.get("you")
    if viewer is None:
        assert you is None
    else:
        assert you == {"seat": viewer, "hand": state["held"][viewer]}


def check_muzicando_feed(table: Table, events: list[dict[str, Any]], viewer: int | None
                         ) -> None:
    """The dealt cards reach their owner only, and so does a drawn card."""
    assert_no_tokens(table, json.dumps(events), f"the feed of {viewer}")
    for e in events:
        assert "_private" not in e and "private" not in e, e
        if e["type"] == "hand_dealt":
            assert ("cards" in e) == (viewer is not None), e
            if viewer is not None:
                assert len(e["cards"]) == e["hand_sizes"][viewer]
        if e["type"] == "passed":
            assert ("card" in e) == (e["drew"] and e["seat"] == viewer), e


def muzicando_move(actions: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal Muzicando move from ``GET /actions``: the action space lists the contracts,
    the layouts, and for each card in hand its legal cells."""
    options: list[dict[str, Any]] = []
    for sp in actions["moves"]:
        kind = sp["type"]
        if kind == "auction_bid":
            options += [{"type": "auction_bid", "contract": c} for c in sp["contracts"]]
        elif kind == "auction_pass":
            options += [{"type": "auction_pass"}] * 3  # passes often, so auctions end
        elif kind == "choose_layout":
            options += [{"type": "choose_layout", "layout": lay} for lay in sp["layouts"]]
        elif kind == "place":
            options += [{"type": "place", "card": c["card"], **cell}
                        for c in sp["cards"] for cell in c["cells"]]
        elif kind == "pass":
            options.append({"type": "pass"})
        else:
            raise AssertionError(kind)
    assert options, actions
    places = [o for o in options if o["type"] == "place"]
    if places and rng.random() < 0.7:  # a player mostly plays when he can: hands end sooner
        return rng.choice(places)
    return rng.choice(options)


def illegal_placement(actions: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A ``place`` move of a card in the seat's hand on a cell its action space does not list
    for it (None when the seat is not placing)."""
    place = next((m for m in actions["moves"] if m["type"] == "place"), None)
    if place is None:
        return None
    entry = rng.choice(place["cards"])
    legal = {(c["x"], c["y"]) for c in entry["cells"]}
    cells = [(x, y) for x in range(-3, 9) for y in range(-3, 9) if (x, y) not in legal]
    x, y = rng.choice(cells)
    return {"type": "place", "card": entry["card"], "x": x, "y": y}


def core_refusal(ruleset_name: str, state: dict[str, Any], seat: int, move: dict[str, Any]
                 ) -> Any:
    """The rules core's refusal of ``move`` (the error), or None if it accepts it."""
    try:
        RULESETS[ruleset_name].apply(state, seat, move)
    except Refusal as err:
        return err
    return None
