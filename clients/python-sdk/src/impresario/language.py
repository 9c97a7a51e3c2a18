"""The terminal client's language: Italian, German, French or English, as the page offers.

``--lang`` wins; else the first of gettext's variables that is set (``LANGUAGE``, a colon-separated
list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) whose language, by its primary subtag
(``it_CH.UTF-8`` is Italian), is one of ours; else English. The rules texts and the message
catalogues use the same four codes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from impresario_rules.texts import DEFAULT_LANGUAGE as DEFAULT_LANGUAGE
from impresario_rules.texts import LANGUAGES as CODES

#: each language by its own name, as the page's switch names them
NAMES = {"en": "English", "it": "Italiano", "de": "Deutsch", "fr": "Français"}
#: the languages the rules are written in, in their order
LANGUAGES = {code: NAMES[code] for code in CODES}
ENV_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def primary(tag: str) -> str:
    """``it_CH.UTF-8@euro`` -> ``it``; ``C`` and ``POSIX`` -> ``c`` and ``posix`` (not ours)."""
    return tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


def pick_language(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``flag`` (``--lang``) if given, else the environment's."""
    if flag:
        code = primary(flag)
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {flag!r}: one of {', '.join(LANGUAGES)}")
        return code
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        # gettext reads LANGUAGE only when the locale is not C; a list, the first ours wins
        for tag in value.split(":") if name == "LANGUAGE" else [value]:
            if primary(tag) in LANGUAGES:
                return primary(tag)
        if name != "LANGUAGE":
            return DEFAULT_LANGUAGE  # the first set locale variable decides, as in gettext
    return DEFAULT_LANGUAGE
