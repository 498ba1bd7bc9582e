"""Yatzy in real browsers: three 360×740 touch phones open and join a table by its join link and
play a whole Scandinavian game, every turn entered by taps — the five dice thrown, then the lit
box — six taps and no scroll a turn, live on every phone, to the settlement's money and
transfers at €0.10 a point. And a box written without dice, corrected where it stands, and
a slip undone."""

from __future__ import annotations

from decimal import Decimal

from playwright.sync_api import expect

from scorekeeper.gamelog import fold, read_header

from .conftest import PHONE, enter_for_all, open_table, seat, sit

NAMES = ("Anna", "Ben", "Cleo")
# each player's fifteen turns: the box, and the dice thrown for it (every one scores there)
PLANS = {
    "Anna": [("1", [1, 1, 1, 2, 3]), ("pair", [6, 6, 5, 4, 1]), ("2", [2, 2, 2, 4, 5]), ("two_pairs", [6, 6, 5, 5, 1]),
             ("3", [3, 3, 3, 1, 2]), ("three", [6, 6, 6, 2, 3]), ("4", [4, 4, 4, 1, 2]), ("four", [5, 5, 5, 5, 2]),
             ("5", [5, 5, 5, 1, 2]), ("small", [1, 2, 3, 4, 5]), ("6", [6, 6, 6, 1, 2]), ("large", [2, 3, 4, 5, 6]),
             ("full", [6, 6, 6, 5, 5]), ("chance", [6, 6, 5, 5, 4]), ("yatzy", [4, 4, 4, 4, 4])],
    "Ben": [("yatzy", [2, 2, 2, 2, 2]), ("1", [1, 2, 3, 4, 6]), ("chance", [1, 2, 3, 4, 6]), ("2", [2, 2, 3, 4, 6]),
            ("full", [2, 2, 2, 3, 3]), ("3", [3, 3, 1, 2, 4]), ("large", [6, 5, 4, 3, 2]), ("4", [4, 4, 1, 2, 3]),
            ("small", [5, 4, 3, 2, 1]), ("5", [5, 5, 1, 2, 3]), ("four", [3, 3, 3, 3, 1]), ("6", [6, 6, 1, 2, 3]),
            ("three", [4, 4, 4, 1, 2]), ("two_pairs", [3, 3, 2, 2, 6]), ("pair", [5, 5, 1, 2, 3])],
    "Cleo": [("6", [6, 6, 6, 6, 1]), ("5", [5, 5, 5, 1, 2]), ("4", [4, 4, 4, 4, 1]), ("3", [3, 3, 3, 3, 1]),
             ("2", [2, 2, 2, 2, 1]), ("1", [1, 1, 2, 3, 4]), ("yatzy", [6, 6, 6, 6, 6]), ("full", [5, 5, 5, 6, 6]),
             ("chance", [6, 6, 6, 5, 5]), ("large", [2, 3, 4, 5, 6]), ("small", [1, 2, 3, 4, 5]),
             ("four", [6, 6, 6, 6, 3]), ("three", [5, 5, 5, 1, 2]), ("two_pairs", [4, 4, 3, 3, 1]),
             ("pair", [6, 6, 1, 2, 3])],
}
COUNT_SCROLLS = "window.__scrolls = 0; document.addEventListener('scroll', () => { window.__scrolls += 1; }, true);"


def expected_result() -> dict:
    """The settlement the engine makes of the same turns."""
    doc = {"format": "scorekeeper-log/1", "game": "yatzy", "players": list(NAMES), "rules": {"stake": "0.10"},
           "events": [{"type": "score", "player": name, "box": PLANS[name][turn][0], "dice": PLANS[name][turn][1]}
                      for turn in range(15) for name in NAMES]}
    game = read_header(doc)
    return game.engine.result(fold(game, doc["events"]))


def euros(amount: str, signed: bool = False) -> str:
    value = Decimal(amount)
    sign = ("+" if value > 0 else "-" if value < 0 else "") if signed else ""
    return f"{sign}€{abs(value):.2f}"


def wait_entries(page, count) -> None:
    page.wait_for_function("n => Number(document.querySelector('#stamp')?.dataset.entries) === n", arg=count)


class Thumb:
    """Taps on one phone, each counted, each on something already on the 360×740 screen (a tap
    on something out of view would scroll it in: the phone's scroll events count those)."""

    def __init__(self, page) -> None:
        self.page, self.taps = page, 0

    def tap(self, locator) -> None:
        box = locator.bounding_box()
        viewport = PHONE["viewport"]
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"] \
            and 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], ("out of view", box)
        # a thumb on the spot it sees (in view, as asserted): no scroll, and no wait for more
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1


