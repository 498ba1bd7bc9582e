"""Escoba on the table screen: the round form with its live deck check and points preview,
the escobas tapped while a round is played, the score sheet, and the capture finder."""

from __future__ import annotations

from dataclasses import dataclass, field as default
from typing import Any, Mapping

from flask import Blueprint, Response, g, render_template, request, url_for

from .... import policy, service
from ....games import escoba
from ....games.base import RuleError, Text
from ....games.escoba import DECK, Card, Counts, Points, Suit
from ...context import TableContext, table_blueprint
from ...i18n import _, ngettext, pgettext, say, translate
from ...writes import answer, board, digits, field, fragment, idem, number_field
from .. import Screen

bp = table_blueprint("escoba", __name__)
finder_bp = Blueprint("finder", __name__)  # the capture finder, with no table

# The form's fields, per side index: cards, coins (oros), sevens, escobas, false captures;
# the side that took the seven of coins is `seven` (an index), the leftover sum `leftover`.
FIELDS = {"cards": "c", "coins": "o", "sevens": "s", "escobas": "e", "false": "f"}
MAX_FALSE = 9  # false captures a side can be given in the form in one round
NO_SEVEN = Text("Who took the seven of coins? Tap their name.")

# What the form says of a number it cannot take: a whole message for each field, filled in
# with Text(message, **values) and translated with the deck check's messages
NOT_A_NUMBER = {
    "c": Text("%(side)s's cards: type a whole number, not %(text)s"),
    "o": Text("%(side)s's coins: type a whole number, not %(text)s"),
    "s": Text("%(side)s's sevens: type a whole number, not %(text)s"),
    "e": Text("%(side)s's escobas: type a whole number, not %(text)s"),
    "f": Text("%(side)s's false captures: type a whole number, not %(text)s"),
    "leftover": Text("The leftover's sum: type a whole number, not %(text)s"),
}
OUT_OF_RANGE = {
    "c": Text("%(side)s's cards must be from 0 to %(top)s, not %(value)s"),
    "o": Text("%(side)s's coins must be from 0 to %(top)s, not %(value)s"),
    "s": Text("%(side)s's sevens must be from 0 to %(top)s, not %(value)s"),
    "e": Text("%(side)s's escobas must be from 0 to %(top)s, not %(value)s"),
    "f": Text("%(side)s's false captures must be from 0 to %(top)s, not %(value)s"),
    "leftover": Text("The leftover's sum must be from 0 to %(top)s, not %(value)s"),
}
# Too many taken, said the way the form is filled: by the sides that count (the engine's
# message speaks of the whole deck)
OTHERS_TOO_MANY = {
    "cards": Text("the others' cards add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "coins": Text("the others' coins add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "sevens": Text("the others' sevens add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
}
LEFTOVER_ODD = Text("Left on the table, the cards add up to 10, 25, 40 or 55, not %(leftover)s: a capture that "
                    "did not make 15 is a false capture — count it above.").template
FIRST_TOO_MANY = {
    "cards": Text("%(side)s's cards add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "coins": Text("%(side)s's coins add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "sevens": Text("%(side)s's sevens add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
}


# --- the table and who may enter --------------------------------------------------------------


def escoba_game(ctx: TableContext) -> service.Played:
    """The table's game, refused unless it is an Escoba game under way that this viewer may enter."""
    played = ctx.played
    if played.row["game"] != "escoba":
        raise service.Refused("This table does not play Escoba.", 404)
    if played.game is None:
        raise service.Refused("The table is not ready: the host still has to seat the players "
                              "(two pairs for four).", 409)
    if not ctx.can_write:
        raise service.Refused("Join the table first: pick your seat, then you can enter rounds.", 403)
    return played


def tally(played: service.Played) -> list[int]:
    """The escobas tapped so far this round, per side in seat order."""
    if played.game is None:
        return []
    sides = played.state.setup.sides
    if played.draft and not played.finished:
        try:
            counted = escoba.verify_draft(played.state, played.draft["payload"])
            return [counted[side.name] for side in sides]
        except RuleError:
            pass
    return [0] * len(sides)


def tally_payload(played: service.Played, counts: list[int]) -> Any:
    """The draft for these escoba counts: empty (dropped) when nobody has one."""
    if not any(counts):
        return ""
    return {"escobas": {side.name: n for side, n in zip(played.state.setup.sides, counts)}}


# --- the round form ---------------------------------------------------------------------------


@dataclass
class RoundForm:
    """What the round form says, read leniently: every problem is collected, none raised."""

    counts: dict[str, Counts]
    false_captures: dict[str, int]
    leftover: int | None
    seven: int | None  # index of the side that took the seven of coins
    problems: list[str] = default(default_factory=list)

    def event(self) -> dict:
        event: dict[str, Any] = {"type": "round",
                                 "sides": {name: c.as_dict() for name, c in self.counts.items()}}
        if self.false_captures:
            event["false_captures"] = dict(self.false_captures)
        if self.leftover is not None:
            event["leftover"] = self.leftover
        return event


def read_form(state: escoba.State, args: Mapping[str, str]) -> RoundForm:
    """The counts of every side from the form; the last side gets what is left of the deck.
    The problems are in the phone's language."""
    sides = state.setup.sides
    last = len(sides) - 1
    problems: list[Text] = []

    def number(kind: str, index: int | None, top: int) -> int:
        """The number in field `kind` (of side `index`); one it cannot take is a problem."""
        key = kind if index is None else f"{kind}{index}"
        side = None if index is None else sides[index].name
        text = str(args.get(key, "") or "").strip()
        if not text:
            return 0
        try:
            value = int(text)
        except ValueError:
            problems.append(Text(NOT_A_NUMBER[kind], side=side, text=repr(text[:10])))
            return 0
        if not 0 <= value <= top:
            problems.append(Text(OUT_OF_RANGE[kind], side=side, top=top, value=value))
            return max(0, min(top, value))
        return value

    try:
        seven = int(args.get("seven", ""))
        if not 0 <= seven <= last:
            seven = None
    except ValueError:
        seven = None
    counts: dict[str, Counts] = {}
    for index, side in enumerate(sides[:-1]):
        counts[side.name] = Counts(
            cards=number("c", index, DECK["cards"]),
            coins=number("o", index, DECK["coins"]),
            sevens=number("s", index, DECK["sevens"]),
            seven_of_coins=seven == index,
            escobas=number("e", index, escoba.MAX_ESCOBAS))
    # the last side counts nothing: it has what the others did not take (too many taken
    # shows up in the deck check below)
    rest = {what: max(0, deck - sum(getattr(c, what) for c in counts.values())) for what, deck in DECK.items()}
    counts[sides[last].name] = Counts(seven_of_coins=seven == last,
                                      escobas=number("e", last, escoba.MAX_ESCOBAS), **rest)
    false_captures = {}
    for index, side in enumerate(sides):
        count = number("f", index, MAX_FALSE)
        if count:
            false_captures[side.name] = count
    leftover = None
    if str(args.get("leftover", "") or "").strip():
        leftover = number("leftover", None, 220)
    taken = {what: sum(getattr(c, what) for c in list(counts.values())[:-1]) for what in DECK}
    checks = escoba.deck_problems(counts, leftover, bool(false_captures), escoba.teams_of(state.setup))
    if seven is None:
        checks = [NO_SEVEN] + [p for p in checks if p != escoba.NO_SEVEN_OF_COINS]
    for what, deck in DECK.items():
        if taken[what] > deck:
            said = (Text(OTHERS_TOO_MANY[what], total=taken[what], deck=deck, off=taken[what] - deck) if last > 1
                    else Text(FIRST_TOO_MANY[what], side=sides[0].name, total=taken[what], deck=deck,
                              off=taken[what] - deck))
            checks = [said if getattr(p, "template", None) == escoba.TOO_MANY[what] else p for p in checks]
    # the form's own words for a leftover that does not add up (the engine's name the log's fields)
    checks = [Text(LEFTOVER_ODD, leftover=p.values["leftover"]) if getattr(p, "template", None) == escoba.LEFTOVER_ODD
              else p for p in checks]
    return RoundForm(counts, false_captures, leftover, seven,
                     [translate(p) for p in problems] + [_sentence(translate(p)) for p in checks])


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def form_values(played: service.Played, event: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The form's starting values: an even share of the deck for a new round (so most piles
    are a few taps away) with the escobas tapped so far, or the counts of an entered round."""
    state = played.state
    sides = state.setup.sides
    values: dict[str, str] = {}
    if event is None:
        for index, count in enumerate(tally(played)):
            values[f"e{index}"] = str(count)
            if index < len(sides) - 1:
                values[f"c{index}"] = str(DECK["cards"] // len(sides))
                values[f"o{index}"] = str(DECK["coins"] // len(sides))
                values[f"s{index}"] = str(DECK["sevens"] // len(sides))
            values[f"f{index}"] = "0"
        return values
    counts = escoba.parse_counts(state, event["sides"])
    false_captures = escoba.parse_false_captures(state, event.get("false_captures"))
    for index, side in enumerate(sides):
        captured = counts[side.name]
        for what in ("cards", "coins", "sevens", "escobas"):
            values[f"{FIELDS[what]}{index}"] = str(getattr(captured, what))
        values[f"f{index}"] = str(false_captures.get(side.name, 0))
        if captured.seven_of_coins:
            values["seven"] = str(index)
    if event.get("leftover") is not None:
        values["leftover"] = str(event["leftover"])
    return values


def preview_context(ctx: TableContext, args: Mapping[str, str]) -> dict:
    """Everything the preview under the form shows: the last side's counts, what is wrong,
    or the points each side gets and where that leaves the game, and the confirm button."""
    played = ctx.played
    state = played.state
    form = read_form(state, args)
    correcting = args.get("correct") or None
    problems = list(form.problems)
    event = form.event()
    points: dict[str, Points] | None = None
    after: escoba.State | None = None
    number = len(state.rounds) + 1
    if correcting:
        index = entry_index(played, correcting)
        number = index + 1
        refusal = policy.refusal("correct", ctx.who, played, played.entries[index][0])
        if refusal:
            problems.append(say(refusal))
        if not problems:
            replacement = {**played.entries[index][1], **event}
            replacement = {k: v for k, v in replacement.items() if k in ("type", *event)}
            try:
                after = played.replaced(index, replacement)
            except service.EntryMisfits as misfit:
                if misfit.number == number:
                    problems.append(_sentence(translate(misfit.error)))
                else:
                    problems.append(_("Round %(number)s would no longer fit: %(problem)s",
                                      number=misfit.number, problem=_sentence(translate(misfit.error))))
    elif played.finished:
        problems.append(_("The game is over: start a rematch to play again."))
    elif not problems:
        try:
            after = played.game.apply(state, event)
        except RuleError as error:
            problems.append(_sentence(translate(error)))
    if not problems:
        points = escoba.round_points(state, event["sides"], event.get("false_captures"))
    last = state.setup.sides[-1].name
    return dict(form=form, problems=problems, points=points, after=after, number=number,
                correcting=correcting, last=last, last_counts=form.counts[last], sides=state.setup.sides)


def entry_index(played: service.Played, target: Any) -> int:
    index = played.index_of(target)
    if index is None:
        raise service.Refused("That round is not part of the current game.", 400)
    return index


# --- the tray: the round's end, counted in a form the server checks as it is filled -----------

FORM_FIELDS = ("seven", "leftover")  # besides c0, o0, s0, e0, f0 … per side


@dataclass(frozen=True)
class Tray:
    """What this phone's tray shows: the round form (open to enter the round being played, or
    to correct one), what is typed in it and the server's check of it."""

    correcting: str | None
    values: dict[str, str]
    check: dict | None  # preview_context: the last side's counts, problems or points; None: closed


def form_fields(args: Mapping[str, str], sides: int) -> dict[str, str]:
    """The form's fields as the phone sent them (short strings; the form reads them leniently)."""
    keys = [f"{kind}{index}" for index in range(sides) for kind in FIELDS.values()] + list(FORM_FIELDS)
    return {key: str(args.get(key, ""))[:6] for key in keys if key in args}


def tray_view(ctx: TableContext, args: Mapping[str, str]) -> Tray | None:
    played = ctx.played
    correct = str(args.get("correct") or "")[:20] or None
    if not (args.get("round") or correct) or (played.finished and not correct) or (not correct and not ctx.writes_now):
        return Tray(None, {}, None)
    event = None
    if correct:
        index = entry_index(played, correct)
        service.require("correct", ctx.who, played, played.entries[index][0])
        event = played.entries[index][1]
    typed = form_fields(args, len(played.state.setup.sides))
    values = typed if typed else form_values(played, event)
    if correct:
        values["correct"] = correct
    return Tray(correct, values, preview_context(ctx, values))


@bp.post("/escoba/round")
def enter_round():
    """The round form's counts, checked as the form showed them, entered as the round being
    played — or, with `correct`, in place of that round (fields left out are cleared). Built
    inside the write, after its key and its board are checked."""
    ctx = g.ctx
    escoba_game(ctx)
    correct = field("correct") or None

    def enter(change: service.Write) -> int:
        form = read_form(change.played.state, request.form)
        if form.problems:
            raise service.Refused(form.problems[0], 409)
        event = form.event()
        if correct:
            return change.correct(correct, {**event, "false_captures": event.get("false_captures"),
                                            "leftover": event.get("leftover")})
        return change.submit(event)

    service.write(ctx.db, ctx.table, ctx.who, enter, idem(), board())
    return answer()


@bp.post("/escoba/escobas")
def escobas():
    """One escoba more (or fewer) for a side while the round is played: the table's draft,
    shared live, which the round form starts from."""
    ctx = g.ctx
    played = escoba_game(ctx)
    side, delta = number_field("side", 20), field("delta")
    counts = tally(played)
    if side is None or side >= len(counts) or delta not in ("1", "-1"):
        raise service.Refused("Tap + or − beside a side's escobas.", 400)
    counts[side] = min(escoba.MAX_ESCOBAS, max(0, counts[side] + int(delta)))
    # a write the phone keeps while the network is gone and sends again (its key): a + sent
    # twice counts once
    service.write(ctx.db, ctx.table, ctx.who, lambda change: change.save_draft(tally_payload(played, counts) or None),
                  idem(), board())
    return answer()


LIMITS = {**DECK, "escobas": escoba.MAX_ESCOBAS, "false": MAX_FALSE}  # the steppers' tops


# --- the history and the score sheet ------------------------------------------------------------


def counts_text(counts: Counts) -> str:
    """What a side captured, in the phone's language: "24 cards · 7 coins · 3 sevens · …"."""
    parts = [ngettext("%(num)s card", "%(num)s cards", counts.cards),
             ngettext("%(num)s coin", "%(num)s coins", counts.coins),
             ngettext("%(num)s seven", "%(num)s sevens", counts.sevens)]
    if counts.seven_of_coins:
        parts.append(_("7 of coins"))
    if counts.escobas:
        parts.append(ngettext("%(num)s escoba", "%(num)s escobas", counts.escobas))
    return " · ".join(parts)


def point_words(points: Points) -> list[str]:
    """The lines a side scored, in words of the phone's language."""
    words = []
    if points.escobas:
        words.append(ngettext("%(num)s escoba", "%(num)s escobas", points.escobas))
    if points.cards:
        words.append(_("most cards"))
    if points.coins:
        words.append(_("all ten coins +2") if points.coins == 2 else _("most coins"))
    if points.seven_of_coins:
        words.append(_("7 of coins"))
    if points.sevens:
        words.append(_("all four sevens +2") if points.sevens == 2 else _("most sevens"))
    if points.bonus:
        words.append(_("the others under 10 cards +2"))
    if points.penalty:
        words.append(_("false capture %(points)s", points=signed(points.penalty)))
    return words


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def total(number: int) -> str:
    """A score as every Escoba screen prints it: a minus sign (−), never a hyphen."""
    return f"−{-number}" if number < 0 else str(number)


def event_lines(state: escoba.State, event: Mapping[str, Any]) -> list[dict]:
    """Per side: what it captured and scored in a round event, for the history."""
    try:
        counts = escoba.parse_counts(state, event.get("sides"))
        false_captures = escoba.parse_false_captures(state, event.get("false_captures"))
        points = escoba.score_round(counts, false_captures)
    except RuleError:
        return []
    return [{"side": name, "counts": counts_text(counts[name]), "total": points[name].total,
             "false": false_captures.get(name, 0)} for name in counts]


def round_number(played: service.Played, recorded: service.Recorded) -> int | None:
    index = played.index_of(recorded.target if recorded.kind == "correct" else recorded.id)
    return None if index is None else index + 1


# --- the capture finder -------------------------------------------------------------------------

SUIT_CODES = {"o": Suit.OROS, "c": Suit.COPAS, "e": Suit.ESPADAS, "b": Suit.BASTOS}
MAX_HAND = 3


def suit_words() -> dict[Suit, dict[str, str]]:
    """Per suit, as the finder shows it: its name (Spanish in every language), the initial on
    a small card, and what the suit is in the phone's language."""
    initials = {Suit.OROS: pgettext("oros, initial", "O"), Suit.COPAS: pgettext("copas, initial", "C"),
                Suit.ESPADAS: pgettext("espadas, initial", "E"), Suit.BASTOS: pgettext("bastos, initial", "B")}
    meanings = {Suit.OROS: pgettext("Spanish suit", "coins"), Suit.COPAS: pgettext("Spanish suit", "cups"),
                Suit.ESPADAS: pgettext("Spanish suit", "swords"), Suit.BASTOS: pgettext("Spanish suit", "clubs")}
    return {suit: {"name": translate(escoba.SUIT_NAMES[suit]), "initial": initials[suit], "meaning": meanings[suit]}
            for suit in Suit}


def figures() -> dict[int, str]:
    """The figures' names on the finder's cards (sota, caballo, rey)."""
    return {10: pgettext("Spanish card", "jack"), 11: pgettext("Spanish card", "knight"),
            12: pgettext("Spanish card", "king")}


def card_code(card: Card) -> str:
    return f"{card.rank}{card.suit.value[0]}"


def parse_cards(text: str, limit: int = 40) -> list[Card]:
    """Cards from codes like `7o,12b` (rank as printed, suit letter); anything else is skipped."""
    cards: list[Card] = []
    for code in (text or "").split(",")[:limit]:
        code = code.strip().lower()
        # a rank of one or two digits: int() of 4,301 is a ValueError (the finder's `t`: a 500)
        if not 2 <= len(code) <= 3 or code[-1] not in SUIT_CODES or not digits(code[:-1]):
            continue
        try:
            card = Card(int(code[:-1]), SUIT_CODES[code[-1]])
        except RuleError:
            continue
        if card not in cards:
            cards.append(card)
    return cards


def card_name(card: Card) -> str:
    return translate(card.name)


def finder_context(token: str | None) -> dict:
    table_cards = parse_cards(request.args.get("t", ""))
    hand = [c for c in parse_cards(request.args.get("h", "")) if c not in table_cards][-MAX_HAND:]
    mode = "hand" if request.args.get("m") == "hand" else "table"
    endpoint = "escoba.table_finder" if token else "finder.finder"

    def link(table_cards: list[Card], hand: list[Card], mode: str) -> str:
        params = {"m": mode}
        if table_cards:
            params["t"] = ",".join(card_code(c) for c in table_cards)
        if hand:
            params["h"] = ",".join(card_code(c) for c in hand)
        return url_for(endpoint, **params)

    def tap(card: Card) -> str:
        """Where tapping this card leads: in or out of the table (or the hand)."""
        on_table = [c for c in table_cards if c != card]
        in_hand = [c for c in hand if c != card]
        if mode == "table" and card not in table_cards:
            on_table.append(card)
        if mode == "hand" and card not in hand:
            in_hand = (in_hand + [card])[-MAX_HAND:]
        return link(on_table, in_hand, mode)

    deck = [(suit, [Card(rank, suit) for rank in escoba.RANKS]) for suit in Suit]
    answers = [{"card": card, "need": escoba.FIFTEEN - card.value,
                "captures": escoba.captures(table_cards, card)} for card in hand]
    return dict(
        token=token, mode=mode, table_cards=table_cards, hand=hand, deck=deck, tap=tap, max_hand=MAX_HAND,
        table_sum=sum(c.value for c in table_cards), answers=answers,
        opening=escoba.opening_escobas(table_cards) if len(table_cards) == 4 else None,
        mode_link={m: link(table_cards, hand, m) for m in ("table", "hand")},
        clear_link=link([], [], "table"), suits=suit_words(), figures=figures(),
        back=url_for("table.table") if token else None, card_name=card_name)


def render_finder(token: str | None):
    context = finder_context(token)
    if request.htmx:
        return fragment(render_template("games/escoba/_finder.html", **context))
    response = Response(render_template("games/escoba/finder.html", **context))
    response.vary.add("HX-Request")  # one URL, two answers
    return response


@finder_bp.get("/escoba/finder")
def finder():
    """What can I take? Tap the table's cards and the cards in hand; no table needed."""
    return render_finder(None)


@bp.get("/escoba/finder")
def table_finder():
    return render_finder(g.ctx.token)


SHEET_ROUNDS = 30  # rounds on the board's score sheet, the newest


@dataclass(frozen=True)
class EscobaView:
    """What the Escoba templates read: the sides, the escobas tapped this round, and the words
    of rounds and points."""

    ctx: TableContext
    played: service.Played
    state: escoba.State
    sides: tuple
    tally: list[int]  # the escobas tapped so far this round, per side in seat order
    writes: bool  # this phone may enter the round being played

    @property
    def sheet(self) -> list[tuple[int, dict]]:
        """The score sheet's rows: (number, round) of the newest SHEET_ROUNDS rounds (issue 25:
        an imported log of 2,000 rounds made every board 320 KB); the rest are in the history."""
        rounds = self.played.result["rounds"]
        first = max(0, len(rounds) - SHEET_ROUNDS)
        return [(number, rounds[number - 1]) for number in range(first + 1, len(rounds) + 1)]

    @property
    def sheet_left_out(self) -> int:
        return max(0, len(self.played.result["rounds"]) - SHEET_ROUNDS)

    def round_number(self, recorded: service.Recorded) -> int | None:
        return round_number(self.played, recorded)

    def event_lines(self, event: Mapping[str, Any]) -> list[dict]:
        return event_lines(self.state, event)

    signed = staticmethod(signed)
    total = staticmethod(total)
    point_words = staticmethod(point_words)


def waits_for(header: Mapping[str, Any]) -> str:
    """Why a table's Escoba cannot start yet, by the engine's numbers (its waiting card):
    "pairs", four or six players without their teams (the host draws them); "count", a number
    it is not played by; "players", too few yet."""
    count = len(header["players"])
    if count in escoba.NO_TEAMS and not header.get("teams"):
        return "pairs"
    if count > min(escoba.PLAYERS) and count not in escoba.PLAYERS:
        return "count"
    return "players"


def view(ctx: TableContext, played: service.Played) -> EscobaView | None:
    if played.state is None:
        return None
    current = played is ctx.played
    return EscobaView(ctx, played, played.state, played.state.setup.sides, tally(played),
                      current and ctx.writes_now)


def drafted(ctx, played) -> list[tuple]:
    """The parts of the board an escoba tapped changes (web/board.py): each side's escobas of the
    round, and the tray (its state as before: a phone keeps its own, static/app.js). Each tap
    was the whole board, 1.8–1.9 KB of gzip (issue 26: an answer ≤ 1 KB)."""
    return [*(("tally", i) for i in range(len(played.state.setup.sides))), ("tray",)]


def touched(ctx, played, events) -> list[tuple]:
    """The parts of the board a run of rounds changed (web/board.py): the standings (the totals,
    who leads, the new round's escobas), the rows of these rounds added to the score sheet —
    the sheet whole when it begins, drops its oldest row or loses a round taken back —, the
    history and the tray. Each round was the whole board, 1.31 KB of gzip, its sheet 0.19 of
    them (issue 26: an answer ≤ 1 KB)."""
    rounds = len(ctx.played.result["rounds"])
    shown = rounds - len(events)  # the rows of the sheet before these rounds
    chosen = [("stamp",), ("standings",), ("tray",), ("history",)]
    if played is not ctx.played or not shown or rounds > SHEET_ROUNDS:
        return [*chosen, ("sheet",)]
    return [*chosen, *(("sheet", number) for number in range(shown + 1, rounds + 1))]


# the round form is typed in while the server checks it (it morphs, keeping the caret); it
# starts from the escobas tapped so far, but once open it is the phone's own: another phone's
# tap does not redraw it, nor the host's correction of an older round, which closed it with the
# piles counted so far (web/context.py, tray_state; the form is checked again at the next count
# typed, and its Confirm goes with the board as it stands)
SCREEN = Screen(view, blueprints=(bp, finder_bp), filters={"escoba_code": card_code, "escoba_waits": waits_for},
                tray_view=tray_view, touched=touched, ended=(), drafted=drafted, tray_swap="outerMorph",
                tray_reads_draft=False, tray_reads_corrections=False)
