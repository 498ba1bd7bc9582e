"""Euchre's words as a phone in each language reads them: plurals
and sentences rendered through Flask's client, the language chosen on the switcher."""

import html
import json
import re
from pathlib import Path

import pytest

from scorekeeper import service, store

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


def speaking(phone, lang):
    return phone().speaking(lang)


def history_lines(page):
    """The history's rows as text, one a row."""
    rows = re.findall(r'<li id="h\d+".*?</li>', page, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", row)).strip() for row in rows]


@pytest.mark.parametrize("lang, tricks, shown", [
    ("en", 1, "Zed · 1 trick"), ("en", 2, "Zed · 2 tricks"),
    ("de", 1, "Zed · 1 Stich"), ("de", 2, "Zed · 2 Stiche"),
    ("pl", 1, "Zed · 1 lewa"), ("pl", 2, "Zed · 2 lewy"), ("pl", 5, "Zed · 5 lew"),
    ("es", 1, "Zed · 1 baza"), ("es", 2, "Zed · 2 bazas"),
])
def test_a_hand_the_engine_can_no_longer_read_counts_its_tricks_in_the_phone_s_grammar(phone, app, lang, tricks,
                                                                                     shown):
    """An undone hand whose record the engine cannot read any more (its maker no player of
    the table) is shown as it was stored: who and how many tricks, in the plural of the
    language ("1 tricks" before)."""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS)
    host.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "3"})
    db = store.connect(app.config["DATABASE"])
    game = service.current_game(db, service.by_join_token(db, token)["id"])
    entry = db.execute("SELECT id FROM events WHERE game_id = ? AND kind = 'entry'", [game["id"]]).fetchone()[0]
    assert host.write(f"/t/{token}/undo", {"target": str(entry)}).status_code == 200
    db.execute("UPDATE events SET payload = ? WHERE id = ?",
               [json.dumps({"type": "hand", "maker": "Zed", "tricks": tricks}), entry])
    db.conn.commit()
    app.extensions["scorekeeper.folds"].clear()  # the record as a later version of the server reads it
    page = host.get(f"/t/{token}/history").get_data(as_text=True)
    lines = [line for line in history_lines(page) if "Zed" in line]
    assert lines and all(re.search(re.escape(shown) + r"(?!\w)", line) for line in lines), lines


def label_of_lone_hands(tray):
    found = re.search(r'<p class="label"[^>]*>(.*?)</p>\s*<div class="lone-row"[^>]*>', tray, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.mark.parametrize("lang, shown", [
    ("en", "Went alone — only if someone did"), ("de", "Allein gespielt — nur, wenn es jemand tat"),
    ("pl", "Solo — tylko jeśli ktoś tak grał"), ("es", "Jugó solo — solo si alguien lo hizo"),
])
def test_the_lone_hand_row_says_when_to_tap_it_in_a_whole_sentence(phone, lang, shown):
    """The tray's row for a lone hand, once trump's maker is tapped: the German read "Allein
    gespielt — nur falls jemand" ("only if someone"), its sentence cut short."""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS)
    host.join(token, "Anna")
    assert label_of_lone_hands(host.tray(token, {"maker": "Anna"})) == shown


@pytest.mark.parametrize("lang, refusal, tray_words", [
    ("en", "Tap who named trump and the tricks the makers took.", ("who named trump?", "Tricks the makers took")),
    ("de", "Tippe an, wer Trumpf bestimmt hat und wie viele Stiche die Macher gemacht haben.",
     ("Wer hat Trumpf bestimmt?", "Stiche der Macher")),
    ("pl", "Stuknij, kto wybrał atut i ile lew wzięli rozgrywający.",
     ("kto wybrał atut?", "Lewy wzięte przez rozgrywających")),
    ("es", "Toca quién eligió el triunfo y las bazas que hicieron los atacantes.",
     ("¿quién eligió el triunfo?", "Bazas que hicieron los atacantes")),
])
def test_a_hand_sent_without_its_maker_is_refused_in_the_tray_s_own_words(phone, lang, refusal, tray_words):
    """A hand sent without who named trump: the refusal spoke of "Ansager" where the tray says
    "Macher" (German), "zgłaszający" for "rozgrywający" (Polish), "los que lo cantaron" for
    "los atacantes" (Spanish); it uses the tray's words now."""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS)
    host.join(token, "Anna")
    asked = html.unescape(host.get(f"/t/{token}/board").get_data(as_text=True))
    tray = html.unescape(host.tray(token, {"maker": "Anna"}))
    assert tray_words[0] in asked and tray_words[1] in tray
    response = host.write(f"/t/{token}/euchre/hand", {"tricks": "3"})
    assert response.status_code == 400
    assert re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True)))).strip() == refusal


@pytest.mark.parametrize("lang, hand, question", [
    ("en", "Hand 2", "Who named trump?"),
    ("de", "Runde 2", "Wer hat Trumpf bestimmt?"),
    ("pl", "Rozdanie 2", "Kto wybrał atut?"),
    ("es", "Mano 2", "¿Quién eligió el triunfo?"),
])
def test_after_a_hand_the_tray_names_the_next_hand_once(phone, lang, hand, question):
    """After a hand, the writer's tray read "Hand 2 [Undo]" right over "Hand 2: who named
    trump?", the same words twice; the Undo's line names the hand, the question stands alone.
    The first hand, with no Undo over it, still asks "Hand 1: who named trump?"."""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS)
    host.join(token, "Anna")
    first = html.unescape(host.get(f"/t/{token}/board").get_data(as_text=True))
    assert hand.replace("2", "1") + ":" in re.search(r"<h3>(.*?)</h3>", first.split('id="tray"')[1]).group(1)
    assert host.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "3"}).status_code == 200
    board = html.unescape(host.get(f"/t/{token}/board").get_data(as_text=True))
    tray = board.split('id="tray"')[1].split("</form>")[0]
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tray))
    assert words.count(hand) == 1 and "tray-undo" in tray
    assert re.search(r"<h3>(.*?)</h3>", tray).group(1) == question


