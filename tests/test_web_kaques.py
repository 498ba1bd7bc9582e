"""Jaques le Kaques at the table: turns entered throw by throw as a shared draft, the calls on
every phone, the risk meter, quick totals, undo and corrections, the chart, and a whole game to
10 000 played from three phones whose exported log replays to the same standings."""

from __future__ import annotations

import gzip
import html
import io
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask_babel import force_locale

from scorekeeper.cli import cli
from scorekeeper.games import kaques
from scorekeeper.web.games.kaques import _nice_ceiling, chance
from tests.games.kaques import kept_indexes
from tests.support import form_fields, writes
from tests.test_web_board import answered, parts_make_the_board, replaced


@pytest.fixture
def table(phone):
    """Anna (the host, seated), Ben and Cleo each on their own phone."""
    anna, ben, cleo = phone(), phone(), phone()
    token = anna.open_table("kaques", ("Anna", "Ben", "Cleo"))
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    cleo.join(token, "Cleo")
    return token, anna, ben, cleo


def T(dice, keep):
    return {"dice": dice, "keep": keep}


def step(device, token, action, throw=None, change=None, **fields):
    """A step of the turn as the tray posts it (POST …/kaques/turn): `action`, the throw's dice
    and the dice kept (when given), with the change the phone's board shows."""
    data = {"action": action, **{k: str(v) for k, v in fields.items()}}
    if throw is not None:
        data["dice"] = ",".join(map(str, throw["dice"]))
        data["keep"] = kept_indexes(throw["dice"], throw["keep"])
    return device.write(f"/t/{token}/kaques/turn", data, change=change)


def draft(device, token, throws):
    """The turn in progress gets these throws, each kept and thrown again; the last answer."""
    for throw in throws:
        response = step(device, token, "again", throw)
        if response.status_code != 200:
            return response
    return response


def tray_for(device, token, throw):
    """The phone's tray with a throw tapped in: its faces, then the dice kept."""
    keep = kept_indexes(throw["dice"], throw["keep"])
    return device.tray(token, dice=",".join(map(str, throw["dice"])), keep=keep, was=",".join(keep))


def tap(device, token, throw, action):
    """A throw tapped into the tray and one of the tray's buttons (`again`, `stop`) pressed."""
    tray = tray_for(device, token, throw)
    button = [b for b in writes(tray, "/kaques/turn") if b["vals"]["action"] == action]
    assert button, f"no {action} in the tray"
    return device.press(token, button[0], form=tray)


def board(device, token):
    response = device.get(f"/t/{token}/board")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def banner(html):
    found = re.search(r'<div id="kq-banner" class="kq-banner [^"]*" data-flash="([^"]+)"[^>]*>(.*?)</div>', html, re.S)
    if not found:
        return None
    call = re.search(r'<b class="kq-banner-call">(.*?)</b>', found.group(2)).group(1)
    return {"key": found.group(1), "call": call, "html": found.group(2)}


def message(response):
    return html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True))).strip()


def pad(html):
    found = re.search(r'<section class="kq-pad"(.*?)</section>', html, re.S)
    return found.group(1) if found else None


def actions(html, *wanted):
    """The tray's and the board's buttons of a turn (POST …/kaques/turn) by their action."""
    return [b for b in writes(html, "/kaques/turn") if b["vals"].get("action") in wanted]


# --- a turn entered throw by throw ---------------------------------------------------------------

def test_throws_show_live_on_every_phone_with_the_risk_meter(table):
    token, anna, ben, cleo = table
    first = T([1, 5, 2, 3, 4, 6], [1, 5])
    tray = tray_for(anna, token, first)
    # what the keep makes of the turn, and the risk of throwing again, before anything is sent
    assert "Keep +150 · turn 150" in tray and "Throwing 4 dice: 15.7% chance of Le Kaque! (17/108)" in tray
    assert tap(anna, token, first, "again").status_code == 200
    seen = board(ben, token)
    assert "Anna's turn" in seen and "Turn so far <b>150</b>" in seen
    assert "Next throw: 4 dice" in seen and "15.7% chance of Le Kaque!" in seen and "(17/108)" in seen
    assert "150 at stake" in seen
    assert pad(seen) is None and not actions(seen, "again", "stop", "total")  # Ben only watches
    assert banner(seen) is None  # nothing called yet
    mine = pad(board(anna, token))
    assert 'data-phase="faces"' in mine and "Throw 2: tap the 4 dice you see" in mine

    assert tap(anna, token, T([2, 2, 2, 3], [2, 2, 2]), "again").status_code == 200
    for device in (ben, cleo, anna):
        shown = banner(board(device, token))
        assert shown["call"] == "Grandmère" and "Anna" in shown["html"]
    assert "66.7%" in board(cleo, token)  # one die left: two in three throws kaque


