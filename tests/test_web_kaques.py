"""Jaques le Kaques at the table: turns entered throw by throw as a shared draft, the calls on
every phone, the risk meter, quick totals, undo and corrections, the chart, and a whole game to
10 000 played from three phones whose exported log replays to the same standings."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from click.testing import CliRunner
from flask_babel import force_locale

from scorekeeper.cli import cli
from scorekeeper.games import kaques
from scorekeeper.web.games.kaques import _nice_ceiling, chance


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


def draft(device, token, player, throws):
    return device.post(f"/t/{token}/draft", {"draft": json.dumps({"player": player, "throws": throws})})


def board(device, token):
    response = device.get(f"/t/{token}/board")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def banner(html):
    found = re.search(r'<div class="kq-banner [^"]*" data-kq-banner="([^"]+)"[^>]*>(.*?)</div>', html, re.S)
    if not found:
        return None
    call = re.search(r'<b class="kq-banner-call">(.*?)</b>', found.group(2)).group(1)
    return {"key": found.group(1), "call": call, "html": found.group(2)}


def message(response):
    return html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True))).strip()


def pad(html):
    found = re.search(r"<section class=\"kq-pad\"(.*?)>", html, re.S)
    return found.group(1) if found else None


# --- a turn entered throw by throw ---------------------------------------------------------------

def test_throws_show_live_on_every_phone_with_the_risk_meter(table):
    token, anna, ben, cleo = table
    assert draft(anna, token, "Anna", [T([1, 5, 2, 3, 4, 6], [1, 5])]).status_code == 200
    seen = board(ben, token)
    assert "Anna's turn" in seen and "Turn so far <b>150</b>" in seen
    assert "Next throw: 4 dice" in seen and "15.7% chance of Le Kaque!" in seen and "(17/108)" in seen
    assert "150 at stake" in seen
    assert pad(seen) is None  # Ben only watches
    assert banner(seen) is None  # nothing called yet
    mine = board(anna, token)
    assert 'data-key="0:1"' in pad(mine) and 'data-free="4"' in pad(mine)

    assert draft(anna, token, "Anna", [T([1, 5, 2, 3, 4, 6], [1, 5]), T([2, 2, 2, 3], [2, 2, 2])]).status_code == 200
    for device in (ben, cleo, anna):
        shown = banner(board(device, token))
        assert shown["call"] == "Grandmère" and "Anna" in shown["html"]
    assert "66.7%" in board(cleo, token)  # one die left: two in three throws kaque


def test_an_illegal_keep_is_refused_and_changes_nothing(table):
    token, anna, ben, _ = table
    draft(anna, token, "Anna", [T([1, 5, 2, 3, 4, 6], [1])])
    before = board(ben, token)
    for throws, why in [
        ([T([1, 5, 2, 3, 4, 6], [1]), T([2, 2, 3, 4, 5], [2, 2])], "Throw 2: a kept 2 scores only in a triple."),
        ([T([1, 5, 2, 3, 4, 6], [1]), T([2, 3, 4, 5], [5])], "Throw 2: 4 dice thrown, but 5 dice were free."),
        ([T([1, 5, 2, 3, 4, 6], [1]), T([1, 2, 3, 4, 5], [])],
         "Throw 2: 1-2-3-4-5 scores, so keep at least one scoring die."),
        ([T([1, 5, 2, 3, 4, 6], [1]), T([2, 2, 3, 4, 6], [])],
         "Throw 2 scores nothing: Le Kaque! ends the turn, so enter it as the turn."),
    ]:
        response = draft(anna, token, "Anna", throws)
        assert response.status_code == 409
        assert message(response) == why
    response = anna.enter(token, {"type": "turn", "throws": [T([1, 5, 2, 3, 4, 6], [1]), T([2, 2, 3, 4, 5], [2, 2])]})
    assert response.status_code == 409 and message(response) == "Throw 2: a kept 2 scores only in a triple."
    assert "Turn so far <b>100</b>" in board(ben, token)
    assert re.sub(r'data-change="\d+"', "", board(ben, token)) == re.sub(r'data-change="\d+"', "", before)


def test_only_the_player_on_turn_or_the_host_enters(table):
    token, anna, ben, cleo = table
    response = draft(ben, token, "Ben", [T([1, 5, 2, 3, 4, 6], [1])])
    assert response.status_code == 403 and "not your turn" in message(response)
    response = draft(anna, token, "Ben", [T([1, 5, 2, 3, 4, 6], [1])])  # the host, but not Ben's turn
    assert response.status_code == 409 and message(response) == "It is Anna's turn, not Ben's."
    anna.enter(token, {"type": "turn", "points": 300})
    assert pad(board(ben, token)) and not pad(board(cleo, token))
    assert "Entering for Ben" in board(anna, token)  # the host may enter for anyone
    assert draft(anna, token, "Ben", [T([5, 2, 3, 4, 6, 6], [5])]).status_code == 200
    assert "entered by host" not in board(cleo, token)
    assert "entered by Anna" in board(cleo, token)


def test_fertisch_banks_the_turn_and_clears_the_draft(table):
    token, anna, ben, cleo = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([2, 2, 2, 3], [2, 2, 2])]
    draft(anna, token, "Anna", throws[:1])
    assert anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws}).status_code == 200
    seen = board(cleo, token)
    shown = banner(seen)
    assert shown["call"] == "fertisch!" and "Grandmère" in shown["html"]
    assert "Ben's turn" in seen and "Turn so far" not in seen  # the draft went with the turn
    assert re.search(r'<b>Anna</b>: fertisch!</span> <b class="plus">\+350</b>', seen)
    assert re.search(r'<b class="kq-pts">350</b>', seen)
    # a double tap on fertisch! cannot bank the turn twice
    again = anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws})
    assert again.status_code == 409 and message(again) == "It is Ben's turn, not Anna's."


def test_le_kaque_grand_kaque_and_the_knowing_looks(table):
    token, anna, ben, cleo = table
    anna.enter(token, {"type": "turn", "player": "Anna", "throws": [T([2, 3, 4, 6, 6, 2], [])]})
    shown = banner(board(ben, token))
    assert shown["call"] == "Le Kaque!" and "knowing looks" not in shown["html"]
    # Ben keeps all six (Oh, Lálá!), goes on and kaques: Grand Kaque!, after passing Grandmère
    draft(ben, token, "Ben", [T([5] * 6, [5] * 6)])
    shown = banner(board(cleo, token))
    assert shown["call"] == "Oh, Lálá!" and "Grandmère" in shown["html"]
    assert "<b>Oh, Lálá!</b> all six again" in board(cleo, token)
    ben.enter(token, {"type": "turn", "player": "Ben", "throws": [T([5] * 6, [5] * 6), T([2, 3, 4, 6, 6, 4], [])]})
    for device in (anna, ben, cleo):
        shown = banner(board(device, token))
        assert shown["call"] == "Grand Kaque!"
        assert "the table's knowing looks" in shown["html"]
    assert "👀 1" in board(anna, token)


def test_undo_the_last_throw_of_a_turn_in_progress(table):
    token, anna, ben, _ = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([1, 2, 3, 4], [1])]
    draft(anna, token, "Anna", throws)
    mine = board(anna, token)
    undo = re.search(r"data-kq-undo [^>]*data-fields='([^']+)'[^>]*data-kq-expect='([^']+)'", mine)
    fields, expect = json.loads(undo.group(1)), json.loads(undo.group(2))
    assert fields == {"draft": {"player": "Anna", "throws": throws[:1]}}
    assert expect == {"key": "0:1", "phase": "keep", "dice": [1, 2, 3, 4], "keep": [1]}
    anna.post(f"/t/{token}/draft", {"draft": json.dumps(fields["draft"])})
    assert "Turn so far <b>150</b>" in board(ben, token)
    anna.post(f"/t/{token}/draft", {"draft": ""})  # the first throw too: the draft is dropped
    assert "Turn so far" not in board(ben, token) and "Waiting for the first throw" in board(ben, token)


def test_undo_last_throw_of_a_finished_turn_reopens_it(table):
    token, anna, ben, cleo = table
    throws = [T([1, 5, 2, 3, 4, 6], [1, 5]), T([2, 2, 3, 4], [])]  # mistyped: a Kaque
    anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws})
    mine = board(anna, token)
    button = re.search(r'data-post="(/t/[^"]+/kaques/reopen)"\s+data-fields=\'([^\']+)\' data-kq-expect=\'([^\']+)\'', mine)
    assert button, "Anna may take back her last throw"
    assert json.loads(button.group(3)) == {"key": "0:1", "phase": "faces", "dice": [], "keep": []}
    assert "kaques/reopen" not in board(cleo, token)  # not Cleo's entry
    refused = cleo.post(button.group(1), {"target": json.loads(button.group(2))["target"]})
    assert refused.status_code == 403
    done = anna.post(button.group(1), {"target": json.loads(button.group(2))["target"], "idem": "k1"})
    assert done.status_code == 200
    seen = board(ben, token)
    assert "Anna's turn" in seen and "Turn so far <b>150</b>" in seen
    # a retried request changes nothing more, even after Anna went on
    draft(anna, token, "Anna", throws[:1] + [T([2, 2, 3, 5], [5])])
    assert anna.post(button.group(1), {"target": json.loads(button.group(2))["target"], "idem": "k1"}).status_code == 200
    assert "Turn so far <b>200</b>" in board(ben, token)
    anna.enter(token, {"type": "turn", "player": "Anna", "throws": throws[:1] + [T([2, 2, 3, 5], [5])]})
    assert re.search(r'<b class="kq-pts">200</b>', board(ben, token))


def test_a_quick_total_and_its_undo(table):
    token, anna, ben, cleo = table
    mine = board(anna, token)
    # the tray takes a turn's total in one go: a number and fertisch!, or Le Kaque! at 0
    total = re.search(r'<form class="kq-total-entry" data-kq-total data-url="([^"]+)" data-player="([^"]+)"', mine)
    assert total.group(1).endswith("/entries") and total.group(2) == "Anna"
    kaque = re.search(r'data-fields=\'([^\']+)\'>Le Kaque!</button>', mine)
    assert json.loads(kaque.group(1)) == {"event": {"type": "turn", "player": "Anna", "points": 0}}
    bad = anna.enter(token, {"type": "turn", "points": 75})
    assert bad.status_code == 409 and message(bad) == "Points must be a multiple of 50, 0 or more, not 75."
    assert anna.enter(token, {"type": "turn", "points": 450}).status_code == 200
    seen = board(ben, token)
    assert banner(seen)["call"] == "fertisch!" and "Grandmère" in banner(seen)["html"]
    assert '<small class="muted">total</small>' in seen
    undo = re.search(r'data-post="(/t/[^"]+/undo)"\s+data-fields=\'([^\']+)\'', board(anna, token))
    assert undo and "kaques/reopen" not in board(anna, token)  # a total has no throws to reopen
    anna.post(undo.group(1), json.loads(undo.group(2)))
    assert "Anna's turn" in board(cleo, token)


def test_the_host_corrects_a_turn_to_a_total(table):
    token, anna, ben, cleo = table
    anna.enter(token, {"type": "turn", "points": 300})
    ben.enter(token, {"type": "turn", "throws": [T([1, 5, 2, 3, 4, 6], [1])]})
    assert "data-kq-stepper=\"fix-" not in board(cleo, token)  # the host and each turn's writer correct
    host = board(anna, token)
    fixes = re.findall(r'data-kq-stepper="fix-(\d+)" data-value="(\d+)" data-kind="correct" data-base=\'([^\']+)\'', host)
    assert [(int(v)) for _, v, _ in fixes] == [100, 300]  # newest first
    target, _, base = fixes[0]
    assert json.loads(base) == {"target": int(target), "event": {"points": 100, "throws": None}}
    response = anna.post(f"/t/{token}/correct", {"target": target, "event": json.dumps({"points": 550, "throws": None})})
    assert response.status_code == 200
    seen = board(cleo, token)
    assert re.search(r'<b class="kq-pts">550</b>', seen) and "corrected #" in seen
    bad = anna.post(f"/t/{token}/correct", {"target": target, "event": json.dumps({"points": 30, "throws": None})})
    assert bad.status_code == 409


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
    assert svg.count("<polyline") == 3
    assert len(re.findall(r'class="kq-x kq-c1"', svg)) == 1  # Ben's Kaque is marked
    assert "<script" not in seen and " style=" not in seen
    anna_line = re.search(r'<polyline class="kq-line kq-c0" points="([^"]+)"', svg).group(1)
    assert len(anna_line.split()) == 3  # the start and two turns


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
    seen = board(anna, token)
    assert "10.000" in seen and "3,1\xa0%" in seen
    anna.enter(token, {"type": "turn", "points": 1500})
    assert '<b class="kq-pts">1.500</b>' in board(anna, token)


def test_rules_page(client):
    page = client.get("/rules/kaques").get_data(as_text=True)
    assert "Le Kaque!" in page and "Grandmère" in page and "Oh, Lálá!" in page


# --- a whole game from three phones ---------------------------------------------------------------------

def test_three_phones_play_to_10000_and_the_log_replays_to_the_same_standings(table):
    """Throws entered one by one (a draft per throw), the calls seen on the other phones, the
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
                response = me.enter(token, {"type": "turn", "player": player, "throws": throws + [T(dice, [])]})
                assert response.status_code == 200, message(response)
                break
            keep = list(options[0].dice)
            total += options[0].points
            throws.append(T(dice, keep))
            free = free - len(keep) or 6
            if total >= 350 and rng.random() < 0.8 or len(throws) > 12:
                response = me.enter(token, {"type": "turn", "player": player, "throws": throws})
                assert response.status_code == 200, message(response)
                break
            response = draft(me, token, player, throws)
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
