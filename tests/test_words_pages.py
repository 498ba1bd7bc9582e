"""The words of the pages around a game and of Jaques le Kaques, as a phone in each language
reads them, rendered through Flask's client, the language chosen on the switcher."""

import html
import re

import pytest


def text(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


@pytest.mark.parametrize("lang, said, not_said", [
    ("en", "First to 50 after 1 turn.", None),
    ("de", "Zuerst auf 50, nach 1 Zug.", "Als Erster"),
    ("pl", "50 osiągnięte po 1 turze.", None),
    ("es", "Llega a 50 antes que nadie, tras 1 turno.", "Primero en llegar"),
])
def test_the_winner_of_a_race_is_first_in_words_that_fit_a_woman_too(phone, lang, said, not_said):
    """Jaques le Kaques won by Anna: the end said "Als Erster auf 50" and "Primero en llegar a
    50", a man's words for her; it says who got there first in words for anyone."""
    host = phone().speaking(lang)
    token = host.open_table("kaques", players=("Anna", "Ben"), target=50)
    assert host.enter(token, {"type": "turn", "player": "Anna", "points": 50}).status_code == 200
    board = text(host.get(f"/t/{token}").get_data(as_text=True))
    assert said in board
    if not_said:
        assert not_said not in board


@pytest.mark.parametrize("lang, quoted, example", [
    ("en", "“abc”", "0.50"),
    ("de", "„abc“", "0,50"),
    ("pl", "„abc”", "0,50"),
    ("es", "«abc»", "0,50"),
])
def test_a_stake_refused_on_the_new_table_form_shows_an_amount_as_the_language_writes_it(phone, lang, quoted,
                                                                                       example):
    """A stake the form cannot read ("abc") was refused with an example in English figures,
    "wie \\"0.50\\"", "np. \\"0.50\\"", "como \\"0.50\\"", where the form takes "0,50" as its
    host writes it; the example is written as the language writes it, and what was typed is
    quoted in the language's own quotes (it was 'abc', a programmer's quotes, in every one)."""
    host = phone().speaking(lang)
    response = host.post("/new/yatzy", {"player": ["Anna", "Ben"], "rule_stake": "abc"}, fetch=False)
    assert response.status_code == 400
    said = text(response.get_data(as_text=True))
    assert quoted in said and example in said and "'abc'" not in said
    if lang != "en":
        assert "0.50" not in said
        assert host.open_table("yatzy", players=("Anna", "Ben"), stake="0,50")  # the example is taken as shown


def test_german_never_says_your_money_for_a_game_s_money(phone):
    """The German history page said of an imported game "Ihr Geld zählt nicht in der
    Statistik" and its button read "Ihr Geld bestätigen": capitalised after the colon, "Ihr"
    reads as the formal "your money", on pages that say "du" everywhere. It is the game's money
    now, "Das Geld der Partie", and no German message that speaks of a game's money or of the
    game after a colon says "Ihr" or "Sie"."""
    import io
    from pathlib import Path

    from babel.messages.pofile import read_po

    device = phone().speaking("de")
    log = Path(__file__).parent / "logs" / "escalero" / "seed-two-players.json"
    response = device.post("/import", {"log": (io.BytesIO(log.read_bytes()), log.name)}, fetch=False,
                           content_type="multipart/form-data")
    assert response.status_code == 303
    history = text(device.get(response.headers["Location"]).get_data(as_text=True))  # the table's history
    assert "Eine importierte Partie: Das Geld der Partie zählt nicht in der Statistik." in history
    assert "Ihr Geld" not in history
    with open(Path(__file__).parents[1] / "scorekeeper/translations/de/LC_MESSAGES/messages.po", "rb") as po:
        catalog = read_po(po)
    for message in catalog:
        if message.id and "its money" in str(message.id) or str(message.id).endswith(
                ("it cannot name the table again.", "it cannot be confirmed.")):
            assert not re.search(r"\b(Ihr|Sie)\b", message.string), (message.id, message.string)


def test_german_rules_say_the_makers_are_euchred_not_you(phone):
    """Euchre's rules in German read "Macher machen 2 oder weniger: Sie sind „euchred“":
    capitalised after the colon, "Sie" reads as the formal "you are euchred". They read
    "Machen die Macher 2 oder weniger, sind sie „euchred“" now."""
    page = text(phone().speaking("de").get("/rules/euchre").get_data(as_text=True))
    # (the English word named once, as the German phones say it since: "gescheitert")
    assert ("Machen die Macher 2 oder weniger, sind sie gescheitert (auf Englisch „euchred“), und die "
            "Verteidiger bekommen 2 Punkte.") in page
    assert "Sie sind" not in page