def test_an_illegal_keep_is_refused_and_changes_nothing(table):
    token, anna, ben, _ = table
    draft(anna, token, [T([1, 5, 2, 3, 4, 6], [1])])
    before = board(ben, token)
    for throw, why in [
        (T([2, 2, 3, 4, 5], [2, 2]), "Throw 2: a kept 2 scores only in a triple."),
        (T([2, 3, 4, 5], [5]), "Tap the 5 dice you see first."),
        (T([1, 2, 3, 4, 5], []), "Throw 2: 1-2-3-4-5 scores, so keep at least one scoring die."),
        (T([2, 2, 3, 4, 6], []), "Throw 2 scores nothing: Le Kaque! ends the turn, so enter it as the turn."),
    ]:
        response = step(anna, token, "again", throw)
        assert response.status_code in (400, 409), throw
        assert message(response) == why
    # the tray offers nothing to send for a keep that does not score
    tray = tray_for(anna, token, T([2, 2, 3, 4, 5], [2, 2]))
    assert "That keep does not score." in tray and not actions(tray, "again", "stop")
    response = step(anna, token, "stop", T([2, 2, 3, 4, 5], [2, 2]))
    assert response.status_code == 409 and message(response) == "Throw 2: a kept 2 scores only in a triple."
    response = anna.enter(token, {"type": "turn", "throws": [T([1, 5, 2, 3, 4, 6], [1]), T([2, 2, 3, 4, 5], [2, 2])]})
    assert response.status_code == 409 and message(response) == "Throw 2: a kept 2 scores only in a triple."
    assert "Turn so far <b>100</b>" in board(ben, token)
    assert re.sub(r'data-change="\d+"', "", board(ben, token)) == re.sub(r'data-change="\d+"', "", before)


def test_a_keep_of_thousands_of_digits_is_no_keep(table):
    """A die's place as 4,301 digits: int() refuses it (Python's limit), and the turn's POST
    and the tray answered 500. It names no die now: refused in words, the tray as without it."""
    token, anna, ben, _ = table
    huge = "9" * 4301
    response = anna.write(f"/t/{token}/kaques/turn", {"action": "again", "dice": "1,2,3,4,6,6", "keep": huge})
    assert response.status_code in (400, 409) and message(response)
    assert anna.tray(token, dice="1,2,3,4,6,6", keep=huge, was=huge)


def test_only_the_player_on_turn_or_the_host_enters(table):
    token, anna, ben, cleo = table
    response = step(ben, token, "again", T([1, 5, 2, 3, 4, 6], [1]))
    assert response.status_code == 403 and "not your turn" in message(response)
    waiting = ben.tray(token, dice="1,5,2,3,4,6")  # Ben's tray waits, whatever he taps
    assert "Anna's turn. Yours comes after." in waiting and not writes(waiting)
    response = anna.enter(token, {"type": "turn", "player": "Ben", "points": 300})  # the host, but not Ben's turn
    assert response.status_code == 409 and message(response) == "It is Anna's turn, not Ben's."
    anna.enter(token, {"type": "turn", "points": 300})
    assert pad(board(ben, token)) and not pad(board(cleo, token))
    assert "Entering for Ben" in board(anna, token)  # the host may enter for anyone
    assert step(anna, token, "again", T([5, 2, 3, 4, 6, 6], [5])).status_code == 200
    assert "entered by host" not in board(cleo, token)
    assert "entered by Anna" in board(cleo, token)


def test_a_step_sent_again_after_later_steps_counts_once(table):
    """A step's answer is lost on bad Wi-Fi and the offline queue sends it again after the
    phone's later steps: it was applied a second time — Anna's "throw again", sent again after
    her "back" and after the host's "stop", put her throw on the table again, on Ben's turn."""
    token, anna, ben, cleo = table
    first = T([1, 5, 2, 3, 4, 6], [1])
    change = anna.board_change(token)
    again = {"action": "again", "dice": "1,2,3,4,5,6", "keep": kept_indexes(first["dice"], first["keep"]),
             "idem": f"{change}-again"}
    assert anna.write(f"/t/{token}/kaques/turn", again, change=change).status_code == 200
    assert "Turn so far <b>100</b>" in board(ben, token)
    assert step(anna, token, "back").status_code == 200  # the throw taken back
    assert "Turn so far" not in board(ben, token)
    assert anna.write(f"/t/{token}/kaques/turn", again, change=change).status_code == 200  # answered as done
    assert "Turn so far" not in board(ben, token)
    assert step(anna, token, "again", first).status_code == 200
    assert step(anna, token, "stop", T([2, 2, 2, 3, 4], [2, 2, 2])).status_code == 200  # Ben's turn now
    assert "Ben's turn" in board(cleo, token) and "Turn so far" not in board(cleo, token)
    assert anna.write(f"/t/{token}/kaques/turn", again, change=change).status_code == 200
    seen = board(cleo, token)
    assert "Ben's turn" in seen and "Turn so far" not in seen


def test_fertisch_banks_the_turn_and_clears_the_draft(table):
    token, anna, ben, cleo = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([2, 2, 2, 3], [2, 2, 2])]
    draft(anna, token, throws[:1])
    tray = tray_for(anna, token, throws[1])
    stop = actions(tray, "stop")[0]
    assert stop["text"] == "fertisch! · 350"
    change = anna.board_change(token)
    assert anna.press(token, stop, form=tray, change=change).status_code == 200
    seen = board(cleo, token)
    shown = banner(seen)
    assert shown["call"] == "fertisch!" and "Grandmère" in shown["html"]
    assert "Ben's turn" in seen and "Turn so far" not in seen  # the draft went with the turn
    assert re.search(r'<b>Anna</b>: fertisch!</span> <b class="plus">\+350</b>', seen)
    assert re.search(r'<b class="kq-pts">350</b>', seen)
    # a double tap on fertisch! (the same button, board and key) cannot bank the turn twice
    anna.press(token, stop, form=tray, change=change)
    assert len(re.findall(r'<li id="h\d+"', board(cleo, token))) == 1
    # nor can the same turn, sent again as a new entry
    again = anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws})
    assert again.status_code == 409 and message(again) == "It is Ben's turn, not Anna's."


