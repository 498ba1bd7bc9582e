"""The turn at the table on 360 px phones: the entry tray in the thumb zone, nothing of an
earlier turn surviving an entry, a rematch or the game's end, every legal cell lit, the writer
fixing their own cell where it is, and a settlement that reads whole in every language."""

from __future__ import annotations


import pytest
from playwright.sync_api import expect

from scorekeeper.games import escalero
from scorekeeper.games.base import parse_rules
from scorekeeper.web.context import TableContext

from .conftest import PHONE, enter_for_all, seat
from .conftest import open_table as open_table_of

LANGUAGES = ("en", "de", "es", "pl")


def open_table(page, server, players, **rules):
    return open_table_of(page, server, "escalero", players, **rules)


def tray_in_view(page) -> None:
    """The tray and its dice are inside the 740 px screen without scrolling."""
    box = page.locator("#tray").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["viewport"]["height"] + 1, box
    for face in page.locator("#tray [data-face]").all():
        face_box = face.bounding_box()
        assert face_box["y"] + face_box["height"] <= PHONE["viewport"]["height"]
        assert face_box["width"] >= 44 and face_box["height"] >= 44


def throw(page, dice, served=False):
    """Five taps on the tray's dice (and "served"): the legal cells light up. The dice stand
    still while tapped (hx-preserve): each is tapped where it is, found once."""
    page.wait_for_selector("#tray [data-face]")
    spots = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#tray [data-face]')].map(el => {
        const box = el.getBoundingClientRect(); return [el.dataset.face, [box.x + box.width / 2, box.y + box.height / 2]]; }))""")
    for face in dice:
        page.mouse.click(*spots[str(face)])
    if served:
        page.click("#tray .served")
    wanted = ",".join(map(str, dice)) + (" served" if served else "")
    page.wait_for_selector(f"#tray .tray-options[data-for='{wanted}'] .option")


def take_best(page) -> None:
    """The tray's first option: one tap for a value, two for a cross-out (it asks first)."""
    first = page.locator("#tray .options > *").first
    if first.evaluate("el => el.tagName") == "DETAILS":
        first.locator("summary").click()
        first.locator("button").click()
    else:
        first.click()


def entries(page) -> int:
    return int(page.get_attribute("#stamp", "data-entries"))


def wait_entries(page, count) -> None:
    page.wait_for_function("n => Number(document.querySelector('#stamp')?.dataset.entries) === n", arg=count)


def test_served_is_forgotten_after_a_served_entry(server, new_phone):
    """The bug that cost 5 points three times: "served" stayed pressed after a served entry."""
    host = new_phone()
    link = open_table(host, server, ("Anna", "Ben"))
    phones = seat(new_phone, link, ("Anna", "Ben"))
    anna, ben = phones["Anna"], phones["Ben"]
    throw(anna, [2, 3, 4, 5, 6], served=True)
    assert anna.is_checked(".served input")
    anna.click("#tray .option[data-row='S'][data-column='1']")
    wait_entries(anna, 1)
    assert anna.inner_text("#board tr[data-row='S'] td.mine") == "25"
    throw(ben, [1, 1, 1, 2, 2])
    ben.click("#tray .option[data-row='F']")
    wait_entries(anna, 2)
    # Anna's next throw: nothing of her last turn is left
    assert not anna.is_checked(".served input")
    assert anna.locator("#tray .thrown .die").count() == 0
    throw(anna, [3, 3, 3, 4, 4])
    assert anna.get_attribute("#tray .option[data-row='F']", "data-value") == "30"  # not 35


