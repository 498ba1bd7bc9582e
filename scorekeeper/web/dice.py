"""The dice pad every dice game's tray shares, on the server's side: the dice a tray's form
holds (templates/_dice_pad.html, static/dice.js)."""

from __future__ import annotations

from typing import Any

FACES = ("1", "2", "3", "4", "5", "6")


def read_dice(text: Any, most: int) -> tuple[int, ...]:
    """The dice a tray's `dice` field holds ("6,6,2"), at most `most`; anything else is left out.

    >>> read_dice("6,6,x,2,9", 5), read_dice(None, 5), read_dice("1,1,1,1,1,1", 5)
    ((6, 6, 2), (), (1, 1, 1, 1, 1))
    """
    faces = [part.strip() for part in str(text or "").split(",")[:12]]
    return tuple(int(face) for face in faces if face in FACES)[:most]


def indexes(values: Any, count: int) -> set[int]:
    """The dice a tray's checkboxes name (`keep=0&keep=3`), by their place among `count` dice."""
    found = set()
    for value in values or ():
        value = str(value)
        # a few digits: int() of 4,301 is a ValueError (a turn's `keep`: a 500)
        if value.isascii() and value.isdigit() and len(value) < 4 and int(value) < count:
            found.add(int(value))
    return found