def test_three_phones_play_a_whole_scandinavian_game_by_taps(server, new_phone):
    anna = new_phone()
    link = open_table(anna, server, "yatzy", NAMES, form="scandinavian", stake="0.10")
    sit(anna, "Anna")
    anna.wait_for_selector("#tray .turn")
    phones = {"Anna": anna, **seat(new_phone, link, NAMES[1:], ready="#tray .turn")}
    for page in phones.values():
        page.add_init_script(COUNT_SCROLLS)
        page.reload()
        page.wait_for_selector("#tray .turn")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    # each phone's own column first
    assert [anna.inner_text(f".yz-card thead th.side >> nth={i}") for i in range(3)] == ["Anna", "Ben", "Cleo"]
    assert phones["Ben"].inner_text(".yz-card thead th.side >> nth=0") == "Ben"

    written = 0
    for turn in range(15):
        for name in NAMES:
            page = phones[name]
            wait_entries(page, written)
            expect(page.locator("#tray .turn")).to_contain_text("Your turn!")
            box, dice = PLANS[name][turn]
            thumb, scrolled = Thumb(page), page.evaluate("window.__scrolls")
            for face in dice:
                thumb.tap(page.locator(f"#tray .faces [data-face='{face}']"))
            page.wait_for_selector(f"#tray .tray-options[data-for='{','.join(map(str, dice))}'] .options")
            # every open box of this player lit on the card, and offered in the tray best first
            # (asked in one look: a whole game has 45 turns)
            values, lit, chosen = page.evaluate("""box => [
                [...document.querySelectorAll('#tray .tray-options [data-cell]')].map(el => Number(el.dataset.value)),
                document.querySelectorAll('#board .yz-card button.cell[data-lit]').length,
                Number(document.querySelector(`#tray button.option[data-box='${box}']`)?.dataset.value)]""", box)
            assert len(values) == 15 - turn and values == sorted(values, reverse=True), values
            assert lit == 15 - turn and chosen > 0, (lit, chosen)
            thumb.tap(page.locator(f"#tray button.option[data-box='{box}']"))
            written += 1
            wait_entries(page, written)
            assert thumb.taps == 6, (name, turn, thumb.taps)
            if written < 15 * len(NAMES):  # the end scrolls to the settlement (below)
                assert page.evaluate("window.__scrolls") == scrolled and page.evaluate("window.scrollY") == 0, \
                    (name, turn, "scrolled")

    # totals 324 (bonus 50), 198, 332 (bonus 50): Anna nets 126 − 8, Ben −126 − 134, Cleo 134 + 8
    result = expected_result()
    assert result["totals"] == {"Anna": 324, "Ben": 198, "Cleo": 332} and result["winner"] == "Cleo"
    assert result["money"] == {"Anna": "11.80", "Ben": "-26.00", "Cleo": "14.20"}
    assert sorted((t["from"], t["to"], t["amount"]) for t in result["transfers"]) == [
        ("Ben", "Anna", "11.80"), ("Ben", "Cleo", "14.20")]
    for page in phones.values():
        settle = page.locator("#board .settle")
        expect(settle).to_contain_text("Cleo wins")
        text = settle.inner_text()
        for name in NAMES:
            assert euros(result["money"][name], signed=True) in text, (name, text)
        for transfer in result["transfers"]:
            assert f"{transfer['from']} → {transfer['to']} {euros(transfer['amount'])}" in text.replace("\n", " ")
        expect(page.locator("#tray")).to_be_hidden()
        # the end scrolled who won, who pays whom and the rematch into view, on every phone, the
        # heading under the page's header (the 15 rows' pad had left it under the fold)
        heading = settle.locator("h2")
        expect(heading).to_be_in_viewport(ratio=1)
        expect(settle.locator("button", has_text="Rematch")).to_be_in_viewport(ratio=1)
        assert heading.bounding_box()["y"] >= page.locator("header.top").bounding_box()["height"]
    # Cleo's card, her column first, heads with the totals
    for i, name in enumerate(("Cleo", "Anna", "Ben")):
        assert phones["Cleo"].inner_text(f"#totals td >> nth={i}").startswith(str(result["totals"][name]))


