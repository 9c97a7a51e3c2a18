"""The full rules of each game, in four languages, for the players at the table.

Each ruleset has its rules once per language as Markdown, ``<ruleset>/rules/<lang>.md`` (package
data), written from ``shared/rules/`` and the rulebooks in each edition's own terms. Sections
carry stable anchors, the same in every language: a heading ends with ``{#anchor}``. Small card
pictures are images with a ``card:`` address, ``![caption](card:kind?attr=value&...)``: the
browser draws them, a terminal prints the caption.

``<ruleset>/rules/prompts.json`` says which section explains each prompt, by move kind
(``{"kinds": {"bid": "bids"}}``) and by phase (``{"phases": {"bidding": "bids"}}``): the
browser's "why?" and the terminal's ``?`` both read it. The engine serves both at
``GET /web/rules/<ruleset>?lang=<code>`` (docs/web.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: the languages the rules are written in; English is the default and the reference
LANGUAGES = ("en", "it", "de", "fr")
DEFAULT_LANGUAGE = "en"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*\{#([a-z0-9-]+)\}\s*$")
_PLAIN_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(card:[^)]*\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\(#[a-z0-9-]+\)")


class RulesNotFound(LookupError):
    """No rules for this ruleset or in this language; ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Section:
    """One heading and what follows it up to the next heading."""

    anchor: str | None
    level: int
    title: str
    body: str


def _folder(ruleset: str) -> resources.abc.Traversable:
    from . import RULESETS  # the registry: a ruleset has rules exactly when it is one

    if ruleset not in RULESETS:
        raise RulesNotFound("ruleset_not_found", f"there is no ruleset {ruleset!r}")
    return resources.files("impresario_rules").joinpath(ruleset, "rules")


@cache
def rules_text(ruleset: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules of ``ruleset`` in ``lang`` as Markdown."""
    folder = _folder(ruleset)
    if lang not in LANGUAGES:
        raise RulesNotFound("language_not_found",
                            f"there are no rules in {lang!r}: one of {', '.join(LANGUAGES)}")
    return folder.joinpath(f"{lang}.md").read_text(encoding="utf-8")


@cache
def prompts(ruleset: str) -> dict[str, dict[str, str]]:
    """Which section explains each prompt: ``{"kinds": {kind: anchor}, "phases": {phase: anchor}}``."""
    data = json.loads(_folder(ruleset).joinpath("prompts.json").read_text(encoding="utf-8"))
    return {"kinds": dict(data.get("kinds", {})), "phases": dict(data.get("phases", {}))}


def anchor_for(ruleset: str, kinds: tuple[str, ...] | list[str] = (),
               phase: str | None = None) -> str | None:
    """The section behind a prompt: the first of ``kinds`` that has one, else the phase's."""
    table = prompts(ruleset)
    for kind in kinds:
        if kind in table["kinds"]:
            return table["kinds"][kind]
    return table["phases"].get(phase) if phase else None


def sections(text: str) -> list[Section]:
    """The text's sections in order; what comes before the first heading is left out."""
    found: list[Section] = []
    head: tuple[str | None, int, str] | None = None
    body: list[str] = []
    fence = False

    def close() -> None:
        if head is not None:
            found.append(Section(head[0], head[1], head[2], "\n".join(body).strip("\n")))

    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        match = None if fence else (_HEADING.match(line) or _PLAIN_HEADING.match(line))
        if match:
            close()
            anchor = match.group(3) if match.re is _HEADING else None
            head, body = (anchor, len(match.group(1)), match.group(2)), []
        else:
            body.append(line)
    close()
    return found


def anchors(text: str) -> list[str]:
    """The text's section anchors, in order."""
    return [s.anchor for s in sections(text) if s.anchor]


def plain(markdown: str) -> str:
    """Markdown as a terminal shows it: headings without their anchors, bold without stars, links
    as their text, card pictures as ``[caption]``; lists and tables as written."""
    out = []
    for line in markdown.splitlines():
        match = _HEADING.match(line)
        if match:
            title = match.group(2)
            line = title.upper() if len(match.group(1)) <= 2 else title
            out.append(line)
            out.append("-" * len(line) if len(match.group(1)) <= 2 else "")
            continue
        line = _IMAGE.sub(lambda m: f"[{m.group(1)}]", line)
        out.append(_LINK.sub(r"\1", _BOLD.sub(r"\1", line)))
    return "\n".join(out).strip("\n")


def section(ruleset: str, lang: str, anchor: str) -> Section | None:
    """The section ``anchor`` of the rules of ``ruleset`` in ``lang``, with its subsections."""
    found = sections(rules_text(ruleset, lang))
    for i, s in enumerate(found):
        if s.anchor == anchor:
            parts = [s.body]
            for sub in found[i + 1:]:
                if sub.level <= s.level:
                    break
                parts.append("#" * sub.level + f" {sub.title}" + (f" {{#{sub.anchor}}}" if sub.anchor else ""))
                parts.append(sub.body)
            return Section(s.anchor, s.level, s.title, "\n\n".join(p for p in parts if p))
    return None


__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "RulesNotFound", "Section", "rules_text",
           "prompts", "anchor_for", "sections", "anchors", "plain", "section"]
