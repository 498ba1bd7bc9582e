"""A newcomer on a phone, in their own language: the start page, the new-table form, joining
by a typed code. Through Flask's client."""


def test_a_refused_code_stands_under_its_message_not_a_screen_below(phone):
    """A code typed wrong on the start page came back with its message at the top and the field,
    with what was typed, under the page's introduction: on a 320x568 phone the message said
    "check the letters" and the letters were off the screen. The introduction stays away when a
    code was refused: the message, then the field with the code as typed."""
    device = phone().speaking("es")
    intro = "Lleva la cuenta de la partida en tu mesa"
    assert intro in device.get("/").get_data(as_text=True)
    for typed in ("K7QM2O", ""):
        page = device.post("/join", {"code": typed}, fetch=False).get_data(as_text=True)
        assert "Revisa las letras" in page or "Escribe el código" in page
        assert intro not in page
        assert f'name="code" value="{typed}"' in page


def test_the_rules_are_a_tap_away_from_the_form_and_from_the_scanned_table(phone):
    """The rules pages were linked from the start page only: the new-table form asked for a
    variant, a deck, a sweep with no way to read what they mean, and a phone that scanned the
    QR code (a newcomer's way in, never past the start page) had no way to the rules at all.
    Both link the game's rules now, in the phone's language."""
    from scorekeeper.games import ENGINES
    device = phone().speaking("pl")
    for game in ENGINES:
        form = device.get(f"/new/{game}").get_data(as_text=True)
        assert f'class="rules-link" href="/rules/{game}"' in form, game  # a thumb high
        assert "Jak grać w" in form
    host = phone()
    token = host.open_table(list(ENGINES)[0], players=("Anna", "Ben"))
    scanned = phone().speaking("pl").get(f"/t/{token}").get_data(as_text=True)
    assert f'class="rules-link" href="/rules/{list(ENGINES)[0]}"' in scanned
    assert "Jak grać w" in scanned


def test_the_german_and_spanish_scribe_is_nobody_s_gender(phone):
    """Escalero's new-table form said in German "Einer schreibt nur und spielt nicht mit",
    "Name des Schreibers" and "spielt einer für zwei", and the seat "Anna (Schreiber)": a man,
    where the English, the Polish and the Spanish "una persona" say a person. Spanish said
    "uno juega por dos". They speak of a person now, as the scribe's seat does."""
    import re
    from scorekeeper.games import ENGINES
    game = next(name for name, engine in ENGINES.items()
                if "scribe" in phone().get(f"/new/{name}").get_data(as_text=True).split('name="seating"')[-1])
    de = phone().speaking("de")
    form = de.get(f"/new/{game}").get_data(as_text=True)
    assert "Eine Person schreibt nur und spielt nicht mit:" in form
    assert "spielt jemand für zwei" in form and 'placeholder="Wer schreibt?"' in form
    assert not re.search(r"Schreibers?\b|Einer |einer für", form)
    token = de.post(f"/new/{game}", {"player": ["Anna", "Ben"], "seating": "scribe", "scribe": "Cleo"},
                    fetch=False).headers["Location"].rsplit("/", 1)[-1]
    seat = phone().speaking("de").get(f"/t/{token}").get_data(as_text=True)
    assert "Cleo (schreibt)" in seat and "Schreiber" not in seat
    es = phone().speaking("es").get(f"/new/{game}").get_data(as_text=True)
    assert "alguien juega por dos" in es and "uno juega" not in es


def test_an_empty_seat_between_names_is_refused_with_the_names_kept(phone):
    """The form's names are the seat order, numbered, but an empty one between names was
    dropped and everyone after it moved a seat up: Euchre's partners typed opposite (seats 1
    and 3, seats 2 and 4 left for friends who scan) sat side by side, as opponents. It is
    refused in the phone's language, every name kept where it was typed; empty seats after
    the last name are still the friends' who scan."""
    import re
    from scorekeeper.games import ENGINES
    device = phone().speaking("pl")
    for game in ENGINES:
        response = device.post(f"/new/{game}", {"player": ["Anna", " ", "Ben", ""]}, fetch=False)
        page = response.get_data(as_text=True)
        assert response.status_code == 400, game
        assert "Miejsce 2 jest puste" in page
        assert re.findall(r'name="player" value="([^"]*)"', page)[:3] == ["Anna", " ", "Ben"]
        assert device.post(f"/new/{game}", {"player": ["Anna", "Ben", "", ""]}, fetch=False).status_code == 303
