"""Four languages: every page in German, Polish and Spanish without a missing message, no word
on any page that escapes translation, catalogs complete and in step with the source, the
phone's language chosen from its header or the switcher, numbers and money as the locale
writes them.

The tour (`tour()`) walks every page and fragment a game shows: the start and form pages, a
table opened on a phone at every stage, every log of tests/logs imported (finished, unfinished,
teams) with its history, board, big screen and players, the refusals of the refused logs, and
every GET route of the URL map for those tables. Two ways of walking it:

- in de, pl and es with I18N_STRICT, where every message looked up that its catalog lacks is
  recorded (scorekeeper/web/i18n.py) and must not be;
- in a pseudo-language whose catalog, made from the source at test time, wraps every message
  in ⟦…⟧: whatever a page shows outside the brackets (player names, numbers and symbols
  aside) was never marked for translation.
"""

from __future__ import annotations

import functools
import io
import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper import create_app, service
from scorekeeper.games import ENGINES, GAMES
from scorekeeper.web import i18n
from tests.games import SUPPORT

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "logs"
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGS = ("de", "pl", "es")
PSEUDO = "eo"  # a locale Babel knows and we do not ship: the pseudo-language of the tour
# what a page may show untranslated: the product's and the games' names, the languages' own
# names on the switcher, the log format's name
PROPER = ("Scorekeeper", *(ENGINES[game].title for game in GAMES), "English", "Deutsch",
          "Polski", "Español", "scorekeeper-log/1", "JSON", "EN", "DE", "PL", "ES", PSEUDO.upper())
# attributes a player reads (or hears) besides the text
READ_ATTRIBUTES = ("placeholder", "aria-label", "title", "alt")


# --- the messages of the source ----------------------------------------------------------------


