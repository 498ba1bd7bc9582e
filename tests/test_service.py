"""The table service's own guarantees: one write path, folds cached per database and bounded
by bytes, the engine contract, and permissions decided in one place."""

from __future__ import annotations

import json
import types
from dataclasses import replace

import pytest

from scorekeeper import create_app, gamelog, service, store
from scorekeeper.games import ENGINES
from scorekeeper.games.base import Engine, Statistics


def db_of(app):
    return store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])


def test_two_apps_in_one_process_each_read_their_own_game_1(tmp_path, phone):
    """Game ids restart in every database: a fold cached for one app's game 1 must never be
    served for another's (it used to be: one module-level cache for every database)."""
    apps = [create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{name}.db"), "SECRET_KEY": "x"})
            for name in ("first", "second")]
    Phone = type(phone())  # the suite's test phone, on each app
    hosts = [Phone(app) for app in apps]
    tokens = [host.open_table("euchre", players=("A", "B", "C", "D")) for host in hosts]
    hand = {"type": "hand", "maker": "A", "tricks": 5}
    assert hosts[0].enter(tokens[0], hand).status_code == 200
    for app, token, hands in zip(apps, tokens, (1, 0)):
        db = db_of(app)
        table = service.by_join_token(db, token)
        row = service.current_game(db, table["id"])
        assert row["id"] == 1  # both databases have a game 1
        assert len(service.load(db, row).state.hands) == hands
    second = hosts[1].get(f"/t/{tokens[1]}").get_data(as_text=True)
    assert "Hand 1" in second and "Last hand" not in second


def test_the_fold_cache_is_bounded_by_bytes():
    cache = store.FoldCache(budget=1000)
    for key in range(5):
        cache.put(key, f"fold {key}", 300)
    assert cache.bytes <= 1000
    assert cache.get(0) is None and cache.get(1) is None and cache.get(4) == "fold 4"
    cache.get(2)  # used: kept before 3
    cache.put(5, "fold 5", 300)
    assert cache.get(2) == "fold 2" and cache.get(3) is None
    cache.put(6, "too big", 5000)
    assert cache.get(6) is None and cache.bytes <= 1000


def test_a_fold_s_size_grows_with_its_events(app, phone):
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    db = db_of(app)
    table = service.by_join_token(db, token)
    empty = service.load(db, service.current_game(db, table["id"])).size
    host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35})
    one = service.load(db, service.current_game(db, table["id"])).size
    assert 0 < empty < one


def test_an_engine_module_is_read_as_the_contract_its_optional_parts_defaulted():
    for name, engine in ENGINES.items():
        assert isinstance(engine, Engine) and engine.name == name
    module = types.SimpleNamespace(name="coin", title="Coin", settings={}, events={"toss": frozenset({"side"})},
                                   start=lambda setup, rules: (), apply=lambda state, event: state + (event,),
                                   result=lambda state: {"finished": False}, writers=lambda state: None)
    engine = Engine.of(module)
    assert (engine.verify_draft, engine.default_teams, engine.rematch_rules, engine.seats) == (None,) * 4
    assert engine.statistics == Statistics() and engine.statistics.count((), {}) == {}
    assert engine.details == frozenset()
    del module.writers  # a required part missing: the registry refuses it at once
    with pytest.raises(TypeError, match="writers"):
        Engine.of(module)


def test_a_retried_write_returns_the_first_answer_and_writes_once(app, phone):
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    db = db_of(app)
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, _device(app, host))
    event = {"type": "score", "column": 1, "row": "F", "value": 35}
    first = service.submit(db, table, who, dict(event), idem="k1")
    again = service.submit(db, table, who, dict(event), idem="k1")
    assert first == again
    assert db["events"].count_where("game_id = ?", [service.current_game(db, table["id"])["id"]]) == 1


