"""An imported game's rows show when it was played, as far as its log says, and nothing that
is really the time it was imported; an unseated host's entries read as the host's."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

LOGS = Path(__file__).parent / "logs"
PLAYED = [f"2026-11-20T21:{minute:02d}:30+01:00" for minute in range(10, 16)]  # the log's first six events


def a_log() -> dict:
    """Twelve turns of a two-player game: the first six with the time they were played, the
    others with none (`at` left out, or null)."""
    doc = json.loads((LOGS / "escalero" / "seed-two-players.json").read_text())
    doc["events"] = doc["events"][:12]
    for number, event in enumerate(doc["events"]):
        event.pop("at", None)
        if number < len(PLAYED):
            event["at"] = PLAYED[number]
        elif number % 2:
            event["at"] = None
    return doc


def imported(phone, doc: dict) -> str:
    response = phone.post("/import", {"text": json.dumps(doc)}, fetch=False)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def times(page: str) -> list[str]:
    """The rows' times, newest row first."""
    return re.findall(r'<span class="when">([^<]*)</span>', page)


def on_the_clock(at: str) -> str:
    """A time as a German phone reads it in a row: on the server's clock (the pub's)."""
    return datetime.fromisoformat(at).astimezone().strftime("%H:%M")


def test_an_imported_game_shows_when_it_was_played_and_no_import_time(phone):
    reader = phone().speaking("de")
    token = imported(reader, a_log())
    played = [on_the_clock(at) for at in reversed(PLAYED)]
    page = reader.get(f"/t/{token}/history").get_data(as_text=True)
    rows = page[page.index('id="game-1"'):]
    assert len(re.findall(r'<li id="h\d+" class="entry(?: first)?">', rows)) == 12
    # six rows with the time they were played; the six the log gives no time show none (they
    # read the moment of the import: "played at" a time nobody played)
    assert times(rows) == played
    assert "Gespielt 20.11.26" in rows and "Eröffnet" not in rows
    # the board's rows read the same: its newest three, of no time, and its earlier ones
    board = reader.get(f"/t/{token}").get_data(as_text=True)
    assert board.count('<li id="h') == 3 and times(board) == []
    assert times(reader.get(f"/t/{token}/board/earlier").get_data(as_text=True)) == played

    # the game downloaded again gives the same times, and none where the log gave none
    log = reader.get(f"/t/{token}/games/1/log.json").get_json()
    assert [event.get("at") for event in log["events"]] == PLAYED + [None] * 6
    again = imported(reader, log)
    assert times(reader.get(f"/t/{again}/history").get_data(as_text=True)) == played


def test_a_log_without_times_says_it_was_imported(phone):
    reader = phone()
    doc = a_log()
    for event in doc["events"]:
        event.pop("at", None)
    token = imported(reader, doc)
    page = reader.get(f"/t/{token}/history").get_data(as_text=True)
    assert times(page) == []
    assert "Imported " in page and "the log does not say when it was played" in page and "Opened" not in page
    # played on at the table, its new entry shows when it was made
    assert reader.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "G",
                                "value": 0}).status_code == 200
    assert len(times(reader.get(f"/t/{token}/history").get_data(as_text=True))) == 1


def test_a_host_handed_the_table_writes_without_a_seat_as_the_host_after_it_hosts_no_more(app, phone):
    """The phone that opened the table made Anna's phone host; she freed her seat and entered
    Ben's turn for him, then the table's phone took its part back: her row read a raw "host"
    in every language, as no host's entry does. It reads as the host's, in each phone's words;
    a seat's own entry keeps its name."""
    from tests.test_seats import host_says, hosting_from_no_seat

    opener, anna, ben = phone().speaking("de"), phone(), phone().speaking("es")
    token = hosting_from_no_seat(app, opener, anna, ben)
    assert anna.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}).status_code == 200
    assert ben.enter(token, {"type": "score", "player": "Ben", "column": 1, "row": "F", "value": 35}).status_code == 200
    assert host_says(opener, token, "/host").status_code == 200  # the table's phone takes its part back

    for reader, host in ((opener, "Gastgeber"), (ben, "Anfitrión")):  # (a row begins with its writer: f14f048)
        for page in (f"/t/{token}/history", f"/t/{token}"):  # the history, the board's recent rows
            who = re.findall(r'<span class="who">([^<]*)</span>', reader.get(page).get_data(as_text=True))
            assert who == ["Ben", host], (page, who)
