"""An imported game's money, vouched for by a host (issue 16): a log names the real table it was
played at, and only that table's host may confirm its money. Each test is one way a
troublemaker at the pub, or a stranger with a link, would try to get made-up money counted."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from scorekeeper import service, store

SECTION = "claims"
LOGS = Path(__file__).resolve().parents[1] / "logs"
SEED = json.loads((LOGS / "escalero" / "seed-two-players.json").read_text())  # Anna +€1.50


def db_of(app):
    return store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])


def code_of(app, token) -> str:
    return service.by_join_token(db_of(app), token)["code"]


def forged(stake: str = "1000.00") -> str:
    """Anna crossing out everything against Mallory's best: -€290,000.00 for Anna at this stake."""
    events = [{"type": "score", "player": p, "column": 1, "row": r, "value": 0 if p == "Anna" else v}
              for r, v in zip(("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"),
                              (5, 10, 15, 20, 25, 30, 25, 35, 45, 80))
              for p in ("Anna", "Mallory")]
    return json.dumps({"format": "scorekeeper-log/1", "game": "escalero", "players": ["Anna", "Mallory"],
                       "rules": {"columns": 1, "stake": stake}, "events": events})


def a_real_table(phone, players=("Anna", "Mallory")):
    """A table with real play: a host, its players seated, one cell written."""
    host = phone()
    token = host.open_table("escalero", players=players)
    seated = {}
    for name in players:
        seated[name] = phone()
        seated[name].join(token, name)
    first = players[0]
    assert seated[first].enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    return host, token, seated


def claim_at(app, token) -> service.Claim:
    db = db_of(app)
    claims = service.claims_at(db, service.by_join_token(db, token)["id"])
    assert claims, "no claim at the table"
    return claims[0]


def test_the_importer_cannot_confirm_their_own_claim(app, phone, figures):
    """Mallory, seated at Anna's table, imports a made-up game in which Anna loses €290,000 and
    names the table: neither on its link nor on her imported table's link can she confirm it."""
    host, token, seated = a_real_table(phone)
    mallory, anna = seated["Mallory"], seated["Anna"]
    made = mallory.post("/import", {"text": forged(), "played_at": code_of(app, token)}, fetch=False)
    assert made.status_code == 303
    imported = made.headers["Location"].split("/")[2]
    claim = claim_at(app, token).row["id"]
    refused = mallory.post(f"/t/{token}/claims/{claim}", {"answer": "confirm"})
    assert refused.status_code == 403 and "Only the host of this table" in refused.get_data(as_text=True)
    # on the table she hosts (the imported one), the claim is not there to answer
    elsewhere = mallory.post(f"/t/{imported}/claims/{claim}", {"answer": "confirm"})
    assert elsewhere.status_code == 404 and "No imported game names this table" in elsewhere.get_data(as_text=True)
    assert claim_at(app, token).status == "open"
    for who in (anna, mallory, host):
        assert "290,000" not in who.get("/players/Anna").get_data(as_text=True)
    # the host sees what it says and throws it out
    page = host.get(f"/t/{token}/history").get_data(as_text=True)
    assert "−€290,000.00" in page or "-€290,000.00" in page
    assert host.post(f"/t/{token}/claims/{claim}", {"answer": "dismiss"}).status_code == 303
    assert "290,000" not in anna.get("/players/Anna").get_data(as_text=True)
    figures.add(SECTION, "answers_refused", 2)


