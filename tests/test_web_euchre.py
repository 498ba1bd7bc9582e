"""Euchre at the table through Flask's test client: pairing the four, the hand picker's
preview, entering, refusing a hand entered twice, undo, the host's corrections, the end."""

import html
import json
import re

import pytest

from scorekeeper import service, store
from scorekeeper.games import euchre

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")
RED, BLUE = "Anna & Cleo", "Ben & Dora"


def played_of(app, token):
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)
    return service.load(db, service.current_game(db, table["id"]))


def board_token(app, token):
    db = store.connect(app.config["DATABASE"])
    return service.by_join_token(db, token)["board_token"]


@pytest.fixture
def table(phone):
    """A Euchre table opened with four names and paired; Anna's and Ben's phones seated."""
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    return host, anna, ben, token


def hand(device, token, deal, idem=None, **event):
    data = {"event": json.dumps({"type": "hand", **event}), "deal": str(deal)}
    if idem:
        data["idem"] = idem
    return device.post(f"/t/{token}/euchre/hand", data)


def board(device, token):
    return device.get(f"/t/{token}/board").get_data(as_text=True)


def picker(page):
    found = re.search(r'data-picker="([^"]+)"', page)
    return json.loads(html.unescape(found.group(1))) if found else None


def scores(page):
    return [int(n) for n in re.findall(r"<b data-score>(\d+)</b>", page)]


# --- pairing the four -----------------------------------------------------------------------


def test_four_names_are_seated_as_partners_opposite(phone, app):
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    played = played_of(app, token)
    assert [(s.name, s.members) for s in played.game.setup.sides] == [(RED, ("Anna", "Cleo")), (BLUE, ("Ben", "Dora"))]
    ben = phone()
    ben.join(token, "Ben")
    page = board(ben, token)
    assert scores(page) == [0, 0] and "data-hand-entry" in page
    assert "Anna deals · you lead" in page
    assert "Draw pairs by lot" not in host.get(f"/t/{token}").get_data(as_text=True)
    # only the host may change the teams
    teams = json.dumps(euchre_teams())
    assert ben.post(f"/t/{token}/teams", {"action": "set", "teams": teams}).status_code == 403


def test_players_who_add_themselves_are_paired_when_four_have_joined(phone, app):
    host = phone()
    token = host.open_table("euchre", ())
    for name in PLAYERS:
        assert phone().post(f"/t/{token}/join", {"name": name}, fetch=False).status_code == 303
    sides = played_of(app, token).game.setup.sides
    assert [s.members for s in sides] == [("Anna", "Cleo"), ("Ben", "Dora")]


def euchre_teams():
    return [{"name": RED, "players": ["Anna", "Cleo"]}, {"name": BLUE, "players": ["Ben", "Dora"]}]


