"""Shared fixtures: an app with a temporary database, its client, and helpers for forms."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"), "SECRET_KEY": "test",
                      "STREAM_SECONDS": 1, "KEEPALIVE_SECONDS": 0.2})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class Phone:
    """A Flask test client acting as one device: it keeps its cookie and CSRF token."""

    def __init__(self, app):
        self.client = app.test_client()
        self.csrf = None

    def get(self, url, **kwargs):
        response = self.client.get(url, **kwargs)
        found = re.search(r'name="csrf" content="([^"]+)"', response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, url, data=None, fetch=True, **kwargs):
        if self.csrf is None:
            self.get("/")
        data = {"csrf": self.csrf, **(data or {})}
        headers = {"X-Requested-With": "fetch"} if fetch else {}
        return self.client.post(url, data=data, headers=headers, **kwargs)

    def open_table(self, game="escalero", players=("Anna", "Ben"), **rules):
        data = {"player": list(players), **{f"rule_{k}": str(v) for k, v in rules.items()}}
        response = self.post(f"/new/{game}", data, fetch=False)
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"].rsplit("/", 1)[-1]

    def join(self, token, name):
        page = self.get(f"/t/{token}").get_data(as_text=True)
        seat = re.search(rf'name="seat" value="(\d+)">{re.escape(name)}[< ]', page)
        assert seat, f"no free seat for {name}"
        response = self.post(f"/t/{token}/join", {"seat": seat.group(1)}, fetch=False)
        assert response.status_code == 303
        return response

    def enter(self, token, event, idem=None, seen=None):
        """POST an entry as the page's script does: with the entries the board showed (read
        from the board now, unless `seen` is given)."""
        if seen is None:
            board = self.client.get(f"/t/{token}/board").get_data(as_text=True)
            found = re.search(r'data-entries="(\d+)"', board)
            seen = found.group(1) if found else ""
        data = {"event": json.dumps(event), "seen": str(seen)}
        if idem:
            data["idem"] = idem
        return self.post(f"/t/{token}/entries", data)


@pytest.fixture
def phone(app):
    """Make another device: phone() -> Phone."""
    return lambda: Phone(app)
