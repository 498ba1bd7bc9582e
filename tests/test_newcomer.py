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
        assert f'href="/rules/{game}"' in form, game
        assert "Jak grać w" in form
    host = phone()
    token = host.open_table(list(ENGINES)[0], players=("Anna", "Ben"))
    scanned = phone().speaking("pl").get(f"/t/{token}").get_data(as_text=True)
    assert f'href="/rules/{list(ENGINES)[0]}"' in scanned
    assert "Jak grać w" in scanned