def test_only_the_host_s_phone_confirms(app, phone, figures):
    """A seated player, a stranger with the join link, a phone the host removed, the board link
    and the host of another table: each refused with words, the claim still open."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben", "Mallory"))
    importer = seated["Ben"]  # only a phone seated at the table names it (issue 24)
    seed = {**SEED, "players": ["Anna", "Ben"]}
    assert importer.post("/import", {"text": json.dumps(seed), "played_at": code_of(app, token)},
                         fetch=False).status_code == 303
    claim = claim_at(app, token).row["id"]
    mallory_seat = next(s["id"] for s in service.seats(db_of(app), service.by_join_token(db_of(app), token)["id"])
                        if s["name"] == "Mallory")
    assert host.post(f"/t/{token}/seats/{mallory_seat}/remove").status_code == 200
    stranger = phone()
    stranger.get(f"/t/{token}")
    other_host = phone()
    other = other_host.open_table("escalero", players=("Cleo", "Dan"))
    board = service.by_join_token(db_of(app), token)["board_token"]
    attempts = {
        "a seated player": seated["Anna"].post(f"/t/{token}/claims/{claim}", {"answer": "confirm"}),
        "a stranger with the link": stranger.post(f"/t/{token}/claims/{claim}", {"answer": "confirm"}),
        "the removed phone": seated["Mallory"].post(f"/t/{token}/claims/{claim}", {"answer": "confirm"}),
        "the importer": importer.post(f"/t/{token}/claims/{claim}", {"answer": "confirm"}),
        "the board link": stranger.post(f"/b/{board}/claims/{claim}", {"answer": "confirm"}),
        "the host of another table": other_host.post(f"/t/{other}/claims/{claim}", {"answer": "confirm"}),
        "a number past 64 bits": host.post(f"/t/{token}/claims/{10 ** 30}", {"answer": "confirm"}),
        "neither confirm nor dismiss": host.post(f"/t/{token}/claims/{claim}", {"answer": "maybe"}),
    }
    for who, response in attempts.items():
        text = response.get_data(as_text=True)
        assert 400 <= response.status_code < 500, (who, response.status_code)
        # a number past SQLite's 64 bits names no claim at all: the app's 404 (one URL converter)
        assert re.search(r"Only the host of this table|No imported game names this table|Confirm or dismiss"
                         r"|There is nothing here|This is the read-only board", text), who
        figures.add(SECTION, "answers_refused")
    assert claim_at(app, token).status == "open"
    assert host.post(f"/t/{token}/claims/{claim}", {"answer": "confirm"}).status_code == 303
    assert "+€1.50" in seated["Anna"].get("/players/Anna").get_data(as_text=True)


def test_a_table_one_hosts_oneself_must_be_a_real_one(app, phone, figures):
    """Mallory opens her own table to vouch for her own log: an empty table, an imported one and
    one with other players are refused. A table of hers with real play is taken — its host
    writes for every side there anyway — and the money counts only for the phones of her table:
    Anna's phone, which never sat there, sees none of it."""
    _, real_token, seated = a_real_table(phone)  # Anna's phone, at another table
    mallory = phone()
    empty = mallory.open_table("escalero", players=("Anna", "Mallory"))
    imported = mallory.post("/import", {"text": json.dumps({**SEED, "players": ["Anna", "Mallory"], "events": []})},
                            fetch=False).headers["Location"].split("/")[2]
    others = mallory.open_table("escalero", players=("Cleo", "Dan"))
    assert mallory.enter(others, {"type": "score", "player": "Cleo", "column": 1, "row": "F", "value": 35}).status_code == 200
    refusals = {empty: "Nothing has been played at table", imported: "holds an imported game itself",
                others: "did not sit at table"}
    tables = db_of(app)["tables"].count
    for token, said in refusals.items():
        refused = mallory.post("/import", {"text": forged(), "played_at": code_of(app, token)}, fetch=False)
        assert refused.status_code == 400 and said in refused.get_data(as_text=True), said
        figures.add(SECTION, "claims_refused")
    assert db_of(app)["tables"].count == tables
    # her own table with real play: she may vouch, as she may enter anything there
    assert mallory.enter(empty, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}).status_code == 200
    assert mallory.post("/import", {"text": forged(), "played_at": code_of(app, empty)}, fetch=False).status_code == 303
    claim = claim_at(app, empty).row["id"]
    assert mallory.post(f"/t/{empty}/claims/{claim}", {"answer": "confirm"}).status_code == 303
    assert "290,000" in mallory.get("/players/Anna").get_data(as_text=True)
    assert "290,000" not in seated["Anna"].get("/players/Anna").get_data(as_text=True)