def source_messages() -> dict[tuple[str | None, str], object]:
    """(context, msgid) -> msgid or (singular, plural), extracted as `make messages` does."""
    with open(ROOT / "babel.cfg") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    spec = re.search(r"^KEYWORDS := (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update(parse_keywords(spec.replace("-k ", "").split()))
    found = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        key = message if isinstance(message, str) else message[0]
        found[(context, key)] = message
    return found


@pytest.fixture(scope="module")
def extracted():
    return source_messages()


def catalog(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=lang)


# --- walking every page -------------------------------------------------------------------------


class Texts(HTMLParser):
    """What a player reads on a page: text outside scripts and styles, and READ_ATTRIBUTES."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data)


def read(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return parser.parts


def import_log(phone, path: Path):
    return phone.post("/import", {"log": (io.BytesIO(path.read_bytes()), path.name)},
                      fetch=False, content_type="multipart/form-data")


def token_of(response) -> str:
    return response.headers["Location"].rstrip("/").split("/")[-2]


def tour(app, phone, lang: str, game: str | None) -> dict[str, object]:
    """Every page (name -> response) of one game, or the pages of no game for game=None,
    as a phone speaking `lang` sees them."""
    # a tour opens tables and imports logs from one address faster than the minute's limits
    # allow (those have tests of their own: tests/reliability/test_moderation.py)
    app.config["LIMITS"] = {kind: (limit.most_per_device, limit.most_per_address, 0)
                            for kind, limit in service.LIMITS.items()}

    def device():
        made = phone()
        made.post("/language", {"lang": lang, "next": "/"}, fetch=False)
        return made

    host, stranger = device(), device()
    pages: dict[str, object] = {}

    def get(who, name, url):
        pages[f"{name} ({url})"] = who.get(url)

    if game is None:
        get(stranger, "start", "/")
        get(stranger, "import form", "/import")
        pages["import refused: not JSON"] = host.post("/import", {"text": "{nope"}, fetch=False)
        pages["import refused: nothing"] = host.post("/import", {"text": ""}, fetch=False)
        pages["join refused: wrong code"] = stranger.post("/join", {"code": "ZZZZZZ"}, fetch=False)
        pages["join refused: no code"] = stranger.post("/join", {"code": ""}, fetch=False)
        get(stranger, "missing page", "/nope")
        get(stranger, "no such table", "/t/nope")
        pages["refusal fragment"] = stranger.post("/t/nope/entries", {})
        pages["expired page"] = stranger.client.post("/t/nope/entries", data={"csrf": "forged"})
        get(stranger, "no such player", "/players/Nobody%20Here")
        get(stranger, "players, none yet", "/players")
        claims_tour(app, host, stranger, device, pages)
        return pages

    get(stranger, "new table form", f"/new/{game}")
    get(stranger, "rules", f"/rules/{game}")
    pages["new table refused"] = host.post(f"/new/{game}", {"player": ["Anna", "anna"]}, fetch=False)
    # a table opened on a phone: waiting for its players, then in play
    players = SUPPORT[game].PLAYERS
    opened = host.open_table(game=game, players=players)
    get(host, "waiting, host", f"/t/{opened}")
    get(stranger, "waiting, stranger", f"/t/{opened}")
    seated = {}
    for name in players:
        seated[name] = device()
        seated[name].join(opened, name)
    get(host, "ready, host", f"/t/{opened}")
    get(seated["Ben"], "ready, a player not on turn", f"/t/{opened}")
    get(seated["Anna"], "ready, a player", f"/t/{opened}")
    pages["refusal: an entry the rules refuse"] = seated["Anna"].enter(opened, {"type": "nonsense"})
    # the tray of the phone on turn, and the host's, with what they tapped: the game's every step
    for query in SUPPORT[game].TRAY_QUERIES:
        get(seated["Anna"], "tray, the player on turn", f"/t/{opened}/tray?{query}")
        get(host, "tray, host", f"/t/{opened}/tray?{query}")
    # every log of the game, imported: finished and unfinished games, teams, settlements
    tokens = [opened]
    for path in sorted((LOGS / game).glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        response = import_log(host, path)
        assert response.status_code == 303, (path, response.get_data(as_text=True)[:500])
        tokens.append(token_of(response))
    for path in sorted((LOGS / game / "refused").glob("*.json")):
        pages[f"import refused: {path.name}"] = import_log(host, path)
    # every GET route of the app for these tables (the read-only ones by the board token)
    db_boards = boards(app, tokens)
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or "token" not in rule.arguments:
            continue
        if rule.endpoint.split(".")[0] in set(GAMES) - {game}:
            continue
        for token, link in ((token, link) for token in tokens for link in "tb"):
            values = {"link": link, "token": db_boards[token] if link == "b" else token,
                      "number": "1", "game": game, "lang": lang}
            url = rule.rule
            for name in rule.arguments:
                url = re.sub(rf"<(?:[^<>:]+:)?{name}>", values.get(name, "x"), url)
            url += QUERIES.get(rule.endpoint, "")
            for who, device_ in (("host", host), ("stranger", stranger)):
                response = device_.get(url)
                if response.mimetype == "text/html" and "/live" not in url:
                    pages[f"{rule.endpoint} as {who} ({url})"] = response
                else:
                    response.close()
    get(stranger, "players", "/players")
    for name in ("Anna", "Ben"):
        get(stranger, f"player {name}", f"/players/{name}")
    return pages


def claims_tour(app, host, stranger, device, pages) -> None:
    """An imported game naming a table: where it stands, the host's confirm and dismiss, and
    the refusals of a table it may not name."""
    import sqlite3

    def code_of(token):
        conn = sqlite3.connect(app.config["DATABASE"])
        try:
            return conn.execute("SELECT code FROM tables WHERE join_token = ?", [token]).fetchone()[0]
        finally:
            conn.close()

    def get(who, name, url):
        pages[f"{name} ({url})"] = who.get(url)

    table = host.open_table(game="escalero", players=("Anna", "Ben"))
    empty = host.open_table(game="escalero", players=("Anna", "Ben"))
    anna = device()
    anna.join(table, "Anna")
    assert anna.enter(table, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    seed = json.loads((LOGS / "escalero" / "seed-two-players.json").read_text())
    importer = anna  # only a phone seated at the table (or its host) names it (issue 24)
    for stake in ("0.50", "0.20"):
        log = json.dumps({**seed, "rules": {**seed["rules"], "stake": stake}})
        made = importer.post("/import", {"text": log, "played_at": code_of(table)}, fetch=False)
        assert made.status_code == 303, made.get_data(as_text=True)
    get(importer, "an imported game naming a table", made.headers["Location"])
    get(host, "a table with imported games waiting, host", f"/t/{table}")
    get(host, "imported games waiting, host", f"/t/{table}/history")
    get(stranger, "imported games waiting, stranger", f"/t/{table}/history")
    claims = re.findall(r'data-claim="(\d+)"', pages[f"imported games waiting, host (/t/{table}/history)"].get_data(as_text=True))
    assert host.post(f"/t/{table}/claims/{claims[0]}", {"answer": "confirm"}, fetch=False).status_code == 303
    assert host.post(f"/t/{table}/claims/{claims[1]}", {"answer": "dismiss"}, fetch=False).status_code == 303
    get(host, "imported games answered", f"/t/{table}/history")
    get(importer, "an imported game confirmed", made.headers["Location"])
    pages["claim refused: not the host"] = stranger.post(f"/t/{table}/claims/{claims[0]}", {"answer": "confirm"})
    pages["claim refused: answered"] = host.post(f"/t/{table}/claims/{claims[0]}", {"answer": "dismiss"})
    pages["claim refused: neither"] = host.post(f"/t/{table}/claims/{claims[0]}", {"answer": "x"})
    pages["claim refused: no such claim"] = host.post(f"/t/{table}/claims/999", {"answer": "confirm"})
    def refused(name, text, code, who=host):  # uploaded: a pasted log would be shown again in its box
        pages[f"import refused: {name}"] = who.post(
            "/import", {"log": (io.BytesIO(text.encode()), "log.json"), "played_at": code}, fetch=False,
            content_type="multipart/form-data")
        assert pages[f"import refused: {name}"].status_code in (400, 403, 409), name

    log = json.dumps({**seed, "rules": {**seed["rules"], "stake": "0.20"}})  # the one confirmed
    for name, code, who in (("nothing played there", code_of(empty), host), ("the same game", code_of(table), host),
                            ("an imported table", code_of(made.headers["Location"].split("/")[2]), importer),
                            ("not seated there", code_of(table), device())):
        refused(name, log, code, who)
    refused("unfinished", (LOGS / "escalero" / "unfinished.json").read_text(), code_of(table))
    refused("other players", json.dumps({**seed, "players": ["Cleo", "Dora"], "events": [
        {**event, "player": {"Anna": "Cleo", "Ben": "Dora"}[event["player"]]} for event in seed["events"]]}),
        code_of(table))


QUERIES = {"finder.finder": "?t=7o,8c&h=1e", **{endpoint: query for game in GAMES
                                                 for endpoint, query in SUPPORT[game].READ_QUERIES.items()}}


def boards(app, tokens) -> dict[str, str]:
    import sqlite3

    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return {token: conn.execute("SELECT board_token FROM tables WHERE join_token = ?", [token]).fetchone()[0]
                for token in tokens}
    finally:
        conn.close()


# --- every page in every language ---------------------------------------------------------------------


@pytest.mark.parametrize("game", [None, *GAMES], ids=["common", *GAMES])
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_renders_in_every_language_without_a_missing_message(app, phone, lang, game):
    app.config.update(I18N_STRICT=True, STREAM_SECONDS=0.005, KEEPALIVE_SECONDS=0.002)  # live routes end at once
    pages = tour(app, phone, lang, game)
    for name, response in pages.items():
        assert response.status_code < 500, name
        text = response.get_data(as_text=True)
        if response.mimetype == "text/html" and "<html" in text:
            assert f'<html lang="{lang}"' in text, name
    missing = sorted(app.extensions.get("i18n.missing", ()))
    assert not missing, f"{len(missing)} messages without a {lang} translation: {missing[:20]}"


@pytest.fixture
def pseudo_app(tmp_path, extracted, monkeypatch):
    """The app with a catalog in which every message reads ⟦message⟧."""
    pseudo = Catalog(locale=PSEUDO)
    for (context, _key), message in extracted.items():
        if isinstance(message, str):
            pseudo.add(message, f"⟦{message}⟧", context=context)
        else:
            pseudo.add(tuple(message[:2]), tuple(f"⟦{m}⟧" for m in message[:2]), context=context)
    folder = tmp_path / "pseudo" / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as handle:
        write_mo(handle, pseudo)
    monkeypatch.setitem(i18n.LANGUAGES, PSEUDO, "Pseudo")
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"), "SECRET_KEY": "test",
                       "STREAM_SECONDS": 0.005, "KEEPALIVE_SECONDS": 0.002,
                       "BABEL_TRANSLATION_DIRECTORIES": f"{tmp_path / 'pseudo'};translations"})


def words(allowed: set[str]) -> re.Pattern:
    """Any of the allowed words, whole (a player "C" is not the C of CHF), longest first."""
    return re.compile("|".join(rf"(?<!\w){re.escape(word)}(?!\w)" for word in sorted(allowed, key=len, reverse=True)))


@functools.cache  # most texts are on many pages
def unmarked(text: str, allowed: re.Pattern) -> str:
    """What is left of a text once its translated parts, names, numbers, symbols and the
    `allowed` words are gone."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if stripped == text:
            break
        text = stripped
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\b[A-Z0-9]{6}\b", " ", text)  # a table's code
    text = re.sub(r"\b[A-Z]{3}\b", " ", text)  # a currency's code
    text = allowed.sub(" ", text)
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith(("P", "S", "N", "Z", "C"))).strip()


