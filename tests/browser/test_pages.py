"""The pages around a game on a 360x740 phone, in each language: what a thumb taps is a thumb wide."""

from __future__ import annotations

import pytest

LANGS = ["en-GB", "de-AT", "pl-PL", "es-ES"]


def test_each_game_s_rules_link_on_the_start_page_is_a_thumb_s_size(server, new_phone):
    """The start page's "rules" beside each game's button was a link of its word, 24 px high
    and 42 px wide ("rules", "reglas"), 12 px from the button that opens a table: a thumb
    meant for the rules opened a table. Each link is 44 px or more each way now, in each
    language."""
    from .conftest import looking_at

    for locale in LANGS:
        with looking_at(locale):
            page = new_phone(locale=locale, extra_http_headers={"Accept-Language": locale})
            page.goto(server.url + "/")
            links = page.locator(".games .rules-link")
            assert links.count() >= 2
            for link in links.all():
                box = link.bounding_box()
                assert box["height"] >= 44 and box["width"] >= 44, (link.inner_text(), box)
                assert box["x"] + box["width"] <= 360


@pytest.mark.parametrize("locale", LANGS)
def test_the_end_s_download_of_the_game_s_log_is_a_thumb_s_size(server, new_phone, locale):
    """At the end of a game, "Download this game's log" ("Descargar el registro de esta
    partida") was a line of underlined text 24 px high under Rematch; it is a button 44 px
    high now, as the history page's download is, inside the screen."""
    from .conftest import enter_for_all, open_table

    page = new_phone(locale=locale, extra_http_headers={"Accept-Language": locale})
    link = open_table(page, server, "kaques", ("Anna", "Ben"), target=50)
    enter_for_all(page, link.rsplit("/", 1)[1], [{"type": "turn", "player": "Anna", "points": 50}])
    page.reload()
    download = page.locator("#board .settle a[download]")
    box = download.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360, (download.inner_text(), box)


@pytest.mark.parametrize("locale", LANGS)
def test_the_big_screen_opened_on_a_phone_gives_the_board_the_width(server, new_phone, locale):
    """The big screen (…/tv) on a 360 px phone kept its QR corner of a fifth beside the board:
    the board was 210 px wide and a player's name broke mid-word ("Maximili/ane"). On a phone
    the QR code and the code stand in a row over the board, the board has the screen's width,
    each name on one line, and nothing runs past the screen's edge."""
    from .conftest import enter_for_all, open_table

    host = new_phone(locale=locale, extra_http_headers={"Accept-Language": locale})
    link = open_table(host, server, "kaques", ("Maximiliane", "Bartholomäus"))
    enter_for_all(host, link.rsplit("/", 1)[1], [{"type": "turn", "player": "Maximiliane", "points": 1250}])
    host.goto(link)
    big_screen = host.locator("a[href*='/tv?screen=']").get_attribute("href")
    page = new_phone(locale=locale, extra_http_headers={"Accept-Language": locale})
    page.goto(server.url + big_screen)
    page.wait_for_selector("#board .card")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator("#board").bounding_box()["width"] >= 320
    qr = page.locator(".tv-qr").bounding_box()
    assert qr["width"] >= 110 and qr["x"] >= 0 and qr["x"] + qr["width"] <= 360
    code = page.locator(".tv-code b").bounding_box()
    assert code["x"] + code["width"] <= 360
    for name in ("Maximiliane", "Bartholomäus"):
        words = page.locator("#board .card").get_by_text(name, exact=True).first
        box = words.bounding_box()
        line = float(words.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize)"))
        assert box["height"] < 1.6 * line, (name, box, line)


def test_every_fold_that_opens_on_a_tap_shows_a_triangle(server, new_phone):
    """A section that opens on a tap ("Invite players: QR code and table code" on a friend's
    board, "Or paste the log", the history's "Every row of the log") stood as a bold line with
    no mark: the triangle of <details> was hidden by the summary's flex, and a first-time
    player never tapped it. Each carries ▸ folded and ▾ open now, a thumb high."""
    from .conftest import enter_for_all, open_table, sit

    host = new_phone()
    link = open_table(host, server, "kaques", ("Anna", "Ben"))
    enter_for_all(host, link.rsplit("/", 1)[1], [{"type": "turn", "player": "Anna", "points": 100}])
    friend = new_phone()
    friend.goto(link)
    sit(friend, "Ben")
    folds = [(friend, "#invite > details:first-child > summary"), (friend, "#hosting > summary")]
    history = new_phone()
    history.goto(link + "/history")
    folds.append((history, "details.entries > summary"))
    importer = new_phone()
    importer.goto(server.url + "/import")
    folds.append((importer, ".import-form details > summary"))
    mark = "summary => getComputedStyle(summary, '::before').content"
    for page, selector in folds:
        fold = page.locator(selector)
        assert "▸" in fold.evaluate(mark), selector
        assert fold.bounding_box()["height"] >= 44, selector
        fold.click()
        assert fold.evaluate("summary => summary.parentElement.open"), selector
        assert "▾" in fold.evaluate(mark), selector


@pytest.mark.parametrize("locale", ["de-AT", "pl-PL"])  # the longest header and host's card
def test_show_the_qr_code_brings_the_invitation_s_heading_into_view(server, new_phone, locale):
    """The host's card's "Show the QR code" jumped to the invitation with its heading ("Invite
    players: QR code and table code") behind the sticky header: the page showed a QR code under
    a header, with nothing saying what it was for. The heading stands under the header now."""
    from .conftest import open_table

    host = new_phone(locale=locale, extra_http_headers={"Accept-Language": locale})
    open_table(host, server, "kaques", ("Anna", "Ben"))
    host.click("#join a[href='#invite']")
    host.wait_for_function("() => location.hash === '#invite' && window.scrollY > 0")
    header = host.locator("header.top").bounding_box()
    heading = host.locator("#invite > details > summary").bounding_box()
    assert heading["y"] >= header["y"] + header["height"], (heading, header)
    assert heading["y"] + heading["height"] <= 740
