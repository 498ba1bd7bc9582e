"""Euchre in real browsers: Anna opens the table on her phone and pairs the partners, Ben
joins on his, and the two play a whole game to 10 — three taps for a plain hand, the
points shown before each confirm, every hand live on the other phone — then a rematch."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from .conftest import again, enter_for_all, looking_at, open_table, seat, sit

SHOTS = os.environ.get("EUCHRE_SHOTS")  # a folder: keep screenshots of the screens


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"euchre-{name}.png"), full_page=True)


def score(page):
    return [int(n) for n in page.locator("#board .race [data-score]").all_inner_texts()]


def wait_score(page, expected):
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('#board .race [data-score]')]"
        ".map(b => Number(b.textContent))) === want", arg=str(expected).replace(" ", ""), timeout=5000)


def enter(page, maker, tricks, alone=False, defender=None, trump=None, expect=None):
    """Enter one hand the way a player does; returns the number of taps it took."""
    taps = []

    def tap(selector):
        page.click(selector)
        taps.append(selector)

    tap(f"#board .alone-quick[value='{maker}']" if alone else f"#board .maker[value='{maker}']")
    if defender:
        tap(f"#board [data-lone='{defender}']")
    if trump:
        tap(f"#board [data-suit='{trump}']")
    tap(f"#board [data-tricks='{tricks}']")
    confirm = page.locator("#board [data-confirm]")
    if expect:  # the points are on the screen before the hand is confirmed
        assert confirm.inner_text() == f"Confirm: {expect}"
    tap("#board [data-confirm]")
    return len(taps)


def test_two_phones_play_a_game_to_ten(server, new_phone):
    anna = new_phone()
    anna.goto(server.url + "/new/euchre")
    for i, name in enumerate(("Anna", "Ben", "Cleo", "Dora")):
        anna.fill(f"input[name=player] >> nth={i}", name)
    anna.click("text=Open the table")
    anna.wait_for_url(re.compile(r"/t/[\w-]+$"))
    anna.wait_for_selector("#board .hand-entry")  # four names: partners seated opposite
    sit(anna, "Anna")
    anna.wait_for_selector("#board .race-team.mine")
    link = anna.url

    ben = new_phone()
    ben.goto(link)
    sit(ben, "Ben")
    ben.wait_for_selector("#board .hand-entry")
    assert "Anna deals · you lead" in ben.inner_text(".deal-line")
    shot(ben, "start")

    # hand 1, from Anna's phone: she went alone and took all five — three taps
    assert enter(anna, "Anna", 5, alone=True, expect="Anna & Cleo +4") == 3
    wait_score(ben, [4, 0])  # live on Ben's phone
    assert "You deal" in ben.inner_text(".deal-line")
    assert "alone" in ben.inner_text(".history") and "march" in ben.inner_text(".history")

    # hand 2, from Ben's phone, with the trump suit for the statistics: one tap more
    ben.click("#board .maker[value='Ben']")
    ben.click("#board [data-suit='spades']")
    ben.click("#board [data-tricks='3']")
    shot(ben, "confirm")
    assert "Led by Cleo · Cleo deals next" in ben.inner_text("[data-preview]")
    ben.click("#board [data-confirm]")
    wait_score(anna, [4, 1])
    assert "♠" in anna.inner_text(".history")

    # all passed: a redeal passes the deal on, no points
    ben.click("#board .redeal")
    assert "Dora deals next" in ben.inner_text("[data-preview]")
    ben.click("#board [data-confirm]")
    anna.wait_for_selector("#board .deal-line:has-text('Dora deals')")
    assert score(anna) == [4, 1]

    # Ben has begun a hand when Anna enters it first: his picker starts over, nothing doubles
    ben.click("#board .maker[value='Cleo']")
    ben.click("#board [data-tricks='5']")
    assert enter(anna, "Cleo", 5, expect="Anna & Cleo +2") == 3
    wait_score(ben, [6, 1])
    ben.wait_for_selector("#board .makers")
    assert ben.locator("#board [data-confirm-box]").is_hidden()

    # a slip on Anna's phone, undone from the tray
    enter(anna, "Ben", 2, expect="Anna & Cleo +2")
    wait_score(ben, [8, 1])
    anna.click("#tray .tray-undo")
    wait_score(ben, [6, 1])
    assert "undid entry" in anna.inner_text(".history")

    # a live redraw in the middle of a hand keeps Ben's choices: Cleo joins meanwhile.
    # Anna defended alone against Dora, and Dora's side took one trick: four taps
    ben.click("#board .maker[value='Dora']")
    change = ben.get_attribute("#stamp", "data-change")
    cleo = new_phone()
    cleo.goto(link)
    sit(cleo, "Cleo")
    cleo.wait_for_selector("#board .hand-entry")
    ben.wait_for_function("c => document.querySelector('#stamp').dataset.change !== c", arg=change)
    assert "Dora named trump" in ben.inner_text("#board [data-chosen]")
    ben.click("#board [data-lone='Anna']")
    ben.click("#board [data-tricks='1']")
    assert ben.inner_text("#board [data-confirm]") == "Confirm: Anna & Cleo +2"
    assert "Led by Ben" in ben.inner_text("#board [data-preview]")  # left of the lone defender
    ben.click("#board [data-confirm]")
    wait_score(anna, [8, 1])
    wait_score(cleo, [8, 1])

    assert enter(anna, "Anna", 4, expect="Anna & Cleo +1") == 3
    wait_score(ben, [9, 1])
    assert enter(ben, "Ben", 3, expect="Ben & Dora +1") == 3
    wait_score(anna, [9, 2])
    shot(anna, "board")
    ben.click("#board .maker[value='Dora']")
    ben.click("#board [data-tricks='2']")
    assert "That ends the game: Anna & Cleo first to 10" in ben.inner_text("#board [data-preview]")
    assert ben.inner_text("#board [data-confirm]") == "Confirm: Anna & Cleo +2"
    ben.click("#board [data-confirm]")

    # the end, on both phones
    for page in (anna, ben):
        page.wait_for_selector("#board .settle .winner")
        assert page.inner_text("#board .settle .winner") == "Anna & Cleo"
        assert score(page) == [11, 2]
        assert page.locator("#board .hand-entry").count() == 0
    assert "Rematch: the same partners; Ben deals first." in ben.inner_text(".settle")
    shot(ben, "end")

    ben.click("#board .settle button:has-text('Rematch')")
    wait_score(anna, [0, 0])
    anna.wait_for_selector("#board .hand-entry")
    assert "Ben deals · Cleo leads" in anna.inner_text(".deal-line")
    assert "Anna & Cleo" in anna.inner_text(".race")


def deal_line_above_tray(page) -> None:
    """Who deals and who leads stands on the screen, above the tray."""
    line, tray = page.locator("#board .deal-line").bounding_box(), page.locator("#tray").bounding_box()
    assert line["y"] >= 0 and line["y"] + line["height"] <= tray["y"], (line, tray)


def counts_above_the_check(page) -> None:
    """Every count of tricks in the tray stands above the hand's check and Confirm, and who
    deals and who leads above the tray."""
    check, tray = page.locator("#tray .confirm").bounding_box(), page.locator("#tray").bounding_box()
    for count in page.locator("#tray .trick").all():
        box = count.bounding_box()
        assert tray["y"] <= box["y"] and box["y"] + box["height"] <= check["y"], (count.inner_text(), box, check)
    deal_line_above_tray(page)


def open_form(page, server, names, form, **rules):
    return open_table(page, server, "euchre", names, form=form, **rules)


def test_three_phones_play_a_three_handed_game_to_ten(server, new_phone):
    """Cut-throat: each for themselves, no lone hands, the other two defend together and a
    euchre scores both of them."""
    host = new_phone()
    link = open_form(host, server, ("Anna", "Ben", "Cleo"), "three-handed")
    anna, ben, cleo = seat(new_phone, link, ("Anna", "Ben", "Cleo"), ready="#board .hand-entry").values()
    assert anna.locator("#board .alone-quick").count() == 0
    # without lone hands every maker has the row to itself (the second went into the narrow
    # column of the lone-hand buttons, cut off at the screen's edge)
    makers = [anna.locator(f"#board .maker[value='{name}']").bounding_box() for name in ("Anna", "Ben", "Cleo")]
    assert all(box["x"] + box["width"] <= 360 and box["width"] == makers[0]["width"] for box in makers), makers
    anna.click("#board .maker[value='Anna']")
    assert anna.inner_text("#board [data-defenders]") == "Ben & Cleo defend together"
    anna.click("#board [data-tricks='1']")
    assert anna.inner_text("#board [data-confirm]") == "Confirm: Ben & Cleo +2"
    anna.click("#board [data-confirm]")
    for phone in (anna, ben, cleo):
        wait_score(phone, [0, 2, 2])
    # then Ben marches (+3) and makes (+1) until he reaches 10, entered from every phone in turn
    marches = [(ben, "Ben", 5)] * 2 + [(cleo, "Ben", 3), (anna, "Ben", 5)]
    expected = [0, 2, 2]
    for page, maker, tricks in marches:
        enter(page, maker, tricks)
        expected[1] += 3 if tricks == 5 else 1
        for phone in (anna, ben, cleo):  # every picker starts on the board with the last hand
            wait_score(phone, expected)
    for page in (anna, ben, cleo):
        page.wait_for_selector("#board .settle")
        assert "Ben" in page.inner_text("#board .settle .winner")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # each player has a colour of their own: Cleo's, the third, had none — her two points lit
    # no pip, and nothing marked her score as hers
    colours = anna.locator("#board .race-team").evaluate_all("teams => teams.map(t => [getComputedStyle(t).borderTopColor,"
                                                            " [...t.querySelectorAll('.pips i.on')].map(i => getComputedStyle(i).backgroundColor)])")
    assert len({top for top, _ in colours}) == 3 and colours[2][1] == [colours[2][0]] * 2, colours


def test_a_railroad_game_rematches_with_its_laps(server, new_phone):
    host = new_phone()
    link = open_form(host, server, ("Anna", "Ben", "Cleo", "Dora"), "railroad", target=5)
    sit(host, "Anna")
    host.wait_for_selector("#board .race-team.mine")
    ben = new_phone()
    ben.goto(link)
    sit(ben, "Ben")
    ben.wait_for_selector("#board .hand-entry")
    enter(ben, "Ben", 3)  # Ben & Dora 1 ...
    wait_score(host, [0, 1])  # (the host's picker starts on the board that has Ben's hand)
    for points in (2, 4):  # ... then Anna & Cleo march: 2, 4, 6 — one lap past the target
        enter(host, "Anna", 5)
        wait_score(host, [points, 1])
    enter(host, "Anna", 5)
    for page in (host, ben):
        page.wait_for_selector("#board .settle")
        assert "1 point beyond 5 carries into the rematch." in page.inner_text("#board .settle")
    ben.click("#board button:has-text('Rematch')")
    for page in (host, ben):
        page.wait_for_selector("#board .race-carried")
        assert "1 point carried in from the last game" in page.inner_text("#board .race")
    assert score(ben) == [1, 0]


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}, {"width": 740, "height": 360}])
def test_the_hand_s_confirm_is_in_view_once_its_tricks_are_tapped(server, new_phone, viewport):
    """A German phone: the trick counts sit low in the tray, and the check and Confirm a tap on
    one brings came in under the screen's edge, to be scrolled to inside the tray (upright too:
    the figures' one scroll a hand). They stand at the tray's foot now, low enough to leave the
    count tapped in view."""
    link = open_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray .maker", viewport=viewport, locale="de-DE",
                extra_http_headers={"Accept-Language": "de-DE"})["Anna"]
    anna.locator("#tray .maker[value='Ben']").tap()
    anna.locator("#tray [data-tricks='3']").tap()
    confirm = anna.locator("#tray [data-confirm]")
    expect(confirm).to_contain_text("Ben & Dora +1")
    box = confirm.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    if viewport["height"] > viewport["width"]:  # upright, the count tapped stays in view above them
        count = anna.locator("#tray [data-tricks='3'] b").bounding_box()
        check = anna.locator("#tray .confirm").bounding_box()
        assert count["y"] + count["height"] <= check["y"], (count, check)
    confirm.tap()
    expect(anna.locator("#stamp")).to_have_attribute("data-entries", "1")


def test_who_deals_and_who_leads_stays_above_the_tray(server, new_phone):
    """A Polish phone, Anna's, entering a hand: "Rozdanie 1  Rozdajesz · wychodzi Ben" takes
    two lines, and once Anna was tapped as maker and 1 as the makers' tricks the tray (at most
    70 % of the screen, stuck to its foot) covered the second, "Ben", the one who leads (on a
    320×568 phone the whole line, in any language). Who deals and who leads stays in view,
    above the tray, at every step of the hand. One table, Anna's seat on a Polish 360×740
    phone and on a German 320×568 one."""
    link = open_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    first = None
    for locale, viewport in [("pl-PL", {"width": 360, "height": 740}), ("de-AT", {"width": 320, "height": 568})]:
        with looking_at(f"{locale} at {viewport['width']}×{viewport['height']}"):
            phone = {"viewport": viewport, "locale": locale, "extra_http_headers": {"Accept-Language": locale}}
            anna = first = (again(new_phone, first, ready="#tray .maker", **phone) if first
                            else seat(new_phone, link, ("Anna",), ready="#tray .maker", **phone)["Anna"])
            deal_line_above_tray(anna)
            anna.locator("#tray .maker[value='Anna']").tap()
            expect(anna.locator("#tray [data-lone]")).to_have_count(3)  # Anna, Ben, Dora: who went alone
            deal_line_above_tray(anna)
            anna.locator("#tray [data-tricks='1']").tap()
            expect(anna.locator("#tray [data-confirm]")).to_be_visible()
            if locale == "pl-PL":
                expect(anna.locator("#board .deal-line")).to_have_text(re.compile(r"Rozdajesz · wychodzi Ben"))
            deal_line_above_tray(anna)


PARTNERS = ("Anna", "Bartholomew", "Cleo", "Dora")
SMALL = {"width": 320, "height": 568}


@pytest.mark.parametrize("locale, names, viewport, tricks, confirms, exact", [
    ("de-AT", PARTNERS, None, 3, ("Bestätigen: Bartholomew & Dora +1", "Bestätigen: Anna & Cleo +2"), True),
    ("de-AT", PARTNERS, SMALL, 4, ("+1", "+2"), False),
    ("pl-PL", ("Anna", "Bartholomew"), SMALL, 4, ("+1", "+2"), False),
], ids=["de-AT partnership 360", "de-AT partnership 320", "pl-PL two-handed 320"])
def test_every_count_of_tricks_stays_above_the_confirm_with_a_long_name(server, new_phone, locale, names, viewport,
                                                                        tricks, confirms, exact):
    """A German phone at a table with a Bartholomew: his hand's check ("Bartholomew kommt raus ·
    als Nächstes gibt Bartholomew") and Confirm ("Bestätigen: Bartholomew & Dora +1") take two
    lines each, and in a tray of 70 % of the screen they hid the lower row of trick counts, the
    3 tapped among them, to be scrolled to inside the tray. The tray rises to just under who
    deals and who leads: every count in view above the check, that line above the tray.
    A 320×568 phone: the tray cannot hold the whole hand, and once 4 was tapped as the makers'
    tricks the check and Confirm at its foot covered every count, the 4 tapped among them. The
    counts come first there, the optional rows after them. With a Bartholomew at the table
    (partnership and two-handed) "Bartholomew hat Trumpf bestimmt" took two lines and its
    Change a third, and the lower row went 5 to 29 px under the check; from the second hand
    on the Undo's line atop the tray and a lone defender in the check took more. Who named
    trump stands beside Change now, the check's words and the counts' heading a size smaller."""
    link = open_table(new_phone(), server, "euchre", names, form="partnership" if len(names) == 4 else "two-handed")
    anna = seat(new_phone, link, ("Anna",), ready="#tray .maker", locale=locale,
                extra_http_headers={"Accept-Language": locale}, **({"viewport": viewport} if viewport else {}))["Anna"]
    confirm = anna.locator("#tray [data-confirm]")
    says = expect(confirm).to_have_text if exact else expect(confirm).to_contain_text

    if exact:  # zoomed to 200 %: the names who may make trump broke letter by letter down
        # their boxes beside "alone" ("A / n / n / a"); two lines at most now, "Anna" one
        anna.set_viewport_size({"width": 180, "height": 370})
        lines = anna.locator("#tray .maker").evaluate_all("""makers => makers.map((maker) => {
            const name = [...maker.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim()), range = document.createRange();
            range.selectNodeContents(name);
            return [name.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]; })""")
        assert all(count <= (1 if len(name.strip()) <= 4 else 2) for name, count in lines), lines
        # and the teams' cards side by side broke "Bartholomew" inside his name ("Barth / olom / ew"):
        # one under the other, every word whole
        broken = anna.locator("#board .race-name").evaluate_all("""names => names.flatMap((name) => {
            const text = name.firstChild, range = document.createRange(), out = [];
            for (const word of text.textContent.matchAll(/\\S+/g)) {
                range.setStart(text, word.index); range.setEnd(text, word.index + word[0].length);
                if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(word[0]);
            }
            return out; })""")
        assert broken == []
        anna.set_viewport_size({"width": 360, "height": 740})
    anna.locator("#tray .maker[value='Bartholomew']").tap()
    anna.locator(f"#tray [data-tricks='{tricks}']").tap()
    says(confirms[0])
    counts_above_the_check(anna)
    if exact:  # the phone's text set large, then the page zoomed to 200 %: "Bartholomew" ran out of
        # his box over "Anna" beside it, and ♠ past the tray's edge (the tray scrolled sideways)
        for size, zoomed in (("130%", None), ("100%", {"width": 180, "height": 370})):
            anna.evaluate(f"document.documentElement.style.fontSize = '{size}'")
            if zoomed:
                anna.set_viewport_size(zoomed)
            spilt = anna.locator("#tray [data-lone], #tray .suit").evaluate_all("""boxes => boxes.filter((box) => {
                const words = document.createRange(), outer = box.getBoundingClientRect(); words.selectNodeContents(box);
                const inner = words.getBoundingClientRect();
                return outer.width && (inner.left < outer.left || inner.right > outer.right || outer.right > innerWidth);
            }).map((box) => box.textContent)""")
            assert spilt == [], size
            assert anna.locator("#tray").evaluate("tray => tray.scrollWidth <= tray.clientWidth"), size
        anna.set_viewport_size({"width": 360, "height": 740})
    confirm.tap()
    expect(anna.locator("#stamp")).to_have_attribute("data-entries", "1")
    # the second hand: the Undo's line atop the tray, and (partnership) Anna defends alone
    if len(names) == 4:
        anna.locator("#tray .maker[value='Dora']").tap()
        anna.locator("#tray [data-lone='Anna']").tap()
        expect(anna.locator("#tray [data-lone='Anna'] input")).to_be_checked()
    else:
        anna.locator("#tray .maker[value='Bartholomew']").tap()
    anna.locator("#tray [data-tricks='2']").tap()
    says(confirms[1])
    expect(anna.locator("#tray .tray-undo")).to_be_visible()
    counts_above_the_check(anna)


def test_a_redeal_s_check_reads_line_under_line_on_a_small_phone(server, new_phone):
    """All passed, on a 320 px German phone: the check's two lines stood side by side, "Zweimal
    alle gepasst: keine Punkte." a word a line in half the tray beside "Als Nächstes gibt
    Ben." They read one under the other."""
    link = open_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray .maker", viewport={"width": 320, "height": 568},
                locale="de-AT", extra_http_headers={"Accept-Language": "de-AT"})["Anna"]
    anna.locator("#tray .redeal").tap()
    expect(anna.locator("#tray [data-preview] .pv").first).to_have_text("Zweimal alle gepasst: keine Punkte.")
    first, second = anna.locator("#tray [data-preview] .pv").all()
    one, two = first.bounding_box(), second.bounding_box()
    wide = anna.locator("#tray [data-preview]").bounding_box()["width"]
    assert one["y"] + one["height"] <= two["y"] and one["width"] >= wide - 1, (one, two, wide)


