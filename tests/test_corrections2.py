"""Corrections and undos as a pub table makes them, from several phones at once (the
corrections helper): who is told what, and that nothing counts twice."""

from __future__ import annotations

import html
import json
import re

from scorekeeper import service, store


def said(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def played_of(app, token):
    db = store.connect(app.config["DATABASE"])
    return service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))


def test_an_entry_made_as_the_host_corrects_an_older_one_is_told_of_the_correction(phone, app):
    """The host corrects Ben's entry three back while Ben enters his turn on the same board:
    Ben was told "The last entry was undone or corrected meanwhile", of the last entry, which
    nobody touched. He is told who corrected an entry; his turn is not written, the
    correction is, once."""
    host, ben, carla = phone(), phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben", "Carla"), stake="0.10")
    host.join(token, "Anna")
    ben.join(token, "Ben")
    carla.join(token, "Carla")
    for device, name, box, value in ((host, "Anna", "1", 3), (ben, "Ben", "2", 6), (carla, "Carla", "3", 9),
                                     (host, "Anna", "2", 4)):
        assert device.enter(token, {"type": "score", "player": name, "box": box, "value": value}).status_code == 200
    bens = played_of(app, token).entries[1][0].id
    seen = ben.board_change(token)
    fixed = host.write(f"/t/{token}/correct", {"target": str(bens), "event": json.dumps({"value": 8})}, change=seen)
    assert fixed.status_code == 200
    late = ben.enter(token, {"type": "score", "player": "Ben", "box": "3", "value": 12}, change=seen)
    assert late.status_code == 409
    assert "Anna corrected an entry meanwhile: check the board, then tap again." in said(late)
    assert "last entry" not in said(late)
    played = played_of(app, token)
    assert [event["value"] for _, event in played.entries] == [3, 8, 9, 4]
    # in his own language
    ben.speaking("pl")
    late = ben.enter(token, {"type": "score", "player": "Ben", "box": "3", "value": 12}, change=seen)
    assert late.status_code == 409 and "corrected" not in said(late) and "Anna" in said(late)


CLASSIC = ("1", "2", "3", "4", "5", "6", "three", "four", "full", "small", "large", "yatzy", "chance")


def test_a_rematch_tapped_as_the_host_corrects_the_finished_game_is_told_of_the_correction(phone, app):
    """After the game the host corrects a box (the settlement changes) while Ben taps Rematch on
    the settlement he saw: he was told to "enter it again"; he is told the host corrected an
    entry and to tap again, and his next tap starts the rematch."""
    host, ben = phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben"), stake="0.10", form="classic")
    host.join(token, "Anna")
    ben.join(token, "Ben")
    for box in CLASSIC:
        assert host.enter(token, {"type": "score", "player": "Anna", "box": box, "value": 0}).status_code == 200
        value = 5 if box == "5" else 0
        assert ben.enter(token, {"type": "score", "player": "Ben", "box": box, "value": value}).status_code == 200
    played = played_of(app, token)
    assert played.finished and played.result["money"] == {"Anna": "-0.50", "Ben": "0.50"}
    seen = ben.board_change(token)
    annas = played.entries[0][0].id
    assert host.write(f"/t/{token}/correct", {"target": str(annas), "event": json.dumps({"value": 4})},
                      change=seen).status_code == 200
    assert played_of(app, token).result["money"] == {"Anna": "-0.10", "Ben": "0.10"}
    late = ben.write(f"/t/{token}/rematch", change=seen)
    assert late.status_code == 409
    assert "Anna corrected an entry meanwhile: check the board, then tap again." in said(late)
    assert "€0.10" in said(ben.get(f"/t/{token}/board"))
    assert ben.write(f"/t/{token}/rematch").status_code == 200
    assert not played_of(app, token).entries  # the rematch


def the_correction_s_title(tray: str) -> str:
    found = re.search(r'<p class="picker-title"[^>]*>(.*?)</p>', tray, re.S)
    return " ".join(html.unescape(found.group(1)).split())


