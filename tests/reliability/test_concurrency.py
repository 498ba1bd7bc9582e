"""Concurrency: many phones writing to one table at the same moment, across two worker processes.

Each race sends, at one instant (threads released by a barrier, a new connection per request so
the two gunicorn workers share them), exactly the fields the game's screen script would post:
the same cell from the player's phone (a double tap) and the host's, the same deal from every
phone, the same request resent with its idempotency key, the same undo, the same seat. The
event log must stay a legal game — one entry per turn, no duplicate — and every loser must get
a 4xx whose message says why.
"""

from __future__ import annotations

import html
import json
import random
import re
import uuid

import pytest

SECTION = "concurrency"
ALREADY = ("already entered", "You entered this already")  # an entry made on a board that has moved on


@pytest.fixture(scope="module")
def server(kit, tmp_path_factory):
    running = kit.Server(tmp_path_factory.mktemp("concurrency"), workers=2)
    running.cpu_at_start = kit.worker_cpu(running)
    yield running
    running.stop()


@pytest.fixture
def seat(kit, server):
    """seat(game, players, **rules) -> (token, host, {name: phone}): a table with every player seated."""

    def make(game, players, **rules):
        host = kit.WebPhone(server.url)
        token = host.open_table(game, players, rules)["token"]
        phones = {}
        for name in players:
            phones[name] = kit.WebPhone(server.url)
            phones[name].join(token, name)
        return token, host, phones

    return make


def fields_of(markup: str, marker: str) -> dict:
    """The data-fields JSON of the first element with `marker`, as the page script reads it."""
    found = re.search(marker + r'[^>]*?data-fields=(["\'])(.*?)\1', markup, re.S)
    assert found, f"no {marker} with data-fields"
    return json.loads(html.unescape(found.group(2)))


def post_as_script(phone, url: str, fields: dict, idem: str | None = None):
    """POST like app.js: every field a string (JSON for objects), an idempotency key, CSRF, and
    for an entry the count of entries its board shows now (before the race starts)."""
    if url.endswith("/entries") and "seen" not in fields:
        fields = {**fields, "seen": phone.seen(url.split("/")[2])}
    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in fields.items() if v is not None}
    data["idem"] = idem or uuid.uuid4().hex
    return lambda: phone.post(url, data)


def judge(figures, replies, reasons: tuple[str, ...], winners: int = 1) -> list:
    """Exactly `winners` answered 2xx; every other one a 4xx with one of the reasons."""
    errors = [r for r in replies if isinstance(r, BaseException)]
    assert not errors, errors
    won = [r for r in replies if 200 <= r.status < 400]
    lost = [r for r in replies if not 200 <= r.status < 400]
    assert len(won) == winners, [(r.status, r.message) for r in replies]
    for reply in lost:
        assert 400 <= reply.status < 500, (reply.status, reply.text[:300])
        assert any(reason in reply.message for reason in reasons), reply.message
    figures.add(SECTION, "races", 1)
    figures.add(SECTION, "requests", len(replies))
    figures.add(SECTION, "refusals", len(lost))
    return won


