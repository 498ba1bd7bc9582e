"""Shared fixtures: an app with a temporary database, its client, and helpers for forms."""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from tests.support import Phone


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


@pytest.fixture
def phone(app):
    """Make another device: phone() -> Phone."""
    return lambda: Phone(app)
