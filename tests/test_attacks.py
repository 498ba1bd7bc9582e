"""Attacks at the table and from the internet: a stranger without a cookie, a phone with no
seat, a seated player, a phone the host removed that keeps its cookie and an old page, the
host, and a phone replaying an old form. Each test is one fault found by trying them: it was
a 500, half a write, a write by someone not allowed, another table's data, or an answer
without words; now it is refused in words a player reads and the table is as it was."""

from __future__ import annotations

import json
import sqlite3

from scorekeeper import service, store


def table_state(app, token) -> tuple:
    """Everything a refused request must leave as it was: the table's events, games and seats,
    and its last change (what the live streams send)."""
    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    table = service.by_join_token(db, token)
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        rows = tuple(tuple(conn.execute(sql, [table["id"]]).fetchall()) for sql in (
            "SELECT e.* FROM events e JOIN games g ON g.id = e.game_id WHERE g.table_id = ? ORDER BY e.id",
            "SELECT * FROM games WHERE table_id = ? ORDER BY id",
            "SELECT * FROM seats WHERE table_id = ? ORDER BY id"))
    finally:
        conn.close()
    return rows, store.last_change(db, table["id"])


def said(response) -> str:
    return response.get_data(as_text=True)


def test_a_form_of_a_finished_game_does_not_write_into_the_rematch(app, phone):
    """Anna banks the turn that wins a Jaques le Kaques race to 50 and starts the rematch
    herself; a page of hers still showing the first game (another tab, the back button) then
    sends a turn of 100 made on that game's board. It was written into the rematch as its
    first turn (her own changes since that board never counted as stale), and won the new
    game at once. A new game makes every form of the game before it stale, whoever started it:
    refused in words, nothing written."""
    host = phone()
    token = host.open_table(game="kaques", players=("Anna", "Ben"), target=50)
    anna = phone()
    anna.join(token, "Anna")
    phone().join(token, "Ben")
    before_the_end = anna.board_change(token)
    assert anna.enter(token, {"type": "turn", "player": "Anna", "points": 50}).status_code == 200
    finished = anna.board_change(token)
    assert anna.write(f"/t/{token}/rematch").status_code == 200
    state = table_state(app, token)
    for change in (before_the_end, finished):
        old_page = anna.post(f"/t/{token}/kaques/turn", {"action": "total", "points": "100", "change": change,
                                                         "idem": f"old-{change}"})
        assert old_page.status_code == 409
        assert "A new game has started since: check the board. Nothing was changed." in said(old_page)
        old_entry = anna.enter(token, {"type": "turn", "player": "Anna", "points": 100}, change=change)
        assert old_entry.status_code == 409 and "A new game has started since" in said(old_entry)
        assert table_state(app, token) == state
    # the page she reloads writes into the rematch as ever
    assert anna.enter(token, {"type": "turn", "player": "Anna", "points": 100}).status_code == 200


def test_a_json_file_that_is_no_game_log_is_refused_in_words(app, phone):
    """A player picks the wrong file on the import page: any JSON object without a log's
    `format` (`{}`, another app's settings, a test's expected result) was refused as
    'Format: must be "scorekeeper-log/1", not None.' — Python's None, and nothing a player can
    act on. It says what the file is not and where a log comes from, and nothing is written."""
    importer = phone()
    conn = sqlite3.connect(app.config["DATABASE"])
    tables = conn.execute("SELECT count(*) FROM tables").fetchone()[0]
    for text in ('{}', '{"theme": "dark", "players": ["Anna"]}', '{"game": "escoba", "events": []}'):
        response = importer.post("/import", {"text": text}, fetch=False)
        assert response.status_code == 400
        page = said(response)
        assert "This file is not a Scorekeeper game log: each game on a table&#39;s history page has one to " \
               "download (&#34;Download the log&#34;)." in page, page
        assert "None" not in page
    assert conn.execute("SELECT count(*) FROM tables").fetchone()[0] == tables
    conn.close()
    # a log of another version still names the version it must be
    response = importer.post("/import", {"text": '{"format": "scorekeeper-log/2"}'}, fetch=False)
    assert 'scorekeeper-log/1' in said(response).replace("&#34;", '"')


