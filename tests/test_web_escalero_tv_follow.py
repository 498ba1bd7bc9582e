"""The evening goes on at a new table, and the old table's big screen and read-only board go
with it, by themselves, to the new table's own (web/tv.py; found by the big screen helper)."""

import html
import re

from tests.test_web_escalero_evening import NAMES, finished_game

FOLLOW = re.compile(r'<div hidden hx-get="([^"]+)" hx-trigger="load" hx-swap="none"></div>')


def test_the_big_screen_of_the_old_table_moves_on_to_the_new_table_s(phone):
    """The host opened the next game from the settlement's link: the phones were shown the way,
    and the TV on the table kept showing the finished game until someone typed a new address.
    The old table's board (page and live message) carries an element that asks, on load, where
    to go; the answer is an HX-Redirect to the new table's big screen on its board token (or its
    board, for the board page). A rematch at the old table keeps it there; another table's
    board, a join link and a forged request follow nowhere (a 404 in words)."""
    host, page = finished_game(phone, "en")
    token = re.search(r'/t/([^/"]+)/', page).group(1)
    board, key = re.search(r'href="/b/([^/"]+)/tv\?screen=([\w-]+)"', page).groups()
    tv = phone()
    assert not FOLLOW.search(tv.get(f"/b/{board}/tv").get_data(as_text=True))
    assert tv.get(f"/b/{board}/tv/next", headers={"HX-Request": "true"}).status_code == 404
    stranger = phone()
    stranger_token = stranger.open_table("escalero", ("Anna", "Ben"))
    stranger_board = re.search(r'href="/b/([^/"]+)/tv\?', stranger.get(f"/t/{stranger_token}").get_data(as_text=True)).group(1)

    opened = host.post("/new/escalero", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    new_page = html.unescape(host.get(f"/t/{new}").get_data(as_text=True))
    new_board, new_key = re.search(r'href="/b/([^/"]+)/tv\?screen=([\w-]+)"', new_page).groups()
    code = re.search(r'class="code-big">[^<]*<b>([^<]+)</b>', new_page).group(1)

    # the page and the live message of the old board carry the element; nothing of the new table's
    screen = tv.get(f"/b/{board}/tv").get_data(as_text=True)
    live = tv.get(f"/b/{board}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    for text in (screen, live, tv.get(f"/b/{board}").get_data(as_text=True)):
        found = FOLLOW.search(text)
        assert found and found.group(1) == f"/b/{board}/tv/next", text[:300]
        assert new not in text and new_board not in text and f">{code}<" not in text
    # it answers the big screen with the new table's big screen, the board page with its board;
    # the host's big screen, which shows the way in (its screen key), the new table's with its key
    answer = tv.get(f"/b/{board}/tv/next", headers={"HX-Request": "true",
                                                     "HX-Current-URL": f"http://localhost/b/{board}/tv"})
    assert answer.status_code == 200 and answer.headers["HX-Redirect"] == f"/b/{new_board}/tv"
    assert new not in answer.get_data(as_text=True)
    for given, goes in ((key, f"/b/{new_board}/tv?screen={new_key}"), (new_key, f"/b/{new_board}/tv")):
        answer = tv.get(f"/b/{board}/tv/next", headers={
            "HX-Request": "true", "HX-Current-URL": f"http://localhost/b/{board}/tv?screen={given}"})
        assert answer.headers["HX-Redirect"] == goes, given
    answer = tv.get(f"/b/{board}/tv/next", headers={"HX-Request": "true", "HX-Current-URL": f"http://localhost/b/{board}"})
    assert answer.headers["HX-Redirect"] == f"/b/{new_board}"
    assert tv.get(f"/b/{board}/tv/next").headers["Location"] == f"/b/{new_board}"
    # there: its own QR code and code, as any big screen; on its board token, read-only
    there = tv.get(f"/b/{new_board}/tv?screen={new_key}").get_data(as_text=True)
    assert f'<p class="tv-code">Code <b>{code}</b></p>' in there and not FOLLOW.search(there)
    # not the join link's board, another table's board token, or a forged token
    assert not FOLLOW.search(host.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True))
    assert host.get(f"/t/{token}/tv/next", headers={"HX-Request": "true"}).status_code == 404
    assert not FOLLOW.search(tv.get(f"/b/{stranger_board}/tv").get_data(as_text=True))
    for url in (f"/b/{stranger_board}/tv/next", f"/b/{board}x/tv/next", "/b/nope/tv/next", f"/b/{board}/tv/next/x"):
        refused = tv.get(url, headers={"HX-Request": "true"})
        assert refused.status_code == 404 and "HX-Redirect" not in refused.headers, url
        assert "Check the link" in refused.get_data(as_text=True), url
    # a rematch at the old table after all: the big screen stays for it
    assert host.write(f"/t/{token}/rematch", {"idem": "again"}).status_code == 200
    assert not FOLLOW.search(tv.get(f"/b/{board}/tv").get_data(as_text=True))
    assert not FOLLOW.search(tv.get(f"/b/{board}/board", headers={"HX-Request": "true"}).get_data(as_text=True))
    stale = tv.get(f"/b/{board}/tv/next", headers={"HX-Request": "true"})
    assert stale.status_code == 404 and "HX-Redirect" not in stale.headers
    assert tv.get(f"/b/{board}/tv/next").status_code == 404
