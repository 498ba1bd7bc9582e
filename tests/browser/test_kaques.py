"""Jaques le Kaques in real phones: a turn entered throw by throw, seen live on another phone."""

from __future__ import annotations

import os

from playwright.sync_api import expect

from .conftest import enter_for_all, open_table, seat

SHOTS = os.environ.get("SCOREKEEPER_SHOTS")  # a folder: save screenshots of each step there


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"kaques-{name}.png"))


def tap_faces(page, faces):
    for face in faces:
        page.locator(f'#tray .dice-pad [data-face="{face}"]').click()


def kept(page):
    return page.locator("#tray [data-kq-pad] input[name=keep]:checked")


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_turn_entered_throw_by_throw_from_a_phone(server, new_phone):
    anna = new_phone()
    anna.goto(server.url + "/new/kaques")
    for i, name in enumerate(["Anna", "Ben", "Cleo"]):
        anna.locator("input[name=player]").nth(i).fill(name)
    anna.get_by_role("button", name="Open the table").click()
    anna.get_by_role("button", name="Anna").click()
    ben = new_phone()
    ben.goto(anna.url)
    ben.get_by_role("button", name="Ben").click()
    expect(ben.locator(".kq-now .turn")).to_contain_text("Anna's turn")
    # the pad folds under the tray's total entry, its fold marked as one that opens (it read as a
    # heading of nothing, and a first-time player never tapped it)
    fold = anna.locator(".kq-by-throw summary")
    assert "▸" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    fold.click()
    assert "▾" in fold.evaluate("summary => getComputedStyle(summary, '::before').content")
    pad = anna.locator("[data-kq-pad]")
    expect(pad).to_be_visible()
    expect(ben.locator("[data-kq-pad]")).to_have_count(0)

    # throw 1: six faces tapped (each shows at once), then the keep: every scoring die is kept first
    tap_faces(anna, [1, 5, 2, 3, 4])
    expect(anna.locator("#tray .thrown [data-take]")).to_have_count(5)
    tap_faces(anna, [6])
    dice = anna.locator("#tray [data-kq-pad] input[name=keep]")
    expect(dice).to_have_count(6)
    for i, enabled in enumerate([True, False, False, False, True, False]):  # 1 2 3 4 5 6
        (expect(dice.nth(i)).to_be_enabled if enabled else expect(dice.nth(i)).to_be_disabled)()
    expect(kept(anna)).to_have_count(2)
    expect(anna.locator("[data-kq-worth]")).to_contain_text("Keep +150 · turn 150")
    expect(anna.locator("[data-kq-risk]")).to_contain_text("Throwing 4 dice: 15.7% chance of Le Kaque! (17/108) · 150 at stake")
    expect(anna.locator("[data-kq-stop]")).to_have_text("fertisch! · 150")
    no_sideways_scroll(anna)
    shot(anna, "keep")
    # Enter on a die to keep presses the form's first submit button: it asks for the tray again,
    # not the total's fertisch! (which ended the turn, or was refused in words)
    dice.first.focus()
    with anna.expect_response(lambda r: "/tray" in r.url or "/kaques/turn" in r.url) as pressed:
        anna.keyboard.press("Enter")
    assert "/tray" in pressed.value.url and pressed.value.request.method == "GET"
    expect(kept(anna)).to_have_count(2)
    # the Wi-Fi drops as she throws again: the throw is kept and sent once it is back, with both
    # dice she kept (it was sent again with the last one alone: "Turn so far 50")
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    anna.locator("[data-kq-again]").click()
    anna.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length === 1")
    # while it waits, the turn's other writes wait with it, dimmed: throw again itself looked
    # untaken, and every Undo of the board took a tap (kept, refused once the network was back)
    assert anna.locator("[data-kq-again]").evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    anna.context.set_offline(False)
    anna.evaluate("window.dispatchEvent(new Event('online'))")

    # every phone sees the throw and the odds of the next one
    expect(ben.locator(".kq-total")).to_contain_text("Turn so far 150")
    expect(ben.locator("[data-kq-board-risk]")).to_contain_text("Next throw: 4 dice")

    # throw 2: a tap on a 2 lets go of all three, another keeps the three again; the 3 cannot be kept
    tap_faces(anna, [2, 3, 2, 2])
    expect(dice).to_have_count(4)
    expect(dice.nth(3)).to_be_disabled()  # the 3
    expect(kept(anna)).to_have_count(3)
    anna.locator("#tray .kq-thrown-die").nth(1).click()
    expect(kept(anna)).to_have_count(0)
    anna.locator("#tray .kq-thrown-die").nth(1).click()
    expect(kept(anna)).to_have_count(3)
    expect(anna.locator("[data-kq-worth]")).to_contain_text("Keep +200 · turn 350")
    expect(anna.locator("[data-kq-worth] .kq-chip")).to_contain_text("Grandmère")
    expect(anna.locator("[data-kq-risk]")).to_contain_text("66.7%")
    anna.locator("[data-kq-again]").click()
    expect(ben.locator(".kq-banner")).to_contain_text("Grandmère")
    shot(ben, "grandmere-on-another-phone")

    # undo that throw: the phone is back at choosing the keep of 2-2-2-3
    expect(anna.locator("[data-kq-undo]")).to_be_visible()
    anna.locator("[data-kq-undo]").click()
    expect(ben.locator(".kq-total")).to_contain_text("Turn so far 150")
    expect(kept(anna)).to_have_count(3)
    anna.locator("[data-kq-stop]").click()
    expect(ben.locator(".kq-banner")).to_contain_text("fertisch!")
    expect(ben.locator(".kq-now .turn")).to_contain_text("Your turn!")

    # the banked turn comes back without its last throw, the phone at that throw's keep
    # (not while a write of this phone waits to be sent: then it takes no tap, as the tray's Undo)
    reopen = anna.locator(".kq-last").get_by_role("button", name="Undo last throw")
    assert reopen.evaluate("""b => { document.body.toggleAttribute('data-kept', true);
        const waits = getComputedStyle(b).pointerEvents; document.body.toggleAttribute('data-kept', false); return waits }""") == "none"
    reopen.click()
    expect(ben.locator(".kq-total")).to_contain_text("Turn so far 150")
    expect(kept(anna)).to_have_count(3)
    expect(anna.locator("[data-kq-stop]")).to_have_text("fertisch! · 350")
    anna.locator("[data-kq-stop]").click()
    expect(ben.locator(".kq-ranks li").first).to_contain_text("350")
    expect(ben.locator(".kq-now .turn")).to_contain_text("Your turn!")
    expect(ben.locator(".kq-chart .kq-line")).to_have_count(3)

    # Ben throws nothing that scores: the pad says Le Kaque!, one tap enters it on every phone
    ben.locator(".kq-by-throw summary").click()
    tap_faces(ben, [2, 3, 4, 6, 6, 2])
    ben.locator("[data-kq-stop]").click()
    expect(anna.locator(".kq-banner")).to_contain_text("Le Kaque!")
    expect(anna.locator(".kq-now .turn")).to_contain_text("Cleo's turn")
    shot(anna, "kaque-on-another-phone")

    # ... but it was a slip: he takes the throw back and enters his total instead
    ben.get_by_role("button", name="Undo last throw").click()
    expect(ben.locator(".kq-now .turn")).to_contain_text("Your turn!")
    ben.locator("[data-kq-total] input[name=points]").fill("450")  # the tray's total entry
    no_sideways_scroll(ben)
    shot(ben, "quick-total")
    ben.locator("[data-kq-total] button.primary").click()
    expect(anna.locator(".kq-ranks li").first).to_contain_text("Ben")
    expect(anna.locator(".kq-ranks li").first).to_contain_text("450")
    expect(anna.locator(".kq-now .turn")).to_contain_text("Cleo's turn")
    expect(anna.locator("#message")).to_be_empty()
    undo = ben.locator(".kq-last").get_by_role("button", name="Undo", exact=True)  # a total's Undo, on the board
    assert undo.evaluate("""b => { document.body.toggleAttribute('data-kept', true);
        const waits = getComputedStyle(b).pointerEvents; document.body.toggleAttribute('data-kept', false); return waits }""") == "none"
    no_sideways_scroll(anna)
    shot(anna, "board")


