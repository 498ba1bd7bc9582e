"""Phones not like ours, at the table: large text, a screen reader, a small old screen, the light
theme in a bright beer garden.

Large text is a zoomed page. Firefox on Android turns the system's font size into a zoom of
the whole page, and Chrome on Android and Safari zoom pages the same way; a page that asks for
`width=device-width` and `text-size-adjust: 100%` (this one) gets no text inflation otherwise. A
page zoomed to 150 % on a 360×740 phone is laid out as 240×493 CSS pixels, each half as big
again: Chromium's own emulation of it is a viewport that much smaller at that much higher a
device scale factor (`zoomed`).

A screen reader: what a live region says (#said, role=status), the name of each control, and
where the focus stands after a swap. Contrast: WCAG AA, 4.5:1 for text, 3:1 for large text,
measured on the page as drawn (`LOW_CONTRAST`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES
from tests.games import SUPPORT

from .conftest import PHONE, again, enter_for_all, looking_at, open_table, sit


def zoomed(zoom: float, width: int = 360, height: int = 740) -> dict:
    """A phone's browser context whose pages are zoomed by `zoom` (large system text)."""
    return {"viewport": {"width": round(width / zoom), "height": round(height / zoom)},
            "device_scale_factor": 2 * zoom}


def seated(new_phone, server, game: str, players, name: str = "Anna", host_rules=None, **context):
    """A table of `game` opened on a host's phone, and a phone (`context`) seated as `name`."""
    link = open_table(new_phone(), server, game, players, **(host_rules or {}))
    page = new_phone(**context)
    page.goto(link)
    sit(page, name)
    return page


def tap_dice(page, faces) -> None:
    for face in faces:
        page.click(f"#tray .faces [data-face='{face}']")


def inside_the_screen(page, selector: str) -> list:
    """The elements of `selector` that stand past the screen's left or right edge."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .map((el) => el.getBoundingClientRect())
        .filter((box) => box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5)
        .map((box) => [Math.round(box.left), Math.round(box.right)])""", selector)


# the text on the page whose contrast with what is drawn behind it is under WCAG AA; a disabled
# control is exempt (WCAG 1.4.3), and so is a die's or a card's picture
LOW_CONTRAST = """(root) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
  const behind = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; } }
    return layers.reverse().reduce((c, layer) => over(layer, c), [255, 255, 255, 1]); };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e);
    if (s.display !== "contents") o *= Number(s.opacity); } return o; };
  const low = [], seen = new Set();
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    if (!el.getClientRects().length || style.visibility === "hidden" || el.closest("[hidden], :disabled, .said")) continue;
    const bg = behind(el), fg = parse(style.color);
    const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5, got = ratio(shown, bg);
    if (got < need) low.push(`${n.textContent.trim().slice(0, 30)} (${el.tagName.toLowerCase()}.${el.className}): ${got.toFixed(2)} < ${need}`);
  }
  return low; }"""


# --- large text ---------------------------------------------------------------------------------


def test_a_zoomed_page_keeps_every_face_and_thrown_die_on_the_screen(server, new_phone):
    """At 200 % the sixth face stood past the screen's edge (no 6 could be entered), and from
    150 % the fifth thrown die (no taking it back); at 150 % Escalero's turn still needs no
    scroll inside the tray: the options of the throw are in view under the dice. One table,
    looked at zoomed to 150 % and to 200 %."""
    first = seated(new_phone, server, "escalero", ("Anna", "Ben"), **zoomed(1.5))
    for zoom in (1.5, 2.0):
        with looking_at(f"{zoom:.0%}"):
            anna = first if zoom == 1.5 else again(new_phone, first, **zoomed(zoom))
            anna.wait_for_selector("#tray .faces")
            assert inside_the_screen(anna, "#tray .faces .die") == []
            tap_dice(anna, "44422")
            anna.wait_for_selector("#tray .tray-options button.option")
            assert inside_the_screen(anna, "#tray .faces .die, #tray .thrown .die") == []
            assert anna.evaluate("document.documentElement.scrollWidth") <= anna.viewport_size["width"]
            if zoom == 1.5:
                tray = anna.locator("#tray").bounding_box()
                option = anna.locator("#tray button.option").first.bounding_box()
                assert anna.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")
                assert option["y"] + option["height"] <= tray["y"] + tray["height"]


