"""Yatzy at the table: the score route (dice, a value, a scratch, the wrong turn, bad input —
a 4xx in words, never a 500 — and an answer under 1 KB), the tray (the open boxes best first,
the value picker, a correction), the card's bonus progress in words, the history, the
settlement with its money, the rules page and the player page's figures."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from tests.support import form_fields, writes

LOGS = Path(__file__).parent / "logs" / "yatzy"


@pytest.fixture
def table(phone):
    """Anna, Ben and Cleo each on their own phone, the host on a fourth; €0.10 a point."""
    host, anna, ben, cleo = phone(), phone(), phone(), phone()
    token = host.open_table("yatzy", ("Anna", "Ben", "Cleo"), stake="0.10")
    for device, name in ((anna, "Anna"), (ben, "Ben"), (cleo, "Cleo")):
        device.join(token, name)
    return token, host, anna, ben, cleo


def score(device, token, box, change=None, **fields):
    """A box written as the tray posts it (POST …/yatzy/score): `box` as "seat:box"."""
    return device.write(f"/t/{token}/yatzy/score", {"box": box, **{k: str(v) for k, v in fields.items()}},
                        change=change)


def said(response) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def card(device, token) -> str:
    return device.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)


def cell(html: str, id_: str) -> str:
    found = re.search(rf'<td id="{id_}"[^>]*>(.*?)</td>', html)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""


# --- the score route -------------------------------------------------------------------------------


def test_dice_make_the_value_and_a_value_alone_is_checked(table):
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:full", dice="3,3,3,6,6").status_code == 200
    assert score(ben, token, "1:4", value="12").status_code == 200
    assert score(cleo, token, "2:chance", dice="6,5,6,4,3", value="24").status_code == 200
    html = card(anna, token)
    assert (cell(html, "y0-full"), cell(html, "y1-4"), cell(html, "y2-chance")) == ("21", "12", "24")
    # the history in words, with the dice
    assert "Full House: <b>21</b> <small>(3-3-3-6-6)</small>" in html


def test_a_scratch_with_or_without_the_dice_it_scratched(table):
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:yatzy", value="0").status_code == 200
    assert score(ben, token, "1:large", value="0", dice="1,1,2,2,3").status_code == 200
    html = card(cleo, token)
    assert cell(html, "y0-yatzy") == "✕" and cell(html, "y1-large") == "✕"
    assert "Large Straight: <b>✕</b> <small>(1-1-2-2-3)</small>" in html


def test_the_wrong_turn_and_another_players_box_are_refused_in_words(table):
    token, host, anna, ben, cleo = table
    refused = score(ben, token, "1:chance", dice="1,2,3,4,5")
    assert refused.status_code == 403 and "It is not your turn: Anna writes now." in said(refused)
    refused = score(anna, token, "1:chance", dice="1,2,3,4,5")
    assert refused.status_code == 403 and "You can only write for your own side." in said(refused)
    # the host writes for whoever is on turn, not for another
    refused = score(host, token, "2:chance", dice="1,2,3,4,5")
    assert refused.status_code == 409 and "It is Anna&#39;s turn, not Cleo&#39;s." in said(refused)
    assert score(host, token, "0:chance", dice="1,2,3,4,5").status_code == 200
    assert "for Anna: Chance:" in card(anna, token)


@pytest.mark.parametrize("fields, status, words", [
    ({"box": "0:full", "dice": "1,2,3,4,6"}, 409, "Dice 1-2-3-4-6 do not make Full House (to scratch it, write 0)."),
    ({"box": "0:full", "dice": "3,3,3,6,6", "value": "24"}, 409, "Dice 3-3-3-6-6 score 21 in Full House, not 24."),
    ({"box": "0:full", "value": "25"}, 409, "Full House takes 0, 7–9, 11–24, 26–28, not 25."),
    ({"box": "0:4", "value": "13"}, 409, "Fours takes 0, 4, 8, 12, 16, 20, not 13."),
    ({"box": "0:full"}, 400, "Tap five dice first."),
    ({"box": "0:full", "dice": "3,3,3"}, 400, "Tap five dice first."),
    ({"box": "0:full", "value": "abc"}, 400, "Tap one of the values."),
    ({"box": "0:full", "value": "²"}, 400, "Tap one of the values."),
    ({"box": "0:full", "value": "-5"}, 400, "Tap one of the values."),
    ({"box": "0:full", "value": "9" * 40}, 400, "Tap one of the values."),
    ({"box": "0:nope", "value": "5"}, 400, "Tap a box of the card."),
    ({"box": "7:full", "value": "5"}, 400, "Tap a box of the card."),
    ({"box": "", "value": "5"}, 400, "Tap a box of the card."),
    ({"box": "x" * 3000, "value": "5"}, 400, "That entry is too long."),
])
def test_bad_input_is_a_4xx_in_words(table, fields, status, words):
    token, host, anna, ben, cleo = table
    response = anna.write(f"/t/{token}/yatzy/score", fields)
    assert response.status_code == status and words in said(response), said(response)[:300]
    assert 'data-entries="0"' in card(anna, token)


def test_a_box_written_twice_a_box_of_the_other_card_and_no_yatzy_game(table, phone):
    token, host, anna, ben, cleo = table
    assert score(host, token, "0:full", value="0").status_code == 200
    assert score(host, token, "1:full", value="0").status_code == 200
    assert score(host, token, "2:full", value="0").status_code == 200
    refused = score(anna, token, "0:full", value="0")
    assert refused.status_code == 409 and "Anna has already written Full House" in said(refused)
    classic = phone()
    other = classic.open_table("yatzy", ("Anna", "Ben"), form="classic")
    refused = score(classic, other, "0:pair", value="4")
    assert refused.status_code == 400 and "Tap a box of the card." in said(refused)
    escalero = classic.open_table("escalero", ("Anna", "Ben"))
    refused = score(classic, escalero, "0:full", value="25")
    assert refused.status_code == 409 and "There is no Yatzy game waiting for a throw." in said(refused)


def test_a_write_on_a_stale_board_or_without_one_is_refused(table):
    token, host, anna, ben, cleo = table
    before = anna.board_change(token)
    assert score(host, token, "0:chance", value="20").status_code == 200
    stale = score(ben, token, "1:chance", value="20", change=before)
    assert stale.status_code == 409 and "The host already entered this" in said(stale)
    blind = ben.post(f"/t/{token}/yatzy/score", {"box": "1:chance", "value": "20"})
    assert blind.status_code == 400 and "which board it was made on" in said(blind)


def test_a_retry_counts_once(table):
    token, host, anna, ben, cleo = table
    change = anna.board_change(token)
    for _ in range(2):
        assert anna.post(f"/t/{token}/yatzy/score", {"box": "0:chance", "value": "20", "idem": "k1",
                                                     "change": change}).status_code == 200
    assert 'data-entries="1"' in card(anna, token)


def test_an_entrys_answer_is_under_a_kilobyte(table):
    """Mid-game, the answer to a phone's entry stays within 1 KB on the wire (gzip, as a browser
    asks; the headers the app sends and at most 80 bytes gunicorn adds: Date, Connection):
    only the parts it changed."""
    token, host, anna, ben, cleo = table
    plan = [("full", "3,3,3,6,6"), ("small", "1,2,3,4,5"), ("4", "2,2,4,4,4"), ("chance", "6,6,6,6,1"),
            ("yatzy", "5,5,5,5,5"), ("6", "6,6,6,1,2"), ("two_pairs", "2,2,5,5,1"), ("5", "5,5,5,1,2"),
            ("1", "1,1,2,3,4"), ("three", "4,4,4,1,2"), ("four", "3,3,3,3,1"), ("pair", "6,6,1,2,3")]
    sizes = []
    for turn, (box, dice) in enumerate(plan):
        device = (anna, ben, cleo)[turn % 3]
        tray = device.tray(token, dice=dice)
        option = next(w for w in writes(tray, "/yatzy/score") if w["vals"]["box"].endswith(f":{box}"))
        data = {**{k: v for k, v in form_fields(tray).items()},
                **{k: v if isinstance(v, str) else json.dumps(v) for k, v in option["vals"].items()},
                "change": device.board_change(token)}
        response = device.post(option["url"], data, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        body = response.get_data()
        text = gzip.decompress(body).decode() if response.headers.get("Content-Encoding") == "gzip" else body.decode()
        if 'data-base="' in text:  # parts, not the whole board
            head = len("HTTP/1.1 200 OK\r\n") + sum(len(f"{k}: {v}\r\n") for k, v in response.headers.items()) + 2
            sizes.append(head + 80 + len(body))
            assert "board-inner" not in text
            assert sizes[-1] <= 1000, (turn, box, sizes[-1], text)
    assert len(sizes) == len(plan)  # a seated phone's first entry too


# --- the tray ---------------------------------------------------------------------------------------


def test_five_dice_light_every_open_box_best_first(table):
    token, host, anna, ben, cleo = table
    tray = anna.tray(token, dice="3,3,3,6,6")
    options = re.findall(r'data-cell="0:(\w+)" data-box="\w+" data-value="(\d+)"', tray)
    assert len(options) == 15
    assert options[:4] == [("full", "21"), ("chance", "21"), ("two_pairs", "18"), ("6", "12")]
    values = [int(v) for _, v in options]
    assert values == sorted(values, reverse=True)
    # a scratch asks once more: its option opens a confirm
    assert '<summary class="button" data-cell="0:yatzy" data-box="yatzy" data-value="0" aria-label="Scratch Yatzy">' in tray
    assert "Yes, scratch Yatzy" in tray
    # fewer than five dice: the pad says how many more, and nothing is offered
    tray = anna.tray(token, dice="3,3")
    assert 'data-left="3 more"' in tray and "data-cell=" not in tray
    # not this phone's turn: no dice
    tray = ben.tray(token, dice="3,3,3,6,6")
    assert "dice-pad" not in tray and "Anna's turn" in tray and "Your dice open on your turn." in tray


def test_a_box_tapped_without_dice_offers_what_it_can_hold(table):
    token, host, anna, ben, cleo = table
    tray = anna.tray(token, pick="0:4")
    values = [(w["vals"].get("value"), w["text"]) for w in writes(tray, "/yatzy/score")]
    assert values == [(0, "Yes, scratch Fours"), (4, "1× → 4"), (8, "2× → 8"), (12, "3× → 12"), (16, "4× → 16"),
                      (20, "5× → 20")]
    assert "✕ scratch" in tray
    chance = [w["vals"]["value"] for w in writes(anna.tray(token, pick="0:chance"), "/yatzy/score")]
    assert chance == [0] + list(range(5, 31))
    # another player's box, or one already written, opens nothing
    assert "picker" not in anna.tray(token, pick="1:4")
    button = writes(anna.tray(token, pick="0:4"), "/yatzy/score")[3]
    assert anna.press(token, button).status_code == 200
    assert "picker" not in ben.tray(token, pick="0:4") and "picker" not in anna.tray(token, pick="0:4")


def test_the_writer_corrects_a_box_where_it_stands(table):
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:4", dice="4,4,4,1,2").status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', card(anna, token)).group(1)
    assert f'name="fix" value="{entry}"' not in card(ben, token)  # not Ben's to correct
    tray = anna.tray(token, fix=entry)
    assert "Correct Anna: Fours" in tray
    # an entry of 4,301 digits is none (int() refuses it: the tray answered 500)
    assert "Correct Anna" not in anna.tray(token, fix="9" * 4301)
    fixes = writes(tray, "/correct")
    assert [json.loads(w["vals"]["event"])["value"] for w in fixes] == [0, 4, 8, 12, 16, 20]
    assert "disabled" in fixes[3]["attrs"]  # the value it holds
    assert anna.press(token, fixes[4]).status_code == 200
    html = card(ben, token)
    assert cell(html, "y0-4") == "16" and "16" in cell(html, "b0")
    assert "corrected #" in html


def test_the_last_entry_is_undone_from_the_tray(table):
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:chance", value="20").status_code == 200
    undo = writes(card(anna, token), "/undo")
    assert len(undo) == 1 and not writes(card(ben, token), "/undo")
    assert anna.press(token, undo[0]).status_code == 200
    html = card(anna, token)
    assert 'data-entries="0"' in html and "undid entry #1" in html


# --- the card ---------------------------------------------------------------------------------------


def test_the_bonus_row_says_how_far_it_is(table):
    token, host, anna, ben, cleo = table
    for seat, box, value in ((0, "6", 24), (1, "1", 0), (2, "5", 5), (0, "5", 20), (1, "2", 0), (2, "6", 0),
                             (0, "4", 16), (1, "3", 0), (2, "4", 0)):
        assert score(host, token, f"{seat}:{box}", value=value).status_code == 200
    html = card(anna, token)
    # Anna 60 so far, with Ones to Threes open; Ben needs 63 from 4 5 6 (at most 75);
    # Cleo 5, with 1 2 3 open (at most 30): out of reach
    assert cell(html, "b0") == "603 more" and 'title="Anna needs 3 more for the bonus"' in html
    assert 'title="Ben needs 63 more for the bonus"' in html
    assert cell(html, "b2") == "5missed" and 'title="Cleo can no longer reach the bonus"' in html
    assert score(host, token, "0:3", value=3).status_code == 200
    html = card(anna, token)
    assert cell(html, "b0") == "63+50" and 'title="Anna has the bonus: 50"' in html
    assert re.search(r'<td class="mine">113<small', html)  # 63 and 50 head Anna's column


def test_the_totals_money_fits_its_column(table, phone):
    """Three players keep the currency with each amount; four at €0.50 a point, Anna 373 and the
    others nothing, leave it to the row's name, and amounts still too long for a column of four
    ("+559.50") are the row's smaller print (yatzy.css). The cents stay: they are not whole."""
    token, host, anna, ben, cleo = table
    assert score(host, token, "0:chance", value=21).status_code == 200
    assert re.search(r'<tr id="totals"><th>Total</th><td class="mine">21<small class="plus">\+€4\.20</small>', card(anna, token))
    four = phone()
    token = four.open_table("yatzy", ("Anna", "Ben", "Cleo", "Dora"), stake="0.50")
    best = {"1": 4, "2": 10, "3": 15, "4": 20, "5": 25, "6": 30, "pair": 12, "two_pairs": 22, "three": 18, "four": 24,
            "small": 15, "large": 20, "full": 28, "chance": 30, "yatzy": 50}
    for box, value in best.items():
        for seat in range(4):
            assert score(four, token, f"{seat}:{box}", value=value if seat == 0 else 0).status_code == 200
    html = card(four, token)
    assert '<tr id="totals" class="tight"><th>Total<small>€</small></th>' in html
    assert re.findall(r'<small class="(?:plus|minus)">([^<]*)</small>', html) == ["+559.50", "-186.50", "-186.50", "-186.50"]


