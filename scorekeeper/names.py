"""Players' and teams' names as people read them: one spelling per name, and no two names at a
table that look the same.

A name is NFKC-normalised (full-width ＡＮＮＡ is ANNA), and loses what a screen does not show:
format and control characters (a zero-width space, a right-to-left override that shows
"\u202eannA" as "Anna"), Unicode's default-ignorable code points (variation selectors, the
combining grapheme joiner, Khmer's inherent vowels, the Hangul fillers) and blank glyphs (the
braille blank).

Two names are one when they look the same (`look_alike`). Unicode's TR39 compares skeletons:
each character replaced by the prototype of the characters that look like it (a Cyrillic А is
a Latin A, I and 1 are l, 0 is O, m is rn), from the tables of the `confusable-homoglyphs`
package, and a few multi-character look-alikes TR39 lacks (VV is W, cl is d). TR39 maps
before anything else, so the skeleton is case-sensitive ("AIi" is "Ali", "Ian" is not "Lan");
names are also compared cased down ("ANNA" is "Anna", "B0b" is "Bob"), mapping only one
character to one there (cased down, "dara" would look like "clara"). Accents are dropped in
both: "Ole" and "Olé" are one name at a table.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15): never shown
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# blank glyphs that are neither spaces nor default-ignorable: the braille blank, Khitan's filler
BLANKS = frozenset({"\u2800", "\U00016FE4"})
# format, control, private-use and surrogate characters (not unassigned ones: a phone newer
# than this server's Unicode may show them, and the reserved default-ignorables are above)
DROPPED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs"})
# look-alikes of more than one character that TR39 lacks (it has m → rn): each character
# becomes the sequence it looks like, as TR39's prototypes do
SEQUENCES = {"W": "VV", "w": "vv", "d": "cl"}


def _invisible(ch: str) -> bool:
    if ch in BLANKS or unicodedata.category(ch) in DROPPED_CATEGORIES:
        return True
    point = ord(ch)
    return any(first <= point <= last for first, last in DEFAULT_IGNORABLE)


def clean_name(raw: str) -> str:
    """The name as stored: NFKC, without invisible characters, spaces collapsed.

    >>> clean_name("  Anna\\u200b "), clean_name("\\u202eannA"), clean_name("ＡＮＮＡ")
    ('Anna', 'annA', 'ANNA')
    >>> [clean_name("Anna" + ch) for ch in "\\u3164\\uffa0\\u115f\\u2800\\u034f\\u17b4\\ufe0f"]
    ['Anna', 'Anna', 'Anna', 'Anna', 'Anna', 'Anna', 'Anna']
    """
    text = unicodedata.normalize("NFKC", raw)
    text = "".join(ch for ch in text if not _invisible(ch))
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """The package's confusables: for each line `source → prototype` of TR39's confusables.txt
    it lists the prototype under the source and the source under the prototype (right-to-left
    characters wrapped in left-to-right marks, which are dropped here)."""
    table: dict[str, set[str]] = {}
    for key, glyphs in confusables.confusables_data.items():
        key = key.replace("\u200e", "").replace("\u200f", "")
        table.setdefault(key, set()).update(g["c"].replace("\u200e", "").replace("\u200f", "") for g in glyphs)
    return {key: tuple(sorted(found)) for key, found in table.items()}


@lru_cache(maxsize=8192)
def _prototype(ch: str) -> str:
    """What `ch` looks like: its TR39 prototype (one character or more; itself if none).

    A source character lists one prototype; a prototype lists its sources. A prototype is
    never a source, so a character listing one other that lists several is its source; two
    that list only each other stand for each other, and the smaller one is taken for both.

    >>> _prototype("I"), _prototype("1"), _prototype("l"), _prototype("0"), _prototype("m"), _prototype("а")
    ('l', 'l', 'l', 'O', 'rn', 'a')
    """
    table = _table()
    found = table.get(ch, ())
    if len(found) != 1 or found[0] == ch:
        return ch
    other = found[0]
    if len(other) > 1 or len(table.get(other, ())) > 1:
        return other
    return min(ch, other)


def _unmarked(text: str) -> str:
    """Decomposed, without combining marks (accents)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def _mapped(text: str, sequences: bool) -> str:
    text = "".join(_prototype(ch) for ch in _unmarked(text))
    if sequences:
        text = "".join(SEQUENCES.get(ch, ch) for ch in text)
    return _unmarked(text)


@lru_cache(maxsize=4096)
def skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, twice: TR39's skeleton (case-sensitive, multi-character
    look-alikes included) and the name cased down, then mapped one character to one.

    >>> skeletons("Sam") == skeletons("Sarn"), skeletons("AIi")[0] == skeletons("Ali")[0]
    (True, True)
    """
    text = clean_name(name)
    return _mapped(text, sequences=True), _mapped(text.casefold(), sequences=False).casefold()


def skeleton(name: str) -> str:
    """One spelling for a name and every spelling of it in another case or script: the name
    cased down, without accents, each character mapped to what it looks like.

    >>> skeleton("Anna") == skeleton("Аnna") == skeleton("A\\u0301nna") == skeleton("ANNA")
    True
    >>> skeleton("Anna") == skeleton("Anne")
    False
    """
    return skeletons(name)[1]


def look_alike(first: str, second: str) -> bool:
    """Whether two names look the same: either skeleton matches.

    >>> pairs = [("Ali", "AIi"), ("Sam", "Sarn"), ("Wim", "VVim"), ("Ted", "Tecl"), ("Bob", "B0b"),
    ...          ("Anna", "ANNA"), ("Anna", "Anna\\u3164")]
    >>> [look_alike(a, b) for a, b in pairs]
    [True, True, True, True, True, True, True]
    >>> [look_alike(a, b) for a, b in [("Ann", "Anna"), ("Ian", "Lan"), ("Clara", "Dara"), ("Tom", "Tim")]]
    [False, False, False, False]
    """
    return any(a == b for a, b in zip(skeletons(first), skeletons(second)))
