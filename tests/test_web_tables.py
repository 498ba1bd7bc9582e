"""The table screens through Flask's test client: every route and every refusal."""

import json
import re

import pytest

from scorekeeper import service, store
from scorekeeper.games import ENGINES, GAMES
from tests.support import writes

F35 = {"type": "score", "column": 1, "row": "F", "value": 35}


@pytest.fixture
def game(phone):
    """A two-player Escalero table: the host's device, and Anna's and Ben's phones."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"), stake="0.50")
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    return host, anna, ben, token


def events_of(app, token):
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)
    return service.load(db, service.current_game(db, table["id"]))


def test_start_page_lists_games_and_rules(client):
    page = client.get("/").get_data(as_text=True)
    for name in GAMES:  # every registered game, by its title
        assert ENGINES[name].title in page
    assert client.get("/rules/escalero").status_code == 200
    assert client.get("/rules/poker").status_code == 404


def test_open_table_shows_qr_code_and_join_link(phone, app):
    host = phone()
    token = host.open_table()
    page = host.get(f"/t/{token}").get_data(as_text=True)
    code = re.search(r'Code <b>([A-Z0-9]{6})</b>', page).group(1)
    assert f"/t/{token}/qr.svg" in page
    assert "localhost" not in re.search(r'class="link"><a href="([^"]+)"', page).group(1)
    svg = host.get(f"/t/{token}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert len(token) >= 22  # 128 bits
    assert code


def test_base_url_setting_is_used_for_the_join_link(phone, app):
    app.config["BASE_URL"] = "https://pub.example.org"
    host = phone()
    token = host.open_table()
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert f'href="https://pub.example.org/t/{token}"' in page


@pytest.mark.parametrize("data, message", [
    ({"player": ["Anna", "anna"]}, "Anna and anna are at the table twice"),
    ({"player": ["A" * 41, "B"]}, "longer than 40 characters"),
    ({"player": ["Anna", "Ben"], "rule_columns": "2"}, "Columns per side: “2” is not one of the choices"),
    ({"player": ["Anna", "Ben"], "rule_stake": "lots"}, "“lots” is not an amount"),
    ({"player": ["Anna", "Ben"], "rule_sweep_bonus": "two"},
     "“two” will not do: it must be a whole number from 0 to 1000"),
])
def test_open_table_refusals_keep_the_form(phone, data, message):
    host = phone()
    response = host.post("/new/escalero", data, fetch=False)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert "Open the table" in response.get_data(as_text=True)


def test_unknown_game_and_table(phone):
    device = phone()
    assert device.get("/new/chess").status_code == 404
    response = device.get("/t/not-a-table")
    assert response.status_code == 404 and "There is no such table" in response.get_data(as_text=True)
    assert device.post("/t/not-a-table/entries", {"event": json.dumps(F35)}).status_code == 404


def test_join_by_short_code_and_rate_limit(phone, app):
    host = phone()
    token = host.open_table()
    code = re.search(r'Code <b>([A-Z0-9]{6})</b>', host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    guest = phone()
    response = guest.post("/join", {"code": code.lower()}, fetch=False)
    assert response.status_code == 303 and response.headers["Location"].endswith(token)
    # nothing typed is no guess: ten empty taps locked every phone of a pub's one address out
    for _ in range(service.JOIN_ATTEMPTS + 1):
        empty = guest.post("/join", {"code": " -"}, fetch=False)
        assert empty.status_code == 400 and "Type the code shown" in empty.get_data(as_text=True)
    assert guest.post("/join", {"code": code}, fetch=False).status_code == 303
    for _ in range(service.JOIN_ATTEMPTS):
        assert guest.post("/join", {"code": "ZZZZZZ"}, fetch=False).status_code == 404
    limited = guest.post("/join", {"code": code}, fetch=False)
    assert limited.status_code == 429 and "Too many wrong codes" in limited.get_data(as_text=True)
    assert 0 < int(limited.headers["Retry-After"]) <= service.JOIN_WINDOW  # when the first guess is forgotten
    # counted per address: a friend on the same Wi-Fi who typed nothing wrong is refused too, and
    # was told the wrong codes came "from this device"
    friend = phone().speaking("de").post("/join", {"code": code}, fetch=False).get_data(as_text=True)
    assert "Zu viele falsche Codes aus diesem Netz" in friend and "Gerät" not in friend


def test_players_add_themselves_before_the_first_entry(phone, app):
    host = phone()
    token = host.open_table(players=())
    anna, ben = phone(), phone()
    assert anna.post(f"/t/{token}/join", {"name": "Anna"}, fetch=False).status_code == 303
    # a name already seated on another phone is that player's seat, not a new one (88b468a)
    taken = ben.post(f"/t/{token}/join", {"name": "anna"}, fetch=False)
    assert taken.status_code == 409 and "Anna already sits at this table" in taken.get_data(as_text=True)
    assert ben.post(f"/t/{token}/join", {"name": "Ben"}, fetch=False).status_code == 303
    assert events_of(app, token).header["players"] == ["Anna", "Ben"]
    assert anna.enter(token, F35).status_code == 200
    # a seat taken after the first entry plays from the next game: the game's players stay
    late = phone()
    assert late.post(f"/t/{token}/join", {"name": "Cleo"}, fetch=False).status_code == 303
    assert events_of(app, token).header["players"] == ["Anna", "Ben"]


def test_a_seat_is_taken_once_and_the_host_can_free_it(game, phone):
    host, anna, ben, token = game
    thief = phone()
    page = thief.get(f"/t/{token}").get_data(as_text=True)
    assert '{"seat": ' not in page and "Tap your name" not in page  # every seat is taken
    seat_id = re.search(r'/seats/(\d+)/free', host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    assert thief.post(f"/t/{token}/join", {"seat": seat_id}, fetch=False).status_code == 409
    assert anna.post(f"/t/{token}/seats/{seat_id}/free", {}).status_code == 403
    freed = host.post(f"/t/{token}/seats/{seat_id}/free", {})
    assert freed.status_code == 200 and "not joined" in freed.get_data(as_text=True)  # the live seat list
    assert thief.post(f"/t/{token}/join", {"seat": seat_id}, fetch=False).status_code == 303


def test_turns_and_permissions(game, phone, app):
    host, anna, ben, token = game
    stranger = phone()
    stranger.get(f"/t/{token}")
    refused = stranger.enter(token, F35)
    assert refused.status_code == 403 and "Join the table first" in refused.get_data(as_text=True)
    assert ben.enter(token, F35).status_code == 403  # Anna's turn
    assert anna.enter(token, F35).status_code == 200
    assert anna.enter(token, {**F35, "column": 2}).status_code == 403  # Ben's turn now
    forged = ben.enter(token, {**F35, "player": "Anna"})
    assert forged.status_code == 403 and "your own side" in forged.get_data(as_text=True)
    assert host.enter(token, {"type": "score", "column": 3, "row": "6", "value": 30}).status_code == 200
    played = events_of(app, token)
    assert [e["player"] for _, e in played.entries] == ["Anna", "Ben"]


def test_refused_entries_change_nothing_and_say_why(game, app):
    host, anna, ben, token = game
    for event, message in [
        ({"type": "score", "column": 1, "row": "F", "value": 31}, "Row F takes 0, 30, 35, not 31"),
        ({"type": "score", "column": 9, "row": "F", "value": 30}, "Column must be from 1 to 3"),
        ({"type": "score", "column": 1, "row": "5", "dice": [5, 5, 5, 5, 1], "served": True}, "only combinations can be served"),
        ({"type": "roll"}, "Type must be score"),
        ({"type": "score", "column": 1, "row": "F", "value": 30, "colour": "red"}, "has no field"),
    ]:
        response = anna.enter(token, event)
        assert response.status_code == 409, event
        assert message in response.get_data(as_text=True)
        assert response.headers.get("HX-Retarget") == "#message"
    for raw in ("not json", "[1, 2]", "x" * 3000):
        response = anna.post(f"/t/{token}/entries", {"event": raw})
        assert 400 <= response.status_code < 500
    assert events_of(app, token).entries == ()


def test_filled_cell_is_refused(game):
    host, anna, ben, token = game
    anna.enter(token, F35)
    ben.enter(token, F35)
    response = anna.enter(token, F35)
    assert response.status_code == 409 and "already written column 1, row F" in response.get_data(as_text=True)


def test_retry_with_the_same_idempotency_key_writes_once(game, app):
    host, anna, ben, token = game
    first = anna.enter(token, F35, idem="tap-1")
    again = anna.enter(token, F35, idem="tap-1")
    assert first.status_code == again.status_code == 200
    assert len(events_of(app, token).entries) == 1


def test_missing_or_wrong_csrf_token_is_refused(game, app):
    host, anna, ben, token = game
    response = anna.client.post(f"/t/{token}/entries", data={"event": json.dumps(F35)})
    assert response.status_code == 403 and "expired" in response.get_data(as_text=True)
    response = anna.client.post(f"/t/{token}/entries", data={"event": json.dumps(F35), "csrf": ben.csrf})
    assert response.status_code == 403
    assert events_of(app, token).entries == ()


def test_forged_cookie_is_a_stranger(game, app):
    host, anna, ben, token = game
    anna.client.set_cookie("session", "forged.value.here", domain="localhost")
    response = anna.enter(token, F35)
    assert response.status_code == 403


def test_undo_by_the_writer_until_the_next_entry(game, app):
    host, anna, ben, token = game
    anna.enter(token, F35)
    last = events_of(app, token).entries[-1][0].id
    assert ben.write(f"/t/{token}/undo", {"target": last}).status_code == 403
    assert anna.write(f"/t/{token}/undo", {"target": last}).status_code == 200
    assert events_of(app, token).entries == ()
    anna.enter(token, F35)
    first = events_of(app, token).entries[-1][0].id
    ben.enter(token, F35)
    response = anna.write(f"/t/{token}/undo", {"target": first})
    assert response.status_code == 409 and "Only the last entry" in response.get_data(as_text=True)
    history = events_of(app, token).history
    assert [r.kind for r in history] == ["entry", "undo", "entry", "entry"]


def test_host_corrects_any_entry_and_history_shows_old_and_new(game, app):
    host, anna, ben, token = game
    anna.enter(token, F35)
    ben.enter(token, {"type": "score", "column": 1, "row": "1", "value": 3})
    first = events_of(app, token).entries[0][0].id
    # Anna wrote it and may fix it; Ben may not
    assert ben.write(f"/t/{token}/correct", {"target": first, "event": json.dumps({"value": 30})}).status_code == 403
    bad = host.write(f"/t/{token}/correct", {"target": first, "event": json.dumps({"value": 33})})
    assert bad.status_code == 409 and "Row F takes" in bad.get_data(as_text=True)
    ok = host.write(f"/t/{token}/correct", {"target": first, "event": json.dumps({"value": 30})})
    assert ok.status_code == 200
    played = events_of(app, token)
    assert played.entries[0][1]["value"] == 30
    board = ok.get_data(as_text=True)
    assert "corrected #" in board and "<s>" in board


def test_names_with_markup_are_escaped(phone):
    host = phone()
    token = host.open_table(players=("<script>alert(1)</script>", "Ben"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_security_headers_and_cookie_flags(phone):
    host = phone()
    response = host.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_phone_s_own_pages_are_kept_by_no_shared_cache(game, phone):
    """The start page (this phone's tables, with their join links), the statistics (names and
    money) and the downloads said only "Vary: Cookie": a cache in front of the server that
    ignores Vary (a CDN told to cache everything) could keep one phone's page and hand it to the
    next, and a page htmx opened (a tap on a link) carried no Set-Cookie that would stop it.
    Every answer made for one phone says "private" (or "no-store"); the static files stay public."""
    host, anna, ben, token = game
    for path in ("/", "/players", "/players/Anna", f"/t/{token}/games/1/log.json", "/import",
                 f"/new/{GAMES[0]}"):
        for headers in ({}, {"HX-Request": "true", "HX-Boosted": "true"}):
            answer = anna.get(path, headers=headers)
            assert answer.status_code in (200, 404), path
            cache = answer.headers.get("Cache-Control", "")
            assert "private" in cache or "no-store" in cache, (path, headers, cache)
    with phone().client.get("/static/app.css") as static:
        assert "private" not in static.headers.get("Cache-Control", "")


def test_read_only_board_cannot_write(game, app):
    host, anna, ben, token = game
    page = host.get(f"/t/{token}").get_data(as_text=True)
    board_token = re.search(r'/b/([\w-]+)"', page).group(1)
    viewer_page = anna.get(f"/b/{board_token}").get_data(as_text=True)
    assert "data-pick" not in viewer_page and "dice-pad" not in viewer_page
    assert anna.get(f"/b/{board_token}/board").status_code == 200
    refused = anna.write(f"/b/{board_token}/entries", {"event": json.dumps(F35)})
    assert refused.status_code == 403 and "read-only board" in refused.get_data(as_text=True)


def test_the_board_link_seats_nobody_and_writes_nothing(phone, app):
    """A stranger with the board link (a TV's address, a photo of it) posted its join: the
    board's viewer has no device, the join made a fresh viewer of that "" and sat a new
    player Mallory, ten a minute, until the table was full. No write of any route goes
    through the board link now."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    board_token = re.search(r'/b/([\w-]+)"', host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    db = store.connect(app.config["DATABASE"])
    seats_before = db.execute("SELECT id, name, device FROM seats ORDER BY id").fetchall()
    stranger = phone()
    stranger.get(f"/b/{board_token}")
    seat = str(seats_before[0][0])
    for url, form in [("join", {"name": "Mallory"}), ("join", {"seat": seat}), (f"seats/{seat}/free", {}),
                      (f"seats/{seat}/remove", {}), (f"seats/{seat}/let-in", {}), ("settings", {}),
                      ("teams", {}), ("undo", {"target": "1"}), ("rematch", {}), ("claims/1", {"answer": "confirm"}),
                      ("escalero/score", {"cell": "0:1:F", "value": "30"})]:
        refused = stranger.write(f"/b/{board_token}/{url}", form)
        assert refused.status_code == 403, (url, refused.status_code)
        assert "read-only board" in refused.get_data(as_text=True), url
    assert db.execute("SELECT id, name, device FROM seats ORDER BY id").fetchall() == seats_before
    assert service.viewer(db, service.by_join_token(db, token), "").read_only  # no device writes nothing


def test_whole_game_settles_with_money_rematch_and_ledger(game, app):
    host, anna, ben, token = game
    play_out(anna, ben, token, app)
    played = events_of(app, token)
    assert played.finished
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    assert "Who pays whom" in board and "Rematch" in board
    assert anna.enter(token, F35).status_code == 409
    log = anna.get(f"/t/{token}/games/1/log.json")
    assert log.status_code == 200 and "attachment" in log.headers["Content-Disposition"]
    doc = json.loads(log.get_data(as_text=True))
    from scorekeeper.gamelog import replay
    assert replay(doc)["money"] == played.result["money"]
    assert anna.write(f"/t/{token}/rematch", {}).status_code == 200
    assert events_of(app, token).row["number"] == 2
    play_out(anna, ben, token, app)
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    assert "The evening's ledger" in board
    db = store.connect(app.config["DATABASE"])
    ledger = service.ledger(db, service.by_join_token(db, token)["id"])
    assert sum(ledger["cents"].values()) == 0
    assert ledger["cents"]["Anna"] == 2 * int(played.result["money"]["Anna"].replace(".", ""))


def play_out(anna, ben, token, app):
    """Anna writes 5 in every picture cell, Ben crosses everything out."""
    played = events_of(app, token)
    while not played.finished:
        side = played.state.side_on_turn
        column, row = played.state.open_cells(side)[0]
        value = row.face if row.is_picture and side == "Anna" else 0
        device = anna if side == "Anna" else ben
        assert device.enter(token, {"type": "score", "column": column, "row": row.value, "value": value}).status_code == 200
        played = events_of(app, token)


def test_teams_drawn_by_lot_for_four(phone, app):
    host = phone()
    token = host.open_table(players=("Anna", "Ben", "Cleo", "Dora"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert "Draw pairs by lot" in page
    assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200
    teams = events_of(app, token).header["teams"]
    assert sorted(p for t in teams for p in t["players"]) == ["Anna", "Ben", "Cleo", "Dora"]
    assert all(len(t["players"]) == 2 for t in teams)
    guest = phone()
    guest.join(token, "Anna")
    assert guest.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 403


def test_live_stream_sends_the_board_and_resumes(game, app):
    host, anna, ben, token = game
    anna.enter(token, F35)
    response = ben.client.get(f"/t/{token}/live")
    assert response.mimetype == "text/event-stream"
    body = response.get_data(as_text=True)  # the stream ends after STREAM_SECONDS in tests
    assert re.search(r"^id: \d+$", body, re.M) and "data: " in body and "board-inner" in body
    last = int(re.findall(r"^id: (\d+)$", body, re.M)[-1])
    resumed = ben.client.get(f"/t/{token}/live", headers={"Last-Event-ID": str(last)}).get_data(as_text=True)
    assert "board-inner" not in resumed  # nothing new since


def test_placements_light_up_the_cells(game):
    """Five dice tapped: the tray offers every open cell they go to, best first."""
    host, anna, ben, token = game
    html = anna.tray(token, dice="3,3,3,2,2", served="1")
    assert 'id="tray"' in html
    assert html.index('data-value="35"') < html.index('data-value="9"')
    full = [button["vals"] for button in writes(html, "/escalero/score")]
    assert {"cell": "0:1:F", "value": 35} in [{k: v[k] for k in ("cell", "value")} for v in full]
    # fewer than five dice: no cell is offered yet, the pad asks for the rest
    fewer = anna.tray(token, dice="1,2")
    assert "data-value=" not in fewer and "3 more" in fewer


def test_oversized_request_is_refused(game):
    host, anna, ben, token = game
    response = anna.post(f"/t/{token}/entries", {"event": "x" * 100_000})
    assert response.status_code == 413


def test_an_undo_made_on_a_board_that_moved_on_says_nothing_was_changed(game, app):
    """Anna taps Undo as Ben enters his turn: she was told "This was already entered by Ben …
    Nothing was added", as if she had entered something."""
    host, anna, ben, token = game
    assert anna.enter(token, F35).status_code == 200
    change = anna.board_change(token)
    assert ben.enter(token, {**F35, "player": "Ben"}).status_code == 200
    mine = events_of(app, token).entries[0][0].id
    for late in (anna.write(f"/t/{token}/undo", {"target": str(mine)}, change=change),
                 anna.write(f"/t/{token}/correct", {"target": str(mine), "event": json.dumps({"value": 30})},
                            change=change)):
        assert late.status_code == 409
        assert "Ben entered a result meanwhile: check the board. Nothing was changed." in late.get_data(as_text=True)
    assert len(events_of(app, token).entries) == 2 and events_of(app, token).entries[0][1]["value"] == 35


def test_an_entry_made_on_a_board_that_moved_on_is_refused(game, app):
    """Two phones entering the same round: the one whose board showed an older change is told so."""
    host, anna, ben, token = game
    change = host.board_change(token)
    assert anna.board_change(token) == change
    assert anna.enter(token, F35, change=change).status_code == 200
    late = host.enter(token, {**F35, "column": 2}, change=change)
    assert late.status_code == 409 and "already entered by Anna" in late.get_data(as_text=True)
    # a change the board cannot have shown is no board either; none at all is refused too
    assert host.enter(token, {**F35, "column": 2}, change="x").status_code == 400
    assert host.post(f"/t/{token}/entries", {"event": json.dumps({**F35, "column": 2})}).status_code == 400
    assert len(events_of(app, token).entries) == 1
    # the same phone's own entries since do not make its board stale (quick taps, an offline queue)
    change = host.board_change(token)
    assert host.enter(token, F35, change=change).status_code == 200  # for Ben
    assert host.enter(token, {**F35, "column": 2}, change=change).status_code == 200  # for Anna
    assert len(events_of(app, token).entries) == 3


def test_a_scribe_writes_for_every_side_and_is_no_side(phone, app):
    host = phone()
    response = host.post("/new/escalero", {"player": ["Anna", "Ben", "Cleo"], "seating": "scribe",
                                            "scribe": "Max"}, fetch=False)
    token = response.headers["Location"].rsplit("/", 1)[-1]
    scribe = phone()
    scribe.join(token, "Max")
    assert events_of(app, token).header["players"] == ["Anna", "Ben", "Cleo"]
    for column in (1, 2, 3):
        assert scribe.enter(token, {"type": "score", "column": column, "row": "G", "value": 50}).status_code == 200
    assert [e["player"] for _, e in events_of(app, token).entries] == ["Anna", "Ben", "Cleo"]


def test_a_refused_form_keeps_the_scribe_chosen_and_named(phone):
    """A form sent back with a refusal (a stake of "abc") forgot that one person keeps score:
    "Everyone plays" was checked again and the scribe's name gone, and the host who tapped
    "Open the table" once more opened a table with Max as nobody."""
    host = phone()
    response = host.post("/new/escalero", {"player": ["Anna", "Ben"], "seating": "scribe", "scribe": "Max",
                                           "rule_stake": "abc"}, fetch=False)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'name="seating" value="scribe" checked' in page and 'name="scribe" value="Max"' in page
    assert 'name="seating" value="players" checked' not in page


def test_an_entry_s_correction_buttons_asked_of_a_game_that_has_none_are_refused_in_words(phone):
    """GET …/history/<id>/fix (the buttons a history row's "Correct" asks for, where a game
    keeps them) of a game whose entries are corrected on its pad was a 500: it has no picker."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    assert host.enter(token, {**F35, "player": "Anna"}).status_code == 200
    entry = re.search(r'id="h(\d+)"', host.get(f"/t/{token}/board", headers={"HX-Request": "true"})
                      .get_data(as_text=True)).group(1)
    asked = host.get(f"/t/{token}/history/{entry}/fix", headers={"HX-Request": "true"})
    assert asked.status_code == 404 and "corrected on the board itself" in asked.get_data(as_text=True)