def test_a_box_without_dice_a_correction_and_an_undo(server, new_phone):
    anna = new_phone()
    link = open_table(anna, server, "yatzy", ("Anna", "Ben"), form="classic")
    sit(anna, "Anna")
    ben = seat(new_phone, link, ("Ben",), ready="#tray .turn")["Ben"]
    anna.wait_for_selector("#tray .turn")
    # a box tapped without dice offers what it can hold: classic Full House 25 (or a scratch)
    anna.click("#board .yz-card button.cell:visible[value='0:full']")
    anna.wait_for_selector("#tray .picker")
    values = anna.locator("#tray .picker .values > *")
    assert [v.inner_text() for v in values.all()] == ["✕ scratch", "25"]
    anna.click("#tray .picker button:has-text('25')")
    wait_entries(ben, 1)
    assert ben.inner_text("#y0-full") == "25"
    # Ben scratches Yatzy: it asks once more
    ben.click("#board .yz-card button.cell:visible[value='1:yatzy']")
    ben.click("#tray .picker details.value summary")
    ben.click("#tray .picker details.value[open] button")
    wait_entries(anna, 2)
    assert anna.inner_text("#y1-yatzy") == "✕"
    # Anna's slip: 4 4 4 1 2 in Fours, then she corrects it to 16 where it stands. Her dice by
    # keyboard: the fifth die hides the faces (the boxes take their room), and the focus on its
    # face fell to the page's top; it goes to the best box. A die taken back by Enter left it
    # there too; it stays on that die's face, for the right one beside it
    best = anna.locator("#tray .options > :first-child")
    for face in (4, 4, 4, 1, 3):
        anna.focus(f"#tray [data-face='{face}']")
        anna.keyboard.press("Enter")
    expect(best).to_be_focused()
    anna.focus("#tray .thrown [data-take='4']")
    anna.keyboard.press("Enter")
    expect(anna.locator("#tray [data-face='3']")).to_be_focused()
    anna.keyboard.press("Shift+Tab")
    anna.keyboard.press("Enter")
    expect(best).to_be_focused()
    expect(anna.locator("#tray .thrown")).to_have_text("44412")
    anna.click("#tray button.option[data-box='4']")
    wait_entries(ben, 3)
    anna.click("#y0-4 button.written")
    anna.click("#tray .picker button:has-text('16')")
    expect(ben.locator("#y0-4")).to_have_text("16")
    expect(ben.locator("#b0")).to_contain_text("16")
    assert "47 more" in ben.get_attribute("#b0", "title") and "needs 47 more for the bonus" in ben.get_attribute(
        "#b0", "title")
    # Ben writes and takes it back with the tray's Undo
    for face in (6, 6, 6, 6, 6):
        ben.click(f"#tray [data-face='{face}']")
    ben.click("#tray button.option[data-box='6']")
    expect(anna.locator("#y1-6")).to_have_text("30")
    # on slow Wi-Fi (its answer held) the Undo tapped looks taken meanwhile (it looked as before
    # for seconds, tapped again), and bright again once answered
    held = []
    ben.route("**/undo", lambda route: held.append(route))
    ben.click("#tray .tray-undo")
    ben.wait_for_function("() => document.querySelector('#tray .tray-undo.htmx-request')")
    assert float(ben.locator("#tray .tray-undo").evaluate("b => getComputedStyle(b).opacity")) < 1
    # kept meanwhile (as offline, where it looked as before, with no sign it was taken), it takes
    # no second tap, nor one while an entry of the phone waits (it stood aimed at the one before)
    assert ben.locator("#tray .tray-undo").evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    held[0].continue_()
    expect(anna.locator("#y1-6")).to_have_text("")
    assert "undid entry" in ben.inner_text(".history")
    assert ben.locator("#tray .htmx-request").count() == 0