def test_the_bonus_row_counts_in_the_phone_s_grammar(table):
    """One point short read "faltan 1" on a Spanish phone ("le faltan 1 para la bonificación"):
    the count is a plural of its own in every language, "falta 1" but "faltan 2"."""
    token, host, anna, ben, cleo = table
    assert anna.post("/language", {"lang": "es", "next": "/"}, fetch=False).status_code == 303
    assert ben.post("/language", {"lang": "de", "next": "/"}, fetch=False).status_code == 303
    for seat, box, value in ((0, "6", 30), (1, "chance", 20), (2, "chance", 20), (0, "5", 25), (1, "yatzy", 0),
                             (2, "yatzy", 0), (0, "4", 4), (1, "pair", 0), (2, "pair", 0), (0, "3", 3)):
        assert score(host, token, f"{seat}:{box}", value=value).status_code == 200
    html = card(anna, token)  # Anna 62, with Ones and Twos open
    assert cell(html, "b0") == "62falta 1" and 'title="A Anna le falta 1 para la bonificación"' in html
    assert 'title="A Ben le faltan 63 para la bonificación"' in html
    html = card(ben, token)
    assert cell(html, "b0") == "62noch 1" and 'title="Anna fehlt noch 1 für den Bonus"' in html
    assert 'title="Ben fehlen noch 63 für den Bonus"' in html


