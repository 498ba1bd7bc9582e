"""Escoba's table screens through Flask's test client: the escobas tapped during a round
(the draft and the engine's verify_draft), the round form's live check and points preview,
rounds to the target with two pairs, host corrections, and the capture finder checked
against a brute-force search of every subset of the table."""

from __future__ import annotations

import gzip
import html
import io
import json
import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from flask_babel import force_locale

from scorekeeper import service, store
from scorekeeper.games import escoba
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from scorekeeper.games.escoba import Card, Suit, verify_round
from scorekeeper.web import i18n
from tests.support import form_fields, writes
from tests.test_web_board import answered, parts_make_the_board, replaced


def side(cards, coins, sevens, seven_of_coins, escobas=0):
    return {"cards": cards, "coins": coins, "sevens": sevens,
            "seven_of_coins": seven_of_coins, "escobas": escobas}


def new_game(players=("Anna", "Ben"), teams=None, **rules):
    return escoba.start(make_setup(list(players), teams), parse_rules(rules, escoba.settings))


def played(app, token):
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)
    return service.load(db, service.current_game(db, table["id"]))


def tally(page: str) -> list[int]:
    """The escobas tapped this round, per side, as the board shows them."""
    return [int(n) for n in re.findall(r'<b class="tally-count"[^>]*>(\d+)</b>', page)]


def tally_button(page: str, side: int, delta: int) -> dict:
    """The board's + or − beside a side's escobas."""
    found = [b for b in writes(page, "/escoba/escobas") if (b["vals"]["side"], b["vals"]["delta"]) == (side, delta)]
    assert len(found) == 1, (side, delta)
    return found[0]


def tap(device, token, side: int, delta: int = 1, change=None):
    """An escoba more (or fewer) for a side, tapped on the phone's board as it stands now."""
    button = tally_button(device.get(f"/t/{token}/board").get_data(as_text=True), side, delta)
    return device.press(token, button, change=change)


def confirm(page: str) -> dict:
    """The round form's confirm button."""
    found = writes(page, "/escoba/round")
    assert len(found) == 1
    return found[0]


def problems(page: str) -> list[str]:
    box = re.search(r'<ul class="problems"[^>]*>(.*?)</ul>', page, re.S)
    return [html.unescape(p) for p in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)] if box else []


@pytest.fixture
def duel(phone):
    """Anna and Ben at an Escoba table, each on a phone; the host's device opened it."""
    host = phone()
    token = host.open_table("escoba", ("Anna", "Ben"))
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    return host, anna, ben, token


def preview(device, token, **values):
    """The round form in the phone's tray, filled with `values` (or, with `correct`, the form
    of that round), and the server's check of it: (status, the tray)."""
    query = {"round": "1", **{k: str(v) for k, v in values.items()}}
    response = device.client.get(f"/t/{token}/tray", query_string=query, headers={"HX-Request": "true"})
    return response.status_code, response.get_data(as_text=True)


# --- verify_draft: the engine's check of the escobas kept during a round ---------------------


def test_verify_draft_gives_every_side_in_seat_order():
    state = new_game(("Anna", "Ben", "Cleo"))
    assert escoba.verify_draft(state, {"escobas": {"cleo": 1, "ANNA": 3}}) == {"Anna": 3, "Ben": 0, "Cleo": 1}
    assert escoba.verify_draft(state, {"escobas": {}}) == {"Anna": 0, "Ben": 0, "Cleo": 0}
    assert escoba.verify_draft(state, {}) == {"Anna": 0, "Ben": 0, "Cleo": 0}


def test_verify_draft_with_teams_is_keyed_by_team():
    state = new_game(("Anna", "Ben", "Cleo", "Dora"),
                     [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])])
    assert escoba.verify_draft(state, {"escobas": {"blue": 20}}) == {"Red": 0, "Blue": 20}
    with pytest.raises(RuleError, match="^escobas: 'Anna' is not a team at this table$"):
        escoba.verify_draft(state, {"escobas": {"Anna": 1}})


@pytest.mark.parametrize("payload, message", [
    ({"escobas": {"Zoe": 1}}, "escobas: 'Zoe' is not a player at this table"),
    ({"escobas": {"Anna": 21}}, "escobas: Anna's count must be a whole number from 0 to 20, not 21"),
    ({"escobas": {"Anna": -1}}, "escobas: Anna's count must be a whole number from 0 to 20, not -1"),
    ({"escobas": {"Anna": True}}, "escobas: Anna's count must be a whole number from 0 to 20, not True"),
    ({"escobas": {"Anna": "2"}}, "escobas: Anna's count must be a whole number from 0 to 20, not '2'"),
    ({"escobas": {"Anna": 1, "anna": 2}}, "escobas: Anna is given twice"),
    ({"escobas": [1, 0]}, "escobas must be an object keyed by player, like {\"Anna\": 1}"),
    ({"escobas": {}, "cards": 3}, 'a draft keeps only the escobas of the round, like {"escobas": {"Anna": 1}}'),
    ([1, 2], 'a draft keeps only the escobas of the round, like {"escobas": {"Anna": 1}}'),
])
def test_verify_draft_refuses_what_cannot_be(payload, message):
    with pytest.raises(RuleError) as error:
        escoba.verify_draft(new_game(), payload)
    assert str(error.value) == message


def test_verify_draft_refuses_a_finished_game():
    state = escoba.apply(new_game(target=1), {"type": "round", "sides": {
        "Anna": side(24, 7, 3, True, 2), "Ben": side(16, 3, 1, False)}})
    with pytest.raises(RuleError, match="^the game is over: Anna won"):
        escoba.verify_draft(state, {"escobas": {"Anna": 1}})