def test_teams_naming_players_in_another_case_keep_those_players(app, phone):
    """The host of an Escoba table for Anna, Ben, Cleo and Dora sets the teams with the names
    spelt in another case ("anna", "BEN": a hand-made request, a log's teams). The rules read
    names ignoring case and took them, with a 200; but the seats matched names exactly, so the
    team of "anna" and "BEN" was dropped on the spot and Anna and Ben were no longer players of
    the game — Cleo and Dora played alone. A team's members are the seated players they name,
    in the seats' spelling."""
    host = phone()
    token = host.open_table(game="escoba", players=("Anna", "Ben", "Cleo", "Dora"))
    teams = [{"name": "Sun", "players": ["anna", "BEN"]}, {"name": "Moon", "players": ["Cleo", "Dora"]}]
    assert host.write(f"/t/{token}/teams", {"action": "set", "teams": json.dumps(teams)}).status_code == 200
    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    header = service.current_game(db, service.by_join_token(db, token)["id"])["header"]
    header = json.loads(header)
    assert header["players"] == ["Anna", "Ben", "Cleo", "Dora"]
    assert header["teams"] == [{"name": "Sun", "players": ["Anna", "Ben"]},
                               {"name": "Moon", "players": ["Cleo", "Dora"]}]


def test_a_stake_past_decimal_s_digits_is_refused_in_words(app, phone):
    """A stake of "1e27" (five characters: a host's typo, a hand-made request, a log's rules)
    passed every check of the form's stake but the last, whose rounding to cents could not
    hold its 28 digits: the new-table form and /import answered 500. It is refused as any
    stake that is no amount, and nothing is written."""
    host = phone()
    conn = sqlite3.connect(app.config["DATABASE"])
    log = {"format": "scorekeeper-log/1", "game": "escalero", "players": ["Anna", "Ben"], "events": []}
    for stake in ("1e27", "1E+99"):
        response = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_stake": stake}, fetch=False)
        assert response.status_code == 400
        assert f"Stake per game point: “{stake}” is not an amount: type one like 0.50" in said(response)
        response = host.post("/import", {"text": json.dumps({**log, "rules": {"stake": stake}})}, fetch=False)
        assert response.status_code == 400
        assert f"must be an amount like &#34;0.50&#34;, not &#39;{stake}&#39;." in said(response)
    assert conn.execute("SELECT count(*) FROM tables").fetchone()[0] == 0
    conn.close()


def test_a_log_s_time_at_the_calendar_s_edge_leaves_its_pages_readable(app, phone):
    """A log whose times stand at the calendar's edge, "9999-12-31T23:59:59-12:00" (a year
    later than Python's last once on the server's clock) or "0001-01-01T00:00:00+14:00", was
    imported, and then its table, its history and its player's statistics answered 500 for good
    (the player's page with every other game of that name on the phone); the day "9999-12-31"
    on a game naming a real table was a 500 of /import. The pages show no time for such an entry
    (i18n.clock: no moment on the server's clock is no time a row can show), and
    the claim is checked as any other."""
    log = {"format": "scorekeeper-log/1", "game": "kaques", "players": ["Anna", "Ben"], "rules": {"target": 50},
           "events": [{"type": "turn", "player": "Anna", "points": 0}, {"type": "turn", "player": "Ben", "points": 50}]}
    for at in ("9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00"):
        importer = phone()
        log["events"][0]["at"] = at
        response = importer.post("/import", {"text": json.dumps(log)}, fetch=False)
        assert response.status_code == 303
        history = response.headers["Location"]
        for page in (history, history.removesuffix("/history"), "/players/Anna"):
            response = importer.get(page)
            assert response.status_code == 200, page
        assert at not in said(importer.get(history)) and "Anna" in said(importer.get(history))
    host = phone()
    token = host.open_table(game="kaques", players=("Anna", "Ben"), target=50)
    anna = phone()
    anna.join(token, "Anna")
    phone().join(token, "Ben")
    assert anna.enter(token, {"type": "turn", "player": "Anna", "points": 50}).status_code == 200
    code = service.by_join_token(store.connect(app.config["DATABASE"]), token)["code"]
    log["events"][0]["at"] = "9999-12-31"
    response = anna.post("/import", {"text": json.dumps(log), "played_at": code}, fetch=False)
    assert response.status_code == 303, said(response)
