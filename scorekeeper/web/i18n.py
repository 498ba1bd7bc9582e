"""Languages: which one a phone sees, every message translated, numbers and money in the
locale's format.

A phone gets the language it chose on the switcher (kept in its signed session), else the
best of its Accept-Language header; the header's region stays for formats, so an Austrian
phone reads German with Austrian money ("€ 1,50"). Messages come in two kinds, both looked
up here: `_()`/`ngettext()` in views and templates, and `Text` from the engines and the tables
service (translated with its values, see games/base.py). The page script says nothing of its
own: what it shows of the network comes rendered in the page (base.html, #net).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from babel import Locale, UnknownLocaleError, localedata
from babel.core import get_global
from babel.dates import format_date, format_datetime, format_time
from babel.lists import format_list
from babel.numbers import format_currency, format_decimal
from flask import Blueprint, Flask, current_app, g, redirect, request, session, url_for
from flask_babel import Babel, get_locale, get_translations

from ..games.base import Both, Either, Plural, Term, Text
from ..games.settle import round_half_away
from ..service import sentence

LANGUAGES = {"en": "English", "de": "Deutsch", "pl": "Polski", "es": "Español"}
SOURCE = "en"  # the language the messages are written in: it has no catalog

bp = Blueprint("i18n", __name__)


# --- which language ----------------------------------------------------------------------------


def _parse(tag: str) -> Locale | None:
    try:
        return Locale.parse(tag.replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):
        return None


def select_locale() -> str:
    """The device's choice, else the first language of its header that we have; a region
    the header names for that language is kept (de_AT formats money as Austria does), else
    the region of the header's first language where that language is spoken there too (an
    Austrian phone switched to English reads "29/11/2026, 20:57" and "€ 1.234,50", en_AT, not
    the United States' "11/29/26, 8:57 PM")."""
    header = [locale for locale in (_parse(tag) for tag, _ in request.accept_languages) if locale]
    chosen = session.get("lang")
    if chosen not in LANGUAGES:
        found = next((locale for locale in header if locale.language in LANGUAGES), None)
        if found is not None:
            return str(found)
        chosen = SOURCE
    regional = [loc for loc in header if loc.language == chosen and loc.territory]
    if regional:
        return str(regional[0])
    territory = next((loc.territory for loc in header if loc.territory), None)
    return _spoken_in(chosen, territory) if territory else chosen


@lru_cache(maxsize=256)
def _spoken_in(language: str, territory: str) -> str:
    """`language` as written in `territory` when CLDR knows it there ('en', 'AT': 'en_AT'),
    else the language alone ('de', 'US': 'de')."""
    return f"{language}_{territory}" if localedata.exists(f"{language}_{territory}") else language


def language() -> str:
    """The two-letter language of this request ('de' for de_AT)."""
    return get_locale().language


def html_lang() -> str:
    """The page's lang attribute: 'de-AT'."""
    return str(get_locale()).replace("_", "-")


# --- messages ----------------------------------------------------------------------------------


def _catalog() -> tuple[Any, bool]:
    """This request's catalog, and whether a message it lacks is noted (`_note_missing`),
    asked once a request: asking flask_babel each time cost ~15 µs (its context, domain and
    locale looked up again), against 0.2 µs for the lookup itself, and a board asks for dozens
    of messages (issue 26)."""
    found = g.get("i18n_catalog")
    if found is None:
        strict = bool(current_app.config.get("I18N_STRICT")) and language() != SOURCE
        found = g.i18n_catalog = (get_translations(), strict)
    return found


def _lookup(msgid: str, context: str | None = None) -> str:
    translations, strict = _catalog()
    if context is not None:
        translated = translations.upgettext(context, msgid)
        key = f"{context}\x04{msgid}"
    else:
        translated = translations.ugettext(msgid)
        key = msgid
    if strict:
        _note_missing(translations, key)
    return translated


def _lookup_plural(singular: str, plural: str, n: int, context: str | None = None) -> str:
    translations, strict = _catalog()
    if context is not None:
        translated = translations.unpgettext(context, singular, plural, n)
        key = (f"{context}\x04{singular}", 0)
    else:
        translated = translations.ungettext(singular, plural, n)
        key = (singular, 0)
    if strict:
        _note_missing(translations, key)
    return translated


def _note_missing(translations, key) -> None:
    """With I18N_STRICT (the tests), a message the current catalog lacks is recorded in
    app.extensions["i18n.missing"]: pages render on, and the test fails."""
    catalog = getattr(translations, "_catalog", {})
    if not catalog.get(key):
        missing = current_app.extensions.setdefault("i18n.missing", set())
        missing.add((language(), key if isinstance(key, str) else key[0]))


def _format(template: str, values: dict[str, Any]) -> str:
    return template % values if values else template


