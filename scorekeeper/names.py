"""Players' names as people read them: one spelling per name, and no two names at a table that
look the same.

A name is NFKC-normalised (full-width ＡＮＮＡ is ANNA), and loses invisible and direction-control
characters (a zero-width space, a right-to-left override that shows "\u202eannA" as "Anna").
Two names are one when their skeletons match: the name cased down, accents dropped and every
character that looks like another replaced by it (a Cyrillic А is a Latin A), as Unicode's
TR39 confusable detection does, from the tables of the `confusable-homoglyphs` package.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables


def clean_name(raw: str) -> str:
    """The name as stored: NFKC, without format and control characters, spaces collapsed.

    >>> clean_name("  Anna\\u200b "), clean_name("\\u202eannA"), clean_name("ＡＮＮＡ")
    ('Anna', 'annA', 'ANNA')
    """
    text = unicodedata.normalize("NFKC", raw)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc", "Co", "Cs"))
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def _look_alike(ch: str) -> str:
    """The character that stands for every character looking like `ch`: a plain ASCII one
    when there is one among them."""
    found = confusables.confusables_data.get(ch) or ()
    candidates = [ch, *(glyph["c"] for glyph in found if len(glyph["c"]) == 1)]
    ascii_ones = [c for c in candidates if c.isascii()]
    return min(ascii_ones) if ascii_ones else min(candidates)


def skeleton(name: str) -> str:
    """What a name looks like: the same for "Anna", "аnnа" (Cyrillic) and "Ánna".

    >>> skeleton("Anna") == skeleton("Аnna") == skeleton("A\\u0301nna") == skeleton("ANNA")
    True
    >>> skeleton("Anna") == skeleton("Anne")
    False
    """
    text = unicodedata.normalize("NFD", clean_name(name).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "".join(_look_alike(ch) for ch in text).casefold()
