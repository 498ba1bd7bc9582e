"""Refusals a player reads in the programmer's way (the words helper): the new-table form's
refusal of a setting names the setting by its label and quotes the value in the language's
quotes; an undo of an older entry says who may correct it; a correction that would make an
entry another player's or another kind is refused in words, nothing written."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from babel.support import Translations

from scorekeeper import service, store
from scorekeeper.games import ENGINES
from scorekeeper.games.base import currency_code, money
from tests.games import SUPPORT

CATALOGS = Path(__file__).parents[1] / "scorekeeper" / "translations"
QUOTES = {"en": ("“", "”"), "de": ("„", "“"), "es": ("«", "»"), "pl": ("„", "”")}


def message(response) -> str:
    found = re.search(r'<div id="message"[^>]*>(.*?)</div>', response.get_data(as_text=True), re.S)
    assert found, response.get_data(as_text=True)[:500]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def said(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def played_of(app, token):
    db = store.connect(app.config["DATABASE"])
    return service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))


def label(lang: str, text: str) -> str:
    return text if lang == "en" else Translations.load(str(CATALOGS), [lang]).gettext(str(text))


def junk(setting) -> str:
    """A value the setting refuses, as a host (or a link) could type it."""
    if isinstance(setting.default, int) and not isinstance(setting.default, bool):
        return "-7"
    return "Zed"


@pytest.mark.parametrize("lang", ["en", "de", "es", "pl"])
def test_every_setting_refusal_names_the_setting_as_the_form_does_and_quotes_the_value(phone, app, lang):
    """"Rules.first_dealer: 'Zed' is not a player at this table", "Dice: must be "numbers" or
    "poker", not 'abc'", "Points to win: type a whole number.": the log's field path, Python's
    quotes, or no value at all. Every setting on every game's form is refused with its label
    and what was typed in the language's quotes, nothing opened."""
    app.config["LIMITS"] = {"table": (1000, 1000, 1000)}
    host = phone().speaking(lang)
    opening, closing = QUOTES[lang]
    for game, engine in ENGINES.items():
        for key, setting in engine.settings.items():
            if not setting.offered or isinstance(setting.default, bool) or setting.check in (money, currency_code):
                continue  # yes/no is a select of two; stakes and currencies have words of their own
            typed = junk(setting)
            data = {"player": list(SUPPORT[game].PLAYERS), f"rule_{key}": typed}
            if setting.depends:
                data[f"rule_{setting.depends}"] = setting.only[0] if setting.only else ""
            response = host.post(f"/new/{game}", data, fetch=False)
            assert response.status_code == 400, (game, key)
            words = message(response)
            assert words.startswith(f"{label(lang, setting.label)}: {opening}{typed}{closing} "), (game, key, words)
            assert "rules." not in words.lower() and f"'{typed}'" not in words, (game, key, words)


def test_a_first_dealer_not_at_the_table_is_refused_in_the_players_words(phone):
    """A Euchre table opened with a first dealer who is not among the names (a settlement's
    link, and the names changed after it filled the form) was "Rules.first_dealer: 'Zed' is not
    a player at this table."."""
    players = list(SUPPORT["euchre"].PLAYERS)
    said_in = {}
    for lang in ("en", "de", "es", "pl"):
        response = phone().speaking(lang).post("/new/euchre", {"player": players, "rule_first_dealer": " Zed "},
                                               fetch=False)
        assert response.status_code == 400
        said_in[lang] = message(response)
    assert said_in["en"] == ("First dealer (default: the first seat): “Zed” is not among the players' names: "
                             "type one of them, or leave it empty for the first seat.")
    assert said_in["de"].startswith("Erster Geber (sonst: Platz 1): „Zed“ ")
    assert said_in["es"].startswith("Quién reparte primero (por defecto, el primer asiento): «Zed» ")
    assert said_in["pl"].startswith("Pierwszy rozdający (domyślnie: pierwsze miejsce): „Zed” ")