def test_a_game_changed_after_it_named_the_table_does_not_count(app, phone, figures):
    """The importer hosts the imported table and may correct its entries: a correction before the
    host's answer makes the claim unconfirmable; one after it stops the money counting."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    importer = seated["Ben"]
    logs = {}
    for name, stake in (("before", "0.50"), ("after", "0.20")):
        doc = {**SEED, "rules": {**SEED["rules"], "stake": stake}}
        made = importer.post("/import", {"text": json.dumps(doc), "played_at": code_of(app, token)}, fetch=False)
        assert made.status_code == 303
        logs[name] = made.headers["Location"].split("/")[2]
    claims = {claim.played.header["rules"]["stake"]: claim.row["id"] for claim in service.claims_at(
        db_of(app), service.by_join_token(db_of(app), token)["id"])}

    def correct(imported: str) -> None:
        db = db_of(app)
        played = service.load(db, service.current_game(db, service.by_join_token(db, imported)["id"]))
        five = next(r.id for r, e in played.entries if e["player"] == "Anna" and e["row"] == "5")
        assert importer.write(f"/t/{imported}/correct", {"target": str(five),
                                                          "event": json.dumps({"value": 20})}).status_code == 200

    correct(logs["before"])
    refused = host.post(f"/t/{token}/claims/{claims['0.50']}", {"answer": "confirm"})
    assert refused.status_code == 409 and "changed after it named this table" in refused.get_data(as_text=True)
    assert host.post(f"/t/{token}/claims/{claims['0.20']}", {"answer": "confirm"}).status_code == 303
    assert "+€0.60" in seated["Anna"].get("/players/Anna").get_data(as_text=True)
    correct(logs["after"])
    assert "€" not in seated["Anna"].get("/players/Anna").get_data(as_text=True)
    assert "changed since" in host.get(f"/t/{token}/history").get_data(as_text=True)
    figures.add(SECTION, "changed_claims_refused", 2)


def test_the_same_game_counts_once(app, phone, figures):
    """One log imported twice by two phones, and a game of the table exported and imported
    naming it: its money would count twice."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    first, second = seated["Anna"], seated["Ben"]
    assert first.post("/import", {"text": json.dumps(SEED), "played_at": code}, fetch=False).status_code == 303
    twice = second.post("/import", {"text": json.dumps(SEED), "played_at": code}, fetch=False)
    assert twice.status_code == 409 and "already names table" in twice.get_data(as_text=True)
    kaques = host.open_table("kaques", players=("Anna", "Ben"), target=1000)
    host.enter(kaques, {"type": "turn", "player": "Anna", "points": 1000})
    log = host.get(f"/t/{kaques}/games/1/log.json").get_data(as_text=True)
    again = host.post("/import", {"text": log, "played_at": code_of(app, kaques)}, fetch=False)
    assert again.status_code == 409 and "was played at table" in again.get_data(as_text=True)
    figures.add(SECTION, "claims_refused", 2)


def test_the_table_field_does_not_guess_codes(app, phone, figures):
    """Naming a table is typing its code: wrong codes count against the address like the join
    form's, and the limit is one for both."""
    guesser = phone()
    log = json.dumps(SEED)
    answers = [guesser.post("/import", {"text": log, "played_at": f"ZZZZZ{n}"}, fetch=False)
               for n in range(service.JOIN_ATTEMPTS + 1)]
    assert [answer.status_code for answer in answers] == [404] * service.JOIN_ATTEMPTS + [429]
    # the way on is the import page's own: the join page's "scan the QR code" is none here
    said = html.unescape(answers[-1].get_data(as_text=True))
    assert "Wait ten minutes, or import the game without a table's code." in said and "QR" not in said
    locked = guesser.post("/join", {"code": "ZZZZZZ"}, fetch=False)
    assert locked.status_code == 429 and "Too many wrong codes" in locked.get_data(as_text=True)
    assert db_of(app)["tables"].count == 0
    figures.add(SECTION, "codes_guessed_refused", 2)


# --- issue 24, finding 4: a claim's "same game", who may file it, what a refusal says, when ------


def alert(response) -> str:
    """The refusal as the import page shows it (its alert, not the pasted log kept in the form)."""
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert found, response.get_data(as_text=True)[:500]
    return html.unescape(found.group(1)).strip()


