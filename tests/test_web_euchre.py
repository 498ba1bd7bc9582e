"""Euchre at the table through Flask's test client: pairing the four, the hand picker's
preview, entering, refusing a hand entered twice, undo, the host's corrections, the end."""

import html
import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper import service, store
from scorekeeper.games import euchre
from tests.support import writes

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")
LOGS = Path(__file__).parent / "logs" / "euchre"
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


def hand(device, token, change=None, idem=None, type="hand", **event):
    """A hand as the tray posts it (POST …/euchre/hand): its form's fields for the event's
    words, made on the board of `change` (the phone's board now, unless given)."""
    data = {"redeal": "1"} if type == "redeal" else {}
    fields = {"maker": "maker", "tricks": "tricks", "defender_alone": "defender", "trump": "trump"}
    for word, value in event.items():
        if word == "alone":
            data["alone"] = "1" if value else ""
        else:
            data[fields[word]] = str(value)
    if idem:
        data["idem"] = idem
    return device.write(f"/t/{token}/euchre/hand", data, change=change)


def board(device, token):
    return device.get(f"/t/{token}/board").get_data(as_text=True)


def picking(page):
    """Whether a page offers this phone the hand picker (who named trump, or a redeal)."""
    return 'name="maker"' in page and "who named trump?" in page.lower()


def choices(tray):
    """The tricks buttons of a hand being chosen: tricks -> (the scoring team's index, the
    word, the points, whether more than one team scores)."""
    found = {}
    for classes, tricks, small in re.findall(
            r'<label\b[^>]*class="button trick ([^"]*)"[^>]*>\s*<input type="radio" name="tricks" value="(\d)"[^>]*>'
            r'.*?<small>([^<]*)</small>', tray, re.S):
        word, points = small.split()
        found[int(tricks)] = (int(re.search(r"team-(\d)", classes).group(1)), word, int(points), "both" in classes)
    return found


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
    assert scores(page) == [0, 0] and picking(page)
    assert "Anna deals · you lead" in page
    assert "Draw pairs by lot" not in host.get(f"/t/{token}").get_data(as_text=True)
    # only the host may change the teams
    teams = json.dumps(euchre_teams())
    assert ben.write(f"/t/{token}/teams", {"action": "set", "teams": teams}).status_code == 403


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
    assert not writes(page, "/teams") and not picking(page)


def test_the_other_forms_on_the_board(phone, app):
    """Three-handed: no lone hands offered, a euchre scores both defenders; a Railroad rematch
    starts with the points carried in."""
    host = phone()
    token = host.open_table("euchre", ("Anna", "Ben", "Cleo"), form="three-handed")
    page = host.get(f"/t/{token}").get_data(as_text=True)
    assert picking(page) and 'name="lone"' not in page and "Euchre for" not in page
    tray = host.tray(token, maker="Anna")
    assert 'name="alone"' not in tray and 'name="defender"' not in tray  # nobody goes alone
    assert "Ben &amp; Cleo defend together" in tray
    # Anna makes and takes two tricks: euchred, Ben and Cleo +2 each
    assert choices(tray)[2] == (1, "euchred", 2, True)
    chosen = host.tray(token, maker="Anna", tricks="2")
    assert re.search(r'<b class="team-1 scorer"[^>]*>2</b><i class="said vs"> to </i><b class="team-2 scorer"[^>]*>2</b>', chosen)
    assert "Confirm: Ben &amp; Cleo +2" in chosen
    assert hand(host, token, maker="Anna", tricks=2).status_code == 200
    assert played_of(app, token).result["points"] == {"Anna": 0, "Ben": 2, "Cleo": 2}

    railroad = host.open_table("euchre", PLAYERS, form="railroad", target=5)
    for _ in range(3):  # a march a hand for Anna and Cleo: 2, 4, 6 — one past the target
        hand(host, railroad, maker="Anna", tricks=5)
    finished = host.get(f"/t/{railroad}").get_data(as_text=True)
    # one point past the target, said as one ("1 points beyond 5 carry into the rematch")
    assert "1 point beyond 5 carries into the rematch." in finished and "Slam!" in finished  # the others never scored
    assert host.write(f"/t/{railroad}/rematch").status_code == 200
    again = host.get(f"/t/{railroad}").get_data(as_text=True)
    assert "1 point carried in from the last game" in again


def test_partners_side_by_side_are_refused(phone):
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    teams = json.dumps([{"name": "A", "players": ["Anna", "Ben"]}, {"name": "C", "players": ["Cleo", "Dora"]}])
    response = host.write(f"/t/{token}/teams", {"action": "set", "teams": teams})
    assert response.status_code == 400 and "partners sit opposite" in response.get_data(as_text=True)


# --- the picker -------------------------------------------------------------------------------


