"""Installing Scorekeeper on a phone's home screen: the manifest's type and the service worker.

The service worker lives at /sw.js so that its scope is the whole site, but it only ever
answers for /static/ files; entries, pages and live streams always go to the server.
"""

from __future__ import annotations

import mimetypes

from flask import Blueprint, current_app, send_from_directory

mimetypes.add_type("application/manifest+json", ".webmanifest")

bp = Blueprint("install", __name__)


@bp.get("/sw.js")
def service_worker():
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up at once
    response.headers["Service-Worker-Allowed"] = "/"
    return response