def played_seed(phone):
    """The seed game (Anna +€1.50) played in full at a real table, Anna and Ben seated, the host
    writing every cell."""
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"), stake="0.50")
    seated = {name: phone() for name in ("Anna", "Ben")}
    for name, device in seated.items():
        device.join(token, name)
    for event in SEED["events"]:
        assert host.enter(token, event).status_code == 200, event
    return host, token, seated


def lower_cased(doc: dict) -> dict:
    return {**doc, "players": [p.lower() for p in doc["players"]],
            "events": [{**e, "player": e["player"].lower()} for e in doc["events"]]}


def served_false(doc: dict) -> dict:
    """One `"served": false` added to the first thrown cell (the default, which says nothing)."""
    events = [dict(e) for e in doc["events"]]
    first = next(e for e in events if "dice" in e)
    first["served"] = False
    return {**doc, "events": events}


def by_value(doc: dict) -> dict:
    """Every thrown cell written by its value instead (five sixes on the 6s are 30), the rules
    with their defaults spelt out."""
    events = [{k: v for k, v in e.items() if k != "dice"} | ({"value": 30} if "dice" in e else {})
              for e in doc["events"]]
    return {**doc, "rules": {**doc["rules"], "stake": "0.5", "currency": "EUR", "columns": 3}, "events": events}


def test_a_changed_copy_of_the_table_s_own_game_does_not_count_again(app, phone, figures):
    """The table's own game, exported and imported naming the table with one `"served": false`
    added, with its names lower-cased, or with dice written as values: each is the game played
    there (after the host confirmed two such copies, Anna's winnings read €4.50, not €1.50)."""
    host, token, seated = played_seed(phone)
    code = code_of(app, token)
    own = json.loads(seated["Anna"].get(f"/t/{token}/games/1/log.json").get_data(as_text=True))
    for change in (served_false, lower_cased, by_value, lambda doc: lower_cased(served_false(doc))):
        copy = seated["Anna"].post("/import", {"text": json.dumps(change(own)), "played_at": code}, fetch=False)
        assert copy.status_code == 409 and "was played at table" in alert(copy), alert(copy)
        figures.add(SECTION, "changed_copies_refused")
    assert not service.claims_at(db_of(app), service.by_join_token(db_of(app), token)["id"])
    page = seated["Anna"].get("/players/Anna").get_data(as_text=True)
    assert "+€1.50" in page and "€3.00" not in page and "€4.50" not in page


def test_a_changed_copy_of_a_claim_is_the_same_claim(app, phone, figures):
    """A log naming the table, and the same log lower-cased, with `"served": false` or with
    values for dice, filed by the other player: one claim, one €1.50."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    assert seated["Anna"].post("/import", {"text": json.dumps(SEED), "played_at": code},
                               fetch=False).status_code == 303
    for change in (lower_cased, served_false, by_value):
        copy = seated["Ben"].post("/import", {"text": json.dumps(change(SEED)), "played_at": code}, fetch=False)
        assert copy.status_code == 409 and "already names table" in alert(copy), alert(copy)
        figures.add(SECTION, "changed_copies_refused")
    claims = service.claims_at(db_of(app), service.by_join_token(db_of(app), token)["id"])
    assert len(claims) == 1
    assert host.post(f"/t/{token}/claims/{claims[0].row['id']}", {"answer": "confirm"}).status_code == 303
    page = seated["Anna"].get("/players/Anna").get_data(as_text=True)
    assert "+€1.50" in page and "€3.00" not in page


def test_a_dismissed_game_stays_dismissed(app, phone, figures):
    """The host dismisses a claim; the same game filed again, as it was or lower-cased, by the
    same phone or the other player's, is refused as dismissed."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    assert seated["Anna"].post("/import", {"text": json.dumps(SEED), "played_at": code},
                               fetch=False).status_code == 303
    claim = claim_at(app, token).row["id"]
    assert host.post(f"/t/{token}/claims/{claim}", {"answer": "dismiss"}).status_code == 303
    tables = db_of(app)["tables"].count
    for device, doc in ((seated["Anna"], SEED), (seated["Ben"], lower_cased(SEED)), (host, by_value(SEED))):
        again = device.post("/import", {"text": json.dumps(doc), "played_at": code}, fetch=False)
        assert again.status_code == 409 and "dismissed this game already" in alert(again), alert(again)
        figures.add(SECTION, "dismissed_refiled_refused")
    assert db_of(app)["tables"].count == tables
    assert [c.status for c in service.claims_at(db_of(app), service.by_join_token(db_of(app), token)["id"])] == \
        ["dismissed"]