def visible_words(page):
    """A page's text as a player reads it: no tags, no attributes."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("lang, hand, count, figure, note", [
    ("de", "gescheitert", "verloren", "Gegner gescheitert", "gescheiterte Gegner"),
    ("pl", "wpadka", "wpadka", "wpadki rywali", "wpadka"),
    ("es", "codillo", "codillo", "codillos", "codillo"),
])
def test_a_euchred_hand_is_said_in_the_phone_s_language(phone, lang, hand, count, figure, note):
    """A German phone read "euchred" in the history, the tray ("euchred +2") and its preview,
    and "Euchres" on the settlement and the player's figures: the game's word left in English.
    Every phone says it in its own words now, as the rules page explains it. (A count of tricks
    says it shorter in German, "verloren +2": "gescheitert +2" took a third line under the 0,
    1 and 2, and the 3 tapped went under the hand's check on a 360 px phone.)"""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS)
    host.join(token, "Anna")
    tray = visible_words(host.tray(token, {"maker": "Anna"})) + visible_words(
        host.tray(token, {"maker": "Anna", "tricks": "1"}))
    assert f"{count} +2" in tray and f"· {hand} " in tray
    assert host.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "1"}).status_code == 200
    for _ in range(4):  # Ben & Dora march to 10
        assert host.write(f"/t/{token}/euchre/hand", {"maker": "Ben", "tricks": "5"}).status_code == 200
    board = visible_words(host.get(f"/t/{token}").get_data(as_text=True))
    history_page = host.get(f"/t/{token}/history").get_data(as_text=True)
    history = visible_words(history_page)
    figures = visible_words(host.get("/players/Ben").get_data(as_text=True))
    assert any(re.search(rf"· {hand} \W*Ben &amp; Dora \+2", row) for row in history_lines(history_page))
    assert figure in board and figure.lower() in figures.lower() and note in figures
    for words in (tray, board, history, figures):
        assert not re.search(r"euchre[ds]", words, re.I), re.findall(r".{40}euchre[ds].{40}", words, re.I)


def test_the_host_s_rows_begin_with_a_capital_as_a_name_does(phone):
    """Where the host wrote from no seat, an English history row began with a lowercase "host"
    (a screen reader heard "host: Anna · 1 trick …"); it reads "Host", as a name would."""
    host = speaking(phone, "en")
    token = host.open_table("euchre", PLAYERS)
    change = host.board_change(token)
    assert host.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "3"}).status_code == 200
    assert '<span class="who">Host</span>' in host.get(f"/t/{token}/history").get_data(as_text=True)
    assert host.heard(token, change).startswith("Host: Anna")


def test_the_hand_s_check_stands_over_its_score_on_a_page_zoomed_to_200_percent():
    """At 200 % (180 CSS px) the check's words beside the score had a third of the tray, a word
    a line, and a longer word broke inside it ("gescheite / rt"); there the score goes under."""
    sheet = (Path(__file__).parents[1] / "scorekeeper/web/games/euchre/static/euchre.css").read_text()
    narrow = re.search(r"@media \(max-width: 219px\) \{\s*\.euchre-tray \.confirm \.preview \{ "
                       r"grid-template-columns: minmax\(0, 1fr\); \}\s*\.euchre-tray \.confirm \.pv-score \{([^}]*)\}", sheet)
    assert narrow and "grid-row: auto" in narrow.group(1)
    beside = re.search(r"\.euchre-tray \.confirm \.pv-score \{ grid-column: 2; grid-row: 1 / span 2; \}", sheet)
    assert beside and beside.start() < narrow.start()


@pytest.mark.parametrize("lang, said", [
    ("en", "That ends the game: Anna & Cleo first to 5"),
    ("de", "Damit ist die Partie aus: Anna & Cleo zuerst auf 5"),
    ("pl", "To kończy grę. Wygrana: Anna & Cleo (gra do 5)"),
    ("es", "Con esto se acaba la partida: victoria para Anna & Cleo (se juega a 5)"),
])
def test_the_hand_that_ends_the_game_gives_the_pair_no_verb_of_one(phone, lang, said):
    """The evening's last Euchre hand, previewed on Lucía's phone: "Con esto se acaba la
    partida: Oliver & Lucía llega primero a 5" (and "wygrywa" in Polish), one player's verb for
    a pair. The line names the winners without a verb to agree, as German and English did."""
    host = speaking(phone, lang)
    token = host.open_table("euchre", PLAYERS, target=5)
    host.join(token, "Anna")
    for _ in range(2):  # Anna & Cleo march twice: 4 of 5
        assert host.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "5"}).status_code == 200
    tray = host.tray(token, {"maker": "Anna", "tricks": "3"})
    assert visible_words(re.search(r'<span class="pv pv-win">(.*?)</span>', tray, re.S).group(1)).strip() == said