def _(message: str, /, **values: Any) -> str:
    """The message in this request's language, its %(name)s holes filled."""
    return _format(_lookup(message), {k: localize(v) for k, v in values.items()})


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    values.setdefault("num", n)
    return _format(_lookup_plural(singular, plural, n), {k: localize(v) for k, v in values.items()})


def pgettext(context: str, message: str, /, **values: Any) -> str:
    return _format(_lookup(message, context), {k: localize(v) for k, v in values.items()})


def npgettext(context: str, singular: str, plural: str, n: int, /, **values: Any) -> str:
    values.setdefault("num", n)
    return _format(_lookup_plural(singular, plural, n, context), {k: localize(v) for k, v in values.items()})


def translate(message: Any) -> str:
    """A Text (or an error carrying one) in this request's language, values included; any
    other value as text. A translation whose holes do not fit shows the English instead."""
    text = getattr(message, "text", message)
    if not isinstance(text, Text):
        return localize(text)
    values = {key: localize(value) for key, value in text.values.items()}
    try:
        if isinstance(text, Plural):
            return _format(_lookup_plural(text.template, text.plural, text.n), values)
        return _format(_lookup(text.template), values)
    except (KeyError, ValueError, TypeError):
        return str(text)


def say(message: Any) -> str:
    """A refusal or other message as the sentence a player reads."""
    return sentence(translate(message))


def localize(value: Any) -> str:
    """One value of a message in this request's locale."""
    if isinstance(value, Text):
        return translate(value)
    if isinstance(value, Term):
        return _lookup(value.shown, value.context) if value.context else value.shown
    if isinstance(value, Either):
        return format_list([localize(v) for v in value], style="or", locale=get_locale())
    if isinstance(value, Both):
        return format_list([localize(v) for v in value], locale=get_locale())
    if isinstance(value, (int, float, Decimal, Fraction)) and not isinstance(value, bool):
        return number(value)
    return str(value)


# --- numbers and money ----------------------------------------------------------------------------


def _digits(value: Any):
    """A decimal context wide enough for `value`: Babel rounds within the current one, which
    holds 28 digits, and a number typed with forty nines must not end in a 500."""
    try:
        size = Decimal(value).adjusted()  # the power of ten of its first digit
    except (TypeError, ValueError, ArithmeticError):
        size = 0
    return localcontext(prec=max(28, size + 10))


def number(value: Any, signed: bool = False) -> str:
    """1234.5 as '1.234,5' in German; with `signed`, '+' before a positive number."""
    return _number(value, signed, str(get_locale()))


def money(amount: Any, currency: str | None = None, signed: bool = False) -> str:
    """An amount in units ("1.50", a Decimal) as the locale writes money: '1,50 €' in German,
    '€ 1,50' in Austria; without a currency, just the figure with two decimals."""
    return _money(amount, currency, signed, str(get_locale()))


# CLDR's minimumGroupingDigits where it is not 1, which Babel does not apply: Spanish and Polish
# write 2000 and 2000,00 € (four digits are not grouped), and 12.000, 12 000 from five digits on;
# Latin American Spanish (es_419, the parent of es_MX, es_AR…) groups from four as English does.
# A locale takes the value of its nearest ancestor listed (es_ES that of es).
MINIMUM_GROUPING_DIGITS = {"es": 2, "es_419": 1, "pl": 2}


@lru_cache(maxsize=64)
def minimum_grouping_digits(locale: str) -> int:
    """CLDR's minimumGroupingDigits of a locale ('es_ES' -> 2, 'es_MX' -> 1, 'de_AT' -> 1)."""
    parents = get_global("parent_exceptions")
    tag: str | None = locale
    while tag:
        if tag in MINIMUM_GROUPING_DIGITS:
            return MINIMUM_GROUPING_DIGITS[tag]
        tag = parents.get(tag) or (tag.rsplit("_", 1)[0] if "_" in tag else None)
    return 1


def _grouped(write, locale: str) -> str:
    """`write(group_separator)`'s text, grouped as the locale groups: a number whose whole part
    has fewer digits than three plus the locale's minimum grouping digits is left ungrouped
    (counted as written, after rounding: 9999.996 is '10 000,00 €' in Polish)."""
    least = minimum_grouping_digits(locale)
    if least > 1:
        plain = write(False)
        if _whole_digits(plain) < 3 + least:
            return plain
    return write(True)


def _whole_digits(text: str) -> int:
    """How many digits the first number of an ungrouped text has before its decimal mark."""
    count = 0
    for char in text:
        if char.isdigit():
            count += 1
        elif count:
            break
    return count


# Performance (bench/, issue 18): a board shows the same few numbers again and again (points,
# money, column sums, clock times), and Babel takes tens of microseconds for each: each is
# formatted once per process and locale

