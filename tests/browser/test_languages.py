"""The four languages in real browsers, as a new user meets them: a Spanish phone plays Escoba
in Spanish, an Austrian table plays Escalero in German (poker dice as 9 10 B D K A, money as
Austria writes it), and a phone that switches language keeps it while the table goes on live
in every phone's own language.

Expected words come from the compiled catalogs, so the tests follow the translators' wording.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.support import Translations

from scorekeeper.games import GAMES

from .conftest import looking_at, sit
from .test_escalero import open_table as open_escalero

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
LOGS = Path(__file__).resolve().parents[1] / "logs"


class Words:
    """A language's catalog, as the app looks messages up (Jinja fills holes with %)."""

    def __init__(self, lang: str):
        self.catalog = Translations.load(str(TRANSLATIONS), [lang])
        assert isinstance(self.catalog, Translations), f"no compiled catalog for {lang}: run make"

    def __call__(self, message: str, **values) -> str:
        translated = self.catalog.ugettext(message)
        assert translated != message, f"untranslated: {message}"
        return translated % values if values else translated

    def p(self, context: str, message: str) -> str:
        return self.catalog.upgettext(context, message)


@pytest.fixture(scope="module")
def words():
    return {lang: Words(lang) for lang in ("de", "es", "pl")}


def open_table(page, server, game, players, open_button, typed=(), **choices):
    """The host's form, filled in and sent; the table's link."""
    page.goto(f"{server.url}/new/{game}")
    for i, name in enumerate(players):
        page.fill(f"input[name=player] >> nth={i}", name)
    for key, value in choices.items():  # a named choice is a radio of its own, the rest a select
        if page.locator(f"[name=rule_{key}]").first.get_attribute("type") == "radio":
            page.check(f"[name=rule_{key}][value='{value}']")
        else:
            page.select_option(f"[name=rule_{key}]", value)
    for key, value in typed:
        page.fill(f"[name=rule_{key}]", value)
    page.click(f"button:has-text('{open_button}')")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url


def seat(page, link, name):
    page.goto(link)
    sit(page, name)


def test_a_spanish_phone_plays_escoba_in_spanish(server, new_phone, words):
    es = words["es"]
    host = new_phone(locale="es-ES")
    host.goto(server.url + "/")
    assert host.get_attribute("html", "lang") == "es-ES"
    assert es("Score the game at your table") in host.inner_text("h1")
    host.goto(server.url + "/new/escoba")
    assert es("Points to win") in host.inner_text("main form")
    link = open_table(host, server, "escoba", ("Ana", "Beto"), es("Open the table"))

    ana, beto = new_phone(locale="es-ES"), new_phone(locale="es-ES")
    seat(ana, link, "Ana")
    seat(beto, link, "Beto")
    for page in (ana, beto):
        page.wait_for_selector(".escoba-standings")
        page.wait_for_selector("#net[data-state='live']")
    assert es("What can I take?") in ana.inner_text("body")
    assert beto.inner_text("#net") == es("Live")  # a phrase of the page's script

    # two escobas tapped on Ana's phone reach Beto's, then Beto counts the round in Spanish
    plus = "#board #tally-0 .plus-one"
    ana.click(plus)
    ana.wait_for_selector("#board #tally-0 .tally-count:text-is('1')")
    ana.click(plus)
    beto.wait_for_selector("#board #tally-0 .tally-count:text-is('2')", timeout=3000)
    beto.click("[data-open-round]")
    form = beto.locator("#tray .escoba-form")
    form.wait_for()
    assert es("Round %(number)s", number=1) in form.inner_text()
    # the form's live check says what is missing, in Spanish
    assert es("Who took the seven of coins? Tap their name.") in form.locator("[data-problems]").inner_text()
    for _ in range(4):  # 24 cards
        form.locator("#esc-c0 ~ [data-step='1']").click()
    for _ in range(2):  # 7 coins
        form.locator("#esc-o0 ~ [data-step='1']").click()
    form.locator("#esc-s0 ~ [data-step='1']").click()  # 3 sevens
    form.locator("label.chip:has-text('Ana')").click()  # Ana took the seven of coins
    beto.wait_for_selector("#tray .round-points")
    points = form.locator(".round-points").inner_text()
    assert "+6" in points and "escobas" in points and "most cards" not in points
    form.locator("[data-round-confirm]").click()
    ana.wait_for_selector("#board .escoba-sheet", timeout=3000)
    assert ana.locator("#board .escoba-side >> nth=0").locator(".side-total").inner_text() == "6"
    assert es("needs %(points)s", points=15) in ana.inner_text("#board .escoba-side >> nth=0")
    assert es("Round %(number)s", number=2) in ana.inner_text("#board .escoba-round-no")
    # a refusal reads in Spanish too: Beto tries to undo Ana's round... only the writer or the host may
    assert ana.evaluate("document.documentElement.scrollWidth") <= 360