def test_escalero_s_options_stand_in_the_tray_at_200_percent(server, new_phone):
    """At 200 % the turn line, the six faces, the five dice, "served" and the options took 310 px
    of a tray 259 high: the options scrolled inside it. Five dice tapped, the faces give their
    room to the options; the turn line is two lines in German too. One table, looked at in
    English, German and Polish."""
    first = None
    for locale in ("en-GB", "de-AT", "pl-PL"):
        with looking_at(locale):
            phone = {**zoomed(2.0), "locale": locale, "extra_http_headers": {"Accept-Language": locale}}
            anna = first = (again(new_phone, first, **phone) if first
                            else seated(new_phone, server, "escalero", ("Anna", "Ben"), **phone))
            anna.wait_for_selector("#tray .faces")
            tap_dice(anna, "44422")
            anna.wait_for_selector("#tray .tray-options button.option")
            assert anna.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")
            tray, option = anna.locator("#tray").bounding_box(), anna.locator("#tray .option").first.bounding_box()
            assert option["y"] + option["height"] <= tray["y"] + tray["height"], (option, tray)
            assert inside_the_screen(anna, "#tray .thrown .die, #tray .served") == []
            anna.click("#tray .thrown [data-take='4']")  # one taken back: the faces are there again
            expect(anna.locator("#tray .faces [data-face='6']")).to_be_visible()


def test_the_tray_s_undo_and_the_next_options_stand_in_view_at_200_percent(server, new_phone):
    """From the first entry on, at 200 % the tray's "Zurücknehmen" beside the turn line stood past
    the screen's edge (no undo by a tap), and the turn line, squeezed to four lines, pushed the
    next options under the tray's fold. The Undo is its sign there, its name still the word.
    The host's phone in German enters the first turn; it and the same phone in Polish look."""
    host = None
    for locale in ("de-AT", "pl-PL"):
        with looking_at(locale):
            phone = {**zoomed(2.0), "locale": locale, "extra_http_headers": {"Accept-Language": locale}}
            if host is None:
                anna = host = new_phone(**phone)
                open_table(anna, server, "escalero", ("Anna", "Bartłomiej"))  # the host's phone: it writes for both
                sit(anna, "Anna")
                anna.wait_for_selector("#tray .faces")
                tap_dice(anna, "44422")
                anna.click("#tray .tray-options button.option >> nth=0")
            else:
                anna = again(new_phone, host, **phone)
            expect(anna.locator("#stamp")).to_have_attribute("data-entries", "1")
            undo = anna.locator("#tray .tray-undo")
            expect(undo).to_have_accessible_name({"de-AT": "Zurücknehmen", "pl-PL": "Cofnij"}[locale])
            assert inside_the_screen(anna, "#tray .tray-undo, #tray .turn") == []
            tap_dice(anna, "66655")  # Bartłomiej's throw, written by the host's phone
            anna.wait_for_selector("#tray .tray-options button.option")
            assert anna.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")
            assert inside_the_screen(anna, "#tray .tray-undo") == []


