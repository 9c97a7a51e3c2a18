"""The last pass over the spec the schemas and blueprints describe: what apispec cannot say
directly, said once here for every operation.

- A field holding a component is a plain ``$ref`` (apispec keeps a ``$ref`` written in a
  field's metadata only inside a one-item ``allOf``, which generators read as a new anonymous
  type and lose the union behind it).
- A nullable enum is ``anyOf: [{enum}, {type: null}]``: generators make one enum type and an
  optional of it, where ``type: [string, null]`` with ``null`` among the values gives some of
  them three.
- Every operation states its security: ``[]`` for the public ones.
- An operation answering 304 declares the ``If-None-Match`` header it compares.
- Each problem response lists the codes the operation may answer with that status (an enum,
  from :mod:`.problems`).
- Every operation has a ``default`` problem response: the refusals made before a request
  reaches an operation (400 ``bad_request``, 408 ``request_timeout``, 414 ``uri_too_long``,
  431 ``headers_too_large``) and 500 ``internal_error``.
"""

from __future__ import annotations

from typing import Any

from .problems import EDGE_CODES, codes

PROBLEM_REF = "#/components/schemas/Problem"
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")

IF_NONE_MATCH = {
    "name": "If-None-Match", "in": "header", "required": False,
    "description": "the ETag of the version you have (`\"12\"`, weak `W/\"12\"`, a list, or "
                   "`*`): 304 without a body while the game is still at that version",
    "schema": {"type": "string"},
}


def finish(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` (a dict apispec made) with the rules above applied, in place; returned."""
    spec["components"]["schemas"] = _plain_refs(spec["components"]["schemas"])
    spec["components"]["schemas"]["EdgeProblem"] = {
        "allOf": [{"$ref": PROBLEM_REF}],
        "description": "a refusal made before the request reached an operation",
        "properties": {"code": {"type": "string", "enum": sorted(EDGE_CODES)}},
    }
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in _METHODS:
                continue
            item[method] = op = _plain_refs(op)
            op.setdefault("security", [])
            for status, found in codes(op.get("operationId", "")).items():
                response = op["responses"].get(str(status))
                if response is None:
                    continue
                for content in response.get("content", {}).values():
                    content["schema"] = {"allOf": [{"$ref": PROBLEM_REF}], "properties": {
                        "code": {"type": "string", "enum": found}}}
                    example = content.get("example")
                    if example is not None and example.get("code") not in found:
                        # the shared example of the status names another code: one of the
                        # operation's own instead
                        code = found[0]
                        content["example"] = {
                            **example, "type": example["type"].rsplit("/", 1)[0] + "/" + code,
                            "code": code, "detail": code.replace("_", " ")}
            if "304" in op["responses"] and not any(
                    p.get("name") == "If-None-Match" for p in op.get("parameters", [])):
                op.setdefault("parameters", []).append(dict(IF_NONE_MATCH))
            if path.startswith("/v1/"):
                op["responses"].setdefault("default", {
                    "description": "a refusal made before the request reached the operation "
                                   "(400, 408, 414, 431) or an unexpected failure (500)",
                    "content": {"application/problem+json": {
                        "schema": {"$ref": "#/components/schemas/EdgeProblem"}}}})
    return spec


def _plain_refs(node: Any) -> Any:
    """``node`` with every one-item ``allOf`` of a ``$ref`` made the ``$ref`` itself (its
    siblings kept: OpenAPI 3.1 allows them beside a ``$ref``), and nullable enums as
    ``anyOf``."""
    if isinstance(node, list):
        return [_plain_refs(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _plain_refs(v) for k, v in node.items()}
    every = out.get("allOf")
    if isinstance(every, list) and len(every) == 1 and set(every[0]) == {"$ref"}:
        del out["allOf"]
        out = {"$ref": every[0]["$ref"], **out}
    kinds = out.get("type")
    values = out.get("enum")
    if isinstance(kinds, list) and "null" in kinds and len(kinds) == 2 and values is not None:
        kind = next(k for k in kinds if k != "null")
        choice = {"type": kind, "enum": [v for v in values if v is not None]}
        rest = {k: v for k, v in out.items() if k not in ("type", "enum")}
        out = {"anyOf": [choice, {"type": "null"}], **rest}
    return out
