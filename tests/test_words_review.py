"""The words of one screen that name one thing, read in each language as a player at the pub
reads them: the pad and the settlement under it, the card of a table just opened and the page
its link leads to, the evening's money on the board and on the history page. Rendered through
Flask's client, the language chosen on the switcher (found by the words-review helper)."""

import html
import re

import pytest

from tests.games.escalero import one_column_game
from tests.support import writes


def text(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def test_spanish_points_are_abbreviated_alike_on_the_pad_and_the_settlement(phone):
    """Spanish Escalero's pad heads its points row "ptos", and the settlement under it wrote a
    side three points up "+3 pts" (one point "+1 pto"): "pto" and "pts" are two ways of cutting
    "puntos" short, "pts" also the old pesetas' beside the money. The settlement says "+3 ptos"."""
    host = phone().speaking("es")
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1, stake="0.10")
    play_one_column_game(host, token)
    pad, settle = html.unescape(host.get(f"/t/{token}").get_data(as_text=True)).split('id="settle"')[:2]
    assert re.search(r'<th class="rowlabel">ptos</th>', pad)
    assert re.findall(r'class="settle-points">([^<]+)</b>', settle) == ["+3 ptos", "-3 ptos"]


def test_polish_host_s_card_names_the_start_page_as_its_link_does(phone):
    """The Polish host's card told friends to type the code "na stronie startowej", while the
    button that leads there (on a page that says a table is not there) reads "Strona główna":
    two names for the page a friend has to find. The card says "na stronie głównej"."""
    host = phone().speaking("pl")
    token = host.open_table("escalero", players=("Anna", "Ben"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    join = text(page[page.index('id="join"'):page.index("</section>", page.index('id="join"'))])
    assert "na stronie głównej." in join and "startow" not in join
    lost = host.get("/t/no-such-table").get_data(as_text=True)
    assert re.search(r'<a class="button" href="/">Strona główna</a>', lost)


def play_one_column_game(host, token):
    """A one-column game of Anna and Ben to its end: Anna three ones, nothing else."""
    for event in one_column_game(3):
        assert host.enter(token, event).status_code == 200


@pytest.mark.parametrize("lang, heading", [
    ("de", "Abrechnung des Abends"), ("pl", "Rozliczenie wieczoru"), ("es", "Las cuentas de la noche")])
def test_the_evening_s_money_is_headed_alike_on_the_board_and_the_history(phone, lang, heading):
    """After a rematch's end the board headed the evening's money "Der Abend bisher" ("Wieczór
    do tej pory", "La noche hasta ahora", calques of the English), and the history page, a tap
    away, headed the same sums of the same games "Abrechnung des Abends" ("Rozliczenie
    wieczoru", "Las cuentas de la noche"), the word the catalog has for a table's ledger. Both
    say the latter now."""
    host = phone().speaking(lang)
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1, stake="0.10")
    play_one_column_game(host, token)
    assert host.write(f"/t/{token}/rematch").status_code == 200
    play_one_column_game(host, token)
    settle = host.get(f"/t/{token}").get_data(as_text=True).split('id="settle"')[1]
    history = host.get(f"/t/{token}/history").get_data(as_text=True)
    evening = re.search(r'<section class="card evening">\s*<h2>([^<]+)</h2>', history)
    assert evening and text(evening.group(1)) == heading
    headings = [text(h3) for h3 in re.findall(r"<h3>(.*?)</h3>", settle, re.S)]
    assert heading in headings
    # and its transfers as the board heads them ("Who pays whom tonight"), not as every game's
    # own settlement on the same page is headed ("Who pays whom")
    transfers = re.search(r'<section class="card evening">.*?<h3>([^<]+)</h3>', history, re.S)
    assert transfers and text(transfers.group(1)) == headings[headings.index(heading) + 1]


def test_polish_history_names_who_undid_and_corrected_in_words_that_follow_a_name(phone):
    """A Polish history row, the writer's name first, read "Anna cofnięto wpis #1" and "Anna
    poprawiono #2:", impersonal forms ("was undone") that do not follow a name (found by the
    card-and-kaques helper); a noun follows it now, as on any label: "Anna cofnięcie wpisu #1"."""
    host = phone().speaking("pl")
    token = host.open_table("escalero", ("Anna", "Ben"), columns=1)
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "1", "value": 3}).status_code == 200
    target = writes(host.get(f"/t/{token}/board").get_data(as_text=True), "/undo")[0]["vals"]["target"]
    assert host.write(f"/t/{token}/undo", {"target": target}).status_code == 200
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "2", "value": 4}).status_code == 200
    second = writes(host.get(f"/t/{token}/board").get_data(as_text=True), "/undo")[0]["vals"]["target"]
    assert host.write(f"/t/{token}/correct", {"target": second, "event": '{"value": 6}'}).status_code == 200
    rows = text(host.get(f"/t/{token}/history").get_data(as_text=True))
    assert "cofnięcie wpisu #1" in rows and "poprawka wpisu #3:" in rows, rows
    assert "cofnięto" not in rows and "poprawiono" not in rows
