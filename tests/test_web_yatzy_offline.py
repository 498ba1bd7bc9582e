"""Yatzy on a phone that was asleep or offline while the table played on: what its late entry
is told when it is sent at last, and what a correction kept meanwhile shows."""

from __future__ import annotations

import re

from tests.support import writes
from tests.test_web_yatzy import card, said, score, table  # noqa: F401 (a fixture)


def test_a_turn_sent_late_names_who_entered_it_not_who_wrote_last(table):
    """Anna's phone kept her turn while offline; meanwhile the host entered it for her, and Ben
    his own. Sent at last, her entry was refused "This was already entered by Ben": Ben wrote
    last, but her turn was the host's. It names the first write since her board, the one her
    turn ran into."""
    token, host, anna, ben, cleo = table
    asleep = anna.board_change(token)
    assert score(host, token, "0:chance", value="20").status_code == 200
    assert score(ben, token, "1:chance", value="20").status_code == 200
    late = score(anna, token, "0:chance", value="22", change=asleep)
    assert late.status_code == 409 and "The host already entered this" in said(late), said(late)


def test_a_refusal_names_the_change_it_was_said_at(table):
    """A refusal stood over the board for good: a phone woken late read "Anna had entered it"
    turns later, the table played on beneath it. It names the table's change it was said at,
    and goes once the phone's board has moved past it (static/app.js)."""
    token, host, anna, ben, cleo = table
    asleep = anna.board_change(token)
    assert score(host, token, "0:chance", value="20").status_code == 200
    late = score(anna, token, "0:chance", value="22", change=asleep)
    assert late.status_code == 409 and f'data-change="{anna.board_change(token)}"' in said(late), said(late)


def test_a_correction_tapped_offline_shows_in_its_box_as_kept(table):
    """Anna corrects her Fours from 12 to 16 with the Wi-Fi gone: her correction is kept and sent
    once the network is back (static/app.js), but nothing said so — the box still read 12, the
    list of kept entries was empty, and "20" beside it took a second correction meanwhile. Each
    correction names its box and its value, as an entry does (data-pending): the box reads
    "16 ⏳" and the picker takes no other tap until it is sent."""
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:4", dice="4,4,4,1,2").status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', card(anna, token)).group(1)
    fixes = writes(anna.tray(token, fix=entry), "/correct")
    shown = [(w["attrs"].get("data-pending"), w["attrs"].get("data-pending-text")) for w in fixes]
    assert shown == [("#y0-4", "✕"), ("#y0-4", "4"), ("#y0-4", "8"), ("#y0-4", "12"), ("#y0-4", "16"),
                     ("#y0-4", "20")], shown
    assert 'id="y0-4"' in card(anna, token)  # the box it names

