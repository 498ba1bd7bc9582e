"""A claim's refusal of a game played at another table here folds only games that could be it."""

from __future__ import annotations

from pathlib import Path

from scorekeeper import service, store

LOGS = Path(__file__).parent / "logs"


def test_a_claim_folds_no_game_of_other_players_at_the_server_s_other_tables(app, phone, monkeypatch):
    """Asked inside the import's write: a busy evening's every game of the same kind was folded
    there, each with every other write of the server waiting."""
    host, anna, ben = phone(), phone(), phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    assert anna.enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    others = set()
    for names in (("Cleo", "Dora"), ("Emil", "Fynn"), ("Anna", "Cleo")):
        other = host.open_table("escalero", players=names)
        assert host.enter(other, {"type": "score", "player": names[0], "column": 1, "row": "F",
                                  "value": 35}).status_code == 200
        others.add(service.by_join_token(store.connect(app.config["DATABASE"]), other)["id"])
    code = service.by_join_token(store.connect(app.config["DATABASE"]), token)["code"]
    folded, load = [], service.load
    monkeypatch.setattr(service, "load", lambda db, row, *a, **k: folded.append(row["table_id"]) or load(db, row, *a, **k))
    imported = ben.post("/import", {"text": (LOGS / "escalero" / "seed-two-players.json").read_text(),
                                    "played_at": code}, fetch=False)
    assert imported.status_code == 303
    assert not others & set(folded), folded