def test_le_kaque_grand_kaque_and_the_knowing_looks(table):
    token, anna, ben, cleo = table
    tray = tray_for(anna, token, T([2, 3, 4, 6, 6, 2], []))
    assert 'data-phase="kaque"' in tray and "Nothing to keep: Le Kaque!" in tray
    assert anna.press(token, actions(tray, "stop")[0], form=tray).status_code == 200
    shown = banner(board(ben, token))
    assert shown["call"] == "Le Kaque!" and "knowing looks" not in shown["html"]
    # Ben keeps all six (Oh, Lálá!), goes on and kaques: Grand Kaque!, after passing Grandmère
    assert tap(ben, token, T([5] * 6, [5] * 6), "again").status_code == 200
    shown = banner(board(cleo, token))
    assert shown["call"] == "Oh, Lálá!" and "Grandmère" in shown["html"]
    assert "<b>Oh, Lálá!</b> all six again" in board(cleo, token)
    assert "Oh, Lálá! Throw 2: tap the 6 dice you see" in ben.tray(token)
    tray = tray_for(ben, token, T([2, 3, 4, 6, 6, 4], []))
    # his own pad makes the call the table's banner makes (it said "Nothing to keep: Le Kaque!")
    assert "Nothing to keep: Grand Kaque!" in tray and "Grand Kaque! — enter it" in tray
    assert "Le Kaque!" not in re.search(r'<section class="kq-pad".*?</section>', tray, re.S).group(0)
    assert ben.press(token, actions(tray, "stop")[0], form=tray).status_code == 200
    for device in (anna, ben, cleo):
        shown = banner(board(device, token))
        assert shown["call"] == "Grand Kaque!"
        assert "the table's knowing looks" in shown["html"]
    assert "👀 1" in board(anna, token)


def test_undo_the_last_throw_of_a_turn_in_progress(table):
    token, anna, ben, _ = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([1, 2, 3, 4], [1])]
    draft(anna, token, throws)
    mine = anna.tray(token)
    back = actions(mine, "back")
    assert back and not actions(ben.tray(token), "back")  # Ben's phone does not enter Anna's turn
    answer = anna.press(token, back[0], form=mine)
    assert answer.status_code == 200
    # the answer's tray shows the throw taken back, its keep to choose again
    tray = re.search(r'<form id="tray".*?</form>', answer.get_data(as_text=True), re.S).group(0)
    assert form_fields(tray) == {"points": [""], "open": ["1"], "dice": ["1,2,3,4"], "was": ["0"], "keep": ["0"]}
    assert 'data-phase="keep"' in tray and "Throw 2: tap the dice you keep" in tray
    assert "Turn so far <b>150</b>" in board(ben, token)
    # the first throw too: the draft is dropped
    assert anna.press(token, actions(anna.tray(token), "back")[0]).status_code == 200
    assert "Turn so far" not in board(ben, token) and "Waiting for the first throw" in board(ben, token)
    refused = step(anna, token, "back")
    assert refused.status_code == 409 and message(refused) == "There is no throw to take back."


def test_undo_last_throw_of_a_finished_turn_reopens_it(table):
    token, anna, ben, cleo = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([2, 2, 3, 4], [])]  # mistyped: a Kaque
    anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws})
    change = anna.board_change(token)
    button = actions(board(anna, token), "reopen")
    assert button, "Anna may take back her last throw"
    button = button[0]
    assert button["text"] == "Undo last throw" and button["vals"]["target"]
    assert not actions(board(cleo, token), "reopen")  # not Cleo's entry
    refused = cleo.press(token, button)
    assert refused.status_code == 403
    done = anna.press(token, button, change=change)
    assert done.status_code == 200
    # the answer's tray is back at the throw that was taken back: its faces to tap again
    tray = re.search(r'<form id="tray".*?</form>', done.get_data(as_text=True), re.S).group(0)
    assert 'data-phase="faces"' in tray and form_fields(tray)["dice"] == [""]
    seen = board(ben, token)
    assert "Anna's turn" in seen and "Turn so far <b>150</b>" in seen
    # a retried request (the same button, key and board) changes nothing more, even after Anna went on
    draft(anna, token, [T([2, 2, 3, 5], [5])])
    assert anna.press(token, button, change=change).status_code == 200
    assert "Turn so far <b>200</b>" in board(ben, token)
    anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws[:1] + [T([2, 2, 3, 5], [5])]})
    assert re.search(r'<b class="kq-pts">200</b>', board(ben, token))


def test_a_quick_total_and_its_undo(table):
    token, anna, ben, cleo = table
    mine = anna.tray(token)
    # the tray takes a turn's total in one go: a number and fertisch!, or Le Kaque! at 0
    assert "Your turn's total" in mine and 'name="points"' in mine
    fertisch, kaque = actions(mine, "total")
    assert fertisch["text"] == "fertisch!" and "points" not in fertisch["vals"]
    assert kaque["text"] == "Le Kaque!" and kaque["vals"]["points"] == 0
    bad = anna.press(token, fertisch, form=anna.tray(token, points="75"))
    assert bad.status_code == 400 and message(bad) == "Type the turn's points: a multiple of 50, like 350."
    empty = anna.press(token, fertisch, form=mine)
    assert empty.status_code == 400 and message(empty) == "Type the turn's points: a multiple of 50, like 350."
    typed = anna.tray(token, points="450")
    assert form_fields(typed)["points"] == ["450"]
    assert anna.press(token, fertisch, form=typed).status_code == 200
    seen = board(ben, token)
    assert banner(seen)["call"] == "fertisch!" and "Grandmère" in banner(seen)["html"]
    assert '<small class="muted">total</small>' in seen
    mine = board(anna, token)
    undo = [b for b in writes(mine, "/undo") if b["text"] == "Undo"]
    assert undo and not actions(mine, "reopen")  # a total has no throws to reopen
    assert anna.press(token, undo[0]).status_code == 200
    assert "Anna's turn" in board(cleo, token)


