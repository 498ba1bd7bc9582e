"""Real-browser fixtures: the production server in its own process, and Debian's chromium.

Playwright never downloads a browser here: it drives /usr/bin/chromium.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager

import pytest

from tests.support import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# dark, as a phone at a dim table is set (Playwright's own default is light); a test of the light
# look asks for it (color_scheme="light") or taps ◐
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "color_scheme": "dark"}


def pytest_collection_modifyitems(items):
    """The browser tests are marked `browser`: make test runs them after the rest, one process
    more than the machine has cores. Beside the rest they once lost a die a phone tapped as its
    tray landed (mended in static/dice.js and base.html's settle delay); they pass beside it now,
    but that run is no shorter (11.2 min against 11.7): the machine is full either way. By
    themselves on two cores, three at a time took 5:41, two 6:10 (a fifth of the time a core
    stood idle), one 5.6 min when they were fewer."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.browser)
    # the longest files first: each goes whole to one process (make test's --dist loadfile), in
    # the order collected, and the longest (the trays, the whole games of taps), collected last
    # by their names, ran on one process while the others had nothing left
    items.sort(key=lambda item: LONGEST_FIRST.index(item.path.name) if item.path.name in LONGEST_FIRST
               else len(LONGEST_FIRST))


# the browser test files by their time alone, longest first (stop 51: --durations of a whole run)
LONGEST_FIRST = ["test_trays.py", "test_accessibility.py", "test_escalero.py", "test_turn.py", "test_yatzy.py",
                 "test_euchre.py", "test_pages.py", "test_languages.py", "test_refused_for_now.py",
                 "test_escoba.py", "test_sideways.py", "test_kaques.py", "test_network.py", "test_long_names.py"]


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


def open_table(page, server, game: str, players, **rules) -> str:
    """Open a table on `page` the way a host does: the names, the rules (a choice picked, a
    field typed), "Open the table"; returns the table's link."""
    page.goto(server.url + f"/new/{game}")
    for i, name in enumerate(players):
        page.fill(f"input[name=player] >> nth={i}", name)
    for key, value in rules.items():
        field = page.locator(f"[name=rule_{key}]")
        if field.first.get_attribute("type") == "radio":  # a named choice: one radio each
            page.check(f"[name=rule_{key}][value='{value}']")
        elif field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("button.big.primary")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url


def sit(page, name: str) -> None:
    """Tap `name` on the join card and wait for the answer: until it is in, the board under the
    tap is the unseated one, and a tap on its tray is lost when the seated board replaces it."""
    page.click(f"#join button:has-text('{name}')")
    page.wait_for_selector("#join", state="detached")


def seat(new_phone, link: str, names, ready: str = ".turn", **context) -> dict:
    """A phone for each name, seated at the table by tapping that name; {name: page}."""
    phones = {}
    for name in names:
        page = new_phone(**context)
        page.goto(link)
        sit(page, name)  # `ready` alone may be on the board before the tap's answer
        page.wait_for_selector(ready)
        phones[name] = page
    return phones


def enter_for_all(page, token: str, events) -> None:
    """Entries the host's phone sends without its taps (the host writes for every seat), each
    made on the board as it stands: the part of a game a test is not about."""
    statuses = page.evaluate(
        """async ([token, events]) => {
            const statuses = [], stamp = /id="stamp"[^>]*data-change="(\\d+)"/;
            let shown = await (await fetch(`/t/${token}/board`, {headers: {"HX-Request": "true"}})).text();
            for (const event of events) {
                const body = new URLSearchParams({csrf: document.querySelector('meta[name=csrf]').content,
                    event: JSON.stringify(event), change: stamp.exec(shown)[1]});
                const answer = await fetch(`/t/${token}/entries`, {method: "POST", body, headers: {"HX-Request": "true"}});
                statuses.push(answer.status);
                shown = await answer.text();  // the answer names the change it brings the board to
            }
            return statuses; }""",
        [token, list(events)])
    assert statuses == [200] * len(statuses), statuses


def again(new_phone, page, ready: str = "#tray", **context):
    """The same seat at the same table on another phone (`context`: its language, zoom, screen,
    theme): a fresh browser context given `page`'s cookies opens the table `page` shows, as a
    phone that sat there before comes back to it. One table played to its state, looked at from
    each phone a test asks about."""
    other = new_phone(**context)
    other.context.add_cookies(page.context.cookies())
    other.goto(page.url)
    other.wait_for_selector(ready)
    return other


@contextmanager
def looking_at(what: str):
    """A failure inside says which of a test's phones (language, zoom, screen, theme) it was on."""
    try:
        yield
    except Exception as error:
        error.add_note(f"-- on the phone of {what}")
        raise
