"""Area 4, taps: each game's common entry made in a real phone-sized browser, the way the
browser tests (tests/browser/) make it — with their own helpers where they have one — and
every tap counted by wrapping Playwright's click. Typed fields are counted apart.

The baseline of the same run is the number of decisions the entry carries (what a player
must tell the app at least), so a ratio of 1.0 means one tap per decision.

Needs Debian's chromium (`make browser`); without it this area is reported as skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from contextlib import contextmanager

from .common import ROOT

CHROMIUM = "/usr/bin/chromium"


class Counter:
    def __init__(self) -> None:
        self.taps = 0
        self.typed = 0
        self.active = False


@contextmanager
def counting(counter: Counter):
    """Count Page/Locator clicks, taps, checks and fills while active."""
    from playwright.sync_api import Locator, Page

    originals = []

    def wrap(cls, name, field):
        original = getattr(cls, name)

        def counted(self, *args, **kwargs):
            if counter.active:
                setattr(counter, field, getattr(counter, field) + 1)
            return original(self, *args, **kwargs)

        originals.append((cls, name, original))
        setattr(cls, name, counted)

    for cls in (Page, Locator):
        for name in ("click", "tap", "check", "dblclick"):
            wrap(cls, name, "taps")
        wrap(cls, "fill", "typed")
    try:
        yield counter
    finally:
        for cls, name, original in originals:
            setattr(cls, name, original)


def new_table(page, server, game: str, players) -> str:
    page.goto(server.url + f"/new/{game}")
    for i, name in enumerate(players):
        page.fill(f"input[name=player] >> nth={i}", name)
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url


def seat(page, link: str, name: str) -> None:
    page.goto(link)
    page.click(f"#join button:has-text('{name}')")


def escalero(server, new_phone, counter) -> dict:
    from tests.browser.test_escalero import wait_cells, write

    link = new_table(new_phone(), server, "escalero", ("Anna", "Ben"))
    anna = new_phone()
    seat(anna, link, "Anna")
    anna.wait_for_selector(".turn")
    counter.active = True
    write(anna, 1, "F", "35 served")  # the test's helper: a cell, then a value
    counter.active = False
    wait_cells(anna, 1)
    return {"entry": "one cell (a cell, then its value)", "decisions": 2,
            "source": "tests/browser/test_escalero.py::write"}


def euchre(server, new_phone, counter) -> dict:
    from tests.browser.test_euchre import enter, wait_score

    link = new_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    anna = new_phone()
    seat(anna, link, "Anna")
    anna.wait_for_selector("#board [data-hand-entry]")
    counter.active = True
    returned = enter(anna, "Ben", 3)  # the test's helper: maker, tricks, confirm
    counter.active = False
    wait_score(anna, [0, 1])
    return {"entry": "one hand (maker, tricks, confirm)", "decisions": 2, "helper_says": returned,
            "source": "tests/browser/test_euchre.py::enter"}


def kaques(server, new_phone, counter) -> dict:
    from playwright.sync_api import expect

    from tests.browser.test_kaques import tap_faces

    link = new_table(new_phone(), server, "kaques", ("Anna", "Ben", "Cleo"))
    anna = new_phone()
    anna.goto(link)
    anna.get_by_role("button", name="Anna").click()
    expect(anna.locator("[data-kq-pad]")).to_be_visible()
    counter.active = True
    tap_faces(anna, [1, 5, 2, 3, 4, 6])  # the six faces thrown, as the test taps them
    dice = anna.locator("[data-kq-toggle]")
    dice.nth(0).click()  # keep the 1 ...
    dice.nth(4).click()  # ... and the 5
    anna.locator("[data-kq-again]").click()  # and throw again
    counter.active = False
    expect(anna.locator(".kq-total")).to_contain_text("Turn so far 150")
    return {"entry": "one throw (six faces, the keep, throw again)", "decisions": 9,
            "source": "tests/browser/test_kaques.py (throw 1)"}


def escoba(server, new_phone, counter) -> dict:
    link = new_table(new_phone(), server, "escoba", ("Anna", "Ben"))
    ben = new_phone()
    seat(ben, link, "Ben")
    ben.wait_for_selector("[data-escoba-board]")
    counter.active = True
    ben.click("[data-open-round]")  # the round as the test enters it, without its detours
    form = ben.locator("dialog[open] [data-escoba-form]")
    form.wait_for()
    form.locator("input[name=c0]").fill("20")
    for _ in range(4):  # 24 cards
        form.locator("#esc-c0 ~ [data-step='1']").click()
    for _ in range(2):  # 7 coins
        form.locator("#esc-o0 ~ [data-step='1']").click()
    form.locator("#esc-s0 ~ [data-step='1']").click()  # 3 sevens
    form.locator("label.chip:has-text('Anna')").click()  # the seven of coins
    ben.wait_for_selector("dialog[open] .round-points")
    form.locator("[data-round-confirm]").click()
    counter.active = False
    ben.wait_for_selector("#board .escoba-sheet", timeout=5000)
    return {"entry": "one round (cards, coins, sevens, the seven of coins, confirm)", "decisions": 4,
            "source": "tests/browser/test_escoba.py::test_a_round_entered_from_a_phone"}


GAMES = {"escalero": escalero, "euchre": euchre, "kaques": kaques, "escoba": escoba}


def run(work: str, games=tuple(GAMES), log=print) -> dict:
    if not os.path.exists(CHROMIUM):
        log("  taps: skipped (no /usr/bin/chromium: run `make browser`)")
        return {"skipped": "no chromium"}
    import sys

    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import ARGS, PHONE, Server

    path = os.path.join(work, "taps")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    server = Server(path)
    out = {"games": {}}
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for game in games:
                contexts = []

                def new_phone():
                    context = browser.new_context(**PHONE)
                    contexts.append(context)
                    page = context.new_page()
                    page.set_default_timeout(10_000)
                    return page

                counter = Counter()
                with counting(counter):
                    row = GAMES[game](server, new_phone, counter)
                row.update({"taps": counter.taps, "typed_fields": counter.typed,
                            "ratio": counter.taps / row["decisions"]})
                out["games"][game] = row
                log(f"  taps {game}: {counter.taps} taps"
                    f"{f' + {counter.typed} typed field' if counter.typed else ''} for {row['entry']}")
                for context in contexts:
                    context.close()
            browser.close()
    finally:
        server.stop()
    out["seconds"] = round(time.monotonic() - started, 1)
    shutil.rmtree(path, ignore_errors=True)
    return out