def test_a_table_of_three_is_told_euchre_is_for_four(phone):
    host = phone()
    token = host.open_table("euchre", ("Anna", "Ben", "Cleo"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert "Euchre for 4 players" in page and "when 4 have joined" in page
    assert 'name="teams"' not in page


def test_the_other_forms_on_the_board(phone, app):
    """Three-handed: no lone hands offered, a euchre scores both defenders; a Railroad rematch
    starts with the points carried in."""
    host = phone()
    token = host.open_table("euchre", ("Anna", "Ben", "Cleo"), form="three-handed")
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert "data-hand-entry" in page and "data-alone" not in page and "data-lone=" not in page
    assert "data-defenders" in page and "Euchre for" not in page
    picker = json.loads(html.unescape(re.search(r'data-picker="([^"]+)"', page).group(1)))
    assert picker["form"] == "three-handed"
    euchred = picker["makers"]["Anna"]["points"]["0"][2]  # Anna makes and takes two tricks
    assert euchred[1] == 2 and sorted([euchred[0], *euchred[2:]]) == [1, 2]  # Ben and Cleo, +2 each
    assert host.post(f"/t/{token}/euchre/hand", {"event": json.dumps({"type": "hand", "maker": "Anna", "tricks": 2}),
                                                  "deal": "0"}).status_code == 200
    assert played_of(app, token).result["points"] == {"Anna": 0, "Ben": 2, "Cleo": 2}

    railroad = host.open_table("euchre", PLAYERS, form="railroad", target=5)
    for deal in range(3):  # a march a hand for Anna and Cleo: 2, 4, 6 — one past the target
        hand(host, railroad, deal, maker="Anna", tricks=5)
    finished = host.get(f"/t/{railroad}").get_data(as_text=True)
    assert "carry into the rematch" in finished and "Slam!" in finished  # the others never scored
    assert host.post(f"/t/{railroad}/rematch").status_code == 200
    again = host.get(f"/t/{railroad}").get_data(as_text=True)
    assert "1 carried in from the last game" in again


def test_partners_side_by_side_are_refused(phone):
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    teams = json.dumps([{"name": "A", "players": ["Anna", "Ben"]}, {"name": "C", "players": ["Cleo", "Dora"]}])
    response = host.post(f"/t/{token}/teams", {"action": "set", "teams": teams})
    assert response.status_code == 400 and "partners sit opposite" in response.get_data(as_text=True)


# --- the picker -------------------------------------------------------------------------------


def test_the_picker_shows_what_the_engine_would_score(table, app):
    host, anna, ben, token = table
    data = picker(board(anna, token))
    state = played_of(app, token).state
    assert data["teams"] == [RED, BLUE] and data["dealer"] == "Anna" and data["next_dealer"] == "Ben"
    for maker, info in data["makers"].items():
        assert info["partner"] == euchre.partner_of(state.setup, maker)
        for alone in (False, True):
            for defender in (None, *info["defenders"]):
                key = f"{int(alone)}{defender or ''}"
                for tricks in range(6):
                    team, points = euchre.hand_points(state, maker, tricks, alone, defender)
                    assert data["makers"][maker]["points"][key][tricks] == [data["teams"].index(team), points]
                assert info["leads"][key] == euchre.leader(state.setup, "Anna", maker, alone, defender)
    # the seats in order, each with its dealer mark and an "alone" shortcut
    page = board(ben, token)
    assert re.findall(r'class="button maker team-(\d)" data-maker="(\w+)"', page) == [
        ("0", "Anna"), ("1", "Ben"), ("0", "Cleo"), ("1", "Dora")]
    assert 'data-maker="Anna">Anna <small>dealer</small>' in page
    assert page.count("data-alone ") == 4 and "All passed — redeal" in page


def test_read_only_board_shows_the_race_without_the_picker(table, client, app):
    host, anna, ben, token = table
    hand(anna, token, 0, maker="Anna", tricks=4)
    page = client.get(f"/b/{board_token(app, token)}/board").get_data(as_text=True)
    assert scores(page) == [1, 0] and "data-hand-entry" not in page and "Correct" not in page
    assert client.post(f"/t/{token}/euchre/hand", data={"event": "{}"}).status_code == 403  # no CSRF token


# --- entering hands ---------------------------------------------------------------------------


def test_a_hand_scores_and_the_deal_moves_on(table, app):
    host, anna, ben, token = table
    response = hand(anna, token, 0, maker="Anna", tricks=5, alone=True, trump="hearts")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert scores(page) == [4, 0]
    assert "Hand 2" in page and "Ben deals · Cleo leads" in page
    assert '<span class="suit red" title="hearts">♥</span>' in page and '<span class="tag">alone</span>' in page
    assert "· march" in page and "Anna &amp; Cleo +4" in page
    assert played_of(app, token).result["points"] == {RED: 4, BLUE: 0}

    # Ben, the next dealer, sees "You deal"; a redeal passes the deal without points
    page = board(ben, token)
    assert "You deal · Cleo leads" in page
    response = ben.post(f"/t/{token}/euchre/hand", {"event": json.dumps({"type": "redeal"}), "deal": "1"})
    page = response.get_data(as_text=True)
    assert scores(page) == [4, 0] and "Hand 2" in page and "Cleo deals · Dora leads" in page
    assert "all passed — redeal <small class=\"muted\">(Ben dealt)</small>" in page

    # a lone defender: Dora stops Ben's side and takes all five
    page = hand(ben, token, 2, maker="Cleo", tricks=0, defender_alone="Dora").get_data(as_text=True)
    assert scores(page) == [4, 4]
    assert "<span class=\"tag\">Dora alone</span>" in page and "euchred" in page


def test_a_hand_entered_twice_counts_once(table, app):
    host, anna, ben, token = table
    assert hand(anna, token, 0, idem="a-1", maker="Ben", tricks=3).status_code == 200
    # Ben's phone had not seen it yet and enters the same hand
    response = hand(ben, token, 0, idem="b-1", maker="Ben", tricks=3)
    assert response.status_code == 409
    assert "already entered by Anna" in response.get_data(as_text=True)
    # Anna's phone resends (a dropped answer): the first answer, nothing added
    assert hand(anna, token, 0, idem="a-1", maker="Ben", tricks=3).status_code == 200
    assert len(played_of(app, token).entries) == 1
    # an undo meanwhile: an entry made for the deal after it is refused too
    entry = played_of(app, token).entries[-1][0].id
    assert anna.post(f"/t/{token}/undo", {"target": str(entry)}).status_code == 200
    response = hand(ben, token, 1, maker="Dora", tricks=4)
    assert response.status_code == 409 and "undone meanwhile" in response.get_data(as_text=True)
    assert hand(ben, token, 0, maker="Dora", tricks=4).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 0, BLUE: 1}


@pytest.mark.parametrize("event, message", [
    ({"maker": "Anna", "tricks": 6}, "Tricks must be from 0 to 5"),
    ({"maker": "Anna", "tricks": 3, "defender_alone": "Cleo"}, "must be a defender"),
    ({"maker": "Zed", "tricks": 3}, "not a player at this table"),
])
def test_a_refused_hand_says_why_and_changes_nothing(table, app, event, message):
    host, anna, ben, token = table
    response = hand(anna, token, 0, **event)
    assert response.status_code == 409 and message in response.get_data(as_text=True)
    assert not played_of(app, token).entries


def test_the_writer_undoes_the_last_hand_from_the_score(table):
    host, anna, ben, token = table
    hand(anna, token, 0, maker="Anna", tricks=2)
    mine, theirs = board(anna, token), board(ben, token)
    assert re.search(r'class="last-hand">.*?data-post="[^"]+/undo"', mine, re.S)
    assert not re.search(r'class="last-hand">.*?/undo.*?</p>', theirs, re.S)
    assert scores(mine) == [0, 2]


# --- the host's corrections -------------------------------------------------------------------


def correct(host, token, target, **change):
    return host.post(f"/t/{token}/correct", {"target": str(target), "event": json.dumps(change)})


def fixes(page, target):
    """The correction buttons of one entry: (label, fields)."""
    body = re.search(rf'data-fix="{target}">(.*?)</details>', page, re.S).group(1)
    return [(html.unescape(re.sub(r"<[^>]+>", "", label)).strip(), json.loads(html.unescape(fields)))
            for fields, label in re.findall(r"data-fields='([^']+)'>(.*?)</button>", body, re.S)]


def test_the_host_corrects_tricks_maker_alone_and_redeal(table, app):
    host, anna, ben, token = table
    hand(anna, token, 0, maker="Anna", tricks=3)
    hand(anna, token, 1, maker="Ben", tricks=4, defender_alone="Cleo")
    first, second = (recorded.id for recorded, _ in played_of(app, token).entries)
    assert "data-fix" not in board(ben, token)  # the host and the writer (Anna) correct, not Ben
    buttons = fixes(board(host, token), second)
    labels = [label for label, _ in buttons]
    assert labels[:6] == ["0", "1", "2", "3", "4", "5"]
    assert "Cleo: not alone" in labels and "Anna: alone" in labels and "It was a redeal" in labels
    # Anna as the maker: Cleo, her partner, can no longer be the lone defender
    assert dict(buttons)["Anna"] == {"target": second, "event": {"maker": "Anna", "defender_alone": None}}
    assert dict(buttons)["Dora"] == {"target": second, "event": {"maker": "Dora"}}

    for label, fields in buttons:
        if label == "5":
            response = host.post(f"/t/{token}/correct", {k: json.dumps(v) if not isinstance(v, str) else v
                                                        for k, v in fields.items()})
            assert response.status_code == 200
    assert played_of(app, token).result["points"] == {RED: 1, BLUE: 2}
    page = board(host, token)
    assert f"corrected #{second}" in page

    assert correct(host, token, second, maker="Anna", defender_alone=None).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 3, BLUE: 0}
    assert correct(host, token, first, type="redeal", maker=None, tricks=None).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 2, BLUE: 0}
    history = board(host, token) + host.get(f"/t/{token}/board/earlier").get_data(as_text=True)
    assert [b for b in fixes(history, first)][0] == (
        "Anna", {"target": first, "event": {"type": "hand", "maker": "Anna", "tricks": 3}})
    response = correct(host, token, first, tricks=6)
    assert response.status_code == 409
    assert correct(ben, token, first, type="hand", maker="Anna", tricks=3).status_code == 403  # not his entry