# --- escobas tapped during the round ------------------------------------------------------------


def test_escobas_tapped_live_show_on_every_phone_and_prefill_the_round(duel, app):
    host, anna, ben, token = duel
    board = anna.get(f"/t/{token}").get_data(as_text=True)
    assert tally(board) == [0, 0]
    # none to take back: its − disabled, and with no request to send
    minus = re.search(r'<div id="tally-0" class="tally">.*?<button [^>]*class="step minus-one"([^>]*)>', board, re.S).group(1)
    assert "disabled" in minus and "hx-post" not in minus
    assert anna.press(token, tally_button(board, 0, 1)).status_code == 200
    # Ben's phone sees it, and his next tap builds on it
    seen = ben.get(f"/t/{token}/board").get_data(as_text=True)
    assert tally(seen) == [1, 0]
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 1, "Ben": 0}}
    assert tap(ben, token, 0, -1).status_code == 200  # none left: the draft is dropped
    assert played(app, token).draft is None and tally(anna.get(f"/t/{token}/board").get_data(as_text=True)) == [0, 0]
    for side in (0, 0, 1):
        assert tap(ben, token, side).status_code == 200
    # the round form starts from the escobas tapped
    form = anna.tray(token, round="1")
    assert re.search(r'name="e0"[^>]*value="2"', form) and re.search(r'name="e1"[^>]*value="1"', form)
    assert tally(anna.get(f"/t/{token}/board").get_data(as_text=True)) == [2, 1]
    # confirming the round records them and clears the tally for the next round
    status, page = preview(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2, e1=1)
    assert anna.press(token, confirm(page), form=page).status_code == 200
    event = played(app, token).entries[-1][1]
    assert event["sides"]["Anna"]["escobas"] == 2 and event["sides"]["Ben"]["escobas"] == 1
    assert played(app, token).draft is None
    assert tally(ben.get(f"/t/{token}/board").get_data(as_text=True)) == [0, 0]


def test_an_escoba_tapped_goes_to_every_phone_as_the_tallies_and_the_tray(duel, phone):
    """An escoba tapped (the table's draft) was the whole board for the writer and every phone,
    1.8–1.9 KB of gzip: it is each side's escobas and the tray, which make exactly the board
    each phone would get whole; a phone that catches up on a tap and the round at once gets
    their parts too (issue 26)."""
    host, anna, ben, token = duel
    viewers = {"host": host, "Anna": anna, "Ben": ben, "stranger": phone()}
    boards = {name: device.get(f"/t/{token}/board").get_data(as_text=True) for name, device in viewers.items()}
    late = {"late": phone()}
    for writer, side, delta in (("Anna", 0, 1), ("Ben", 1, 1), ("Ben", 0, 1), ("host", 0, -1)):
        response = tap(viewers[writer], token, side, delta)
        assert replaced(answered(response)) == ["stamp", "tally-0", "tally-1", "tray"]
        assert len(gzip.compress(response.get_data())) <= 1024
        parts_make_the_board(token, viewers, boards, response, writer)
    assert tally(boards["stranger"]) == [1, 1]
    boards["late"] = late["late"].get(f"/t/{token}/board").get_data(as_text=True)
    assert tap(anna, token, 1).status_code == 200
    status, page = preview(anna, token, c0=24, o0=7, s0=3, seven=0, e0=1, e1=2)
    response = anna.press(token, confirm(page), form=page)
    parts_make_the_board(token, late, boards, response, "")
    assert tally(boards["late"]) == [0, 0] and "Round 2" in boards["late"]


def test_a_bad_tally_is_refused_and_changes_nothing(duel, app):
    host, anna, ben, token = duel
    assert tap(anna, token, 0).status_code == 200
    for fields in ({"side": "2", "delta": "1"}, {"side": "0", "delta": "2"}, {"side": "x", "delta": "1"},
                   {"side": "0"}, {}):
        response = anna.write(f"/t/{token}/escoba/escobas", fields)
        assert response.status_code == 400
        assert "Tap + or − beside a side's escobas." in html.unescape(response.get_data(as_text=True))
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 1, "Ben": 0}}
    # at most 20 a round: the + is disabled there, and a tap past it changes nothing
    for _ in range(19):
        tap(anna, token, 0)
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    plus = re.search(r'<div id="tally-0" class="tally">.*?<button [^>]*class="step plus-one"([^>]*)>', board, re.S).group(1)
    assert tally(board) == [20, 0] and "disabled" in plus and "hx-post" not in plus
    anna.write(f"/t/{token}/escoba/escobas", {"side": "0", "delta": "1"})
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 20, "Ben": 0}}


def test_the_read_only_board_shows_the_tally_without_buttons(duel, app):
    host, anna, ben, token = duel
    for _ in range(3):
        tap(anna, token, 1)
    db = store.connect(app.config["DATABASE"])
    board_token = service.by_join_token(db, token)["board_token"]
    page = host.get(f"/b/{board_token}").get_data(as_text=True)
    assert tally(page) == [0, 3]
    assert not writes(page) and "Round over" not in page and 'name="round"' not in page
    assert host.get(f"/b/{board_token}/tray?round=1").get_data(as_text=True) == '<hx-partial id="tray" hx-swap="outerMorph"><div id="tray" hidden></div></hx-partial>'


# --- the round form: the live check and the points before confirming ------------------------------


