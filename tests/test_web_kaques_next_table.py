"""The evening goes on at a new table (service.follow_on): a phone still waiting for the host's
yes at the old table is shown the way there, but leads nobody on; and the settlement's link to
the next game carries the finished game's rules (found by the next table helper)."""

import html
import re
from urllib.parse import parse_qs, urlsplit

from tests.games.kaques import first_entry
from tests.test_seats import add_me, host_says, seat_of

NAMES = ("Anna", "Ben")


def board(phone, url) -> str:
    return html.unescape(phone.get(url).get_data(as_text=True))


def card(page: str) -> str | None:
    found = re.search(r'<p class="card next-table"[^>]*>(.*?)</p>', page, re.S)
    return re.sub(r"\s+", " ", found.group(1)) if found else None


def finished_game(phone, **rules) -> tuple:
    """A race to 100 (or by `rules`): Anna's first turn, 200 points, wins it; the host's phone and its
    join token."""
    host = phone().speaking("de")
    token = host.open_table("kaques", NAMES, **{"target": 100, **rules})
    assert first_entry(host, token).status_code == 200
    assert 'data-finished="yes"' in board(host, f"/t/{token}")
    return host, token


def next_links(page: str) -> list[str]:
    """The settlement's links to each game's new-table form."""
    return re.findall(r'href="([^"]+)"', page.split('class="next-game"')[1].split("</p>")[0])