def test_this_phones_column_comes_first(table):
    token, host, anna, ben, cleo = table
    heads = lambda device: re.findall(r'<th class="side p\d[^"]*">(\w+)</th>', card(device, token))
    assert heads(anna) == ["Anna", "Ben", "Cleo"] and heads(cleo) == ["Cleo", "Anna", "Ben"]
    assert heads(host) == ["Anna", "Ben", "Cleo"]


def test_the_classic_card_has_thirteen_boxes_and_a_bonus_of_35(phone):
    host = phone()
    token = host.open_table("yatzy", ("Anna", "Ben"), form="classic")
    html = card(host, token)
    assert len(re.findall(r'<tr data-box="', html)) == 13 and "pair" not in re.findall(r'data-box="(\w+)"', html)
    assert "at 63: +35" in html


# --- the end ----------------------------------------------------------------------------------------


def test_the_settlement_has_the_money_and_the_fewest_transfers(phone):
    host = phone()
    imported = host.post("/import", {"text": (LOGS / "scandinavian-three-players-stake.json").read_text()},
                         fetch=False)
    assert imported.status_code == 303
    token = imported.headers["Location"].rstrip("/").split("/")[-2]
    html = said(host.get(f"/t/{token}"))
    expected = json.loads((LOGS / "scandinavian-three-players-stake.expected.json").read_text())
    assert expected["winner"] == "Anna" and "Anna wins" in html
    # by total, highest first, each with its points, money and bonus
    assert [name for name in re.findall(r'<span class="settle-name">(\w+)</span>', html)] == ["Anna", "Cleo", "Ben"]
    assert "279 points" in html and "+€15.70" in html and "-€19.40" in html and "+€3.70" in html
    assert "bonus 50" in html and "+157 net" in html
    # the eye reads "Anna → Ben", a screen reader "Anna pays Ben" (it read the arrow out: "right arrow")
    transfers = re.findall(r'<li><span class="said">(\w+) pays (\w+)</span><span aria-hidden="true">\1 → \2</span> <b>([^<]+)</b></li>', html)
    assert sorted(transfers) == sorted((t["from"], t["to"], "€" + t["amount"]) for t in expected["transfers"])
    assert 'id="tray"' in html and "dice-pad" not in html  # nothing to enter any more
    history = said(host.get(f"/t/{token}/history"))
    assert "Anna wins" in history