def test_the_picker_shows_what_the_engine_would_score(table, app):
    """The tray, rendered for the hand tapped so far, offers every number of tricks with what
    the engine would score for it, and who leads."""
    host, anna, ben, token = table
    state = played_of(app, token).state
    teams = [side.name for side in state.setup.sides]
    assert teams == [RED, BLUE]
    for maker in PLAYERS:
        partner = euchre.partner_of(state.setup, maker)
        defenders = [p for p in PLAYERS if p not in (maker, partner)]
        tray = anna.tray(token, maker=maker)
        lone = re.findall(r'<input type="checkbox" name="(alone|defender)" value="([^"]+)"', tray)
        assert sorted(name for _, name in lone if _ == "defender") == sorted(defenders)
        assert ("alone", "1") in lone and partner not in tray.split("Went alone")[1].split("Trump")[0]
        for alone in (False, True):
            for defender in (None, *defenders):
                fields = {"maker": maker, **({"alone": "1"} if alone else {}),
                          **({"defender": defender} if defender else {})}
                offered = choices(anna.tray(token, fields))
                for tricks in range(6):
                    team, points = euchre.hand_points(state, maker, tricks, alone, defender)
                    assert offered[tricks][0] == teams.index(team) and offered[tricks][2] == points, (fields, tricks)
                preview = anna.tray(token, {**fields, "tricks": "3"})
                leader = euchre.leader(state.setup, "Anna", maker, alone, defender)
                assert f"Led by {leader} · Ben deals next" in preview
    # the seats in order, each with its dealer mark and an "alone" shortcut
    page = board(ben, token)
    assert re.findall(r'class="button maker team-(\d)"[^>]* name="maker" value="(\w+)">', page) == [
        ("0", "Anna"), ("1", "Ben"), ("0", "Cleo"), ("1", "Dora")]
    assert re.search(r'name="maker" value="Anna">Anna <small>dealer</small>', page)
    assert page.count('name="lone"') == 4 and "All passed — redeal" in page
    # the quick "alone" button: that maker, going alone
    quick = ben.tray(token, lone="Cleo")
    assert 'name="maker" value="Cleo"' in quick and re.search(r'name="alone" value="1" id="[\w-]+" checked', quick)


def test_read_only_board_shows_the_race_without_the_picker(table, client, app):
    host, anna, ben, token = table
    hand(anna, token, maker="Anna", tricks=4)
    page = client.get(f"/b/{board_token(app, token)}/board").get_data(as_text=True)
    assert scores(page) == [1, 0] and not picking(page) and "Correct" not in page
    assert '<div id="tray" hidden></div>' in page
    assert client.post(f"/t/{token}/euchre/hand", data={"event": "{}"}).status_code == 403  # no CSRF token


# --- entering hands ---------------------------------------------------------------------------


def test_a_hand_scores_and_the_deal_moves_on(table, app):
    host, anna, ben, token = table
    response = hand(anna, token, maker="Anna", tricks=5, alone=True, trump="hearts")
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
    response = hand(ben, token, type="redeal")
    page = response.get_data(as_text=True)
    assert scores(page) == [4, 0] and "Hand 2" in page and "Cleo deals · Dora leads" in page
    assert "all passed — redeal <small class=\"muted\">(Ben dealt)</small>" in page

    # a lone defender: Dora stops Ben's side and takes all five
    page = hand(ben, token, maker="Cleo", tricks=0, defender_alone="Dora").get_data(as_text=True)
    assert scores(page) == [4, 4]
    assert "<span class=\"tag\">Dora alone</span>" in page and "euchred" in page


def test_a_hand_entered_twice_counts_once(table, app):
    host, anna, ben, token = table
    seen = anna.board_change(token)  # both phones show the first deal
    assert hand(anna, token, seen, idem="a-1", maker="Ben", tricks=3).status_code == 200
    # Ben's phone had not seen it yet and enters the same hand
    response = hand(ben, token, seen, idem="b-1", maker="Ben", tricks=3)
    assert response.status_code == 409
    assert "already entered by Anna" in response.get_data(as_text=True)
    # Anna's phone resends (a dropped answer): the first answer, nothing added
    assert hand(anna, token, seen, idem="a-1", maker="Ben", tricks=3).status_code == 200
    assert len(played_of(app, token).entries) == 1
    # an undo meanwhile: an entry made on the board that still showed the hand is refused too
    seen = ben.board_change(token)
    entry = played_of(app, token).entries[-1][0].id
    assert anna.write(f"/t/{token}/undo", {"target": str(entry)}).status_code == 200
    response = hand(ben, token, seen, maker="Dora", tricks=4)
    assert response.status_code == 409 and "undone or corrected meanwhile" in response.get_data(as_text=True)
    assert hand(ben, token, maker="Dora", tricks=4).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 0, BLUE: 1}


