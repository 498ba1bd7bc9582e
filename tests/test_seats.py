"""Who sits at the table (issue 24): one seat lifecycle — waiting, seated, freed or removed —,
a game's players derived from it in one place and fixed from its first entry on, removal that
sticks to the seat, every game write with its race token, and one policy for who may do what.
One test per finding, through HTTP as a phone posts; a property test that no sequence of
joins, waits, removals and rematches changes a started game's players."""

from __future__ import annotations

import html
import json
import re
import subprocess
import time
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper import policy, service, store
from scorekeeper.games import ENGINES, GAMES
from tests.support import ROOT, Phone

F35 = {"type": "score", "column": 1, "row": "F", "value": 35}


def db_of(app):
    return store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])


def game_of(app, token) -> service.Played:
    db = db_of(app)
    return service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))


def seat_of(app, token, name) -> dict:
    db = db_of(app)
    return next(s for s in service.seats(db, service.by_join_token(db, token)["id"]) if s["name"] == name)


def host_says(host: Phone, token: str, path: str, fields: dict | None = None):
    return host.post(f"/t/{token}{path}", {**(fields or {}), "change": host.board_change(token)})


def hosting_from_no_seat(app, opener: Phone, anna: Phone, ben: Phone) -> str:
    """A table of Anna and Ben (`ben` seated) the opener handed to Anna's phone ("Make host"),
    which then freed its own seat: Anna's phone hosts from no seat. Its join token."""
    token = opener.open_table(players=("Anna", "Ben"))
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    seat = seat_of(app, token, "Anna")
    mark = {"sat": service.seat_mark(seat["device"])}
    assert host_says(opener, token, f"/seats/{seat['id']}/host", mark).status_code == 200
    assert host_says(anna, token, f"/seats/{seat['id']}/free", mark).status_code == 200
    return token


def add_me(phone: Phone, token: str, name: str):
    phone.get(f"/t/{token}")
    return phone.post(f"/t/{token}/join", {"name": name, "change": phone.board_change(token)})


def test_a_strangers_waiting_seat_is_no_player_of_a_money_game(app, phone):
    """Finding 1: the host opens Escalero for Anna and Ben at €5 with "New seats wait for my
    yes"; a stranger joins as Mallory and waits: Mallory is on nobody's pad, the host writes the
    first cell and turns her away — the game stays Anna's and Ben's."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"), stake="5")
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    mallory = phone()
    assert add_me(mallory, token, "Mallory").status_code == 200
    assert game_of(app, token).header["players"] == ["Anna", "Ben"]
    board = host.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    # on the host's board only where it asks for the yes (atop, and the seat list)
    asks = r'<details class="card seats-panel".*?</details>|<p class="card asking">.*?</p>'
    assert "Mallory" not in re.sub(asks, "", board, flags=re.S)
    assert mallory.enter(token, F35).status_code == 403
    assert host.enter(token, {**F35, "player": "Anna"}).status_code == 200
    turned = host_says(host, token, f"/seats/{seat_of(app, token, 'Mallory')['id']}/let-in", {"answer": "no"})
    assert turned.status_code == 200
    played = game_of(app, token)
    assert played.header["players"] == ["Anna", "Ben"] and set(played.result["points"]) == {"Anna", "Ben"}


def test_a_newcomer_at_a_team_game_waits_to_be_placed(app, phone):
    """Finding 2: an Escoba table with teams AB/CD stays so when Eve joins: Eve waits for the
    host to place her (draw pairs again, or everyone for themselves)."""
    host = phone()
    token = host.open_table("escoba", players=("Anna", "Ben", "Cleo", "Dora"))
    teams = [{"name": "AB", "players": ["Anna", "Ben"]}, {"name": "CD", "players": ["Cleo", "Dora"]}]
    assert host_says(host, token, "/teams", {"action": "set", "teams": json.dumps(teams)}).status_code == 200
    assert add_me(phone(), token, "Eve").status_code == 200
    played = game_of(app, token)
    assert played.header["teams"] == teams and played.header["players"] == ["Anna", "Ben", "Cleo", "Dora"]
    seats = host.get(f"/t/{token}").get_data(as_text=True)
    assert "waits for a team" in seats
    # five cannot sit at Escoba: no draw is offered, one posted is refused with words, the teams stay
    assert "Draw pairs" not in seats
    drawn = host_says(host, token, "/teams", {"action": "draw"})
    assert drawn.status_code == 400 and "Escoba with 5 players has no teams to draw" in drawn.get_data(as_text=True)
    assert game_of(app, token).header["teams"] == teams


def test_a_removed_phone_does_not_come_back_with_a_fresh_cookie(app, phone):
    """Finding 3: "Remove this phone for good", then a private tab on the same link takes the
    freed seat: it waits for the host's yes, and cannot write for it meanwhile."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna = phone()
    anna.join(token, "Anna")
    seat = seat_of(app, token, "Anna")["id"]
    assert host_says(host, token, f"/seats/{seat}/remove").status_code == 200
    assert anna.post(f"/t/{token}/join", {"seat": str(seat)}).status_code == 403  # the same phone: never
    private = phone()
    private.get(f"/t/{token}")
    assert private.post(f"/t/{token}/join", {"seat": str(seat), "change": private.board_change(token)}).status_code == 200
    assert seat_of(app, token, "Anna")["approved"] == 0  # the seat is guarded: it waits
    refused = private.enter(token, F35)
    assert refused.status_code == 403 and "has not let your seat in" in refused.get_data(as_text=True)
    assert not game_of(app, token).entries
    newcomer = phone()  # and every new seat waits from then on
    assert add_me(newcomer, token, "Zed").status_code == 200
    assert seat_of(app, token, "Zed")["approved"] == 0
    assert host_says(host, token, f"/seats/{seat}/let-in", {"answer": "yes"}).status_code == 200
    assert private.enter(token, F35).status_code == 200  # the host's yes, and only it, opens the seat