def test_undoing_an_older_entry_says_who_may_correct_it(phone, app):
    """"Only the last entry can be undone; the host can correct older ones." — while the phone
    that wrote an entry may correct it too. The words say who may."""
    host, ben = phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben"))
    host.join(token, "Anna")
    ben.join(token, "Ben")
    for device, name, box in ((host, "Anna", "1"), (ben, "Ben", "1"), (host, "Anna", "2")):
        assert device.enter(token, {"type": "score", "player": name, "box": box, "value": 2}).status_code == 200
    bens = played_of(app, token).entries[1][0].id
    for lang, words in (("en", "Only the last entry can be undone. An older one can be corrected, by the phone "
                               "that wrote it or by the host."),
                        ("de", "Nur der letzte Eintrag kann zurückgenommen werden. Einen älteren kann das Handy, "
                               "das ihn geschrieben hat, oder der Gastgeber korrigieren."),
                        ("es", "Solo se puede deshacer la última anotación. Una anterior la puede corregir el "
                               "móvil que la escribió o el anfitrión."),
                        ("pl", "Cofnąć można tylko ostatni wpis. Starszy może poprawić telefon, który go zapisał, "
                               "albo gospodarz.")):
        refused = ben.speaking(lang).write(f"/t/{token}/undo", {"target": str(bens)})
        assert refused.status_code == 409
        assert words in said(refused)
    assert ben.write(f"/t/{token}/correct", {"target": str(bens), "event": json.dumps({"value": 4})}).status_code == 200


def test_a_correction_that_changes_whose_entry_or_its_kind_is_refused_in_words(phone, app):
    """A correction sent by hand with another type answered "Type debe ser score", the engine's
    words. A correction keeps whose entry it is and what kind: one that would change either is
    refused in words, nothing written."""
    host = phone()
    token = host.open_table("yatzy", ("Anna", "Ben"))
    host.join(token, "Anna")
    assert host.enter(token, {"type": "score", "player": "Anna", "box": "1", "value": 3}).status_code == 200
    assert host.enter(token, {"type": "score", "player": "Ben", "box": "1", "value": 2}).status_code == 200
    bens = played_of(app, token).entries[1][0].id
    before = played_of(app, token).entries
    for change, lang, words in (
            ({"type": "turn"}, "es", "Una corrección no cambia de quién es la anotación ni de qué tipo. La última "
                                     "anotación se puede deshacer y anotar de nuevo."),
            ({"player": "Anna", "box": "2"}, "en", "A correction keeps whose entry it is and what kind. The last "
                                                  "entry can be undone and entered again."),
            ({"type": ["score"], "value": 1}, "en", "A correction keeps whose entry it is and what kind."),
            ({"player": 7}, "de", "Eine Korrektur ändert nicht, wessen Eintrag es ist und welcher Art. Den letzten "
                                  "Eintrag kann man zurücknehmen und neu eintragen."),
            ({"type": None, "player": ["Ben"]}, "pl", "Poprawka nie zmienia, czyj to wpis ani jakiego rodzaju. "
                                                      "Ostatni wpis można cofnąć i wpisać od nowa.")):
        refused = host.speaking(lang).write(f"/t/{token}/correct", {"target": str(bens), "event": json.dumps(change)})
        assert refused.status_code == 400, change
        assert words in said(refused), said(refused)[:300]
    assert played_of(app, token).entries == before
    # the same player, spelt as the pad may, still corrects
    assert host.write(f"/t/{token}/correct", {"target": str(bens),
                                              "event": json.dumps({"player": "ben", "type": "score", "value": 4})
                                              }).status_code == 200
    assert [event["value"] for _, event in played_of(app, token).entries] == [3, 4]


def test_the_refused_setting_opens_in_view_focused(phone):
    """The refusal stood at the top of the page, and the field it names 1,400 px below it on a
    phone (a Euchre form's first dealer): the refused field opens focused (the browser brings
    it into view, no script), marked invalid; the others are not."""
    host = phone().speaking("de")
    response = host.post("/new/euchre", {"player": list(SUPPORT["euchre"].PLAYERS), "rule_first_dealer": "Zed"},
                         fetch=False)
    page = response.get_data(as_text=True)
    assert re.search(r'<input name="rule_first_dealer" value="Zed" autofocus aria-invalid="true"', page)
    assert page.count("autofocus") == 1
    page = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_stake": "viel"},
                     fetch=False).get_data(as_text=True)
    assert re.search(r'<input name="rule_stake" value="viel" autofocus aria-invalid="true"', page)
    assert page.count("autofocus") == 1
    page = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_currency": "$"},
                     fetch=False).get_data(as_text=True)
    assert re.search(r'<input name="rule_currency" value="\$" autofocus', page)
    page = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_dice_faces": "dice"},
                     fetch=False).get_data(as_text=True)
    assert re.search(r'name="rule_dice_faces" value="numbers" [^>]*autofocus', page)
    assert page.count("autofocus") == 1
    # a refusal of no setting (two names alike) focuses nothing
    page = host.post("/new/escalero", {"player": ["Anna", "anna"]}, fetch=False).get_data(as_text=True)
    assert "autofocus" not in page
