"""An evening of Escalero at the pub, read on the phones through Flask's client: what the end
of a game and the pad say of each side's money (found by the evening-at-the-pub helper)."""

import html
import json
import re

import pytest

from tests.games.escalero import one_column_game

NAMES = ("Jürgen", "Lena", "Gosia", "Íñigo")


def finished_game(phone, lang):
    """A one-column game of four at €0.10 a point to its end: Íñigo scores, the others do not."""
    host = phone().speaking(lang)
    token = host.open_table("escalero", NAMES, columns=1, stake="0.10")
    rows = ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G")
    for row in rows:
        for name in NAMES:
            value = (int(row) * 3 if row in "123456" else {"S": 20, "F": 30, "P": 40, "G": 50}[row]) \
                if name == "Íñigo" else 0
            assert host.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                      "value": value}).status_code == 200
    return host, html.unescape(host.get(f"/t/{token}").get_data(as_text=True))


@pytest.mark.parametrize("lang", ["en", "de", "pl", "es"])
def test_a_winner_s_money_carries_its_plus_as_the_evening_and_the_losses_do(phone, lang):
    """The settlement and the pad's points row wrote a loser's money '-€ 0,70' and a winner's
    '€ 1,30', no sign, where the evening so far, the statistics, an imported game and Yatzy's
    settlement say '+€ 1,30': the winner's money reads '+€ 1,30' on every page now."""
    _, page = finished_game(phone, lang)
    pad, settle = page.split('id="settle"')[:2]
    money = re.findall(r'class="settle-money[^"]*">([^<]+)</b>', settle)
    assert len(money) == 4 and [amount[0] for amount in money] == ["-", "-", "-", "+"], money
    points_row = re.findall(r"<small>([^<]*€[^<]*)</small>", pad)[-4:]
    assert [amount[0] for amount in points_row] == ["-", "-", "-", "+"], points_row


@pytest.mark.parametrize("lang, won, lost", [
    ("en", "+1 pt", "-1 pt"), ("de", "+1 Pkt.", "-1 Pkt."), ("pl", "+1 pkt", "-1 pkt"), ("es", "+1 pto", "-1 pto")])
def test_one_point_is_not_written_as_points(phone, lang, won, lost):
    """A side a point up read '+1 pts' at the end, in English and Spanish: one point reads
    '+1 pt' ('+1 pto'), more '+13 pts'."""
    host = phone().speaking(lang)
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1, stake="0.10")
    for event in one_column_game(1):
        assert host.enter(token, event).status_code == 200
    settle = html.unescape(host.get(f"/t/{token}").get_data(as_text=True)).split('id="settle"')[1]
    assert re.findall(r'class="settle-points">([^<]+)</b>', settle) == [won, lost]


def test_the_players_page_lists_a_name_with_an_accent_among_its_letter(phone):
    """The statistics listed the four of an evening 'Gosia, Jürgen, Lena, Íñigo': a name that
    starts with an accented letter stood after Z. It stands among its letter now."""
    host, _ = finished_game(phone, "es")
    page = html.unescape(host.get("/players").get_data(as_text=True))
    listed = re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a>', page)
    assert listed == ["Gosia", "Íñigo", "Jürgen", "Lena"], listed


def test_two_sides_level_on_top_share_the_win(phone):
    """Lena and Gosia scored alike, Jürgen and Íñigo nothing: the settlement's heading read "A
    tie", which the two behind could read as theirs (found by the Yatzy helper, whose game said
    the same). It names the two who share the win; a game all four end level is still a tie."""
    host = phone()

    def heading(ones):
        token = host.open_table("escalero", NAMES, columns=1)
        rows = ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G")
        for event in ({"type": "score", "player": name, "column": 1, "row": row,
                       "value": ones.get(name, 0) if row == "1" else 0} for row in rows for name in NAMES):
            assert host.enter(token, event).status_code == 200
        page = html.unescape(re.sub(r"\s+", " ", host.get(f"/t/{token}").get_data(as_text=True)))
        found = re.search(r'class="[^"]*settle[^"]*".*?<h2>(.*?)</h2>', page).group(1)
        assert f"<h2>{found}</h2>" in html.unescape(host.get(f"/t/{token}/history").get_data(as_text=True))
        return found

    assert heading({"Lena": 3, "Gosia": 3}) == "Lena and Gosia share the win"
    assert heading({}) == "A tie"


