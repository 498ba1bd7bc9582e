"""Device identity, CSRF protection and security headers.

A device is known by a random id in Flask's signed session cookie (HttpOnly, SameSite=Lax);
seats and hosting are bound to that id in the database. Every state-changing request must
carry the session's CSRF token, in the `X-CSRF-Token` header (htmx) or a `csrf` form field.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import tempfile

from flask import Flask, abort, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from ..settings import whole_number
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


def known_device() -> str | None:
    """This browser's id if it has one, never made: a first visit, or a stranger's look at a
    page, gets no session for it."""
    device = session.get("device")
    return device if isinstance(device, str) else None


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


def client_address() -> str:
    """Whom a limit counts: the client's address (behind trusted proxies, the one they report),
    an IPv6 address by its /64 — one household or phone network holds a whole /64."""
    address = request.remote_addr or "?"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def check_host() -> None:
    """With ALLOWED_HOSTS set, any other Host header is refused (a DNS-rebinding page, or a
    link built for a host that is not ours)."""
    allowed = current_app.config.get("ALLOWED_HOSTS")
    if allowed and request.host.rsplit(":", 1)[0].strip("[]").lower() not in allowed:
        abort(400, _("This server does not answer to that address."))


def from_script() -> bool:
    """A request htmx made (htmx-flask's `request.htmx`): a header no navigation, form or other
    site's page can send (a cross-site request with it needs a CORS preflight we never answer),
    so its answer is read by htmx and never shown as a document."""
    return bool(request.htmx)


def set_headers(response):
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # an answer made for one phone (whatever read its cookie: its tables and their join links,
    # its statistics, its seat's downloads) is kept by no shared cache; "Vary: Cookie" alone let
    # a cache that ignores Vary hand it to the next phone, and a page htmx opened carries no
    # Set-Cookie that would have stopped it. The static files read no cookie: they stay public
    if session.accessed:
        response.headers.setdefault("Cache-Control", "private")
    # Performance (bench/, issue 18): what governs a document (its scripts, framing, referrers)
    # goes on everything a browser could show as one; our script's answers (an entry's few
    # cells) do without its ~400 bytes
    if not from_script():
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
    return response


class Sessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, renewed by every page a phone opens (a month from its last
    visit) but not by each of its script's requests: an entry's answer carries no cookie."""

    def should_set_cookie(self, app: Flask, session) -> bool:
        return session.modified or (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]
                                    and not from_script())

    def save_session(self, app: Flask, session, response) -> None:
        super().save_session(app, session, response)
        # Performance (bench/, issue 23): the answer to a POST is never stored by a cache, so
        # what it varies with and its no-store say nothing there; an entry's answer is ~1 KB
        if request.method == "POST" and from_script():
            response.headers.pop("Vary", None)
            response.headers.pop("Cache-Control", None)


def init_app(app: Flask) -> None:
    load_secret_key(app)
    # Flask's defaults exist for these keys, so they are set, not defaulted
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    # a phone keeps its seat for a month of pub evenings (each visit renews the cookie); a copy
    # of an old cookie stops working then, and the host removes a phone from a table at once
    app.config["PERMANENT_SESSION_LIFETIME"] = 60 * 60 * 24 * 30
    app.session_interface = Sessions()
    base = app.config.get("BASE_URL") or ""
    app.config["SESSION_COOKIE_SECURE"] = base.startswith("https://")
    hosts = app.config.get("ALLOWED_HOSTS") or os.environ.get("SCOREKEEPER_ALLOWED_HOSTS") or ""
    if isinstance(hosts, str):
        hosts = [h.strip() for h in hosts.split(",") if h.strip()]
    app.config["ALLOWED_HOSTS"] = frozenset(h.lower() for h in hosts)
    # behind a reverse proxy: how many proxies' X-Forwarded-For/-Proto/-Host to believe
    hops = app.config["TRUSTED_PROXIES"] = whole_number(
        "TRUSTED_PROXIES", app.config.get("TRUSTED_PROXIES") or os.environ.get("SCOREKEEPER_TRUSTED_PROXIES"))
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    app.before_request(check_host)
    app.before_request(check_csrf)
    app.after_request(set_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