@pytest.mark.parametrize("event, message", [
    ({"maker": "Anna", "tricks": 6}, "Tricks must be from 0 to 5"),
    ({"maker": "Anna", "tricks": 3, "defender_alone": "Cleo"}, "must be a defender"),
    ({"maker": "Zed", "tricks": 3}, "not a player at this table"),
])
def test_a_refused_hand_says_why_and_changes_nothing(table, app, event, message):
    host, anna, ben, token = table
    response = anna.enter(token, {"type": "hand", **event})
    assert response.status_code == 409 and message in response.get_data(as_text=True)
    assert not played_of(app, token).entries


@pytest.mark.parametrize("fields", [{"maker": "Anna", "tricks": "6"}, {"maker": "Zed", "tricks": "3"},
                                    {"maker": "Anna"}, {"tricks": "3"}, {}])
def test_the_hand_route_takes_only_what_the_tray_offers(table, app, fields):
    """POST …/euchre/hand builds the hand from the tray's fields: a maker who is no player,
    tricks the tray does not offer, or a hand not chosen to the end is refused."""
    host, anna, ben, token = table
    response = anna.write(f"/t/{token}/euchre/hand", fields)
    assert response.status_code == 400
    assert "Tap who named trump and the tricks the makers took." in response.get_data(as_text=True)
    assert not played_of(app, token).entries


def test_the_writer_undoes_the_last_hand_from_the_tray_and_after_the_end_from_the_score(table):
    """One Undo for the last hand: the tray's while the game goes on (the score's beside it
    read as a second thing to undo), the score's once the game is over and the tray gone."""
    host, anna, ben, token = table
    hand(anna, token, maker="Anna", tricks=2)
    mine, theirs = board(anna, token), board(ben, token)
    assert len(re.findall(r'hx-post="[^"]+/undo"', mine)) == 1 and 'class="button small tray-undo"' in mine
    assert not re.search(r'class="last-hand">(?:(?!</p>).)*/undo', mine, re.S)
    assert "/undo" not in theirs
    assert scores(mine) == [0, 2]
    for _ in range(5):  # Anna & Cleo march to 10 (the host's to undo after the end)
        hand(anna, token, maker="Anna", tricks=5)
    ended = board(host, token)
    assert 'class="winner"' in ended and re.search(r'class="last-hand">(?:(?!</p>).)*/undo', ended, re.S)


# --- the host's corrections -------------------------------------------------------------------


def correct(host, token, target, **change):
    return host.write(f"/t/{token}/correct", {"target": str(target), "event": json.dumps(change)})


def fix_buttons(device, page, target):
    """The correction buttons of one entry, as writes() finds them: asked as its row's "Correct"
    on `page` asks when opened (they are not on the board)."""
    row = re.search(rf'<details class="fix" hx-get="([^"]+/history/{target}/fix)"[^>]*>(.*?)</details>', page, re.S)
    assert "<button" not in row.group(2)
    body = device.get(row.group(1), headers={"HX-Request": "true"})
    assert body.status_code == 200, body.get_data(as_text=True)
    return writes(body.get_data(as_text=True), "/correct")


def fixes(device, page, target):
    """The correction buttons of one entry: (label, {"target", "event"})."""
    return [(html.unescape(b["text"]), {"target": b["vals"]["target"], "event": json.loads(b["vals"]["event"])})
            for b in fix_buttons(device, page, target)]


def test_the_host_corrects_tricks_maker_alone_and_redeal(table, app):
    host, anna, ben, token = table
    hand(anna, token, maker="Anna", tricks=3)
    hand(anna, token, maker="Ben", tricks=4, defender_alone="Cleo")
    first, second = (recorded.id for recorded, _ in played_of(app, token).entries)
    assert '<details class="fix"' not in board(ben, token)  # the host and the writer (Anna) correct, not Ben
    # nor may Ben ask for the buttons themselves; an entry that is none, none
    asked = ben.get(f"/t/{token}/history/{second}/fix", headers={"HX-Request": "true"})
    assert asked.status_code == 403 and "Only the one who wrote it" in asked.get_data(as_text=True)
    assert host.get(f"/t/{token}/history/999/fix", headers={"HX-Request": "true"}).status_code == 404
    buttons = fixes(host, board(host, token), second)
    labels = [label for label, _ in buttons]
    assert labels[:6] == ["0", "1", "2", "3", "4", "5"]
    assert "Cleo: not alone" in labels and "Anna: alone" in labels and "It was a redeal" in labels
    # Anna as the maker: Cleo, her partner, can no longer be the lone defender
    assert dict(buttons)["Anna"] == {"target": second, "event": {"maker": "Anna", "defender_alone": None}}
    assert dict(buttons)["Dora"] == {"target": second, "event": {"maker": "Dora"}}

    for button in fix_buttons(host, board(host, token), second):
        if button["text"] == "5":
            response = host.press(token, button)
            assert response.status_code == 200
    assert played_of(app, token).result["points"] == {RED: 1, BLUE: 2}
    page = board(host, token)
    assert f"corrected #{second}" in page

    assert correct(host, token, second, maker="Anna", defender_alone=None).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 3, BLUE: 0}
    assert correct(host, token, first, type="redeal", maker=None, tricks=None).status_code == 200
    assert played_of(app, token).result["points"] == {RED: 2, BLUE: 0}
    history = board(host, token) + host.get(f"/t/{token}/board/earlier").get_data(as_text=True)
    assert [b for b in fixes(host, history, first)][0] == (
        "Anna", {"target": first, "event": {"type": "hand", "maker": "Anna", "tricks": 3}})
    response = correct(host, token, first, tricks=6)
    assert response.status_code == 409
    assert correct(ben, token, first, type="hand", maker="Anna", tricks=3).status_code == 403  # not his entry