def test_the_form_asks_the_counting_side_and_fills_the_last_from_the_deck(duel):
    host, anna, ben, token = duel
    page = anna.get(f"/t/{token}").get_data(as_text=True)
    assert re.search(r'<button[^>]*name="round" value="1"[^>]*>Round over: count the piles</button>', page)
    page = anna.tray(token, round="1")
    assert "Round 1: count the piles" in page
    for name in ("c0", "o0", "s0", "e0", "e1", "f0", "f1", "leftover"):
        assert f'name="{name}"' in page
    assert 'name="c1"' not in page  # Ben's pile is the rest of the deck
    assert re.search(r'name="c0"[^>]*value="20"', page)  # an even share to step from
    assert problems(page) == ["Who took the seven of coins? Tap their name."]
    assert "disabled" in re.search(r'<button[^>]*hx-post="[^"]+/escoba/round"', page).group(0)
    # confirmed anyway (a form sent as it stood), the round is refused with the first problem
    refused = anna.press(token, confirm(page), form=page)
    assert refused.status_code == 409 and "Who took the seven of coins?" in refused.get_data(as_text=True)


def test_the_preview_shows_the_points_each_side_gets(duel, app):
    host, anna, ben, token = duel
    status, page = preview(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2, e1=0)
    assert status == 200
    assert problems(page) == []
    assert re.search(r'<p class="rest"[^>]*>16 cards · 3 coins · 1 seven</p>', page)
    assert re.search(r'Anna</b> <b class="pts plus">\+6</b>', page)
    assert "2 escobas · most cards · most coins · 7 of coins · most sevens" in page
    assert re.search(r'Ben</b> <b class="pts ">0</b>', page)
    assert "disabled" not in re.search(r'<button[^>]*hx-post="[^"]+/escoba/round"', page).group(0)
    # the form's fields as they stand, confirmed: the round the preview showed
    assert anna.press(token, confirm(page), form=page).status_code == 200
    assert played(app, token).entries[-1][1] == {"type": "round", "sides": {
        "Anna": side(24, 7, 3, True, 2), "Ben": side(16, 3, 1, False, 0)}}


def test_the_preview_refuses_counts_that_do_not_fit_the_deck_all_at_once(duel):
    host, anna, ben, token = duel
    # Anna: 3 cards, but 4 coins and 2 sevens; 2 escobas need at least 4 cards; Ben holds the
    # seven of coins although all four sevens... no: Ben has 2 sevens and 6 coins, which fit
    status, page = preview(anna, token, c0=3, o0=4, s0=2, e0=2, seven=0)
    assert status == 200
    assert problems(page) == [
        "Anna has 4 coins and 2 sevens, 5 different cards (the seven of coins is both), "
        "but only 3 cards — 2 short",
        "Anna has 2 escobas, at least 4 cards, but only 3 cards — 1 short"]
    assert "disabled" in re.search(r'<button[^>]*hx-post="[^"]+/escoba/round"', page).group(0)
    status, page = preview(anna, token, c0=41, o0=11, s0=4, seven=1)
    assert problems(page) == [
        "Anna's cards must be from 0 to 40, not 41", "Anna's coins must be from 0 to 10, not 11",
        "Ben has the seven of coins, so at least 1 coin, not 0",
        "Ben has the seven of coins, so at least 1 seven, not 0"]
    status, page = preview(anna, token, c0="x", seven=0, e1=25)
    assert "Anna's cards: type a whole number, not 'x'" in problems(page)
    assert "Ben's escobas must be from 0 to 20, not 25" in problems(page)


def test_the_last_of_three_sides_gets_the_rest_and_too_many_is_named(phone):
    host = phone()
    token = host.open_table("escoba", ("Anna", "Ben", "Cleo"))
    status, page = preview(host, token, c0=25, o0=4, s0=1, c1=20, o1=3, s1=1, seven=0)
    assert problems(page)[0] == "The others' cards add up to 45, but the deck has 40 — 5 too many"
    status, page = preview(host, token, c0=12, o0=4, s0=1, c1=20, o1=3, s1=2, seven=2)
    assert problems(page) == []
    assert re.search(r'<p class="rest"[^>]*>8 cards · 3 coins · 1 seven · 7 of coins</p>', page)


def test_false_captures_and_the_leftover_check(duel, app):
    host, anna, ben, token = duel
    good = dict(c0=24, o0=7, s0=3, seven=0, e0=2)
    status, page = preview(anna, token, leftover=17, **good)
    assert problems(page) == ["Left on the table, the cards add up to 10, 25, 40 or 55, not 17: a capture "
                              "that did not make 15 is a false capture — count it above."]
    status, page = preview(anna, token, leftover=25, **good)
    assert problems(page) == []
    status, page = preview(anna, token, leftover=17, f1=1, **good)  # the check is skipped
    assert problems(page) == []
    assert "false capture −6" in page  # 4 + the round's 2 escobas
    assert re.search(r'<details class="mistakes"[^>]* open>', page)  # what was typed there stays in sight
    assert anna.press(token, confirm(page), form=page).status_code == 200
    event = played(app, token).entries[-1][1]
    assert event["false_captures"] == {"Ben": 1} and event["leftover"] == 17


def test_the_preview_says_when_the_round_wins_the_game(phone):
    host = phone()
    token = host.open_table("escoba", ("Anna", "Ben"), target=5)
    status, page = preview(host, token, c0=24, o0=7, s0=3, seven=0, e0=2)
    assert "Anna wins the game!" in page and "→ 6" in page
    status, page = preview(host, token, c0=40, o0=10, s0=4, seven=0)
    assert "Ben took no card: Anna wins the game." in page


def test_only_seated_phones_get_the_form(duel, phone):
    host, anna, ben, token = duel
    stranger = phone()
    status, page = preview(stranger, token, c0=20)
    assert status == 200 and page == '<hx-partial id="tray" hx-swap="outerMorph"><div id="tray" hidden></div></hx-partial>'  # no tray at all
    assert stranger.write(f"/t/{token}/escoba/round", {"c0": "24", "o0": "7", "s0": "3", "seven": "0"}).status_code == 403
    assert stranger.write(f"/t/{token}/escoba/escobas", {"side": "0", "delta": "1"}).status_code == 403
    other = phone()
    escalero = other.open_table("escalero")
    assert other.write(f"/t/{escalero}/escoba/round", {"c0": "24"}).status_code == 404


