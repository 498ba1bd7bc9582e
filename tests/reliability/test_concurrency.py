"""Concurrency: many phones writing to one table at the same moment, across two worker processes.

Each race sends, at one instant (threads released by a barrier, a new connection per request so
the two gunicorn workers share them), exactly the fields the page would post for a button its
tray or board rendered — the button's values and idempotency key, the tray's form, the change
the phone's board showed: the same cell from the player's phone (a double tap) and the host's,
the same deal from every phone, the same request resent with its key, the same undo, the same
seat. The event log must stay a legal game — one entry per turn, no duplicate — and every loser
must get a 4xx whose message says why.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.support import form_fields, writes

SECTION = "concurrency"
ALREADY = ("already entered",)  # an entry made on a board another phone has moved on
# A game's route checks its form against the game as it stands before the race token is looked
# at (service.write): a loser that arrives after the winner committed hears what the game is
# now — another side's turn, the game over — rather than "already entered"; still a reason.
TURN_MOVED_ON = ("write in their column", "The game is over")
ANSWERED_BY: set[str] = set()  # the worker processes that answered a race's requests (X-Worker)


@pytest.fixture(scope="module")
def server(kit, tmp_path_factory):
    # timing mode: every answer names the worker process that made it (X-Worker), so the last
    # test knows both workers took part in the races, whatever else loads the machine
    running = kit.Server(tmp_path_factory.mktemp("concurrency"), workers=2, env={"SCOREKEEPER_TIMING": "1"})
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


def press(phone, token, button: dict, form: str | None = None, idem: str | None = None, **more):
    """A tap on a button the page rendered, as htmx posts it: the button's values (with the
    idempotency key rendered in them), the fields of the tray it sits in (`form`), CSRF, and
    the change the phone's board shows (read now, before the race starts). Returns (who and
    which key, the request to send)."""
    data = dict(form_fields(form)) if form else {}
    for name, value in button["vals"].items():
        data[name] = value if isinstance(value, str) else json.dumps(value)
    data["change"] = phone.change(token)
    data.update(more)
    if idem:
        data["idem"] = idem
    return (id(phone), data.get("idem")), lambda: phone.post(button["url"], data)


def judge(figures, kit, sends, reasons: tuple[str, ...], winners: int = 1) -> list:
    """Race the requests; exactly `winners` requests — counting the copies of one request (one
    phone, one key: a double tap, a resend) once — answered 2xx; every other one a 4xx with one
    of the reasons."""
    replies = kit.race([call for _, call in sends])
    errors = [r for r in replies if isinstance(r, BaseException)]
    assert not errors, errors
    ANSWERED_BY.update(r.headers.get("X-Worker") for r in replies)
    won = [(key, r) for (key, _), r in zip(sends, replies) if 200 <= r.status < 400]
    lost = [r for r in replies if not 200 <= r.status < 400]
    assert len({key for key, _ in won}) == winners, [(r.status, r.message) for r in replies]
    for reply in lost:
        assert 400 <= reply.status < 500, (reply.status, reply.text[:300])
        assert any(reason in reply.message for reason in reasons), reply.message
    figures.add(SECTION, "races", 1)
    figures.add(SECTION, "requests", len(replies))
    figures.add(SECTION, "refusals", len(lost))
    return won


def tray(phone, token, **fields) -> str:
    reply = phone.tray(token, fields)
    assert reply.status == 200, reply.text[:300]
    return reply.text


def test_same_cell_from_the_player_and_the_host(kit, server, seat, figures):
    """Escalero: the player double-taps a throw's cell while the host taps it for them."""
    token, host, phones = seat("escalero", ["Anna", "Ben"], columns=1)
    rounds = 16
    for number in range(rounds):
        played = kit.played_of(server.database, token)
        side = played.state.side_on_turn
        # each phone taps the dice into its tray and the best cell it offers, as the screen does
        offers = {who: tray(phone, token, dice="6,6,6,5,5") for who, phone in (("player", phones[side]), ("host", host))}
        mine, hosts = (writes(offers[w], "/escalero/score")[0] for w in ("player", "host"))
        tap = press(phones[side], token, mine, offers["player"])
        judge(figures, kit, [tap, tap, press(host, token, hosts, offers["host"])],
              (*ALREADY, *TURN_MOVED_ON, "not your turn", "already written", "turn, not"))
    played = kit.played_of(server.database, token)
    sides = [event["player"] for _, event in played.entries]
    assert len(sides) == rounds and sides == ["Anna", "Ben"] * (rounds // 2), sides  # one cell per turn
    figures.add(SECTION, "entries_written", rounds)


def test_same_deal_from_every_phone(kit, server, seat, figures):
    """Euchre: anyone seated may enter a hand. For every deal, all five devices enter it at the
    same moment, each sending its request twice (a flaky network: one key), while three phones
    that never joined post the hand's fields too: 13 requests, one entry."""
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
        sends = []
        for device in [host, *phones.values(), *strangers]:
            chosen = {"maker": rng.choice(list(phones)), "tricks": str(rng.choice([3, 4, 5]))}
            if device in strangers:  # no tray: the hand's fields, forged
                sends.append(press(device, token, {"url": f"/t/{token}/euchre/hand", "vals": {}}, **chosen))
                continue
            picked = tray(device, token, **chosen)
            confirm = [b for b in writes(picked, "/euchre/hand")]
            assert len(confirm) == 1, picked[:500]
            send = press(device, token, confirm[0], picked)
            sends += [send, send]  # the same request twice
        judge(figures, kit, sends, (*ALREADY, *TURN_MOVED_ON, "Join the table first"))
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
        sends = []
        for phone, points in ((phones[on_turn], "350"), (phones[on_turn], "350"), (host, "500")):
            # the tray's total entry: the points typed, then fertisch!
            typed = tray(phone, token, points=points)
            fertisch = [b for b in writes(typed, "/kaques/turn") if b["vals"]["action"] == "total"
                        and "points" not in b["vals"]]
            sends.append(press(phone, token, fertisch[0], typed))
        judge(figures, kit, sends, (*ALREADY, "not your turn", "turn, not"))
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
        sends = []
        for index, device in enumerate([host, *phones.values()]):
            form = tray(device, token, round="1", c0=18 + index, o0=5, s0=2, e0=0, e1=0, seven=0)
            sends.append(press(device, token, writes(form, "/escoba/round")[0], form))
        judge(figures, kit, sends, ALREADY)
        rounds += 1
    assert len(kit.played_of(server.database, token).entries) == rounds
    figures.add(SECTION, "entries_written", rounds)


def test_a_retry_storm_with_one_idempotency_key_writes_once(kit, server, seat, figures):
    """A phone on a bad network resends one entry six times at once: all answered 2xx, one entry."""
    token, host, phones = seat("escalero", ["Anna", "Ben"], columns=1)
    for number in range(8):
        side = kit.played_of(server.database, token).state.side_on_turn
        offers = tray(phones[side], token, dice="1,2,3,4,6")
        send = press(phones[side], token, writes(offers, "/escalero/score")[0], offers)
        assert send[0][1], "the button carries its idempotency key"
        won = judge(figures, kit, [send] * 6, (), winners=1)
        assert len(won) == 6
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

        def undo(phone):
            found = [b for b in writes(phone.get(f"/t/{token}/board").text, "/undo") if b["vals"]["target"] == last]
            assert found, "an Undo for the last entry"
            return found[0]

        mine, hosts = undo(phones[on_turn]), undo(host)
        judge(figures, kit, [press(phones[on_turn], token, mine), press(host, token, hosts), press(host, token, hosts)],
              ("Only the last entry", "nothing to undo", "undid the last entry meanwhile", "was undone meanwhile"))
        # and an undo resent with its key: still one undo
        resend = press(host, token, hosts, idem=f"undo-{number}")
        again = kit.race([resend[1]] * 3)
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
    judge(figures, kit, [((id(p), None), lambda p=p: p.post(f"/t/{token}/join", {"seat": seat}, fetch=False))
                         for p in strangers], ("taken by another phone", "already sits"))
    newcomers = [kit.WebPhone(server.url) for _ in range(6)]
    for phone in newcomers:
        phone.get(f"/t/{token}")
    judge(figures, kit, [((id(p), None), lambda p=p: p.post(f"/t/{token}/join", {"name": "Zoe"}, fetch=False))
                         for p in newcomers], ("at the table twice", "Zoe already sits at this table"))
    greedy = kit.WebPhone(server.url)
    ben = greedy.seat_id(token, "Ben")
    judge(figures, kit, [(("seat", 1), lambda: greedy.post(f"/t/{token}/join", {"seat": ben}, fetch=False)),
                         (("name", 2), lambda: greedy.post(f"/t/{token}/join", {"name": "Eve"}, fetch=False))],
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
    # both workers answered racing requests (counted by the answers themselves: a CPU-time
    # threshold was missed on a loaded machine by a worker that had served its share)
    assert ANSWERED_BY == {str(pid) for pid in ticks} and len(ticks) == 2, (ANSWERED_BY, worked)
    figures.set(SECTION, "worker_cpu_seconds", [t / 100 for t in worked.values()])