SMALL = {"viewport": {"width": 320, "height": 568}}
GERMAN = {"locale": "de-DE", "extra_http_headers": {"Accept-Language": "de-DE"}}


def test_the_end_of_a_five_player_race_fits_a_narrow_phone(server, new_phone):
    """Five players at 320 px: the end's table of calls ran 370 px wide, its Grandmère and 👀
    columns past the screen's edge (the page scrolled sideways, at 360 px too); each player is a
    line of its own now, the calls its chips, all in view."""
    names = ("Maximiliane", "Bartholomäus", "Friederike", "Konstantin", "Jo")
    host = new_phone(**SMALL, **GERMAN)
    link = open_table(host, server, "kaques", names, target=1500)
    grand = [{"dice": [1, 1, 1, 5, 5, 5], "keep": [1, 1, 1, 5, 5, 5]}, {"dice": [2, 3, 4, 6, 6, 2], "keep": []}]
    events = [{"type": "turn", "player": name, "throws": grand} if name == "Maximiliane" else
              {"type": "turn", "player": name, "points": 1500 if name == "Jo" and turn == 1 else 350}
              for turn in range(2) for name in names]
    enter_for_all(host, link.rsplit("/", 1)[1], events)
    host.reload()
    expect(host.locator("#board .settle")).to_contain_text("Jo gewinnt!")
    # the winner's call flashes over the screen: on the phone's large text (160 %), and zoomed to
    # 200 % (180 CSS px), "fertisch!" broke inside its word ("fertis / ch!"): one line
    for size, width in (("160%", 320), ("100%", 180)):
        host.evaluate(f"document.documentElement.style.fontSize = '{size}'")
        host.set_viewport_size({"width": width, "height": 568})
        lines = host.locator("#board .kq-banner-call").first.evaluate("""call => { const words = document.createRange();
            words.selectNodeContents(call); return new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size }""")
        assert lines == 1, size
    host.set_viewport_size(SMALL["viewport"])
    assert host.evaluate("document.documentElement.scrollWidth") <= 320
    lines = host.locator("#board .settle .kq-final li")
    expect(lines).to_have_count(5)
    for chip in host.locator("#board .settle .kq-final li span").all():
        box = chip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 320, (chip.inner_text(), box)
    expect(lines.nth(4)).to_contain_text("Maximiliane")  # last, two Grand Kaques past Grandmère
    for chip in ("2× Kaque (davon 2 Grand)", "2× Oh, Lálá!", "2× Grandmère", "👀 2"):
        expect(lines.nth(4)).to_contain_text(chip)

    # the big screen's settlement stands in three columns: a line was as wide as the widest chip
    # of all ("2× Kaque (davon 2 Grand)" in TV type), past its column, over the next one's lines
    tv = new_phone(viewport={"width": 1280, "height": 720}, is_mobile=False, has_touch=False, **GERMAN)
    tv.goto(server.url + host.get_attribute("a[href*='/tv?screen=']", "href"))
    expect(tv.locator("#board .settle .kq-final li")).to_have_count(5)
    column, boxes = tv.evaluate("""() => {
        const settle = document.querySelector('#board .settle'), style = getComputedStyle(settle);
        const gap = parseFloat(style.columnGap), count = parseInt(style.columnCount);
        const inner = settle.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [(inner - gap * (count - 1)) / count, [...settle.querySelectorAll('.kq-final li')].map(li => {
            const line = li.getBoundingClientRect();
            return [line.width, Math.max(...[...li.querySelectorAll('span')].map(s => s.getBoundingClientRect().right)) - line.right];
        })];
    }""")
    for width, past in boxes:
        assert width <= column + 0.5 and past <= 0.5, (column, boxes)


