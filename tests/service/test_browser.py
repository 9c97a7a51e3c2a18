"""What a browser sees: a frontend on another origin calling the API with CORS (the preflight and
the request, with the headers a browser sends), and Swagger UI at /docs served by the engine
itself, from the pinned swagger-ui-bundle package, under a Content-Security-Policy that allows
nothing from elsewhere."""

from __future__ import annotations

import re

from service_helpers import auth

FRONTEND = "http://localhost:5173"  # a dev server of a web client, another origin
BROWSER = {"Origin": FRONTEND, "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-site",
           "Referer": f"{FRONTEND}/lobby", "Accept": "*/*",
           "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"}


def _preflight(client, path, method, headers="authorization,content-type"):
    return client.options(path, headers={**BROWSER, "Access-Control-Request-Method": method,
                                         "Access-Control-Request-Headers": headers})


def test_a_frontend_on_another_origin_lists_joins_and_leaves(app_factory):
    client = app_factory(cors_origins=FRONTEND).test_client()
    # GET /v1/games is a simple request: no preflight, the answer must name the origin
    listing = client.get("/v1/games?status=open", headers=BROWSER)
    assert listing.status_code == 200
    assert listing.headers["Access-Control-Allow-Origin"] == FRONTEND
    assert "Origin" in listing.headers["Vary"]
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2},
                          headers=BROWSER).get_json()
    gid = created["game"]["id"]
    # a JSON POST: preflight first, as a browser does
    pre = _preflight(client, f"/v1/games/{gid}/seats", "POST", "content-type,idempotency-key")
    assert pre.status_code == 204
    assert pre.headers["Access-Control-Allow-Origin"] == FRONTEND
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    allowed = pre.headers["Access-Control-Allow-Headers"].lower()
    assert "content-type" in allowed and "idempotency-key" in allowed
    joined = client.post(f"/v1/games/{gid}/seats", json={"name": "Ada"},
                         headers={**BROWSER, "Idempotency-Key": "k1"})
    assert joined.status_code == 201
    assert joined.headers["Access-Control-Allow-Origin"] == FRONTEND
    exposed = joined.headers["Access-Control-Expose-Headers"]
    assert "Location" in exposed and "Idempotent-Replayed" in exposed
    token = joined.get_json()["token"]
    # leaving is a DELETE with a bearer token: preflighted, and DELETE must be allowed
    pre = _preflight(client, f"/v1/games/{gid}/seats/0", "DELETE", "authorization")
    assert pre.status_code == 204
    assert "DELETE" in pre.headers["Access-Control-Allow-Methods"]
    assert "authorization" in pre.headers["Access-Control-Allow-Headers"].lower()
    left = client.delete(f"/v1/games/{gid}/seats/0", headers={**BROWSER, **auth(token)})
    assert left.status_code == 200
    assert left.headers["Access-Control-Allow-Origin"] == FRONTEND
    # errors carry CORS headers too, or the frontend could not read their problem JSON
    bad = client.get("/v1/games?status=nope", headers=BROWSER)
    assert bad.status_code == 400 and bad.headers["Access-Control-Allow-Origin"] == FRONTEND


def test_another_origin_gets_no_cors_headers(app_factory):
    client = app_factory(cors_origins=FRONTEND).test_client()
    evil = {**BROWSER, "Origin": "https://evil.example"}
    assert "Access-Control-Allow-Origin" not in client.get("/v1/games", headers=evil).headers
    pre = client.options("/v1/games/x/seats/0", headers={
        **evil, "Access-Control-Request-Method": "DELETE"})
    assert "Access-Control-Allow-Origin" not in pre.headers
    assert "Access-Control-Allow-Methods" not in pre.headers


def test_swagger_ui_is_served_by_the_engine_offline(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "http" not in csp and "unsafe" not in csp  # nothing from elsewhere, no inline code
    assert not re.search(r"https?://", html), "the page loads nothing from another site"
    assert "<script>" not in html  # no inline script: every script is a file from here
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(assets) >= 4
    for path in assets:
        assert path.startswith("/docs/"), path
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert resp.headers["Content-Security-Policy"] == csp
        body = resp.get_data()
        assert body
        if path.endswith(".js") and "bundle" in path:
            assert b"SwaggerUIBundle" in body
    init = client.get("/docs/init.js").get_data(as_text=True)
    assert '"/openapi.json"' in init
    # the spec is OpenAPI 3.1, which Swagger UI renders from version 5 on
    from swagger_ui_bundle import swagger_ui_path

    assert client.get("/openapi.json").get_json()["openapi"].startswith("3.1")
    assert int(swagger_ui_path.name.removeprefix("swagger-ui-").split(".")[0]) >= 5
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/docs/static/../../app.py").status_code == 404
    assert client.get("/docs/static/index.html").status_code == 404  # only the files it needs
