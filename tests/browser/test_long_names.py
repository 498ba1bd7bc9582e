"""A player may type forty letters without a space (the limit of a name): on a 360 px phone
every game's page still fits the screen, and every button holds its words. Euchre's page ran
484 px wide, a long name's maker button covered its "alone" button, and the join button ran
past the screen's edge (Escoba's count of the piles: tests/browser/test_escoba.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES

from tests.games import SUPPORT

from .conftest import enter_for_all, open_table

LOGS = Path(__file__).resolve().parents[1] / "logs"
NAMES = ("Wolfgangamadeusmozartsalzburgerkugelnxxx", "Maximilian Alexander von Hohenzollern-Si", "Cleo", "Dora")


@pytest.mark.parametrize("game", GAMES)
def test_a_forty_letter_name_fits_a_phone(server, new_phone, game):
    host = new_phone()
    open_table(host, server, game, NAMES[:max(2, len(SUPPORT[game].PLAYERS))])  # its example table's count
    host.wait_for_selector("#board")
    assert host.evaluate("document.documentElement.scrollWidth") <= 360
    spilled = host.locator("#board .button, #join .button, .tray .button").evaluate_all(
        "buttons => buttons.filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1).map(b => b.outerHTML.slice(0, 120))")
    assert spilled == []


def test_a_forty_letter_name_fits_the_settlement_and_the_history(server, new_phone):
    """The end of a game with money: the settlement's ledger and transfers, the history's rows
    ("for Wolfgang…: Yatzy: ✕") ran 483 and 490 px wide."""
    doc = json.loads((LOGS / "yatzy" / "classic-two-players.json").read_text())
    doc = json.loads(json.dumps(doc).replace('"Dora"', json.dumps(NAMES[0])).replace('"Emil"', json.dumps(NAMES[1])))
    doc["rules"]["stake"] = "0.10"
    phone = new_phone()
    phone.goto(server.url + "/import")
    phone.set_input_files("#log-file", {"name": "log.json", "mimeType": "application/json",
                                        "buffer": json.dumps(doc).encode()})
    phone.click("button:has-text('Import and show it')")
    phone.wait_for_url(re.compile(r"/history$"))
    history = phone.url
    for page in (history, history.removesuffix("/history")):
        phone.goto(page)
        phone.wait_for_selector(".transfers li")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, page
        money = phone.locator(".ledger b, .transfers b").evaluate_all("found => found.map(b => b.getClientRects().length)")
        assert money and set(money) == {1}  # an amount on one line


def test_a_number_on_a_pad_never_breaks(server, new_phone):
    """Breaking a long name must not break a number: a written 18 in a three-player Escalero
    pad's narrow column read 1 over 8."""
    host = new_phone()
    link = open_table(host, server, "escalero", ("Ana", "Bea", "Carla"))
    enter_for_all(host, link.rsplit("/", 1)[-1], [{"type": "score", "player": "Ana", "column": 1, "row": "6", "value": 18}])
    host.reload()
    cells = host.locator("#board .pad td")
    expect(cells.filter(has_text="18")).not_to_have_count(0)
    lines = cells.evaluate_all("""cells => cells.flatMap(c => {  // each text's lines, by their tops
        const texts = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), found = [];
        for (let text = texts.nextNode(); text; text = texts.nextNode()) {
            if (!/\\d/.test(text.textContent)) continue;
            const range = document.createRange(); range.selectNodeContents(text);
            found.push(new Set([...range.getClientRects()].map(r => Math.round(r.top))).size);
        }
        return found; })""")
    assert lines and max(lines) == 1
