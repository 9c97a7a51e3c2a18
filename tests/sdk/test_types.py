"""The generated models give mypy the shapes: the SDK README's typed example passes
mypy --strict, and a field of one ruleset read from a view not narrowed to it is caught, as is
a field of one action space read from a space not narrowed to it, and a singer's field read from
a Turandot card not narrowed to a singer."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "clients" / "python-sdk" / "README.md").read_text(
    encoding="utf-8")

WRONG = '''
from impresario import models


def round_of(view: models.Game) -> int:
    return view["round"]  # Turandot's only


def round_if_turandot(view: models.Game) -> int | None:
    return view["round"] if view["ruleset"] == "turandot" else None


def slots(space: models.ActionSpace) -> list[int]:
    return space["slots"]  # the bid's only


def slots_if_bid(space: models.ActionSpace) -> list[int]:
    return space["slots"] if space["type"] == "bid" else []


def stars(card: models.Card) -> int:
    return card["stars"]  # a singer's only


def stars_if_singer(card: models.Card) -> int:
    return card["stars"] if card["kind"] == "singer" else 0
'''


def test_views_and_spaces_narrow_on_their_tag(tmp_path, mypy_strict):
    types = README[README.index("## Types"):]
    (tmp_path / "example.py").write_text(
        re.search(r"```python\n(.*?)```", types, re.S).group(1), encoding="utf-8")
    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    done = mypy_strict("example.py", "wrong.py", cwd=tmp_path)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert {int(line.split(":")[1]) for line in errors} == {6, 14, 22}, done.stdout
    assert all(line.startswith("wrong.py:") for line in errors), done.stdout
    assert 'TypedDict "WordJamGame" has no key "round"' in done.stdout
    assert 'TypedDict "CastSpace" has no key "slots"' in done.stdout
    assert 'TypedDict "Director" has no key "stars"' in done.stdout