def test_a_cross_out_s_confirm_stands_in_view_at_200_percent(server, new_phone):
    """At 200 % a cross-out tapped put its confirm ("Tak, skreśl kol. 1 · 1", 170 px) at the end
    of the row of options, past the screen's edge, half of it in view. The row holds the cross-out
    and its confirm alone while it is open, both in view; closed, the options are back. One
    table: Anna's phone in German crosses out, the host writes Bartłomiej's turn, Anna's phone
    in Polish crosses out."""
    host = new_phone()
    link = open_table(host, server, "escalero", ("Anna", "Bartłomiej"))
    first = None
    for entries, locale in ((1, "de-AT"), (3, "pl-PL")):
        with looking_at(locale):
            phone = {**zoomed(2.0), "locale": locale, "extra_http_headers": {"Accept-Language": locale}}
            if first is None:
                anna = first = new_phone(**phone)
                anna.goto(link)
                sit(anna, "Anna")
            else:
                enter_for_all(host, link.rsplit("/", 1)[-1],
                              [{"type": "score", "player": "Bartłomiej", "column": 1, "row": "1", "value": 0}])
                anna = again(new_phone, first, **phone)
            anna.wait_for_selector("#tray .faces")
            tap_dice(anna, "12346")
            anna.wait_for_selector("#tray .tray-options details.option")
            shown = anna.locator("#tray .tray-options .options > :visible")
            count = shown.count()
            cross = anna.locator("#tray .tray-options details.option").first
            cross.locator("summary").click()
            confirm = cross.locator("button")
            expect(confirm).to_be_visible()
            assert inside_the_screen(anna, "#tray details[open].option > *") == []
            assert anna.evaluate("(o => o.scrollWidth <= o.clientWidth)(document.querySelector('#tray .tray-options .options'))")
            assert confirm.evaluate("b => b.scrollWidth <= b.clientWidth")  # its words inside it
            cross.locator("summary").click()  # not now: every option is back
            expect(shown).to_have_count(count)
            cross.locator("summary").click()
            confirm.click()
            expect(anna.locator("#stamp")).to_have_attribute("data-entries", str(entries))


def test_yatzy_s_open_boxes_stand_in_the_tray_at_150_percent(server, new_phone):
    """At 150 % the fifteen open boxes of a first turn stood two to a row, eight rows, and
    scrolled inside the tray; three to a row they are all in view, no name broken mid-word.
    One table, looked at in English, German and Polish."""
    first = None
    for locale in ("en-GB", "de-AT", "pl-PL"):
        with looking_at(locale):
            phone = {**zoomed(1.5), "locale": locale, "extra_http_headers": {"Accept-Language": locale}}
            cleo = first = (again(new_phone, first, **phone) if first else
                            seated(new_phone, server, "yatzy", ("Cleo", "Dan"), name="Cleo",
                                   host_rules={"form": "scandinavian"}, **phone))
            cleo.wait_for_selector("#tray .faces")
            tap_dice(cleo, "66655")
            expect(cleo.locator("#tray .tray-options .option")).to_have_count(15)
            assert cleo.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")
            tray = cleo.locator("#tray").bounding_box()
            for option in cleo.locator("#tray .tray-options .option").all():
                box = option.bounding_box()
                assert box["y"] >= tray["y"] and box["y"] + box["height"] <= tray["y"] + tray["height"], (option.inner_text(), box, tray)
            broken = cleo.evaluate("""() => [...document.querySelectorAll('#tray .option small')].filter((name) => {
                const range = document.createRange(); range.selectNodeContents(name);
                return range.getClientRects().length > name.textContent.trim().split(/\\s+/).length; }).map((name) => name.textContent)""")
            assert broken == []
            assert inside_the_screen(cleo, "#tray .option") == []
            # at 200 % (180×370 CSS px) fifteen boxes two to a row need 400 px, the tray has 296: they
            # scrolled inside it, and on the page as it opens only two rows stood on the screen. Now
            # the four best rows do, unscrolled (every box these dice score), and a fifth row cut at
            # the tray's foot under a shade says more follow
            cleo.set_viewport_size(zoomed(2.0)["viewport"])
            assert cleo.evaluate("[scrollY, document.querySelector('#tray').scrollTop]") == [0, 0]
            options = cleo.locator("#tray .tray-options .option")
            tray = cleo.locator("#tray").bounding_box()
            for option in options.all()[:8]:
                box = option.bounding_box()
                assert tray["y"] <= box["y"] and box["y"] + box["height"] <= 370, (option.inner_text(), box, tray)
            assert options.nth(8).bounding_box()["y"] < tray["y"] + tray["height"]
            assert cleo.evaluate("getComputedStyle(document.querySelector('#tray'), '::after').backgroundImage").startswith("linear-gradient")
            assert inside_the_screen(cleo, "#tray .option") == []


