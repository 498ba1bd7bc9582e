"""Light or dark: a phone that has made no choice with ◐ gets the look its own setting asks for
(prefers-color-scheme; dark when it says nothing, for a dim pub), from the first paint on. The
page always opened dark, whatever the phone said, until ◐ was tapped."""

from __future__ import annotations

import re

from tests.test_css_contrast import FOLLOW, LIGHT, SHEETS, rules


def test_the_page_names_no_theme_before_a_choice(client):
    """No theme of its own on the page: the sheets' follow-the-phone rules apply; and the browser's
    bar takes the page's colour for the phone's light look and its dark one."""
    page = client.get("/").get_data(as_text=True)
    html = re.search(r"<html[^>]*>", page).group(0)
    assert "data-theme" not in html, html
    bars = re.findall(r'<meta name="theme-color"[^>]*>', page)
    assert '<meta name="theme-color" content="#f5f5f2" media="(prefers-color-scheme: light)">' in bars, bars
    assert bars[-1] == '<meta name="theme-color" content="#14161a">', bars  # none said: the dark one


def light_rules(text: str) -> tuple[dict, dict]:
    """({scope: declarations} of the light theme chosen with ◐, the same of the light theme followed
    from the phone's setting), a scope being the selector without its theme's prefix."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    chosen, followed = {}, {}
    blocks = re.findall(r"@media\s*\(prefers-color-scheme:\s*light\)\s*\{((?:[^{}]*\{[^{}]*\})*)\s*\}", text)
    assert text.count(FOLLOW) == sum(block.count(FOLLOW) for block in blocks)  # none outside them
    for block in blocks:
        for selector, declarations in rules(block):
            for part in selector.split(","):
                if FOLLOW in part:
                    followed.setdefault(part.replace(FOLLOW, "").strip(), {}).update(declarations)
    for selector, declarations in rules(text):
        for part in selector.split(","):
            if LIGHT in part:
                chosen.setdefault(part.replace(LIGHT, "").strip(), {}).update(declarations)
    return chosen, followed


def test_every_light_rule_follows_the_phone_too():
    """Each sheet's light theme (the page's, each game's) is given twice, for a choice made with ◐
    and for the phone's own light look: the same colours in both, or a game's colours stay dark
    on a light page."""
    checked = 0
    for sheet in SHEETS:
        chosen, followed = light_rules(sheet.read_text())
        assert followed == chosen, sheet.name
        checked += bool(chosen)
    assert checked >= 4  # the page's and the games' with colours of their own
