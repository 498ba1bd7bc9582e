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
