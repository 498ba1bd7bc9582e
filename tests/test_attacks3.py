"""Attacks on what came in with the evening going on (the settlement's link to a new table that
carries the finished game's rules), imported logs' entry times, the card of the next table,
the refusal of an entry that crossed a correction and the seat an entry was written from: a
phone with the QR code but no seat, a seat waiting for the host's yes, a phone the host
removed, a stranger with a link or a hand-made request. Each test is one fault found so; what
held is in the attacker's report."""

from __future__ import annotations

from tests.support import form_fields


def said(response) -> str:
    return response.get_data(as_text=True)


def test_a_stake_of_thirty_digits_is_refused_in_words_not_a_500(app, phone):
    """A stake of 27 nines (a typo held down, a hand-made request, or the new-table form's link
    from a settlement, `?rule_stake=…`, that anyone can edit) was checked for more than two
    decimals before its size: rounding it to cents could not hold its 29 digits, and the form
    answered 500 both when the link was opened and when it was sent. The link opens the form
    at the default stake, and sending it is refused in words."""
    host = phone()
    for stake in ("9" * 27, "9" * 30 + ".5", "9" * 30 + "c"):
        link = host.get("/new/escalero", query_string={"player": ["Anna", "Ben"], "rule_stake": stake})
        assert link.status_code == 200
        assert form_fields(said(link), "new-table")["rule_stake"] == [""]
        sent = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_stake": stake}, fetch=False)
        assert sent.status_code == 400
        assert f"Stake per game point: “{stake}” is more than a stake can be: type less than a million." \
            in said(sent), said(sent)