@lru_cache(maxsize=8192, typed=True)
def _number(value: Any, signed: bool, locale: str) -> str:
    if isinstance(value, Fraction):
        value = Decimal(round_half_away(value * 100)) / 100
    with _digits(value):
        text = _grouped(lambda group: format_decimal(value, locale=locale, group_separator=group), locale)
    return f"+{text}" if signed and value > 0 else text


@lru_cache(maxsize=8192, typed=True)
def _money(amount: Any, currency: str | None, signed: bool, locale: str) -> str:
    value = Decimal(str(amount))

    def write(group: bool) -> str:
        if currency:
            try:
                return format_currency(value, currency, locale=locale, group_separator=group)
            except (ValueError, KeyError):
                return f"{format_decimal(value, format='#,##0.00', locale=locale, group_separator=group)} {currency}"
        return format_decimal(value, format="#,##0.00", locale=locale, group_separator=group)

    with _digits(value):
        text = _grouped(write, locale)
    return f"+{text}" if signed and value > 0 else text


def cents(value: Any, currency: str | None = None, signed: bool = False) -> str:
    """Cents (an int, or a Fraction: a team member's share) as money."""
    return money(Decimal(round_half_away(Fraction(value))) / 100, currency, signed)


def when(iso_text: Any, with_time: bool = False) -> str:
    """A stored time ("2025-03-05T20:15:07+00:00") as the locale writes a short date: '3/5/25',
    '05.03.25'; `with_time` adds the hour and minute ('3/5/25, 8:15 PM', '05.03.25, 20:15').
    Digits only, no month names: they fit a phone's line in every language. A text that is no
    time (an imported log's `started_at` of "last Friday", or of 50,000 letters) is no date, as
    it is no time in a history row (`clock`)."""
    moment = _moment(iso_text)
    if moment is None:
        return ""
    if with_time:
        return format_datetime(moment, "short", tzinfo=moment.tzinfo, locale=get_locale())
    return format_date(moment, "short", locale=get_locale())


def clock(iso_text: Any) -> str:
    """Just the time of day of a stored time, as the locale writes it ('8:15 PM', '20:15'), on
    the server's clock (the pub's); "" where none is known.

    An entry made here carries the moment it was made. An imported log's entry carries the time
    it was played where the log gives one (`at`); where it gives none, none is known: its row
    shows no time at all rather than a clock time that is really when the log was imported
    (which read as "played at 17:07" under a game played the night before), and the game's
    heading says when it was imported and that its log does not say when it was played
    (web/history.py, `played_from`). An `at` that is no time ("last Friday": the log format only
    asks for text) is no time either, rather than itself, unchecked, in the row."""
    return _clock(iso_text, str(get_locale()))


@lru_cache(maxsize=8192, typed=True)
def _clock(iso_text: Any, locale: str) -> str:
    moment = _moment(iso_text)
    if moment is None:
        return ""
    return format_time(moment, "short", tzinfo=moment.tzinfo, locale=locale)


def _moment(iso_text: Any) -> datetime | None:
    """A stored time (UTC) on the server's clock, which is the pub's; None for anything else."""
    try:
        moment = datetime.fromisoformat(str(iso_text))
        # an imported log's time at the calendar's edge ("9999-12-31T23:59:59-12:00") has no
        # moment on the server's clock: OverflowError, a 500 of its table and its players' pages
        return moment.astimezone() if moment.tzinfo is not None else moment
    except (ValueError, OverflowError):
        return None


# --- choosing a language ----------------------------------------------------------------------------


@bp.post("/language")
def choose():
    """The switcher: the device keeps its language; back to the page it was on."""
    chosen = request.form.get("lang", "")
    if chosen in LANGUAGES:
        session["lang"] = chosen
        session.permanent = True
    target = request.form.get("next", "")
    parts = urlsplit(target)
    if not target.startswith("/") or target.startswith("//") or parts.scheme or parts.netloc:
        target = url_for("pages.index")
    return redirect(target, 303)


def _vary(response):
    response.vary.add("Accept-Language")
    return response


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    app.after_request(_vary)
    # our lookups in templates too, so the strict mode of the tests sees every message; Jinja
    # fills the holes itself, escaping the values
    app.jinja_env.install_gettext_callables(
        _lookup, _lookup_plural, newstyle=True,
        pgettext=lambda context, message: _lookup(message, context),
        npgettext=lambda context, singular, plural, n: _lookup_plural(singular, plural, n, context))
    app.jinja_env.globals.update(
        tr=translate, number=number, money=money, cents=cents, when=when, clock=clock, languages=LANGUAGES,
        language=language, html_lang=html_lang)
    app.jinja_env.filters.update(tr=translate, number=number)