def test_a_retried_fertisch_answers_like_the_first(table):
    """The offline queue sends a fertisch! again: the key answers it as the first (the turn is
    built inside the write, after the key is looked up)."""
    token, anna, ben, cleo = table
    draft(anna, token, [T([1, 5, 2, 3, 4, 6], [1, 5])])
    tray = tray_for(anna, token, T([2, 2, 2, 3], [2, 2, 2]))
    stop, change = actions(tray, "stop")[0], anna.board_change(token)
    assert anna.press(token, stop, form=tray, change=change).status_code == 200
    assert anna.press(token, stop, form=tray, change=change).status_code == 200  # the offline queue sends again


def test_a_throw_kept_goes_to_every_phone_as_the_call_the_turn_and_the_tray(table, phone):
    """Each throw kept, or taken back (a step of the turn: the table's draft), was the whole board
    for the writer and every phone, 2.9 KB of gzip. It is the call, the turn in play and the
    tray, which make exactly the board each phone would get whole; a phone that catches up on a
    throw and the turn's end at once gets their parts too (issue 26)."""
    token, anna, ben, cleo = table
    viewers = {"Anna": anna, "Ben": ben, "Cleo": cleo, "stranger": phone()}
    boards = {name: board(device, token) for name, device in viewers.items()}
    late = {"late": phone()}
    for action, throw in (("again", T([1, 5, 2, 3, 4, 6], [1, 5])), ("again", T([1, 2, 3, 4], [1])),
                          ("back", None), ("again", T([1, 2, 3, 4], [1])), ("stop", T([5, 2, 3], [5]))):
        if action == "stop":
            boards["late"] = board(late["late"], token)
        if throw is None:  # "Undo last throw", pressed in the tray: htmx sends the form with it
            tray = anna.tray(token)
            back = [b for b in writes(tray, "/kaques/turn") if b["vals"]["action"] == "back"]
            response = anna.press(token, back[0], form=tray)
        else:
            response = tap(anna, token, throw, action)
        if action != "stop":
            assert replaced(answered(response)) == ["stamp", "kq-banner", "kq-now", "tray"]
            # a throw kept: the pad's faces stay on the writer's page (its tray posts `faces`), 1.3 KB with them
            assert len(gzip.compress(response.get_data())) < (1250 if action == "again" else 1450)
        parts_make_the_board(token, viewers, boards, response, "Anna")
    parts_make_the_board(token, late, boards, response, "")
    assert re.search(r'</i>Anna (?:(?!</li>).)*<b class="kq-pts">300</b>', boards["Ben"], re.S)  # 150 + 100 + 50


def test_a_double_tap_on_throw_again_keeps_the_throw_once(table):
    """A step of a turn carries its key like an entry: a double tap keeps the throw once."""
    token, anna, ben, cleo = table
    tray = tray_for(anna, token, T([1, 5, 2, 3, 4, 6], [1, 5]))
    again, change = actions(tray, "again")[0], anna.board_change(token)
    for _ in range(2):
        anna.press(token, again, form=tray, change=change)
    assert "Turn so far <b>150</b>" in board(ben, token)


def corrections(device, html):
    """The correction steppers of the history: (target, the points it shows), newest first,
    each asked as its row's "Correct" asks when opened (they are not on the board)."""
    found = []
    for url, inside in re.findall(r'<details class="kq-fix" hx-get="([^"]+)"[^>]*>(.*?)</details>',
                                  html, re.S):
        assert "<button" not in inside
        asked = device.get(url, headers={"HX-Request": "true"})
        assert asked.status_code == 200, asked.get_data(as_text=True)
        stepper = asked.get_data(as_text=True)
        value = re.search(r'name="points"[^>]*value="(\d+)"', stepper).group(1)
        button = actions(stepper, "correct")[0]
        found.append((button, int(value)))
    return found


def test_the_host_corrects_a_turn_to_a_total(table):
    token, anna, ben, cleo = table
    anna.enter(token, {"type": "turn", "points": 300})
    ben.enter(token, {"type": "turn", "throws": [T([1, 5, 2, 3, 4, 6], [1])]})
    assert not corrections(cleo, board(cleo, token))  # the host and each turn's writer correct
    assert [value for _, value in corrections(ben, board(ben, token))] == [100]
    fixes = corrections(anna, board(anna, token))
    assert [value for _, value in fixes] == [100, 300]  # newest first
    button, _ = fixes[0]
    response = anna.press(token, button, points="550")
    assert response.status_code == 200
    seen = board(cleo, token)
    assert re.search(r'<b class="kq-pts">550</b>', seen) and "corrected #" in seen
    button, _ = corrections(anna, board(anna, token))[-1]  # the same turn, its stepper after the correction
    bad = anna.press(token, button, points="30")
    assert bad.status_code == 400 and message(bad) == "Type the turn's points: a multiple of 50, like 350."