def test_every_legal_cell_lights_best_first(server, new_phone):
    host = new_phone()
    link = open_table(host, server, ("Anna", "Ben", "Cleo"), columns=3)
    anna = seat(new_phone, link, ("Anna",))["Anna"]
    throw(anna, [1, 2, 3, 4, 5])
    values = [int(v) for v in anna.locator("#tray [data-cell]").evaluate_all("els => els.map(e => e.dataset.value)")]
    assert len(values) == 3 * 10  # every open cell of Anna's three columns (ten rows without Double Grande)
    assert values == sorted(values, reverse=True)
    # "1" in column 3 lights too (it never did when the offer stopped at twelve)
    assert anna.get_attribute("#board button.cell:visible[data-column='3'][data-row='1']", "data-lit") == "1"
    assert anna.locator("#board button.cell:visible[data-lit]").count() == 30


def test_an_off_turn_phone_is_told_why(server, new_phone):
    host = new_phone()
    link = open_table(host, server, ("Anna", "Ben"))
    ben = seat(new_phone, link, ("Ben",))["Ben"]
    assert ben.locator("#tray [data-face]").count() == 0
    assert "Anna is throwing" in ben.inner_text("#tray")


def test_the_writer_corrects_a_cell_where_it_is(server, new_phone):
    host = new_phone()
    link = open_table(host, server, ("Anna", "Ben"))
    phones = seat(new_phone, link, ("Anna", "Ben"))
    anna, ben = phones["Anna"], phones["Ben"]
    throw(anna, [6, 6, 6, 2, 2])
    anna.click("#tray .option[data-row='6']")
    wait_entries(ben, 1)
    assert ben.locator("#board button.written").count() == 0  # not Ben's to fix
    anna.click("#board #c0-1-6 button.written")
    current = anna.locator("#tray .picker button[aria-current='true']")
    assert current.inner_text().startswith("3×") and current.is_disabled()  # what the cell says now
    anna.click("#tray .picker button:has-text('4×')")
    ben.wait_for_function("() => [...document.querySelectorAll(\"#board tr[data-row='6'] td\")]"
                          ".some(td => td.innerText.trim() === '24')")
    assert "corrected" in anna.inner_text("#board .history")


def test_a_whole_game_on_three_phones_and_the_rematch_swap_the_tray(server, new_phone):
    """A one-column game of three, to the end, the last four turns of each entered with the
    dice in the tray without scrolling; the tray goes when the game is over and comes back with
    the rematch on every open phone, without a reload."""
    host = new_phone()
    names = ("Anna", "Ben", "Cleo")
    link = open_table(host, server, names, columns=1)
    phones = seat(new_phone, link, names)
    # the six rows where 3 3 3 5 5 is worth nothing, crossed out from the host's phone
    enter_for_all(host, link.rsplit("/", 1)[-1], [{"type": "score", "player": name, "column": 1, "row": row, "value": 0}
                                                  for row in ("1", "2", "4", "6", "S", "P") for name in names])
    count = 6 * len(names)
    for best in ("F", "5", "3", "G"):  # every turn the same five dice, the best cell left (G: crossed out)
        for name in names:
            page = phones[name]
            wait_entries(page, count)
            tray_in_view(page)
            throw(page, [3, 3, 3, 5, 5])
            first = page.locator("#tray .options > *").first
            assert (first.get_attribute("data-row") or first.locator("[data-row]").first.get_attribute("data-row")) == best
            take_best(page)
            count += 1
    for page in (*phones.values(), host):
        page.wait_for_selector("#board .settle")
        assert not page.locator("#tray").is_visible()
        expect(page.locator("#settle h2")).to_be_in_viewport(ratio=1)  # the end brought who won into view
    phones["Ben"].click("#board button:has-text('Rematch')")
    for page in (*phones.values(), host):
        page.wait_for_selector("#tray:visible")
        # the new game from its top, the tray in view: the host's page, long with its seat list
        # and QR code, stayed where the settlement had been
        expect(page.locator("#settle")).to_be_hidden()
        assert page.evaluate("window.scrollY") == 0
        tray_in_view(page)
    anna = phones["Anna"]
    throw(anna, [5, 5, 5, 5, 5])  # the dice pad works on the new game without a reload
    anna.click("#tray .option[data-row='G']")
    wait_entries(phones["Ben"], 1)