def test_the_waiting_card_keeps_its_sentences_apart(phone):
    """"…(Anna, Ben).Partners sit opposite…" and "…have joined.Open a new table": a block's
    line break was trimmed between the sentences (trim_blocks)."""
    host = phone()
    token = host.open_table("euchre", players=("Anna", "Ben"))
    card = re.search(r'<section class="card partners">.*?</section>', host.get(f"/t/{token}").get_data(as_text=True),
                     re.S).group(0)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", card))).strip()
    assert text == ("Euchre for 4 players 2 at the table (Anna, Ben). Partners sit opposite: players 1 & 3 against "
                    "2 & 4, in the order they joined. The first hand can be entered when 4 have joined."), text


def test_a_correction_that_ends_the_game_early_names_the_row_that_no_longer_fits(table, app):
    """The row a refused correction names is the one the history shows ("#45"): it said "entry
    4", its place in the game, which no row on the phone is numbered."""
    host, anna, ben, token = table
    hand(anna, token, maker="Dora", tricks=1)
    slip = played_of(app, token).entries[0][0].id
    assert host.write(f"/t/{token}/undo", {"target": str(slip)}).status_code == 200  # ids and places part
    for maker, tricks, extra in [("Anna", 5, {"alone": True}), ("Anna", 5, {"alone": True}), ("Cleo", 3, {}),
                                 ("Ben", 3, {})]:
        assert hand(anna, token, maker=maker, tricks=tricks, **extra).status_code == 200
    third, fourth = (recorded.id for recorded, _ in played_of(app, token).entries[2:])
    assert fourth != 4  # its place among the entries
    response = correct(host, token, third, alone=True, tricks=5)  # Anna & Cleo reach 12 of 10
    assert response.status_code == 409
    text = html.unescape(response.get_data(as_text=True))
    assert f"(entry #{fourth} would no longer fit)" in text, text
    assert f'id="h{fourth}"' in board(host, token) and f"#{fourth}" in board(host, token)


# --- the end -----------------------------------------------------------------------------------


@pytest.mark.parametrize("form, players, hands", [
    ("two-handed", ("Anna", "Ben"), [("Ben", 5)] * 5),
    ("three-handed", ("Anna", "Ben", "Cleo"), [("Anna", 3)] + [("Ben", 5)] * 4)])
def test_one_player_wins_the_forms_without_partners(phone, form, players, hands):
    """Two- and three-handed, each plays for themselves: the end said "Winners" above one name,
    "Rematch: the same partners", and counted lone hands, which these forms refuse (a row of 0)."""
    host = phone()
    token = host.open_table("euchre", players, form=form)
    for maker, tricks in hands:
        assert hand(host, token, maker=maker, tricks=tricks).status_code == 200
    page = board(host, token)
    assert 'class="winner">Ben</h2>' in page
    assert re.search(r'class="winner-label">Winner</p>', page)
    assert re.search(r"Rematch: (Anna|Ben|Cleo) deals first\.", page)
    assert "partners" not in page
    rows = re.findall(r'<th scope="rowgroup" colspan="\d">([a-z ]+)</th>', page)
    assert rows == ["hands made", "marches", "euchres"]


def test_first_to_ten_wins_and_the_rematch_keeps_partners_and_moves_the_deal(table, app):
    host, anna, ben, token = table
    for deal, (maker, tricks, extra) in enumerate([("Anna", 5, {"alone": True, "trump": "spades"}), ("Ben", 3, {}),
                                                  ("Cleo", 5, {"trump": "hearts"}), ("Dora", 1, {"trump": "hearts"}),
                                                  ("Anna", 4, {})]):
        assert hand(anna if deal % 2 else ben, token, maker=maker, tricks=tricks, **extra).status_code == 200
    page = board(ben, token)
    assert scores(page) == [9, 1] and picking(page)
    seen = ben.board_change(token)
    page = hand(ben, token, seen, maker="Cleo", tricks=3).get_data(as_text=True)
    assert scores(page) == [10, 1]
    assert 'class="winner">Anna &amp; Cleo</h2>' in page and not picking(page)
    assert "Rematch: the same partners; Ben deals first." in page
    rows = re.findall(r'<th scope="rowgroup" colspan="2">([a-z ]+)</th></tr>\s*<tr><td>(\d+)</td><td>(\d+)</td></tr>', page)
    assert rows == [("hands made", "4", "1"), ("marches", "2", "0"), ("euchres", "1", "0"), ("alone", "1", "0")]
    assert "♥</span> 2×</span><span class=\"said\">hearts: 2 hands</span> <small class=\"muted\">(1 made)</small>" in page
    response = hand(ben, token, maker="Cleo", tricks=3)
    assert response.status_code == 409 and "The game is over" in response.get_data(as_text=True)

    assert ben.write(f"/t/{token}/rematch").status_code == 200
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
    assert 'name="rule_start"' not in page  # carried points come from the rematch, not the form
    # the partnership is chosen: four names, and no Railroad settings under it
    assert page.count('name="player"') == 4 and 'name="rule_laps"' not in page


