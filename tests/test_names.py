"""Names at a table (issue 24, finding 5): no two that look the same, whichever way they come —
the new-table form, a phone taking a new seat, the host's teams, an imported log — and every
honest name, in any script, still welcome. Each test posts as a phone does."""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper import service, store

# the ten look-alikes that passed beside the first name (issue 24), each refused now
LOOK_ALIKES = [
    ("Anna", "Anna\u3164"),  # Hangul filler
    ("Anna", "Anna\uffa0"),  # half-width Hangul filler
    ("Anna", "Anna\u115f"),  # Hangul choseong filler
    ("Anna", "Anna\u2800"),  # braille pattern blank
    ("Anna", "Anna\u034f"),  # combining grapheme joiner
    ("Anna", "Anna\u17b4"),  # Khmer vowel inherent aq
    ("Anna", "Anna\ufe0f"),  # variation selector 16
    ("Ali", "AIi"),  # capital I for small l
    ("Sam", "Sarn"),  # rn for m
    ("Wim", "VVim"),  # VV for W
    ("Ted", "Tecl"),  # cl for d
    ("Bob", "B0b"),  # digit zero for o
]
# names people have, side by side at one table: none is refused for looking like another
HONEST = [
    ["Ann", "Anna", "Jan", "Jana", "Eve", "Eva", "Max", "Mia", "Li", "Lu", "Tom", "Tim"],
    ["Ian", "Lan", "Clara", "Dara", "Karl", "Carl", "Nils", "Niels", "Will", "Bill", "Ole", "Zoë"],
    ["Ζωή", "Юлия", "李", "محمد", "Ana", "Dan"],
]


def message(response) -> str:
    """The refusal as a player reads it (the alert of the page, or the text a script shows)."""
    text = response.get_data(as_text=True)
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', text, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1) if found else text)).strip()


def db_of(app):
    return store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])


def seat_names(app, token) -> list[str]:
    db = db_of(app)
    return [seat["name"] for seat in service.seats(db, service.by_join_token(db, token)["id"])]


@pytest.mark.parametrize("first, second", LOOK_ALIKES, ids=[ascii(b) for _, b in LOOK_ALIKES])
def test_a_look_alike_is_refused_on_the_form_and_at_the_join(app, phone, first, second):
    host = phone()
    opened = host.post("/new/kaques", {"player": [first, second]}, fetch=False)
    assert opened.status_code == 400, second
    said = message(opened)
    assert "look the same" in said or "at the table twice" in said, said
    token = host.open_table("kaques", players=(first, "Ben"))
    joined = phone().post(f"/t/{token}/join", {"name": second}, fetch=False)
    if service.clean_name(second) == first:
        # the same name once its invisible filler is gone: that seat itself, free, as a tap on it
        # takes it (88b468a), not a second one
        assert joined.status_code == 303, second
    else:
        assert joined.status_code == 400, second
        said = message(joined)
        assert "look the same" in said or "at the table twice" in said, said
    assert seat_names(app, token) == [first, "Ben"]


def test_invisible_characters_are_cleaned_from_a_new_seat(app, phone):
    """The name as stored loses its filler: "Cleo" + U+3164 sits as "Cleo"."""
    host = phone()
    token = host.open_table("kaques", players=("Anna", "Ben"))
    assert phone().post(f"/t/{token}/join", {"name": "Cleo\u3164\ufe0f"}, fetch=False).status_code == 303
    assert seat_names(app, token) == ["Anna", "Ben", "Cleo"]


@pytest.mark.parametrize("names", HONEST, ids=["latin", "near-misses", "other-scripts"])
def test_honest_names_sit_together(app, phone, names):
    """Common names a letter apart, names only a careless eye would confuse (Ian and Lan, Clara
    and Dara), and names in Greek, Cyrillic, Chinese and Arabic: one table each, all seated."""
    host = phone()
    token = host.open_table("escalero", players=names[:2])
    for name in names[2:]:
        joined = phone().post(f"/t/{token}/join", {"name": name}, fetch=False)
        assert joined.status_code == 303, (name, message(joined))
    assert seat_names(app, token) == names
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert all(html.escape(name) in page for name in names)


def test_accents_alone_do_not_make_another_name(phone):
    """Decided: "Olé" is "Ole" at one table (accents are dropped when names are compared)."""
    refused = phone().post("/new/kaques", {"player": ["Ole", "Olé"]}, fetch=False)
    assert refused.status_code == 400 and "look the same" in message(refused)


def test_the_host_s_teams_are_cleaned_and_compared(app, phone):
    """Team names set on an Escoba table go through the players' cleaning and comparison."""
    host = phone()
    token = host.open_table("escoba", players=("Anna", "Ben", "Cleo", "Dora"))

    def teams(first: str, second: str):
        chosen = [{"name": first, "players": ["Anna", "Cleo"]}, {"name": second, "players": ["Ben", "Dora"]}]
        return host.post(f"/t/{token}/teams", {"action": "set", "teams": json.dumps(chosen),
                                               "change": host.board_change(token)})

    for first, second in (("Wim", "VVim"), ("Red", "R\u0435d"), ("Blue", "Blue\u3164")):
        refused = teams(first, second)
        assert refused.status_code == 400, second
        assert "look the same" in message(refused) or "two teams are called" in message(refused), message(refused)
    assert teams("Red\u2800", "Blue\ufe0f").status_code == 200
    db = db_of(app)
    played = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))
    assert [team["name"] for team in played.header["teams"]] == ["Red", "Blue"]


def kaques_log(players, teams=None, events=None) -> str:
    doc = {"format": "scorekeeper-log/1", "game": "escalero" if teams else "kaques", "players": players,
           "events": events or []}
    if teams:
        doc["teams"] = teams
    return json.dumps(doc)


def test_an_imported_log_s_names_are_cleaned_and_compared(app, phone):
    """A log of "Anna" and "Anna" + a Hangul filler, or of teams "Wim" and "VVim", is refused;
    a log of "Anna" + a variation selector opens with "Anna", its entries hers."""
    importer = phone()
    tables = db_of(app)["tables"].count
    for players in (["Anna", "Anna\u3164"], ["Sam", "Sarn"], ["Bob", "B0b"]):
        refused = importer.post("/import", {"text": kaques_log(players)}, fetch=False)
        assert refused.status_code == 400, players
        assert re.search("look the same|at the table twice|is listed twice", message(refused)), message(refused)
    teams = [{"name": "Wim", "players": ["Anna", "Cleo"]}, {"name": "VVim", "players": ["Ben", "Dora"]}]
    refused = importer.post("/import", {"text": kaques_log(["Anna", "Ben", "Cleo", "Dora"], teams)}, fetch=False)
    assert refused.status_code == 400 and "look the same" in message(refused), message(refused)
    assert db_of(app)["tables"].count == tables
    log = kaques_log(["Anna\ufe0f", "Ben"], events=[{"type": "turn", "player": "anna\ufe0f", "points": 350}])
    made = importer.post("/import", {"text": log}, fetch=False)
    assert made.status_code == 303, message(made)
    token = made.headers["Location"].split("/")[2]
    assert seat_names(app, token) == ["Anna", "Ben"]
    db = db_of(app)
    played = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))
    assert played.header["players"] == ["Anna", "Ben"] and played.result["points"]["Anna"] == 350