def data_names() -> set[str]:
    """Every player, team and title of the logs: data, shown as written."""
    names = {"Anna", "Ben", "Cleo", "Dora", "Nobody Here", "Pseudo", "{nope"}
    for path in LOGS.glob("*/*.json"):
        try:
            doc = json.loads(path.read_text())
        except ValueError:
            continue
        if not isinstance(doc, dict):
            continue
        names.update(p for p in doc.get("players") or [] if isinstance(p, str))
        for team in doc.get("teams") or []:
            if isinstance(team, dict) and isinstance(team.get("name"), str):
                names.add(team["name"])
        if isinstance(doc.get("title"), str):
            names.add(doc["title"])
    return names


@pytest.mark.parametrize("game", [None, *GAMES], ids=["common", *GAMES])
def test_no_page_shows_a_word_that_is_not_marked_for_translation(pseudo_app, phone, game):
    Phone = type(phone())  # the suite's test phone, on the pseudo-language's app
    allowed = words(data_names() | set(PROPER))
    pages = tour(pseudo_app, lambda: Phone(pseudo_app), PSEUDO, game)
    found = {}
    for name, response in pages.items():
        if response.mimetype != "text/html":
            continue
        for part in read(response.get_data(as_text=True)):
            left = unmarked(part, allowed)
            if left:
                found.setdefault(part.strip()[:80], name)
    assert not found, "not marked for translation:\n" + "\n".join(f"{text!r}  on {page}" for text, page in found.items())