def test_the_box_being_corrected_is_named_not_the_player_corrected(phone, app):
    """A written box tapped to correct it said "Anna korrigieren: Zweier" on a German phone and
    "Corregir a Anna: Doses" on a Spanish one: to correct Anna, not her box. The title names
    what is corrected, as the Polish one did ("Popraw: Anna, Dwójki")."""
    host = phone()
    token = host.open_table("yatzy", ("Anna", "Ben"))
    assert host.enter(token, {"type": "score", "player": "Anna", "box": "2", "value": 4}).status_code == 200
    entry = str(played_of(app, token).entries[0][0].id)
    titles = {lang: the_correction_s_title(host.speaking(lang).tray(token, fix=entry)) for lang in ("de", "es", "pl")}
    assert titles == {"de": "Korrigieren: Anna, Zweier", "es": "Corregir: Anna, Doses", "pl": "Popraw: Anna, Dwójki"}
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert 'aria-label="Popraw: Anna, Dwójki, 4"' in board
    board = host.speaking("de").get(f"/t/{token}/board").get_data(as_text=True)
    assert 'aria-label="Korrigieren: Anna, Zweier, 4"' in board


def test_the_cell_being_corrected_is_named_not_the_player_corrected(phone, app):
    """The same on the dice game's sheet: "Ben korrigieren: Kolonne 1, Reihe 2", "Corregir a
    Ben: columna 1, fila 2"."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben"))
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "2", "value": 4}).status_code == 200
    entry = str(played_of(app, token).entries[0][0].id)
    titles = {lang: the_correction_s_title(host.speaking(lang).tray(token, fix=entry)) for lang in ("de", "es")}
    assert titles == {"de": "Korrigieren: Anna, Kolonne 1, Reihe 2", "es": "Corregir: Anna, columna 1, fila 2"}
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert 'aria-label="Corregir: Anna, columna 1, fila 2: 4"' in board


def tray_state(device, token, **tapped) -> str:
    return re.search(r'<form id="tray"[^>]*data-state="([^"]+)"', device.tray(token, tapped)).group(1)


def test_the_host_correcting_an_old_box_keeps_the_dice_the_player_on_turn_tapped(phone, app):
    """Ben had tapped three dice when the host corrected Anna's box two entries back: the
    live board swapped his tray for a new one (its state named the game's last event) and his
    dice were gone. The tray's state names the entries that count: a correction leaves it (and
    the phone keeps the tray as tapped: static/app.js); an undo or an entry still changes it."""
    host, ben = phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben"), stake="0.10")
    host.join(token, "Anna")
    ben.join(token, "Ben")
    for device, name, box, value in ((host, "Anna", "1", 3), (ben, "Ben", "1", 2), (host, "Anna", "2", 4)):
        assert device.enter(token, {"type": "score", "player": name, "box": box, "value": value}).status_code == 200
    tapping = tray_state(ben, token, dice="1,2,3")
    annas = played_of(app, token).entries[0][0].id
    assert host.write(f"/t/{token}/correct", {"target": str(annas), "event": json.dumps({"value": 2})}).status_code == 200
    assert tray_state(ben, token, dice="1,2,3") == tapping
    last = played_of(app, token).entries[-1][0].id
    assert host.write(f"/t/{token}/undo", {"target": str(last)}).status_code == 200
    assert tray_state(ben, token, dice="1,2,3") != tapping


def test_the_host_correcting_an_old_cell_keeps_the_dice_the_player_on_turn_tapped(phone, app):
    host, ben = phone(), phone()
    token = host.open_table("escalero", ("Anna", "Ben"), stake="0.10")
    host.join(token, "Anna")
    ben.join(token, "Ben")
    for device, name, row, value in ((host, "Anna", "1", 3), (ben, "Ben", "1", 2), (host, "Anna", "2", 4)):
        assert device.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                    "value": value}).status_code == 200
    tapping = tray_state(ben, token, dice="1,2,3")
    annas = played_of(app, token).entries[0][0].id
    assert host.write(f"/t/{token}/correct", {"target": str(annas), "event": json.dumps({"value": 2})}).status_code == 200
    assert tray_state(ben, token, dice="1,2,3") == tapping
    assert ben.enter(token, {"type": "score", "player": "Ben", "column": 1, "row": "2", "value": 4}).status_code == 200
    assert tray_state(ben, token, dice="1,2,3") != tapping


def test_the_host_correcting_an_older_turn_keeps_the_faces_the_player_on_turn_tapped(phone, app):
    """The same in the race to the target: Anna says her turn was 400, not 350, while Carla taps
    her throw's faces; and a correction that ends the game (Ben's last turn to the target)
    still brings the finished game's tray."""
    host, carla = phone(), phone()
    token = host.open_table("kaques", ("Anna", "Ben", "Carla"), target="2000")
    host.join(token, "Anna")
    carla.join(token, "Carla")
    for name, points in (("Anna", 350), ("Ben", 400)):
        assert host.enter(token, {"type": "turn", "player": name, "points": points}).status_code == 200
    tapping = tray_state(carla, token, open="1", dice="1,5,2")
    annas, bens = (recorded.id for recorded, _ in played_of(app, token).entries)
    assert host.write(f"/t/{token}/correct", {"target": str(annas), "event": json.dumps({"points": 400})}).status_code == 200
    assert tray_state(carla, token, open="1", dice="1,5,2") == tapping
    assert host.write(f"/t/{token}/correct", {"target": str(bens), "event": json.dumps({"points": 2000})}).status_code == 200
    assert played_of(app, token).finished
    assert tray_state(carla, token, open="1", dice="1,5,2") != tapping


