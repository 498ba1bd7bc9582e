"""The words a first-time player reads at a pub, in each language: the start page, a game's
rules, the new-table form, the board of a table just opened. Rendered through Flask's client,
the language chosen on the switcher."""

import html
import re

import pytest

from scorekeeper.games import ENGINES


def text(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def legends(page):
    return [text(legend) for legend in re.findall(r"<legend>(.*?)</legend>", page, re.S)]


@pytest.mark.parametrize("lang, legend, not_said", [
    ("en", "Rules and stake", "payout key"),
    ("de", "Regeln und Einsatz", "Schlüssel"),
    ("pl", "Zasady i stawka", None),
    ("es", "Reglas y apuesta", None),
])
def test_the_fieldset_of_the_stake_is_named_for_the_stake(phone, lang, legend, not_said):
    """The new-table form's fieldset of the rules, the stake and the currency was headed "Rules
    and payout key", in German "Regeln und Schlüssel": a key that means nothing to a first-time
    player. It names what is in it, the rules and the stake; a game without money keeps "Rules"."""
    device = phone().speaking(lang)
    staked = {game: "stake" in engine.settings for game, engine in ENGINES.items()}
    assert True in staked.values() and False in staked.values()
    for game, stake in staked.items():
        page = device.get(f"/new/{game}").get_data(as_text=True)
        assert (legend in legends(page)) == stake, game
        if not_said:
            assert not_said not in text(page)


def test_spanish_escalero_speaks_of_points_not_of_a_starting_point(phone):
    """Spanish Escalero asked for an "Apuesta por punto de partida" and its rules said the
    columns are worth "1, 2 y 4 puntos de partida": "punto de partida" is a starting point. The
    form asks for an "Apuesta por punto" and the rules' columns are worth points."""
    device = phone().speaking("es")
    form = text(device.get("/new/escalero").get_data(as_text=True))
    rules = text(device.get("/rules/escalero").get_data(as_text=True))
    assert "Apuesta por punto" in form
    assert "Las columnas valen 1, 2 y 4 puntos." in rules
    assert "de partida" not in form + rules


def test_spanish_kaques_standings_say_who_throws_in_a_sentence(phone):
    """The Spanish standings of Jaques le Kaques marked the player on turn "Anna su turno",
    words with no verb that read as broken Spanish; they say "Anna tira", as Escalero's
    "Tira Anna" does."""
    device = phone().speaking("es")
    token = device.open_table("kaques", players=("Anna", "Ben"))
    board = text(device.get(f"/t/{token}").get_data(as_text=True))
    assert "Anna tira" in board
    assert "su turno" not in board


@pytest.mark.parametrize("lang, said, show", [
    ("en", "Friends join from their own phones: they scan the QR code or type the code {code} on the start page.",
     "Show the QR code"),
    ("de", "Freunde kommen mit dem eigenen Handy dazu: QR-Code scannen oder auf der Startseite den Code {code} eingeben.",
     "QR-Code zeigen"),
    ("pl", "Znajomi dołączają ze swoich telefonów: skanują kod QR albo wpisują kod {code} na stronie głównej.",
     "Pokaż kod QR"),
    ("es", "Tus amigos se unen desde sus móviles: escanean el código QR o escriben el código {code} en la página de inicio.",
     "Mostrar el código QR"),
])
def test_a_host_who_just_opened_a_table_is_told_how_friends_join(phone, lang, said, show):
    """A host who had just opened a table read "Are you playing too? Take your seat" over the
    board, and nothing said how the friends at the table get in: the QR code stood at the foot of
    a page some 2,000 px long, under the pad and the seats, and the code in the header was not
    said to be one to type. The host's card says it, with a link down to the QR code; a friend's
    card does not."""
    host = phone().speaking(lang)
    token = host.open_table("escalero", players=("Anna", "Ben"))
    page = host.get(f"/t/{token}").get_data(as_text=True)
    code = re.search(r'class="code">(\w+)<', page).group(1)
    join = page[page.index('id="join"'):page.index("</section>", page.index('id="join"'))]
    assert said.format(code=code) in text(join)
    assert re.search(rf'<a class="button small" href="#invite">{show}</a>', join)
    friend = phone().speaking(lang).get(f"/t/{token}").get_data(as_text=True)
    assert said.format(code=code) not in text(friend)


@pytest.mark.parametrize("lang, quoted", [("de", "„EURO1“"), ("pl", "„EURO1”"), ("es", "«EURO1»")])
def test_a_currency_refused_on_the_new_table_form_is_quoted_as_the_stake_is(phone, lang, quoted):
    """A first-time host types "€" as the currency: the table opens in EUR (it was refused,
    afbc061); what is no currency is refused with what was typed in the language's quotes, as
    the stake's refusal on the same form quotes its own (it read English quotes beside „0,50“)."""
    host = phone().speaking(lang)
    opened = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_currency": "€"}, fetch=False)
    assert opened.status_code == 303
    response = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_currency": "EURO1"}, fetch=False)
    assert response.status_code == 400
    said = text(response.get_data(as_text=True))
    assert quoted in said
    assert '"EURO1"' not in said and "'EURO1'" not in said
