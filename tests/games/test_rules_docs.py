"""The rules pages show real games: every transcript in docs/*.md is replayed against the service,
and every refusal code a ruleset can raise is listed on its page.

A transcript is a ```text block right after the line ``<!-- transcript -->``. Its lines:

- ``create {...}``: ``POST /v1/games`` with that body;
- ``join Anna, Bruno``: each name takes the next seat (``POST /v1/games/{id}/seats``);
- ``Anna {...}``: ``POST /v1/games/{id}/moves`` with Anna's token (``Bea, Cy {...}``: each of
  them sends it, in that order; only the last answer is checked);
- ``Anna view`` / ``view``: ``GET /v1/games/{id}`` as Anna / as a spectator; ``Anna actions``:
  ``GET /v1/games/{id}/actions``; ``score``: ``GET /v1/games/{id}/score``;
- ``POST /v1/… {...}`` / ``GET /v1/…``: any other request (``{id}`` is the game's id);
  ``Anna DELETE /v1/…`` (or ``GET``, ``POST``): one with Anna's token;
- ``wait 61``: 61 seconds pass (a fake clock);
- ``→ 422 code "detail"``: the last answer's status, problem code and detail (each optional); an
  answer whose status no line names must be a success;
- ``→ path = json`` / ``→ path includes json``: a value of the last answer, a problem's too
  (``a.b[0]``, ``a[].b`` for the list of every ``b``; ``path has n items``, for a length);
- anything after ``  # `` is a comment, and so is a line that starts with ``#``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from service_helpers import auth

from .games_helpers import FakeClock

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"turandot": ROOT / "docs" / "turandot.md", "wordjam": ROOT / "docs" / "wordjam.md",
        "muzicando": ROOT / "docs" / "muzicando.md", "rules": ROOT / "docs" / "rules.md"}
MARKER = "<!-- transcript -->"


def transcripts(path: Path) -> list[tuple[int, list[str]]]:
    """``(line number, lines)`` of each transcript block of ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        assert lines[i + 1].strip() == "```text", f"{path.name}:{i + 2}: a ```text block follows"
        end = lines.index("```", i + 2)
        out.append((i + 3, lines[i + 2:end]))
    return out


ALL = [(name, first, block) for name, path in DOCS.items()
       for first, block in transcripts(path)]


