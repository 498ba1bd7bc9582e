"""An imported game's money, vouched for by a host (issue 16): a log names the real table it was
played at, and only that table's host may confirm its money. Each test is one way a
troublemaker at the pub, or a stranger with a link, would try to get made-up money counted."""

from __future__ import annotations

import json
import re
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
    importer = phone()
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
        assert re.search(r"Only the host of this table|No imported game names this table|Confirm or dismiss",
                         text), who
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
    importer = phone()
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
    first, second = phone(), phone()
    assert first.post("/import", {"text": json.dumps(SEED), "played_at": code}, fetch=False).status_code == 303
    twice = second.post("/import", {"text": json.dumps(SEED), "played_at": code}, fetch=False)
    assert twice.status_code == 409 and "already names table" in twice.get_data(as_text=True)
    kaques = host.open_table("kaques", players=("Anna", "Ben"), target=1000)
    host.enter(kaques, {"type": "turn", "player": "Anna", "points": 1000})
    log = host.get(f"/t/{kaques}/games/1/log.json").get_data(as_text=True)
    again = seated["Anna"].post("/import", {"text": log, "played_at": code_of(app, kaques)}, fetch=False)
    assert again.status_code == 409 and "was played at table" in again.get_data(as_text=True)
    figures.add(SECTION, "claims_refused", 2)


def test_the_table_field_does_not_guess_codes(app, phone, figures):
    """Naming a table is typing its code: wrong codes count against the address like the join
    form's, and the limit is one for both."""
    guesser = phone()
    log = json.dumps(SEED)
    answers = [guesser.post("/import", {"text": log, "played_at": f"ZZZZZ{n}"}, fetch=False).status_code
               for n in range(service.JOIN_ATTEMPTS + 1)]
    assert answers == [404] * service.JOIN_ATTEMPTS + [429]
    locked = guesser.post("/join", {"code": "ZZZZZZ"}, fetch=False)
    assert locked.status_code == 429 and "Too many wrong codes" in locked.get_data(as_text=True)
    assert db_of(app)["tables"].count == 0
    figures.add(SECTION, "codes_guessed_refused", 2)
