"""Access: who may write where, proven route by route.

tests/test_web_tables.py already shows single refusals (a stranger's entry, a forged cookie,
a missing CSRF token, the board's POST, one name with markup). Here every state-changing route
of the app — read from Flask's URL map, so a new route must be classified — is tried by each
kind of outsider with a request the host could make, and must be refused without a write; the
same request from the host then succeeds, so it was the outsider that was refused, not the
request. Then: own side only, the read-only board, token sizes, the short code's rate limit
(across two worker processes and under a burst), cookie flags on the real server, the CSP and
inline scripts on every page, and markup in every name on every screen.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sqlite3
from pathlib import Path

import pytest

from scorekeeper import service, store
from scorekeeper.games import GAMES
from scorekeeper.web.security import CSP
from tests.games import SUPPORT

SECTION = "access"
# POST routes any device may use with its CSRF token: opening a table (and asking for its form
# again for the choices made: nothing written), joining one, and importing a game log (it opens
# a new table, hosted by the importing device)
OPEN = {"pages.create", "pages.new_again", "pages.join_by_code", "table.join", "imports.import_log", "i18n.choose"}
F35 = {"type": "score", "column": 1, "row": "F", "value": 35}


def snapshot(app) -> str:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        digest = hashlib.sha256()
        for name in ("tables", "seats", "games", "events", "drafts", "changes", "claims"):
            for row in conn.execute(f"SELECT * FROM {name} ORDER BY rowid"):
                digest.update(repr(row).encode())
        return digest.hexdigest()
    finally:
        conn.close()


_played_of = None


@pytest.fixture(autouse=True)
def _setup(app, kit):
    """Short live streams for these tests, and the folding helper of the suite's conftest."""
    global _played_of
    app.config.update(STREAM_SECONDS=0.005, KEEPALIVE_SECONDS=0.002)
    _played_of = kit.played_of


def current(app, token):
    """The table's current game folded from the rows on disk (no per-process cache)."""
    return _played_of(app.config["DATABASE"], token)


def seat_ids(app, token) -> dict[str, str]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return {name: str(seat) for seat, name in conn.execute(
            "SELECT s.id, s.name FROM seats s JOIN tables t ON t.id = s.table_id WHERE t.join_token = ?", [token])}
    finally:
        conn.close()


def board_of(app, token) -> str:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("SELECT board_token FROM tables WHERE join_token = ?", [token]).fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def world(phone, app):
    """A table of every game, every seat joined, its first entry written by the phone of its
    first player (tests/games/<game>.py); and a fresh table for teams."""
    host = phone()
    out = {"host": host, "tables": {}}
    for game in GAMES:
        players = SUPPORT[game].PLAYERS
        token = host.open_table(game=game, players=players)
        phones = {}
        for name in players:
            phones[name] = phone()
            phones[name].join(token, name)
        out["tables"][game] = {"token": token, "phones": phones}
    for game, table in out["tables"].items():
        first = table["phones"][SUPPORT[game].PLAYERS[0]]
        assert SUPPORT[game].first_entry(first, table["token"]).status_code == 200, game
    e = out["tables"]["escalero"]
    out["fresh"] = host.open_table(game="escalero", players=("Anna", "Ben", "Cleo", "Dora"))
    # an imported game naming the Escalero table, for its host to confirm
    conn = sqlite3.connect(app.config["DATABASE"])
    code = conn.execute("SELECT code FROM tables WHERE join_token = ?", [e["token"]]).fetchone()[0]
    conn.close()
    log = (Path(__file__).parents[1] / "logs" / "escalero" / "seed-two-players.json").read_text()
    # by a phone seated there: only such a phone (or the host) names a table (issue 24)
    assert e["phones"]["Anna"].post("/import", {"text": log, "played_at": code}, fetch=False).status_code == 303
    return out