def test_choosing_a_form_shows_its_own_settings_and_names_and_keeps_what_was_typed(phone, app):
    """Railroad's laps and slam stood under every form, and eight name fields under a game of
    two, three or four: choosing a form asks for the form again, which writes nothing."""
    host = phone()
    host.get("/new/euchre")
    railroad = host.post("/new/euchre/form", {"player": ["Gus", "", "Ida"], "rule_form": "railroad", "rule_target": "12"})
    page = railroad.get_data(as_text=True)
    assert railroad.status_code == 200 and page.startswith("<form") and 'name="rule_laps"' in page
    assert 'name="rule_slam"' in page and re.findall(r'name="player"(?: value="([^"]*)")?', page) == ["Gus", "", "Ida", ""]
    assert 'name="rule_target" value="12"' in page and 'value="railroad" checked' in page
    two = host.post("/new/euchre/form", {"player": ["Gus"], "rule_form": "two-handed"}).get_data(as_text=True)
    assert two.count('name="player"') == 2 and 'name="rule_laps"' not in two
    # four names typed, then two-handed chosen: none is dropped, and the form says why it cannot open
    too_many = host.post("/new/euchre/form", {"player": list(PLAYERS), "rule_form": "two-handed"}).get_data(as_text=True)
    assert too_many.count('name="player"') == 4
    assert "This form of Euchre is for 2 players, not 4" in html.unescape(too_many)
    assert store.connect(app.config["DATABASE"]).execute("SELECT count(*) FROM tables").fetchone()[0] == 0
    # the form's choice asks again; a stranger's post without the page's token is refused
    assert 'hx-post="/new/euchre/form"' in page
    assert phone().client.post("/new/euchre/form", data={"rule_form": "railroad"}).status_code == 403


def test_a_two_handed_table_has_no_teams_and_ignores_the_railroad_settings(phone, app):
    host = phone()
    token = host.open_table("euchre", ("Gus", "Hal"), form="two-handed", laps="true", slam="false")
    played = played_of(app, token)
    assert played.header["rules"] == {"form": "two-handed"} and "teams" not in played.header
    assert [side.name for side in played.game.setup.sides] == ["Gus", "Hal"]
    assert host.get(f"/t/{token}").status_code == 200


def test_a_railroad_table_opened_as_the_form_stands_plays_with_its_own_deck(phone, app):
    """The host picks Railroad and taps "Open the table": the deck's 24 cards, checked in
    advance for the partnership, went in with it (the form's own line says 33 cards)."""
    host = phone()
    page = host.get("/new/euchre").get_data(as_text=True)
    checked = dict(re.findall(r'<input type="radio" name="rule_(\w+)" value="([^"]*)" checked>', page))
    assert checked["deck"] == "" and "As the form has it: 24 cards, 33 in Railroad" in page
    response = host.post("/new/euchre", {"player": list(PLAYERS), **{f"rule_{key}": value for key, value in checked.items()},
                                         "rule_form": "railroad"}, fetch=False)
    played = played_of(app, response.headers["Location"].rsplit("/", 1)[-1])
    assert played.game.rules["deck"] == "33" and "deck" not in played.header["rules"]
    response = host.post("/new/euchre", {"player": list(PLAYERS), "rule_form": "partnership", "rule_deck": "32"}, fetch=False)
    assert played_of(app, response.headers["Location"].rsplit("/", 1)[-1]).game.rules["deck"] == "32"


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