def test_a_phone_waiting_for_the_host_s_yes_is_shown_the_next_table_but_leads_nobody_on(app, phone):
    """Eve joined the old table and waited for the host's yes when the game ended; the host
    opened the next game from the settlement and every phone was shown "The evening goes on" but
    Eve's, stranded on a finished table (a new join link of the table does send her on). Her
    phone is shown the card now; but her settlement's links carry no `after`, and an `after` she
    sends links nothing. A turned-away phone, a removed one and a stranger still see nothing."""
    host, token = finished_game(phone)
    assert host_says(host, token, "/settings", {"approve_seats": "on"}).status_code == 200
    eve = phone().speaking("pl")
    assert add_me(eve, token, "Eve").status_code == 200
    assert not seat_of(app, token, "Eve")["approved"]
    mallory, gosia, stranger = phone(), phone(), phone()
    assert add_me(mallory, token, "Mallory").status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Mallory')['id']}/let-in",
                     {"answer": "no"}).status_code == 200
    assert add_me(gosia, token, "Gosia").status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Gosia')['id']}/let-in",
                     {"answer": "yes"}).status_code == 200
    assert host_says(host, token, f"/seats/{seat_of(app, token, 'Gosia')['id']}/remove").status_code == 200
    stranger.get(f"/t/{token}")
    # Eve's settlement offers the next games, without the table's token
    eves = board(eve, f"/t/{token}")
    assert next_links(eves) and all("after=" not in link for link in next_links(eves))
    # an `after` she sends anyway links nothing: the old table does not change
    before = host.board_change(token)
    assert eve.post("/new/kaques", {"player": list(NAMES), "after": token}, fetch=False).status_code == 303
    assert host.board_change(token) == before and card(board(eve, f"/t/{token}")) is None
    # the host's link does, and Eve's phone (in Polish) is shown the new table
    link = next_links(board(host, f"/t/{token}"))[0]
    game = urlsplit(link).path.rsplit("/", 1)[-1]
    assert parse_qs(urlsplit(link).query)["after"] == [token]
    opened = host.post(f"/new/{game}", {"player": list(NAMES), "after": token}, fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    shown = card(board(eve, f"/t/{token}"))
    assert shown and "Wieczór trwa dalej" in shown and f'href="/t/{new}"' in shown, shown
    # and the live board of her kind carries it too
    assert f'href="/t/{new}"' in eve.get(f"/t/{token}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    for nobody in (mallory, gosia, stranger):
        assert card(board(nobody, f"/t/{token}")) is None and new not in board(nobody, f"/t/{token}")


def form_value(page: str, key: str) -> str | None:
    """What the new-table form's field of a setting holds (a text field's value, the option
    selected, the choice checked); None where it holds nothing."""
    for field in re.findall(rf'<(?:input|select)[^>]*name="rule_{key}"[^>]*>(?:.*?</select>)?', page, re.S):
        if field.startswith("<select"):
            chosen = re.search(r'<option value="([^"]*)" selected', field)
            return chosen.group(1) if chosen else None
        if 'type="radio"' in field:
            if " checked" in field:
                return re.search(r'value="([^"]*)"', field).group(1)
            continue
        return re.search(r'value="([^"]*)"', field).group(1) or None
    return None


def link_to(page: str, game: str) -> str:
    return next(link for link in next_links(page) if urlsplit(link).path == f"/new/{game}")


def test_the_same_game_again_keeps_its_rules(app, phone):
    """A race to 100, continued from the settlement with the same game, was a race to 10,000 at
    the new table until the host changed it: the link fills the form with the finished game's
    rules, those that differ from the defaults only; the host can still change them."""
    host, token = finished_game(phone)
    link = link_to(board(host, f"/t/{token}"), "kaques")
    query = parse_qs(urlsplit(link).query)
    assert query["rule_target"] == ["100"] and query["player"] == list(NAMES), query
    form = board(host, link)
    assert form_value(form, "target") == "100"
    # opened as it came, the new table races to 100 too
    opened = host.post("/new/kaques", {"player": list(NAMES), "rule_target": form_value(form, "target")},
                       fetch=False)
    new = opened.headers["Location"].rsplit("/", 1)[-1]
    assert first_entry(host, new).status_code == 200 and 'data-finished="yes"' in board(host, f"/t/{new}")
    # the link names no setting at its default (it is in every finished board)
    assert [key for key in query if key.startswith("rule_")] == ["rule_target"]


def escalero_game(phone, **rules):
    """A one-column Escalero of two at 0.20 zł a point to its end: Ben scores, Anna does not."""
    host = phone().speaking("es")
    token = host.open_table("escalero", NAMES, **{"columns": 1, "stake": "0.20", "currency": "PLN", **rules})
    for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G"):
        for name in NAMES:
            value = (int(row) * 3 if row in "123456" else {"S": 20, "F": 30, "P": 40, "G": 50}[row]) \
                if name == "Ben" else 0
            assert host.enter(token, {"type": "score", "player": name, "column": 1, "row": row,
                                      "value": value}).status_code == 200
    return host, token


def test_a_stake_comes_back_with_the_same_game_and_only_the_currency_with_another(phone):
    """An Escalero at 0.20 zł a point came back at the default stake, in euros: the same game's
    link carries its stake, currency and columns; another game's its currency only (a stake per
    point is another thing in each game), and a game without money nothing."""
    host, token = escalero_game(phone)
    page = board(host, f"/t/{token}")
    same = board(host, link_to(page, "escalero"))
    # the stake as the phone's language writes it (a Spanish phone: "0,20"; "0.20" came back)
    assert (form_value(same, "stake"), form_value(same, "currency"), form_value(same, "columns")) == \
        ("0,20", "PLN", "1")
    assert form_value(board(phone(), link_to(page, "escalero")), "stake") == "0.20"  # an English one
    assert form_value(same, "straight") == "20"  # the default, as ever
    assert "rule_straight" not in link_to(page, "escalero")
    other = link_to(page, "yatzy")
    assert parse_qs(urlsplit(other).query).get("rule_currency") == ["PLN"] and "rule_stake" not in other
    form = board(host, other)
    assert form_value(form, "currency") == "PLN" and form_value(form, "stake") is None
    assert "rule_" not in link_to(page, "kaques")


def test_a_forged_setting_in_the_link_gives_the_form_with_its_default(client):
    """A link's setting the form would refuse, or one it does not have, is left out: the form
    shows the default, and never a 500."""
    junk = {"rule_target": "75", "rule_stake": "-1", "rule_currency": "$", "rule_columns": "5",
            "rule_double_grande": "maybe", "rule_dice_faces": "<b>", "rule_nonsense": "1",
            "rule_sweep_bonus": "9" * 100, "rule_straight": "25"}
    for game in ("kaques", "escalero"):
        response = client.get(f"/new/{game}", query_string={**junk, "player": ["Anna", "Ben"]})
        assert response.status_code == 200, game
        form = html.unescape(response.get_data(as_text=True))
        for key in ("target", "stake", "currency", "sweep_bonus"):
            assert form_value(form, key) is None, (game, key)
    form = html.unescape(client.get("/new/escalero", query_string=junk).get_data(as_text=True))
    assert form_value(form, "columns") == "3" and form_value(form, "double_grande") == "false"
    assert form_value(form, "dice_faces") == "numbers" and form_value(form, "straight") == "25"
    assert client.get("/new/kaques?rule_target=%00&rule_target=1e9").status_code == 200