def requests_the_host_may_make(app, world) -> dict[str, tuple[str, dict]]:
    """One legal request per state-changing route: (path, form), each made on the board of
    the table as it stands (`change`, the race token every write of the page sends). The
    generic routes are tried on the Escalero table; each game's own on its table."""
    t = {g: v["token"] for g, v in world["tables"].items()}
    last = {g: current(app, token).entries[-1][0].id for g, token in t.items()}
    seats = seat_ids(app, t["escalero"])
    host = world["host"]
    change = {token: host.board_change(token) for token in (*t.values(), world["fresh"])}

    def on(token, form):
        return {**form, "change": change[token]}

    games = {endpoint: (path, on(t[game], form))
             for game in GAMES for endpoint, (path, form) in SUPPORT[game].writes(t[game]).items()}
    return {
        **games,
        "table.enter": (f"/t/{t['escalero']}/entries", on(t["escalero"], {"event": json.dumps({**F35, "player": "Ben"})})),
        "table.undo": (f"/t/{t['escalero']}/undo", on(t["escalero"], {"target": str(last["escalero"])})),
        "table.correct": (f"/t/{t['escalero']}/correct", on(t["escalero"], {"target": str(last["escalero"]),
                                                                            "event": json.dumps({"value": 30})})),
        "table.rematch": (f"/t/{t['escalero']}/rematch", on(t["escalero"], {})),
        "table.teams": (f"/t/{world['fresh']}/teams", on(world["fresh"], {"action": "draw"})),
        "table.free_seat": (f"/t/{t['escalero']}/seats/{seats['Ben']}/free", on(t["escalero"], {})),
        "table.remove_phone": (f"/t/{t['escalero']}/seats/{seats['Ben']}/remove", on(t["escalero"], {})),
        "table.let_in": (f"/t/{t['escalero']}/seats/{seats['Ben']}/let-in", on(t["escalero"], {"answer": "yes"})),
        "table.settings": (f"/t/{t['escalero']}/settings", on(t["escalero"], {"approve_seats": "on"})),
        "table.hand_host": (f"/t/{t['escalero']}/seats/{seats['Ben']}/host", on(t["escalero"], {})),
        "table.take_host": (f"/t/{t['escalero']}/host", on(t["escalero"], {})),
        "history.answer_claim": (f"/t/{t['escalero']}/claims/{claim_of(app, t['escalero'])}", {"answer": "confirm"}),
    }


def claim_of(app, token) -> int:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("SELECT c.id FROM claims c JOIN tables t ON t.id = c.table_id WHERE t.join_token = ?",
                            [token]).fetchone()[0]
    finally:
        conn.close()


WRITES = {"table.enter", "table.undo", "table.correct", "table.rematch", "table.teams",
          "table.free_seat", "table.remove_phone", "table.let_in", "table.settings", "history.answer_claim",
          "table.hand_host", "table.take_host",
          *(endpoint for game in GAMES for endpoint in SUPPORT[game].writes("token"))}


def test_every_state_changing_route_is_classified(app):
    posts = {rule.endpoint for rule in app.url_map.iter_rules() if rule.methods & {"POST", "PUT", "PATCH", "DELETE"}}
    assert posts == OPEN | WRITES


@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_outsiders_cannot_write_where_the_host_can(app, phone, world, endpoint, figures):
    path, form = requests_the_host_may_make(app, world)[endpoint]
    token = path.split("/")[2]
    stranger = phone()
    stranger.get(f"/t/{token}")  # has looked at the table, has a cookie and a CSRF token
    here = next((g for g, t in world["tables"].items() if t["token"] == token), None)
    other_table = world["tables"][[game for game in GAMES if game != here][-1]]["phones"]["Anna"]
    board = board_of(app, token)
    before = snapshot(app)
    outsiders = {
        "never joined": stranger.post(path, form),
        "seated at another table": other_table.post(path, form),
        "the board link in place of the join link": stranger.post(path.replace(token, board), form),
        "the board's own address": stranger.post("/b/" + board + "/" + path.split("/", 3)[3], form),
    }
    for who, response in outsiders.items():
        assert 400 <= response.status_code < 500, (who, response.status_code)
        assert snapshot(app) == before, f"{who} wrote through {endpoint}"
        figures.add(SECTION, "outsider_writes_refused")
    said = outsiders["never joined"].get_data(as_text=True)
    assert any(why in said for why in ("Join the table first", "Only the host", "Only the one who wrote it")), said
    if endpoint == "table.let_in":  # nothing waits: the host's yes is refused, and changes nothing
        refused = world["host"].post(path, form)
        assert refused.status_code == 409 and "not waiting for your yes" in refused.get_data(as_text=True)
        assert snapshot(app) == before
        return
    if endpoint == "table.take_host":  # hosting already: refused, and nothing changes
        refused = world["host"].post(path, form)
        assert refused.status_code == 409 and "is the host already" in refused.get_data(as_text=True)
        assert snapshot(app) == before
        return
    accepted = world["host"].post(path, form)
    if endpoint == "table.rematch":  # the game is not over: refused for everyone, for that reason
        assert accepted.status_code == 409 and "Finish this game first" in accepted.get_data(as_text=True)
    else:
        assert accepted.status_code in (200, 303), (endpoint, accepted.get_data(as_text=True))
        assert snapshot(app) != before