def test_removing_a_phone_for_good_takes_a_second_tap(app, phone):
    """The host's seat list put "Remove this phone" beside "Free seat", one tap from keeping a
    friend's phone out of the table for good. Now the first tap opens the question, naming
    whose phone, and only its answer posts."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    phone().join(token, "Anna")
    page = host.get(f"/t/{token}").get_data(as_text=True)
    seat = seat_of(app, token, "Anna")["id"]
    asked = re.search(r'<details class="for-good"><summary class="button small">Remove this phone</summary>\s*'
                      r'<button [^>]*hx-post="([^"]+)"[^>]*>Remove Anna\'s phone for good</button></details>', page)
    assert asked and asked.group(1) == f"/t/{token}/seats/{seat}/remove"
    assert page.count("/remove") == 1


def test_a_stale_seat_list_never_acts_on_a_phone_that_sat_down_since(app, phone):
    """A seat's buttons acted on the seat, not on the phone the host saw there: Mallory's phone
    left Anna's seat, Anna sat down in it, and the host's "Remove Mallory's phone", tapped on the
    list drawn before, threw Anna's phone out for good. The buttons say which phone they were
    drawn for; a tap on a seat another phone sits in now is refused with words, and nothing
    changes. A tap on the list as it stands does what it says."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    mallory, anna = phone(), phone()
    mallory.get(f"/t/{token}")
    seat = seat_of(app, token, "Anna")["id"]
    assert mallory.post(f"/t/{token}/join", {"seat": str(seat), "change": mallory.board_change(token)}).status_code == 200
    page = html.unescape(host.get(f"/t/{token}").get_data(as_text=True))
    marks = dict(re.findall(r'/seats/%s/([a-z-]+)" hx-vals=\'\{(?:"answer": "yes", )?"sat": "(\w+)"' % seat, page))
    assert marks["let-in"] and marks["let-in"] == service.seat_mark(seat_of(app, token, "Anna")["device"])
    assert host_says(host, token, f"/seats/{seat}/let-in", {"answer": "no", "sat": marks["let-in"]}).status_code == 200
    anna.get(f"/t/{token}")
    assert anna.post(f"/t/{token}/join", {"seat": str(seat), "change": anna.board_change(token)}).status_code == 200
    before = seat_of(app, token, "Anna")
    for path, fields in (("remove", {}), ("free", {}), ("let-in", {"answer": "yes"}), ("let-in", {"answer": "no"})):
        stale = host_says(host, token, f"/seats/{seat}/{path}", {**fields, "sat": marks["let-in"]})
        assert stale.status_code == 409, path
        assert "Anna's seat has changed since your list was drawn" in html.unescape(stale.get_data(as_text=True))
        assert seat_of(app, token, "Anna") == before
    assert not db_of(app).execute("SELECT count(*) FROM bans").fetchone()[0]
    fresh = service.seat_mark(before["device"])
    assert host_says(host, token, f"/seats/{seat}/let-in", {"answer": "yes", "sat": fresh}).status_code == 200
    assert seat_of(app, token, "Anna")["approved"] == 1