def test_the_host_of_a_small_phone_sits_down_past_the_tray(server, new_phone):
    """A 320×568 phone: the host, who writes for everyone, has the tray before a seat, and
    Euchre's covered every name to sit down by (a tap on one went to the tray)."""
    host = new_phone(viewport={"width": 320, "height": 568})
    open_table(host, server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    expect(host.locator("#tray")).to_be_visible()
    host.locator("#join button:has-text('Dora')").tap(timeout=3000)
    expect(host.locator("#join")).to_have_count(0)
    # seated, the tray may take its height again
    assert host.locator("#tray").evaluate("t => parseFloat(getComputedStyle(t).maxHeight)") > 568 * .6


def test_a_maker_tapped_offline_is_told_and_goes_on_when_the_network_is_back(server, new_phone):
    """The Wi-Fi drops as Anna taps who named trump (Spanish phone): the tray, whose next step
    is the server's, said nothing of why it did not come; it says so now atop the tray, and goes
    on by itself once the network is back."""
    link = open_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray .maker", locale="es-ES",
                extra_http_headers={"Accept-Language": "es-ES"})["Anna"]
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    anna.locator("#tray .maker[value='Ben']").tap()
    expect(anna.locator("#tray")).to_have_attribute(
        "data-waiting", "Sin conexión — lo que has tocado se queda; se sigue cuando vuelva la red")
    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")
    anna.locator("#tray [data-tricks='3']").tap()
    expect(anna.locator("#tray")).not_to_have_attribute("data-waiting", re.compile("."))
    anna.locator("#tray [data-confirm]").tap()
    expect(anna.locator("#stamp")).to_have_attribute("data-entries", "1")
    # offline again, she corrects the hand to 4 tricks: kept, every correction takes no other tap
    # meanwhile and looks it (they stood bright, no sign the first was taken, and a second one was
    # kept too), and it lands once the network is back
    fix = anna.locator("#board details.fix").first
    fix.locator("summary").click()
    fix.locator(".fix-row button").first.wait_for()  # asked as it opens (web/table.py `fix`)
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    fix.locator(".fix-row button:text-is('4')").click()
    anna.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length === 1")
    five = fix.locator(".fix-row button:text-is('5')")
    assert five.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    assert float(five.evaluate("b => getComputedStyle(b).opacity")) < 1
    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")
    expect(anna.locator("#board .history")).to_contain_text("4 bazas")
    anna.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length === 0")


