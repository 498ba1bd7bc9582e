"""The start page: opening a table, joining one by its code, this phone's tables; each game's rules page."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

from babel.numbers import format_decimal
from flask import Blueprint, abort, redirect, render_template, request
from flask_babel import get_locale

from .. import metrics, service
from ..games import ENGINES
from ..games.base import CHOOSE, TYPE, RuleError, SettingText, currency_code, money, parse_rules
from .context import table_url
from .db import get_db, hub
from .i18n import _, say
from .security import client_address, device_id, known_device
from .writes import MAX_FIELD, field

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", mine=my_tables())


def my_tables() -> list[tuple[dict, service.Played, int]]:
    """This device's tables (hosted or seated), each with its current game and how many it
    has had. The session's device id is read, never made: a first visit has none."""
    device = known_device()
    if device is None:
        return []
    db = get_db()
    out = []
    for table in service.tables_of(db, device):
        games = service.games_of(db, table["id"])
        out.append((table, service.load(db, games[-1]), len(games)))
    return out


@bp.get("/rules/<game>")
def rules(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    return render_template(f"games/{game}/rules.html", engine=engine)


# --- opening a table --------------------------------------------------------------------


NAME_FIELDS = 8  # name fields on the form of a game whose seats are not one number


# the games by name, for every page that lists or names them (the start page, a player's, a
# settlement's "another game with the same names")
bp.add_app_template_global(ENGINES, "engines")


def _form_text(value) -> str:
    """A rule's value as the new-table form writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _currency_key(engine) -> str | None:
    return next((key for key, setting in engine.settings.items() if setting.check is currency_code), None)


@bp.app_template_global("next_rules")
def next_rules(played: service.Played) -> dict[str, dict[str, str]]:
    """The settlement's links to each game's new-table form, past the names (by game): the
    finished game's rules as that form takes them (`rule_<key>`), for the same game — a race to
    100 came back a race to 10,000, a stake of 0.20 at the default —, as a rematch would have
    them (the first deal moved on), each setting of the form that differs from its default only
    (the links are in every finished board); for another game only the currency (a stake per
    point is another thing in each game)."""
    mine = played.engine
    try:
        rules = parse_rules(mine.rematch_rules(played.state) if mine.rematch_rules and played.state is not None
                            else played.header.get("rules"), mine.settings)
    except (RuleError, TypeError, ValueError, KeyError, AttributeError):
        return {name: {} for name in ENGINES}
    ours = _currency_key(mine)
    carried = {}
    for name, engine in ENGINES.items():
        theirs = _currency_key(engine)
        carried[name] = {} if not theirs or not ours or rules.get(ours) == engine.settings[theirs].default \
            else {f"rule_{theirs}": _form_text(rules[ours])}
    carried[mine.name] = {f"rule_{key}": _form_text(rules[key]) for key, setting in mine.settings.items()
                          if setting.offered and key in rules and rules[key] is not None
                          and rules[key] != setting.default_for(rules)}
    return carried


def carried_values(engine, args) -> dict[str, str]:
    """The settings a link to the form fills it with (`rule_<key>`, as `next_rules` makes them),
    each only as the form would take it: a value it would refuse, a name the form has no
    setting for or a choice it does not offer is left out (the form shows the default)."""
    kept: dict[str, str] = {}
    currency = _currency_key(engine)
    # the currency first: a stake is read in it
    for key in sorted(engine.settings, key=lambda key: key != currency):
        setting, text = engine.settings[key], args.get(f"rule_{key}", "")[:MAX_FIELD].strip()
        if not text or not setting.offered or (isinstance(setting.default, bool) and text not in ("true", "false")):
            continue
        try:
            typed = rules_from_form(engine, kept | {key: text})
        except service.Refused:
            continue
        if key in typed:
            kept[key] = _form_text(typed[key])
    # a stake as the phone's language writes a number ("0,10" on a German phone, where the
    # host had typed it so: "0.10" came back), read as typed when the form is sent
    return {key: format_decimal(Decimal(text), format="0.00##", locale=str(get_locale()))
            if engine.settings[key].check is money else text for key, text in kept.items()}


@bp.get("/new/<game>")
def new(game: str):
    """The form; `?player=` names fill it (the next game of the evening, from a settlement), and
    `?rule_<key>=` its settings (the finished game's: `next_rules`)."""
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    names = [name[:MAX_FIELD] for name in request.args.getlist("player")][: service.MAX_SEATS]
    # `after`: the join token of the table whose settlement linked here (service.follow_on)
    values = carried_values(engine, request.args)
    form = new_form(engine, values | {"after": request.args.get("after", "")[:MAX_FIELD]}, names)
    try:
        _check_seats(engine, given(engine, values), names)
    except service.Refused as refusal:
        form["seats_note"] = say(refusal)
    return render_template("new.html", **form)


@bp.post("/new/<game>/form")
def new_again(game: str):
    """The form again for the choices made on it so far (a form of the game chosen: its own
    settings and as many names as it seats), with what was typed kept; writes nothing."""
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    names, values = posted_form(engine)
    form = new_form(engine, values, names)
    try:
        _check_seats(engine, given(engine, values), names)
    except service.Refused as refusal:
        form["seats_note"] = say(refusal)  # said at once, beside the names
    return render_template("_new_form.html", **form)


@bp.post("/new/<game>")
def create(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    names, values = posted_form(engine)
    try:
        rules = rules_from_form(engine, values)
        _check_seats(engine, rules, names)
        _check_order(names)
        table = service.create_table(get_db(), device_id(), game, rules, names,
                                     scribe=values["scribe"] if values["seating"] == "scribe" else None,
                                     address=client_address())
    except service.Refused as refusal:
        metrics.refused(refusal)
        refusal = as_the_form_says(engine, refusal, values)
        # the setting refused opens in view, focused (the message stays on top): a form's last
        # setting is 1,400 px below the message on a phone
        return render_template("new.html", **new_form(engine, values, names), message=say(refusal),
                               refused=getattr(refusal, "setting", None)), refusal.status, refusal.headers()
    # opened from a settlement: the table it came from shows its phones the way here (a forged
    # or a stranger's `after` links nothing, and says nothing: service.follow_on)
    linked = service.follow_on(get_db(), device_id(), values["after"], table)
    if linked is not None:
        hub().notify(linked)
        service.sit_as_before(get_db(), device_id(), linked, table)
    return redirect(table_url("table.table", table), 303)


def posted_form(engine) -> tuple[list[str], dict[str, str]]:
    """The names and the form's values (each setting's, and how the table is seated) as posted."""
    names = [n[:MAX_FIELD] for n in request.form.getlist("player")][: service.MAX_SEATS + 1]
    values = {key: field(f"rule_{key}") for key in engine.settings}
    return names, values | {"seating": field("seating"), "scribe": field("scribe"), "after": field("after")}


def new_form(engine, values: dict[str, str], names: list[str]) -> dict:
    """What the new-table form shows for the choices made so far: the settings that exist
    under them (Railroad's laps only when Railroad is chosen), the settings others depend on
    (choosing one asks for the form again), and a name field for every seat the choices make
    (all of them for a game that seats any number), never dropping a name already typed."""
    settings = engine.settings
    rules = given(engine, values)
    chosen = {setting.depends: rules.get(setting.depends, settings[setting.depends].default)
              for setting in settings.values() if setting.depends}
    seats = engine.seats(rules) if engine.seats else NAME_FIELDS
    while names and not names[-1].strip():
        names = names[:-1]
    return {"engine": engine, "values": values, "names": names + [""] * (seats - len(names)),
            "settings": [(key, setting) for key, setting in settings.items()
                         if setting.offered and setting.applies(chosen)],
            "asks_again": {setting.depends for setting in settings.values() if setting.depends}}


def _check_seats(engine, rules: dict, names: list[str]) -> None:
    """More names than the chosen form seats (a two-handed form and four names) can
    never be played: say so now rather than open a table that waits for ever."""
    seats = engine.seats
    named = [name for name in names if name.strip()]
    if seats and len(named) > seats(rules):
        raise service.Refused("This form of %(game)s is for %(seats)s players, not %(count)s: choose "
                              "another form or leave names empty.", 400,
                              game=engine.title, seats=seats(rules), count=len(named))


def _check_order(names: list[str]) -> None:
    """An empty name between names moved every name after it one seat up (partners
    typed opposite in 1 and 3 with 2 and 4 left for friends who scan, sat side by side): the
    names are the seat order, so say so (on opening only: not while the form is filled in)."""
    gap = next((n for n, name in enumerate(names[:-1], 1)
                if not name.strip() and any(later.strip() for later in names[n:])), None)
    if gap:
        raise service.Refused("Seat %(seat)s is empty, with names after it: the names are the seat "
                              "order, and friends who scan take the seats after them. Move the names "
                              "up, in the order you sit.", 400, seat=gap)


def given(engine, values: dict[str, str]) -> dict[str, str]:
    """The settings the form gives, as typed (unchecked: what the form shows follows them)."""
    return {key: values[key].strip() for key in engine.settings if values.get(key, "").strip()}


def rules_from_form(engine, values: dict[str, str]) -> dict:
    """Form strings to the log's typed rule values (checked by the engine's settings)."""
    rules = {}
    currency = _currency_typed(engine, values)
    for key, setting in engine.settings.items():
        text = values.get(key, "").strip()
        if text == "" or not setting.offered:
            continue
        if setting.only:  # e.g. laps of one form: left out when another form is chosen
            chosen = values.get(setting.depends, "").strip() or engine.settings[setting.depends].default
            if chosen not in setting.only:
                continue
        default = setting.default
        if isinstance(default, bool):
            rules[key] = text in ("true", "on", "1", "yes")
        elif isinstance(default, int):
            try:
                rules[key] = int(text)
            except ValueError:
                raise about(key, service.Refused(CHOOSE if setting.choices else TYPE, 400,
                                                 setting=setting.label or key, value=_shown(text),
                                                 expects=setting.expects)) from None
        elif setting.check is money:
            try:
                rules[key] = amount_typed(text, currency, setting.label or key)
            except service.Refused as refusal:
                raise about(key, refusal) from None
        elif setting.check is currency_code:
            rules[key] = currency
        else:
            rules[key] = text
    try:
        parse_rules(rules, engine.settings)
    except RuleError as error:
        raise as_the_form_says(engine, service.Refused(error.text, 400), values) from None
    return rules


def as_the_form_says(engine, refusal: service.Refused, values: dict[str, str]) -> service.Refused:
    """A setting's refusal (the engine's, naming it as a log does: "rules.first_dealer: 'Zed' is
    not a player at this table") in the form's words: the setting by its label, what was typed
    in the language's quotes ("First dealer (default: the first seat): “Zed” is not among the
    players' names…"); any other refusal as it is."""
    text = refusal.text
    setting = engine.settings.get(text.key) if isinstance(text, SettingText) else None
    if setting is None:
        return refusal
    return about(text.key, service.Refused(text.form, refusal.status, **{
        **text.values, "setting": setting.label or text.key,
        "value": _shown(values.get(text.key, "").strip() or str(text.values.get("value", "")))}))


def about(key: str, refusal: service.Refused) -> service.Refused:
    """`refusal`, marked as the refusal of setting `key` (the form shows that field)."""
    refusal.setting = key
    return refusal


# --- amounts as typed on a phone ---------------------------------------------------------

# a currency typed as its sign or name, beside an amount or in the currency field
CURRENCY_WORDS = {"€": "EUR", "euro": "EUR", "euros": "EUR", "zł": "PLN", "zl": "PLN", "złoty": "PLN",
                  "zloty": "PLN", "£": "GBP"}
# the hundredth of a currency typed after an amount ("50c", "50 ct", "50 gr", "50p")
HUNDREDTHS = {"c": "EUR USD CAD AUD NZD CHF", "ct": "EUR USD CAD AUD NZD CHF", "cts": "EUR USD CAD AUD NZD CHF",
              "cent": "EUR USD CAD AUD NZD CHF", "cents": "EUR USD CAD AUD NZD CHF",
              "gr": "PLN", "grosz": "PLN", "grosze": "PLN", "groszy": "PLN", "p": "GBP", "pence": "GBP",
              "rp": "CHF", "rappen": "CHF"}
FULL_WIDTH = {"\uff0e": ".", "\uff0c": ",", "\u066b": ",", "\u066c": "'", "\uff07": "'"}  # "．" "，" "٫" "٬" "＇"
SIGNS = {"$": "USD, CAD, AUD", "kr": "SEK, NOK, DKK"}  # one sign, several currencies
# the currency's sign or code before and after the number, each taken whole (`*+`: a run of
# letters or quotes split every way between them held the worker for seconds, with the runs of
# spaces `amount_typed` makes one)
AMOUNT = re.compile(r"^(?P<sign>[-+]?)\s*(?P<before>[^\d\s.,'+-]*+)\s*(?P<number>[\d.,'\s]*?)\s*"
                    r"(?P<after>[^\d\s.,'+-]*+)$")
GROUPED = re.compile(r"^(?P<whole>\d{1,3}(?P<sep>[.,' ])\d{3}(?:(?P=sep)\d{3})*)(?:(?P<point>[.,])(?P<cents>\d+))?$")
PLAIN = re.compile(r"^(?P<whole>\d*)(?:(?P<point>[.,])(?P<cents>\d*))?$")


def _shown(text: str) -> str:
    """What the host typed, as a refusal quotes it: one line, at most 40 characters."""
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text if len(text) <= 40 else text[:39] + "…"


def _currency_typed(engine, values: dict[str, str]) -> str:
    """The currency field as a three-letter code: "eur", "€" and "zł" are EUR, EUR and PLN;
    a sign several currencies share ("$") or what is no code is refused in words."""
    key = _currency_key(engine)
    if key is None:
        return ""
    setting = engine.settings[key]
    text = values.get(key, "").strip()
    if not text or not setting.offered:
        return setting.default
    word = text.casefold()
    if word in SIGNS:
        raise about(key, service.Refused("%(setting)s: “%(value)s” is the sign of several currencies: type "
                                         "the three letters of yours, like %(codes)s.", 400,
                                         setting=setting.label or key, value=_shown(text), codes=SIGNS[word]))
    code = CURRENCY_WORDS.get(word, text)
    try:
        return currency_code(code)
    except ValueError:
        raise about(key, service.Refused("%(setting)s: “%(value)s” is no currency code: type its three letters, "
                                         "like EUR, PLN or GBP.", 400, setting=setting.label or key,
                                         value=_shown(text))) from None


def amount_typed(text: str, currency: str, label: str) -> str:
    """A stake as a host types it on a phone, as the log writes it ("0.50"): a comma or a
    point for the decimals (",5" too), a thousands separator where it cannot be the decimals'
    ("1.000,00", "1,000.00", "1 000"), the table's currency sign or code before or after it
    ("€0.50", "0,50 €", "0,50 PLN") and its hundredths ("50c", "50 ct", "50 gr"). Refused, in
    words, with what was typed: no amount, a negative one, more than two decimals, "1.000" (a
    thousand or one?) and an amount in another currency than the table's."""
    typed = text.strip()
    cleaned = typed.replace("\u2212", "-").replace("\u2013", "-").replace("\u00a0", " ").replace("\u202f", " ")
    # a phone's own digits ("٣", full-width "０.５０") as the log's: the engine's Decimal reads them,
    # and the log, the board and every export kept "٣" as typed
    cleaned = "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else FULL_WIDTH.get(ch, ch) for ch in cleaned)
    # one space for each run of them: AMOUNT's neighbouring \s* tried every split of a run, and
    # "-", 400 spaces and "+" (a link's `rule_stake`) held the worker 20 s, 2,000 spaces for hours
    match = AMOUNT.match(re.sub(r"\s+", " ", cleaned))
    number = match and match["number"].strip()
    if not match or not number or not re.search(r"\d", number) or (match["before"] and match["after"]):
        raise service.Refused("%(setting)s: “%(value)s” is not an amount: type one like 0.50, or leave it "
                              "empty to play without money.", 400, setting=label, value=_shown(typed))
    if match["sign"] == "-" and number.strip("0.,' "):
        raise service.Refused("%(setting)s: “%(value)s” is below zero, and a stake cannot be: type what the "
                              "losers pay, like 0.50, or leave it empty to play without money.", 400,
                              setting=label, value=_shown(typed))
    marker = (match["before"] or match["after"]).casefold()
    hundredths = bool(match["after"]) and marker in HUNDREDTHS
    if marker:
        codes = HUNDREDTHS[marker].split() if hundredths else [CURRENCY_WORDS.get(marker, marker.upper())]
        if marker in SIGNS or currency not in codes:
            raise service.Refused("%(setting)s: “%(value)s” is not in %(currency)s, the table's currency: type "
                                  "the amount alone, like 0.50, and the currency in its own field.", 400,
                                  setting=label, value=_shown(typed), currency=currency)
    grouped = GROUPED.match(number)
    if grouped and grouped["point"] != grouped["sep"] and not grouped["whole"].startswith("0"):
        if grouped["sep"] in ".," and not grouped["point"] and grouped["whole"].count(grouped["sep"]) == 1:
            raise service.Refused("%(setting)s: “%(value)s” could mean thousands or decimals: type it without "
                                  "a thousands separator, like 2500, or with two decimals, like 2.50.", 400,
                                  setting=label, value=_shown(typed))
        whole, cents = re.sub(r"\D", "", grouped["whole"]), grouped["cents"] or ""
    else:
        plain = PLAIN.match(number)
        if not plain or not (plain["whole"] or plain["cents"]):
            raise service.Refused("%(setting)s: “%(value)s” is not an amount: type one like 0.50, or leave it "
                                  "empty to play without money.", 400, setting=label, value=_shown(typed))
        whole, cents = plain["whole"], plain["cents"] or ""
    amount = Decimal(f"{whole or 0}.{cents or 0}") / (100 if hundredths else 1)
    # the million first: past Decimal's 28 digits ("9" × 27, a link's `rule_stake`) quantize fails, a 500
    if amount >= 1_000_000:
        raise service.Refused("%(setting)s: “%(value)s” is more than a stake can be: type less than a "
                              "million.", 400, setting=label, value=_shown(typed))
    if amount != amount.quantize(Decimal("0.01")):
        raise service.Refused("%(setting)s: “%(value)s” has more than two decimals: type at most two, like "
                              "0.50.", 400, setting=label, value=_shown(typed))
    if hundredths:
        return str(amount.quantize(Decimal("0.01")))
    cents = cents[:2] if len(cents) > 2 else cents  # "0,5000": zeros past the cents, checked above
    return (whole.lstrip("0") or "0") + (f".{cents}" if cents else "")


# --- joining ------------------------------------------------------------------------------


@bp.post("/join")
def join_by_code():
    try:
        table = service.by_code(get_db(), field("code"), client_address())
    except service.Refused as refusal:
        metrics.refused(refusal)
        return render_template("index.html", message=say(refusal),
                               code=field("code")[:12]), refusal.status, refusal.headers()
    return redirect(table_url("table.table", table), 303)