def test_a_throw_s_choices_stand_in_view_on_a_small_phone(server, new_phone):
    """320×568: with the pad open under the turn's total, throw again and fertisch! lay below the
    tray's fold, a scroll inside the tray at every throw; on a short screen the total folds away
    while the pad is open (its own fertisch! ends the turn) and the six dice take one row."""
    link = open_table(new_phone(), server, "kaques", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), ready=".kq-now", **SMALL, **GERMAN)["Anna"]
    anna.locator(".kq-by-throw summary").tap()
    tap_faces(anna, [1, 5, 2, 2, 2, 6])
    expect(anna.locator("[data-kq-worth]")).to_contain_text("Rausgelegt +350")
    dice = [die.bounding_box() for die in anna.locator("#tray .kq-thrown-die").all()]
    assert len({round(box["y"]) for box in dice}) == 1, dice  # one row
    for button in ("[data-kq-again]", "[data-kq-stop]"):
        box = anna.locator(button).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 568, (button, box)
    assert anna.evaluate("document.querySelector('#tray').scrollTop") == 0
    expect(anna.locator("[data-kq-total]")).to_be_hidden()
    anna.locator(".kq-by-throw summary").tap()  # folded again, the pad gives the total back
    expect(anna.locator("[data-kq-total]")).to_be_visible()
