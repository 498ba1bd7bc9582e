"""Escalero by keyboard and screen reader through Flask's test client: what the markup must
carry for the focus to keep its place when the server swaps the tray in."""

import re


def test_served_keeps_the_focus_when_the_tray_comes_again(phone):
    """Space on "served" asks for the tray again, and the box went with the tray it was in: the
    focus fell back to the tray's top ("Your turn!"), and the keyboard player had to Tab past
    the thrown dice again to reach the options. The box has an id the new tray keeps (htmx
    gives a focus back by id), served or not."""
    host = phone()
    token = host.open_table("escalero", ("Anna", "Ben", "Cleo"))
    anna = phone()
    anna.join(token, "Anna")
    for served in ("", "1"):
        tray = anna.tray(token, dice="6,6,6,6,6", served=served)
        box = re.search(r'<input type="checkbox" name="served"[^>]*>', tray)[0]
        assert re.search(r'\bid="served"', box), box
        assert ("checked" in box) == bool(served)
        assert tray.count('id="served"') == 1
