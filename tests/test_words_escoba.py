"""Escoba's words as a phone in each language reads them: a team is
"they", never one player's verb; rendered through Flask's client, the language chosen on the
switcher."""

import html
import re

import pytest

from scorekeeper import service, store
from scorekeeper.games import escoba


def speaking(phone, lang):
    return phone().speaking(lang)


def problems(page):
    box = re.search(r'<ul class="problems"[^>]*>(.*?)</ul>', page, re.S)
    return [html.unescape(p) for p in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)] if box else []


def rest_of_the_deck(page):
    legend = re.search(r'<fieldset class="pile last">\s*<legend>(.*?)</legend>', page, re.S).group(1)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", legend))).strip()


def teams_table(phone, app, lang):
    """Four at an Escoba table, the pairs drawn; the host's phone in `lang`: (host, token, pairs)."""
    host = speaking(phone, lang)
    token = host.open_table("escoba", ("Anna", "Ben", "Cleo", "Dora"))
    assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200
    db = store.connect(app.config["DATABASE"])
    played = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))
    return host, token, [side.name for side in played.state.setup.sides]


VERBS = {  # what a pair does in the round form, and its refusals, in each language
    "en": ("{b} have the rest of the deck", "{a} have 4 coins and 2 sevens, 5 different cards (the seven of coins is "
           "both), but only 3 cards — 2 short", "{a} have 2 escobas, at least 4 cards, but only 3 cards — 1 short"),
    "de": ("{b} haben den Rest vom Deck", "{a} haben 4 Münzen und 2 Siebenen, also 5 verschiedene Karten (die "
           "Münz-Sieben ist beides), aber nur 3 Karten — 2 zu wenig",
           "{a} haben 2 Escobas, also mindestens 4 Karten, aber nur 3 Karten — 1 zu wenig"),
    "es": ("{b} se quedan con el resto de la baraja", "{a} tienen 4 oros y 2 sietes, 5 cartas distintas (el siete "
           "de oros cuenta para las dos cosas), pero solo 3 cartas: 2 de menos",
           "{a} tienen 2 escobas, o sea al menos 4 cartas, pero solo 3 cartas: 1 de menos"),
    "pl": ("{b} mają resztę talii", "{a}: 4 monety i 2 siódemki (złota siódemka liczy się do obu), czyli różnych "
           "kart 5, ale w stosie tylko 3 karty — brakuje 2",
           "{a}: 2 escoby, czyli kart co najmniej 4, ale w stosie tylko 3 karty — brakuje 1"),
}


@pytest.mark.parametrize("lang", list(VERBS))
def test_a_pair_in_the_round_form_takes_the_verb_of_two(phone, app, lang):
    """Four in two pairs: the round form read "Dora & Ben has the rest of the deck" ("hat den
    Rest", "se queda con el resto") and refused "Anna & Cleo has 4 coins…" ("hat", "tiene"),
    one player's verb for two; a pair has, hat, tiene no more."""
    host, token, (first, last) = teams_table(phone, app, lang)
    rest, coins, escobas = (text.format(a=first, b=last) for text in VERBS[lang])
    response = host.client.get(f"/t/{token}/tray", query_string={"round": "1", "c0": "3", "o0": "4", "s0": "2",
                                                                 "e0": "2", "seven": "0"},
                               headers={"HX-Request": "true"})
    page = response.get_data(as_text=True)
    assert rest_of_the_deck(page) == rest
    assert problems(page) == [coins, escobas]


def test_the_engine_refuses_a_pair_s_counts_with_the_verb_of_two():
    """The same refusals from the engine (a log imported, a round sent as JSON)."""
    counts = {"Anna & Cleo": escoba.Counts(3, 4, 2, True, 2), "Ben & Dora": escoba.Counts(37, 6, 2, False)}
    assert [str(p) for p in escoba.deck_problems(counts, teams={"Anna & Cleo", "Ben & Dora"})] == [
        "Anna & Cleo have 4 coins and 2 sevens, 5 different cards (the seven of coins is both), but only 3 cards "
        "— 2 short", "Anna & Cleo have 2 escobas, at least 4 cards, but only 3 cards — 1 short"]
    assert [str(p) for p in escoba.deck_problems({"Anna": escoba.Counts(3, 4, 2, True, 2),
                                                  "Ben": escoba.Counts(37, 6, 2, False)})][0].startswith("Anna has")