def test_a_new_join_link_takes_a_second_tap(phone):
    """"New join link and code" made them new at one tap: the QR code on the table and the code
    friends were typing stopped seating anyone. Now it asks first, saying so."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    asked = re.search(r'<details class="for-good"><summary class="button small">New join link and code</summary>\s*'
                      r'<button [^>]*hx-vals=\'\{"new_link": "yes"\}\'>'
                      r'Make them new: the old QR code and code stop working</button></details>', page)
    assert asked and page.count('"new_link"') == 1


def test_every_game_write_carries_its_race_token(app, phone):
    """Finding 6: a Euchre hand without the board it was made on is refused like an entry, and
    a Kaques step too; with it, a second phone's hand on the same board is refused as entered."""
    host = phone()
    token = host.open_table("euchre", players=("Anna", "Ben", "Cleo", "Dora"))
    hand = {"maker": "Ben", "tricks": "3"}
    assert host.post(f"/t/{token}/euchre/hand", hand).status_code == 400
    change = host.board_change(token)
    anna = phone()
    anna.join(token, "Anna")
    assert host.post(f"/t/{token}/euchre/hand", {**hand, "change": change, "idem": "h1"}).status_code == 200
    again = anna.post(f"/t/{token}/euchre/hand", {**hand, "change": change, "idem": "h2"})
    assert again.status_code == 409 and "already entered" in again.get_data(as_text=True)
    assert len(game_of(app, token).entries) == 1
    kaques = host.open_table("kaques", players=("Anna", "Ben"))
    step = {"action": "again", "dice": "1,5,2,3,4,6", "keep": ["0", "4"]}
    assert host.post(f"/t/{kaques}/kaques/turn", step).status_code == 400
    assert not game_of(app, kaques).draft


def test_a_removed_or_waiting_phone_is_told_so_whatever_it_tries(app, phone):
    """A removed phone that tapped Undo was told "There is nothing to undo" (or "Join the table
    first", and then, joining, that it was removed); a cell on another's turn told it whose turn
    it was. Whatever it writes, it hears why it may write nothing; a waiting seat likewise."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Anna')['id']}/remove").status_code == 200
    removed = "The host has removed this phone from the table."
    for response in (anna.write(f"/t/{token}/undo", {"target": "1"}),
                     anna.write(f"/t/{token}/correct", {"target": "1", "event": "{}"}),
                     anna.write(f"/t/{token}/rematch", {}),
                     anna.write(f"/t/{token}/escalero/score", {"cell": "1:1:F", "value": "30"}),
                     anna.enter(token, F35)):
        assert response.status_code == 403 and removed in response.get_data(as_text=True), response.get_data(as_text=True)
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    waiting = phone()
    assert add_me(waiting, token, "Cleo").status_code == 200
    refused = waiting.write(f"/t/{token}/undo", {"target": "1"})
    assert refused.status_code == 403 and "has not let your seat in" in refused.get_data(as_text=True)
    # and the host's word for removing a phone is its own
    refused = ben.post(f"/t/{token}/seats/{seat_of(app, token, 'Cleo')['id']}/remove", {"change": "0"})
    assert refused.status_code == 403 and "Only the host can remove a phone" in refused.get_data(as_text=True)


def test_a_game_for_four_takes_no_fifth_seat(app, phone):
    """A Euchre table of four, every seat taken: the host let in a fifth friend (waiting for
    the yes, "Add me"), and no hand could be entered again, the rematch neither. A game that
    seats a fixed number takes no name past it; its join card says every seat is taken."""
    host = phone()
    token = host.open_table("euchre", players=("Anna", "Ben", "Cleo", "Dora"))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        phone().join(token, name)
    ewa = phone()
    page = ewa.get(f"/t/{token}").get_data(as_text=True)
    assert "Every seat is taken. The host can free one for you." in page and 'name="name"' not in page
    refused = add_me(ewa, token, "Ewa")
    assert refused.status_code == 409 and "This table is full: this game is played by 4." in refused.get_data(as_text=True)
    assert [seat["name"] for seat in service.seats(db_of(app), service.by_join_token(db_of(app), token)["id"])] == [
        "Anna", "Ben", "Cleo", "Dora"]
    # a seat freed is a seat to take, not a name to add
    seat = seat_of(app, token, "Dora")["id"]
    assert host_says(host, token, f"/seats/{seat}/free").status_code == 200
    assert "Every seat is taken" not in ewa.get(f"/t/{token}").get_data(as_text=True)
    assert add_me(ewa, token, "Ewa").status_code == 409
    assert ewa.post(f"/t/{token}/join", {"seat": str(seat), "change": ewa.board_change(token)}).status_code == 200
    assert game_of(app, token).game is not None  # four play: the first hand can be entered


def test_the_host_sees_who_waits_for_a_yes_atop_the_board(app, phone):
    """Someone waiting for the host's yes was told only in the seat list, under the pad and the
    history: the host's board says so on top, with the yes and the no, and the setting's button
    shows whether it is on."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert re.search(r'class="button small toggle"[^>]*aria-pressed="true"', page)
    assert add_me(phone(), token, "Ewa").status_code == 200
    page = host.get(f"/t/{token}").get_data(as_text=True)
    asking = page.index('class="card asking"')
    assert asking < page.index('id="game"') and "Ewa waits for your yes." in page[asking:asking + 400]
    assert f'/seats/{seat_of(app, token, "Ewa")["id"]}/let-in' in page[asking:asking + 800]