def test_a_finished_game_takes_no_box(phone):
    host = phone()
    imported = host.post("/import", {"text": (LOGS / "classic-two-players.json").read_text()}, fetch=False)
    token = imported.headers["Location"].rstrip("/").split("/")[-2]
    refused = score(host, token, "0:chance", value="20")
    assert refused.status_code in (403, 409) and "500" not in str(refused.status_code)



def test_a_tie_on_top_names_who_share_the_win(phone):
    """Ben and Cleo level on top, Anna behind: the settlement's heading read "A tie", which
    Anna, last, could read as her own; it names the two who share the win now, and a game
    everyone ends level is still a tie."""
    host = phone()

    def settled(chances):
        doc = {"format": "scorekeeper-log/1", "game": "yatzy", "players": list(chances), "rules": {"form": "classic"},
               "events": [{"type": "score", "player": name, "box": box, "value": chances[name] if box == "chance" else 0}
                          for box in ("1", "2", "3", "4", "5", "6", "three", "four", "small", "large", "full",
                                      "chance", "yatzy") for name in chances]}
        imported = host.post("/import", {"text": json.dumps(doc)}, fetch=False)
        token = imported.headers["Location"].rstrip("/").split("/")[-2]
        heading = re.search(r'class="[^"]*settle[^"]*".*?<h2>(.*?)</h2>', said(host.get(f"/t/{token}"))).group(1)
        assert f"<h2>{heading}</h2>" in said(host.get(f"/t/{token}/history"))
        return heading

    assert settled({"Anna": 12, "Ben": 30, "Cleo": 30}) == "Ben and Cleo share the win"
    assert settled({"Anna": 20, "Ben": 20}) == "A tie"