# --- standings and the race chart ---------------------------------------------------------------------

def test_standings_and_chart_are_server_rendered(table):
    token, anna, ben, cleo = table
    assert "The race" not in board(ben, token)  # nothing to draw before the first turn
    for device, points in [(anna, 500), (ben, 0), (cleo, 350), (anna, 1000)]:
        device.enter(token, {"type": "turn", "points": points})
    seen = board(ben, token)
    ranks = re.findall(r'<span class="kq-rank">(\d+)</span>\s*<span class="kq-name"><i class="kq-swatch kq-c(\d)"></i>(\w+)', seen)
    assert ranks == [("1", "0", "Anna"), ("2", "2", "Cleo"), ("3", "1", "Ben")]
    assert '<progress class="kq-progress" max="10000" value="1500"' in seen
    svg = re.search(r'<svg class="kq-chart".*?</svg>', seen, re.S).group(0)
    assert svg.count('class="kq-line ') == 3
    assert len(re.findall(r'class="kq-x kq-c1"', svg)) == 1  # Ben's Kaque is marked
    assert "<script" not in seen and " style=" not in seen
    anna_line = re.search(r'<path class="kq-line kq-c0" d="([^"]+)"', svg).group(1)
    assert len(line_points(anna_line)) == 3  # the start and two turns
    assert line_points(anna_line)[-1] == tuple(map(int, re.search(
        r'<circle class="kq-end kq-c0" cx="(\d+)" cy="(\d+)"', svg).groups()))


def test_a_race_to_10000_s_answers_carry_its_chart_in_few_bytes(phone):
    """Every turn's answer carries the race chart, which grows with the game: in a race to
    10,000 its lines' absolute points ("186.0,114.4") made the answers 2.16 KB of gzip by the
    end (issue 26: an answer ≤ 1 KB). Drawn in whole units, each line a path of steps of one
    width across, the same game's answers stay under 2.06 KB (1.99 here)."""
    log = json.loads((Path(__file__).parent / "logs" / "kaques" / "to-10000-quick-totals.json").read_text())
    host = phone()
    token = host.open_table("kaques", log["players"])
    phone().join(token, log["players"][0])
    sizes = []
    for event in log["events"]:
        response = host.enter(token, {k: v for k, v in event.items() if k not in ("at", "by")})
        assert response.status_code == 200
        sizes.append(len(gzip.compress(response.get_data())))
    assert max(sizes[1:-1]) <= 2060, sizes
    svg = re.search(r'<svg class="kq-chart".*?</svg>', board(host, token), re.S).group(0)
    assert "." not in re.sub(r'>[^<]*<| r="3\.5"', "", svg.split(">", 1)[1])  # whole units (a dot's radius aside)
    for d in re.findall(r'class="kq-line[^"]*" d="([^"]+)"', svg):
        across = [x for x, _ in line_points(d)]
        assert len({b - a for a, b in zip(across, across[1:])}) <= 2  # one width, give or take a unit


def line_points(d: str) -> list[tuple[int, int]]:
    """A chart line's points: its path's start, then each step from the one before."""
    start, _, steps = d.removeprefix("M").partition("l")
    x, y = map(int, start.split(","))
    found = [(x, y)]
    for step in steps.split():
        dx, dy = map(int, step.split(","))
        x, y = x + dx, y + dy
        found.append((x, y))
    return found


def test_chart_scale_and_the_odds_in_each_locale(app):
    assert [_nice_ceiling(v) for v in (1, 500, 501, 1500, 2001, 9000, 12000)] == [500, 500, 1000, 2000, 5000, 10000, 20000]
    with app.test_request_context("/"):
        assert chance(6) == {"percent": "3.1%", "fraction": "5/162"}
        assert chance(1) == {"percent": "66.7%", "fraction": "2/3"}
        with force_locale("de"):
            assert chance(6) == {"percent": "3,1\xa0%", "fraction": "5/162"}


def test_a_german_phone_reads_points_and_odds_as_germans_write_numbers(phone):
    anna = phone()
    anna.post("/language", {"lang": "de", "next": "/"}, fetch=False)
    token = anna.open_table("kaques", ("Anna", "Ben"))
    anna.join(token, "Anna")
    assert "10.000" in board(anna, token)
    # the odds of the throw tapped in: 4 dice thrown again
    assert "15,7\xa0%" in anna.tray(token, dice="1,5,2,3,4,6")
    anna.enter(token, {"type": "turn", "points": 1500})
    assert '<b class="kq-pts">1.500</b>' in board(anna, token)


def test_the_end_of_the_race_counts_the_winner_s_turns_and_each_player_s_calls(phone):
    """"First to 2,000 after 5 turns." counted every player's turns, where the winner took 3; and
    the calls stood in a table whose columns ran past a narrow phone: each player is a line now,
    the calls its chips."""
    host = phone()
    token = host.open_table("kaques", ("Anna", "Ben"), target=2000)
    grand = [T([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5]), T([2, 3, 4, 6, 6, 2], [])]  # Oh, Lálá! then nothing
    for event in ({"type": "turn", "player": "Anna", "throws": grand}, {"type": "turn", "player": "Ben", "points": 350},
                  {"type": "turn", "player": "Anna", "points": 1250}, {"type": "turn", "player": "Ben", "points": 0},
                  {"type": "turn", "player": "Anna", "points": 800}):
        assert host.enter(token, event).status_code == 200
    page = board(host, token)
    settle = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split('id="settle"')[1].split("</section>")[0]))
    assert "Anna wins!" in settle and "First to 2,000 after 3 turns." in settle
    assert "<table" not in page.split('id="settle"')[1].split("</section>")[0]
    assert re.search(r"1\. Anna 2,050 points 1× Kaque \(1 grand\) 1× Oh, Lálá! 3× Grandmère 👀 1 ", settle), settle
    assert re.search(r"2\. Ben 350 points 1× Kaque 0× Oh, Lálá! 1× Grandmère 👀 0 ", settle), settle


