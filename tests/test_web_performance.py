"""What the performance work (bench/, docs/performance.md) changed must not change what a
phone sees: the history's earlier rows on demand, the live stream resuming from the page's
board, the incremental fold, and the bench's timing switch."""

from __future__ import annotations

import json
import re

from scorekeeper import service, store
from scorekeeper.web.context import TableContext
from scorekeeper.web.db import get_db
from scorekeeper.gamelog import FORMAT, read_header
from scorekeeper.games.escalero import allowed_values


def cells(count):
    """Escalero score events for a two-player pad, Anna and Ben in turn."""
    game = read_header({"format": FORMAT, "game": "escalero", "players": ["Anna", "Ben"], "rules": {},
                        "events": []})
    state, out = game.start(), []
    for i in range(count):
        side = state.side_on_turn
        column, row = state.open_cells(side)[0]
        event = {"type": "score", "player": side, "column": column, "row": row.value,
                 "value": allowed_values(row, state.rules)[-1] if i % 3 else 0}
        state = game.apply(state, event)
        out.append(event)
    return out


def entered(phone, count):
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    for event in cells(count):
        response = host.enter(token, event)
        assert response.status_code == 200, response.get_data(as_text=True)
    return host, token


def history_ids(html):
    return re.findall(r'<span class="id">#(\d+)</span>', html)