@pytest.mark.parametrize("sides", [3, 6])
def test_the_settlement_fits_a_360_px_phone_in_every_language(server, new_phone, sides):
    """Imported finished games (one column; three and six sides), read on a 360 px phone in
    each language: nothing wider than the screen."""
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Frida"][:sides]
    host = new_phone()
    link = open_table(host, server, names, columns=1, stake="0.50")
    rules = parse_rules({"columns": 1}, escalero.settings)
    token = link.rsplit("/", 1)[-1]
    rows = [(row, escalero.allowed_values(row, rules)) for row in escalero.Row if row is not escalero.Row.DOUBLE_GRANDE]
    enter_for_all(host, token, [
        {"type": "score", "player": name, "column": 1, "row": row.value, "value": values[(number + seat) % len(values)]}
        for number, (row, values) in enumerate(rows) for seat, name in enumerate(names)])
    for lang in ("en", "de-AT", "es", "pl"):  # Austria writes "+€ 68,00": its sign once stood over the rest
        page = new_phone(locale=lang)
        page.goto(link)
        page.wait_for_selector("#board .settle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"], (lang, width)
        for money in page.locator(".settle-money").all():
            box = money.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"], lang
        # a short name, its points and its money on one line: the winner's "+€ 13,70" stood alone
        # under the name (de-AT, es), left, where every other side's money is on the right
        below = page.locator(".settle-sides li").evaluate_all("""els => els.map(li => {
            const name = li.querySelector('.settle-name').getBoundingClientRect();
            return [...li.querySelectorAll('.settle-points, .settle-money')].filter(e => e.getBoundingClientRect().top >= name.bottom).length; })""")
        assert below == [0] * sides, (lang, below)
        # the pad's points row: each side's money on one line, its sign with it
        lines = page.locator("#points small").evaluate_all("els => els.map(e => e.getClientRects().length)")
        assert lines == [1] * sides, (lang, lines)


def test_an_entry_reaches_other_phones_as_its_parts_and_an_open_history_follows(server, new_phone):
    """Live updates carry an entry's parts (web/board.py): the other phone's board then reads as
    a freshly loaded one, and its open "Earlier entries" gains the row that moved there. The
    fold shows on both phones once the newest rows leave one out: on the writer's with its
    answer, on the other's with the live update."""
    host = new_phone()
    link = open_table(host, server, ("Anna", "Ben"))
    phones = seat(new_phone, link, ("Anna", "Ben"))
    for number in range(6):
        page = phones["Anna" if number % 2 == 0 else "Ben"]
        throw(page, [1, 1, 1, 2, 3] if number < 2 else [6, 6, 6, 5, 4] if number < 4 else [2, 2, 5, 5, 5])
        page.click("#tray .option >> nth=0")
        wait_entries(phones["Ben" if number % 2 == 0 else "Anna"], number + 1)
        wait_entries(page, number + 1)
        for each in phones.values():  # (the stamp is swapped before the history's rows)
            if number + 1 > TableContext.recent_rows:
                expect(each.locator("#history-earlier")).to_be_visible()
            else:
                expect(each.locator("#history-earlier")).to_be_hidden()
    ben = phones["Ben"]
    fold = ben.locator("#history-earlier summary")  # marked as a fold that opens
    assert "▸" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    fold.click()
    ben.wait_for_selector("#history-earlier ol li")
    assert "▾" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    assert ben.locator("#history-earlier ol li").count() == 3
    throw(phones["Anna"], [3, 3, 3, 1, 1])
    phones["Anna"].click("#tray .option >> nth=0")
    wait_entries(ben, 7)
    ben.wait_for_function("() => document.querySelectorAll('#history-earlier ol li').length === 4")
    assert ben.evaluate("document.querySelector('#history-earlier').open")
    live = ben.inner_text("#board .pad")
    ben.reload()
    ben.wait_for_selector(".turn")
    assert ben.inner_text("#board .pad") == live