def test_a_host_who_only_keeps_score_is_not_asked_to_sit_once_it_has_begun(app, phone):
    """The host writes for every seat, seats without phones stay free: "Are you playing too?"
    stayed the whole game, and filled a small phone above the tray."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    assert "Are you playing too?" in host.get(f"/t/{token}").get_data(as_text=True)
    assert host.enter(token, {**F35, "player": "Anna"}).status_code == 200
    assert "Are you playing too?" not in host.get(f"/t/{token}").get_data(as_text=True)
    stranger = phone()  # a phone without a seat still may: the hint speaks of the names it adds
    page = stranger.get(f"/t/{token}").get_data(as_text=True)
    assert page.index("Tap your name") < page.index('name="name"') < page.index("A name added plays from the next game")


def test_a_phone_turned_away_is_told_until_it_sits_again(app, phone):
    """The host said no to Ewa's waiting seat: her phone got the join form back without a word.
    It says so now, to her phone alone, until she sits down again."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    ewa, stranger = phone(), phone()
    assert add_me(ewa, token, "Ewa").status_code == 200
    said = "The host said no to your seat."
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Ewa')['id']}/let-in", {"answer": "no"}).status_code == 200
    assert said in ewa.get(f"/t/{token}").get_data(as_text=True)
    assert said in ewa.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert said not in stranger.get(f"/t/{token}").get_data(as_text=True)
    assert said not in host.get(f"/t/{token}").get_data(as_text=True)
    assert add_me(ewa, token, "Ewa").status_code == 200  # she asks again, and waits
    assert said not in ewa.get(f"/t/{token}").get_data(as_text=True)
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Ewa')['id']}/let-in", {"answer": "yes"}).status_code == 200
    assert game_of(app, token).header["players"] == ["Anna", "Ben", "Ewa"]


def test_one_policy_decides_every_action():
    """Finding 7: every action is decided by one function, with the reason in words; the host
    rule stands in one place (`grep -rn is_host` finds it there alone)."""
    for action in ("write", "undo", "correct", "draft", "join", "let_in", "turn_away", "free_seat", "remove",
                   "new_link", "teams", "rematch", "settings", "claim", "answer_claim", "history", "export"):
        assert action in policy.ACTIONS
    stranger = policy.Viewer("x", False, None)
    board = policy.Viewer("", False, None, read_only=True)
    for action in ("let_in", "turn_away", "free_seat", "remove", "new_link", "teams", "settings", "answer_claim",
                   "hand_host"):
        refused = policy.refusal(action, stranger)
        assert refused and refused.status == 403 and str(refused.text).startswith("Only the host")
    assert policy.refusal("history", board).status == 404
    found = subprocess.run(["grep", "-rln", "is_host", "scorekeeper", "templates"], cwd=ROOT,
                           capture_output=True, text=True).stdout.split()
    assert [path for path in found if not path.endswith((".pyc", ".mo"))] == ["scorekeeper/policy.py"]


