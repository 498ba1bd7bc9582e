"""Attacks on what came in with the evening going on (the settlement's link to a new table that
carries the finished game's rules), imported logs' entry times, the card of the next table,
the refusal of an entry that crossed a correction and the seat an entry was written from: a
phone with the QR code but no seat, a seat waiting for the host's yes, a phone the host
removed, a stranger with a link or a hand-made request. Each test is one fault found so; what
held is in the attacker's report."""

from __future__ import annotations

import re

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


def test_a_refusal_names_a_host_who_wrote_from_no_seat_as_the_host_after_it_hosts_no_more(app, phone):
    """The phone that opened the table made Anna's phone host; she freed her seat and entered
    her turn, then the table's phone took its part back. Ben's phone, whose board was from
    before her entry, sent the same turn: it was told "Das hat host schon eingetragen" on a
    German phone, a raw "host" (the refusal asked whether her phone hosts now, not whether it
    wrote from a seat, as the history does since entries carry their seat). It names the host
    in the phone's words, as the history row of that entry does."""
    from tests.test_seats import host_says, hosting_from_no_seat

    opener, anna, ben = phone(), phone(), phone().speaking("de")
    token = hosting_from_no_seat(app, opener, anna, ben)
    before = ben.board_change(token)
    assert anna.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}).status_code == 200
    assert host_says(opener, token, "/host").status_code == 200  # the table's phone takes its part back
    late = ben.enter(token, {"type": "score", "player": "Ben", "column": 1, "row": "F", "value": 35}, change=before)
    assert late.status_code == 409
    assert "Das hat der Gastgeber schon eingetragen: Schau auf die Tafel. Es wurde nichts hinzugefügt." in said(late)
    rows = re.findall(r'<span class="who">([^<]*)</span>', ben.get(f"/t/{token}/history").get_data(as_text=True))
    assert rows == ["Gastgeber"]


def test_a_log_s_start_that_is_no_time_is_no_date_on_the_player_s_page(app, phone):
    """An imported log whose `started_at` is no time ("last Friday", 50,000 letters: the log
    format only asks for text) showed it as it was written in the date of the game's line on
    each of its players' pages, the 50,000 letters in one line of a phone's screen, where the
    table's history since f7cf2cd shows such a time as no time. It is no date there either; the
    game's line stays, with its outcome."""
    import json

    for started in ("last Friday", "x" * 50_000):
        log = {"format": "scorekeeper-log/1", "game": "kaques", "players": ["Anna", "Ben"], "rules": {"target": 50},
               "started_at": started,
               "events": [{"type": "turn", "player": "Anna", "points": 0}, {"type": "turn", "player": "Ben", "points": 50}]}
        importer = phone()
        assert importer.post("/import", {"text": json.dumps(log)}, fetch=False).status_code == 303
        page = importer.get("/players/Anna")
        assert page.status_code == 200
        line = re.search(r'<ol class="game-lines">(.*?)</ol>', said(page), re.S).group(1)
        assert started[:20] not in line and "lost" in line, line[:300]


class _Stuck(Exception):
    pass


def test_a_stake_of_a_long_run_of_spaces_or_quotes_is_refused_at_once(app, phone):
    """A stake of "-", 2,000 spaces and "+" (a hand-made request, or the settlement's link to the
    next table, `?rule_stake=…`, which anyone can send around: 2 KB of URL) held the worker for
    hours: the reading of an amount tried every split of the spaces between the sign, the
    currency and the number (400 spaces: 20 s; every other table of that worker waited). A run
    of quotes or letters did the same. The link opens the form at the default stake and the
    form refuses it in words, at once (an alarm of 10 s only stops the old code, which never
    came back)."""
    import signal

    def stuck(*_):
        raise _Stuck

    host = phone()
    host.get("/new/escalero")
    before = signal.signal(signal.SIGALRM, stuck)
    try:
        for stake in ("-" + " " * 1998 + "+", "'" * 1999 + "+", "€" + "x" * 1998 + "+"):
            signal.alarm(10)
            link = host.get("/new/escalero", query_string={"player": ["Anna", "Ben"], "rule_stake": stake})
            sent = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_stake": stake}, fetch=False)
            signal.alarm(0)
            assert link.status_code == 200 and form_fields(said(link), "new-table")["rule_stake"] == [""]
            assert sent.status_code == 400 and "is not an amount: type one like 0.50" in said(sent)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