# --- the catalogs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_of_the_source_has_a_translation(extracted, lang):
    po = catalog(lang)
    problems = []
    for (context, key), message in extracted.items():
        entry = po.get(key, context=context)
        if entry is None:
            problems.append(f"not in the catalog (run `make messages`): {key!r}")
        elif entry.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        elif not entry.string or (isinstance(entry.string, tuple) and not all(entry.string)):
            problems.append(f"untranslated: {key!r}")
    for message, errors in po.check():
        problems += [f"{message.id!r}: {error}" for error in errors]
    assert not problems, f"{len(problems)} problems in {lang}:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalog_holds_no_message_the_source_lost(extracted, lang):
    stale = [m.id for m in catalog(lang) if m.id and (m.context, m.id if isinstance(m.id, str) else m.id[0])
             not in extracted]
    assert not stale, f"run `make messages`: {stale[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_holes_and_the_shape_of_the_message(lang):
    """The same %(name)s holes, and no message left in English (a few words are the same in
    both: they are listed)."""
    # the games' own words (tests/games/<game>.py), the table's calls, money and technical keys
    # read the same
    same_ok = {"Live", "OK", "Code", "Name", "no", *(word for game in GAMES for word in SUPPORT[game].SAME_WORDS)}
    left = []
    for message in catalog(lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        holes = set(re.findall(r"%\((\w+)\)s", ids[-1]))
        for string in strings:
            assert set(re.findall(r"%\((\w+)\)s", string)) <= holes | set(re.findall(r"%\((\w+)\)s", ids[0])), \
                (lang, message.id, string)
        words = re.findall(r"[^\W\d_]{3,}", re.sub(r"%\(\w+\)s", "", ids[0]))
        if strings[0] == ids[0] and words and ids[0] not in same_ok:
            left.append(ids[0])
    assert not left, f"left in English in {lang}: {left}"


# --- choosing the language ---------------------------------------------------------------------------


@pytest.mark.parametrize("header, lang, locale", [
    ("de-AT,de;q=0.9,en;q=0.5", "de", "de-AT"), ("es-ES,es;q=0.9", "es", "es-ES"), ("pl", "pl", "pl"),
    ("fr-FR,de;q=0.5", "de", "de"), ("fr-FR", "en", "en-FR"), ("", "en", "en"), ("*;q=0.1,x-nonsense", "en", "en"),
])
def test_the_phone_gets_the_language_of_its_header(client, header, lang, locale):
    page = client.get("/", headers={"Accept-Language": header})
    assert page.status_code == 200
    assert f'<html lang="{locale}"' in page.get_data(as_text=True)
    assert "Accept-Language" in page.headers["Vary"]
    # what the page script says of the network comes rendered in that language (base.html, #net)
    from flask_babel import force_locale

    with client.application.test_request_context("/"), force_locale(lang):
        back = i18n._("Back online")
    assert (back == "Back online") == (lang == "en")
    assert f'data-back="{back}"' in page.get_data(as_text=True)


def test_the_switcher_keeps_the_device_language_and_returns_to_the_page(phone):
    device = phone()
    assert "Score the game at your table" in device.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    back = device.post("/language", {"lang": "es", "next": "/players"}, fetch=False)
    assert back.status_code == 303 and back.headers["Location"] == "/players"
    page = device.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="es"' in page
    # the header's region stays for formats when it speaks the chosen language
    assert '<html lang="es-MX"' in device.get("/", headers={"Accept-Language": "es-MX"}).get_data(as_text=True)
    # a language the header does not name is written as the header's region writes it, where
    # CLDR knows it there: an Austrian phone switched to English read US dates ("11/29/26, 8:57 PM")
    device.post("/language", {"lang": "en", "next": "/"}, fetch=False)
    assert '<html lang="en-AT"' in device.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"}).get_data(as_text=True)
    with device.client.application.test_request_context("/", headers={"Accept-Language": "de-AT"}):
        from flask import session
        session["lang"] = "en"
        assert i18n.select_locale() == "en_AT"
        session["lang"] = "pl"  # Polish as Austria writes it: CLDR has none, Polish it is
        assert i18n.select_locale() == "pl"
    # anywhere but this site, and unknown languages, are refused quietly
    assert device.post("/language", {"lang": "xx", "next": "https://evil.example/"}, fetch=False).headers["Location"] == "/"
    assert device.post("/language", {"lang": "de", "next": "//evil.example"}, fetch=False).headers["Location"] == "/"
    assert '<html lang="de"' in device.get("/").get_data(as_text=True)


def test_a_screen_reader_hears_which_language_the_switcher_has_chosen(phone):
    """The switcher said "Language" and then "English", "Deutsch", "Polski", "Español" alike:
    the chosen one stood out only by its colour (and the "DE" its summary's name hides). It is
    marked as the current one."""
    device = phone().speaking("de")
    page = device.get("/").get_data(as_text=True)
    chosen = re.findall(r'<button class="button small[^"]*" name="lang" value="(\w+)" lang="\w+"( aria-current="true")?>', page)
    assert chosen == [("en", ""), ("de", ' aria-current="true"'), ("pl", ""), ("es", "")]


def test_the_switcher_needs_the_csrf_token(client):
    assert client.post("/language", data={"lang": "de"}).status_code == 403


def test_numbers_and_money_in_the_locale(app):
    cases = {
        "en": ("1,234.5", "€1,234.50", "+€1.50", "10,000"),
        "de": ("1.234,5", "1.234,50\xa0€", "+1,50\xa0€", "10.000"),
        "de_AT": ("1.234,5", "€\xa01.234,50", "+€\xa01,50", "10.000"),
        "pl": ("1234,5", "1234,50\xa0€", "+1,50\xa0€", "10\xa0000"),
        "es": ("1234,5", "1234,50\xa0€", "+1,50\xa0€", "10.000"),
    }
    from flask_babel import force_locale

    with app.test_request_context("/"):
        for locale, (plain, amount, signed, big) in cases.items():
            with force_locale(locale):
                assert i18n.number(1234.5) == plain, locale
                assert i18n.money("1234.50", "EUR") == amount, locale
                assert i18n.cents(150, "EUR", signed=True) == signed, locale
                assert i18n.number(10000) == big, locale


@pytest.mark.parametrize("locale, four, signed, five, amounts", [
    ("en", "2,000", "+9,999", "12,345", ("€2,000.00", "-€1,500.50", "€10,000.00")),
    ("de", "2.000", "+9.999", "12.345", ("2.000,00\xa0€", "-1.500,50\xa0€", "10.000,00\xa0€")),
    ("pl", "2000", "+9999", "12\xa0345", ("2000,00\xa0€", "-1500,50\xa0€", "10\xa0000,00\xa0€")),
    ("pl_PL", "2000", "+9999", "12\xa0345", ("2000,00\xa0€", "-1500,50\xa0€", "10\xa0000,00\xa0€")),
    ("es", "2000", "+9999", "12.345", ("2000,00\xa0€", "-1500,50\xa0€", "10.000,00\xa0€")),
    ("es_ES", "2000", "+9999", "12.345", ("2000,00\xa0€", "-1500,50\xa0€", "10.000,00\xa0€")),
    ("es_MX", "2,000", "+9,999", "12,345", ("EUR2,000.00", "-EUR1,500.50", "EUR10,000.00")),
])
def test_four_digits_are_grouped_only_where_the_locale_groups_them(app, locale, four, signed, five, amounts):
    """CLDR's minimumGroupingDigits, which Babel ignores: Spanish and Polish leave a number of
    four digits whole (2000, 2000,00 €; "2.000" and "2 000" before) and group from five; the
    Spanish of Latin America, English and German group four. Points and money alike, counted
    as written: 9999.999 rounds to five digits."""
    from flask_babel import force_locale

    with app.test_request_context("/"), force_locale(locale):
        assert (i18n.number(2000), i18n.number(9999, signed=True), i18n.number(12345)) == (four, signed, five)
        assert (i18n.money("2000", "EUR"), i18n.money("-1500.5", "EUR"), i18n.money("9999.999", "EUR")) == amounts
        assert i18n.cents(-150050) == amounts[1].replace("€", "").replace("EUR", "").strip("\xa0")
        assert i18n.number(999) == "999" and i18n.number(-1000) == "-" + four.replace("2", "1", 1)


def test_the_network_words_come_translated_in_the_page(client):
    """The page script marks no phrases of its own: what static/app.js says of the network is
    rendered by the server in the page's language (base.html, the #net element's data-*)."""
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    net = dict(re.findall(r'data-(\w+)="([^"]*)"', re.search(r'<span class="net"[^>]*>', page).group(0)))
    english = {"live": "Live", "back": "Back online", "lost": "Connection lost — reconnecting",
               "polling": "Live updates paused — refreshing every 4 s",
               "offline": "Offline — entries are kept and sent when the network is back",
               "tray": "Offline — what you tapped stays, and the next step comes when the network is back"}
    assert set(net) == set(english)
    assert [key for key in english if net[key] == english[key]] == ["live"]  # "Live" is German too
    assert net["back"] == "Wieder online"
    assert client.get("/i18n/de.js").status_code == 404  # no script of phrases any more


def test_a_refusal_reads_in_the_players_language(phone):
    host = phone()
    host.post("/language", {"lang": "de", "next": "/"}, fetch=False)
    token = host.open_table(players=("Anna", "Ben"))
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    ben.post("/language", {"lang": "es", "next": "/"}, fetch=False)
    event = {"type": "score", "player": "Ben", "column": 1, "row": "F", "value": 30}
    refused = ben.enter(token, event).get_data(as_text=True)
    assert "Anna" in refused and "It is not your turn" not in refused
    anna.post("/language", {"lang": "pl", "next": "/"}, fetch=False)
    refused = anna.enter(token, {**event, "player": "Anna", "row": "F", "value": 31}).get_data(as_text=True)
    assert "row F takes" not in refused and "31" in refused


def test_a_refusal_names_a_row_as_the_players_pad_does(phone):
    """Rows are codes in the log ("S", "3"); a refusal on a phone names them as its pad
    labels them: the Spanish pad's Escalera is E, the German poker die 3 is a Bube, B."""
    host = phone()
    host.post("/language", {"lang": "es", "next": "/"}, fetch=False)
    token = host.open_table(players=("Ana", "Beto"), dice_faces="poker")
    first = {"type": "score", "player": "Ana", "column": 1, "row": "S", "value": 0}
    for player, row in (("Ana", "S"), ("Beto", "3"), ("Ana", "3"), ("Beto", "S")):
        assert host.enter(token, {**first, "player": player, "row": row}).status_code < 400
    refused = host.enter(token, {**first, "value": 0}).get_data(as_text=True)
    assert "columna 1, fila E" in refused, refused
    host.post("/language", {"lang": "de", "next": "/"}, fetch=False)
    refused = host.enter(token, {**first, "row": "3"}).get_data(as_text=True)
    assert "Kolonne 1, Reihe B" in refused, refused


def test_each_language_gets_its_own_board(phone):
    """Boards are rendered once per change and kind of viewer: and per language."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    boards = {}
    for lang in ("en", "de"):
        viewer = phone()
        viewer.post("/language", {"lang": lang, "next": "/"}, fetch=False)
        boards[lang] = viewer.get(f"/t/{token}/board").get_data(as_text=True)
    assert boards["en"] != boards["de"]