def test_an_entry_is_cleaned_and_applied_once_and_answered_from_its_own_state(app, phone, monkeypatch):
    """The write path does each thing once (issue 26): the entry's event is cleaned and applied
    by the engine once, and the answer and the board after it read the game the transaction
    left (its fold kept), not the events read back and the entry applied again. The path is
    every game's; one game shows it."""
    game, players = "escalero", ("Anna", "Ben")
    entries = [{"type": "score", "column": 1, "row": "F", "value": 35},
               {"type": "score", "column": 1, "row": "1", "value": 3}]
    host = phone()
    token = host.open_table(game, players=players)
    assert host.enter(token, entries[0]).status_code == 200
    engine, calls = ENGINES[game], {"apply": 0, "clean": 0}

    def counted_apply(state, event):
        calls["apply"] += 1
        return engine.apply(state, event)

    real_clean = service.clean_event

    def counted_clean(engine, event):
        calls["clean"] += 1
        return real_clean(engine, event)

    monkeypatch.setitem(ENGINES, game, replace(engine, apply=counted_apply))
    monkeypatch.setattr(service, "clean_event", counted_clean)
    monkeypatch.setattr(gamelog, "clean_event", counted_clean)
    app.extensions["scorekeeper.folds"].clear()
    assert host.get(f"/t/{token}").status_code == 200  # folded again with the counting engine
    calls.update(apply=0, clean=0)
    answer = host.post(f"/t/{token}/entries", {"event": json.dumps(entries[1]), "change": host.board_change(token)},
                       headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "<hx-partial" in answer.get_data(as_text=True)
    assert calls == {"apply": 1, "clean": 1}
    assert host.get(f"/t/{token}").status_code == 200 and calls == {"apply": 1, "clean": 1}
    db = db_of(app)
    row = service.current_game(db, service.by_join_token(db, token)["id"])
    kept = service.load(db, row)
    folded = service.fold(row, service.history_of(db, row["id"]), kept.last_event_id)
    assert len(kept.entries) == 2 and kept.state == folded.state and kept.result == folded.result
    assert kept.entries == folded.entries and kept.history == folded.history


def _device(app, phone) -> str:
    """The device id in a test phone's signed session cookie."""
    cookie = phone.client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value)["device"]


def test_a_failure_inside_a_write_writes_nothing(app, phone):
    """A write is one transaction: whatever raises inside it leaves no row behind, and the
    live streams are not told of a change."""
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    db = db_of(app)
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, _device(app, host))
    before = store.last_change(db, table["id"])

    def half(change: service.Write):
        change.event("entry", {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35})
        raise RuntimeError("the power goes")

    with pytest.raises(RuntimeError):
        service.write(db, table, who, half)
    assert db["events"].count == 0 and store.last_change(db, table["id"]) == before
    assert service.load(db, service.current_game(db, table["id"])).entries == ()


def test_a_long_game_s_correction_is_checked_without_the_write_lock(app, phone, monkeypatch):
    """Correcting an entry folds the whole game again: with 2,000 entries that held SQLite's
    write lock — every table's writes — for 30–70 ms (issue 25). Past DEFER_REFOLDING entries
    the write rolls back, the fold is made outside, and the write is tried again; a misfit is
    refused as before, and a game changed meanwhile is checked again."""
    monkeypatch.setattr(service, "DEFER_REFOLDING", 3)
    host = phone()
    token = host.open_table("euchre", players=("A", "B", "C", "D"), target=1000)
    for maker in "ABCDA":
        assert host.enter(token, {"type": "hand", "maker": maker, "tricks": 3}).status_code == 200
    db = db_of(app)
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, _device(app, host))
    entries = [recorded.id for recorded, _ in service.load(db, service.current_game(db, table["id"])).entries]
    locked = []
    real = service.Played.replaced

    def replaced(played, *args, **kwargs):
        locked.append(db.conn.in_transaction)
        return real(played, *args, **kwargs)

    monkeypatch.setattr(service.Played, "replaced", replaced)
    service.correct(db, table, who, entries[0], {"tricks": 5})
    assert locked == [False]  # once, outside the lock
    played = service.load(db, service.current_game(db, table["id"]))
    assert played.entries[0][1]["tricks"] == 5 and len(played.entries) == 5
    locked.clear()
    with pytest.raises(service.Refused, match="Tricks must be from 0 to 5, not 9"):
        service.correct(db, table, who, entries[1], {"tricks": 9})
    assert locked == [False]
    # another hand comes in while the correction is checked: the game is checked again
    locked.clear()
    monkeypatch.setattr(service.Played, "replaced", lambda played, *args, **kwargs: (
        locked.append(db.conn.in_transaction),
        len(locked) == 1 and host.enter(token, {"type": "hand", "maker": "B", "tricks": 3}),
        real(played, *args, **kwargs))[-1])
    service.correct(db, table, who, entries[2], {"tricks": 4})
    assert locked == [False, False]
    played = service.load(db, service.current_game(db, table["id"]))
    assert played.entries[2][1]["tricks"] == 4 and len(played.entries) == 6
    # on the last attempt there is no deferring: checked inside
    monkeypatch.setattr(service.Played, "replaced", replaced)
    monkeypatch.setattr(service, "WRITE_ATTEMPTS", 1)
    locked.clear()
    service.correct(db, table, who, entries[3], {"tricks": 0})
    assert locked == [True]


