"""Static files: versioned URLs (cached for a year) and compression of what we send."""

from __future__ import annotations

import gzip
import hashlib
import os

from flask import Flask, request, url_for

from .games import static_path

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


def init_app(app: Flask) -> None:
    versions: dict[str, str] = {}

    def path_of(filename: str) -> str:
        return static_path(filename) or os.path.join(app.static_folder, filename)

    def static_url(filename: str) -> str:
        """The URL of a static file (the app's, or a game's: "games/<game>/<file>") with a
        content hash, so a changed file gets a new URL."""
        version = versions.get(filename)
        if version is None or app.debug:
            path = path_of(filename)
            try:
                with open(path, "rb") as handle:
                    version = hashlib.sha256(handle.read()).hexdigest()[:10]
            except OSError:
                if app.testing or app.debug:  # a template names a file that is not there
                    raise
                version = "missing"
            versions[filename] = version
        if static_path(filename):
            _, game, name = filename.split("/", 2)
            return url_for("game_static", game=game, filename=name, v=version)
        return url_for("static", filename=filename, v=version)

    def static_exists(filename: str) -> bool:
        return os.path.isfile(path_of(filename))

    app.jinja_env.globals.update(static_url=static_url, static_exists=static_exists)

    packed: dict[tuple, bytes] = {}  # static files compressed once per process

    @app.after_request
    def compress(response):
        if response.direct_passthrough and request.endpoint in ("static", "game_static") and response.status_code == 200:
            key = (request.path, response.headers.get("ETag"))
            if key not in packed and "gzip" in request.headers.get("Accept-Encoding", "") \
                    and (response.mimetype or "").startswith(COMPRESSIBLE):
                response.direct_passthrough = False
                packed[key] = gzip.compress(response.get_data(), compresslevel=9)
            if key in packed and "gzip" in request.headers.get("Accept-Encoding", ""):
                response.direct_passthrough = False
                response.set_data(packed[key])
                response.headers["Content-Encoding"] = "gzip"
                response.headers["Content-Length"] = str(len(packed[key]))
                response.vary.add("Accept-Encoding")
            return response
        if (response.status_code < 200 or response.status_code >= 300 or response.direct_passthrough
                or response.is_streamed or "gzip" not in request.headers.get("Accept-Encoding", "")
                or "Content-Encoding" in response.headers
                or not (response.mimetype or "").startswith(COMPRESSIBLE)):
            return response
        body = response.get_data()
        if len(body) < 500:
            return response
        response.set_data(gzip.compress(body, compresslevel=6))
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Content-Length"] = str(len(response.get_data()))
        response.vary.add("Accept-Encoding")
        return response