# --- pages ------------------------------------------------------------------------------------------


def test_the_rules_page_and_the_new_table_form(phone):
    device = phone()
    rules = said(device.get("/rules/yatzy"))
    assert "Scandinavian card has 15 boxes" in rules and "63" in rules and "/new/yatzy" in rules
    form = said(device.get("/new/yatzy"))
    assert "Scandinavian: 15 boxes, bonus 50" in form and "Classic: 13 boxes, bonus 35" in form
    assert 'name="rule_stake"' in form


def test_the_player_page_counts_yatzies_bonuses_and_scores(phone):
    host = phone()
    for log in ("scandinavian-three-players-stake", "classic-two-players"):
        assert host.post("/import", {"text": (LOGS / f"{log}.json").read_text()}, fetch=False).status_code == 303
    page = said(host.get("/players/Cleo"))
    for label, key, value in (("Average score", "average_score", "239"), ("Best score", "best_score", "239"),
                              ("Yatzies", "yatzies", "1"), ("Upper bonuses", "bonuses", "1")):
        assert f'<dt>{label}</dt><dd data-figure="{key}">{value}</dd>' in page.replace("> <", "><")


def test_statistics_count_each_player(phone):
    doc = json.loads((LOGS / "classic-two-players.json").read_text())
    from scorekeeper.gamelog import fold, read_header
    game = read_header(doc)
    state = fold(game, doc["events"])
    counts = game.engine.statistics.count(state, game.engine.result(state))
    assert counts["Dora"] == {"score_points": 314, "cards": 1, "best_score": 314, "yatzies": 1, "bonuses": 1}
    assert counts["Emil"]["bonuses"] == 0