def test_a_phone_turned_sideways_shows_every_open_box_once_five_dice_are_tapped(server, new_phone):
    """740×360: the tray's three options a row filled the short screen after two rows, and the
    rest of the open boxes needed a scroll inside the tray; now a wide screen puts more in a row."""
    host = new_phone()
    link = open_table(host, server, "yatzy", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray .turn", viewport={"width": 740, "height": 360})["Anna"]
    for face in (5, 5, 5, 2, 2):
        anna.tap(f"#tray [data-face='{face}']")
    options = anna.locator("#tray button.option, #tray details.option > summary")  # a scratch opens first
    expect(options).to_have_count(15)
    boxes = options.all()
    for box in boxes:
        where = box.bounding_box()
        assert where["y"] >= 0 and where["y"] + where["height"] <= 360 and where["x"] + where["width"] <= 740, where
    assert anna.evaluate("window.scrollY") == 0 and anna.evaluate("document.querySelector('#tray').scrollTop") == 0


def test_long_names_atop_the_card_stand_apart(server, new_phone):
    """Eight players, long names, a 360 px phone: the names atop the card ran together
    ("BartholomäusMaximilianeF…"); each stands inside its column now, cut where it must be."""
    names = ("Bartholomäus", "Maximiliane", "Friederike", "Konstantin", "Anna", "Ben", "Cleo", "Dora")
    host = new_phone()
    open_table(host, server, "yatzy", names)
    gaps = host.evaluate("""() => [...document.querySelectorAll('.yz-card thead th.side')].map(th => {
        const range = document.createRange(); range.selectNodeContents(th);
        const text = range.getBoundingClientRect(), box = th.getBoundingClientRect();
        return [th.textContent.trim(), Math.round(box.right - Math.min(text.right, box.right)),
                Math.round(Math.max(text.left, box.left) - box.left)]; })""")
    assert len(gaps) == 8
    for name, right, left in gaps:
        assert right >= 3 and left >= 3, (name, right, left)


BEST = {"1": 5, "2": 10, "3": 15, "4": 20, "5": 25, "6": 30, "pair": 12, "two_pairs": 22, "three": 18, "four": 24,
        "small": 15, "large": 20, "full": 28, "chance": 30, "yatzy": 50}


def test_four_players_money_of_four_digits_reads_whole_in_its_column(server, new_phone):
    """Four players at €1.00 a point, an Austrian phone, Anna 374 and the others nothing: under
    Anna's total "+" stood over "€ 1.122,00", which ran into Ben's column, and every "-€ 374,00"
    broke after its "-". Too long for their columns, the amounts leave the currency's sign to
    the row's name ("Gesamt €") and a whole amount its cents: "+1.122", one line, in its cell."""
    names = ("Anna", "Ben", "Cleo", "Dora")
    host = new_phone(locale="de-AT", extra_http_headers={"Accept-Language": "de-AT"})
    link = open_table(host, server, "yatzy", names, form="scandinavian", stake="1.00")
    enter_for_all(host, link.rsplit("/", 1)[1], [{"type": "score", "player": name, "box": box, "value": value if name == "Anna" else 0}
                                                 for box, value in BEST.items() for name in names])
    host.reload()
    cells = host.locator("#totals td").evaluate_all("""tds => tds.map((td) => {
        const money = td.querySelector('small'), range = document.createRange(); range.selectNodeContents(money);
        const text = range.getBoundingClientRect(), cell = td.getBoundingClientRect();
        return {text: money.textContent, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
                inside: text.left >= cell.left && text.right <= cell.right}; })""")
    assert all(cell["lines"] == 1 and cell["inside"] for cell in cells), cells
    assert [cell["text"] for cell in cells] == ["+1.122", "-374", "-374", "-374"], cells
    expect(host.locator("#totals th")).to_have_text("Gesamt€")


def test_the_round_reads_whole_beside_the_hosts_undo(server, new_phone):
    """The host's phone has an Undo on every turn (the last entry is always the host's to take
    back): beside "Zurücknehmen" the turn line read "Du bist dran! ·…", the round cut off. The
    round takes a line of its own in the turn line now, and every open box stays in view."""
    host = new_phone(locale="de-DE", extra_http_headers={"Accept-Language": "de-DE"})
    link = open_table(host, server, "yatzy", NAMES)
    sit(host, "Anna")
    enter_for_all(host, link.rsplit("/", 1)[1], [{"type": "score", "player": name, "box": "chance", "value": 20}
                                                 for name in NAMES])
    host.reload()
    expect(host.locator("#tray .tray-undo")).to_be_visible()
    for face in (5, 5, 5, 2, 2):
        host.tap(f"#tray .faces [data-face='{face}']")
    expect(host.locator("#tray .tray-options .options [data-cell]")).to_have_count(14)
    turn = host.locator("#tray .turn")
    expect(turn).to_contain_text("Runde 2 von 15")
    assert turn.evaluate("e => e.scrollWidth <= e.clientWidth"), turn.evaluate("e => [e.scrollWidth, e.clientWidth]")
    round_ = turn.locator(".muted").bounding_box()
    box = turn.bounding_box()
    assert round_["x"] + round_["width"] <= box["x"] + box["width"], (round_, box)
    for option in host.locator("#tray .tray-options [data-cell]").all():
        where = option.bounding_box()
        assert where["y"] >= 0 and where["y"] + where["height"] <= PHONE["viewport"]["height"], where
    assert host.evaluate("document.querySelector('#tray').scrollTop") == 0