def test_a_turn_set_off_the_steps_of_50_is_refused_in_the_phone_s_words(phone, app):
    """The host set Anna's older turn to 375 in the correction's stepper (typed on the keypad):
    a Polish phone read "Points musi być wielokrotnością 50, 0 lub więcej, a nie 375", the
    log's field name in English. It reads what the tray says of a total, and nothing is
    written."""
    host = phone()
    token = host.open_table("kaques", ("Anna", "Ben"), target="2000")
    for name, points in (("Anna", 350), ("Ben", 400)):
        assert host.enter(token, {"type": "turn", "player": name, "points": points}).status_code == 200
    annas = played_of(app, token).entries[0][0].id
    host.speaking("pl")
    refused = host.write(f"/t/{token}/kaques/turn", {"action": "correct", "target": str(annas), "points": "375"})
    assert refused.status_code == 400
    assert "Wpisz punkty tury: wielokrotność 50, np. 350." in said(refused) and "Points" not in said(refused)
    assert played_of(app, token).entries[0][1]["points"] == 350
    assert len(played_of(app, token).history) == 2


def test_an_undo_or_correction_that_crosses_an_undo_is_not_told_to_enter_it_again(phone, app):
    """Ben taps Undo on his box as the host undoes it: he was told "The last entry was undone or
    corrected meanwhile: check the board and enter it again", and entered again what both had
    taken back. He is told who undid it and that nothing was changed; so is a correction of it."""
    host, ben = phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben"))
    host.join(token, "Anna")
    ben.join(token, "Ben")
    assert host.enter(token, {"type": "score", "player": "Anna", "box": "1", "value": 3}).status_code == 200
    assert ben.enter(token, {"type": "score", "player": "Ben", "box": "1", "value": 2}).status_code == 200
    bens = played_of(app, token).entries[-1][0].id
    seen = ben.board_change(token)
    assert host.write(f"/t/{token}/undo", {"target": str(bens)}, change=seen).status_code == 200
    undo = ben.write(f"/t/{token}/undo", {"target": str(bens)}, change=seen)
    fix = ben.write(f"/t/{token}/correct", {"target": str(bens), "event": json.dumps({"value": 4})}, change=seen)
    for refused in (undo, fix):
        assert refused.status_code == 409
        assert "Anna undid the last entry meanwhile: check the board. Nothing was changed." in said(refused)
    assert len(played_of(app, token).entries) == 1 and len(played_of(app, token).history) == 3
    ben.speaking("pl")
    undo = ben.write(f"/t/{token}/undo", {"target": str(bens)}, change=seen)
    assert "W międzyczasie cofnięto ostatni wpis (Anna) — sprawdź tablicę. Nic nie zmieniono." in said(undo)
