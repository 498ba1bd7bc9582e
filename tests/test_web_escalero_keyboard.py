"""Escalero by keyboard and screen reader through Flask's test client: what the markup must
carry for the focus to keep its place when the server swaps the tray in."""

import html
import json
import re


def test_served_keeps_the_focus_when_the_tray_comes_again(phone):
    """Space on "served" asks for the tray again, and the box went with the tray it was in: the
    focus fell back to the tray's top ("Your turn!"), and the keyboard player had to Tab past
    the thrown dice again to reach the options. The box has an id the new tray keeps (htmx
    gives a focus back by id), served or not."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone()
    anna.join(token, "Anna")
    for served in ("", "1"):
        tray = anna.tray(token, dice="6,6,6,6,6", served=served)
        box = re.search(r'<input type="checkbox" name="served"[^>]*>', tray)[0]
        assert re.search(r'\bid="served"', box), box
        assert ("checked" in box) == bool(served)
        assert tray.count('id="served"') == 1


def test_a_cross_out_is_told_in_words_not_as_a_sign(phone):
    """A cross-out was told to the other phones as "Anna: 6 in column 1: ✕ (1-2-3-4-5)", and a
    screen reader read the sign out as "multiplication x" ("Malzeichen"). It is told in words;
    the history row keeps its ✕ for the eye."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna, ben = phone(), phone().speaking("de")
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    before = ben.board_change(token)
    assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:6", "value": "0"}).status_code == 200
    assert ben.heard(token, before).startswith("Anna: 6 in Kolonne 1: gestrichen. ")
    assert host.heard(token, before).startswith("Anna: 6 in column 1: crossed out. ")
    assert "✕" in re.search(r'<li id="h\d+".*?</li>', ben.get(f"/t/{token}/board").get_data(as_text=True), re.S)[0]


def test_the_values_of_a_cell_take_the_focus_named_by_what_they_are_for(phone):
    """Enter on a cell (or on a written one, to correct it) opened the values in the tray, at
    the screen's foot, and the focus stayed on the cell: a screen reader heard nothing open,
    and the values were a Tab and an Undo away. The values take the focus as they come (the
    tray's answer to this phone's own tap; a live update never brings them), named by their
    title: "Correct Anna: column 1, row 6"."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone()
    anna.join(token, "Anna")
    for fields, title in (({"pick": "0:1:6"}, "Column 1 · 6"), ({}, None)):
        tray = anna.tray(token, fields)
        picker = re.search(r'<dialog class="picker"[^>]*>', tray)
        if title is None:
            assert picker is None and "autofocus" not in tray
            continue
        assert 'tabindex="-1"' in picker[0] and "autofocus" in picker[0], picker[0]
        named = re.search(r'aria-labelledby="([\w-]+)"', picker[0])[1]
        assert re.search(rf'<p class="picker-title" id="{named}">{re.escape(title)}</p>', tray)
    assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:6", "value": "0"}).status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', anna.get(f"/t/{token}/board").get_data(as_text=True))[1]
    tray = anna.tray(token, fix=entry)
    assert re.search(r'<dialog class="picker" open [^>]*aria-labelledby="picker-title" tabindex="-1" autofocus', tray)
    assert '<p class="picker-title" id="picker-title">Correct Anna: column 1, row 6</p>' in tray
    assert "autofocus" not in anna.get(f"/t/{token}/board").get_data(as_text=True)


def test_escape_closes_a_cell_s_values_and_gives_the_focus_back_to_the_cell(phone):
    """Escape on a cell's values (opened by Enter on the cell) did nothing: they were a <div>,
    and a keyboard player had to find Cancel, after which the focus fell to the tray, not the
    cell they came from. The values are a <dialog> a close request (Escape, a phone's back
    gesture) closes, asking for the tray with what is tapped, as Cancel does; both name the
    cell the focus goes back to (a button of the board), to enter and to correct."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone()
    anna.join(token, "Anna")
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    for fields, cell, button in (({"pick": "0:1:6"}, "c0-1-6", r'<button form="tray" name="pick" value="0:1:6"'),
                                 ({"fix": None}, "c0-1-6", r'<button form="tray" name="fix" value="\d+"')):
        if "fix" in fields:
            assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:6", "value": "0"}).status_code == 200
            board = anna.get(f"/t/{token}/board").get_data(as_text=True)
            fields = {"fix": re.search(r'name="fix" value="(\d+)"', board)[1]}
        tray = anna.tray(token, fields)
        picker = re.search(r'<dialog class="picker" open closedby="closerequest"[^>]*>', tray)[0]
        assert f'data-back="#{cell} button"' in picker, picker
        assert 'hx-trigger="close"' in picker and 'hx-include="#tray"' in picker and 'hx-target="#tray"' in picker
        assert re.search(r'<button class="button" data-back="#c0-1-6 button">Cancel</button>', tray)
        assert re.search(rf'<td id="{cell}"[^>]*>{button}', board), "the cell to go back to is a button of the board"