# --- two pairs play to 21 --------------------------------------------------------------------------


def test_two_pairs_play_escoba_to_21(phone, app):
    host = phone()
    token = host.open_table("escoba", ("Anna", "Ben", "Cleo", "Dora"))
    waiting = host.get(f"/t/{token}").get_data(as_text=True)
    assert "Waiting for the pairs" in waiting and 'name="round"' not in waiting and not writes(waiting, "/escoba/escobas")
    assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200
    phones = {name: phone() for name in ("Anna", "Ben", "Cleo", "Dora")}
    for name, device in phones.items():
        device.join(token, name)
    teams = [side.name for side in played(app, token).state.setup.sides]
    assert len(teams) == 2 and all(" & " in team for team in teams)
    rounds = 0
    writer = list(phones.values())
    while not played(app, token).finished:
        # the first pair takes 24 cards, 7 coins, 3 sevens and the seven of coins, 1 escoba: +5
        device = writer[rounds % 4]
        status, page = preview(device, token, c0=24, o0=7, s0=3, seven=0, e0=1, e1=1)
        assert status == 200 and problems(page) == []
        assert device.press(token, confirm(page), form=page).status_code == 200
        rounds += 1
    result = played(app, token).result
    assert rounds == 5 and result["points"] == {teams[0]: 25, teams[1]: 5} and result["winner"] == teams[0]
    board = html.unescape(phones["Ben"].get(f"/t/{token}/board").get_data(as_text=True))
    assert f"{teams[0]} win!" in board
    assert "reached 25 of 21 after 5 rounds" in board
    assert board.count("<tr><th scope=\"row\">") == 5  # the score sheet, a row a round
    assert "Round over" not in board and not writes(board, "/escoba/escobas")
    # nothing more can be entered; a rematch starts again at 0
    status, page = preview(phones["Anna"], token, c0=24, o0=7, s0=3, seven=0)
    assert "Round 6" not in page and not writes(page, "/escoba/round")  # no round form for a game that is over
    refused = phones["Anna"].write(f"/t/{token}/escoba/round", {"c0": "24", "o0": "7", "s0": "3", "seven": "0"})
    assert refused.status_code == 409 and "The game is over" in refused.get_data(as_text=True)
    # what the engine says of a round after a pair's win (a correction that no longer fits, an
    # imported log): German said "Ben & Anna hat … gewonnen", Spanish "ha ganado", Polish
    # "wygrywa", a verb of one player; each names the winners now without a verb of theirs
    with pytest.raises(RuleError) as over:
        verify_round(played(app, token).state, {"sides": {}})
    for lang, says in (("de", "Sieg für {} mit 25 Punkten"), ("es", "victoria de {} con 25 puntos"),
                       ("pl", "zwycięstwo: {} (25 pkt)")):
        with app.test_request_context("/"), force_locale(lang):
            assert says.format(teams[0]) in i18n.say(over.value), i18n.say(over.value)
    assert phones["Anna"].write(f"/t/{token}/rematch").status_code == 200
    assert "Round 1" in phones["Anna"].get(f"/t/{token}/board").get_data(as_text=True)


def test_six_draw_two_teams_of_three_and_play_a_round(phone, app):
    """Six at Escoba play in pairs or in two teams of three, and the card said so, but the seat
    list could only draw pairs: the host now has a draw for each, and two teams of three play."""
    names = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz")
    host = phone()
    token = host.open_table("escoba", names)
    seats = html.unescape(host.get(f"/t/{token}").get_data(as_text=True))
    assert '"action": "draw", "size": 2' in seats and '"action": "draw", "size": 3' in seats
    assert "Draw teams of 3 by lot" in seats
    assert host.write(f"/t/{token}/teams", {"action": "draw", "size": "3"}).status_code == 200
    sides = played(app, token).state.setup.sides
    assert [len(side.members) for side in sides] == [3, 3]
    assert {player for side in sides for player in side.members} == set(names)
    assert all(side.name == " & ".join(side.members) for side in sides)
    anna = phone()
    anna.join(token, "Anna")
    status, page = preview(anna, token, c0=24, o0=7, s0=3, seven=0, e0=1)
    assert status == 200 and problems(page) == []
    assert anna.press(token, confirm(page), form=page).status_code == 200
    assert played(app, token).result["points"] == {sides[0].name: 5, sides[1].name: 0}


def test_a_side_without_a_card_loses_at_once(duel, app):
    host, anna, ben, token = duel
    status, page = preview(anna, token, c0=40, o0=10, s0=4, seven=0)
    assert anna.press(token, confirm(page), form=page).status_code == 200
    board = ben.get(f"/t/{token}/board").get_data(as_text=True)
    assert "Anna wins!" in board
    assert "Ben captured no card in round 1" in board
    # each side's line: the winner's word, and on the phone of the side that says nothing more,
    # "you" alone (not "· you")
    needs = re.findall(r'<div class="side-needs muted">(.*?)</div>', board)
    assert needs == ["wins", '<span class="you">you</span>'], needs
    needs = re.findall(r'<div class="side-needs muted">(.*?)</div>', anna.get(f"/t/{token}/board").get_data(as_text=True))
    assert needs == ['wins · <span class="you">you</span>', ""], needs


# --- history, undo and host corrections ---------------------------------------------------------------