@pytest.mark.parametrize("lang, winners, throwing", [
    ("en", "Winners: Lena & Gosia", "Lena & Gosia are throwing."),
    ("de", "Gewinner: Lena & Gosia", "Lena & Gosia würfeln."),
    ("pl", "Zwycięzcy: Lena & Gosia", "Rzucają Lena & Gosia."),
    ("es", "Ganadores: Lena & Gosia", "Tiran Lena & Gosia.")])
def test_a_team_that_wins_is_named_as_winners(phone, lang, winners, throwing):
    """Two teams of two: the settlement's heading read "Lena & Gosia wins" ("gewinnt", "Wygrywa",
    "Gana"), one player's verb for a team of two; it reads "Winners: Lena & Gosia" now. A player
    alone still "wins" (test_one_point_is_not_written_as_points' game, the others above). The
    other team's trays said "Lena & Gosia is throwing" ("würfelt") the same way: they throw in
    the plural now (found by the Escalero-teams helper)."""
    host = phone().speaking(lang)
    token = host.open_table("escalero", NAMES, columns=1)
    teams = [{"name": "Lena & Gosia", "players": ["Lena", "Gosia"]},
             {"name": "Jürgen & Íñigo", "players": ["Jürgen", "Íñigo"]}]
    assert host.write(f"/t/{token}/teams", {"action": "set", "teams": json.dumps(teams)}).status_code == 200
    jurgen = phone().speaking(lang)
    jurgen.join(token, "Jürgen")
    tray = html.unescape(re.sub(r"\s+", " ", jurgen.get(f"/t/{token}/board").get_data(as_text=True)))
    assert throwing in re.search(r'class="tray-wait[^"]*">(.*?)</p>', tray).group(1), tray
    for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"):
        for name in ("Lena", "Jürgen"):
            value = 3 if (row, name) == ("1", "Lena") else 0
            assert host.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                      "value": value}).status_code == 200
    page = html.unescape(re.sub(r"\s+", " ", host.get(f"/t/{token}").get_data(as_text=True)))
    assert re.search(r'class="[^"]*settle[^"]*".*?<h2>(.*?)</h2>', page).group(1) == winners


def test_the_next_game_of_the_evening_opens_with_the_same_names(phone):
    """After a game the friends start another game at a new table: the settlement offered a
    Rematch of the same game only, and the host typed the four names again on the new-table
    form. The settlement links every game's new-table form with the names filled in, in seat
    order, in the phone's language."""
    from urllib.parse import urlencode

    from scorekeeper.games import ENGINES
    _, page = finished_game(phone, "pl")
    settle = page.split('id="settle"')[1]
    assert "Inna gra z tymi samymi graczami:" in settle
    token = re.search(r'/t/([^/"]+)/', page).group(1)  # the host's: the table's phones follow (next table)
    played = "escalero"
    for game in ENGINES:
        query = urlencode([("player", name) for name in NAMES] + [("after", token)])
        # and, for the same game, its rules (the next table helper's tests/test_web_kaques_next_table.py)
        carried = "&rule_columns=1&rule_stake=0.10" if game == played else ""
        assert f'href="/new/{game}?{query}{carried}"' in settle, game
    form = phone().speaking("pl").get("/new/yatzy?" + urlencode([("player", name) for name in NAMES]))
    names = re.findall(r'name="player" value="([^"]*)"', html.unescape(form.get_data(as_text=True)))
    assert names[:4] == list(NAMES) and not any(names[4:])