def test_same_cell_from_the_player_and_the_host(kit, server, seat, figures):
    """Escalero: the player double-taps a throw's cell while the host taps it for them."""
    token, host, phones = seat("escalero", ["Anna", "Ben"], columns=1)
    rounds = 16
    for number in range(rounds):
        played = kit.played_of(server.database, token)
        side = played.state.side_on_turn
        # each phone asks where its throw could go and taps the best cell, as the screen does
        offers = {who: phone.get(f"/t/{token}/escalero/placements?dice=6,6,6,5,5").text
                  for who, phone in (("player", phones[side]), ("host", host))}
        mine, hosts = (fields_of(offers[w], 'class="button option') for w in ("player", "host"))
        url = f"/t/{token}/entries"
        judge(figures, kit.race([post_as_script(phones[side], url, mine), post_as_script(phones[side], url, mine),
                                 post_as_script(host, url, hosts)]),
              (*ALREADY, "not your turn", "already written", "turn, not"))
    played = kit.played_of(server.database, token)
    sides = [event["player"] for _, event in played.entries]
    assert len(sides) == rounds and sides == ["Anna", "Ben"] * (rounds // 2), sides  # one cell per turn
    figures.add(SECTION, "entries_written", rounds)


def test_same_deal_from_every_phone(kit, server, seat, figures):
    """Euchre: anyone seated may enter a hand. For every deal, all five devices enter it at the
    same moment, each sending its request twice with one idempotency key (a flaky network),
    while three phones that never joined try too: 13 requests, one entry."""
    token, host, phones = seat("euchre", ["Anna", "Ben", "Cleo", "Dora"])
    strangers = [kit.WebPhone(server.url) for _ in range(3)]
    for phone in strangers:
        phone.get(f"/t/{token}")
    rng = random.Random(7)
    deals = 0
    for _ in range(30):
        played = kit.played_of(server.database, token)
        if played.finished:
            break
        board = host.get(f"/t/{token}/board").text
        deal = re.search(r'data-hand-entry data-deal="(\d+)"', board).group(1)
        calls = []
        for device in [host, *phones.values(), *strangers]:
            event = {"type": "hand", "maker": rng.choice(list(phones)), "tricks": rng.choice([3, 4, 5])}
            send = post_as_script(device, f"/t/{token}/euchre/hand", {"event": event, "deal": deal})
            calls += [send] if device in strangers else [send, send]  # the same request twice
        judge(figures, kit.race(calls), (*ALREADY, "Join the table first"), winners=2)
        deals += 1
        assert len(kit.played_of(server.database, token).entries) == deals
    played = kit.played_of(server.database, token)
    assert played.finished and len(played.entries) == deals
    figures.add(SECTION, "entries_written", deals)


def test_same_turn_from_the_player_and_the_host(kit, server, seat, figures):
    """Jaques le Kaques: the quick total of the player on turn, from their phone twice and the host's."""
    token, host, phones = seat("kaques", ["Anna", "Ben", "Cleo"])
    rounds = 12
    for number in range(rounds):
        played = kit.played_of(server.database, token)
        on_turn = played.state.on_turn
        calls = []
        for phone, points in ((phones[on_turn], 350), (phones[on_turn], 400), (host, 500)):
            # the tray's total entry, as kaques.js posts it
            player = re.search(r'data-kq-total data-url="[^"]+" data-player="([^"]+)"',
                               phone.get(f"/t/{token}/board").text).group(1)
            base = {"event": {"type": "turn", "player": html.unescape(player), "points": points}}
            calls.append(post_as_script(phone, f"/t/{token}/entries", base))
        judge(figures, kit.race(calls), (*ALREADY, "not your turn", "turn, not"))
    played = kit.played_of(server.database, token)
    assert [e["player"] for _, e in played.entries] == ["Anna", "Ben", "Cleo"] * (rounds // 3)
    figures.add(SECTION, "entries_written", rounds)


def test_same_round_from_every_phone(kit, server, seat, figures):
    """Escoba: anyone may enter a round; all three devices confirm the same round at once."""
    token, host, phones = seat("escoba", ["Anna", "Ben"])
    rounds = 0
    for number in range(8):
        if kit.played_of(server.database, token).finished:
            break
        calls = []
        for index, device in enumerate([host, *phones.values()]):
            preview = device.get(f"/t/{token}/escoba/preview?c0={18 + index}&o0=5&s0=2&e0=0&e1=0&seven=0").text
            calls.append(post_as_script(device, f"/t/{token}/entries", fields_of(preview, "data-round-confirm")))
        judge(figures, kit.race(calls), ALREADY)
        rounds += 1
    assert len(kit.played_of(server.database, token).entries) == rounds
    figures.add(SECTION, "entries_written", rounds)


def test_a_retry_storm_with_one_idempotency_key_writes_once(kit, server, seat, figures):
    """A phone on a bad network resends one entry six times at once: all answered 2xx, one entry."""
    token, host, phones = seat("escalero", ["Anna", "Ben"], columns=1)
    for number in range(8):
        side = kit.played_of(server.database, token).state.side_on_turn
        offer = fields_of(phones[side].get(f"/t/{token}/escalero/placements?dice=1,2,3,4,6").text,
                          'class="button option')
        send = post_as_script(phones[side], f"/t/{token}/entries", offer, idem=f"storm-{number}")
        judge(figures, kit.race([send] * 6), (), winners=6)
        assert len(kit.played_of(server.database, token).entries) == number + 1
    history = kit.played_of(server.database, token).history
    assert len(history) == 8  # no duplicate rows behind the scenes either
    figures.add(SECTION, "entries_written", 8)
    figures.add(SECTION, "retries_deduplicated", 8 * 5)


def test_undo_from_the_writer_and_the_host_at_once(kit, server, seat, figures):
    """The writer and the host both take back the last entry: one undo, the other told why."""
    token, host, phones = seat("kaques", ["Anna", "Ben"])
    for number in range(6):
        on_turn = kit.played_of(server.database, token).state.on_turn
        assert phones[on_turn].enter(token, {"type": "turn", "player": on_turn, "points": 100}).status == 200
        last = kit.played_of(server.database, token).entries[-1][0].id
        url = f"/t/{token}/undo"
        judge(figures, kit.race([post_as_script(phones[on_turn], url, {"target": str(last)}),
                                 post_as_script(host, url, {"target": str(last)}),
                                 post_as_script(host, url, {"target": str(last)})]),
              ("Only the last entry", "nothing to undo"))
        # and the same undo resent with its key: still one undo
        resend = post_as_script(host, url, {"target": str(last)}, idem=f"undo-{number}")
        again = kit.race([resend, resend, resend])
        assert all(r.status == 200 for r in again) or all(r.status == 409 for r in again), [r.status for r in again]
        assert kit.played_of(server.database, token).entries == ()
    undos = [r for r in kit.played_of(server.database, token).history if r.kind == "undo"]
    assert len(undos) == 6
    figures.add(SECTION, "undos_raced", 6)


def test_one_seat_many_phones(kit, server, figures):
    """Eight phones tap the same free seat; six add themselves under one new name; one phone
    taps two seats at once. One of each wins, the rest are told why."""
    host = kit.WebPhone(server.url)
    token = host.open_table("escalero", ["Anna", "Ben"])["token"]
    strangers = [kit.WebPhone(server.url) for _ in range(8)]
    seat = strangers[0].seat_id(token, "Anna")
    for phone in strangers:
        phone.get(f"/t/{token}")
    judge(figures, kit.race([lambda p=p: p.post(f"/t/{token}/join", {"seat": seat}, fetch=False)
                             for p in strangers]), ("taken by another phone", "already sits"))
    newcomers = [kit.WebPhone(server.url) for _ in range(6)]
    for phone in newcomers:
        phone.get(f"/t/{token}")
    judge(figures, kit.race([lambda p=p: p.post(f"/t/{token}/join", {"name": "Zoe"}, fetch=False)
                             for p in newcomers]), ("at the table twice",))
    greedy = kit.WebPhone(server.url)
    ben = greedy.seat_id(token, "Ben")
    judge(figures, kit.race([lambda: greedy.post(f"/t/{token}/join", {"seat": ben}, fetch=False),
                             lambda: greedy.post(f"/t/{token}/join", {"name": "Eve"}, fetch=False)]),
          ("already sits",))
    players = kit.played_of(server.database, token).header["players"]
    assert players[:3] == ["Anna", "Ben", "Zoe"] and players[3:] in ([], ["Eve"]), players
    import sqlite3
    conn = sqlite3.connect(server.database)
    taken = conn.execute("SELECT device, count(*) FROM seats WHERE device IS NOT NULL GROUP BY device "
                         "HAVING count(*) > 1").fetchall()
    conn.close()
    assert taken == []  # no phone sits twice at a table


def test_the_log_stays_legal_and_both_workers_served(kit, server, figures):
    counts = kit.check_database(server.database)
    assert server.server_errors() == [], server.log_tail()
    figures.set(SECTION, "games_checked", counts["games"])
    figures.set(SECTION, "worker_processes", server.workers)
    ticks = kit.worker_cpu(server)
    worked = {pid: ticks[pid] - server.cpu_at_start.get(pid, 0) for pid in ticks}
    assert len(worked) == 2 and all(t >= 5 for t in worked.values()), worked  # both served requests
    figures.set(SECTION, "worker_cpu_seconds", [t / 100 for t in worked.values()])
