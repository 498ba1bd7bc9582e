"""Yatzy on a phone that was asleep or offline while the table played on: what its late entry
is told when it is sent at last."""

from __future__ import annotations

from tests.test_web_yatzy import said, score, table  # noqa: F401 (a fixture)


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
    assert late.status_code == 409 and "already entered by host" in said(late), said(late)


def test_a_refusal_names_the_change_it_was_said_at(table):
    """A refusal stood over the board for good: a phone woken late read "Anna had entered it"
    turns later, the table played on beneath it. It names the table's change it was said at,
    and goes once the phone's board has moved past it (static/app.js)."""
    token, host, anna, ben, cleo = table
    asleep = anna.board_change(token)
    assert score(host, token, "0:chance", value="20").status_code == 200
    late = score(anna, token, "0:chance", value="22", change=asleep)
    assert late.status_code == 409 and f'data-change="{anna.board_change(token)}"' in said(late), said(late)