def test_an_imported_railroad_game_s_rematch_keeps_its_team_names_and_carry(phone, app):
    """A log names its teams ("North", "East"); its winner carries a point into the rematch.
    The rematch seated the partners under the names the app gives them ("Gus & Ida") while the
    carry still named North: a game that could not start, its board saying to open a new
    table with fewer names (four were at the table)."""
    host = phone()
    response = host.post("/import", {"log": (io.BytesIO((LOGS / "railroad-carried-in.json").read_bytes()), "log.json")},
                         fetch=False, content_type="multipart/form-data")
    token = response.headers["Location"].split("/")[2]
    assert host.write(f"/t/{token}/rematch").status_code == 200
    played = played_of(app, token)
    assert played.game is not None
    assert [side.name for side in played.game.setup.sides] == ["North", "East"]
    assert played.state.score() == {"North": 1, "East": 0}
    assert "fewer names" not in host.get(f"/t/{token}").get_data(as_text=True)
    hand(host, token, maker="Hal", tricks=3)
    assert played_of(app, token).state.score() == {"North": 1, "East": 1}


@pytest.mark.parametrize("form, players, word", [
    ("partnership", PLAYERS, "dein Team"), ("two-handed", ("Anna", "Ben"), "du"), ("three-handed", PLAYERS[:3], "du")])
def test_a_phone_s_own_score_is_marked_as_its_team_or_as_itself(phone, form, players, word):
    """A German two-handed game marked the phone's own score "dein Team" (your team)."""
    host = phone()
    host.post("/language", {"lang": "de", "next": "/"}, fetch=False)
    token = host.open_table("euchre", players, form=form)
    host.join(token, "Anna")
    assert re.findall(r'<small class="you">(.*?)</small>', host.get(f"/t/{token}").get_data(as_text=True)) == [word]


def test_a_screen_reader_hears_which_question_a_hand_s_box_answers(phone):
    """Tabbing through a hand, a screen reader said "Ben, checkbox", "clubs, checkbox", "3 made
    +1, radio button": the question each answers (who went alone, trump, tricks) stood in a
    paragraph above, read by nobody on the way. Each row is a group named by its question."""
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    tray = host.tray(token, maker="Anna")
    for role, question, field in (("group", "Went alone", "defender"), ("group", "Trump", "trump"),
                                  ("radiogroup", "Tricks the makers took", "tricks")):
        found = re.search(rf'<p class="label" id="([\w-]+)">{question}\b.*?<div [^>]*role="{role}" aria-labelledby="\1">'
                          rf'(?:(?!</div>).)*name="{field}"', tray, re.S)
        assert found, question


def test_a_first_dealer_who_never_sits_down_gives_way_to_the_first_seat(app, phone):
    """A table opened with two names and "Zed" to deal first, filled by Cleo and Dora, had its
    four players and no game, for good: every entry was refused as "the host still has to seat
    enough players". Once the seats are full without Zed, the first seat deals, as if the field
    had been left empty; Zed sitting down in time keeps Zed the first dealer."""
    for last, dealer in (("Dora", "Anna"), ("Zed", "Zed")):
        host = phone()
        token = host.open_table(game="euchre", players=("Anna", "Ben"), first_dealer="Zed")
        anna = phone()
        anna.join(token, "Anna")
        phone().join(token, "Ben")
        for name in ("Cleo", last):
            assert phone().post(f"/t/{token}/join", {"name": name, "change": phone().board_change(token)},
                                fetch=False).status_code == 303
        played = played_of(app, token)
        assert played.game is not None and played.state.first_dealer == dealer
        response = anna.enter(token, {"type": "hand", "maker": "Ben", "tricks": 3})
        assert response.status_code == 200, response.get_data(as_text=True)


def test_a_keyboard_keeps_its_place_in_a_hand_being_chosen(phone):
    """A keyboard or a screen reader choosing a hand lost its place at every answer: each tick
    (who went alone, trump, the makers' tricks) asks for the tray again, and the box it stood on
    went with the tray it was in, its focus back on the tray's top ("Enter a hand"), so the
    next count of tricks by arrow key was never reached. Each box has an id of its own that the
    new tray keeps (htmx gives a focus back by id). And the makers were radio buttons: an arrow
    key on Anna's chose Ben at once (the picker went on to Ben's hand), and Cleo and Dora could
    only be reached by tabbing backwards; each maker is a button of its own to Tab to now, and
    the hand's next step is named by who named trump."""
    host = phone()
    token = host.open_table("euchre", PLAYERS)
    page = board(host, token)
    makers = re.findall(r'<button class="button maker team-(\d)" name="maker" value="(\w+)">', page)
    assert makers == [("0", "Anna"), ("1", "Ben"), ("0", "Cleo"), ("1", "Dora")]
    assert 'type="radio" name="maker"' not in page
    for fields in ({"maker": "Anna"}, {"maker": "Anna", "tricks": "3", "trump": "hearts", "defender": "Ben"}):
        tray = host.tray(token, fields)
        boxes = re.findall(r'<input\b[^>]*type="(?:checkbox|radio)"[^>]*>', tray)
        assert len(boxes) == 3 + 4 + 6, boxes  # alone (Anna, Ben, Dora), trump, tricks
        ids = [re.search(r'\bid="([\w-]+)"', box) for box in boxes]
        assert all(ids), [box for box, found in zip(boxes, ids) if not found]
        assert len({found[1] for found in ids}) == len(boxes)
        # the tray is named by who named trump: the focus landing on it after the maker's tap says so
        assert re.search(r'<form id="tray"[^>]*aria-labelledby="euchre-chosen"', tray)
        assert re.search(r'id="euchre-chosen"[^>]*>Anna named trump<', tray)
    # the same box keeps its id from one answer to the next
    first = host.tray(token, maker="Anna")
    second = host.tray(token, maker="Anna", tricks="2")
    assert re.search(r'value="2" id="([\w-]+)"', first)[1] == re.search(r'value="2" id="([\w-]+)" checked', second)[1]


