"""The browser table: ``GET /`` (the page) and ``GET /web/<file>`` (its modules, styles and the
vendored library). The client is static and talks to the engine only through the public API
(docs/web.md); this module only serves its files, and each game's full rules
(``GET /web/rules/<ruleset>?lang=<code>``: the rules package's text in that language, English
when no ``lang`` is given, with which section explains which prompt), and the QR code of a link
the page shows (``POST /web/qr``: another device's link, which carries a one-time code, so the
text comes in the body, never in a URL, and the answer is never cached).

- Content types are set explicitly (JavaScript modules must be served as JavaScript).
- Caching: the vendored files carry their version in their name and never change, so they are
  cached for a year as immutable; everything else is revalidated on each load (``no-cache``
  with an ETag of the file's content), so a new release is picked up at the next reload.
- Content-Security-Policy: scripts, styles, images and connections from this origin only; the
  one inline script, the import map, is allowed by its hash, computed here from the page.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import segno
from flask import Blueprint, Response, request
from impresario_rules.guide import guided_setup
from impresario_rules.texts import DEFAULT_LANGUAGE, LANGUAGES, RulesNotFound, prompts, rules_text

from .errors import ApiError
from .http import SECURITY_HEADERS, json_body

ROOT = Path(__file__).resolve().parent.parent / "web"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)

blp = Blueprint("web", __name__)


@dataclass(frozen=True)
class _File:
    body: bytes
    etag: str
    content_type: str
    cache: str


_cache: dict[tuple[Path, int], _File] = {}


def page_csp(page: bytes) -> str:
    """The policy of the page: nothing from elsewhere, no inline code but the import map."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.encode()).digest()).decode() + "'"
        for m in _IMPORT_MAP.findall(page.decode()))
    return ("default-src 'none'; script-src 'self' " + hashes + "; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; manifest-src 'self'; font-src 'self'; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _load(path: Path) -> _File:
    key = (path, path.stat().st_mtime_ns)  # an edited file is served anew (development)
    found = _cache.get(key)
    if found is None:
        body = path.read_bytes()
        immutable = path.parent.name == "vendor"
        found = _File(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"',
                      TYPES.get(path.suffix, "application/octet-stream"),
                      IMMUTABLE if immutable else REVALIDATE)
        _cache[key] = found
    return found


def _send(path: Path, csp: str) -> Response:
    return _answer(_load(path), csp)


def _answer(found: _File, csp: str, **extra: str) -> Response:
    headers = {"Cache-Control": found.cache, "ETag": found.etag,
               "Content-Security-Policy": csp, **SECURITY_HEADERS, **extra}
    if found.etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        return Response(status=304, headers=headers)
    return Response(found.body, status=200, headers=headers, content_type=found.content_type)


@blp.route("/", methods=["GET"])
def index() -> Response:
    page = ROOT / "index.html"
    return _send(page, page_csp(_load(page).body))


@blp.route("/web/<path:name>", methods=["GET"])
def asset(name: str) -> Response:
    missing = ApiError(404, "not_found", f"there is no file {name!r} in the web client")
    if "\0" in name:  # no file name holds one (the file system refuses to look it up)
        raise missing
    path = (ROOT / name).resolve()
    if ROOT not in path.parents or not path.is_file() or path.suffix not in TYPES \
            or path.name.startswith("."):
        raise missing
    return _send(path, FILE_CSP)


@blp.route("/sw.js", methods=["GET"])
def service_worker() -> Response:
    """The service worker that shows Web Push notifications (web/sw.js): served at the root,
    so that its scope covers the page (a worker's scope is at most its own folder)."""
    return _send(ROOT / "sw.js", "default-src 'none'; img-src 'self'")


#: a file never runs as a page of its own: it gets the strictest policy
FILE_CSP = "default-src 'none'; frame-ancestors 'none'"
_rules: dict[tuple[str, str], _File] = {}


@blp.route("/web/rules/<ruleset>", methods=["GET"])
def rules(ruleset: str) -> Response:
    """The full rules of ``ruleset`` in ``lang`` (default English) as Markdown, in JSON with the
    prompts' sections: ``{"ruleset", "lang", "languages", "markdown", "prompts"}``."""
    lang = request.args.get("lang") or DEFAULT_LANGUAGE
    found = _rules.get((ruleset, lang))
    if found is None:
        try:
            body = json.dumps({"ruleset": ruleset, "lang": lang, "languages": list(LANGUAGES),
                               "markdown": rules_text(ruleset, lang),
                               "prompts": prompts(ruleset)}, ensure_ascii=False).encode()
        except RulesNotFound as err:
            raise ApiError(404, err.code, err.message) from None
        found = _File(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"',
                      "application/json", REVALIDATE)
        _rules[(ruleset, lang)] = found
    return _answer(found, FILE_CSP, **{"Content-Language": lang})


@blp.route("/web/guide/<ruleset>", methods=["GET"])
def guided_table(ruleset: str) -> Response:
    """The guided first game of ``ruleset`` for a player reading ``lang`` (default English), as
    the rules package sets it (``impresario_rules.guide.guided_setup``): ``{"ruleset",
    "players", "seed", "bots", "options"}``, the table the lobby's "Learn to play" creates."""
    lang = request.args.get("lang") or DEFAULT_LANGUAGE
    try:
        body = json.dumps(guided_setup(ruleset, lang)).encode()
    except RulesNotFound as err:
        raise ApiError(404, err.code, err.message) from None
    found = _File(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', "application/json",
                  REVALIDATE)
    return _answer(found, FILE_CSP, **{"Content-Language": lang})


#: the longest text a QR code is drawn of: a link of the page (its origin, a fragment, a code)
QR_TEXT_MAX = 256


@blp.route("/web/qr", methods=["POST"])
def qr() -> Response:
    """The QR code of ``{"text": "..."}`` as SVG (black modules on white, a quiet zone of four
    modules), for the page to show as an image: 400/413/415 for a body that is not JSON, 422
    ``invalid_qr_text`` for a text that is missing, empty, longer than :data:`QR_TEXT_MAX` or
    not printable."""
    body = json_body()
    text = body.get("text") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text or len(text) > QR_TEXT_MAX \
            or not text.isprintable():
        wanted = f"1 to {QR_TEXT_MAX} printable characters"
        raise ApiError(422, "invalid_qr_text", f"send {{\"text\": ...}}: {wanted}",
                       errors={"text": [wanted]})
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=6, border=4,
                                                   dark="#000", light="#fff", xmldecl=False)
    return Response(out.getvalue(), status=200, content_type="image/svg+xml",
                    headers={"Cache-Control": "no-store", "Content-Security-Policy": FILE_CSP,
                             **SECURITY_HEADERS})
