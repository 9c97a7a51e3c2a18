"""docs/architecture.md tells a newcomer where things are: every file it names exists, and every
rule of its table lives in the function it names, whose docstring names the ruling."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (turandot|wordjam|muzicando) \| (.+?) \| `([\w.]+)` \|$", re.M)
RULES = [m.groups() for m in ROW.finditer(DOC)]
PACKAGES = {"rules": ROOT / "rules" / "src" / "impresario_rules",
            "engine": ROOT / "services" / "engine" / "src" / "impresario_engine"}


def find(dotted: str):
    """The object a dotted path names (a module's function, or a class's method)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(dotted)


def test_the_table_covers_every_game():
    assert {game for game, _rule, _where in RULES} == {"turandot", "wordjam", "muzicando"}
    assert len(RULES) >= 30


@pytest.mark.parametrize("game,rule,where", RULES, ids=[f"{g}-{r[:24]}" for g, r, _ in RULES])
def test_each_rule_lives_in_the_function_the_doc_names(game, rule, where):
    assert f"impresario_rules.{game}." in where or where.startswith("impresario_rules.base.")
    found = find(where)
    doc = inspect.getdoc(found) or ""
    assert doc, f"{where} says nothing of what it does"
    ruling = re.match(r"R\d+\b", rule)
    if ruling:
        assert re.search(rf"\b{ruling.group()}\b", doc), f"{where}'s docstring does not name " \
                                                           f"{ruling.group()}"


def test_every_file_the_doc_names_exists():
    named = {n for n in re.findall(r"`((?:\w+/)*\w+\.py)`", DOC) if not n.startswith("tests/")}
    assert named
    for name in named:
        candidates = [base / name for base in PACKAGES.values()] + [
            base / sub / name for base in PACKAGES.values()
            for sub in ("turandot", "wordjam", "muzicando", "api", "usecases", "table", "store")]
        candidates += [ROOT / "clients" / "python-sdk" / "src" / "impresario" / name]
        assert any(p.exists() for p in candidates), name
