"""Shared fixtures: an app with a temporary database, its client, and helpers for forms."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorekeeper import create_app, store
from tests.support import Phone


@pytest.fixture(scope="session")
def empty_database(tmp_path_factory) -> Path:
    """A database made by the app's migrations and nothing else, once per test process: each
    test's app starts from a copy (create_app then finds its schema up to date), 13 ms of CPU
    less for each of the ~900 apps the suite makes. Tests of the migrations make their own."""
    path = tmp_path_factory.mktemp("empty") / "empty.db"
    db = store.connect(str(path))
    store.migrate(db)
    db.conn.close()
    return path


@pytest.fixture
def app(tmp_path, empty_database):
    database = tmp_path / "test.db"
    shutil.copyfile(empty_database, database)
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "test",
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