@pytest.mark.parametrize("context", [zoomed(1.5), zoomed(2.0), zoomed(1.5, 320, 568), {"viewport": {"width": 320, "height": 568}}],
                         ids=["150%", "200%", "320x568 at 150%", "320x568"])
def test_the_header_shows_the_table_code_whole(server, new_phone, context):
    """The code is how a friend joins: at large text it was cut to "HLK…", at 200 % to nothing,
    and on a 320 px phone "HMQB24 · Anna" lost its name's end. The code is whole now, the
    player's name beside or under it, and every tap of the header on the screen."""
    anna = seated(new_phone, server, "escoba", ("Anna", "Ben"), **context)
    anna.wait_for_selector("#where .code")
    # the code's own box, inside the box that cuts what does not fit (its overflow is hidden)
    assert anna.evaluate("""() => { const code = document.querySelector('#where .code');
        const c = code.getBoundingClientRect(), w = code.closest('.where').getBoundingClientRect();
        return code.getClientRects().length === 1 && c.left >= w.left - 0.5 && c.right <= w.right + 0.5 && c.bottom <= w.bottom + 0.5; }""")
    assert "Anna" in anna.inner_text("#where")
    # a "·" that parts the code from the name stands on the name's line: at 320 px "B5L2Z4 ·"
    # ended the first line of a Polish host's header and "gospodarz" began the second
    assert anna.evaluate("""() => { const dot = [...document.querySelector('#where').childNodes]
        .find((node) => node.nodeType === 3 && node.data.includes('·'));
        const range = document.createRange(); range.setStart(dot, dot.data.indexOf('·')); range.setEnd(dot, dot.data.indexOf('·') + 1);
        return Math.abs(range.getBoundingClientRect().top - dot.nextSibling.getBoundingClientRect().top) < 4; }""")
    assert inside_the_screen(anna, ".top .theme, .top .net") == []


def test_escoba_s_names_and_labels_read_whole_on_a_zoomed_page(server, new_phone):
    """At 200 % the escobas' counter beside a side's name pushed the standings past the screen's
    edge (the page scrolled sideways, the names squeezed into a third of it), and at 150 % the
    round form's steppers took the row and "Cards" broke letter by letter ("C ar ds")."""
    anna = seated(new_phone, server, "escoba", ("Anna", "Bartłomiej"), **zoomed(2.0))
    anna.wait_for_selector("[data-open-round]")
    assert anna.evaluate("document.documentElement.scrollWidth") <= anna.viewport_size["width"]
    names = anna.evaluate("[...document.querySelectorAll('.escoba-side .side-name')].map(n => n.clientWidth)")
    assert names and min(names) >= 100, names
    anna = seated(new_phone, server, "escoba", ("Anna", "Ben"), **zoomed(1.5))
    anna.wait_for_selector("[data-open-round]")
    anna.click("[data-open-round]")
    anna.wait_for_selector("#tray .escoba-form")
    broken = anna.evaluate("""() => [...document.querySelectorAll('#tray .stepper-row > label')]
        .filter((label) => { const range = document.createRange(); range.selectNodeContents(label.firstChild);
                             return range.getClientRects().length > 1; })
        .map((label) => label.textContent.trim())""")
    assert broken == []