def test_an_austrian_table_plays_escalero_in_german(server, new_phone, words):
    de = words["de"]
    host = new_phone(locale="de-AT")
    host.goto(server.url + "/")
    assert host.get_attribute("html", "lang") == "de-AT"
    link = open_table(host, server, "escalero", ("Anna", "Bernd"), de("Open the table"),
                      typed=[("stake", "0,50")], dice_faces="poker", columns="1")  # a stake as Austrians type it

    anna, bernd = new_phone(locale="de-AT"), new_phone(locale="de-AT")
    seat(anna, link, "Anna")
    seat(bernd, link, "Bernd")
    anna.wait_for_selector(".turn")
    labels = [t.strip() for t in anna.locator("#board .pad tbody th.rowlabel").all_inner_texts()]
    assert labels[:6] == ["9", "10", "B", "D", "K", "A"]
    assert labels[6:] == [de.p("Escalero row", r) for r in ("S", "F", "P", "G")]
    assert de("Your turn!") in anna.inner_text(".turn")
    assert de("%(name)s's turn", name="Anna") in bernd.inner_text(".turn")

    # the dice pad shows poker faces too; five kings thrown light up the cells they could go to
    king = anna.locator(".dice-pad .die[data-face='5']")
    assert king.inner_text() == "K"
    for _ in range(5):
        king.click()
    anna.wait_for_selector("#board button.cell:visible[data-lit]")
    assert anna.get_attribute("#board button.cell:visible[data-column='1'][data-row='G']", "data-lit") == "50"
    anna.click("#board button.cell:visible[data-column='1'][data-row='G']")
    bernd.wait_for_selector("#board td:has-text('50')", timeout=3000)
    # the provisional money, as Austria writes it: € first, a decimal comma
    money = bernd.inner_text("#board #points")
    assert re.search(r"€\s?25,00", money), money
    assert bernd.evaluate("document.documentElement.scrollWidth") <= 360


def test_switching_language_keeps_it_and_the_table_stays_live_in_each_language(server, new_phone, words):
    pl = words["pl"]
    host = new_phone()  # English, as the browser says
    open_escalero(host, server)
    link = host.url
    anna, ben = new_phone(), new_phone()
    seat(anna, link, "Anna")
    seat(ben, link, "Ben")
    ben.wait_for_selector(".turn")
    assert "Anna's turn" in ben.inner_text(".turn")

    # Ben switches to Polish from the header: the same page comes back in Polish
    ben.click("details.lang summary")
    ben.click("details.lang button:has-text('Polski')")
    ben.wait_for_function("() => document.documentElement?.lang === 'pl'")
    assert ben.url == link
    assert pl("%(name)s's turn", name="Anna") in ben.inner_text(".turn")
    ben.wait_for_selector("#net[data-state='live']")
    assert ben.inner_text("#net") == pl("Live")
    assert ben.evaluate("document.documentElement.scrollWidth") <= 360

    # Anna writes in English; Ben's board follows live, in Polish
    anna.click("#board button.cell:visible[data-column='1'][data-row='F']")
    anna.click("#tray .picker button:has-text('35 served')")
    ben.wait_for_selector("#board td:has-text('35')", timeout=3000)
    assert pl("Your turn!") in ben.inner_text(".turn")
    assert "Your turn" not in ben.inner_text("#board")
    assert "Ben's turn" in anna.inner_text(".turn")

    # the choice stays with Ben's phone: the start page, in Polish
    ben.goto(server.url + "/")
    assert ben.get_attribute("html", "lang") == "pl"
    assert pl("Your tables") in ben.inner_text("#your-tables")


