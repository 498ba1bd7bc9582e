"""The evening goes on at a new table: the phones at the old one are shown the way there
(service.follow_on; found by the next table helper)."""

import html
import re
from urllib.parse import parse_qs, urlsplit

from tests.test_seats import add_me, game_of, host_says, seat_of
from tests.test_web_escalero_evening import NAMES, finished_game


def board(phone, url) -> str:
    return html.unescape(phone.get(url).get_data(as_text=True))


def card(page: str) -> str | None:
    found = re.search(r'<p class="card next-table"[^>]*>(.*?)</p>', page, re.S)
    return re.sub(r"\s+", " ", found.group(1)) if found else None


def test_the_phones_at_the_old_table_follow_the_host_to_the_next_one(app, phone):
    """The host opened the next game from the settlement's link, and every friend's phone stayed
    on the old table: each had to scan the new table's QR code. The old table's board shows its
    seated phones "The evening goes on" with the new table's join link (there, the same names to
    tap); not the read-only board, a stranger's phone or a forged link's."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena = phone().speaking("de")
    lena.join(token, "Lena")
    gosia = phone()
    gosia.join(token, "Gosia")
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Gosia')['id']}/remove").status_code == 200
    stranger = phone()
    board_token = re.search(r'href="/b/([^/"]+)"', page).group(1)
    # the settlement's link carries the old table's join token to the host's and Lena's phones
    link = re.search(r'class="next-game">.*?href="([^"]+)"', page, re.S).group(1)
    query = parse_qs(urlsplit(link).query)
    assert query["after"] == [token] and query["player"] == list(NAMES)
    assert f"after={token}" in board(lena, f"/t/{token}").split('class="next-game"')[1].split("</p>")[0]
    assert "after=" not in board(stranger, f"/t/{token}").split('class="next-game"')[1].split("</p>")[0]
    # the form keeps it, hidden; opening the table links the old one to it
    form = board(host, link)
    assert f'<input type="hidden" name="after" value="{token}">' in form
    game = urlsplit(link).path.rsplit("/", 1)[-1]
    before = lena.board_change(token)
    opened = host.post(f"/new/{game}", {"player": list(NAMES), "after": token}, fetch=False)
    assert opened.status_code == 303
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    code = re.search(r'class="code-big">[^<]*<b>([^<]+)</b>', board(host, f"/t/{new}")).group(1)
    assert int(lena.board_change(token)) > int(before)  # a change of the old table: its streams send the board
    # Lena's phone, in German: the card and the new join link; there she taps her name
    shown = card(board(lena, f"/t/{token}"))
    assert shown and f"Der Abend geht weiter" in shown and code in shown, shown
    assert f'href="/t/{new}"' in shown
    assert card(board(host, f"/t/{token}")) and f'href="/t/{new}"' in card(board(host, f"/t/{token}"))
    lena.join(new, "Lena")
    # nobody else: a stranger's phone on the join link, a removed phone, the read-only board
    assert card(board(stranger, f"/t/{token}")) is None and card(board(gosia, f"/t/{token}")) is None
    assert card(board(phone(), f"/b/{board_token}")) is None
    assert new not in board(stranger, f"/t/{token}") and new not in board(phone(), f"/b/{board_token}")
    # and a live message of the old table's board carries the card to Lena only
    assert f'href="/t/{new}"' in lena.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    # a rematch at the old table after all: the card was about the game before it
    assert host.write(f"/t/{token}/rematch", {"idem": "again"}).status_code == 200
    assert card(board(lena, f"/t/{token}")) is None


def test_a_forged_or_a_stranger_s_after_links_nothing_and_the_table_opens(phone):
    """An `after` that names no table, or a table the opening phone has no seat at, links
    nothing and says nothing: the new table opens as ever."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena = phone()
    lena.join(token, "Lena")
    before = lena.board_change(token)
    for after in ("forged-token", token + "x", "", "x" * 1999):
        stranger = phone()
        opened = stranger.post("/new/escalero", {"player": ["Anna", "Ben"], "after": after}, fetch=False)
        assert opened.status_code == 303, after[:20]
    stranger = phone()
    stranger.get(f"/t/{token}")  # a stranger who has the join link: no seat there
    opened = stranger.post("/new/escalero", {"player": ["Anna", "Ben"], "after": token}, fetch=False)
    assert opened.status_code == 303
    assert lena.board_change(token) == before  # no change of the old table
    assert card(board(lena, f"/t/{token}")) is None and card(board(host, f"/t/{token}")) is None