def test_what_each_count_of_tricks_makes_reads_whole_on_a_small_german_phone(server, new_phone):
    """At 320 px the tricks buttons are a third of the tray wide: "Durchmarsch +4" (a lone
    march) ran past its button and the screen's edge, the points cut off."""
    link = open_table(new_phone(), server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray .maker", viewport={"width": 320, "height": 568},
                locale="de-DE", extra_http_headers={"Accept-Language": "de-DE"})["Anna"]
    anna.locator("#tray .alone-quick[value='Ben']").tap()
    words = anna.locator("#tray .trick small")
    expect(words.last).to_have_text("Durchmarsch +4")
    spilled = words.evaluate_all("""found => found.filter(s => {
        const word = s.getBoundingClientRect(), button = s.parentElement.getBoundingClientRect();
        return word.left < button.left || word.right > button.right || s.scrollWidth > s.clientWidth; }).map(s => s.textContent)""")
    assert spilled == []


def test_the_new_table_form_follows_the_form_chosen(server, new_phone):
    """Eight name fields and Railroad's laps and slam under every form: choosing a form now
    shows its own settings and seats, and keeps the names already typed."""
    host = new_phone()
    host.goto(server.url + "/new/euchre")
    names = host.locator("input[name=player]")
    expect(names).to_have_count(4)
    expect(host.locator("select[name=rule_laps]")).to_have_count(0)
    names.nth(0).fill("Gus")
    names.nth(1).fill("Hal")
    host.get_by_text("Two-handed: two players").tap()
    expect(names).to_have_count(2)
    expect(names.nth(0)).to_have_value("Gus")
    host.get_by_text("Railroad: partnership").tap()
    expect(host.locator("select[name=rule_laps]")).to_be_visible()
    expect(names).to_have_count(4)
    expect(names.nth(1)).to_have_value("Hal")
    names.nth(2).fill("Ida")
    names.nth(3).fill("Jo")
    host.click("text=Open the table")
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(host.locator("#board")).to_contain_text("Gus")