ACTS = st.lists(st.tuples(st.sampled_from(["add", "take", "wait", "yes", "no", "free", "remove", "rematch"]),
                          st.integers(0, 5)), min_size=1, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(acts=ACTS)
def test_no_seat_change_changes_a_started_games_players(app, acts):
    """Whatever joins, waits, answers, removals and rematches follow a game's first entry, its
    players stay those it started with; a rematch takes the players the seats make then."""
    app.extensions["scorekeeper.limits"] = {kind: replace(limit, most_per_device=10 ** 9, most_per_address=10 ** 9,
                                                          burst=0) for kind, limit in service.LIMITS.items()}
    host = Phone(app)
    token = host.open_table("kaques", players=("Anna", "Ben"), target=50)
    assert host.enter(token, {"type": "turn", "player": "Anna", "points": 100}).status_code == 200  # won
    fixed = {1: game_of(app, token).header["players"]}
    for number, (act, pick) in enumerate(acts):
        db = db_of(app)
        seats = service.seats(db, service.by_join_token(db, token)["id"])
        seat = seats[pick % len(seats)]
        if act == "add":
            add_me(Phone(app), token, f"New{number}")
        elif act == "take" and not seat["device"]:
            taker = Phone(app)
            taker.get(f"/t/{token}")
            taker.post(f"/t/{token}/join", {"seat": str(seat["id"]), "change": taker.board_change(token)})
        elif act == "wait":
            host_says(host, token, "/settings", {"approve_seats": "on"})
        elif act in ("yes", "no"):
            host_says(host, token, f"/seats/{seat['id']}/let-in", {"answer": act})
        elif act in ("free", "remove"):
            host_says(host, token, f"/seats/{seat['id']}/{act}")
        elif act == "rematch":
            host_says(host, token, "/rematch")
            played = game_of(app, token)
            if played.row["number"] not in fixed and len(played.header["players"]) >= 2:
                # the new game starts at once: its players are fixed from here on
                assert host.enter(token, {"type": "turn", "player": played.header["players"][0],
                                          "points": 100}).status_code == 200
        for game in service.games_of(db_of(app), service.by_join_token(db_of(app), token)["id"]):
            played = service.load(db_of(app), game)
            if played.entries:
                assert played.header["players"] == fixed.setdefault(game["number"], played.header["players"]), act


@pytest.mark.parametrize("game", GAMES)
def test_the_seat_list_offers_the_draws_the_engine_makes_and_no_other(app, phone, game):
    """Jaques le Kaques and Yatzy at four offered "Draw pairs by lot", and the tap was refused:
    they have no teams. The seat list offers a draw for each team size the engine's `team_draws`
    names (none where it seats teams itself); a draw of another size is refused, and changes
    nothing."""
    host = phone()
    token = host.open_table(game, players=("Anna", "Ben", "Cleo", "Dora"))
    engine = ENGINES[game]
    offered = () if engine.default_teams else engine.team_draws(4)
    seats = host.get(f"/t/{token}").get_data(as_text=True)
    assert tuple(int(size) for size in re.findall(r'"action": "draw", "size": (\d+)', html.unescape(seats))) == offered
    assert ("Draw pairs by lot" in seats) == (2 in offered)
    header = game_of(app, token).header
    for size in (0, 1, 3, 4, 5, "x", "-1", "9" * 20):  # junk: no button sends it
        if size not in offered:
            refused = host_says(host, token, "/teams", {"action": "draw", "size": str(size)})
            said = "is drawn in teams of 2 only" if offered else "with 4 players has no teams to draw"
            assert refused.status_code == 400 and said in refused.get_data(as_text=True), size
            assert game_of(app, token).header == header
    if 2 in offered:
        assert host_says(host, token, "/teams", {"action": "draw", "size": "2"}).status_code == 200
        assert [len(team["players"]) for team in game_of(app, token).header["teams"]] == [2, 2]


# --- the host's part changes hands ----------------------------------------------------------


def host_gone(app, token, seconds=policy.HOST_GONE + 1):
    """The host's phone last at the table `seconds` ago."""
    db = db_of(app)
    db.execute("UPDATE host_seen SET at = at - ? WHERE table_id = ?", [seconds, service.by_join_token(db, token)["id"]])


def test_the_host_hands_the_table_to_a_seated_phone_and_may_take_it_back(app, phone):
    """The host's phone is low: its host makes Anna the host (a second tap, as removing a phone
    takes), and from then on Anna's phone has the seat list and the settings, the host's phone
    none; the phone that opened the table takes the host's part back in one tap."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna = phone()
    anna.join(token, "Anna")
    seat = seat_of(app, token, "Anna")["id"]
    page = host.get(f"/t/{token}").get_data(as_text=True)
    asked = re.search(r'<details class="for-good"><summary class="button small">Make host</summary>\s*'
                      r'<button [^>]*hx-post="([^"]+)"[^>]*>Make Anna the host: this phone stops hosting</button>', page)
    assert asked and asked.group(1) == f"/t/{token}/seats/{seat}/host"
    mark = service.seat_mark(seat_of(app, token, "Anna")["device"])
    assert host_says(host, token, f"/seats/{seat}/host", {"sat": mark}).status_code == 200
    board = anna.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'class="card seats-panel"' in board
    assert host_says(anna, token, "/settings", {"approve_seats": "on"}).status_code == 200
    refused = host_says(host, token, "/settings", {"approve_seats": "off"})
    assert refused.status_code == 403 and "Only the host" in refused.get_data(as_text=True)
    # the phone that opened it is told who hosts, and may take it back
    own = host.get(f"/t/{token}").get_data(as_text=True)
    assert "Host: Anna" in own and "Take the host's part back" in own
    assert host_says(host, token, "/host").status_code == 200
    assert host_says(host, token, "/settings", {"approve_seats": "off"}).status_code == 200
    assert host_says(anna, token, "/settings", {"approve_seats": "on"}).status_code == 403


def test_a_seat_takes_over_once_the_hosts_phone_has_been_away_a_while(app, phone):
    """The host's phone died mid-game: nobody could let a phone in or free a seat again. A
    seated player may take over once the host's phone has been away HOST_GONE seconds (told
    how long before that), a stranger never; the host's entries still read as the host's, and
    the new host cannot remove the phone that opened the table."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna, ben, stranger = phone(), phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    assert host.enter(token, {**F35, "player": "Anna"}).status_code == 200
    page = anna.get(f"/t/{token}").get_data(as_text=True)
    assert "Host: the phone that opened the table" in page and "Take over as host" in page
    early = host_says(anna, token, "/host")
    assert early.status_code == 409 and "in the last 10 minutes" in early.get_data(as_text=True)
    stranger.get(f"/t/{token}")
    assert "Take over as host" not in stranger.get(f"/t/{token}").get_data(as_text=True)
    # a phone that scanned the code mid-game and added a name (no yes needed) plays from the
    # next game: it took over too, and a finished game's money was its to correct
    newcomer = phone()
    newcomer.get(f"/t/{token}")
    assert newcomer.post(f"/t/{token}/join", {"name": "Zed", "change": newcomer.board_change(token)},
                         fetch=False).status_code == 303
    host_gone(app, token)
    assert host_says(stranger, token, "/host").status_code == 403
    assert "Take over as host" not in newcomer.get(f"/t/{token}").get_data(as_text=True)
    refused = host_says(newcomer, token, "/host")
    assert refused.status_code == 403 and "Only a player of this game" in refused.get_data(as_text=True)
    assert host_says(anna, token, "/host").status_code == 200
    late = host_says(ben, token, "/host")  # Anna hosts now, and was at the table just now
    assert late.status_code == 409 and "in the last 10 minutes" in late.get_data(as_text=True)
    assert "Host: Anna" in ben.get(f"/t/{token}").get_data(as_text=True)
    german = anna.get(f"/t/{token}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert re.search(r"Gastgeber\W", german)  # the history's first row, written by the host
    db = db_of(app)
    hosts_seat = db["seats"].insert({"table_id": service.by_join_token(db, token)["id"], "position": 9,
                                     "name": "Otto", "role": "player", "device": None}).last_pk
    host.get(f"/t/{token}")
    assert host.post(f"/t/{token}/join", {"seat": str(hosts_seat), "change": host.board_change(token)}).status_code == 200
    refused = host_says(anna, token, f"/seats/{hosts_seat}/remove")
    assert refused.status_code == 409 and "opened this table" in refused.get_data(as_text=True)


def test_the_hosts_phone_marks_itself_at_the_table(app, phone):
    """The host's own requests mark its phone as at the table (at most once a minute, and as no
    change of the table); a player's requests do not."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    anna = phone()
    anna.join(token, "Anna")
    change = anna.board_change(token)
    host_gone(app, token)

    def seen():
        db = db_of(app)
        return service.host_seen(db, service.by_join_token(db, token)["id"])

    before = seen()
    anna.get(f"/t/{token}")
    assert seen() == before
    host.get(f"/t/{token}")
    assert seen() > before + policy.HOST_GONE and anna.board_change(token) == change
    assert host_says(anna, token, "/host").status_code == 409


def test_a_second_tap_on_a_seat_button_is_the_same_tap(app, phone):
    """On a slow Wi-Fi the host's second tap of "Let in", "Make host" or "Draw pairs by lot",
    sent before the first was answered, was refused in red ("Zed is not waiting for your yes",
    "Only the host can …") or drew the pairs again. Each button carries an idempotency key of
    its board: the second tap is the first one, answered again."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben", "Cleo", "Dora"))
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    anna = phone()
    anna.join(token, "Anna")
    seat = seat_of(app, token, "Anna")["id"]
    page = host.get(f"/t/{token}").get_data(as_text=True)
    key = re.search(r'/seats/%d/let-in" hx-vals=\'\{"answer": "yes", "sat": "\w*", "idem": "([^"]+)"' % seat, page)
    assert key, "the let-in button carries its key"
    change = host.board_change(token)
    for _ in range(2):
        assert host.post(f"/t/{token}/seats/{seat}/let-in", {"answer": "yes", "idem": key.group(1),
                                                               "change": change}).status_code == 200
    assert seat_of(app, token, "Anna")["approved"] == 1
    page = host.get(f"/t/{token}").get_data(as_text=True)
    draw = re.search(r'"action": "draw", "size": 2, "idem": "([^"]+)"', page)
    change = host.board_change(token)
    drawn = []
    for _ in range(2):
        assert host.post(f"/t/{token}/teams", {"action": "draw", "size": "2", "idem": draw.group(1),
                                               "change": change}).status_code == 200
        drawn.append(game_of(app, token).header["teams"])
    assert drawn[0] == drawn[1]
    page = host.get(f"/t/{token}").get_data(as_text=True)
    hand = re.search(r'/seats/%d/host" hx-vals=\'\{"sat": "(\w*)", "idem": "([^"]+)"' % seat, page)
    change = host.board_change(token)
    for _ in range(2):
        answered = host.post(f"/t/{token}/seats/{seat}/host", {"sat": hand.group(1), "idem": hand.group(2),
                                                               "change": change})
        assert answered.status_code == 200, answered.get_data(as_text=True)
    assert host_says(anna, token, "/settings", {"approve_seats": "off"}).status_code == 200