@pytest.mark.parametrize("zoom", [1.5, 2.0])
def test_escoba_s_steppers_stand_inside_their_piles_on_a_zoomed_page(server, new_phone, zoom):
    """At 200 % a stepper (−, the count, +) was 173 px wide in a pile of 142: its "+" stood 12 px
    past the screen's edge. Every step and count inside its pile, the count readable."""
    anna = seated(new_phone, server, "escoba", ("Anna", "Ben"), **zoomed(zoom))
    anna.wait_for_selector("[data-open-round]")
    anna.click("[data-open-round]")
    anna.wait_for_selector("#tray .escoba-form")
    anna.fill("#esc-c0", "40")
    outside = anna.evaluate("""() => [...document.querySelectorAll('#tray fieldset .stepper')].flatMap((stepper) => {
        const pile = stepper.closest('fieldset').getBoundingClientRect();
        return [...stepper.children].map((part) => part.getBoundingClientRect())
            .filter((box) => box.left < pile.left || box.right > pile.right - 1)
            .map((box) => [Math.round(box.left), Math.round(box.right), Math.round(pile.left), Math.round(pile.right)]); })""")
    assert outside == []
    assert inside_the_screen(anna, "#tray .stepper .step, #tray .stepper input") == []
    assert anna.eval_on_selector("#esc-c0", "input => input.scrollWidth <= input.clientWidth")
    assert anna.evaluate("document.documentElement.scrollWidth") <= anna.viewport_size["width"]


# --- screen readers -----------------------------------------------------------------------------


def test_a_screen_reader_hears_each_entry_and_whose_turn_not_the_board(server, new_phone):
    """Nothing told a phone that another had written, nor that it was its turn now. A live region
    out of the board says it in one sentence (a writer's own answer leaves it out: its focus,
    back on the tray, says whose turn it is; test_web_board.py); a whole board (the
    game's first entry: the host's seat list folds) leaves the region, and what it said, be. A
    phone whose focus is on its tray hears whose turn it is from the new tray the focus goes to,
    and #said does not say it again."""
    link = open_table(new_phone(), server, "escalero", ("Anna", "Ben"))
    anna, ben = new_phone(), new_phone()
    for page, name in ((anna, "Anna"), (ben, "Ben")):
        page.goto(link)
        sit(page, name)
    anna.wait_for_selector("#tray .faces")
    anna.evaluate("document.querySelector('#said').dataset.kept = 'yes'")
    ben.evaluate("document.activeElement.blur()")  # (a phone read by touch: its focus on no tray)
    tap_dice(anna, "44422")
    anna.click("#tray button.option >> nth=0")
    said = ben.locator("#said[role=status]")
    expect(said).to_have_text("Anna: F in column 1: 30 (4-4-4-2-2). Your turn! · 1 of 60 cells")
    # nor does the live stream's message of it, come to the writer before its answer: it read
    # "Anna: F in column 1 … Ben's turn" back to Anna, and her focus said "Ben's turn" again
    expect(anna.locator("#stamp")).to_have_attribute("data-entries", "1")
    assert anna.inner_text("#said") == ""
    ben.wait_for_selector("#tray .faces")
    tap_dice(ben, "66655")
    ben.click("#tray button.option >> nth=0")
    # Anna's focus, on her tray since her entry, goes to the tray Ben's entry brings, which
    # says whose turn it is: #said says Ben's entry alone (it said "Your turn!" twice)
    expect(anna.locator("#said")).to_have_text("Ben: F in column 1: 30 (6-6-6-5-5).")
    expect(anna.locator("#tray")).to_be_focused()
    expect(anna.locator("#tray")).to_have_accessible_name("Your turn! · 2 of 60 cells")
    expect(ben.locator("#stamp")).to_have_attribute("data-entries", "2")
    assert ben.inner_text("#said") == "Anna: F in column 1: 30 (4-4-4-2-2). Your turn! · 1 of 60 cells"
    assert anna.evaluate("document.querySelector('#said').dataset.kept") == "yes"  # the same region, its words new
    # the board itself is no live region: a screen reader does not read it out at every entry
    assert anna.evaluate("document.querySelector('#board').closest('[aria-live], [role=status], [role=log]')") is None