def enter_round(device, token, **values):
    status, page = preview(device, token, **values)
    assert problems(page) == [], problems(page)
    response = device.press(token, confirm(page), form=page)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_history_and_score_sheet_show_each_round(duel):
    host, anna, ben, token = duel
    enter_round(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2)  # Anna +6
    answer = enter_round(ben, token, c0=25, o0=6, s0=2, seven=1, e1=1)  # Anna +2, Ben +2
    assert 'id="history-rows" hx-swap="afterbegin"><li id="h' in answer and "Round 2:" in answer  # its row
    board = ben.get(f"/t/{token}/board").get_data(as_text=True)
    assert "Round 2:" in board and "Round 1:" in board
    assert "24 cards · 7 coins · 3 sevens · 7 of coins · 2 escobas" in board
    rows = re.findall(r'<tr><th scope="row">(\d)</th>(.*?)</tr>', board, re.S)
    cells = [re.findall(r'<b class="[^"]*">([^<]+)</b> <small>(-?\d+)</small>', row) for _, row in rows]
    assert cells == [[("+6", "6"), ("0", "0")], [("+2", "8"), ("+2", "2")]]
    assert re.search(r'<td class="mine"><b class="plus">\+2</b> <small>2</small></td>', board)  # Ben's own column
    assert 'class="side-total ">8<' in board and "needs 13" in board


def test_a_round_adds_its_row_to_the_score_sheet_and_sends_no_earlier_row(duel, phone):
    """Every round sent the whole board, its score sheet too: a game's answers grew with each
    round played (issue 26: an answer ≤ 1 KB). A round sends its row, added at the sheet's end;
    the first round the sheet it begins, and an undo the sheet without the round taken back —
    each making exactly the board every phone would get whole."""
    host, anna, ben, token = duel
    viewers = {"host": host, "Anna": anna, "Ben": ben, "stranger": phone()}
    boards = {name: device.get(f"/t/{token}/board").get_data(as_text=True) for name, device in viewers.items()}
    rounds = [dict(c0=24, o0=7, s0=3, seven=0, e0=2), dict(c0=25, o0=6, s0=2, seven=1, e1=1),
              dict(c0=20, o0=5, s0=2, seven=0)]
    for number, counts in enumerate(rounds, 1):
        status, page = preview(anna, token, **counts)
        response = anna.press(token, confirm(page), form=page)
        answer = answered(response)
        rows = re.findall(r'<th scope="row">(\d+)</th>', answer)
        if number == 1:
            assert 'id="escoba-sheet"' in answer and rows == ["1"]
        else:
            assert 'id="escoba-sheet"' not in answer and rows == [str(number)]
            assert f'<hx-partial id="escoba-rounds" hx-swap="beforeend"><tr><th scope="row">{number}</th>' in answer
            assert len(gzip.compress(response.get_data())) <= 1200
        parts_make_the_board(token, viewers, boards, response, "Anna")
    last = [b for b in writes(boards["Anna"], "/undo") if b["text"] == "Undo"]
    response = anna.press(token, last[0])
    assert re.findall(r'<th scope="row">(\d+)</th>', answered(response)) == ["1", "2"]
    parts_make_the_board(token, viewers, boards, response, "Anna")


def test_undo_the_last_round(duel, app):
    host, anna, ben, token = duel
    board = enter_round(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2)
    entry = played(app, token).entries[-1][0].id
    undo = [b for b in writes(board, "/undo") if b["vals"]["target"] == entry]
    assert undo and undo[0]["text"] == "Undo"
    assert anna.press(token, undo[0]).status_code == 200
    assert played(app, token).entries == ()
    assert "Round 1" in anna.get(f"/t/{token}/board").get_data(as_text=True)


def correct_button(page: str, entry: int) -> bool:
    """Whether the board offers to correct this round (a button that opens it in the tray's form)."""
    return bool(re.search(rf'<button form="tray" name="correct" value="{entry}"', page))


def test_the_host_corrects_a_round_through_the_form(duel, app):
    host, anna, ben, token = duel
    enter_round(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2, f1=1)
    enter_round(ben, token, c0=20, o0=5, s0=2, seven=1)
    first = played(app, token).entries[0][0].id
    board = host.get(f"/t/{token}/board").get_data(as_text=True)
    assert correct_button(board, first)
    # the writer of a round corrects it too; another player does not
    assert correct_button(anna.get(f"/t/{token}/board").get_data(as_text=True), first)
    assert not correct_button(ben.get(f"/t/{token}/board").get_data(as_text=True), first)
    form = host.tray(token, correct=str(first))
    assert "Correct round 1" in form
    assert re.search(r'name="c0"[^>]*value="24"', form) and re.search(r'name="f1"[^>]*value="1"', form)
    assert re.search(r'name="e0"[^>]*value="2"', form) and not writes(form, "/escoba/escobas")
    assert re.search(r'name="seven" value="0" checked', form)  # Anna had the seven of coins
    assert form_fields(form)["correct"] == [str(first)]
    # the host takes the false capture back and gives Ben an escoba
    status, page = preview(host, token, correct=first, c0=24, o0=7, s0=3, seven=0, e0=2, e1=1)
    assert problems(page) == []
    assert "Save round 1" in confirm(page)["text"]
    response = host.press(token, confirm(page), form=page)
    assert response.status_code == 200
    now = played(app, token)
    assert "false_captures" not in now.entries[0][1]
    assert now.result["points"] == {"Anna": 6, "Ben": 2}  # + the seven of coins in round 2
    assert "corrected #" in response.get_data(as_text=True)
    # a phone that neither wrote it nor hosts cannot
    assert ben.client.get(f"/t/{token}/tray?correct={first}", headers={"HX-Request": "true"}).status_code == 403
    refused = ben.write(f"/t/{token}/escoba/round", {"correct": str(first), "c0": "24", "o0": "7", "s0": "3",
                                                     "seven": "0"})
    assert refused.status_code == 403
    assert "Only the one who wrote it (or the host) can correct this entry." in html.unescape(
        refused.get_data(as_text=True))