# --- the end -----------------------------------------------------------------------------------


def test_first_to_ten_wins_and_the_rematch_keeps_partners_and_moves_the_deal(table, app):
    host, anna, ben, token = table
    deal = 0
    for maker, tricks, extra in [("Anna", 5, {"alone": True, "trump": "spades"}), ("Ben", 3, {}),
                                 ("Cleo", 5, {"trump": "hearts"}), ("Dora", 1, {"trump": "hearts"}),
                                 ("Anna", 4, {})]:
        assert hand(anna if deal % 2 else ben, token, deal, maker=maker, tricks=tricks, **extra).status_code == 200
        deal += 1
    page = board(ben, token)
    assert scores(page) == [9, 1] and "data-hand-entry" in page
    page = hand(ben, token, deal, maker="Cleo", tricks=3).get_data(as_text=True)
    assert scores(page) == [10, 1]
    assert 'class="winner">Anna &amp; Cleo</h2>' in page and "data-hand-entry" not in page
    assert "Rematch: the same partners; Ben deals first." in page
    rows = re.findall(r"<tr><th>([a-z ]+)</th><td>(\d+)</td><td>(\d+)</td></tr>", page)
    assert rows == [("hands made", "4", "1"), ("marches", "2", "0"), ("euchres", "1", "0"), ("alone", "1", "0")]
    assert "♥</span> 2× <small class=\"muted\">(1 made)</small>" in page
    response = hand(ben, token, deal + 1, maker="Cleo", tricks=3)
    assert response.status_code == 409 and "The game is over" in response.get_data(as_text=True)

    assert ben.post(f"/t/{token}/rematch").status_code == 200
    played = played_of(app, token)
    assert played.row["number"] == 2 and played.header["teams"] == euchre_teams()
    assert played.state.first_dealer == "Ben"
    page = board(ben, token)
    assert scores(page) == [0, 0] and "You deal · Cleo leads" in page


