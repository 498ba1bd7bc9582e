"""Contrast read from the style sheets themselves, in the dark theme and the light one (WCAG 2 AA:
4.5:1 for text, 3:1 for a control's boundary), without a browser.

Every rule of static/*.css and of each game's own sheet that sets both a background and a colour
is text on a fill (a lit option, a chip, a banner, a badge): every pair of what its variables can
be in a theme must read at 4.5:1. A variable's values in a theme are those of each selector that
sets it, the light theme's own where it has one (`[data-theme="light"] …`, chosen with ◐, and
the same again as `:root:not([data-theme="dark"]) …` for a phone set to light). A colour the sheets
give as anything but a variable or #hex (inherit, color-mix) is not judged here; the board as
drawn is (tests/browser/test_accessibility.py)."""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHEETS = sorted([*ROOT.glob("static/*.css"), *ROOT.glob("scorekeeper/web/games/*/static/*.css")])
LIGHT = '[data-theme="light"]'
FOLLOW = ':root:not([data-theme="dark"])'  # in @media (prefers-color-scheme: light): no choice made


def luminance(colour: str) -> float:
    hexa = colour.lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    channels = [int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    hi, lo = sorted([luminance(a), luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def rules(text: str):
    """(selector, {property: value}) of every innermost rule (inside @media too)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        declarations = {}
        for declaration in body.split(";"):
            name, _, value = declaration.partition(":")
            if value.strip():
                declarations[name.strip()] = value.strip()
        yield selector.strip(), declarations


ALL_RULES = [rule for sheet in SHEETS for rule in rules(sheet.read_text())]


def definitions() -> dict:
    """{variable: {scope: {"dark": value, "light": value}}}, a scope being the selector without
    the light theme's prefix (the page's own, :root, is "")."""
    found: dict = {}
    for selector, declarations in ALL_RULES:
        for part in selector.split(","):
            theme = "light" if LIGHT in part or FOLLOW in part else "dark"
            scope = part.replace(LIGHT, "").replace(FOLLOW, "").replace(":root", "").strip()
            for name, value in declarations.items():
                if name.startswith("--"):
                    found.setdefault(name, {}).setdefault(scope, {})[theme] = value
    return found


DEFINED = definitions()


def values(value: str, theme: str, depth: int = 0) -> set:
    """The #hex colours `value` can be in `theme`; empty when it is no colour judged here."""
    value = value.split("!")[0].strip()
    if re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", value):
        return {value}
    named = re.fullmatch(r"var\((--[\w-]+)\)", value)
    if not named or depth > 5 or named.group(1) not in DEFINED:
        return set()
    found = set()
    for by_theme in DEFINED[named.group(1)].values():
        own = by_theme.get(theme, by_theme.get("dark"))
        if own is not None:
            found |= values(own, theme, depth + 1)
    return found


def text_on_fills(theme: str) -> list:
    """Every rule's text on its own fill under 4.5:1 in `theme`."""
    low = []
    for selector, declarations in ALL_RULES:
        fill = declarations.get("background", declarations.get("background-color"))
        if fill is None or "color" not in declarations:
            continue
        for text, behind in product(values(declarations["color"], theme), values(fill, theme)):
            if ratio(text, behind) < 4.5:
                low.append(f"{selector}: {text} on {behind} {ratio(text, behind):.2f}")
    return low


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_text_on_a_fill_reads_in_both_themes(theme):
    assert text_on_fills(theme) == []


def test_the_sheets_are_read():
    """The parse finds what it judges: the page's colours in both themes, and fills with text."""
    assert values("var(--text)", "dark") and values("var(--text)", "light") != values("var(--text)", "dark")
    assert sum(1 for _, d in ALL_RULES if "background" in d and "color" in d) > 20


def surfaces(theme: str) -> set:
    """What a field stands on: the page and a card."""
    return values("var(--bg)", theme) | values("var(--card)", theme)


def too_faint(colours: list[str], theme: str, least: float) -> list[str]:
    """Each of these colours (declared values: a var() or a colour) that reads under `least`
    to one on the page or a card, in this theme."""
    return [f"{given}: {colour} on {behind} {ratio(colour, behind):.2f}" for given in colours
            for colour, behind in product(values(given, theme), surfaces(theme)) if ratio(colour, behind) < least]


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_field_s_edge_shows_where_to_type(theme):
    """A text field's boundary is what identifies it (WCAG 1.4.11, 3:1): its fill is the page's
    own, so its border alone shows it on the page and on a card."""
    edges = [declarations["border"].split()[-1] for selector, declarations in ALL_RULES
             if "input" in [part.strip() for part in selector.split(",")] and "border" in declarations]
    assert edges and values(edges[0], theme)
    assert too_faint(edges, theme, 3) == []


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_field_s_hint_reads(theme):
    """A placeholder says what a field takes when left empty (the stake's 0, the currency): the
    sheets give it a colour of theirs, 4.5:1 on a field's fill (the browser's own grey, #757575,
    is 3.9:1 on the dark theme's field and 4.2 on the light one's)."""
    hints = [declarations["color"] for selector, declarations in ALL_RULES if "::placeholder" in selector and "color" in declarations]
    assert hints and values(hints[0], theme)
    assert too_faint(hints, theme, 4.5) == []


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_an_open_cell_s_sign_shows(theme):
    """The "+" drawn in a cell still to fill is what tells a cell to tap from an empty one
    (WCAG 1.4.11, 3:1): a colour of its own, not faded, on the page, a card, this phone's column
    and the turn's."""
    behind = surfaces(theme) | values("var(--mine)", theme) | values("var(--turn)", theme)
    signs = [(selector, declarations) for selector, declarations in ALL_RULES if declarations.get("content") == '"+"']
    assert signs
    for selector, declarations in signs:
        assert "opacity" not in declarations and values(declarations.get("color", ""), theme), selector
        assert [f"{c} on {b} {ratio(c, b):.2f}" for c, b in product(values(declarations["color"], theme), behind)
                if ratio(c, b) < 3] == [], selector


def test_a_focus_ring_stands_off_a_lit_box():
    """A box a tap lights (the accent fill and border) shows the keyboard's focus with a ring in
    the accent too: touching the box, the ring of a lit one merged with its fill and no focus
    showed. Every focus ring of the sheets stands off its box."""
    rings = [(selector, declarations) for selector, declarations in ALL_RULES
             if "focus-visible" in selector and "outline" in declarations]
    assert rings
    assert [selector for selector, declarations in rings if "outline-offset" not in declarations] == []