def test_the_end_of_a_three_handed_game_keeps_each_name_s_words_whole(server, new_phone):
    """The figures at the end of a three-handed game gave each name a fifth of a 360 px phone
    beside the figures' labels: "Bartholomew" broke letter by letter ("Barthol" over "omew"). Each
    figure's label stands over its numbers now, the names share the width, wrap at their spaces
    and a word too long for its column ends in an ellipsis; a number is one line. One game's
    end, on a 360 px screen, then the same page on a 320 px one."""
    names = ("Bartholomew", "Maximiliane", "Wolfgang Amadeus")
    host = new_phone(viewport={"width": 360, "height": 740})
    link = open_form(host, server, names, "three-handed")
    enter_for_all(host, link.rsplit("/", 1)[-1], [{"type": "hand", "maker": names[0], "tricks": 5}] * 4)
    host.reload()
    host.wait_for_selector("#board .settle .euchre-stats")
    for width in (360, 320):
        with looking_at(f"{width} px"):
            host.set_viewport_size({"width": width, "height": 740})
            cells = host.locator("#board .euchre-stats").evaluate("""table => [...table.querySelectorAll('th, td')].map((cell) => {
                const range = document.createRange(); range.selectNodeContents(cell);
                return {text: cell.textContent.trim(), lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
                        cut: cell.scrollWidth > cell.clientWidth, ellipsis: getComputedStyle(cell).textOverflow === 'ellipsis'}; })""")
            heads = [cell for cell in cells if cell["text"] in names]
            assert len(heads) == 3
            for cell in cells:
                assert cell["lines"] <= len(cell["text"].split()), cell  # never a line inside a word
                assert not cell["cut"] or cell["ellipsis"], cell
            if width == 360:
                assert not any(cell["cut"] for cell in heads), heads  # whole at 360
            numbers = [cell for cell in cells if cell["text"].isdigit()]
            assert numbers and all(cell["lines"] == 1 and not cell["cut"] for cell in numbers), numbers
            assert host.evaluate("document.documentElement.scrollWidth") <= width
