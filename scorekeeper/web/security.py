"""Device identity, CSRF protection and security headers.

A device is known by a random id in Flask's signed session cookie (HttpOnly, SameSite=Lax);
seats and hosting are bound to that id in the database. Every state-changing request must
carry the session's CSRF token, in the `X-CSRF-Token` header (htmx) or a `csrf` form field.
"""

from __future__ import annotations

import hmac
import os
import secrets
import tempfile

from flask import Flask, abort, g, request, session

from .i18n import _

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'")


def load_secret_key(app: Flask) -> None:
    """The secret key lives in instance/secret_key, generated on first start: written whole to a
    temporary file and linked into place, so a worker starting at the same moment reads the
    first key written, never an empty file (it used to, 795 times in 2,000 races)."""
    if app.config.get("SECRET_KEY"):
        return
    path = os.path.join(app.instance_path, "secret_key")
    try:
        with open(path, "rb") as handle:
            key = handle.read()
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        fd, temporary = tempfile.mkstemp(prefix=".secret_key-", dir=app.instance_path)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(key)
                handle.flush()
                os.fsync(handle.fileno())
            os.link(temporary, path)  # atomic, and never over a key another worker wrote
        except FileExistsError:
            with open(path, "rb") as handle:
                key = handle.read()
        finally:
            os.unlink(temporary)
    if len(key) < 16:
        raise RuntimeError(f"{path} holds no usable key: delete it and start again")
    app.config["SECRET_KEY"] = key


def device_id() -> str:
    """This browser's id, created on first use."""
    return _session_secret("device", 16)


def csrf_token() -> str:
    return _session_secret("csrf", 32)


def _session_secret(key: str, size: int) -> str:
    """A random value kept in the signed session under `key` (`size` bytes, URL-safe)."""
    value = session.get(key)
    if not isinstance(value, str) or len(value) != -(-4 * size // 3):  # its base64 length
        value = secrets.token_urlsafe(size)
        session[key] = value
        session.permanent = True
    return value


def check_csrf() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(str(sent).encode(), expected.encode()):
        g.csrf_failed = True
        abort(403, _("This page has expired. Reload it and try again."))


def set_headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def init_app(app: Flask) -> None:
    load_secret_key(app)
    # Flask's defaults exist for these keys, so they are set, not defaulted
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["PERMANENT_SESSION_LIFETIME"] = 60 * 60 * 24 * 365  # a phone stays in its seat
    app.before_request(check_csrf)
    app.after_request(set_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
