"""A phone turned sideways (740×360): the tray stands beside the board, under the header and
as tall as the rest of the screen. Under the board it covered nearly all of it: Escalero's
options were cut off at the screen's foot, and on the host's phone Euchre's tray lay over the
names to sit down by, which took no tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, again, enter_for_all, looking_at, open_table, seat
from .test_turn import throw

SIDEWAYS = {"viewport": {"width": 740, "height": 360}}
GERMAN = {"locale": "de-AT", "extra_http_headers": {"Accept-Language": "de-AT"}}


def beside_the_board(page) -> dict:
    """The tray's box, asserted to stand right of the board's game and inside the screen."""
    tray, game = page.locator("#tray").bounding_box(), page.locator("#game").bounding_box()
    header = page.locator("header").bounding_box()
    assert game["x"] + game["width"] <= tray["x"], (game, tray)
    height = page.viewport_size["height"]
    assert tray["y"] >= header["y"] + header["height"] and tray["y"] + tray["height"] <= height, (header, tray)
    invite = page.locator("#invite").bounding_box()  # under the board, as upright: not a third column
    assert invite["y"] >= game["y"] + game["height"], (invite, game)
    return tray


def test_the_host_turned_sideways_sits_down_with_the_tray_beside_the_names(server, new_phone):
    host = new_phone(**SIDEWAYS, **GERMAN)
    open_table(host, server, "euchre", ("Anna", "Ben", "Cleo", "Dora"))
    host.locator("#join button:has-text('Anna')").tap(timeout=3000)  # the tray took this tap
    expect(host.locator("#join")).to_have_count(0)
    beside_the_board(host)
    # who named trump, "All passed" too, without a scroll inside the tray
    assert host.evaluate("(t => t.scrollHeight <= t.clientHeight)(document.querySelector('#tray'))")


def test_escalero_turned_sideways_shows_the_whole_turn_beside_the_pad(server, new_phone):
    """Five dice tapped: the faces, the dice, "served" and a row of options all in view at
    once, the page not scrolled; the pad beside it. Once scrolled down the pad, the tray stays.
    From 900 px wide the invitation took a third column and squeezed the board to a strip.
    One table: Anna's turn on a 740×360 phone, the host writes Ben's, Cleo's and Dora's, her
    next on an 844×390 one, and so on."""
    host = new_phone()
    link = open_table(host, server, "escalero", ("Anna", "Ben", "Cleo", "Dora"))
    first = None
    for turn, viewport in enumerate([SIDEWAYS["viewport"], {"width": 844, "height": 390}, {"width": 915, "height": 412}]):
        with looking_at(f"{viewport['width']}×{viewport['height']}"):
            if first is None:
                anna = first = seat(new_phone, link, ("Anna",), viewport=viewport, **GERMAN)["Anna"]
            else:
                enter_for_all(host, link.rsplit("/", 1)[-1], [
                    {"type": "score", "player": name, "column": 1, "row": str(turn), "value": 0} for name in ("Ben", "Cleo", "Dora")])
                anna = again(new_phone, first, ready=".turn", viewport=viewport, **GERMAN)
            throw(anna, [5, 5, 5, 2, 2])
            tray = beside_the_board(anna)
            for control in anna.locator("#tray [data-face], #tray .served, #tray .option").all()[:8]:
                box = control.bounding_box()
                assert box["y"] >= tray["y"] and box["y"] + box["height"] <= tray["y"] + tray["height"], box
            assert anna.evaluate("window.scrollY") == 0 and anna.evaluate("document.querySelector('#tray').scrollTop") == 0
            anna.mouse.wheel(0, 200)  # down the pad
            anna.wait_for_function("() => scrollY > 100")
            stuck, header = anna.locator("#tray").bounding_box()["y"], anna.locator("header").bounding_box()
            assert abs(stuck - (header["y"] + header["height"])) <= 1, (stuck, header)  # under the header
            anna.locator("#tray .option").first.tap()
            expect(anna.locator("#stamp")).to_have_attribute("data-entries", str(4 * turn + 1))


def test_a_phone_held_upright_keeps_the_tray_under_the_board(server, new_phone):
    link = open_table(new_phone(), server, "escalero", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), **GERMAN)["Anna"]
    tray, game = anna.locator("#tray").bounding_box(), anna.locator("#game").bounding_box()
    assert tray["x"] <= 0 and tray["width"] >= PHONE["viewport"]["width"] and tray["y"] > game["y"]


def test_escoba_s_round_form_turned_sideways_has_its_check_beside_the_piles(server, new_phone):
    """The round form's check and confirm stood under the piles, taking two thirds of the 360 px
    high screen, the piles scrolling in the rest; now they stand beside them, in view."""
    link = open_table(new_phone(), server, "escoba", ("Anna", "Ben"))
    ben = seat(new_phone, link, ("Ben",), ready="[data-open-round]", **SIDEWAYS, **GERMAN)["Ben"]
    ben.locator("[data-open-round]").tap()
    form = ben.locator("#tray .escoba-form")
    form.locator("input[name=c0]").fill("24")
    form.locator("label.chip").first.tap()
    confirm = form.locator("[data-round-confirm]")
    expect(confirm).to_be_enabled()
    pile, check = form.locator("fieldset.pile").first.bounding_box(), confirm.bounding_box()
    assert check["x"] >= pile["x"] + pile["width"] and check["y"] + check["height"] <= 360, (pile, check)
    assert ben.evaluate("document.documentElement.scrollWidth") <= 740
    confirm.tap()
    expect(form).to_have_count(0)


def test_kaques_throw_by_throw_turned_sideways_keeps_the_throw_s_actions_in_view(server, new_phone):
    """Throw by throw, the tray beside the board held the turn's total above the pad, and the
    throw's "throw again" and "fertisch!" were under the screen's foot, a scroll inside the tray
    every throw. With the pad open the total in one go folds away."""
    link = open_table(new_phone(), server, "kaques", ("Anna", "Ben", "Cleo"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray", **SIDEWAYS, **GERMAN)["Anna"]
    anna.locator(".kq-by-throw summary").tap()
    for face in (1, 5, 2, 3, 4, 6):
        anna.locator(f'#tray .dice-pad [data-face="{face}"]').tap()
    stop = anna.locator("[data-kq-stop]")
    expect(stop).to_have_text("fertisch! · 150")
    tray = beside_the_board(anna)
    for action in (anna.locator("[data-kq-again]"), stop):
        box = action.bounding_box()
        assert box["y"] + box["height"] <= tray["y"] + tray["height"], (box, tray)
    expect(anna.locator("[data-kq-total]")).to_be_hidden()
    anna.locator(".kq-by-throw summary").tap()  # folded again: the total in one go is back
    expect(anna.locator("[data-kq-total]")).to_be_visible()


def test_offline_the_header_keeps_the_table_s_code_beside_the_sentence(server, new_phone):
    """Sideways the header is one row: the offline sentence took all of it, and the table's code
    read "Z…"; now the sentence is cut, the code and the language button stay."""
    anna = seat(new_phone, open_table(new_phone(), server, "escalero", ("Anna", "Ben")), ("Anna",),
                **SIDEWAYS, **GERMAN)["Anna"]
    code = anna.locator(".where b").first.inner_text()
    anna.context.set_offline(True)
    anna.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(anna.locator("#net")).to_have_attribute("data-state", "offline")
    where, badge, language = (anna.locator(s).bounding_box() for s in (".top .where", "#net", ".lang summary"))
    assert where["width"] >= anna.locator(".where b").first.bounding_box()["width"], (code, where)
    assert badge["y"] < where["y"] + where["height"] and badge["x"] + badge["width"] <= language["x"], (badge, language)
    anna.context.set_offline(False)


@pytest.mark.parametrize("locale", ["de-AT", "en-GB"])
def test_kaques_turned_sideways_shows_the_throw_s_choices_and_its_risk_whole(server, new_phone, locale):
    """Sideways the throw's "throw again" and "fertisch!" were cut at the tray's foot (by 4 px,
    and more once the keep made Grandmère) and the chance of Le Kaque stood under it: a scroll
    inside the tray at every throw. From the fold of the pad to that chance all stand in view,
    the first throw and the second (its keep a Grandmère, "undo" under it)."""
    language = {"locale": locale, "extra_http_headers": {"Accept-Language": locale}}
    link = open_table(new_phone(), server, "kaques", ("Anna", "Ben", "Cleo"))
    anna = seat(new_phone, link, ("Anna",), ready="#tray", **SIDEWAYS, **language)["Anna"]
    anna.locator(".kq-by-throw summary").tap()
    for number, faces in enumerate(((1, 5, 2, 3, 4, 6), (2, 3, 2, 2)), 1):
        for face in faces:
            anna.locator(f'#tray .dice-pad [data-face="{face}"]').tap()
        expect(anna.locator("[data-kq-risk]")).to_be_visible()
        if number == 2:
            expect(anna.locator("[data-kq-worth] .kq-chip")).to_be_visible()
        tray = beside_the_board(anna)
        inside = {"top": tray["y"] + 1, "bottom": tray["y"] + tray["height"] - 1}  # in its border
        for part in (".kq-by-throw summary", "[data-kq-worth]", "[data-kq-again]", "[data-kq-stop]", "[data-kq-risk]"):
            box = anna.locator(part).bounding_box()
            assert box["y"] >= inside["top"] - 0.5 and box["y"] + box["height"] <= inside["bottom"] + 0.5, (number, part, box, tray)
        if number == 1:
            anna.locator("[data-kq-again]").tap()