def test_rules_page(client):
    page = client.get("/rules/kaques").get_data(as_text=True)
    assert "Le Kaque!" in page and "Grandmère" in page and "Oh, Lálá!" in page
    # it tells what the tray offers: the total typed (it said "step the turn total in 50s",
    # a stepper the tray no longer has), or the pad throw by throw
    text = re.sub(r"\s+", " ", page)
    assert "types the turn's total, in steps of 50" in text and "step the turn total" not in text


# --- a whole game from three phones ---------------------------------------------------------------------

def test_three_phones_play_to_10000_and_the_log_replays_to_the_same_standings(table):
    """Throws tapped into the tray one by one (a draft per throw), the calls seen on the other phones, the
    wise stop at Grandmère; then export the log and replay it."""
    token, anna, ben, cleo = table
    phones = {"Anna": anna, "Ben": ben, "Cleo": cleo}
    rng = random.Random(7)
    calls_seen = set()
    turns = 0
    while True:
        page = board(anna, token)
        if 'data-finished="yes"' in page:
            break
        player = re.search(r'data-on-turn="(\w+)"', page).group(1)
        me, watcher = phones[player], phones["Cleo" if player != "Cleo" else "Anna"]
        throws, free, total = [], 6, 0
        while True:
            dice = [rng.randint(1, 6) for _ in range(free)]
            options = kaques.scoring_options(dice)
            if not options:
                response = tap(me, token, T(dice, []), "stop")
                assert response.status_code == 200, message(response)
                break
            keep = list(options[0].dice)
            total += options[0].points
            throws.append(T(dice, keep))
            free = free - len(keep) or 6
            if total >= 350 and rng.random() < 0.8 or len(throws) > 12:
                response = tap(me, token, throws[-1], "stop")
                assert response.status_code == 200, message(response)
                break
            response = tap(me, token, throws[-1], "again")
            assert response.status_code == 200, message(response)
            shown = banner(board(watcher, token))
            if shown:
                calls_seen.add(shown["call"])
        shown = banner(board(watcher, token))
        assert shown["call"] in ("fertisch!", "Le Kaque!", "Grand Kaque!")
        calls_seen.add(shown["call"])
        turns += 1
        assert turns < 400
    assert {"fertisch!", "Le Kaque!", "Grandmère"} <= calls_seen
    final = board(ben, token)
    log = json.loads(anna.get(f"/t/{token}/games/1/log.json").get_data(as_text=True))
    assert log["game"] == "kaques" and len(log["events"]) == turns
    outcome = CliRunner().invoke(cli, ["replay", "-"], input=json.dumps(log), prog_name="scorekeeper")
    assert outcome.exit_code == 0, outcome.stderr
    replayed = json.loads(outcome.stdout)
    assert replayed["finished"] and replayed["winner"]
    assert replayed["points"][replayed["winner"]] >= 10000
    assert f"{replayed['winner']} wins with" in final
    for player, points in replayed["points"].items():
        assert re.search(rf'{player}(?:(?!kq-pts).)*<b class="kq-pts">{points:,}</b>', final, re.S)


def test_a_long_game_s_race_chart_draws_a_bounded_line(phone):
    """A log of 2,000 turns drew 2,000 points and every Kaque among them on each board (issue
    25): a line has at most CHART_POINTS points, its last one the player's total."""
    from scorekeeper.web.games.kaques import CHART_POINTS
    from tests.support import largest_log

    importer = phone()
    log = largest_log("kaques", most_bytes=60_000)  # as many turns as /import takes
    assert len(log["events"]) > 4 * CHART_POINTS
    imported = importer.post("/import", {"log": (io.BytesIO(json.dumps(log, separators=(",", ":")).encode()), "log.json")},
                             fetch=False,
                             content_type="multipart/form-data")
    assert imported.status_code == 303
    board = importer.get(imported.headers["Location"].removesuffix("/history")).get_data(as_text=True)
    lines = [line_points(d) for d in re.findall(r'<path class="kq-line[^"]*" d="([^"]+)"', board)]
    ends = re.findall(r'<circle class="kq-end[^"]*" cx="(\d+)" cy="(\d+)"', board)
    assert len(lines) == 2 and all(CHART_POINTS // 2 < len(line) <= CHART_POINTS + 1 for line in lines)
    assert [line[-1] for line in lines] == [(int(x), int(y)) for x, y in ends]
    marks = re.findall(r'class="kq-x [^"]*" d="([^"]+)"', board)
    assert 0 < sum(d.count("M") for d in marks) <= 2 * (CHART_POINTS + 1)


def test_a_screen_reader_hears_whose_turn_it_is_after_another_phone_s_turn(table):
    """#said told Ben "Anna: +450 total." and stopped there: nothing said it was his turn
    now (Escalero's and Yatzy's say so). It ends with the turn line, in the phone's words."""
    token, anna, ben, cleo = table
    before = re.search(r'id="stamp"[^>]*data-change="(\d+)"', board(ben, token)).group(1)
    fertisch, _ = actions(anna.tray(token), "total")
    assert anna.press(token, fertisch, form=anna.tray(token, points="450")).status_code == 200
    told = ben.get(f"/t/{token}/board?since={before}", headers={"HX-Request": "true"}).get_data(as_text=True)
    said = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S).group(1)
    assert " ".join(re.sub(r"<[^>]+>", " ", said).split()).replace(" .", ".") == "Anna: +450 total. Your turn! · round 1"
    told = cleo.get(f"/t/{token}/board?since={before}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Ben's turn" in re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S).group(1)
    assert '<p class="turn yours" data-on-turn="Ben" id="turn">' in board(ben, token)  # the board's own turn line, as it was