@pytest.mark.parametrize("lang, seats, four, six", [
    ("en", "Seats", "the host draws them by lot in the seat list", "the host draws either by lot in the seat list"),
    ("de", "Plätze", "in der Platzliste aus", "in der Platzliste"),
    ("es", "Asientos", "el anfitrión las sortea en la lista de asientos",
     "el anfitrión sortea lo uno o lo otro en la lista de asientos"),
    ("pl", "Miejsca", "na liście miejsc", "na liście miejsc"),
])
def test_the_waiting_card_names_the_seat_list_as_its_heading_does(phone, lang, seats, four, six):
    """Four or six waiting for their teams are sent to the seat list to draw them: the Spanish
    card said "la lista de sitios" of a list headed "Asientos"."""
    for players, sentence in ((("Anna", "Ben", "Cleo", "Dora"), four),
                              (("Anna", "Ben", "Cleo", "Dora", "Eve", "Finn"), six)):
        host = speaking(phone, lang)
        token = host.open_table("escoba", players)
        page = html.unescape(host.get(f"/t/{token}").get_data(as_text=True))
        assert f"<summary>{seats}</summary>" in page
        waiting = re.search(r'<section class="card waiting">(.*?)</section>', page, re.S).group(1)
        assert sentence in waiting, waiting


@pytest.mark.parametrize("lang, names", [
    ("es", ["Oros", "Copas", "Espadas", "Bastos"]),
    ("en", ["Oros coins", "Copas cups", "Espadas swords", "Bastos clubs"]),
])
def test_the_finder_explains_the_spanish_suits_only_to_those_who_need_it(phone, lang, names):
    """The capture finder names each suit in Spanish, with what it is in the phone's language
    beside it: a Spanish phone read "Oros monedas", "Copas cálices", "Bastos garrotes", its own
    suits explained to it in other words; a suit's name is all it needs."""
    page = speaking(phone, lang).get("/escoba/finder").get_data(as_text=True)
    shown = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", name)).strip()
             for name in re.findall(r'<span class="suit-name">(.*?)</span>', page, re.S)]
    assert shown == names


PAIR_WINS = {  # a pair's win: the round form's outcome (a shut-out, points), the settlement's heading
    "en": ("{b} took no card: {a} win the game.", "{a} win the game!", "{a} win!"),
    "pl": ("{b} bez ani jednej karty: grę wygrywają {a}.", "Grę wygrywają {a}!", "Wygrywają {a}!"),
}


@pytest.mark.parametrize("lang", list(PAIR_WINS))
def test_a_pair_s_win_takes_the_verb_of_two(phone, app, lang):
    """Lukas & Lucía won the evening's Escoba, and the Polish phones read "Wygrywa Lukas &
    Lucía!" (one player's verb for two, as the round form's "Grę wygrywa …"): a pair wins as
    two, in the round form's outcome and in the settlement."""
    host = speaking(phone, lang)
    token = host.open_table("escoba", ("Anna", "Ben", "Cleo", "Dora"), target=5)
    assert host.write(f"/t/{token}/teams", {"action": "draw"}).status_code == 200

    def outcome(**values):
        page = host.client.get(f"/t/{token}/tray", query_string={"round": "1", **values},
                               headers={"HX-Request": "true"}).get_data(as_text=True)
        return html.unescape(re.search(r'<p class="outcome">(.*?)</p>', page, re.S).group(1)).strip()

    # the form's first pile wins both ways: the other pair takes no card, or falls 5 short
    by_shut_out = outcome(c0="40", o0="10", s0="4", seven="0")
    by_points = outcome(c0="24", o0="7", s0="3", seven="0", e0="2")
    assert host.write(f"/t/{token}/escoba/round", {"c0": "24", "o0": "7", "s0": "3", "seven": "0", "e0": "2",
                                                   "idem": "won"}).status_code == 200
    db = store.connect(app.config["DATABASE"])
    played = service.load(db, service.current_game(db, service.by_join_token(db, token)["id"]))
    winner = played.result["winner"]
    loser = next(side.name for side in played.state.setup.sides if side.name != winner)
    shut_out, ends, heading = (text.format(a=winner, b=loser) for text in PAIR_WINS[lang])
    assert by_shut_out == shut_out
    assert by_points == ends
    board = html.unescape(host.get(f"/t/{token}").get_data(as_text=True))
    assert f"<h2>{heading}</h2>" in board