def test_a_screen_reader_hears_a_hand_s_trump_in_words(table):
    """A hand was told to the other phones as "Anna: Cleo ♣ · 3 tricks · Ben alone → Anna &
    Cleo +1", and a screen reader read out "black club suit" and "right arrow" (in English on a
    German phone: the signs are the speech engine's). It says the suit's name, in the phone's
    language, and no arrow; the history row keeps its signs for the eye."""
    host, anna, ben, token = table
    ben.speaking("de")
    before = ben.board_change(token)
    assert hand(anna, token, maker="Cleo", tricks=3, trump="clubs").status_code == 200
    told = ben.get(f"/t/{token}/board?since={before}", headers={"HX-Request": "true"}).get_data(as_text=True)
    said = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S).group(1)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", said)).split()).replace(" ,", ",")
    assert "♣" not in words and "→" not in words
    assert words.startswith("Anna: Cleo, Kreuz · 3 Stiche"), words
    row = re.search(r'<li id="h\d+".*?</li>', board(host, token), re.S)[0]
    assert "♣" in row and 'gain">' in row  # (its arrow drawn: euchre.css)


def test_a_screen_reader_hears_who_deals_the_next_hand(table):
    """After a hand, a screen reader heard the hand and nothing of what came next (Escalero's
    and Yatzy's say whose turn it is), and the focus, back on the tray after the phone's own
    Confirm, said "Enter a hand" at every hand. What #said tells ends with the deal line, in the
    phone's words, and the tray is named by it: "Hand 2 Ben deals · Cleo leads"."""
    host, anna, ben, token = table
    before = ben.board_change(token)
    assert hand(anna, token, maker="Cleo", tricks=3).status_code == 200
    told = ben.get(f"/t/{token}/board?since={before}", headers={"HX-Request": "true"}).get_data(as_text=True)
    said = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S).group(1)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", said)).split())
    assert words.endswith("Hand 2 You deal · Cleo leads"), words
    page = board(anna, token)
    assert re.search(r'<p class="deal-line" id="deal"[^>]*><span class="hand-no">Hand 2</span>\s*Ben deals · Cleo leads</p>', page)
    assert re.search(r'<form id="tray"[^>]*aria-labelledby="deal"', page)


def test_a_screen_reader_hears_that_a_rematch_began(table):
    """After the settlement's Rematch every other phone's board went to the new game's top, and
    its screen reader's line still said who had won the last one: nothing told it a new game had
    begun. It says so, with who deals: "Rematch · Hand 1 You deal · Cleo leads"; the phone that
    tapped Rematch is told nothing (its focus goes to the new game's tray, which says it)."""
    host, anna, ben, token = table
    for _ in range(5):
        assert hand(anna, token, maker="Cleo", tricks=5).status_code == 200
    before = ben.board_change(token)
    answer = anna.write(f"/t/{token}/rematch", {"idem": "again"})
    assert answer.status_code == 200 and 'id="said"' not in answer.get_data(as_text=True)
    told = ben.get(f"/t/{token}/board?since={before}", headers={"HX-Request": "true"}).get_data(as_text=True)
    said = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S)
    assert said, "nothing said"
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", " ", said.group(1))).split()) == "Rematch · Hand 1 You deal · Cleo leads"


