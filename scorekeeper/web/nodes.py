"""Many nodes behind one address: each table lives on one node, and its links and code say which.

A node is one `scorekeeper serve` with its own database, named by `NODE`, one character of the
codes' alphabet. Its tables' join and board tokens start with "<node>." and their short codes
with the node's character (service.token, service._free_code), so a proxy sends
`/t/<token>/…` and `/b/<token>/…` to the node that holds the table (docs/nginx-nodes.conf). The
home page, new tables and imports go to any node. A code is typed on whichever node served the
home page: one of another node is sent on with a 307 (the same POST, its body kept) to
`/n/<node>/join`, which the proxy routes by that node's character, and that node answers as if
`/join` had been asked of it. `--played-at` codes of imports go the same way.
"""

from __future__ import annotations

from flask import Flask, current_app, redirect, request

from ..settings import SettingError
from ..service import CODE_ALPHABET

ROUTED = "scorekeeper.routed_to"  # environ: the node a request's /n/<node>/ prefix named
FIELDS = {"/join": "code", "/import": "played_at"}  # the routes that take a code, and its field


def node_of(code: str) -> str | None:
    """The node a typed code names: its first character, when it is a node's code (one longer
    than a single node's)."""
    clean = "".join(ch for ch in (code or "").upper() if ch.isalnum())
    if len(clean) == 7 and clean[0] in CODE_ALPHABET:
        return clean[0]
    return None


def send_on():
    """Before a code is looked up: a code of another node goes there (once: a request the proxy
    routed by its prefix is answered here, found or not)."""
    own = current_app.config.get("NODE")
    field = FIELDS.get(request.path)
    if not own or request.method != "POST" or field is None or request.environ.get(ROUTED):
        return None
    node = node_of(request.form.get(field, ""))
    if node is None or node == own:
        return None
    return redirect(f"/n/{node}{request.path}", 307)


def strip_prefix(app):
    """`/n/<node>/<path>` is `/<path>`, asked of that node (the proxy routed it by the prefix)."""

    def routed(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path.startswith("/n/") and len(path) > 4 and path[4] == "/" and path[3] in CODE_ALPHABET:
            environ[ROUTED] = path[3]
            environ["PATH_INFO"] = path[4:]
        return app(environ, start_response)

    return routed


def init_app(app: Flask) -> None:
    node = (app.config.get("NODE") or "").strip().upper()
    if node and (len(node) != 1 or node not in CODE_ALPHABET):
        raise SettingError(f"NODE must be one character of {CODE_ALPHABET}, not {node!r}")
    app.config["NODE"] = node
    app.wsgi_app = strip_prefix(app.wsgi_app)
    app.before_request(send_on)
