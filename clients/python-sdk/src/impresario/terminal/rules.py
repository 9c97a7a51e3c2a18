"""``?`` at any prompt of the terminal client: the rules of the game, in the player's language.

The text is the rules package's (``impresario_rules.texts``), the same the browser shows: ``?``
alone gives the section behind the question on screen (by the move kinds asked for, else the
game's phase), ``? <section>`` one section by its anchor, ``? list`` the sections, ``??`` the whole
rules. The prompt is asked again afterwards, its deadline still running.
"""

from __future__ import annotations

from collections.abc import Sequence

from impresario_rules.texts import anchor_for, plain, rules_text, section, sections

from ..i18n import _
from .console import Console


def rules_contents(ruleset: str, lang: str) -> list[tuple[str, str]]:
    """The sections of the rules of ``ruleset`` in ``lang``: (anchor, title), in order."""
    return [(s.anchor, s.title) for s in sections(rules_text(ruleset, lang)) if s.anchor]


def section_text(ruleset: str, lang: str, anchor: str) -> str | None:
    """The section ``anchor`` (with its subsections) as a terminal shows it; None: no such
    section."""
    found = section(ruleset, lang, anchor)
    if found is None:
        return None
    return plain(f"{'#' * max(2, found.level)} {found.title} {{#{anchor}}}\n\n{found.body}")


class RulesHelp:
    """The rules of ``ruleset`` in ``lang`` for ``console``'s ``?``; ``at`` says what is asked."""

    def __init__(self, console: Console, ruleset: str, lang: str) -> None:
        self.console = console
        self.ruleset = ruleset
        self.lang = lang
        self.kinds: tuple[str, ...] = ()
        self.phase: str | None = None
        #: the section a guided game's step names, which ``?`` shows first (None: by the prompt)
        self.pinned: str | None = None

    def at(self, kinds: Sequence[str], phase: str | None) -> None:
        """The question on screen now: the seat's pending move kinds and the game's phase."""
        self.kinds, self.phase = tuple(kinds), phase
        self.pinned = None

    def contents(self) -> list[tuple[str, str]]:
        return rules_contents(self.ruleset, self.lang)

    def show(self, anchor: str) -> bool:
        text = section_text(self.ruleset, self.lang, anchor)
        if text is None:
            return False
        self.out(text)
        return True

    def out(self, text: str) -> None:
        self.console.out("")
        for line in text.splitlines():
            self.console.out(line)
        self.console.out("")

    def __call__(self, asked: str) -> None:
        asked = asked.strip().lower()
        if asked in ("?", "all"):
            self.out(plain(rules_text(self.ruleset, self.lang)))
            return
        if asked in ("list", "contents"):
            self.out("\n".join(f"  {anchor:<18} {title}" for anchor, title in self.contents()))
            self.console.out(_("  ? <section> shows one of them; ?? the whole rules"))
            return
        anchor = asked or self.pinned or anchor_for(self.ruleset, self.kinds, self.phase)
        if anchor and self.show(anchor):
            self.console.out(_("  ? list: the sections; ?? the whole rules"))
            return
        if asked:
            self.console.out(_("  no section '{asked}': ? list shows them").format(asked=asked))
        else:
            self.out(plain(rules_text(self.ruleset, self.lang)))
