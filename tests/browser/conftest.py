"""Real-browser fixtures: the production server in its own process, and Debian's chromium.

Playwright never downloads a browser here: it drives /usr/bin/chromium.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`scorekeeper serve` on a free port with its own instance folder."""

    def __init__(self, instance, workers: int = 1):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance), "SCOREKEEPER_LIMITS": "off",
               "SCOREKEEPER_BASE_URL": self.url}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--workers", str(workers)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return
            except OSError:
                if self.process.poll() is not None:
                    error = self.process.stderr.read().decode()
                    self.process.stderr.close()
                    raise RuntimeError(error)
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)  # gunicorn's quick shutdown: streams end now
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stderr.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing: run `make test`, which installs it")
    running = Server(tmp_path_factory.mktemp("instance"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_phone(browser):
    """new_phone() -> a page in a fresh phone-sized browser context (its own cookies)."""
    contexts = []

    def make(**overrides):
        context = browser.new_context(**{**PHONE, **overrides})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()
