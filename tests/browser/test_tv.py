"""The big-screen board on a 1280×720 TV: it renders in large type with the join QR code in
the top right corner, follows the table live as a phone enters hands, and shows the end of
the game big."""

from __future__ import annotations

import os
import re

import zxingcpp
from PIL import Image

from .conftest import enter_for_all, sit

SHOTS = os.environ.get("SCOREKEEPER_SHOTS")  # a folder: keep screenshots of the big screen


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"tv-{name}.png"))


def scores(page):
    return [int(n) for n in page.locator("#board .race [data-score]").all_inner_texts()]


def wait_scores(page, expected):
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('#board .race [data-score]')]"
        ".map(b => Number(b.textContent))) === want", arg=str(expected).replace(" ", ""))


def enter_hand(page, maker, tricks):
    page.click(f"#board .maker[value='{maker}']")
    page.click(f"#board [data-tricks='{tricks}']")
    page.click("#board [data-confirm]")


def test_big_screen_follows_the_table_live(server, browser, new_phone, tmp_path):
    anna = new_phone()
    anna.goto(server.url + "/new/euchre")
    for i, name in enumerate(("Anna", "Ben", "Cleo", "Dora")):
        anna.fill(f"input[name=player] >> nth={i}", name)
    anna.fill("input[name=rule_target]", "3")
    anna.click("text=Open the table")
    anna.wait_for_url(re.compile(r"/t/[\w-]+$"))
    sit(anna, "Anna")
    anna.wait_for_selector("#board .hand-entry")
    join_link = anna.url
    big_screen = anna.get_attribute("a:has-text('Big screen')", "href")
    assert re.fullmatch(r"/b/[\w-]+/tv\?screen=[\w-]+", big_screen)

    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.set_default_timeout(10_000)
    tv.goto(server.url + big_screen)
    tv.wait_for_selector("#net[data-state='live']")  # the live stream is open
    assert scores(tv) == [0, 0]
    assert "Anna deals" in tv.inner_text("#board .deal-line")
    assert tv.locator("#board .hand-entry").count() == 0  # read-only: nothing to tap
    assert tv.evaluate("document.documentElement.scrollWidth") <= 1280

    # large type: the page's text is bigger than a phone's 17 px, the score much bigger
    assert float(tv.evaluate("getComputedStyle(document.body).fontSize")[:-2]) >= 20
    assert tv.locator("#board .race-score b").first.bounding_box()["height"] >= 60

    # the QR code sits in the top right corner and leads to the table
    qr = tv.locator("img.tv-qr")
    box = qr.bounding_box()
    assert box["x"] > 1280 * 0.7 and box["y"] < 720 * 0.2 and box["width"] >= 180
    qr.screenshot(path=str(tmp_path / "qr.png"))
    found = zxingcpp.read_barcodes(Image.open(tmp_path / "qr.png"))
    assert found and found[0].text == join_link
    # and under it the code to type, for a phone that does not scan, read from across the table
    code = tv.locator(".tv-code b")
    assert code.inner_text() == anna.inner_text(".code-big b") and code.bounding_box()["height"] >= 40
    assert code.evaluate("b => b.getClientRects().length === 1 && b.scrollWidth <= b.parentElement.clientWidth")  # one line
    assert code.bounding_box()["y"] + code.bounding_box()["height"] <= 720
    shot(tv, "start")

    # a hand entered on Anna's phone shows on the big screen by itself
    enter_hand(anna, "Anna", 5)  # a march: Anna & Cleo +2
    wait_scores(tv, [2, 0])
    assert "Ben deals" in tv.inner_text("#board .deal-line")
    assert "march" in tv.inner_text("#board .last-hand")

    # the hand that ends the game: the settlement comes first and big
    enter_hand(anna, "Ben", 2)  # Ben & Dora euchred: Anna & Cleo +2, past 3
    tv.wait_for_selector("#board .settle .winner")
    assert tv.inner_text("#board .settle .winner") == "Anna & Cleo"
    settle = tv.locator("#board .settle").bounding_box()
    assert settle["y"] < 200  # at the top of the screen, above the race
    assert tv.locator("#board .settle .winner").bounding_box()["height"] >= 40
    assert tv.locator("#board .settle button, #board .settle a[download]").evaluate_all(
        "els => els.every(e => !e.offsetParent)")  # no rematch or download on the big screen
    shot(tv, "end")


def test_a_big_screen_shows_six_players_three_columns_whole_on_a_portrait_tablet(server, browser, new_phone):
    """Escalero's pad scrolls sideways on a phone from four players on. Nobody scrolls a TV:
    there the columns share the width and the numbers shrink until they fit (the pad ran off
    the right edge of a 768 px tablet, and six players' totals ran into each other)."""
    players = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
    host = new_phone()
    host.goto(server.url + "/new/escalero")
    for i, name in enumerate(players):
        host.fill(f"input[name=player] >> nth={i}", name)
    host.click("text=Open the table")
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    annas = [("6", 30), ("5", 25), ("P", 40), ("F", 30)]  # 125 in her first column
    enter_for_all(host, host.url.rsplit("/", 1)[-1], [
        {"type": "score", "player": player, "column": 1, **(
            {"row": annas[turn][0], "value": annas[turn][1]} if player == "Anna" else {"row": str(turn + 1), "value": 0})}
        for turn in range(4) for player in players])
    big_screen = host.get_attribute("a:has-text('Big screen')", "href")

    tv = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    tv.goto(server.url + big_screen)
    tv.wait_for_selector("#net[data-state='live']")
    totals = tv.locator("#board .pad tfoot td").all_inner_texts()
    assert len(totals) == 18 and max(len(total) for total in totals) == 3  # three digits to fit
    board = tv.locator("#board").bounding_box()
    pad = tv.locator("#board .pad").bounding_box()
    assert pad["x"] + pad["width"] <= board["x"] + board["width"] + 1
    assert tv.locator("#board .pad td, #board .pad th").evaluate_all(
        "cells => cells.filter(c => c.scrollWidth > c.clientWidth).map(c => c.outerHTML + ' ' + c.scrollWidth + '>' + c.clientWidth)") == []
    assert float(tv.locator("#board .pad tfoot td").first.evaluate("c => getComputedStyle(c).fontSize")[:-2]) >= 12
    shot(tv, "six-players-portrait")
