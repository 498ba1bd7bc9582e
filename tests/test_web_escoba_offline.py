"""Escoba's escobas tapped on a phone whose network comes and goes: each + and − is a write
the phone keeps and sends again (static/app.js), and a write sent twice counts once."""

from __future__ import annotations

from tests.test_web_escoba import duel, played, tally_button  # noqa: F401 (a fixture)


def test_an_escoba_tapped_offline_is_kept_and_counts_once(duel, app):
    """The pub's Wi-Fi gone as Anna taps an escoba: her tap was no write the phone keeps (it
    had no idempotency key), so it was lost without a sign, and a + whose answer the Wi-Fi lost
    could not be sent again (refused: made on an old board). Each + and − is a write the phone
    keeps and lists while waiting (in words: the button's own), and the same tap sent again
    counts once."""
    host, anna, ben, token = duel
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    plus = tally_button(board, 0, 1)
    assert plus["vals"]["idem"] and plus["attrs"]["aria-label"] == "An escoba for Anna"  # what the list says (app.js)
    change = anna.board_change(token)
    for _ in range(2):  # sent, and sent again by the offline queue
        assert anna.press(token, plus, change=change).status_code == 200
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 1, "Ben": 0}}
    again = tally_button(anna.get(f"/t/{token}/board").get_data(as_text=True), 0, 1)
    assert again["vals"]["idem"] != plus["vals"]["idem"]  # the next escoba is a tap of its own
    assert tally_button(anna.get(f"/t/{token}/board").get_data(as_text=True), 0, -1)["vals"]["idem"] != again["vals"]["idem"]
    assert anna.press(token, again).status_code == 200
    assert played(app, token).draft["payload"] == {"escobas": {"Anna": 2, "Ben": 0}}