def _path(data: Any, path: str) -> Any:
    """``a.b[0].c``, ``a[].b`` (the list of every element's ``b``), ``a[-1]``."""
    return _walk(data, re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\[-?\d*\]", path))


def _walk(data: Any, tokens: list[str]) -> Any:
    if not tokens:
        return data
    head, rest = tokens[0], tokens[1:]
    if head == "[]":
        return [_walk(item, rest) for item in data]
    if head.startswith("["):
        return _walk(data[int(head[1:-1])], rest)
    return _walk(data[head], rest)


class Player:
    """One transcript run against the Flask test client."""

    def __init__(self, client, clock: FakeClock, where: str) -> None:
        self.client, self.clock, self.where = client, clock, where
        self.game: str | None = None
        self.tokens: dict[str, str] = {}
        self.last: Any = None  # (status, json)
        self.unchecked = False  # the last answer's status is still to be checked

    def _answer(self, resp) -> None:
        self.settled()
        self.last = (resp.status_code, resp.get_json())
        self.unchecked = True

    def settled(self) -> None:
        """An answer no ``→ status`` line checked was a success."""
        if self.unchecked:
            status, body = self.last
            assert status < 300, f"{self.where}: an unexpected {status}: {body}"
        self.unchecked = False

    def run(self, line: str) -> None:
        line = re.split(r"\s{2,}#\s", line, maxsplit=1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            return
        text = line.strip()
        if text.startswith("→"):
            self.check(text[1:].strip())
            return
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        c = self.client
        if word == "create":
            self._answer(c.post("/v1/games", json=json.loads(rest)))
            assert self.last[0] == 201, self.last
            self.game = self.last[1]["game"]["id"]
        elif word == "join":
            for name in [n.strip() for n in rest.split(",")]:
                resp = c.post(f"/v1/games/{self.game}/seats", json={"name": name})
                self._answer(resp)
                assert resp.status_code == 201, self.last
                self.tokens[name] = resp.get_json()["token"]
        elif word == "view":
            self._answer(c.get(f"/v1/games/{self.game}"))
        elif word == "score":
            self._answer(c.get(f"/v1/games/{self.game}/score"))
        elif word in ("POST", "GET"):
            path, _, body = rest.partition(" ")
            path = path.replace("{id}", str(self.game))
            self._answer(c.post(path, json=json.loads(body)) if word == "POST" else c.get(path))
        elif word == "wait":
            self.clock.advance(float(rest))
        elif m := re.match(r"(\w+)\s+(GET|POST|DELETE)\s+(/\S*)\s*(.*)$", text):
            name, method, path, body = m.groups()
            path = path.replace("{id}", str(self.game))
            self._answer(c.open(path, method=method, json=json.loads(body) if body else None,
                                headers=auth(self.tokens[name])))
        else:
            names, sep, move = text.partition("{")
            who = [n.strip() for n in names.split(",") if n.strip()]
            if sep:
                body = json.loads(sep + move)
                for name in who:
                    self._answer(c.post(f"/v1/games/{self.game}/moves", json=body,
                                        headers=auth(self.tokens[name])))
            elif len(who) == 1 and " " in who[0]:
                name, what = who[0].split()
                path = {"view": "", "actions": "/actions"}[what]
                self._answer(c.get(f"/v1/games/{self.game}{path}", headers=auth(self.tokens[name])))
            else:
                raise AssertionError(f"{self.where}: cannot read {line!r}")

    def check(self, spec: str) -> None:
        status, body = self.last
        head = re.match(r'(\d{3})(?:\s+([a-z_]+))?(?:\s+"(.*)")?\s*$', spec)
        if head:
            self.unchecked = False
            assert status == int(head[1]), f"{self.where}: {spec}: got {status} {body}"
            if head[2]:
                assert body["code"] == head[2], f"{self.where}: {spec}: got {body}"
            if head[3] is not None:
                assert body["detail"] == head[3], f"{self.where}: {spec}: got {body['detail']!r}"
            return
        if status >= 300:  # values of a problem only after its status line
            assert not self.unchecked, f"{self.where}: an unexpected {status}: {body}"
        m = re.match(r"(\S+)\s+has\s+(\d+)\s+items?$", spec)
        if m:
            got = _path(body, m[1])
            assert len(got) == int(m[2]), f"{self.where}: {spec}: got {got!r}"
            return
        m = re.match(r"(\S+)\s+(=|includes)\s+(.+)$", spec)
        assert m, f"{self.where}: cannot read the check {spec!r}"
        got, want = _path(body, m[1]), json.loads(m[3])
        if m[2] == "=":
            assert got == want, f"{self.where}: {spec}: got {json.dumps(got)}"
        else:
            assert want in got, f"{self.where}: {spec}: got {json.dumps(got)}"


def test_every_page_has_transcripts():
    for name in DOCS:
        assert transcripts(DOCS[name]), f"docs/{DOCS[name].name} shows no transcript"


@pytest.mark.parametrize("name,first,block", ALL,
                         ids=[f"{name}.md:{first}" for name, first, _ in ALL])
def test_a_transcript_is_a_real_game(client, clock, name, first, block):
    player = Player(client, clock, f"docs/{DOCS[name].name}")
    for offset, line in enumerate(block):
        player.where = f"docs/{DOCS[name].name}:{first + offset}"
        player.run(line)
    player.settled()


# ------------------------------------------------------------------ every refusal is listed
SOURCES = ROOT / "rules" / "src" / "impresario_rules"
RAISED = re.compile(r'(?:IllegalMove|OutOfTurn|InvalidOptions|_fail)\(\s*f?"([a-z_]+)"')


def _codes(*files: Path) -> set[str]:
    found = set()
    for f in files:
        found |= set(RAISED.findall(f.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_every_refusal_code_is_on_its_page(ruleset):
    """A code a ruleset raises is named on its page (``word_<reason>`` through its reasons)."""
    from impresario_rules.wordjam import words as W

    codes = _codes(*sorted((SOURCES / ruleset).glob("*.py")))
    if ruleset == "wordjam":
        codes |= {f"word_{r}" for r in (W.EMPTY, W.TOO_LONG, W.INVALID_CHARACTERS,
                                        W.FORBIDDEN_CONSONANT, W.ALREADY_USED,
                                        W.NOT_EIGHT_LETTERS, W.WRONG_FIRST_LETTER,
                                        "not_in_dictionary")}
    codes |= _codes(SOURCES / "base.py")
    page = DOCS[ruleset].read_text(encoding="utf-8") + DOCS["rules"].read_text(encoding="utf-8")
    missing = sorted(c for c in codes if f"`{c}`" not in page and f"`409 {c}`" not in page
                     and f"`422 {c}`" not in page)
    assert not missing, f"docs/{DOCS[ruleset].name} (or docs/rules.md) does not list {missing}"


# ------------------------------------------------------------------ Turandot's catalogue
def test_the_singers_table_is_the_default_catalogue():
    """The grid of singers on docs/turandot.md is the engine's default catalogue, card for card."""
    from impresario_rules.turandot.cards import DEFAULT

    sexes = {"M": "male", "F": "female", "U": "undefined"}
    roles = {"Turandot": "turandot", "Calaf": "calaf", "Liù": "liu"}
    shown = {}
    for line in DOCS["turandot"].read_text(encoding="utf-8").splitlines():
        for cell in line.split("|")[2:-1] if re.match(r"\| [a-z]+ \| S\d\d ", line) else []:
            m = re.fullmatch(r"\s*(S\d\d) ([MFU]) (★{1,3})(?: ♥(\w+))?\s*", cell)
            assert m, f"cannot read the singer {cell!r}"
            shown[m[1]] = {"id": m[1], "kind": "singer", "category": line.split("|")[1].strip(),
                           "sex": sexes[m[2]], "stars": len(m[3]),
                           "favourite_role": roles[m[4]] if m[4] else None}
    assert shown == {i: DEFAULT.singers[i].card() for i in DEFAULT.ids}


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_every_event_type_is_on_its_page(ruleset):
    """The events a ruleset emits are named on its page, so a frontend knows what to expect."""
    from impresario_rules import RULESETS

    source = "".join(f.read_text(encoding="utf-8") for f in (SOURCES / ruleset).glob("*.py"))
    kinds = set(re.findall(r'"type": "([a-z_]+)"', source))
    kinds -= set(RULESETS[ruleset].move_types) | {"boolean", "integer", "string", "object"}
    page = DOCS[ruleset].read_text(encoding="utf-8")
    missing = sorted(k for k in kinds if f"`{k}`" not in page)
    assert not missing, f"docs/{DOCS[ruleset].name} does not name the events {missing}"


# ------------------------------------------------------------------ links between the pages
def _anchors(text: str) -> set[str]:
    """GitHub's anchors of a page's headings."""
    out = set()
    for line in text.splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m[1].strip().lower()).replace(" ", "-")
            out.add(slug)
    return out


def test_the_links_between_the_pages_land():
    """Every relative link of docs/*.md names a file that exists and, after #, one of its
    headings."""
    broken = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(
                    dest.read_text(encoding="utf-8")):
                broken.append(f"{page.name}: {target}")
    assert not broken, broken