def test_last_weeks_escalero_settles_on_a_german_phone(server, new_phone, words):
    """An imported three-column game, settled in German (longer words, € after a minus) on a
    360 px phone: the history and the table's own board show every column without the page
    scrolling sideways, and the log names no writers, so no row shows a stand-in for one."""
    de = words["de"]
    phone = new_phone(locale="de-AT")
    phone.goto(server.url + "/import")
    # the picker speaks the page's language (the browser's own button spoke the browser's),
    # and says once a file is chosen
    picker = phone.locator("label[for=log-file]")
    assert picker.inner_text().strip() == de("Choose the log file")
    phone.set_input_files("#log-file", str(LOGS / "escalero" / "seed-three-players.json"))
    assert picker.inner_text().strip() == de("Log file chosen ✓ (tap to choose another)")
    phone.click(f"button:has-text('{de('Import and show it')}')")
    phone.wait_for_url(re.compile(r"/t/[\w-]+/history$"))
    for page_url in (phone.url, phone.url.removesuffix("/history")):
        phone.goto(page_url)
        settle = phone.locator(".settle").first
        assert de("Column sums 1 · 2 · 3; the best of each is marked.") in settle.inner_text()
        assert re.search(r"-€\s?1,40", settle.inner_text())
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.locator("#board .who").count() == 0


def test_every_choice_on_a_new_table_form_reads_beside_its_button(server, new_phone):
    """A named choice (Yatzy's card, Escalero's seating and dice, Euchre's deck) is a radio
    and its words: on a 360 px phone the words start on the radio's line and wrap beside it.
    They went under the radio whenever they were longer than the rest of the line. A phone
    in each language."""
    for locale in ("en-GB", "de-AT", "es-ES", "pl-PL"):
        with looking_at(locale):
            phone = new_phone(locale=locale)
            seen = 0
            for game in GAMES:
                phone.goto(f"{server.url}/new/{game}")
                for label in phone.locator("label.check").all():
                    radio = label.locator("input[type=radio]").bounding_box()
                    words = label.evaluate("""label => {
                        const text = [...label.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
                        const range = document.createRange(); range.selectNodeContents(text);
                        const first = range.getClientRects()[0];
                        return {left: first.left, top: first.top, bottom: first.bottom}; }""")
                    assert words["left"] > radio["x"] + radio["width"], (game, label.inner_text())
                    assert words["top"] <= radio["y"] + radio["height"] / 2 <= words["bottom"], (game, label.inner_text())
                    seen += 1
            assert seen >= 8
            assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def imported(new_phone, server, words, lang: str, log):
    """A phone speaking `lang` that imported `log` and looks at its table."""
    phone = new_phone(locale={"de": "de-DE", "pl": "pl-PL", "es": "es-ES"}[lang])
    phone.goto(server.url + "/import")
    phone.set_input_files("#log-file", str(log))
    phone.click(f"button:has-text('{words[lang]('Import and show it')}')")
    phone.wait_for_url(re.compile(r"/t/[\w-]+/history$"))
    phone.goto(phone.url.removesuffix("/history"))
    return phone


def test_a_polish_phone_reads_each_settlement_chip_whole(server, new_phone, words):
    """Yatzy's settlement in Polish: "netto +117", "premia 50" and a Yatzy chip squeezed onto
    one line and each broke at its space; they wrap as whole chips."""
    phone = imported(new_phone, server, words, "pl", LOGS / "yatzy" / "scandinavian-three-players-stake.json")
    chips = phone.locator("#board .settle .settle-columns span").evaluate_all(
        "found => found.map(chip => chip.getClientRects()[0].height / parseFloat(getComputedStyle(chip).lineHeight))")
    assert len(chips) >= 5 and max(chips) < 1.5, chips
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # the players' list on a 320 px phone switched to Spanish: "Partidas Victorias Dinero" took
    # all but 60 px, and "Nombre" (and a name like "Francisco") broke mid-word
    phone.set_viewport_size({"width": 320, "height": 568})
    phone.goto(server.url + "/players")
    phone.click("details.lang summary")
    phone.click("details.lang button:has-text('Español')")
    phone.wait_for_function("() => document.documentElement?.lang === 'es'")
    phone.wait_for_load_state()  # the new page's <html lang> comes before its table is parsed
    lines = phone.locator(".players-table thead th, .players-table tbody th a").evaluate_all(
        "found => found.map(cell => { const r = document.createRange(); r.selectNodeContents(cell); "
        "return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })")
    assert len(lines) == 7 and max(lines) == 1, lines
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320


def test_a_german_phone_reads_euchre_s_end_of_game_figures_whole(server, new_phone, words):
    """Breaking a long name (a word that would overflow) broke "Durchmärsche" in the narrow
    label column of Euchre's figures at the end of a game: the labels keep their words whole."""
    phone = imported(new_phone, server, words, "de", LOGS / "euchre" / "full-game.json")
    label = phone.locator("#board .euchre-stats tbody th", has_text=words["de"]("marches"))
    lines = label.evaluate("th => { const r = document.createRange(); r.selectNodeContents(th); "
                           "return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")
    assert lines == 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