def test_the_host_s_own_entries_name_the_host_in_the_reader_s_language(table):
    """A German phone read "Das hat host schon eingetragen", and "host" in its history: the word
    the history stores for the host writing without a seat, shown untranslated."""
    token, host, anna, ben, cleo = table
    assert ben.post("/language", {"lang": "de", "next": "/"}, fetch=False).status_code == 303
    before = ben.board_change(token)
    assert score(host, token, "0:chance", value="20").status_code == 200
    stale = score(ben, token, "1:chance", value="20", change=before)
    assert stale.status_code == 409 and "Das hat der Gastgeber schon eingetragen" in said(stale)
    assert '<span class="who">Gastgeber</span>' in card(ben, token)
    assert '<span class="who">Host</span>' in card(anna, token)  # in English, capitalised as the row begins with it


def test_a_box_s_name_breaks_at_a_syllable_where_the_phone_hyphenates():
    """With a phone's text set large, a box's name broke inside a word ("Dreierpas / ch" in
    German, "Szans / a" in Polish): the labels hyphenate in the page's language (its <html
    lang>) where the phone can, and break anywhere only where it cannot."""
    sheet = (Path(__file__).parents[1] / "scorekeeper/web/games/yatzy/static/yatzy.css").read_text()
    rule = re.search(r"\.yz-card \.rowlabel, \.yz-card #totals th \{([^}]*)\}", sheet).group(1)
    assert "hyphens: auto" in rule and "overflow-wrap: anywhere" in rule
    base = (Path(__file__).parents[1] / "templates/base.html").read_text()
    assert '<html lang="{{ html_lang() }}"' in base


