"""Each operation lists the problem codes it may answer, per status (api/problems.py, an enum
in the spec), and the list is whole: every code the engine's sources and the rules raise is
listed for some operation. That a response's code is among its operation's is checked on every
response the suite's app sends (tests/conftest.py validates each against the spec)."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from impresario_engine.api.problems import EDGE_CODES, PAGE_CODES, codes
from impresario_rules import RULESETS

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
ENGINE = ROOT / "services" / "engine" / "src" / "impresario_engine"


def _operations():
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if method != "parameters":
                yield f"{method.upper()} {path}", op


def _listed() -> set[str]:
    out = set(EDGE_CODES) | PAGE_CODES
    for _, op in _operations():
        for found in codes(op["operationId"]).values():
            out.update(found)
    return out


def test_each_operation_lists_codes_for_exactly_the_statuses_it_documents():
    for name, op in _operations():
        documented = {int(s) for s in op["responses"] if s[0] in "45"}
        assert set(codes(op["operationId"])) == documented, name


def test_every_code_the_engine_raises_is_listed():
    raised = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            at = {"ApiError": 1, "problem": 1, "_refuse": 1, "Refused": 0, "_limit": 4}.get(name)
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            for value in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    raised.add(value.value)
    missing = sorted(raised - _listed())
    assert not missing, f"codes no operation lists: {missing}"


def test_every_code_the_rules_refuse_with_is_listed():
    listed = _listed()
    for name, rules in RULESETS.items():
        r = rules.refusals
        for code in (*r.illegal, *r.not_now, *r.stale, *r.options, *r.calculator, *r.score):
            assert code in listed, (name, code)


def test_every_code_the_rules_texts_refuse_with_is_a_page_code():
    """GET /web/rules/<ruleset> answers with the rules texts' own codes (RulesNotFound)."""
    source = ROOT / "rules" / "src" / "impresario_rules" / "texts.py"
    raised = {node.args[0].value for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
              if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesNotFound"
              and node.args and isinstance(node.args[0], ast.Constant)}
    assert raised == PAGE_CODES - {"invalid_qr_text"}  # that one is the QR route's (web.py)


def test_every_fact_a_problem_may_carry_is_declared():
    """The extra fields of a problem: every keyword the sources give a refusal, and the
    situation a ``deadline_passed`` reports (each ruleset's ``situation``)."""
    declared = set(SPEC["components"]["schemas"]["Problem"]["properties"])
    given = set()
    for root in (ENGINE, ROOT / "rules" / "src" / "impresario_rules"):
        for path in root.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = getattr(getattr(node, "func", None), "id",
                               getattr(getattr(node, "func", None), "attr", None))
                if isinstance(node, ast.Call) and name in (
                        "ApiError", "Refused", "IllegalMove", "OutOfTurn", "InvalidOptions",
                        "_fail", "problem", "word_refusal"):
                    given.update(k.arg for k in node.keywords if k.arg)
    given -= {"kind", "headers", "retry_after"}  # how it is sent, not what it says
    for rules in RULESETS.values():
        state, _ = rules.new_game(rules.min_players, None, 1)
        given.update(rules.situation(state, 0))
    assert sorted(given - declared) == []