def test_the_host_correcting_an_old_round_keeps_the_piles_another_phone_is_counting(duel, app):
    """Ben was counting round 3 in the form when the host corrected round 1: the live board's
    tray replaced his (its state named the game's last event, which a correction changes), the
    form closed and his counts were gone. A correction leaves the tray's state (the form is
    checked again as he types; his Confirm goes with the board as it now stands); an entry still
    changes it, and so does the game's end."""
    host, anna, ben, token = duel
    enter_round(anna, token, c0=24, o0=7, s0=3, seven=0, e0=2)
    enter_round(anna, token, c0=20, o0=5, s0=2, seven=1)
    counting = {"round": "1", "c0": "22", "o0": "6", "s0": "2", "seven": "0"}
    state = lambda: re.search(r'<form id="tray"[^>]*data-state="([^"]+)"', ben.tray(token, counting)).group(1)  # noqa: E731
    before = state()
    first = played(app, token).entries[0][0].id
    status, page = preview(host, token, correct=first, c0=24, o0=7, s0=3, seven=0, e0=1)
    assert host.press(token, confirm(page), form=page).status_code == 200
    assert state() == before
    assert ben.press(token, confirm(ben.tray(token, counting)), form=ben.tray(token, counting)).status_code == 200
    assert played(app, token).result["points"]["Anna"] == 5 + 0 + 3  # round 1 corrected (one escoba), 2 level, 3 counted
    assert state() != before


def test_a_correction_that_would_end_the_game_early_is_refused_in_the_preview(phone, app):
    host = phone()
    token = host.open_table("escoba", ("Anna", "Ben"), target=8)
    enter_round(host, token, c0=24, o0=7, s0=3, seven=0)  # Anna +4
    enter_round(host, token, c0=24, o0=7, s0=3, seven=0)  # Anna 8: wins
    first = played(app, token).entries[0][0].id
    status, page = preview(host, token, correct=first, c0=40, o0=10, s0=4, seven=0)
    assert problems(page) == ["Round 2 would no longer fit: The game is over: Anna won, as Ben captured "
                              "no card in round 1"]


# --- the capture finder ---------------------------------------------------------------------------------

ALL_CARDS = [Card(rank, suit) for suit in Suit for rank in escoba.RANKS]


def code(card: Card) -> str:
    return f"{card.rank}{card.suit.value[0]}"


def brute_force(table, hand):
    """Every subset of the table, tried one by one: (codes, escoba)."""
    found = set()
    for size in range(1, len(table) + 1):
        for chosen in combinations(table, size):
            if sum(c.value for c in chosen) + hand.value == 15:
                found.add((frozenset(code(c) for c in chosen), size == len(table)))
    return found


def finder_answers(page: str) -> dict[str, set]:
    answers = {}
    for block in re.findall(r'<div class="answer" data-hand="(\w+)">(.*?)</div>', page, re.S):
        hand, body = block
        answers[hand] = {(frozenset(found.split(",")), bool(escoba_mark))
                         for found, escoba_mark in re.findall(r'data-capture="([^"]+)"( data-escoba)?', body)}
    return answers


def test_the_finder_skips_a_card_of_thousands_of_digits(client):
    """A rank of 4,301 digits: int() refuses it, and the finder answered a stranger 500."""
    page = client.get("/escoba/finder", query_string={"t": "9" * 4301 + "o,7o", "h": "9" * 4301 + "b"})
    assert page.status_code == 200 and "7" in page.get_data(as_text=True)


