"""The host's part changing hands, tried as a stranger at the table and on the internet would
(found by the host helper): each hole one test, through HTTP as a phone posts."""

from __future__ import annotations

import pytest

from scorekeeper import service
from tests.test_seats import F35, db_of, game_of, host_says, seat_of
from tests.test_web_history import code_of, pub  # noqa: F401 (a fixture)


def hand_to(host, app, token, name):
    seat = seat_of(app, token, name)
    return host_says(host, token, f"/seats/{seat['id']}/host", {"sat": service.seat_mark(seat["device"])})


def test_the_phone_that_opened_the_table_follows_a_new_link_its_new_host_made(app, phone):
    """The opener handed the table to Anna, who gave it a new join link: the opener's page on
    the old link said "There is no such table" (404), and its live stream ended, though the
    table is its own and it may take the host's part back. It follows the link as a seat does."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna = phone()
    anna.join(token, "Anna")
    assert hand_to(host, app, token, "Anna").status_code == 200
    moved = host_says(anna, token, "/settings", {"new_link": "yes"}).headers["HX-Redirect"]
    old = host.get(f"/t/{token}")
    assert old.status_code == 303 and old.headers["Location"].endswith(moved)
    assert "Take the host's part back" in host.get(moved).get_data(as_text=True)
    assert phone().get(f"/t/{token}").status_code == 404  # a phone neither seated nor the opener is not sent on


def test_the_phone_that_opened_the_table_may_still_name_it_in_an_import(app, pub):
    """The host kept score without a seat and handed the table to Anna: an import from its
    phone naming the table was refused ("Only a phone seated at table … can name it"), as if it
    had never been there. The phone that opened a table may name it, as its host may; the claim
    waits for the host's answer, Anna's now."""
    host, anna, ben, token, log = pub
    assert hand_to(host, app, token, "Anna").status_code == 200
    assert host.post("/import", {"text": log, "played_at": code_of(app, token)}, fetch=False).status_code == 303
    assert "claims to have been played here" in anna.get(f"/t/{token}").get_data(as_text=True)


def test_the_new_host_is_not_offered_to_remove_the_phone_that_opened_the_table(app, phone):
    """The host sat as Anna and handed the table to Ben: Ben's seat list offered "Remove this
    phone" on Anna's seat, and its second tap was refused ("Anna's phone opened this table: it
    cannot be removed"). It offers freeing her seat and making her host, not removing her."""
    host, ben, cleo = phone(), phone(), phone()
    token = host.open_table(players=("Anna", "Ben", "Cleo"))
    host.join(token, "Anna")
    ben.join(token, "Ben")
    cleo.join(token, "Cleo")
    assert hand_to(host, app, token, "Ben").status_code == 200
    page = ben.get(f"/t/{token}").get_data(as_text=True)
    anna, cleos = (seat_of(app, token, name)["id"] for name in ("Anna", "Cleo"))
    for seat, removable in ((anna, False), (cleos, True)):
        assert (f"/seats/{seat}/remove" in page) == removable, seat
        assert f"/seats/{seat}/free" in page and f"/seats/{seat}/host" in page


def test_a_host_s_write_that_crosses_a_take_back_is_refused(app, phone):
    """Anna, made host, tapped "Remove Ben's phone for good" as the phone that opened the table
    took the host's part back: her request, read as the host's before the take-back, removed
    Ben in the write after it. Whether the phone hosts is asked again inside the write: her
    removal, entry or new link is refused in words, and nothing is written."""
    host, anna, ben = phone(), phone(), phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    assert hand_to(host, app, token, "Anna").status_code == 200
    db = db_of(app)
    table = service.by_join_token(db, token)
    was = service.viewer(db, table, seat_of(app, token, "Anna")["device"])  # her request, as it came
    assert was.host
    assert host_says(host, token, "/host").status_code == 200  # the take-back, first to the lock
    bens = seat_of(app, token, "Ben")
    for write in (lambda: service.release_seat(db, table, was, bens["id"], remove=True),
                  lambda: service.set_table(db, table, was, new_link=True),
                  lambda: service.submit(db, table, was, {**F35, "player": "Ben"}, board=int(host.board_change(token)))):
        with pytest.raises(service.Refused) as refused:
            write()
        assert refused.value.status == 409 and "Another phone hosts this table now" in str(refused.value)
    assert seat_of(app, token, "Ben")["device"] == bens["device"]
    assert service.by_join_token(db, token)["join_token"] == token and not game_of(app, token).entries
