"""Seats through a real evening at the pub: a phone that dies mid-game, a friend's phone picked
up instead, the host's seat list (found by the seats helper's play, in a browser and here)."""

from __future__ import annotations

import re

from tests.test_seats import F35, add_me, game_of, host_says, seat_of


def refusal(response) -> str:
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).replace("&#39;", "'").strip() if found else ""


def test_a_player_whose_phone_died_is_sent_to_their_own_seat_not_a_new_name(app, phone):
    """Anna's phone died mid-game at €2 a point; on a friend's phone the join card offers only
    "Your name / Add me" (every seat is taken). She typed "Anna" and was told "Anna is at the
    table twice: give each player their own name." — so she added "Anna 2", a newcomer who plays
    from the next game, her column and money left behind. Now she is told her seat is there and
    the host frees it; once it is free, her typed name takes it (as a tap on it does)."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"), stake="2")
    anna = phone()
    anna.join(token, "Anna")
    assert anna.enter(token, F35).status_code == 200
    friends = phone()
    told = add_me(friends, token, "anna")
    assert told.status_code == 409
    assert refusal(told) == ("Anna already sits at this table on another phone. If that is you, ask the host "
                             "to free your seat, then tap your name.")
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Anna')['id']}/free").status_code == 200
    assert add_me(friends, token, "Anna ").status_code == 200
    seat = seat_of(app, token, "Anna")
    assert seat["device"] and seat["approved"] == 1
    assert host.enter(token, {**F35, "player": "Ben"}).status_code == 200
    assert friends.enter(token, {**F35, "column": 2}).status_code == 200  # her column, her game
    played = game_of(app, token)
    assert played.header["players"] == ["Anna", "Ben"] and [e.by for e, *_ in played.entries] == ["Anna", "host", "Anna"]


def test_a_newcomer_at_a_full_table_with_a_free_seat_is_told_to_take_it(app, phone):
    """Dora left a Euchre table of four mid-game and the host freed her seat; Eve, come to take her place,
    found only "Tap your name: Dora" on the join card, and the name she typed was refused "This
    table is full: … The host can free a seat for you." — a seat that was free already. Both now
    say to tap the name of the player she takes over from."""
    host = phone()
    token = host.open_table("euchre", players=("Anna", "Ben", "Cleo", "Dora"))
    dora = phone()
    dora.join(token, "Dora")
    assert "Taking over" not in phone().get(f"/t/{token}").get_data(as_text=True)  # an evening's start
    assert host.enter(token, {"type": "hand", "maker": "Anna", "tricks": 3}).status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Dora')['id']}/free").status_code == 200
    eve = phone()
    card = eve.get(f"/t/{token}").get_data(as_text=True)
    assert "Taking over from a player who left? Tap their name." in card
    told = add_me(eve, token, "Eve")
    assert told.status_code == 409
    assert refusal(told) == "This table is full: this game is played by 4. Taking over from a player who left? Tap their name."
