"""Area 4, taps: each game's common entry made in a real phone-sized browser, the way the
browser tests (tests/browser/) make it — with their own helpers where they have one — and
every tap counted by wrapping Playwright's click. A typed field counts a tap to focus it and
one per character typed; a tap on something outside the 740 px screen counts a scroll.

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
        self.typed = 0  # fields typed into (their keystrokes are in taps)
        self.scrolls = 0
        self.active = False


@contextmanager
def counting(counter: Counter):
    """Count Page/Locator clicks, taps, checks and fills, and taps on a spot, while active."""
    from playwright.sync_api import Locator, Mouse, Page, Touchscreen

    originals = []

    def out_of_view(target, args) -> bool:
        """Whether the thumb would have to scroll to reach it first."""
        locator = target.locator(args[0]).first if isinstance(target, Page) else target
        page = target if isinstance(target, Page) else target.page
        box = locator.bounding_box()
        height = page.viewport_size["height"]
        return box is not None and (box["y"] < 0 or box["y"] + box["height"] > height)

    def wrap(cls, name, typed: bool):
        original = getattr(cls, name)

        def counted(self, *args, **kwargs):
            if counter.active:
                counter.scrolls += out_of_view(self, args)
                counter.taps += 1
                if typed:
                    counter.typed += 1
                    counter.taps += len(str(args[-1]))
            return original(self, *args, **kwargs)

        originals.append((cls, name, original))
        setattr(cls, name, counted)

    for cls in (Page, Locator):
        for name in ("click", "tap", "check", "dblclick"):
            wrap(cls, name, False)
        wrap(cls, "fill", True)

    def at_spot(cls, name):
        """A tap on a spot of the screen (the helpers' thumb: Mouse.click, Touchscreen.tap)."""
        original = getattr(cls, name)

        def counted(self, x, y, *args, **kwargs):
            if counter.active:
                counter.taps += 1
                counter.scrolls += not 0 <= y <= 740  # the phone's screen (tests/browser: PHONE)
            return original(self, x, y, *args, **kwargs)

        originals.append((cls, name, original))
        setattr(cls, name, counted)

    at_spot(Mouse, "click")
    at_spot(Touchscreen, "tap")
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


def seated(server, new_phone, game: str, players, ready: str):
    """A new table of `players`, and the first one's phone seated there, `ready` on its page."""
    link = new_table(new_phone(), server, game, players)
    page = new_phone()
    seat(page, link, players[0])
    page.wait_for_selector(ready)
    return page


def escalero(server, new_phone, counter) -> dict:
    from tests.browser.test_turn import throw, wait_entries

    anna = seated(server, new_phone, "escalero", ("Anna", "Ben", "Cleo"), "#tray")
    counter.active = True
    throw(anna, [6, 6, 6, 2, 2])  # the test's helper: five dice in the tray ...
    anna.click("#tray .option[data-row='F']")  # ... and the cell they go to
    counter.active = False
    wait_entries(anna, 1)
    return {"entry": "a dice turn (five dice, the cell)", "decisions": 6,
            "source": "tests/browser/test_turn.py::throw"}


def euchre(server, new_phone, counter) -> dict:
    from tests.browser.test_euchre import enter, wait_score

    anna = seated(server, new_phone, "euchre", ("Anna", "Ben", "Cleo", "Dora"), "#board .hand-entry")
    counter.active = True
    returned = enter(anna, "Ben", 3)  # the test's helper: maker, tricks, confirm
    counter.active = False
    wait_score(anna, [0, 1])
    return {"entry": "one hand (maker, tricks, confirm)", "decisions": 2, "helper_says": returned,
            "source": "tests/browser/test_euchre.py::enter"}


def kaques(server, new_phone, counter) -> dict:
    from playwright.sync_api import expect

    link = new_table(new_phone(), server, "kaques", ("Anna", "Ben", "Cleo"))
    anna = new_phone()
    anna.goto(link)
    anna.get_by_role("button", name="Anna").click()
    expect(anna.locator("[data-kq-total]")).to_be_visible()
    counter.active = True
    anna.fill("[data-kq-total] input[name=points]", "350")  # a two-throw turn's total ...
    anna.click("[data-kq-total] button.primary")  # ... banked: fertisch!
    counter.active = False
    expect(anna.locator(".kq-standings")).to_contain_text("350")
    return {"entry": "a two-throw turn (its total, fertisch!)", "decisions": 2,
            "source": "the tray's total (scorekeeper/web/games/kaques/templates/_tray.html)"}


def escoba(server, new_phone, counter) -> dict:
    link = new_table(new_phone(), server, "escoba", ("Anna", "Ben"))
    ben = new_phone()
    seat(ben, link, "Ben")
    ben.wait_for_selector(".escoba-standings")
    counter.active = True
    ben.click("[data-open-round]")  # the round as the test enters it, without its detours
    form = ben.locator("#tray .escoba-form")
    form.wait_for()
    form.locator("input[name=c0]").fill("20")
    for _ in range(4):  # 24 cards
        form.locator("#esc-c0 ~ [data-step='1']").click()
    for _ in range(2):  # 7 coins
        form.locator("#esc-o0 ~ [data-step='1']").click()
    form.locator("#esc-s0 ~ [data-step='1']").click()  # 3 sevens
    form.locator("label.chip:has-text('Anna')").click()  # the seven of coins
    ben.wait_for_selector("#tray .round-points")
    form.locator("[data-round-confirm]").click()
    counter.active = False
    ben.wait_for_selector("#board .escoba-sheet", timeout=5000)
    return {"entry": "one round (cards, coins, sevens, the seven of coins, confirm)", "decisions": 4,
            "source": "tests/browser/test_escoba.py::test_a_round_entered_from_a_phone"}


def yatzy(server, new_phone, counter) -> dict:
    from tests.browser.test_yatzy import wait_entries

    anna = seated(server, new_phone, "yatzy", ("Anna", "Ben", "Cleo"), "#tray .faces")
    counter.active = True
    for face in (6, 6, 6, 2, 2):  # five dice in the shared pad, as the test's thumb taps them ...
        anna.locator(f"#tray .faces [data-face='{face}']").tap()
    anna.wait_for_selector("#tray .tray-options[data-for='6,6,6,2,2'] .options")
    anna.locator("#tray button.option[data-box='full']").tap()  # ... and the box they go to
    counter.active = False
    wait_entries(anna, 1)
    return {"entry": "a dice turn (five dice, the box)", "decisions": 6,
            "source": "tests/browser/test_yatzy.py::test_three_phones_play_a_whole_scandinavian_game_by_taps"}


GAMES = {"escalero": escalero, "euchre": euchre, "kaques": kaques, "escoba": escoba, "yatzy": yatzy}


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
                row.update({"taps": counter.taps, "typed_fields": counter.typed, "scrolls": counter.scrolls,
                            "ratio": counter.taps / row["decisions"]})
                out["games"][game] = row
                log(f"  taps {game}: {counter.taps} taps, {counter.scrolls} scrolls"
                    f"{f' ({counter.typed} typed field)' if counter.typed else ''} for {row['entry']}")
                for context in contexts:
                    context.close()
            browser.close()
    finally:
        server.stop()
    out["seconds"] = round(time.monotonic() - started, 1)
    shutil.rmtree(path, ignore_errors=True)
    return out
