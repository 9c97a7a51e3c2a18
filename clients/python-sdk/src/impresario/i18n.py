"""The terminal client's messages in the player's language: gettext catalogues read with Babel.

The catalogues are ``locale/<lang>/LC_MESSAGES/impresario.po`` in this package (Italian, German,
French); English is the text in the code itself. A catalogue is read from its ``.po`` with
Babel when first needed and turned into a :class:`gettext.GNUTranslations` (compiled in memory,
so a fresh clone or an editable install needs no build step), plural forms included.

The code marks a message with ``_("...")``, ``ngettext("...", "...", n)`` or, where it is
translated later (tables of names built at import time), ``N_("...")``. ``use(lang)`` makes a
language the one these speak (``impresario play --lang``, ``impresario.language``). ``make
messages`` extracts ``locale/messages.pot`` with ``pybabel extract`` and updates the catalogues;
``tests/unit/test_terminal_i18n.py`` fails when the ``.pot`` and the code, or the catalogues
among themselves, differ.
"""

from __future__ import annotations

import gettext
import io
import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import IO

from .language import DEFAULT_LANGUAGE, LANGUAGES

DOMAIN = "impresario"

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def catalogue_path(lang: str) -> resources.abc.Traversable:
    """Where the ``.po`` of ``lang`` is (in the installed package)."""
    return resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s messages (English: the code's own). Needs Babel (the ``cli`` extra) for the
    other languages."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError as err:  # pragma: no cover - the cli extra installs Babel
        raise RuntimeError("the terminal client's languages need Babel: "
                           "pip install 'impresario[cli]'") from err
    with catalogue_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as msgfmt does
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def use(lang: str) -> None:
    """Speak ``lang`` from now on (one of :data:`impresario.language.LANGUAGES`)."""
    global _active, _language
    _active = translations(lang)
    _language = lang


def language() -> str:
    """The language the messages are in now."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, as the current language counts."""
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` where ``context`` tells it apart from the same English words elsewhere."""
    return _active.pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues; it is translated where it is shown, with ``_``."""
    return message


def extract_styles(fileobj: IO[bytes], keywords: object, comment_tags: object,
                   options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """A ``pybabel extract`` method (``babel.cfg``) for Word Jam's theme cards
    (``impresario_rules/wordjam/data/styles.json``): each card's name and description, which the
    terminal shows translated; the data keeps its English, the catalogues the rest."""
    data = json.load(fileobj)
    for card in data["cards"]:
        for field in ("name", "description"):
            yield 0, "_", card[field], [f"Word Jam's theme card {card['id']}: its {field}"]
