"""A stranger on the internet, and the server behind a reverse proxy (issue 16): the address a
limit counts, the hosts the server answers to, the join link that never follows a Host
header, cookies that expire and go only over HTTPS there, and short codes that expire."""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app, service, store
from tests.support import Phone


def make_app(tmp_path, **config):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"), "SECRET_KEY": "x", **config})


def test_behind_a_proxy_one_attacker_does_not_lock_everyone_out(tmp_path):
    """X-Forwarded-For was ignored: ten wrong codes from one attacker behind the proxy locked
    out every phone (all came from the proxy's address)."""
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    host = Phone(app)
    token = host.open_table("escalero", players=("Anna", "Ben"))
    code = store.connect(app.config["DATABASE"])["tables"].rows_where("join_token = ?", [token]).__next__()["code"]
    attacker, player = Phone(app), Phone(app)
    for _ in range(service.JOIN_ATTEMPTS + 2):
        attacker.post("/join", {"code": "ZZZZZZ"}, fetch=False, headers={"X-Forwarded-For": "203.0.113.7"})
    locked = attacker.post("/join", {"code": code}, fetch=False, headers={"X-Forwarded-For": "203.0.113.7"})
    assert locked.status_code == 429
    found = player.post("/join", {"code": code}, fetch=False, headers={"X-Forwarded-For": "198.51.100.20"})
    assert found.status_code == 303 and found.headers["Location"].endswith(f"/t/{token}")


def test_ipv6_counts_by_its_64(tmp_path):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    attacker = Phone(app)
    for number in range(service.JOIN_ATTEMPTS):  # a new address of the same /64 every time
        attacker.post("/join", {"code": "ZZZZZZ"}, fetch=False,
                      headers={"X-Forwarded-For": f"2001:db8:1:2::{number + 1:x}"})
    again = attacker.post("/join", {"code": "ZZZZZZ"}, fetch=False, headers={"X-Forwarded-For": "2001:db8:1:2::ffff"})
    assert again.status_code == 429
    other = Phone(app).post("/join", {"code": "ZZZZZZ"}, fetch=False, headers={"X-Forwarded-For": "2001:db8:9:9::1"})
    assert other.status_code == 404


def test_the_join_link_never_follows_the_host_header(tmp_path):
    app = make_app(tmp_path)
    host = Phone(app)
    token = host.open_table("escalero", players=("Anna", "Ben"))
    page = host.get(f"/t/{token}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page
    allowed = make_app(tmp_path / "allowed", ALLOWED_HOSTS="scores.example")
    phone = Phone(allowed)
    token = service.create_table(store.connect(allowed.config["DATABASE"]), "d", "escalero", {},
                                 ["Anna", "Ben"])["join_token"]
    page = phone.get(f"/t/{token}", headers={"Host": "scores.example"}).get_data(as_text=True)
    assert f"http://scores.example/t/{token}" in page
    refused = phone.get("/", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and "does not answer to that address" in refused.get_data(as_text=True)


def test_cookies_expire_and_go_only_over_https_behind_tls(tmp_path):
    app = make_app(tmp_path, BASE_URL="https://scores.example", TRUSTED_PROXIES=1)
    phone = Phone(app)
    cookie = phone.get("/", headers={"X-Forwarded-Proto": "https"}).headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    expires = re.search(r"Expires=([^;]+)", cookie).group(1)
    from email.utils import parsedate_to_datetime
    from datetime import datetime, timezone
    days = (parsedate_to_datetime(expires) - datetime.now(timezone.utc)).days
    assert 28 <= days <= 31
    plain = make_app(tmp_path / "plain")
    assert "Secure" not in Phone(plain).get("/").headers["Set-Cookie"]


def test_short_codes_expire(tmp_path):
    app = make_app(tmp_path)
    host = Phone(app)
    token = host.open_table("escalero", players=("Anna", "Ben"))
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)
    db["tables"].update(table["id"], {"created_at": "2026-01-01T20:00:00+00:00"})
    old = Phone(app).post("/join", {"code": table["code"]}, fetch=False)
    assert old.status_code == 404
    assert Phone(app).get(f"/t/{token}").status_code == 200  # the QR code's link still works


@pytest.mark.parametrize("header", ["X-Forwarded-For", "X-Forwarded-Host"])
def test_forwarded_headers_are_ignored_without_a_trusted_proxy(tmp_path, header):
    app = make_app(tmp_path)
    attacker = Phone(app)
    for number in range(service.JOIN_ATTEMPTS):
        attacker.post("/join", {"code": "ZZZZZZ"}, fetch=False, headers={header: f"203.0.113.{number}"})
    assert attacker.post("/join", {"code": "ZZZZZZ"}, fetch=False).status_code == 429
