"""``/docs``: Swagger UI for the spec at ``/openapi.json``, served from the pinned
``swagger-ui-bundle-v2`` package (Swagger UI 5, which renders OpenAPI 3.1; no CDN: it works
offline). Every file comes from this origin, the page has no inline script or style, and its
Content-Security-Policy allows nothing else. The base layout is used, without the standalone
preset: its top bar draws a logo with an inline ``<style>`` the policy would refuse."""

from __future__ import annotations

from flask import Blueprint, Response, abort, send_from_directory

from .http import SECURITY_HEADERS

bp = Blueprint("docs", __name__)

#: what Swagger UI needs, from this origin only: its script and styles, its inline SVG icons
#: (data: images), and the spec (fetched by the script)
DOCS_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
FILES = ("swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Impresario engine API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/static/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""

INIT = """window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
};
"""


def _headers(resp: Response) -> Response:
    resp.headers["Content-Security-Policy"] = DOCS_CSP
    for key, value in SECURITY_HEADERS.items():
        resp.headers.setdefault(key, value)
    return resp


@bp.get("/docs")
def page() -> Response:
    resp = Response(PAGE, mimetype="text/html")
    resp.headers["Cache-Control"] = "no-cache"
    return _headers(resp)


@bp.get("/docs/init.js")
def init() -> Response:
    resp = Response(INIT, mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    return _headers(resp)


@bp.get("/docs/static/<name>")
def static_file(name: str) -> Response:
    if name not in FILES:
        abort(404)
    from swagger_ui_bundle import swagger_ui_path

    resp = send_from_directory(str(swagger_ui_path), name, max_age=86400)
    return _headers(resp)