def test_only_a_phone_seated_at_the_table_names_it(app, phone, figures):
    """A stranger with the code, a phone the host removed and a seat still waiting for the host's
    yes cannot name the table; a seated phone and the host can."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben", "Mallory"))
    code = code_of(app, token)
    db = db_of(app)
    mallory = next(s["id"] for s in service.seats(db, service.by_join_token(db, token)["id"]) if s["name"] == "Mallory")
    assert host.post(f"/t/{token}/seats/{mallory}/remove").status_code == 200
    assert host.post(f"/t/{token}/settings", {"approve_seats": "on"}, fetch=False).status_code == 303
    waiting = phone()  # takes the freed seat, and waits for the host's yes
    assert waiting.post(f"/t/{token}/join", {"seat": str(mallory)}, fetch=False).status_code == 303
    seat = db_of(app)["seats"].get(mallory)
    assert seat["device"] and not seat["approved"]
    seed = json.dumps({**SEED, "players": ["Anna", "Ben"]})
    tables = db_of(app)["tables"].count
    for who, device in (("a stranger with the code", phone()), ("the removed phone", seated["Mallory"]),
                        ("a waiting seat", waiting)):
        refused = device.post("/import", {"text": seed, "played_at": code}, fetch=False)
        assert refused.status_code == 403, who
        assert f"Only a phone seated at table {code}" in alert(refused), alert(refused)
        figures.add(SECTION, "claims_refused")
    assert db_of(app)["tables"].count == tables
    assert seated["Ben"].post("/import", {"text": seed, "played_at": code}, fetch=False).status_code == 303
    other = json.dumps({**SEED, "players": ["Anna", "Ben"], "rules": {"stake": "0.20"}})
    assert host.post("/import", {"text": other, "played_at": code}, fetch=False).status_code == 303


def test_a_refusal_never_names_who_sits_at_the_table(app, phone, figures):
    """"Zed did not sit at table 3W7PSX" told anyone with the code, however old, who did: a log of
    Anna and Zed was enough. Now a stranger learns nothing past the code, and a phone seated
    there only that the players do not match."""
    host, token, seated = a_real_table(phone, ("Anna", "Mallory"))
    code = code_of(app, token)
    db = db_of(app)
    db["tables"].update(service.by_join_token(db, token)["id"], {"created_at": "2020-01-01T20:00:00+00:00"})
    probe = json.dumps({**SEED, "players": ["Anna", "Zed"],
                        "events": [{**e, "player": "Zed" if e["player"] == "Ben" else "Anna"} for e in SEED["events"]]})
    stranger = phone().post("/import", {"text": probe, "played_at": code}, fetch=False)
    mallory = seated["Mallory"].post("/import", {"text": probe, "played_at": code}, fetch=False)
    assert stranger.status_code == 403 and mallory.status_code == 400
    assert "players of this game did not sit at table" in alert(mallory)
    for refused in (stranger, mallory):
        for name in ("Anna", "Mallory", "Zed"):
            assert name not in alert(refused), alert(refused)
        figures.add(SECTION, "claims_refused")


def test_a_claim_cannot_predate_its_table(app, phone, figures):
    """A game that started (or whose first entry was made) before the table it names was opened
    was not played there; a time that cannot be read is refused too (the host would see it)."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    first = SEED["events"][0]
    cases = {
        "started earlier": ({**SEED, "started_at": "2020-05-01T20:00:00+02:00"}, "started before table"),
        "first entry earlier": ({**SEED, "events": [{**first, "at": "2020-05-01T18:00:00Z"}, *SEED["events"][1:]]},
                                "started before table"),
        "a day earlier, no zone": ({**SEED, "started_at": (datetime.now() - timedelta(days=1)).isoformat()},
                                   "started before table"),
        "not a time": ({**SEED, "started_at": "last Tuesday"}, "cannot be read"),
    }
    for case, (doc, why) in cases.items():
        refused = seated["Anna"].post("/import", {"text": json.dumps(doc), "played_at": code}, fetch=False)
        assert refused.status_code == 400 and why in alert(refused), (case, alert(refused))
        figures.add(SECTION, "claims_refused")
    later = (datetime.now(timezone.utc) + timedelta(minutes=5)).isoformat(timespec="seconds")
    assert seated["Anna"].post("/import", {"text": json.dumps({**SEED, "started_at": later}), "played_at": code},
                               fetch=False).status_code == 303
    assert claim_at(app, token).when == later
    today = {**SEED, "rules": {**SEED["rules"], "stake": "0.20"}, "started_at": datetime.now().date().isoformat()}
    assert seated["Anna"].post("/import", {"text": json.dumps(today), "played_at": code},  # a day: any time of it
                               fetch=False).status_code == 303


