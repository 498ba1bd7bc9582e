"""Escalero in real browsers: the host's screen, phones joining by the QR code, live entries,
a slip undone, and a whole game to the settlement."""

from __future__ import annotations

import re

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from .conftest import Server, enter_for_all, seat, sit
from .conftest import open_table as open_table_of


def open_table(page, server, players=("Anna", "Ben"), **rules):
    return open_table_of(page, server, "escalero", players, **rules)


def scan_qr(page, tmp_path) -> str:
    shot = tmp_path / "qr.png"
    page.locator("img.qr").screenshot(path=str(shot))
    results = zxingcpp.read_barcodes(Image.open(shot))
    assert results, "the QR code on the host's screen could not be read"
    return results[0].text


def write(page, column, row, label):
    """The two taps: a cell of my column, then a value."""
    page.click(f"#board button.cell:visible[data-column='{column}'][data-row='{row}']")
    if label.startswith("✕"):  # crossing out asks once more
        page.click("#tray .picker details.value summary")
        page.click("#tray .picker details.value[open] button")
    else:
        page.click(f"#tray .picker button:has-text('{label}')")


def wait_cells(page, count):
    page.wait_for_function(
        "n => document.querySelectorAll('#board .pad tbody :is(.v, .written)').length === n", arg=count)


def test_join_by_qr_and_play_live(server, browser, new_phone, tmp_path):
    host = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    open_table(host, server, stake="0.50")
    link = scan_qr(host, tmp_path)
    assert link.startswith(server.url + "/t/")

    anna, ben = new_phone(), new_phone()
    for page, name in ((anna, "Anna"), (ben, "Ben")):
        page.goto(link)
        page.click(f"button:has-text('{name}')")
        page.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
        page.wait_for_selector(".turn")
    assert "Your turn" in anna.inner_text(".turn")
    assert "Anna's turn" in ben.inner_text(".turn")
    assert ben.locator("#board button.cell:visible").count() == 0  # not Ben's turn: nothing to tap

    write(anna, 1, "F", "35 served")
    for page in (ben, host):  # live, without a reload
        page.wait_for_selector("#board td:has-text('35')", timeout=3000)
    assert "Your turn" in ben.inner_text(".turn")

    # a slip: Ben writes the wrong cell and undoes it
    write(ben, 2, "6", "5× → 30")
    anna.wait_for_selector("#board td:has-text('30')")
    ben.click("#board button:has-text('Undo')")
    anna.wait_for_function("() => !document.querySelector('#board .pad').innerText.includes('30')")
    assert "undid entry" in ben.inner_text(".history")

    # dice entry: the cells that throw could go to light up
    ben.click("[data-face='4']")
    for _ in range(4):
        ben.click("[data-face='2']")
    ben.wait_for_selector("#board button.cell:visible[data-lit]")
    assert ben.get_attribute("#board button.cell:visible[data-column='1'][data-row='P']", "data-lit") == "40"
    # a cross-out at the far end of the row of options, swiped to and tapped: its confirm in
    # view whole (it stood past the edge of a 360-px phone), then closed and the options back
    ben.click("#tray .options summary[data-column='3'][data-row='G']")
    confirm = ben.locator("#tray .options details[open] > button").bounding_box()
    assert confirm["x"] >= 0 and confirm["x"] + confirm["width"] <= 360, confirm
    ben.click("#tray .options summary[data-column='3'][data-row='G']")
    expect(ben.locator("#tray .options button[data-column='1'][data-row='P']")).to_be_visible()
    ben.click("#board button.cell:visible[data-column='1'][data-row='P']")
    anna.wait_for_selector("#board td:has-text('40')")
    ben.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the board scrolls sideways on a 360-px phone"