def test_a_settlement_shown_before_a_new_join_link_still_leads_the_table_on(phone):
    """The host made the table a new join link after the game, and opened the next table from
    the settlement still on the screen (the old link's token as `after`): the table is linked
    all the same, its phones shown the way."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena = phone()
    lena.join(token, "Lena")
    assert host_says(host, token, "/settings", {"new_link": "yes"}).status_code == 200
    moved = host.get(f"/t/{token}").headers["Location"].rsplit("/", 1)[-1]
    assert moved != token
    opened = host.post("/new/escalero", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    assert f'href="/t/{new}"' in (card(board(lena, f"/t/{moved}")) or "")


def test_a_new_join_link_at_the_next_table_reaches_the_old_table_s_card(app, phone):
    """The new table's host gave it a new join link: the old table's card, sent to its phones
    from the board its streams had (made once per change), kept the dead code and link, and a
    friend not yet seated there was told "There is no such table". The new link is a change of
    the old table too: its phones get the card again, with the new code."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena = phone()
    lena.join(token, "Lena")
    link = re.search(r'class="next-game">.*?href="([^"]+)"', page, re.S).group(1)
    game = urlsplit(link).path.rsplit("/", 1)[-1]
    opened = host.post(f"/new/{game}", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    before = lena.board_change(token)
    assert host_says(host, new, "/settings", {"new_link": "yes"}).status_code == 200
    assert int(lena.board_change(token)) > int(before)
    moved = re.search(r'href="/t/([^"]+)"', card(board(lena, f"/t/{token}"))).group(1)
    assert moved != new and phone().get(f"/t/{moved}").status_code == 200


def test_the_next_table_keeps_the_host_s_yes_and_the_phones_removed(app, phone):
    """A money game whose host had removed a phone (new seats wait for the host's yes from then
    on) went on at a new table from the settlement: the new table let everyone sit at once. Eve,
    who had scanned the QR code and was never let in, was shown the way there and sat in a free
    seat of the next money game; Mallory, removed for good, scanned the new table's code on the
    big screen and sat down again. The next table of the evening keeps both: Eve waits for the
    host's yes there too, Mallory is kept out; a friend the host let in sits at once."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena, mallory, eve = phone(), phone(), phone().speaking("de")
    lena.join(token, "Lena")
    assert add_me(mallory, token, "Mallory").status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Mallory')['id']}/remove").status_code == 200
    assert add_me(eve, token, "Eve").status_code == 200
    assert not seat_of(app, token, "Eve")["approved"]
    opened = host.post("/new/escalero", {"player": list(NAMES), "rule_stake": "0.10", "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    assert f'href="/t/{new}"' in (card(board(eve, f"/t/{token}")) or "")  # shown the way, as before
    # Eve taps a seat of the next money game: she waits for the host's yes, and writes nothing
    eve.join(new, "Gosia")
    assert not seat_of(app, new, "Gosia")["approved"]
    entry = eve.enter(new, {"type": "score", "player": "Gosia", "column": 1, "row": "G", "value": 50})
    assert entry.status_code == 403 and not game_of(app, new).entries
    assert "Gosia waits for your yes." in board(host, f"/t/{new}")
    # Mallory's phone, removed at the old table, is kept out of the next one
    refused = mallory.post(f"/t/{new}/join", {"seat": str(seat_of(app, new, "Íñigo")["id"]),
                                              "change": mallory.board_change(new)})
    assert refused.status_code == 403 and "removed this phone" in refused.get_data(as_text=True)
    assert seat_of(app, new, "Íñigo")["device"] is None
    # Lena, let in at the old table, sits at once
    lena.join(new, "Lena")
    assert seat_of(app, new, "Lena")["approved"]


def test_the_old_table_s_host_sits_at_once_at_the_next_table_a_friend_opened(app, phone):
    """A friend let in at the old table opened the next one from the settlement, where new seats
    wait for a yes as they did at the old one: the old table's host, who kept score from no
    seat, sits there at once, as the friends let in do; a stranger waits."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena, eve = phone(), phone()
    lena.join(token, "Lena")
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    link = re.search(r'class="next-game">.*?href="([^"]+)"', board(lena, f"/t/{token}"), re.S).group(1)
    assert parse_qs(urlsplit(link).query)["after"] == [token]
    opened = lena.post("/new/escalero", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    host.join(new, "Jürgen")
    assert seat_of(app, new, "Jürgen")["approved"]
    eve.join(new, "Gosia")
    assert not seat_of(app, new, "Gosia")["approved"]


def test_the_phone_that_opens_the_next_table_sits_there_under_its_name(app, phone):
    """Lena, at the table as Lena, opened the evening's next game from the settlement, and at
    the new table her phone asked "Are you playing too? Take your seat", her name among the others to
    tap again, as if she had come from nowhere. The opener sits in the seat of its name at once;
    a host who sat at no seat there (writing for everyone) sits at none here."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    gosia = phone()
    gosia.join(token, NAMES[1])
    for opener, seated in ((gosia, NAMES[1]), (host, None)):
        opened = opener.post("/new/escalero", {"player": list(NAMES), "after": token}, fetch=False)
        assert opened.status_code == 303
        new = opened.headers["Location"].rsplit("/", 1)[-1]
        devices = {name: seat_of(app, new, name)["device"] for name in NAMES}
        assert [name for name, device in devices.items() if device] == ([seated] if seated else [])
        assert ("Are you playing too?" in board(opener, f"/t/{new}")) is (seated is None)


def ledger_of(page: str) -> dict[str, str]:
    """The evening's ledger on a settlement or the history page: name → money."""
    found = re.search(r'<ul class="ledger">(.*?)</ul>', page, re.S)
    return dict(re.findall(r"<li><span>([^<]+)</span> <b[^>]*>([^<]+)</b></li>", found.group(1))) if found else {}


def test_who_pays_whom_tonight_adds_up_the_tables_the_evening_went_on_from(app, phone):
    """The evening went on at a new table from the settlement (its Escalero at €0.10, then
    another), and the last settlement's "Who pays whom tonight" counted the last table's games
    only: Íñigo's winnings at the first table were gone from the evening. It adds up the tables
    the evening went on from; a table opened without following the evening does not."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    opened = host.post("/new/escalero", {"player": list(NAMES), "rule_columns": "1", "rule_stake": "0.10",
                                         "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"):  # Lena wins this one
        for name in NAMES:
            value = (int(row) * 2 if row in "123456" else 0) if name == "Lena" else 0
            assert host.enter(new, {"type": "score", "player": name, "column": 1, "row": row,
                                    "value": value}).status_code == 200
    first, second = game_of(app, token).result["money"], game_of(app, new).result["money"]
    last = board(host, f"/t/{new}")
    assert "The evening's ledger" in last and "Who pays whom tonight" in last
    cents = {name: round(100 * (float(first[name]) + float(second[name]))) for name in NAMES}
    shown = {name: round(100 * float(money.replace("€", "").replace("+", "").replace("−", "-")))
             for name, money in ledger_of(last).items()}
    assert shown == cents, (shown, first, second)
    assert cents["Íñigo"] > 0 and cents["Lena"] != round(100 * float(second["Lena"]))
    history = board(host, f"/t/{new}/history")
    assert ledger_of(history) == ledger_of(last)
    assert "It includes the games of 1 table the evening went on from." in history
    # the first table's own ledger is its own: the evening went on from it, not to it
    assert "Who pays whom tonight" not in board(host, f"/t/{token}")
    # its host takes its last entry back: its game is over no more, and the last table's phones
    # get their board again, whose ledger no longer counts it
    seen = host.board_change(new)
    last_entry = game_of(app, token).entries[-1][0].id
    assert host.write(f"/t/{token}/undo", {"target": str(last_entry)}).status_code == 200
    assert int(host.board_change(new)) > int(seen)
    again = board(host, f"/t/{new}")
    assert "Who pays whom tonight" not in again  # one game with money left: its own settlement says it
    # a table opened without following the evening counts its own games alone
    other = host.post("/new/escalero", {"player": list(NAMES), "rule_columns": "1", "rule_stake": "0.10"},
                      fetch=False).headers["Location"].rsplit("/", 1)[-1]
    assert "went on from" not in board(host, f"/t/{other}/history")


def test_a_seat_s_second_next_table_leaves_the_evening_where_the_host_took_it(app, phone):
    """The host opened the evening's next table from the settlement; then Lena, let in at the old
    table, opened another from the same settlement. Hers took the old table's link: the real next
    table's "Who pays whom tonight" lost the old table's money, which showed at Lena's table
    instead. The evening stays where it went on; a next table of the host's own still moves it (a
    mistaken one mended)."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    lena = phone()
    lena.join(token, "Lena")

    def opened(by) -> str:
        answer = by.post("/new/escalero", {"player": list(NAMES), "rule_columns": "1", "rule_stake": "0.10",
                                           "after": token}, fetch=False)
        assert answer.status_code == 303
        return answer.headers["Location"].rsplit("/", 1)[-1]

    real = opened(host)
    hers = opened(lena)
    shown = card(board(lena, f"/t/{token}"))
    assert shown and f'href="/t/{real}"' in shown and hers not in shown
    assert "went on from" in board(host, f"/t/{real}/history")
    assert "went on from" not in board(lena, f"/t/{hers}/history")
    assert seat_of(app, hers, "Lena")["device"]  # she sits at her own table as she sat at the old one
    mended = opened(host)
    shown = card(board(lena, f"/t/{token}"))
    assert shown and f'href="/t/{mended}"' in shown
    assert "went on from" not in board(host, f"/t/{real}/history") and "went on from" in board(host, f"/t/{mended}/history")