def test_a_screen_reader_hears_a_correction_made_on_another_phone(table):
    """Anna corrected her Fours from 12 to 16, and the other phones' boards changed without a
    word: a correction comes as a whole board, which leaves #said be, so a screen reader at the
    table never heard it (an entry and an undo are told). It is told as its history row words
    it, by whom and what it is now; the writer's own answer tells her nothing (she chose it)."""
    token, host, anna, ben, cleo = table
    assert score(anna, token, "0:4", dice="4,4,4,1,2").status_code == 200
    before = {name: device.board_change(token) for name, device in (("ben", ben), ("host", host), ("anna", anna))}
    entry = re.search(r'name="fix" value="(\d+)"', card(anna, token)).group(1)
    answer = anna.press(token, writes(anna.tray(token, fix=entry), "/correct")[4])
    assert answer.status_code == 200 and 'id="said"' not in answer.get_data(as_text=True)
    for name, device in (("ben", ben), ("host", host)):
        told = device.get(f"/t/{token}/board?since={before[name]}", headers={"HX-Request": "true"}).get_data(as_text=True)
        assert cell(told, "y0-4") == "16"  # the whole board, as before
        assert device.heard(token, before[name]) == "Anna: corrected #1: Fours: 16.", name
    # a board asked for again with nothing new says nothing
    again = ben.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="said"' not in again


def test_a_scratch_is_told_in_words_not_as_a_sign(table):
    """A scratch was told to the other phones as "Anna: Yatzy: ✕", which a screen reader read
    out as "multiplication x". It is told in words; the history row keeps its ✕ for the eye."""
    token, host, anna, ben, cleo = table
    ben.speaking("de")
    before = ben.board_change(token)
    assert score(anna, token, "0:yatzy", value="0").status_code == 200
    assert ben.heard(token, before).startswith("Anna: Kniffel: gestrichen. Du bist dran!")
    assert "✕" in re.search(r'<li id="h\d+".*?</li>', card(host, token), re.S)[0]


def test_the_values_of_a_box_take_the_focus_named_by_what_they_are_for(table):
    """Enter on a box opened its values at the screen's foot, the focus left on the box: a
    screen reader heard nothing open. The values take the focus as they come, named by their
    title ("Anna: Fours"). Escape did not close them (a <div>); it does, the focus back on the box."""
    token, host, anna, ben, cleo = table
    tray = anna.tray(token, pick="0:4")
    assert re.search(r'<dialog class="picker" open [^>]*aria-labelledby="picker-title" tabindex="-1" autofocus', tray)
    assert '<p class="picker-title" id="picker-title">Anna: Fours</p>' in tray
    # "3× → 16" was read "3 multiplication sign right arrow 12": named in words
    assert re.search(r'<button type="button" class="button value" aria-label="3 dice: 12"[^>]*>3× → 12</button>', tray), tray
    # Escape closes them (a <dialog> closed by a close request asks for the tray, as Cancel does),
    # and the focus goes back to the box they came from, as after Cancel
    picker = re.search(r'<dialog class="picker" open closedby="closerequest"[^>]*>', tray)[0]
    assert 'hx-trigger="close"' in picker and re.search(r'data-back="#y0-4 button"', picker), picker
    assert re.search(r'<button class="button" data-back="#y0-4 button">Cancel</button>', tray)
    assert "autofocus" not in anna.tray(token) and "autofocus" not in card(anna, token)


def test_the_values_scratch_is_named_in_words(table):
    """The values' scratch ("✕ streichen") was read "Malzeichen streichen". Its name is the word."""
    token, host, anna, ben, cleo = table
    anna.speaking("de")
    assert re.search(r'<summary class="button" aria-label="streichen">✕ streichen</summary>', anna.tray(token, pick="0:4"))
    assert score(anna, token, "0:4", value="8").status_code == 200
    entry = re.search(r'name="fix" value="(\d+)"', card(anna, token)).group(1)
    zero = re.search(r'<button type="button" class="button value zero"[^>]*>', anna.tray(token, fix=entry))[0]
    assert 'aria-label="streichen"' in zero