def test_a_keyboard_s_first_tab_skips_the_board_to_the_tray(server, new_phone):
    """A keyboard's Tab went through each of the card's open cells before the tray (30 on the
    first game's pad of three columns). Its first Tab now offers the way past them, shown while
    focused; the next Tab is in the tray. A phone that only looks at the table has no tray and no
    such stop."""
    game = next(iter(GAMES))
    link = open_table(new_phone(), server, game, SUPPORT[game].PLAYERS)
    anna = new_phone()
    anna.goto(link)
    sit(anna, SUPPORT[game].PLAYERS[0])
    anna.wait_for_selector("form#tray:not([hidden]) button")
    skip = anna.locator("a.skip")
    assert skip.bounding_box()["y"] + skip.bounding_box()["height"] <= 0  # out of sight
    skip.focus()  # there once seated, without a reload (the header is not the board)
    expect(skip).to_be_focused()
    anna.reload()
    anna.wait_for_selector("form#tray:not([hidden]) button")
    tabs_to_tray = anna.evaluate("""() => [...document.querySelectorAll('a[href], button, input:not([type=hidden]), summary')]
        .filter((e) => e.offsetParent && !e.disabled).findIndex((e) => e.closest('#tray'))""")
    assert tabs_to_tray > 10, tabs_to_tray  # what the link saves
    anna.keyboard.press("Tab")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to entering results")
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"]  # in sight once focused
    anna.keyboard.press("Enter")
    anna.keyboard.press("Tab")
    assert anna.evaluate("() => Boolean(document.activeElement?.closest('#tray'))")
    looker = new_phone()  # not seated: nothing to enter, no way to it
    looker.goto(link)
    looker.wait_for_selector("#join")
    looker.keyboard.press("Tab")
    assert looker.evaluate("() => !document.activeElement?.matches('a.skip')")


def test_the_focus_stays_in_the_tray_after_an_entry(server, new_phone):
    """The option tapped goes with the tray it was in: the focus fell to <body>, and a screen
    reader started again at the top of the page. It lands on the tray, named by its turn line."""
    link = open_table(new_phone(), server, "escalero", ("Anna", "Ben"))
    anna = new_phone()
    anna.goto(link)
    sit(anna, "Anna")
    anna.wait_for_selector("#tray .faces")
    # a cell's values opened by Enter close on Escape, and the focus goes back to the cell, still a
    # Tab stop (Escape did nothing; the focus, by Cancel, fell to the tray)
    cell = anna.locator("#board button.cell[data-column='1'][data-row='P']")
    cell.focus()
    anna.keyboard.press("Enter")
    anna.wait_for_function("() => document.activeElement?.matches('#tray dialog.picker[open]')", timeout=3000)
    anna.keyboard.press("Escape")
    anna.wait_for_selector("#tray .picker", state="detached")
    expect(cell).to_be_focused()
    assert cell.get_attribute("tabindex") is None
    tap_dice(anna, "44422")
    anna.focus("#tray button.option >> nth=0")
    anna.keyboard.press("Enter")  # as a screen reader or a keyboard enters it
    anna.wait_for_selector("#board td .written, #board td .v")
    anna.wait_for_function("() => document.activeElement?.id === 'tray'", timeout=3000)
    expect(anna.locator("#tray")).to_have_accessible_name("Ben's turn · 1 of 60 cells")


def test_the_network_badge_says_live_once(server, new_phone):
    """#net is a live region: its words, set anew after every request, had a screen reader say
    "Live" at every die tapped."""
    anna = seated(new_phone, server, "escalero", ("Anna", "Ben"))
    anna.wait_for_selector("#net[data-state=live]")
    anna.evaluate("""window.__told = 0; new MutationObserver((records) => { window.__told += records.length; })
        .observe(document.querySelector('#net'), {childList: true, characterData: true, subtree: true})""")
    tap_dice(anna, "44422")
    anna.wait_for_selector("#tray .tray-options button.option")
    anna.wait_for_timeout(300)
    assert anna.evaluate("window.__told") == 0
    assert anna.inner_text("#net") == "Live"