@pytest.mark.parametrize("endpoint", sorted(WRITES | OPEN))
def test_every_state_changing_route_needs_the_sessions_csrf_token(app, phone, world, endpoint, figures):
    requests = requests_the_host_may_make(app, world)
    requests.update({"pages.create": ("/new/escalero", {"player": ["X", "Y"]}),
                     "pages.new_again": ("/new/escalero/form", {"player": ["X", "Y"]}),
                     "pages.join_by_code": ("/join", {"code": "ZZZZZZ"}),
                     "i18n.choose": ("/language", {"lang": "de", "next": "/"}),
                     "table.join": (f"/t/{world['fresh']}/join", {"seat": seat_ids(app, world["fresh"])["Anna"]}),
                     "imports.import_log": ("/import", {"text": json.dumps({
                         "format": "scorekeeper-log/1", "game": "kaques", "players": ["X", "Y"], "events": []})})})
    path, form = requests[endpoint]
    host = world["host"]
    other = world["tables"]["escalero"]["phones"]["Anna"]
    before = snapshot(app)
    for label, fields, headers in (("no token", form, {}),
                                   ("another session's token", {**form, "csrf": other.csrf}, {}),
                                   ("a made-up token", {**form, "csrf": "x" * 43}, {}),
                                   ("another session's token in the header", form, {"X-CSRF-Token": other.csrf})):
        response = host.client.post(path, data=fields, headers={"HX-Request": "true", **headers})
        assert response.status_code == 403, (label, response.status_code)
        assert "expired" in response.get_data(as_text=True)
        assert snapshot(app) == before, f"{label} wrote through {endpoint}"
        figures.add(SECTION, "csrf_refusals")
    # with the session's own token (form field or header) it passes the CSRF check
    response = host.client.post(path, data=form, headers={"HX-Request": "true", "X-CSRF-Token": host.csrf})
    assert "expired" not in response.get_data(as_text=True)


QUERIES = {"finder.finder": "?t=7o,8c&h=1e", **{endpoint: query for game in GAMES
                                                 for endpoint, query in SUPPORT[game].READ_QUERIES.items()}}