def test_a_screen_reader_hears_who_won(table):
    """The game's end reached a seated phone as a whole board, and #said said nothing: a screen
    reader heard no sign the game was over, nor who won. Now it says who won as the settlement
    heads it, after the last turn where the board comes in parts (the host's phone); the
    writer's own answer leaves it out (its focus goes to the settlement, which says it), and
    empties the line, which kept the last turn it heard ("Your turn!" after the end)."""
    token, anna, ben, cleo = table
    before = {name: re.search(r'id="stamp"[^>]*data-change="(\d+)"', board(phone, token)).group(1)
              for name, phone in (("anna", anna), ("ben", ben), ("cleo", cleo))}
    fertisch, _ = actions(anna.tray(token), "total")
    answer = anna.press(token, fertisch, form=anna.tray(token, points="10000"))
    assert answer.status_code == 200 and '<hx-partial id="said" hx-swap="innerHTML"></hx-partial>' in \
        answer.get_data(as_text=True)

    def said(phone, name):
        told = phone.get(f"/t/{token}/board?since={before[name]}", headers={"HX-Request": "true"}).get_data(as_text=True)
        found = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S)
        return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()).replace(" .", ".") if found else None

    assert said(ben, "ben") == "Anna wins!"  # a seat: the whole board, and who won
    assert said(anna, "anna") == "Anna: +10,000 total. Anna wins!"  # the host's phone, polled: in parts


def test_the_tray_is_named_by_whose_turn_it_is(table):
    """The tray was always named "Enter the turn": after an entry the focus, back on the tray
    (static/app.js), did not say whose turn it was now. It is named by the board's turn line,
    as Escalero's and Yatzy's are, on the writer's own answer and on every phone."""
    token, anna, ben, cleo = table

    def name(page):
        tray = re.search(r'<form id="tray"[^>]*>', page).group(0)
        assert 'aria-label=' not in tray
        target = re.search(r'aria-labelledby="([^"]+)"', tray).group(1)
        line = re.search(rf'<p [^>]*\bid="{target}"[^>]*>(.*?)</p>', page, re.S).group(1)
        return " ".join(re.sub(r"<[^>]+>", " ", line).split())

    fertisch, _ = actions(anna.tray(token), "total")
    answer = anna.press(token, fertisch, form=anna.tray(token, points="450"))
    assert answer.status_code == 200 and name(answer.get_data(as_text=True)) == "Ben's turn · round 1"
    assert name(board(ben, token)) == "Your turn! · round 1"
    assert name(board(cleo, token)) == "Ben's turn · round 1"


def test_a_screen_reader_hears_each_die_to_keep_once(table):
    """Each keep box ("keep 5") was followed by its die's picture, named "5" too: a screen
    reader read every die twice. The picture beside a box is out of what it reads; the dice
    thrown with nothing to keep, which no box names, still say their faces."""
    token, anna, ben, cleo = table
    tray = tray_for(anna, token, T([1, 5, 2, 3, 4, 6], [1, 5]))
    boxes = re.findall(r'<label class="kq-thrown-die[^"]*">\s*(<input[^>]*>)(.*?)</label>', tray, re.S)
    assert [re.search(r'aria-label="([^"]+)"', box).group(1) for box, _ in boxes] == [
        "kept 1", "keep 2", "keep 3", "keep 4", "kept 5", "keep 6"]
    for _, picture in boxes:
        assert 'aria-hidden="true"' in picture and "role=" not in picture and "aria-label" not in picture
    nothing = tray_for(anna, token, T([2, 3, 4, 6, 6, 2], []))
    assert re.findall(r'<span class="kq-thrown-die dead"><svg [^>]*role="img" aria-label="(\d)"', nothing) == [
        "2", "2", "3", "4", "6", "6"]


def enter(tray):
    """The button Enter in a field of the tray presses: the form's first submit button."""
    tray = re.search(r'<form id="tray".*?</form>', tray, re.S).group(0)
    for button in re.findall(r'<button\b[^>]*>|<input\b[^>]*type="(?:submit|image)"[^>]*>', tray):
        if re.search(r'\btype="?(submit|image)', button) or "type=" not in button:
            return button
    return None


def test_enter_in_the_turn_s_total_presses_fertisch(table):
    """Enter in the total field only redrew the tray (the form had no submit button), or, a
    throw tapped in the pad, pressed "Change the dice" and took a die back: the browser
    presses a form's first submit button. That button is now the total's fertisch! (while a
    throw's dice are kept, the pad's harmless one: the next test)."""
    token, anna, ben, cleo = table
    for tray in (anna.tray(token), tray_for(anna, token, T([2, 3, 4, 6, 6, 2], []))):
        pressed = writes(enter(tray) + "</button>", "/kaques/turn")
        assert [b["vals"]["action"] for b in pressed] == ["total"] and "points" not in pressed[0]["vals"]
    tray = anna.tray(token, points="350")
    assert anna.press(token, writes(enter(tray) + "</button>", "/kaques/turn")[0], form=tray).status_code == 200
    assert '<p class="turn yours" data-on-turn="Ben" id="turn">' in board(ben, token)