def test_a_kaques_reopen_is_one_transaction(app, phone, monkeypatch):
    """Reopening a turn is its undo and the turn put back as a draft, together: a crash
    between the two steps leaves the turn as it was, never lost."""
    host = phone()
    token = host.open_table("kaques", players=("Anna", "Ben"))
    turn = {"type": "turn", "player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]},
                                                         {"dice": [1, 1, 2, 3], "keep": [1, 1]}]}
    assert host.enter(token, turn).status_code == 200
    db = db_of(app)
    table = service.by_join_token(db, token)
    entry = service.load(db, service.current_game(db, table["id"])).entries[-1][0].id

    def crash(self, payload):
        raise RuntimeError("killed between the undo and the draft")

    monkeypatch.setattr(service.Write, "save_draft", crash)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert host.write(f"/t/{token}/kaques/turn", {"action": "reopen", "target": str(entry)}).status_code == 500
    played = service.load(db, service.current_game(db, table["id"]))
    assert [r.id for r, _ in played.entries] == [entry] and played.draft is None  # as it was

    monkeypatch.undo()
    assert host.write(f"/t/{token}/kaques/turn", {"action": "reopen", "target": str(entry)}).status_code == 200
    played = service.load(db, service.current_game(db, table["id"]))
    assert played.entries == () and played.draft["payload"] == {"player": "Anna", "throws": turn["throws"][:1]}


def test_the_board_offers_undo_exactly_when_the_service_allows_it(app, phone):
    """Permissions are decided once (service.undo_refusal): the button and the refusal agree
    for the writer, another player, the host and a stranger."""
    host, anna, ben, stranger = phone(), phone(), phone(), phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    assert anna.enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    db = db_of(app)
    table = service.by_join_token(db, token)
    target = service.load(db, service.current_game(db, table["id"])).entries[-1][0].id
    for device, allowed in ((ben, False), (stranger, False), (anna, True)):
        board = device.get(f"/t/{token}/board").get_data(as_text=True)
        offered = f'"target": {target}' in board and "/undo" in board
        assert offered == allowed
        response = device.write(f"/t/{token}/undo", {"target": str(target)})
        assert (response.status_code == 200) == allowed, response.get_data(as_text=True)


def test_a_freed_seat_no_longer_undoes_its_entry(app, phone):
    host, anna = phone(), phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    anna.join(token, "Anna")
    assert anna.enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    db = db_of(app)
    table = service.by_join_token(db, token)
    seat = next(s for s in service.seats(db, table["id"]) if s["name"] == "Anna")
    entry = service.load(db, service.current_game(db, table["id"])).entries[-1][0].id
    assert host.post(f"/t/{token}/seats/{seat['id']}/free").status_code == 200
    refused = anna.write(f"/t/{token}/undo", {"target": str(entry)})
    assert refused.status_code == 403


def test_the_board_link_cannot_show_the_way_in(app, phone):
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    import re
    board = re.search(r'/b/([\w-]+)"', page).group(1)
    for path in ("qr.svg", "games/1/log.json", "history"):
        assert host.get(f"/b/{board}/{path}").status_code == 404
        assert host.get(f"/t/{token}/{path}").status_code == 200
    assert json.loads(host.get(f"/t/{token}/games/1/log.json").get_data())["game"] == "escalero"


def test_two_spellings_of_one_game_are_one_normal_game():
    """Names in another case, a stake written otherwise, a value instead of the dice that make it."""
    from scorekeeper.gamelog import FORMAT, fold, read_header
    doc = {"format": FORMAT, "game": "escalero", "players": ["Anna", "Ben"], "rules": {"stake": "0.50"},
           "events": [{"type": "score", "player": "Anna", "column": 1, "row": "6", "dice": [6, 6, 6, 6, 6]}]}
    copy = {**doc, "players": ["anna", "ben"], "rules": {"stake": "0.5", "currency": "EUR"},
            "events": [{"type": "score", "player": "ANNA", "column": 1, "row": "6", "value": 30}]}
    first, second = (service.normal_game(read_header(d), fold(read_header(d), d["events"])) for d in (doc, copy))
    assert first == second and first["records"]["entries"][0]["value"] == 30