def heard_text(html_part: str) -> str:
    """The words of some markup as a screen reader gets them: its text, the out-of-sight words
    (.said) with it; the signs drawn by CSS are not in it."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", html_part)).split())


def test_a_screen_reader_hears_a_score_in_words_not_a_colon(table, phone):
    """"1 : 0" (the preview of a hand, a history row's running score, the settlement's) was read
    "1 colon 0", and a history row's "→ Anna & Cleo +1" "right arrow". It hears "1 to 0" ("1 zu
    0"): the word out of sight, the colon and the arrow drawn (euchre.css). The settlement's
    trumps ("♥ 3×") are heard "Herz: 3 Runden"."""
    host, anna, ben, token = table
    ben.speaking("de")
    preview = re.search(r'<span class="pv pv-score">.*?</span>', anna.tray(token, maker="Anna", tricks="3"), re.S)[0]
    assert heard_text(preview) == "1 to 0", preview
    assert hand(anna, token, maker="Anna", tricks=3).status_code == 200
    row = re.search(r'<li id="h\d+".*?</li>', board(ben, token), re.S)[0]
    words = heard_text(row)
    assert "Anna & Cleo +1 1 zu 0" in words and "→" not in words, words
    assert heard_text(re.search(r'<small class="running">.*?</small>', row)[0]) == "1 zu 0"
    for _ in range(3):  # 1 + 4 + 4 + 4: past ten
        assert hand(anna, token, maker="Anna", tricks=5, alone=True, trump="hearts").status_code == 200
    final = re.search(r'<p class="final">.*?<span', board(ben, token), re.S)[0]
    assert re.match(r"\d+ zu 0", heard_text(final)) and ":" not in heard_text(final), final
    # the trumps of the game: "♥ 3×" was read "black heart suit 3 multiplication sign"
    trumps = re.search(r'<p class="trumps">.*?</p>', board(ben, token), re.S)[0]
    hidden = "".join(re.findall(r'<span aria-hidden="true">.*?×</span>', trumps))
    assert "♥ 3×" in heard_text(hidden), trumps
    assert "Herz: 3 Runden" in heard_text(trumps.replace(hidden, "")), trumps


def test_what_the_tapped_tricks_make_is_heard_where_the_focus_comes_back(table):
    """What a hand makes (the preview: "Anna · 3 tricks · made 1 : 0 · Ben deals next") was an
    aria-live region that came new with each tray: a live region is heard when its words change,
    never when it comes with them, so a screen reader heard nothing of it. It describes what the
    focus comes back to after the tap (aria-describedby): the trick count tapped (htmx gives the
    focus back by its id), or the tray after "All passed — redeal"; no live region of its own."""
    host, anna, ben, token = table
    tray = anna.tray(token, maker="Anna", tricks="3")
    preview = re.search(r'<p class="preview" id="([\w-]+)"[^>]*>', tray)
    assert preview and "aria-live" not in preview[0], tray
    checked = re.search(r'<input type="radio" name="tricks" value="3" id="euchre-tricks-3" checked([^>]*)>', tray)[1]
    assert f'aria-describedby="{preview[1]}"' in checked
    assert tray.count("aria-describedby") == 2  # the tray, and the one count chosen
    assert f'aria-describedby="{preview[1]}"' in re.search(r'<form id="tray"[^>]*>', tray)[0]
    redeal = anna.tray(token, redeal="1")
    named = re.search(r'<p class="preview" id="([\w-]+)"', redeal)[1]
    assert f'aria-describedby="{named}"' in re.search(r'<form id="tray"[^>]*>', redeal)[0]
    assert "aria-describedby" not in anna.tray(token, maker="Anna")  # nothing made yet: nothing to hear


def test_an_imported_game_a_pair_won_names_them_as_winners_to_the_host(phone, app):
    """An imported Euchre game, named as played at a table here: its host's history read "Red
    wins" (a team given one player's verb: "Oliver & Lucía wins"); a team's win reads as the
    settlement's does, "Winners: Red", in every language."""
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben", "Cleo", "Dora"))
    anna = phone()
    anna.join(token, "Anna")
    assert anna.enter(token, {"type": "score", "column": 1, "row": "F", "value": 35}).status_code == 200
    db = store.connect(app.config["DATABASE"])
    code = service.by_join_token(db, token)["code"]
    log = (LOGS / "full-game.json").read_text()
    assert anna.post("/import", {"text": log, "played_at": code}, fetch=False).status_code == 303
    for lang, said in (("en", "Winners: Red"), ("de", "Gewinner: Red")):
        page = html.unescape(host.speaking(lang).get(f"/t/{token}/history").get_data(as_text=True))
        shown = re.sub(r"\s+", " ", page[page.index('id="claims"'):])
        assert said in shown and "Red wins" not in shown and "Red gewinnt" not in shown, lang


def test_a_hand_s_answer_stays_within_a_kilobyte_mid_game(phone):
    """Issue 26: a hand entered gets its parts back within 1 KB of gzip, the answer that first
    leaves a history row out too (it sent the "Earlier entries" fold, 1.08 KB, and every maker
    button carried a copy of its name for the tests). bench/answers.py measures every game."""
    import gzip

    from tests.games.euchre import BOARD_LOG

    doc = json.loads((LOGS / f"{BOARD_LOG}.json").read_text())
    host = phone()
    token = host.open_table(doc["game"], players=doc["players"], **doc["rules"])
    phone().join(token, doc["players"][0])
    sizes = []
    for event in doc["events"]:
        response = host.enter(token, {key: value for key, value in event.items() if key not in ("at", "by")})
        assert response.status_code == 200, response.get_data(as_text=True)
        sizes.append(len(gzip.compress(response.get_data())))
    assert len(sizes) > 4 and max(sizes[1:-1]) <= 1024, sizes  # the first and the last: the board whole