def test_the_finder_answers_every_capture_like_a_brute_force_search(client):
    rng = random.Random(15)
    for _ in range(150):
        cards = rng.sample(ALL_CARDS, rng.randint(2, 12))
        hand, table = cards[:rng.randint(1, 3)], cards[3:] if len(cards) > 3 else cards[len(cards) // 2:]
        hand = [c for c in hand if c not in table] or [next(c for c in ALL_CARDS if c not in table)]
        page = client.get("/escoba/finder", query_string={
            "t": ",".join(map(code, table)), "h": ",".join(map(code, hand)), "m": "hand"}).get_data(as_text=True)
        answers = finder_answers(page)
        assert list(answers) == [code(c) for c in hand]
        for card in hand:
            assert answers[code(card)] == brute_force(table, card), (table, card)
            if not brute_force(table, card):
                assert "Nothing makes 15" in page


def test_the_finder_marks_escobas_and_the_dealers_opening(client):
    page = client.get("/escoba/finder?t=7o,3c&h=5b&m=hand").get_data(as_text=True)
    assert finder_answers(page) == {"5b": {(frozenset({"7o", "3c"}), True)}}
    assert "Escoba!" in page

    def finder(query):
        return html.unescape(client.get(f"/escoba/finder?{query}").get_data(as_text=True))

    assert "As the dealer's four: 15 — an escoba for the dealer (15)." in finder("t=1o,2o,5c,7b")
    assert "As the dealer's four: 30 — two escobas for the dealer (30)." in finder("t=12o,11o,10c,3b")
    assert "As the dealer's four: 40 — no escoba (15 or 30 would be)." in finder("t=12o,12c,12b,12e")
    assert "dealer's four" not in finder("t=1o,2o,5c")


def test_finder_taps_toggle_cards_between_table_and_hand(client):
    page = client.get("/escoba/finder?t=1o").get_data(as_text=True)
    assert re.search(r'class="fcard on-table" href="/escoba/finder\?m=table#cards"', page)  # tap again: off
    assert 'href="/escoba/finder?m=table&amp;t=1o,2o#cards"' in page  # tap the 2: on
    page = client.get("/escoba/finder?t=1o,2o&h=5c,6c,7c&m=hand").get_data(as_text=True)
    # a fourth card in hand pushes out the first; a table card tapped in hand mode moves to the hand
    assert 'href="/escoba/finder?m=hand&amp;t=1o,2o&amp;h=6c,7c,12c#captures"' in page
    assert 'href="/escoba/finder?m=hand&amp;t=2o&amp;h=6c,7c,1o#captures"' in page
    page = client.get("/escoba/finder?t=1o,1o,99x,8o,,7q&h=1o").get_data(as_text=True)
    assert "On the table: " in page and page.count('class="fcard on-table"') == 1  # junk is ignored
    assert 'class="answer"' not in page  # a card cannot be on the table and in hand


def test_the_finder_answers_in_place_for_the_script_and_links_back_to_the_table(phone):
    device = phone()
    token = device.open_table("escoba", ("Anna", "Ben"))
    page = device.get(f"/t/{token}/escoba/finder?t=5o").get_data(as_text=True)
    assert f'href="/t/{token}"' in page and "<html" in page
    fragment = device.get(f"/t/{token}/escoba/finder?t=5o", headers={"HX-Request": "true"})
    assert "<html" not in fragment.get_data(as_text=True) and 'id="finder"' in fragment.get_data(as_text=True)
    assert device.get("/t/nonsense/escoba/finder").status_code == 404
    board = device.get(f"/t/{token}").get_data(as_text=True)
    assert f'/t/{token}/escoba/finder' in board


def test_the_rules_page_links_the_finder_and_a_new_table(client):
    page = client.get("/rules/escoba").get_data(as_text=True)
    assert 'href="/escoba/finder"' in page and 'href="/new/escoba"' in page


def test_two_phones_tapping_an_escoba_at_once_are_never_lost_silently(duel, app):
    """Both phones saw no escoba and tapped "+": the first counts, the second hears that the
    count changed meanwhile (it may have been the same escoba) and nothing is overwritten."""
    host, anna, ben, token = duel
    seen = anna.board_change(token)
    assert ben.board_change(token) == seen
    assert tap(anna, token, 0, change=seen).status_code == 200
    second = tap(ben, token, 0, change=seen)
    assert second.status_code == 409 and "at the same moment" in second.get_data(as_text=True)
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 1, "Ben": 0}}
    # tapped again on the board as it now stands, a second escoba counts
    assert tap(ben, token, 0).status_code == 200
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 2, "Ben": 0}}


def test_a_long_game_s_score_sheet_shows_its_newest_rounds(phone):
    """A log of 2,000 rounds made every board 320 KB (issue 25): the sheet shows the newest 30
    rounds and says where the rest are."""
    from tests.support import largest_log

    importer = phone()
    log = largest_log("escoba")
    log["events"] = log["events"][:42]
    imported = importer.post("/import", {"log": (io.BytesIO(json.dumps(log).encode()), "log.json")}, fetch=False,
                             content_type="multipart/form-data")
    assert imported.status_code == 303
    board = importer.get(imported.headers["Location"].removesuffix("/history")).get_data(as_text=True)
    sheet = board[board.index('class="card escoba-sheet"'):]
    assert re.findall(r'<th scope="row">(\d+)</th>', sheet) == [str(n) for n in range(13, 43)]
    assert "12 earlier rounds are in the history." in sheet


@pytest.mark.parametrize("names, said", [
    (("Anna", "Ben", "Cleo", "Dora"), "With four players Escoba is played as two pairs: the host draws them by lot"),
    (("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"), "With six players Escoba is played in pairs or in two teams"),
    (("Anna", "Ben", "Cleo", "Dora", "Emil"), "Escoba is played by 2, 3, 4 or 6 players, and 5 are at the table."),
])
def test_a_table_escoba_cannot_start_yet_says_why(phone, app, names, said):
    """Four names typed, nobody missing, and the card said "Waiting for players … starts when
    enough players have joined": four or six play in teams, which the host draws. Its two
    sentences stand apart ("Dora.With four" had lost the space between them)."""
    host = phone()
    token = host.open_table("escoba", names)
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert played(app, token).game is None and "starts when enough players" not in page
    assert f"At the table: {', '.join(names)}. {said}" in page
    if len(names) in (4, 6):
        assert host.post(f"/t/{token}/teams", {"action": "draw", "change": host.board_change(token)}).status_code == 200
        assert played(app, token).game is not None
        assert "Waiting for" not in host.get(f"/t/{token}").get_data(as_text=True)


def imported_in(reader, lang: str, log: str) -> str:
    """The table page of tests/logs/escoba/`log`, imported by a phone reading `lang`."""
    reader.post("/language", {"lang": lang, "next": "/"}, fetch=False)
    path = Path(__file__).parent / "logs" / "escoba" / log
    response = reader.post("/import", {"log": (io.BytesIO(path.read_bytes()), path.name)}, fetch=False,
                           content_type="multipart/form-data")
    return html.unescape(reader.get(response.headers["Location"]).get_data(as_text=True))


@pytest.mark.parametrize("lang, said, not_said", [
    ("de", "In Runde 2 ging keine Karte an Red", "Red hat"),
    ("es", "En la ronda 2 ninguna carta fue para Red", "Red no se llevó"),
])
def test_a_pair_shut_out_reads_right_in_german_and_spanish(phone, lang, said, not_said):
    """A pair is no "er" or "él": "Red hat … keine Karte gemacht", "Red no se llevó ninguna
    carta" gave a team one player's verb. The words now fit a side of one or a pair."""
    page = imported_in(phone(), lang, "two-pairs-shutout.json")
    assert said in page and not_said not in page