def test_enter_on_a_die_to_keep_does_not_end_the_turn(table):
    """Enter on a keep box pressed the form's first submit button, the total's fertisch!: it
    was refused in words, or entered a total typed before the pad was opened, and the turn was
    over. While a throw's dice are kept the first is a button of no write (a submit of the
    tray's form, which asks for the tray again), before "Change the dice" and before fertisch!."""
    token, anna, ben, cleo = table
    keep = kept_indexes([1, 5, 2, 3, 4, 6], [1, 5])
    tray = anna.tray(token, dice="1,5,2,3,4,6", keep=keep, was=",".join(keep), points="350")
    assert 'name="keep"' in tray and 'value="350"' in tray
    button = enter(tray)
    assert button is not None and not writes(button + "</button>", "/kaques/turn")
    assert "hx-" not in button and "name=" not in button  # not "Change the dice" (name="redo") either
    assert '<p class="turn yours" data-on-turn="Anna" id="turn">' in board(anna, token)


def tab_order(tray):
    """What Tab reaches in the tray, in order: its fields, buttons and folds that are not hidden
    (no tabindex > 0 anywhere: the order is the markup's)."""
    tray = re.search(r'<form id="tray".*?</form>', tray, re.S).group(0)
    tray = re.sub(r'<div class="kq-parked" hidden>.*?</div></div>', "", tray)  # the faces parked, hidden
    assert not re.search(r'tabindex="?[1-9]', tray)
    found = []
    for tag in re.findall(r'<(?:input|button|summary|select|textarea|a)\b[^>]*>', tray):
        if re.search(r'\b(hidden|disabled)\b|type="hidden"', tag) or (tag.startswith("<a") and "href" not in tag):
            continue
        label = re.search(r'aria-label="([^"]+)"', tag)
        found.append(label.group(1) if label else re.match(r"<(\w+)", tag).group(1))
    return found


def test_after_a_throw_s_faces_the_next_tab_is_its_first_die_to_keep(table):
    """After the sixth face the focus is on the tray (static/app.js), and it took four Tabs
    past the total's field, its fertisch! and Le Kaque! and the pad's fold to reach the first
    die to keep. The dice to keep now come first in the tray, past the fold alone; the total
    in one go follows the pad."""
    token, anna, ben, cleo = table
    tray = tray_for(anna, token, T([1, 5, 2, 3, 4, 6], [1, 5]))
    assert tab_order(tray)[:3] == ["summary", "kept 1", "kept 5"]
    assert tab_order(tray)[-3:] == ["input", "button", "button"]  # the total, fertisch!, Le Kaque!
    assert tab_order(anna.tray(token))[:4] == ["input", "button", "button", "summary"]  # no throw tapped: as it was


def test_a_screen_reader_hears_who_won_once(table):
    """At the end the banner, a live region of its own, said "Anna wins!" beside #said, which
    says who won already (on the phone that entered the last turn, the settlement its focus
    goes to says it): a screen reader could say it twice. The banner of the end is no live
    region; a turn's banner before the end still is (a throw's calls in a turn in progress
    reach a screen reader by it alone: #said tells entries, not a draft)."""
    token, anna, ben, cleo = table

    def live(page):
        found = re.search(r'<div id="kq-banner" class="kq-banner [^"]*"[^>]*>', page).group(0)
        return "role=" in found or "aria-live" in found

    fertisch, _ = actions(anna.tray(token), "total")
    assert anna.press(token, fertisch, form=anna.tray(token, points="450")).status_code == 200
    assert live(board(ben, token)) and live(board(anna, token))
    assert draft(ben, token, [T([1, 1, 1, 2, 3, 4], [1, 1, 1])]).status_code == 200  # Grandmère, mid-turn
    assert "Grandmère" in banner(board(cleo, token))["call"] and live(board(cleo, token))
    fertisch, _ = actions(ben.tray(token), "total")
    assert ben.press(token, fertisch, form=ben.tray(token, points="10000")).status_code == 200
    for phone in (anna, ben, cleo):
        end = board(phone, token)
        assert "Ben wins!" in banner(end)["html"] and not live(end)


def test_a_turn_s_throws_are_told_in_words_not_arrows(table):
    """A turn's throws in its history row read "152346→15 · 2223→222": a screen reader said
    "right arrow" (and "ballot x" for a throw that kept none). It hears "kept" ("rausgelegt");
    the arrow and the ✗ are drawn (kaques.css)."""
    token, anna, ben, cleo = table
    ben.speaking("de")
    assert tap(anna, token, T([1, 5, 2, 3, 4, 6], [1, 5]), "again").status_code == 200
    assert tap(anna, token, T([2, 2, 2, 3], [2, 2, 2]), "stop").status_code == 200
    row = re.search(r'<small class="kq-ev-throws">.*?</small>', board(ben, token), re.S)[0]
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", row)).split())
    assert "→" not in words and "✗" not in words, words
    assert "rausgelegt 15" in words and "rausgelegt 222" in words, words