def test_a_cross_out_is_named_by_what_it_does(server, new_phone):
    """The tray's cross-outs were named "✕ col 1 · 1", a sign a screen reader says as
    "multiplication x": their name says what the tap does, in the phone's language. A table of
    each game, looked at in English and in German."""
    anna = cleo = None
    for locale, escalero, yatzy in [("en-GB", "Cross out col 1 · 1", "Scratch Ones"),
                                    ("de-DE", "Kol. 1 · 1 streichen", "Einser streichen")]:
        with looking_at(locale):
            anna = (again(new_phone, anna, locale=locale) if anna
                    else seated(new_phone, server, "escalero", ("Anna", "Ben"), locale=locale))
            anna.wait_for_selector("#tray .faces")
            tap_dice(anna, "44422")
            expect(anna.locator("#tray details.option summary").first).to_have_accessible_name(escalero)
            cleo = (again(new_phone, cleo, locale=locale) if cleo
                    else seated(new_phone, server, "yatzy", ("Cleo", "Dan"), name="Cleo", locale=locale,
                                host_rules={"form": "scandinavian"}))
            cleo.wait_for_selector("#tray .faces")
            tap_dice(cleo, "66655")
            expect(cleo.locator("#tray details.option summary[data-box='1']")).to_have_accessible_name(yatzy)


# --- contrast -----------------------------------------------------------------------------------


def themed(page, theme: str):
    """The page in `theme`, as the header's theme button sets it."""
    page.wait_for_selector("#tray")
    if page.evaluate(SCHEME) != theme:
        page.click("[data-theme-toggle]")
    return page


SCHEME = "getComputedStyle(document.documentElement).colorScheme"
PAGE = {"dark": "rgb(20, 22, 26)", "light": "rgb(245, 245, 242)"}  # static/app.css --bg


# WCAG AA on the board and the tray of a turn, in the dark theme and the light one: the light
# theme's accent carried white words at 3.8:1 (lit cells, every primary button, "Confirm"), its
# turn line's small print 2.8:1; the dark theme's red carried white at 2.8:1 (a cross-out's
# confirm, a refusal); a Yatzy scratch was faded under 4.5:1 in both, and Euchre's tapped
# tricks kept their grey words on the lit accent (1.5:1)

def test_escalero_s_turn_reads_in_both_themes(server, new_phone):
    # the theme is the phone's own until ◐ chooses: a phone set to light opened dark all the same.
    # One table, looked at from a phone set to dark and from one set to light
    first = None
    for theme in ("dark", "light"):
        with looking_at(f"the {theme} theme"):
            anna = first = (again(new_phone, first, color_scheme=theme) if first
                            else seated(new_phone, server, "escalero", ("Anna", "Ben"), color_scheme=theme))
            assert anna.evaluate("getComputedStyle(document.body).backgroundColor") == PAGE[theme]
            tap_dice(anna, "44422")
            anna.wait_for_selector("#board button.cell[data-lit]")
            anna.click("#tray details.option summary")  # a cross-out opened: its confirm in the danger colour
            assert anna.evaluate(LOW_CONTRAST, "main") == []
            # ◐'s first tap shows the other theme (on a phone set to light it once chose light again), the
            # second this one; the choice is the page's own from then on
            for shown in [{"dark": "light", "light": "dark"}[theme], theme]:
                anna.click("[data-theme-toggle]")
                assert anna.evaluate("getComputedStyle(document.body).backgroundColor") == PAGE[shown]
                assert anna.evaluate("[document.documentElement.dataset.theme, localStorage['scorekeeper.theme']]") == [shown] * 2