@pytest.mark.parametrize("lang, said, not_said", [
    ("de", "Left haben nach 2 Runden 5 von 5 erreicht.", "Left hat"),
    ("es", "Left llegaron a 5 de 5 tras 2 rondas.", "Left llegó"),
])
def test_a_team_reaches_the_target_in_its_own_grammar(phone, lang, said, not_said):
    """A team of three won: "Left hat nach 2 Runden 5 von 5 erreicht", "Left llegó a 5" gave
    the team one player's verb (the shut-out's words were mended so before)."""
    page = imported_in(phone(), lang, "six-two-teams.json")
    assert said in page and not_said not in page


def test_the_end_s_totals_have_a_minus_sign(phone):
    """Below zero after a false capture, the end's list printed "-4" with a hyphen, where every
    other Escoba screen has "−4"."""
    token = phone().open_table("escoba", ("Anna", "Ben"), target=1)
    anna = phone()
    anna.join(token, "Anna")
    status, page = preview(anna, token, c0=24, o0=7, s0=3, seven=0, f1=1)
    assert anna.press(token, confirm(page), form=page).status_code == 200
    board = html.unescape(anna.get(f"/t/{token}/board").get_data(as_text=True))
    ledger = re.search(r'<ul class="ledger">(.*?)</ul>', board, re.S).group(1)
    assert re.findall(r"<b>(.*?)</b>", ledger) == ["4", "−4"]


def test_a_tie_on_top_at_the_target_says_the_game_goes_on(phone):
    """Anna and Ben reach 3 of 3 in the same round, level: the form showed each one's points and
    nothing more, and the board "reached 3" twice under "Round 2" — why nobody won, nobody said."""
    token = phone().open_table("escoba", ("Anna", "Ben", "Cleo"), target=3)
    anna = phone()
    anna.join(token, "Anna")
    # Anna: most cards, the seven of coins, an escoba; Ben: most coins, most sevens, an escoba
    status, page = preview(anna, token, c0=16, o0=3, s0=1, e0=1, c1=12, o1=4, s1=2, e1=1, seven=0)
    assert problems(page) == []
    assert "Tied on top at 3: nobody wins yet, another round is played." in html.unescape(page)
    assert anna.press(token, confirm(page), form=page).status_code == 200
    board = html.unescape(anna.get(f"/t/{token}/board").get_data(as_text=True))
    assert "Round 2" in board and "tied on top: play goes on" in board
    status, page = preview(anna, token, c0=20, o0=5, s0=2, c1=20, o1=5, s1=2, seven=1)  # Ben's seven of coins
    assert "Tied on top" not in page and "Ben wins the game!" in page


@pytest.mark.parametrize("names, heading", [(("Anna", "Ben", "Cleo", "Dora"), "Waiting for the pairs"),
                                            (("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"), "Waiting for the teams")])
def test_four_or_six_are_offered_no_game_for_themselves(phone, app, names, heading):
    """Four or six play Escoba in teams only: once drawn, the seat list offered "Everyone for
    themselves", a tap that took the teams away and left a game that could not start. Six wait
    for pairs or for teams of three: "Waiting for the pairs" said only the one."""
    host = phone()
    token = host.open_table("escoba", names)
    assert heading in host.get(f"/t/{token}").get_data(as_text=True)
    assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert played(app, token).game is not None
    assert "Draw pairs by lot" in page and "Everyone for themselves" not in page
    assert not [button for button in writes(page, "/teams") if button["vals"] == {"action": "clear"}]
    if len(names) == 4:  # two more add themselves: six, two of them in no team yet
        for name in ("Emil", "Fritz"):
            late = phone()
            late.get(f"/t/{token}")
            assert late.post(f"/t/{token}/join", {"name": name, "change": late.board_change(token)}, fetch=False).status_code == 303
        seats = host.get(f"/t/{token}").get_data(as_text=True)
        assert "waits for a team: draw the teams again<" in seats and "Everyone for themselves" not in seats
        assert "Draw teams of 3 by lot" in seats


def test_the_round_form_closes_on_escape_like_its_close_button(duel):
    """The round form was a <div role="dialog"> over the whole screen that Escape did not close:
    a keyboard player had to find ✕. It is a <dialog> that closes on Escape (closedby, no
    script), and closed, it asks for the folded tray as ✕ does: the same request, to the same
    place; that tray has no form, and its "Round over" opens a fresh one."""
    host, anna, ben, token = duel
    page = anna.tray(token, round="1", c0="22")
    dialog = re.search(r'<dialog\b[^>]*class="escoba-form"[^>]*>', page)
    assert dialog, "the round form is no <dialog>"
    dialog = dialog.group(0)
    assert re.search(r'\sopen[\s>]', dialog) and re.search(r'closedby="(closerequest|any)"', dialog)
    assert 'role="dialog"' not in dialog and 'aria-label="Enter a round"' in dialog
    close = re.search(r'<button[^>]*data-close-round[^>]*>', page).group(0)

    def attrs(tag):  # the request a tag sends: what, with what, where
        return {k: v for k, v in re.findall(r'([\w:-]+)="([^"]*)"', tag) if k in ("hx-get", "hx-include", "hx-target", "hx-swap")}

    assert attrs(dialog) == attrs(close) and attrs(close)["hx-target"] == "#tray"
    assert 'hx-trigger="close"' in dialog
    folded = anna.get(attrs(dialog)["hx-get"], headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "escoba-form" not in folded and re.search(r'<button[^>]*name="round" value="1"', folded)
