"""Yatzy's words as a phone in each language reads them, rendered
through Flask's client, the language chosen on the switcher."""

import html
import io
import re
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs" / "yatzy"


def speaking(phone, lang):
    return phone().speaking(lang)


def text(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


@pytest.mark.parametrize("lang, anna, ben, cleo", [
    ("en", "157 net points", "-194 net points", "37 net points"),
    ("de", "157 Nettopunkte", "-194 Nettopunkte", "37 Nettopunkte"),
    ("pl", "157 punktów netto", "-194 punkty netto", "37 punktów netto"),
    ("es", "157 puntos netos", "-194 puntos netos", "37 puntos netos"),
])
def test_a_player_s_page_says_the_points_of_a_game_are_net_not_the_card(phone, lang, anna, ben, cleo):
    """A Scandinavian game (cards of 279, 162 and 239): each line of a player's games showed
    the net points the settlement counts ("157 points") beside the card's average (279), as
    if they were the card's total; the line says they are net points, in the language's plural."""
    device = speaking(phone, lang)
    path = LOGS / "scandinavian-three-players-stake.json"
    response = device.post("/import", {"log": (io.BytesIO(path.read_bytes()), path.name)}, fetch=False,
                           content_type="multipart/form-data")
    assert response.status_code in (200, 303)
    for name, shown in (("Anna", anna), ("Ben", ben), ("Cleo", cleo)):
        page = device.get(f"/players/{name}").get_data(as_text=True)
        assert 'data-figure="average_score"' in page
        lines = [text(span) for span in re.findall(r'<span class="points">(.*?)</span>', page, re.S)]
        assert lines == [shown], (name, lines)


@pytest.fixture
def polish(phone):
    return speaking(phone, "pl")


def test_the_polish_rules_write_what_the_dice_are_worth(polish):
    """The Polish rules page told a player to write "ile kości są w nim warte" ("how many dice
    are worth in it"); what the dice are worth in the box reads "ile są w nim warte kości"."""
    page = html.unescape(polish.get("/rules/yatzy").get_data(as_text=True))
    text = re.sub(r"\s+", " ", page)
    assert "wybierz puste pole swojej karty i wpisz, ile są w nim warte kości." in text
    assert "ile kości są" not in text


def a_game_won_by_one(device):
    """Anna and Ben's Scandinavian game, every box scratched but Anna's Ones (1): 1 to 0."""
    from scorekeeper.games.yatzy import Box

    token = device.open_table("yatzy", ("Anna", "Ben"), stake="0.50")
    for box in Box:
        for player in ("Anna", "Ben"):
            value = 1 if (player, box) == ("Anna", Box.ONES) else 0
            response = device.enter(token, {"type": "score", "player": player, "box": box.value, "value": value})
            assert response.status_code == 200, response.get_data(as_text=True)
    return token


@pytest.mark.parametrize("lang, won, lost", [
    ("en", "+1 net", "-1 net"), ("de", "netto +1", "netto -1"), ("pl", "netto +1", "netto -1"),
    ("es", "+1 neto", "-1 neto"),
])
def test_the_settlement_counts_one_net_point_in_the_singular(phone, lang, won, lost):
    """Won by a single point: the Spanish settlement read "+1 netos", "-1 netos"."""
    device = speaking(phone, lang)
    token = a_game_won_by_one(device)
    board = device.get(f"/t/{token}/board").get_data(as_text=True)
    columns = [text(span) for span in re.findall(r'<span class="settle-columns"><span>(.*?)</span>', board, re.S)]
    assert columns == [won, lost]


def test_the_round_beside_an_undo_wraps_whole_on_a_page_zoomed_to_200_percent():
    """At 200 % (a 360 px phone is 180 CSS px wide) the turn line beside the Undo (the host's,
    or a phone's own entry just written) is narrower than the round, which kept to one line:
    it read "· round 1 of", "· Runde 1 vo". There it wraps, every word on the screen."""
    sheet = (Path(__file__).parents[1] / "scorekeeper/web/games/yatzy/static/yatzy.css").read_text()
    rule = r"#tray \.tray-status:has\(> \.tray-undo\) \.turn \.muted \{([^}]*)\}"
    one_line = re.search(rule, sheet)
    assert "white-space: nowrap" in one_line.group(1)
    narrow = re.search(r"@media \(max-width: 219px\) \{\s*" + rule, sheet[one_line.end():])
    assert narrow and "white-space: normal" in narrow.group(1)