def test_a_long_race_is_drawn_as_a_bar(phone):
    host = phone()
    token = host.open_table("euchre", PLAYERS, target=21, first_dealer="Cleo")
    page = board(host, token)
    assert page.count('<progress max="21" value="0">') == 2 and "Cleo deals · Dora leads" in page


def test_the_rules_page(client):
    page = client.get("/rules/euchre").get_data(as_text=True)
    assert "euchred" in page and "/new/euchre" in page


# --- the forms on the "open a table" form -----------------------------------------------------------


def test_the_new_table_form_offers_every_form_with_a_line_each(client):
    page = client.get("/new/euchre").get_data(as_text=True)
    assert 'name="rule_form"' in page
    for line in ("Partnership: four players, partners opposite", "Two-handed: two players, each for themselves",
                 "Three-handed: three players, the maker alone against the other two",
                 "Railroad: partnership with laps and slams, 33 cards"):
        assert line in page
    assert 'name="rule_laps"' in page and 'name="rule_slam"' in page
    assert 'name="rule_start"' not in page  # carried points come from the rematch, not the form


def test_a_two_handed_table_has_no_teams_and_ignores_the_railroad_settings(phone, app):
    host = phone()
    token = host.open_table("euchre", ("Gus", "Hal"), form="two-handed", laps="true", slam="false")
    played = played_of(app, token)
    assert played.header["rules"] == {"form": "two-handed"} and "teams" not in played.header
    assert [side.name for side in played.game.setup.sides] == ["Gus", "Hal"]
    assert host.get(f"/t/{token}").status_code == 200


def test_a_railroad_table_keeps_its_settings(phone, app):
    host = phone()
    token = host.open_table("euchre", PLAYERS, form="railroad", laps="false", slam="true")
    played = played_of(app, token)
    assert played.header["rules"] == {"form": "railroad", "laps": False, "slam": True}
    assert played.game.rules["deck"] == "33"


@pytest.mark.parametrize("form, names, seats", [("two-handed", PLAYERS, 2), ("three-handed", PLAYERS, 3),
                                                ("partnership", PLAYERS + ("Emil",), 4)])
def test_more_names_than_the_form_seats_are_refused_clearly(phone, form, names, seats):
    response = phone().post("/new/euchre", {"player": list(names), "rule_form": form}, fetch=False)
    assert response.status_code == 400
    assert (f"This form of Euchre is for {seats} players, not {len(names)}: choose another form or leave "
            "names empty.") in html.unescape(response.get_data(as_text=True))