def test_yatzy_s_turn_reads_in_both_themes(server, new_phone):
    # a dark phone's page, then the same page after ◐ (as a phone set to dark shows light)
    cleo = seated(new_phone, server, "yatzy", ("Cleo", "Dan"), name="Cleo", host_rules={"form": "scandinavian"})
    for theme in ("dark", "light"):
        with looking_at(f"the {theme} theme"):
            themed(cleo, theme)
            if theme == "dark":
                tap_dice(cleo, "66655")
            cleo.wait_for_selector("#tray details.option")
            assert cleo.evaluate(SCHEME) == theme
            assert cleo.evaluate(LOW_CONTRAST, "main") == []


def test_euchre_s_hand_reads_in_both_themes(server, new_phone):
    eve = seated(new_phone, server, "euchre", ("Eve", "Finn", "Gus", "Hal"), name="Eve")
    for theme in ("dark", "light"):
        with looking_at(f"the {theme} theme"):
            themed(eve, theme)
            if theme == "dark":
                eve.click("#board .maker[value='Eve']")
                eve.click("#board [data-tricks='5']")
            eve.wait_for_selector("#board [data-confirm]:not(:disabled)")
            assert eve.evaluate(SCHEME) == theme
            assert eve.evaluate(LOW_CONTRAST, "main") == []


# --- tap targets --------------------------------------------------------------------------------


SMALL_TAPS = """() => [...document.querySelectorAll('main :is(button, a, summary, select, input:not([type=hidden]), label.button)')]
    .filter((el) => el.getClientRects().length && !el.closest('.toggle, [hidden]'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([el, box]) => box.width < 43.5 || box.height < 43.5)
    .map(([el, box]) => `${el.tagName.toLowerCase()}.${el.className} ${box.width.toFixed(1)}×${box.height.toFixed(1)}`)"""


def test_every_tap_of_escalero_s_turn_is_a_thumb_wide(server, new_phone):
    """44×44 CSS pixels at least, for every control of a turn: at a table of three this phone's
    cells were 34 px wide on a 360 px phone (30 on a 320×568 one), the nine columns shared alike.
    A table of two at 360 px; a table of three at 360 px, its page then on a 320×568 screen."""
    for players, viewports in [(("Anna", "Ben"), [PHONE["viewport"]]),
                               (("Anna", "Ben", "Cleo"), [PHONE["viewport"], {"width": 320, "height": 568}])]:
        anna = seated(new_phone, server, "escalero", players, viewport=viewports[0])
        anna.wait_for_selector("#tray .faces")
        tap_dice(anna, "44422")
        anna.wait_for_selector("#board button.cell[data-lit]")
        for viewport in viewports:
            with looking_at(f"{len(players)} players at {viewport['width']}×{viewport['height']}"):
                anna.set_viewport_size(viewport)
                assert anna.evaluate(SMALL_TAPS) == []


def test_a_one_column_pad_of_three_keeps_this_phone_s_column_as_wide_as_the_others(server, new_phone):
    """The thumb-wide column of a pad of three columns a side was given to a pad of one too: this
    phone's column shrank to 45 px beside two of 135, its name "A…", its money broken after
    its minus ("-38 -" over "€ 19,00")."""
    anna = seated(new_phone, server, "escalero", ("Anna", "Bartłomiej", "Carmen"), host_rules={"columns": "1"},
                  locale="de-AT", extra_http_headers={"Accept-Language": "de-AT"})
    widths = anna.eval_on_selector_all("#board .pad thead th.side", "ths => ths.map(th => th.getBoundingClientRect().width)")
    assert max(widths) - min(widths) < 2, widths
    assert anna.eval_on_selector("#board .pad th.side.mine", "th => th.scrollWidth <= th.clientWidth")


def test_every_tap_of_yatzy_s_turn_is_a_thumb_wide(server, new_phone):
    """Yatzy's boxes were 40 px high."""
    anna = seated(new_phone, server, "yatzy", ("Anna", "Ben"), host_rules={"form": "scandinavian"})
    anna.wait_for_selector("#tray .faces")
    tap_dice(anna, "66655")
    anna.wait_for_selector("#board button.cell[data-lit]")
    assert anna.evaluate(SMALL_TAPS) == []