def test_the_command_line_names_any_table_but_the_same_game_once(app, phone, runner, tmp_path):
    """`scorekeeper import --played-at`: the server's owner needs no seat at the table, and a
    changed copy of a game naming it is still the same game."""
    from scorekeeper.cli import cli

    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    (tmp_path / "seed.json").write_text(json.dumps(SEED))
    (tmp_path / "copy.json").write_text(json.dumps(lower_cased(served_false(SEED))))
    assert runner.invoke(cli, ["import", str(tmp_path / "seed.json"), "--played-at", code]).exit_code == 0
    copy = runner.invoke(cli, ["import", str(tmp_path / "copy.json"), "--played-at", code])
    assert copy.exit_code == 2 and "already names table" in copy.stderr


def test_a_claim_filed_before_the_normalised_game_is_compared_all_the_same(app, phone):
    """A claim kept with the digest of before (the log as written) is normalised when a new claim
    meets it: a lower-cased copy of it is the same game."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    code = code_of(app, token)
    assert seated["Anna"].post("/import", {"text": json.dumps(SEED), "played_at": code},
                               fetch=False).status_code == 303
    db = db_of(app)
    claim = claim_at(app, token).row["id"]
    db["claims"].update(claim, {"digest": "0" * 64})  # as issue 16 kept it
    copy = seated["Ben"].post("/import", {"text": json.dumps(lower_cased(SEED)), "played_at": code}, fetch=False)
    assert copy.status_code == 409 and "already names table" in alert(copy), alert(copy)
    other = {**SEED, "rules": {**SEED["rules"], "stake": "0.20"}}  # another game: its write keeps the new digest
    assert seated["Ben"].post("/import", {"text": json.dumps(other), "played_at": code}, fetch=False).status_code == 303
    assert db_of(app)["claims"].get(claim)["digest"].startswith(service.DIGEST_VERSION)


def test_a_claim_the_table_then_plays_itself_cannot_be_confirmed(app, phone, figures):
    """A claim filed while the table had nothing that counts (its one entry undone), and the table
    then starts the same game itself: confirming it would count the game twice."""
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"), stake="0.50")
    anna = phone()
    anna.join(token, "Anna")
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}).status_code == 200
    db = db_of(app)
    last = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"])).entries[-1][0].id
    assert host.post(f"/t/{token}/undo", {"target": str(last), "change": host.board_change(token)}).status_code == 200
    assert anna.post("/import", {"text": json.dumps(SEED), "played_at": code_of(app, token)},
                     fetch=False).status_code == 303
    for event in SEED["events"][:2]:
        assert host.enter(token, event).status_code == 200
    refused = host.post(f"/t/{token}/claims/{claim_at(app, token).row['id']}", {"answer": "confirm"})
    assert refused.status_code == 409 and "was played at table" in refused.get_data(as_text=True)
    assert claim_at(app, token).status == "open"
    figures.add(SECTION, "answers_refused")


def test_a_confirmed_game_counts_in_the_table_s_ledger(app, phone):
    """The host's yes said its money counts, yet the table's evening's ledger left it out, so the
    ledger and the statistics disagreed. A confirmed game counts in the ledger too, under the
    names the table's seats spell ("anna" is Anna); one in another currency is left out, and the
    ledger says so; a change at its own table takes it out at once."""
    host, token, seated = a_real_table(phone, ("Anna", "Ben"))
    importer = seated["Ben"]
    spelt = {**SEED, "players": ["anna", "Ben"],
             "events": [{**event, "player": event["player"].replace("Anna", "anna")} for event in SEED["events"]]}
    dollars = {**SEED, "rules": {"stake": "0.20", "currency": "USD"}}
    imported = []
    for doc in (spelt, dollars):
        made = importer.post("/import", {"text": json.dumps(doc), "played_at": code_of(app, token)}, fetch=False)
        assert made.status_code == 303
        imported.append(made.headers["Location"].split("/")[2])
    assert "The evening's ledger" not in host.get(f"/t/{token}/history").get_data(as_text=True)
    for claim in service.claims_at(db_of(app), service.by_join_token(db_of(app), token)["id"]):
        assert host.post(f"/t/{token}/claims/{claim.row['id']}", {"answer": "confirm"}).status_code == 303
    page = html.unescape(seated["Anna"].get(f"/t/{token}/history").get_data(as_text=True))
    evening = page[page.index("The evening's ledger"):page.index('id="claims"')]
    assert re.findall(r"<li><span>(\w+)</span> <b[^>]*>([^<]+)</b>", evening) == [("Anna", "+€1.50"), ("Ben", "-€1.50")]
    assert '<span class="said">Ben pays Anna</span><span aria-hidden="true">Ben → Anna</span> <b>€1.50</b>' in evening
    assert "It includes 1 imported game the host confirmed was played here." in evening
    assert "1 confirmed game in another currency is left out." in evening
    # the importer corrects the euro game at its own table: it no longer counts, here either
    db = db_of(app)
    played = service.load(db, service.current_game(db, service.by_join_token(db, imported[0])["id"]))
    five = next(r.id for r, e in played.entries if e["player"] == "anna" and e["row"] == "5")
    assert importer.write(f"/t/{imported[0]}/correct", {"target": str(five),
                                                         "event": json.dumps({"value": 20})}).status_code == 200
    ledger = service.ledger(db_of(app), service.by_join_token(db_of(app), token)["id"])
    assert ledger["currency"] == "USD" and ledger["claims"] == 1 and ledger["apart"] == 0
    assert "€" not in host.get(f"/t/{token}/history").get_data(as_text=True).split('id="claims"')[0]


def test_a_confirmed_game_changed_at_its_own_table_leaves_the_finished_board_at_once(app, phone):
    """The finished board's "evening so far" is made once per change of its table: a confirmed
    game corrected at its own table was left out of the ledger, yet the board kept showing its
    money until the table next changed. Its table changes with it now."""
    from tests.test_web_tables import play_out

    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"), stake="0.10")
    seated = {name: phone() for name in ("Anna", "Ben")}
    for name, device in seated.items():
        device.join(token, name)
    assert seated["Anna"].enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    made = seated["Ben"].post("/import", {"text": json.dumps(SEED), "played_at": code_of(app, token)}, fetch=False)
    imported = made.headers["Location"].split("/")[2]
    play_out(seated["Anna"], seated["Ben"], token, app)
    db = db_of(app)
    table_id = service.by_join_token(db, token)["id"]
    claim = service.claims_at(db, table_id)[0]
    assert host.post(f"/t/{token}/claims/{claim.row['id']}", {"answer": "confirm"}).status_code == 303
    evening = lambda: html.unescape(seated["Anna"].get(f"/t/{token}/board").get_data(as_text=True))
    assert "The evening's ledger" in evening()
    before = store.last_change(db, table_id)
    played = service.load(db, service.current_game(db, service.by_join_token(db, imported)["id"]))
    five = next(r.id for r, e in played.entries if e["player"] == "Anna" and e["row"] == "5")
    assert seated["Ben"].write(f"/t/{imported}/correct", {"target": str(five),
                                                          "event": json.dumps({"value": 20})}).status_code == 200
    assert store.last_change(db, table_id) > before
    assert "The evening's ledger" not in evening()  # this table's one game again
