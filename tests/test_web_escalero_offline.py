"""Escalero on a phone whose Wi-Fi is gone: what its kept writes show while they wait."""

from __future__ import annotations

import re

from tests.support import writes


def test_a_correction_tapped_offline_shows_in_its_cell_as_kept(phone):
    """The host corrects Anna's 4 in column 1, row 2 to 6 with the Wi-Fi gone: the correction is
    kept and sent once the network is back (static/app.js), but nothing said so — the cell still
    read 4, the list of kept entries was empty, and 8 beside it took a second correction
    meanwhile. Each correction names its cell and its value, as an entry does (data-pending):
    the cell reads "6 ⏳" and the picker takes no other tap until it is sent."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben"))
    event = {"type": "score", "player": "Anna", "column": 1, "row": "2", "value": 4}
    assert host.enter(token, event).status_code == 200
    board = host.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    entry = re.search(r'name="fix" value="(\d+)"', board).group(1)
    assert 'id="c0-1-2"' in board  # the cell the correction names
    fixes = writes(host.tray(token, fix=entry), "/correct")
    shown = [(w["attrs"].get("data-pending"), w["attrs"].get("data-pending-text")) for w in fixes]
    assert shown == [("#c0-1-2", "✕"), ("#c0-1-2", "2"), ("#c0-1-2", "4"), ("#c0-1-2", "6"), ("#c0-1-2", "8"),
                     ("#c0-1-2", "10")], shown
