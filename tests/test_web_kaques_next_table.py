"""The evening goes on at a new table (service.follow_on): a phone still waiting for the host's
yes at the old table is shown the way there, but leads nobody on; and the settlement's link to
the next game carries the finished game's rules (found by the next table helper)."""

import html
import re
from urllib.parse import parse_qs, urlsplit

from tests.games.kaques import first_entry
from tests.test_seats import add_me, host_says, seat_of

NAMES = ("Anna", "Ben")


def board(phone, url) -> str:
    return html.unescape(phone.get(url).get_data(as_text=True))


def card(page: str) -> str | None:
    found = re.search(r'<p class="card next-table"[^>]*>(.*?)</p>', page, re.S)
    return re.sub(r"\s+", " ", found.group(1)) if found else None


def finished_game(phone, **rules) -> tuple:
    """A race to 100 (or `rules`): Anna's first turn, 200 points, wins it; the host's phone and its
    join token."""
    host = phone().speaking("de")
    token = host.open_table("kaques", NAMES, **{"target": 100, **rules})
    assert first_entry(host, token).status_code == 200
    assert 'data-finished="yes"' in board(host, f"/t/{token}")
    return host, token


def next_links(page: str) -> list[str]:
    """The settlement's links to each game's new-table form."""
    return re.findall(r'href="([^"]+)"', page.split('class="next-game"')[1].split("</p>")[0])


def test_a_phone_waiting_for_the_host_s_yes_is_shown_the_next_table_but_leads_nobody_on(app, phone):
    """Eve joined the old table and waited for the host's yes when the game ended; the host
    opened the next game from the settlement and every phone was shown "The evening goes on" but
    Eve's, stranded on a finished table (a new join link of the table does send her on). Her
    phone is shown the card now; but her settlement's links carry no `after`, and an `after` she
    sends links nothing. A turned-away phone, a removed one and a stranger still see nothing."""
    host, token = finished_game(phone)
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    eve = phone().speaking("pl")
    assert add_me(eve, token, "Eve").status_code == 200
    assert not seat_of(app, token, "Eve")["approved"]
    mallory, gosia, stranger = phone(), phone(), phone()
    assert add_me(mallory, token, "Mallory").status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Mallory')['id']}/let-in",
                     {"answer": "no"}).status_code == 200
    assert add_me(gosia, token, "Gosia").status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Gosia')['id']}/let-in",
                     {"answer": "yes"}).status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Gosia')['id']}/remove").status_code == 200
    stranger.get(f"/t/{token}")
    # Eve's settlement offers the next games, without the table's token
    eves = board(eve, f"/t/{token}")
    assert next_links(eves) and all("after=" not in link for link in next_links(eves))
    # an `after` she sends anyway links nothing: the old table does not change
    before = host.board_change(token)
    assert eve.post("/new/kaques", {"player": list(NAMES), "after": token}, fetch=False).status_code == 303
    assert host.board_change(token) == before and card(board(eve, f"/t/{token}")) is None
    # the host's link does, and Eve's phone (in Polish) is shown the new table
    link = next_links(board(host, f"/t/{token}"))[0]
    game = urlsplit(link).path.rsplit("/", 1)[-1]
    assert parse_qs(urlsplit(link).query)["after"] == [token]
    opened = host.post(f"/new/{game}", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    shown = card(board(eve, f"/t/{token}"))
    assert shown and "Wieczór trwa dalej" in shown and f'href="/t/{new}"' in shown, shown
    # and the live board of her kind carries it too
    assert f'href="/t/{new}"' in eve.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    for nobody in (mallory, gosia, stranger):
        assert card(board(nobody, f"/t/{token}")) is None and new not in board(nobody, f"/t/{token}")