def test_the_earlier_entries_fold_is_on_the_board_from_the_start_and_no_answer_sends_it(phone):
    """The fold waits on the page out of sight while the game's first row is among the newest
    (app.css: `.first`): the entry that pushes that row off sends its row and the row's delete,
    not the fold (200 B of gzip that took Euchre's answer past 1 KB)."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert '<details id="history-earlier">' in board and 'class="first"' not in board
    firsts = []
    for number, event in enumerate(cells(TableContext.recent_rows + 2), start=1):
        answer = host.enter(token, event).get_data(as_text=True)
        assert ("history-earlier" in answer) == (number == 1), number  # the first: the history whole
        firsts += re.findall(r'<li id="(h\d+)" class="entry first">', answer)
        if number == TableContext.recent_rows + 1:
            assert f'<hx-partial id="{firsts[0]}" hx-swap="delete">' in answer
    assert len(firsts) == 1  # the first row alone, with its first answer
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert 'class="entry first"' not in board and '<details id="history-earlier">' in board


def test_board_carries_the_newest_rows_and_the_rest_on_demand(phone, app):
    host, token = entered(phone, 14)
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    recent = TableContext.recent_rows
    assert len(history_ids(board)) == recent
    assert "Earlier entries" in board
    assert "<details id=\"history-earlier\">" in board
    url = f"/t/{token}/board/earlier"  # the board's URL + /earlier (app.js)
    earlier = host.get(url, headers={"HX-Request": "true"})
    assert earlier.status_code == 200
    rows = earlier.get_data(as_text=True)
    assert len(history_ids(rows)) == 14 - recent
    assert set(history_ids(rows)).isdisjoint(history_ids(board))
    assert 'name="fix"' in board  # the host corrects an Escalero entry where it stands on the pad

    # the read-only board shows its newest rows only (issue 25: tests/test_web_history.py)
    db = store.connect(app.config["DATABASE"])
    board_token = service.by_join_token(db, token)["board_token"]
    readonly = phone().get(f"/b/{board_token}/board").get_data(as_text=True)
    assert len(history_ids(readonly)) == recent and "/board/earlier" not in readonly
    assert phone().get(f"/b/{board_token}/board/earlier").status_code == 404


def test_the_history_numbers_each_game_s_events_from_one(phone, app):
    """A history row's number is its place among its game's events (#1, #2, …): the store's
    ids count every table's events, and a pub's second table read "#17" after its first two
    turns (a server of a few weeks, five digits). An undo names the entry it took back by it."""
    entered(phone, 6)  # another table's events first
    host, token = entered(phone, 3)
    db = store.connect(app.config["DATABASE"])
    played = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))
    last = played.entries[-1][0].id
    assert last > 3  # ids and numbers part
    assert host.write(f"/t/{token}/undo", {"target": str(last)}).status_code == 200
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert history_ids(board) == ["4", "3", "2"]  # the newest rows first: the undo, then its entry
    assert "undid entry #3" in board and f'id="h{last}"' in board


def test_live_stream_starts_from_the_board_the_page_shows(phone, app):
    host, token = entered(phone, 2)
    page = host.get(f"/t/{token}").get_data(as_text=True)
    live = re.search(r'hx-sse:connect="([^"]+)"', page).group(1)
    change = re.search(r'data-change="(\d+)"', page).group(1)
    assert live.endswith(f"?since={change}")
    quiet = host.client.get(live.replace("&amp;", "&")).get_data(as_text=True)
    assert "board-inner" not in quiet  # nothing new since the page: no second copy
    assert "board-inner" in host.client.get(f"/t/{token}/live").get_data(as_text=True)


def test_cached_fold_catches_up_like_a_whole_fold(phone, app):
    host, token = entered(phone, 5)
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)

    def both():
        row = service.current_game(db, table["id"])
        cached = service.load(db, row)
        history = service.history_of(db, row["id"])
        whole = service.fold(row, history, cached.last_event_id)
        assert cached.entries == whole.entries and cached.history == whole.history
        assert cached.state == whole.state and cached.result == whole.result
        return cached

    both()
    for event in cells(9)[5:]:
        assert host.enter(token, event).status_code == 200
    played = both()  # caught up by applying the new entries only
    last = played.entries[-1][0].id
    assert played.previous is not None  # the state before the last entry, kept for its undo
    assert host.write(f"/t/{token}/undo", {"target": last}).status_code == 200
    undone = both()  # the last entry undone: the state the fold kept before it
    assert undone.previous is None and len(undone.entries) == len(played.entries) - 1
    assert host.write(f"/t/{token}/undo", {"target": undone.entries[-1][0].id}).status_code == 200
    both()  # one more: the whole game folded again
    assert host.enter(token, cells(9)[7]).status_code == 200
    entered_again = both()
    assert host.write(f"/t/{token}/undo", {"target": entered_again.entries[-1][0].id}).status_code == 200
    both()
    first = played.entries[0][0].id
    assert host.write(f"/t/{token}/correct", {"target": first, "event": json.dumps({"value": 0})}).status_code == 200
    assert both().current(first)["value"] == 0


def test_timing_switch_adds_server_timing_and_the_hello_baseline(app):
    from werkzeug.test import Client

    from scorekeeper.timing import HELLO, instrument

    client = Client(instrument(app))
    hello = client.get(HELLO)
    assert hello.status_code == 200 and hello.get_data() == b"hello"
    assert re.match(r"app;dur=\d+\.\d+$", hello.headers["Server-Timing"])
    page = client.get("/")
    assert page.status_code == 200 and "Server-Timing" in page.headers and page.headers["X-Worker"]


def test_the_benchs_floor_is_our_hooks_the_table_context_and_the_commit(app, phone):
    """POST /_bench/floor/<token> (timing mode only): refused as any write of ours is without the
    phone's CSRF token or for a table that is not there, else one durable commit."""
    from scorekeeper.timing import FLOOR, instrument

    instrument(app)
    host = phone()
    token = host.open_table()
    assert host.post(f"{FLOOR}/{token}").get_data() == b"committed"
    assert host.client.post(f"{FLOOR}/{token}").status_code == 403  # no CSRF token
    assert host.post(f"{FLOOR}/no-such-table").status_code == 404
    assert phone().post(f"{FLOOR}/{token}").status_code == 200  # anyone at the table's link


def test_without_the_timing_switch_there_is_no_floor(app, phone):
    host = phone()
    token = host.open_table()
    assert host.post(f"/_bench/floor/{token}").status_code == 404


def test_a_template_compiled_once_is_loaded_by_the_next_app_without_compiling(app, tmp_path):
    """The bytecode cache: a new worker's first board costs a load, not a compile (issue 25)."""
    from scorekeeper import create_app

    app.jinja_env.get_template("_parts.html")
    again = create_app({"SECRET_KEY": "k", "DATABASE": str(tmp_path / "again.db")})

    def compile_(*args, **kwargs):
        raise AssertionError("compiled again")

    again.jinja_env.compile = compile_
    assert again.jinja_env.get_template("_parts.html").module.settle is not None


def test_a_new_worker_loads_every_page_template_giving_way_between_them(app):
    import gevent

    from scorekeeper.serve import warm_templates

    env = app.jinja_env
    env.cache.clear()
    names = env.list_templates(filter_func=lambda name: name.endswith(".html"))
    turns = []
    other = gevent.spawn(lambda: [turns.append(len(env.cache)) or gevent.sleep(0) for _ in range(3)])
    warm_templates(env)
    gevent.wait()
    assert other.successful()
    assert {name for _, name in env.cache.keys()} == set(names)  # every game's templates too
    assert max(turns) < len(names)  # the worker's requests ran between the templates


def test_a_context_tells_what_kind_of_viewer_it_is_once(app, phone, monkeypatch):
    """A live stream asks its context's kind for each message it sends (the key its board is
    made once under): the viewer and the language are looked up once a context (issue 25:
    flask_babel's locale asked again each time was 6 % of a worker sending a change to 400
    streams)."""
    from scorekeeper.web import context as contexts

    _, token = entered(phone, 1)
    asked = []
    monkeypatch.setattr(contexts, "html_lang", lambda: asked.append(1) or "de-AT")
    db = store.connect(app.config["DATABASE"])
    with app.test_request_context("/"):
        ctx = TableContext.load(db, "b", service.by_join_token(db, token)["board_token"])
        assert ctx.kind == ctx.kind == "board:de-AT"
    assert len(asked) == 1
    db.conn.close()



def test_a_game_not_in_the_fold_cache_is_folded_without_the_write_lock(phone, app, monkeypatch):
    """The write folds a game it does not have (a new worker, an evicted fold, a correction
    another process made) with the write lock let go, then tries again (issue 25: a game of
    2,000 events folded inside held every table's writes); a fold it has only catches up."""
    host, token = entered(phone, 6)
    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    locked, real = [], service.fold

    def fold(*args, **kwargs):
        locked.append(db.conn.in_transaction)
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "fold", fold)
    app.extensions["scorekeeper.folds"].clear()
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, table["host_device"])
    service.submit(db, table, who, cells(8)[6])
    assert locked == [False]  # once, outside the lock, and the write then found it
    service.submit(db, table, who, cells(8)[7])
    assert locked == [False]  # the cache's fold, one entry on
    assert len(service.load(db, service.current_game(db, table["id"])).entries) == 8


def test_an_entry_s_answer_shows_the_game_as_the_write_left_it_reading_nothing_again(phone, app):
    """Issue 26: the answer to an entry is made from the change and the game its write
    committed: the table, the seat, the game and the table's last change are not read again."""
    host, token = entered(phone, 4)
    change = host.board_change(token)
    statements = []
    with app.app_context():  # the next request's connection (web/db.py: the idle ones are kept)
        get_db().conn.set_trace_callback(statements.append)
    response = host.enter(token, cells(5)[4], change=change)
    assert response.status_code == 200
    after = statements[statements.index("COMMIT") + 1:]
    assert after and not [s for s in after if re.search(r"FROM (tables|seats|bans|games|drafts)\b|max\(id\)", s)]
    db = store.connect(app.config["DATABASE"])
    html = response.get_data(as_text=True)
    assert f'data-change="{store.last_change(db, service.by_join_token(db, token)["id"])}"' in html
    assert re.search(r'<li id="h\d+" class="entry(?: first)?">', html)  # its row on top of the history