def test_whole_game_reaches_settlement(server, browser, new_phone):
    """Three columns of three to the settlement at €0.20: the host's phone sends the first 25
    turns, the players tap the last five each (a score, cross-outs that ask once more) and every
    phone settles; their own cells are the host's to correct then."""
    host = new_phone()
    link = open_table(host, server, players=("Anna", "Ben", "Cleo"), stake="0.20")
    phones = seat(new_phone, host.url, ("Anna", "Ben", "Cleo"))
    assert phones["Cleo"].evaluate("document.documentElement.scrollWidth") <= 360
    # Anna scores in column 2 only, Ben in columns 1 and 3, Cleo crosses out: the seed's −1/+8/−7
    plan = [(column, row, name, row in "123456" and ((name == "Anna" and column == 2) or (name == "Ben" and column != 2)))
            for column in (1, 2, 3) for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G") for name in phones]
    tapped = 3 * 5
    enter_for_all(host, link.rsplit("/", 1)[-1], [
        {"type": "score", "player": name, "column": column, "row": row, "value": int(row) if scores else 0}
        for column, row, name, scores in plan[:-tapped]])
    written = len(plan) - tapped
    for page in phones.values():  # a tray drawn for an older board goes when the newer comes
        wait_cells(page, written)
    for column, row, name, scores in plan[-tapped:]:
        write(phones[name], column, row, "1×" if scores else "✕ cross out")
        written += 1
        wait_cells(phones[name], written)
    board = phones["Cleo"]
    board.wait_for_selector(".settle")
    text = board.inner_text(".settle")
    assert "Ben wins" in text
    assert "-€0.20" in text and "€1.60" in text and "-€1.40" in text
    assert "Cleo → Ben" in text and "Anna → Ben" in text
    # the game over, a player's cells are the host's alone to correct: no longer buttons on
    # the players' phones (the last entry's parts left them), still on the host's
    for page in phones.values():
        page.wait_for_selector(".settle")
        assert page.locator("#board button[name=fix]").count() == 0
    host.wait_for_selector(".settle")
    assert host.locator("#board button[name=fix]").count() == 90
    # the rematch, played the same, and the big screen on a 1280x720 TV, which nobody scrolls:
    # who won, every side, who pays whom and the evening so far on the screen (one under the
    # other, the evening's who pays whom tonight stood a screen under its foot)
    host.click("#board button:has-text('Rematch')")
    expect(host.locator("#settle")).to_be_hidden()
    enter_for_all(host, link.rsplit("/", 1)[-1], [
        {"type": "score", "player": name, "column": column, "row": row, "value": int(row) if scores else 0}
        for column, row, name, scores in plan])
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    big = tv.new_page()
    big.goto(server.url + host.get_attribute("a[href*='/tv?screen=']", "href"))
    expect(big.locator("#board .settle .ledger")).to_contain_text("+€3.20")
    parts = big.locator("#board .settle :is(h2, h3, .settle-sides li, .transfers li, .ledger li)")
    expect(parts).to_have_count(1 + 3 + 3 * 1 + 2 + 3 + 2)
    for part in parts.all():
        box = part.bounding_box()
        assert box["y"] + box["height"] <= 720 and box["x"] + box["width"] <= 1280, (part.inner_text(), box)
    tv.close()


def test_two_server_processes_share_live_updates(tmp_path, browser, new_phone):
    """Phones on two separate server processes over one database see each other's entries."""
    first = Server(tmp_path / "instance")
    second = Server(tmp_path / "instance")
    try:
        anna = new_phone()
        open_table(anna, first)
        link = anna.url
        anna.click("button:has-text('Anna')")
        anna.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
        ben = new_phone()
        ben.goto(link.replace(first.url, second.url))
        ben.click("button:has-text('Ben')")
        ben.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
        ben.wait_for_selector(".turn")
        write(anna, 3, "G", "80 served")
        ben.wait_for_selector("#board td:has-text('80')", timeout=3000)
        write(ben, 1, "1", "2× → 2")
        anna.wait_for_selector("#board td:has-text('2')", timeout=3000)
        assert "Your turn" in anna.inner_text(".turn")
    finally:
        first.stop()
        second.stop()


def test_an_entry_made_offline_is_kept_and_sent_once(server, new_phone):
    """The pub Wi-Fi drops: the phone says so, keeps the entry (shown pending in its cell), and
    resends it (same key) later."""
    anna = new_phone()
    open_table(anna, server)
    link = anna.url
    anna.click("button:has-text('Anna')")
    anna.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
    anna.wait_for_selector(".turn")
    ben = new_phone()
    ben.goto(link)
    ben.click("button:has-text('Ben')")
    ben.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
    ben.wait_for_selector(".turn")

    anna.click("#board button.cell:visible[data-column='1'][data-row='P']")  # the picker opens ...
    anna.wait_for_selector("#tray .picker")
    anna.context.set_offline(True)  # ... and the Wi-Fi drops as she taps the value
    # an entry another table keeps on this phone (another tab's, 80 in the cell of the same id;
    # the list is the phone's) is none of this table's: its cell, tray and list stand as they are
    anna.evaluate("""() => { localStorage.setItem('scorekeeper.pending', JSON.stringify([{url: '/t/another/escalero/score',
        body: 'cell=0:1:P&value=80', idem: 'elsewhere', cell: '#c0-1-P', text: '80'}]));
        document.dispatchEvent(new CustomEvent('htmx:after:swap', {detail: {}})); }""")
    assert anna.locator("#board td.pending, #pending li").count() == 0
    expect(anna.locator("#tray .picker button:has-text('45 served')")).to_have_css("pointer-events", "auto")
    anna.click("#tray .picker button:has-text('45 served')")
    anna.wait_for_selector("#net[data-state='offline']")
    assert "kept" in anna.inner_text("#net")
    assert anna.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending')).length") == 2
    assert ben.locator("#board td:has-text('45')").count() == 0
    # the kept entry shows in its cell as pending, and in the list over the tray
    anna.wait_for_selector("#board td.pending[data-pending-text='45']")
    assert "45" in anna.inner_text("#pending") and "80" not in anna.inner_text("#pending")
    # the picker, still open, takes no second value meanwhile (one tapped was refused, once
    # sent, as made in Ben's turn)
    expect(anna.locator("#tray .picker button:has-text('40')")).to_have_css("pointer-events", "none")
    anna.evaluate("""localStorage.setItem('scorekeeper.pending',
        JSON.stringify(JSON.parse(localStorage.getItem('scorekeeper.pending')).filter((i) => i.idem !== 'elsewhere')))""")

    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")
    ben.wait_for_selector("#board td:has-text('45')", timeout=5000)
    anna.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.pending')).length === 0")
    anna.evaluate("window.dispatchEvent(new Event('online'))")  # a second resend changes nothing
    anna.wait_for_timeout(500)
    assert ben.locator("#board .history li.entry").count() == 1
    # another table's kept entry does not hold back "Live" here when this table's stream is back
    anna.evaluate("""() => { localStorage.setItem('scorekeeper.pending', JSON.stringify([{url: '/t/another/escalero/score',
        body: 'cell=0:1:P&value=80', idem: 'elsewhere2', cell: '', text: '80'}]));
        document.dispatchEvent(new CustomEvent('htmx:sse:error', {detail: {}}));
        document.dispatchEvent(new CustomEvent('htmx:sse:after:connection', {detail: {}})); }""")
    assert anna.get_attribute("#net", "data-state") == "live"


def test_dice_tapped_offline_say_their_options_wait_for_the_network(server, new_phone):
    """The Wi-Fi drops on Anna's turn (German phone): the five dice she taps stay, and where
    their options come the tray says so, and that the next step comes once the network is back
    (it said "tap five dice", as if none were tapped); the header keeps the table's code and
    her name beside the offline sentence (it squeezed them out, and the sentence spilled out of
    its badge). Back online, the options come by themselves and the sentence is gone."""
    german = {"locale": "de-AT", "extra_http_headers": {"Accept-Language": "de-AT"}}
    anna = new_phone(**german)
    open_table(anna, server)
    anna.click("button:has-text('Anna')")
    anna.wait_for_selector("#join", state="detached")
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    for face in "55522":
        anna.locator(f"#tray .dice-pad [data-face='{face}']").tap()
    thrown = anna.locator("#tray .thrown")
    expect(thrown).to_have_attribute("data-left", "Offline — was du getippt hast, bleibt; weiter geht’s, sobald das Netz wieder da ist")
    expect(thrown.locator("[data-take]")).to_have_count(5)
    # the sentence stands under the dice, not beside them: it squeezed the five to 12 px each,
    # slivers to read and to tap one back by
    widths = thrown.locator("[data-take]").evaluate_all("dice => dice.map(d => d.getBoundingClientRect().width)")
    assert min(widths) >= 40, widths
    where, badge = anna.locator(".top .where").bounding_box(), anna.locator("#net").bounding_box()
    assert where["width"] > 100 and where["x"] + where["width"] <= 360, where  # the code and the name
    assert badge["y"] >= where["y"] + where["height"] and badge["x"] >= 0 and badge["x"] + badge["width"] <= 360, badge

    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")
    expect(anna.locator("#tray .option").first).to_be_visible()
    expect(thrown).not_to_have_attribute("data-left", re.compile("Offline"))
    expect(thrown.locator("[data-take]")).to_have_count(5)
    # offline again, a score tapped is kept: a lit cell of another score takes no tap meanwhile
    # (it sent a second entry, refused once the network was back: another's turn by then)
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    first, second = anna.locator("#tray button.option[data-cell]").all()[:2]
    first.tap()
    kept = "() => JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length"
    anna.wait_for_function(f"() => ({kept})() === 1")
    lit = anna.locator(f"#board button[data-lit][value='{second.get_attribute('data-cell')}']")
    assert float(lit.evaluate("cell => getComputedStyle(cell).opacity")) < 1  # it looked as tappable as ever
    lit.dispatch_event("click")
    anna.wait_for_timeout(300)
    assert anna.evaluate(kept) == 1
    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")
    anna.wait_for_function(f"() => ({kept})() === 0")
    expect(anna.locator("#board .history li.entry")).to_have_count(1)


def test_an_entry_slow_to_answer_is_not_sent_again_meanwhile(server, new_phone):
    """On slow Wi-Fi an answer can take longer than the offline queue's resend tick (3 s): the
    write still on its way is not sent a second time, whose answer (a retry's) replaced the
    first one's tray (a Kaques throw taken back lost its keep: tests/browser/test_kaques.py
    failed so under load)."""
    anna = new_phone()
    open_table(anna, server)
    anna.click("button:has-text('Anna')")
    anna.wait_for_selector("#join", state="detached")  # seated: the tap's answer is in
    held, sent = [], []
    anna.on("request", lambda request: sent.append(request.url) if request.url.endswith("/escalero/score") else None)
    anna.route("**/escalero/score", lambda route: held.append(route))  # the answer is held back: a very slow network
    anna.click("#board button.cell:visible[data-column='1'][data-row='P']")
    anna.click("#tray .picker button:has-text('45 served')")
    anna.wait_for_selector("#board td.pending[data-pending-text='45']")
    anna.wait_for_timeout(4000)  # the resend's tick has come at least once
    assert len(sent) == 1 and len(held) == 1, sent
    held[0].continue_()
    anna.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.pending')).length === 0")
    anna.wait_for_selector("#board td:has-text('45')")
    anna.wait_for_timeout(500)
    assert len(sent) == 1 and anna.locator("#board .history li.entry").count() == 1


def test_the_history_page_s_header_shows_the_table_s_code_whole(server, new_phone):
    """A German 360 px phone read "Verlauf · Tisch DMU…" atop the history: the code alone now,
    as the table's own header shows it, whole."""
    anna = new_phone(locale="de-AT", extra_http_headers={"Accept-Language": "de-AT"})
    link = open_table(anna, server)
    code = anna.locator(".where b").first.inner_text()
    # the phone's text set large (160 %): the pad's labels read whole ("Pkt." was cut to "Pk")
    anna.evaluate("document.documentElement.style.fontSize = '160%'")
    cut = anna.locator("#board .pad .rowlabel").evaluate_all("labels => labels.filter(l => l.scrollWidth > l.clientWidth).map(l => l.textContent)")
    assert cut == []
    anna.evaluate("document.documentElement.style.fontSize = ''")
    anna.goto(link + "/history")
    where = anna.locator(".top .where")
    expect(where).to_contain_text(f"Verlauf · {code}")
    assert where.evaluate("w => w.scrollWidth <= w.clientWidth"), where.inner_text()


def test_the_seat_list_the_host_opened_stays_open_as_a_phone_sits_down(server, new_phone):
    """Mid-game the host opens the seat list; a friend adds a name on another phone, the board
    is drawn again live, and the list snapped shut under the host's thumb."""
    host = new_phone()
    link = open_table(host, server)
    sit(host, "Anna")
    write(host, 1, "F", "35 served")
    expect(host.locator("#seats")).not_to_have_attribute("open", "")
    fold = host.locator("#seats > summary")  # marked as a fold that opens, turned down once open
    assert "▸" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    fold.click()
    expect(host.locator("#seats")).to_have_attribute("open", "")
    assert "▾" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    friend = new_phone()
    friend.goto(link)
    friend.fill("#join input[name=name]", "Cleo")
    friend.click("#join button:has-text('Add me')")
    expect(host.locator("#seats")).to_contain_text("Cleo")
    expect(host.locator("#seats")).to_have_attribute("open", "")


def test_a_scribe_s_options_stand_in_view_on_a_small_phone_before_sitting(server, new_phone):
    """320×568, a host who keeps score and does not play: before the first entry the names to
    sit down by stand above a tray of 45 % of the screen, and five dice tapped there for Anna put
    the options under the tray's fold, a scroll inside it. The faces (no sixth die) make room."""
    host = new_phone(viewport={"width": 320, "height": 568})
    host.goto(server.url + "/new/escalero")
    for i, name in enumerate(("Anna", "Ben", "Cleo", "Dora")):
        host.fill(f"input[name=player] >> nth={i}", name)
    host.check("[name=seating][value=scribe]")
    host.fill("[name=scribe]", "Sam")
    host.click("button.big.primary")
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(host.locator("#join button:has-text('Sam')")).to_be_visible()
    for face in "44422":
        host.click(f"#tray .faces [data-face='{face}']")
    host.wait_for_selector("#tray .tray-options button.option")
    assert host.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")
    tray, option = host.locator("#tray").bounding_box(), host.locator("#tray .option").first.bounding_box()
    assert option["y"] + option["height"] <= tray["y"] + tray["height"], (option, tray)
    expect(host.locator("#join")).to_be_visible()  # the names stay above it
    assert host.locator("#join button").first.bounding_box()["y"] < tray["y"]