def test_a_table_in_play_when_the_host_could_first_change_is_not_taken_over_at_once(tmp_path):
    """A table opened before the host's part could change hands, in play as the server is
    upgraded: its host counts as at the table from then on (it was taken over at once, as if
    its phone had been gone for ever), and the phone that opened it is the one that did."""
    db = store.connect(str(tmp_path / "old.db"))
    store.migrations.apply(db, stop_before="m011_the_host_can_change")
    db["tables"].insert({"code": "ABCDEF", "join_token": "t", "board_token": "b", "host_device": "h",
                         "created_at": service.now()})
    store.migrate(db)
    table = service.by_join_token(db, "t")
    assert policy.opened("h", table) and not policy.opened("x", table)
    assert time.time() - service.host_seen(db, table["id"]) < policy.HOST_GONE


def test_a_phone_whose_seat_is_freed_keeps_the_games_it_played(app, phone):
    """Anna played a game at Ben's table, and the host freed her seat for another phone: her
    phone's statistics and its list of tables counted the seats it holds now, so the game she
    had played was gone from both. A phone keeps the tables it sat at, let in (store m014); one
    removed for good, and one that only waited for the host's yes, do not."""
    host, anna, cleo, dora = phone(), phone(), phone(), phone()
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1)
    anna.join(token, "Anna")
    for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"):  # to the end: Anna's 1s to 6s
        for name in ("Anna", "Ben"):
            value = int(row) if name == "Anna" and row in "123456" else 0
            assert host.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                      "value": value}).status_code == 200

    board = re.search(r'href="/b/([^/"]+)"', host.get(f"/t/{token}").get_data(as_text=True)).group(1)

    def knows(device) -> bool:
        return "/players/Ben" in device.get("/players").get_data(as_text=True) and \
            (f"/t/{token}" in device.get("/").get_data(as_text=True) or f"/b/{board}" in device.get("/").get_data(as_text=True))

    assert knows(anna) and f'href="/t/{token}"' in anna.get("/").get_data(as_text=True)
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Anna')['id']}/free").status_code == 200
    assert seat_of(app, token, "Anna")["device"] is None and knows(anna)
    # Cleo sits in Anna's seat, and is removed for good; Dora only waits for the host's yes
    cleo.join(token, "Anna")
    assert knows(cleo)
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Anna')['id']}/remove").status_code == 200
    assert not knows(cleo)
    dora.join(token, "Anna")  # the seat is guarded since: she waits, and is turned away
    assert not seat_of(app, token, "Anna")["approved"]
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Anna')['id']}/let-in", {"answer": "no"}).status_code == 200
    assert not knows(dora)
    # Anna's way back is the read-only board: the join link as it stands would let her in past a
    # new one the host made
    assert host.write(f"/t/{token}/settings", {"new_link": "yes"}).status_code == 200
    start = anna.get("/").get_data(as_text=True)
    joined = db_of(app).execute("SELECT join_token FROM tables WHERE board_token = ?", [board]).fetchone()[0]
    code = db_of(app).execute("SELECT code FROM tables WHERE board_token = ?", [board]).fetchone()[0]
    assert joined != token and joined not in start and token not in start and code not in start
    assert f'href="/b/{board}"' in start and anna.get(f"/b/{board}").status_code == 200


