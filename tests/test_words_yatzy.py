"""Yatzy's words as a phone in each language reads them (the words helper's tests), rendered
through Flask's client, the language chosen on the switcher."""

import html
import io
import re
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs" / "yatzy"


def speaking(phone, lang):
    device = phone()
    device.post("/language", {"lang": lang}, fetch=False)
    return device


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