def get_urls(app, world) -> list[str]:
    """Every GET route of the URL map, filled in for every table (the read-only ones with the
    board token): every page and fragment the app serves."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in ("static",):
            continue
        tables = world["tables"].items() if "token" in rule.arguments else [("escalero", None)]
        for (game, table), link in ((t, link) for t in tables for link in "tb"):
            values = {"game": game, "number": "1", "name": "Anna", "link": link}
            if table:
                values["token"] = board_of(app, table["token"]) if link == "b" else table["token"]
            path = rule.rule
            for name in rule.arguments:
                path = re.sub(rf"<(?:[^<>:]+:)?{name}>", values.get(name, "x"), path)
            # the tray of each table with something tapped (GET …/tray): its every form is a page too
            urls.append(path + (SUPPORT[game].TRAY_QUERY if rule.endpoint == "table.tray"
                                else QUERIES.get(rule.endpoint, "")))
    return sorted(set(urls))


def test_reading_never_writes(app, phone, world, figures):
    """Every GET route, as the host, a player and a stranger: the database stays as it was."""
    before = snapshot(app)
    devices = [world["host"], world["tables"]["escalero"]["phones"]["Anna"], phone()]
    for url in get_urls(app, world):
        for device in devices:
            response = device.get(url)
            assert response.status_code < 500, url
            response.close()
            figures.add(SECTION, "reads_checked")
    assert snapshot(app) == before


def test_a_player_writes_only_for_their_own_side(app, world, figures):
    k = world["tables"]["kaques"]
    token, anna, ben = k["token"], k["phones"]["Anna"], k["phones"]["Ben"]
    before = snapshot(app)
    # Ben is on turn: Anna may not enter his turn, nor her own, nor a step of his turn
    for response, reason in (
            (anna.enter(token, {"type": "turn", "player": "Ben", "points": 350}), "not your turn"),
            (anna.enter(token, {"type": "turn", "player": "Anna", "points": 350}), "not your turn"),
            (anna.write(f"/t/{token}/kaques/turn", {"action": "again", "dice": "1,2,2,3,4,6", "keep": "0"}),
             "not your turn")):
        assert response.status_code == 403 and reason in response.get_data(as_text=True)
        figures.add(SECTION, "other_side_writes_refused")
    # Ben may not enter his turn as Anna's
    forged = ben.enter(token, {"type": "turn", "player": "Anna", "points": 350})
    assert forged.status_code == 403 and "your own side" in forged.get_data(as_text=True)
    figures.add(SECTION, "other_side_writes_refused")
    assert snapshot(app) == before
    # and the host, keeping score for the table, may write for whoever is on turn
    assert world["host"].enter(token, {"type": "turn", "player": "Ben", "points": 350}).status_code == 200
    # the writer of an entry may undo it, the other player may not
    last = current(app, token).entries[-1][0].id
    assert anna.write(f"/t/{token}/undo", {"target": str(last)}).status_code == 403
    figures.add(SECTION, "other_side_writes_refused")


def test_the_read_only_board_shows_no_way_in(app, world):
    """Neither the join token nor the short code (typed at /join it would seat the viewer)
    appears on any page of the board link: the page, its fragments, its live stream, its big
    screen (which shows the join QR code only with the screen key of the host's link,
    scorekeeper/web/tv.py)."""
    routes = [r for r in app.url_map.iter_rules() if "link" in r.arguments and "GET" in r.methods
              and r.arguments == {"link", "token"}]
    assert len(routes) >= 3
    for game, table in world["tables"].items():
        page = world["host"].get(f"/t/{table['token']}").get_data(as_text=True)
        board = board_of(app, table["token"])
        code = re.search(r"Code <b>([A-Z0-9]{6})</b>", page).group(1)
        viewer = app.test_client()
        for rule in routes:
            url = rule.rule.replace("<any(t, b):link>", "b").replace("<token>", board)
            text = viewer.get(url).get_data(as_text=True)
            assert table["token"] not in text and code not in text, (game, url)
        assert viewer.get(f"/b/{board}/games/1/log.json").status_code == 404
        assert viewer.get(f"/t/{board}").status_code == 404  # the board token opens no table


def test_tokens_are_unguessable(app, phone, monkeypatch, figures):
    """Join and board tokens: 128 random bits from `secrets`, all different; the device id in
    the cookie 128 bits; the CSRF token 256 bits."""
    sizes = []
    real = service.secrets.token_urlsafe
    monkeypatch.setattr(service.secrets, "token_urlsafe", lambda n=None: sizes.append(n) or real(n))
    db = store.connect(app.config["DATABASE"])
    made = [service.create_table(db, "d", "escalero", {}, ["A", "B"]) for _ in range(300)]
    db.conn.close()
    assert sizes and min(sizes) >= 16
    tokens = [t[k] for t in made for k in ("join_token", "board_token")]
    assert len(set(tokens)) == len(tokens)
    for value in tokens:
        assert len(base64.urlsafe_b64decode(value + "==")) * 8 >= 128
    codes = [t["code"] for t in made]
    assert len(set(codes)) == len(codes) and all(set(c) <= set(service.CODE_ALPHABET) for c in codes)
    device = phone()
    device.get("/")
    device.open_table()
    session = app.session_interface.get_signing_serializer(app).loads(device.client.get_cookie("session").value)
    assert len(base64.urlsafe_b64decode(session["device"] + "==")) * 8 >= 128
    assert len(base64.urlsafe_b64decode(session["csrf"] + "=")) * 8 >= 256
    figures.set(SECTION, "token_bits", 128)
    figures.set(SECTION, "csrf_bits", 256)
    figures.set(SECTION, "tokens_checked", len(tokens))


def test_a_tampered_cookie_is_a_stranger(world, app):
    """The cookie is signed: change one character of its payload and the host is nobody."""
    host = world["host"]
    token = world["tables"]["escalero"]["token"]
    cookie = host.client.get_cookie("session").value
    payload, rest = cookie.split(".", 1)
    swapped = payload[:-2] + ("A" if payload[-2] != "A" else "B") + payload[-1]
    intruder = app.test_client()
    intruder.set_cookie("session", swapped + "." + rest)
    page = intruder.get(f"/t/{token}").get_data(as_text=True)
    assert "/free" not in page and "Join this table" in page  # not the host: no host controls


def test_the_short_code_is_rate_limited_per_address(app, phone, figures):
    host = phone()
    token = host.open_table()
    code = re.search(r"Code <b>([A-Z0-9]{6})</b>", host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    guesser = phone()
    wrong = [c for c in ("ZZZZZZ", "YYYYYY") if c != code][0]
    for _ in range(service.JOIN_ATTEMPTS):
        assert guesser.post("/join", {"code": wrong}, environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 404
    for attempt in (wrong, code, code.lower()):
        limited = guesser.post("/join", {"code": attempt}, environ_base={"REMOTE_ADDR": "10.9.9.9"})
        assert limited.status_code == 429 and "Too many wrong codes" in limited.get_data(as_text=True)
        figures.add(SECTION, "guesses_rate_limited")
    # another address is not held up by this one
    other = phone()
    assert other.post("/join", {"code": code}, fetch=False, environ_base={"REMOTE_ADDR": "10.9.9.10"}).status_code == 303


@pytest.mark.parametrize("network, guessing, fresh, elsewhere", [
    ("IPv6 /48", "2001:db8:7:{n:x}::1", "2001:db8:7:ffff::1", "2001:db8:8::1"),
    ("IPv4 /24", "10.7.7.{n}", "10.7.7.254", "10.7.8.1")])
def test_the_short_code_is_rate_limited_per_network_too(app, phone, figures, network, guessing, fresh, elsewhere):
    """A limit counts an IPv6 address by its /64 (one household or phone holds a whole /64),
    and a /48 — a free tunnel broker's, or a server's — holds 65,536 of them: ten wrong codes
    each, 655,360 guesses every ten minutes, a live table found every few hours. A /48, and an
    IPv4 /24, has NETWORK_ATTEMPTS in all; another network is not held up."""
    host = phone()
    token = host.open_table()
    code = re.search(r"Code <b>([A-Z0-9]{6})</b>", host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    wrong = [c for c in ("ZZZZZZ", "YYYYYY") if c != code][0]
    guesser = phone()
    for n in range(service.NETWORK_ATTEMPTS):  # one wrong code from each of many addresses of it
        answer = guesser.post("/join", {"code": wrong}, environ_base={"REMOTE_ADDR": guessing.format(n=n + 1)})
        assert answer.status_code == 404, (network, n)
    limited = guesser.post("/join", {"code": code}, environ_base={"REMOTE_ADDR": fresh})  # it never guessed
    assert limited.status_code == 429 and "Too many wrong codes" in limited.get_data(as_text=True), network
    figures.add(SECTION, "guesses_rate_limited")
    assert phone().post("/join", {"code": code}, fetch=False, environ_base={"REMOTE_ADDR": elsewhere}).status_code == 303
    figures.set(SECTION, "wrong_codes_per_network_per_10_min", service.NETWORK_ATTEMPTS)


def test_the_rate_limit_holds_across_workers_and_under_a_burst(kit, tmp_path, figures):
    """On the production server (two worker processes sharing the attempts in SQLite), 25
    simultaneous wrong guesses from one address get exactly JOIN_ATTEMPTS "no such table"
    answers; everything after, the right code included, is refused with 429."""
    server = kit.Server(tmp_path / "instance", workers=2)
    try:
        host = kit.WebPhone(server.url)
        code = host.open_table("escalero", ["Anna", "Ben"])["code"]
        guessers = [kit.WebPhone(server.url) for _ in range(25)]
        for guesser in guessers:
            guesser.get("/")
        wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        replies = kit.race([lambda g=g: g.post("/join", {"code": wrong}, fetch=False) for g in guessers])
        statuses = sorted(r.status for r in replies)
        assert statuses == [404] * service.JOIN_ATTEMPTS + [429] * (25 - service.JOIN_ATTEMPTS), statuses
        right = guessers[0].post("/join", {"code": code}, fetch=False)
        assert right.status == 429 and "Too many wrong codes" in right.message
        figures.add(SECTION, "guesses_rate_limited", 25 - service.JOIN_ATTEMPTS + 1)
        # and the cookie the real server sets on a page: signed, HttpOnly, SameSite
        reply = kit.WebPhone(server.url).get("/", fetch=False)
        cookie = reply.headers.get("Set-Cookie")
        assert cookie.startswith("session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
        value = cookie.split(";", 1)[0].split("=", 1)[1]
        assert value.count(".") >= 2  # payload.timestamp.signature (itsdangerous)
        assert reply.headers["Content-Security-Policy"] == CSP
        assert server.server_errors() == []
    finally:
        server.stop()
    space = len(service.CODE_ALPHABET) ** 6
    figures.set(SECTION, "short_code_space", space)
    figures.set(SECTION, "wrong_codes_per_address_per_10_min", service.JOIN_ATTEMPTS)


def html_pages(app, phone, world) -> dict[str, object]:
    """Every page and fragment the app serves (see get_urls) as the host, a player and a
    stranger sees it, plus the refusal pages."""
    stranger = phone()
    pages = {"missing page": stranger.get("/nope"), "refusal page": stranger.post("/t/nope/entries", {}, fetch=False),
             "refusal fragment": stranger.post("/t/nope/entries", {})}
    for url in get_urls(app, world):
        for who, device in (("host", world["host"]), ("player", world["tables"]["escalero"]["phones"]["Anna"]),
                            ("stranger", stranger)):
            response = device.get(url)
            if response.mimetype == "text/html":
                pages[f"{url} as {who}"] = response
            else:
                response.close()
    return pages


def test_a_content_security_policy_without_inline_scripts_on_every_page(app, phone, world, figures):
    policy = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["base-uri"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in CSP and "data:" not in policy["script-src"]
    for name, response in html_pages(app, phone, world).items():
        # every URL opened as a page carries the policy (fragments too: a link could open one);
        # only our own script's requests, which no navigation can make, are answered without it
        if name != "refusal fragment":
            assert response.headers.get("Content-Security-Policy") == CSP, name
        assert response.headers.get("X-Content-Type-Options") == "nosniff", name
        text = response.get_data(as_text=True)
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", text, re.S | re.I):
            assert script.strip() == "", f"inline script on {name}"
        assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", text, re.I)), name
        assert not re.search(r"\son[a-z]+\s*=", text, re.I), f"inline event handler on {name}"
        assert "javascript:" not in text.lower(), name
        assert not re.search(r"\sstyle\s*=", text, re.I), f"inline style on {name} (blocked by the CSP)"
        figures.add(SECTION, "pages_checked_for_inline_script")


MARKUP = ["<img src=x onerror=alert(1)>", "\"><svg onload=alert(2)>", "</textarea><b>3", "{{7*7}}"]


@pytest.mark.parametrize("game", GAMES)
def test_names_with_markup_render_as_text_everywhere(app, phone, game, figures):
    host = phone()
    token = host.open_table(game=game, players=MARKUP)
    seats = dict((html_unescape(name), seat) for seat, name in re.findall(
        r'{"seat": (\d+)}[^>]*>([^<]+)<', host.get(f"/t/{token}").get_data(as_text=True)))
    assert sorted(seats) == sorted(MARKUP)
    phones = {}
    for name in MARKUP:
        phones[name] = phone()
        phones[name].get(f"/t/{token}")
        assert phones[name].post(f"/t/{token}/join", {"seat": seats[name]}, fetch=False).status_code == 303
    if SUPPORT[game].DRAWS_PAIRS:  # four players play in two pairs: drawn by lot, named after their players
        assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200
    first = MARKUP[0]
    sides = [s.name for s in current(app, token).game.setup.sides]  # teams made of the four names, say
    event = SUPPORT[game].markup_entry(first, sides)
    assert phones[first].enter(token, event).status_code == 200
    refusal = phones[MARKUP[2]].enter(token, event)  # "It is not your turn: <name> writes now."
    board = board_of(app, token)
    responses = [host.get(f"/t/{token}"), phones[first].get(f"/t/{token}"), host.get(f"/t/{token}/board"),
                 host.get(f"/b/{board}"), host.get(f"/b/{board}/board"), host.get(f"/t/{token}/live"), refusal]
    for response in responses:
        text = response.get_data(as_text=True)
        for tag in ("<img src=x", "<svg onload", "</textarea><b>"):
            assert tag not in text, (game, response.request.path, tag)
        figures.add(SECTION, "screens_checked_for_markup")
    assert "{{7*7}}" in responses[0].get_data(as_text=True)  # shown as typed, not evaluated
    assert "&lt;img src=x onerror=alert(1)&gt;" in responses[0].get_data(as_text=True)


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)