def test_the_values_cross_out_is_named_in_words(phone):
    """The values' cross-out ("✕ streichen") was read "Malzeichen streichen", as the options'
    was before they were named in words. Its name is the word alone, to enter and to correct."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone().speaking("de")
    anna.join(token, "Anna")
    tray = anna.tray(token, pick="0:1:6")
    assert re.search(r'<summary class="button" aria-label="streichen">✕ streichen</summary>', tray), tray
    assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:6", "value": "12"}).status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', anna.get(f"/t/{token}/board").get_data(as_text=True))[1]
    zero = re.search(r'<button type="button" class="button value zero"[^>]*>', anna.tray(token, fix=entry))[0]
    assert 'aria-label="streichen"' in zero


def test_a_thrown_poker_die_is_named_by_the_face_it_shows(phone):
    """With poker dice a thrown ace read "take back the 6" (the face's number in the log) while
    it showed A, and on a German phone "6 zurücknehmen" under a K: a screen reader named a die
    nobody saw. It is named by the face it shows."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"), dice_faces="poker")
    anna = phone()
    anna.join(token, "Anna")
    tray = anna.tray(token, dice="6,5,1")
    taken = re.findall(r'<button type="button" class="die small" data-take="\d" aria-label="([^"]+)">([^<]+)</button>', tray)
    assert taken == [("take back the A", "A"), ("take back the K", "K"), ("take back the 9", "9")], taken
    anna.speaking("de")
    assert 'aria-label="B zurücknehmen">B<' in anna.tray(token, dice="3")


def test_a_picture_row_s_values_are_named_in_words_not_signs(phone):
    """A picture row's values read "3× → 12": a screen reader said "3 multiplication sign right
    arrow 12" ("3 Malzeichen Pfeil nach rechts 12"). Each is named in words, in the phone's
    language ("3 Würfel: 12"); the button still shows the signs. So when correcting one."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone().speaking("de")
    anna.join(token, "Anna")
    tray = anna.tray(token, pick="0:1:4")
    # a combination's values are named by what they show ("25 serviert")
    assert re.search(r'<button type="button" class="button value" hx-post', anna.tray(token, pick="0:1:P"))
    assert re.search(r'<button type="button" class="button value" aria-label="3 Würfel: 12"[^>]*>\s*3× → 12</button>', tray), tray
    assert 'aria-label="1 Würfel: 4"' in tray
    assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:4", "value": "8"}).status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', anna.get(f"/t/{token}/board").get_data(as_text=True))[1]
    fixing = anna.tray(token, fix=entry)
    assert re.search(r'<button type="button" class="button value" aria-label="3 Würfel: 12"', fixing)
    assert re.search(r'aria-label="2 Würfel: 8" aria-current="true"', fixing)


def test_a_correction_s_row_is_heard_as_was_and_now(phone):
    """A correction's history row, "corrected #1: <s>6 in column 1: 12</s> → 6 in column 1: 18",
    was read "… 12 right arrow … 18", the struck-out entry as if it stood (a screen reader says
    nothing of a strike-through). It hears "was … now …" ("vorher … jetzt …"); the eye's arrow
    is hidden from it."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone().speaking("de")
    anna.join(token, "Anna")
    assert anna.write(f"/t/{token}/escalero/score", {"cell": "0:1:6", "value": "12"}).status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', anna.get(f"/t/{token}/board").get_data(as_text=True))[1]
    fixed = anna.write(f"/t/{token}/correct", {"target": entry, "event": json.dumps({"value": 18, "dice": None, "served": None})})
    assert fixed.status_code == 200
    row = re.search(r'<li id="h\d+" class="correct">.*?</li>', anna.get(f"/t/{token}/board").get_data(as_text=True), re.S)[0]
    heard = " ".join(html.unescape(re.sub(r"<[^>]+>", "", re.sub(r'<span aria-hidden="true">.*?</span>', "", row))).split())
    assert "→" not in heard, heard
    assert re.search(r"#1 korrigiert: vorher 6 in Kolonne 1: 12 jetzt 6 in Kolonne 1: 18", heard), heard