def test_a_freed_phone_reads_the_history_of_its_games_on_the_board_link_alone(app, phone):
    """Anna's seat freed after the game, her phone's way back (the read-only board) had no
    history: the games she played, their rows and their logs, were the join link's alone. On
    the board link they are hers now; a stranger holding that link, a phone removed for good and
    one turned away still get nothing, and the board's earlier rows stay the join link's."""
    host, anna, cleo, dora, stranger = phone(), phone(), phone(), phone(), phone()
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1)
    anna.join(token, "Anna")
    for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"):
        for name in ("Anna", "Ben"):
            assert host.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                      "value": int(row) if name == "Anna" and row in "123456" else 0}).status_code == 200
    board = re.search(r'href="/b/([^/"]+)"', host.get(f"/t/{token}").get_data(as_text=True)).group(1)
    pages = ("history", "history/games", "history/games/1/rows", "games/1/log.json")
    seat = seat_of(app, token, "Anna")["id"]
    assert host_says(host, token, f"/seats/{seat}/free").status_code == 200
    cleo.join(token, "Anna")
    assert host_says(host, token, f"/seats/{seat}/remove").status_code == 200
    dora.join(token, "Anna")
    assert host_says(host, token, f"/seats/{seat}/let-in", {"answer": "no"}).status_code == 200
    for device in (stranger, cleo, dora):
        for page in pages:
            assert device.get(f"/b/{board}/{page}").status_code == 404, page

    start = anna.get("/").get_data(as_text=True)
    assert f'href="/b/{board}/history"' in start  # beside the board, on her list of tables
    history = anna.get(f"/b/{board}/history").get_data(as_text=True)
    code = db_of(app).execute("SELECT code FROM tables WHERE board_token = ?", [board]).fetchone()[0]
    assert "Anna" in history and "/b/" in history and token not in history and code not in history  # no way in
    assert code in host.get(f"/t/{token}/history").get_data(as_text=True)  # the join link's has it
    assert 'href="/b/%s/games/1/log.json"' % board in history
    log = anna.get(f"/b/{board}/games/1/log.json")
    assert log.status_code == 200 and json.loads(log.get_data())["players"] == ["Anna", "Ben"]
    assert log.headers["Content-Disposition"] == 'attachment; filename="escalero-1.json"'  # not the code
    for page in pages[1:3]:
        assert anna.get(f"/b/{board}/{page}", headers={"HX-Request": "true"}).status_code == 200, page
    assert anna.get(f"/b/{board}/board/earlier", headers={"HX-Request": "true"}).status_code == 404
    assert anna.write(f"/b/{board}/claims/1", {"answer": "confirm"}).status_code == 403  # reads, writes nothing
