"""The SDK's generated layer is exactly what the generator makes from the committed spec."""

import importlib.util
import typing
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "clients" / "python-sdk" / "tools" / "generate.py"
OUT = ROOT / "clients" / "python-sdk" / "src" / "impresario" / "_generated"


def _generator():
    spec = importlib.util.spec_from_file_location("sdk_generate", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_code_matches_the_spec():
    generated = _generator().generate()
    assert {"models.py", "operations.py", "aoperations.py", "__init__.py"} <= set(generated)
    for name, text in generated.items():
        committed = (OUT / name).read_text(encoding="utf-8")
        assert committed == text, f"{name} drifted from openapi.yaml: run `make sdk` and commit"


def test_one_function_per_operation():
    from impresario._generated import operations

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    op_ids = [op["operationId"] for item in spec["paths"].values()
              for m, op in item.items() if m != "parameters"]
    gen = _generator()
    assert sorted(operations.OPERATIONS) == sorted(gen.snake(o) for o in op_ids)
    for name in operations.OPERATIONS:
        assert callable(getattr(operations, name))


def test_the_async_operations_are_the_same_operations_as_coroutines():
    """aoperations.py has a coroutine per operation, with the sync one's parameters, and checks
    answers with operations.py's own as_* functions (imported, not copies)."""
    import inspect

    from impresario._generated import aoperations, operations

    assert aoperations.OPERATIONS == operations.OPERATIONS
    for name in operations.OPERATIONS:
        sync, coro = getattr(operations, name), getattr(aoperations, name)
        assert inspect.iscoroutinefunction(coro), name
        assert list(inspect.signature(coro).parameters) == \
            list(inspect.signature(sync).parameters), name
    assert aoperations.as_game is operations.as_game
    assert not [n for n in vars(aoperations) if n.startswith("as_")
                and getattr(aoperations, n) is not getattr(operations, n)]


def test_every_schema_has_a_model():
    from impresario._generated import models

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    for name in spec["components"]["schemas"]:
        assert hasattr(models, name), name


def test_discriminated_unions_narrow_on_their_tag():
    """Each oneOf with a discriminator is a union of TypedDicts whose tag is the Literal of its
    value, so a type checker narrows ``move["type"] == "bid"`` to ``BidMove``."""
    from impresario._generated import models

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    unions = {name: schema["discriminator"] for name, schema in spec["components"]["schemas"].items()
              if "discriminator" in schema}
    assert {"Game", "Move", "ActionSpace"} <= set(unions)
    for name, disc in unions.items():
        members = typing.get_args(getattr(models, name))
        by_name = {m.__name__: m for m in members}
        for value, ref in disc["mapping"].items():
            member = by_name[ref.rsplit("/", 1)[-1]]
            tag = typing.get_type_hints(member)[disc["propertyName"]]
            assert typing.get_origin(tag) is typing.Literal and typing.get_args(tag) == (value,), \
                (name, value, tag)
        assert len(members) == len(disc["mapping"]), name
