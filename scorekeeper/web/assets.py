"""Static files: versioned URLs (cached for a year) and compression of what we send."""

from __future__ import annotations

import gzip
import hashlib
import os

from flask import Flask, request, url_for

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


def init_app(app: Flask) -> None:
    versions: dict[str, str] = {}

    def static_url(filename: str) -> str:
        """url_for('static') with a content hash, so a changed file gets a new URL."""
        version = versions.get(filename)
        if version is None or app.debug:
            path = os.path.join(app.static_folder, filename)
            try:
                with open(path, "rb") as handle:
                    version = hashlib.sha256(handle.read()).hexdigest()[:10]
            except OSError:
                version = "missing"
            versions[filename] = version
        return url_for("static", filename=filename, v=version)

    def static_exists(filename: str) -> bool:
        return os.path.isfile(os.path.join(app.static_folder, filename))

    app.jinja_env.globals.update(static_url=static_url, static_exists=static_exists)

    packed: dict[tuple, bytes] = {}  # static files compressed once per process

    @app.after_request
    def compress(response):
        if response.direct_passthrough and request.endpoint == "static" and response.status_code == 200:
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
