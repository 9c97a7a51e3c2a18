"""The terminal client's language (impresario.language): --lang, then gettext's variables."""

from __future__ import annotations

import pytest

from impresario.language import pick_language


@pytest.mark.parametrize("flag, env, expected", [
    (None, {}, "en"),
    (None, {"LANG": "it_IT.UTF-8"}, "it"),
    (None, {"LANG": "de_CH.UTF-8"}, "de"),
    (None, {"LANG": "fr_CA"}, "fr"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LANG": "es_ES.UTF-8"}, "en"),
    (None, {"LC_ALL": "fr_FR.UTF-8", "LANG": "it_IT.UTF-8"}, "fr"),
    (None, {"LC_MESSAGES": "de_DE", "LANG": "it_IT"}, "de"),
    (None, {"LANGUAGE": "es:it:en", "LANG": "de_DE"}, "it"),
    (None, {"LANGUAGE": "es", "LANG": "de_DE.UTF-8"}, "de"),
    (None, {"LC_ALL": "C", "LANG": "it_IT"}, "en"),
    ("it", {"LANG": "de_DE"}, "it"),
    ("fr-BE", {}, "fr"),
    ("DE", {}, "de"),
])
def test_the_flag_then_gettexts_variables_pick_the_language(flag, env, expected):
    assert pick_language(flag, env) == expected


def test_an_unknown_flag_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="unknown language 'es'.*en, it, de, fr"):
        pick_language("es", {})


def test_the_cli_refuses_an_unknown_lang_before_doing_anything(capsys):
    from impresario.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["games", "--lang", "es", "--url", "http://127.0.0.1:9"])
    assert exit_.value.code == 2
    assert "unknown language 'es'" in capsys.readouterr().err
