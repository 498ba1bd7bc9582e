"""What every game engine shares: refusals, sides, rule settings and the engine contract.

An engine is a module read as the `Engine` contract below (`Engine.of`).  It never touches
Flask, SQL, files or the clock: the log loader, the store and the web app all fold events
through the same `apply`, so a log means the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Callable, Mapping


class Text(str):
    """Words a player reads, in English, remembering what they were made of: `template` (the
    message id of the translation catalogs, with %(name)s holes) and the `values` that fill
    it. The engines know nothing of languages: the CLI prints the English, the screens
    translate the template and its values (scorekeeper/web/i18n.py).

    >>> text = Text("%(side)s has already written column %(column)s", side="Anna", column=2)
    >>> text, text.template, text.values["column"]
    ('Anna has already written column 2', '%(side)s has already written column %(column)s', 2)
    """

    template: str
    values: Mapping[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> "Text":
        self = super().__new__(cls, template % values if values else template)
        self.template, self.values = template, values
        return self

    @classmethod
    def of(cls, message: str, /, **values: Any) -> "Text":
        """`message` as a Text: itself when it is one already and no values are added."""
        return message if isinstance(message, Text) and not values else cls(str(message), **values)


class Plural(Text):
    """A Text whose words depend on a count: `singular` and `plural` English templates, `n`
    choosing (and filling %(num)s); each language has its own forms (Polish has three).

    >>> Plural("%(num)s die was kept", "%(num)s dice were kept", 3)
    '3 dice were kept'
    """

    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **values: Any) -> "Plural":
        values = {"num": n, **values}
        self = Text.__new__(cls, singular if n == 1 else plural, **values)
        self.template, self.plural, self.n = singular, plural, n
        return self


class Term(str):
    """A word of a game's own as the log writes it (a row "3"), which the screens show as the
    pad does: `shown` ("Q" when the table plays with poker dice), looked up in the catalogs
    under `context` ("poker die") when it has one.

    >>> row = Term("3", "Q", "poker die")
    >>> Text("row %(row)s", row=row), row.shown
    ('row 3', 'Q')
    """

    shown: str
    context: str | None

    def __new__(cls, code: str, shown: str | None = None, context: str | None = None) -> "Term":
        self = super().__new__(cls, code)
        self.shown = code if shown is None else shown
        self.context = context
        return self


class SettingText(Text):
    """The refusal of a rule setting's value: as a log's reader reads it ("rules.first_dealer:
    'Zed' is not a player at this table"), and `form`, a template saying it as the new-table form
    would, for the screens to fill with the setting's label (%(setting)s) and the value as typed
    (%(value)s, set in the language's quotes by the template); `key` names the setting. Both
    templates are given as Texts, made apart (in a variable: the catalogs find no message
    inside a call inside another).

    >>> text = SettingText("first_dealer", Text("rules.%(key)s: %(name)s is not a player"),
    ...                    Text("%(setting)s: “%(value)s” is not among the names"),
    ...                    key="first_dealer", name="'Zed'")
    >>> text, text.key, text.form
    ("rules.first_dealer: 'Zed' is not a player", 'first_dealer', '%(setting)s: “%(value)s” is not among the names')
    """

    key: str
    form: str

    def __new__(cls, key: str, template: str, form: str, /, **values: Any) -> "SettingText":
        self = Text.__new__(cls, str(template), **values)
        self.key, self.form = key, str(form)
        return self


class Either(tuple):
    """Names or words any one of which will do: "Anna or Ben", in each player's language."""

    def __str__(self) -> str:
        return " or ".join(map(str, self))


class Both(tuple):
    """Names or words that all count: "Anna, Ben and Cleo", in each player's language."""

    def __str__(self) -> str:
        return " and ".join(filter(None, (", ".join(map(str, self[:-1])), *map(str, self[-1:]))))


class TextError(ValueError):
    """An error whose message is a Text: `str(error)` is the English, `error.text` translates."""

    def __init__(self, message: str, /, **values: Any) -> None:
        self.text = Text.of(message, **values)
        super().__init__(self.text)


class RuleError(TextError):
    """An entry or setting the rules do not allow; the message is shown to players."""


class SeatingError(RuleError):
    """The players or teams do not suit the game (yet): a table still filling its seats may
    be in this state, a log may not."""


@dataclass(frozen=True)
class Side:
    """A scored unit: one player, or a team whose members write for it."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Setup:
    """Who plays, in seat order, and how they are grouped into sides."""

    players: tuple[str, ...]
    sides: tuple[Side, ...]
    teams: bool  # True when the log named teams (results keyed by team name)

    def player(self, name: Any) -> str:
        """The seated player `name` refers to, ignoring case; RuleError if nobody."""
        if isinstance(name, str):
            wanted = name.strip().casefold()
            for player in self.players:
                if player.casefold() == wanted:
                    return player
        raise RuleError("%(name)s is not a player at this table", name=describe(name))

    def side_of(self, player: str) -> Side:
        for side in self.sides:
            if player in side.members:
                return side
        raise RuleError("%(player)s is not on any side", player=player)  # unreachable for a checked setup

    def side(self, name: Any) -> Side:
        """The side `name` refers to (a team name, or a player when there are no teams)."""
        if isinstance(name, str):
            wanted = name.strip().casefold()
            for side in self.sides:
                if side.name.casefold() == wanted:
                    return side
        if self.teams:
            raise RuleError("%(name)s is not a team at this table", name=describe(name))
        raise RuleError("%(name)s is not a player at this table", name=describe(name))


def make_setup(players: list[str], teams: list[tuple[str, list[str]]] | None) -> Setup:
    """Check names and teams (field paths in the messages) and build the Setup."""
    if not isinstance(players, list) or not players:
        raise SeatingError("players: give the players as a list of names in seat order")
    clean: list[str] = []
    for number, name in enumerate(players, 1):
        if not isinstance(name, str) or not name.strip():
            raise RuleError("players: player %(number)s needs a name", number=number)
        name = name.strip()
        if len(name) > 40:
            raise RuleError("players: the name of player %(number)s is longer than 40 characters", number=number)
        if any(name.casefold() == seen.casefold() for seen in clean):
            raise RuleError("players: %(name)s is listed twice", name=name)
        clean.append(name)
    setup = Setup(tuple(clean), tuple(Side(p, (p,)) for p in clean), teams=False)
    if teams is None:
        return setup
    sides: list[Side] = []
    placed: set[str] = set()
    for number, (team_name, members) in enumerate(teams, 1):
        if not isinstance(team_name, str) or not team_name.strip():
            raise SeatingError("teams: team %(number)s needs a name", number=number)
        team_name = team_name.strip()
        if len(team_name) > 40:
            raise SeatingError("teams: the name of team %(number)s is longer than 40 characters", number=number)
        if any(team_name.casefold() == s.name.casefold() for s in sides):
            raise SeatingError("teams: two teams are called %(team)s", team=team_name)
        if not isinstance(members, list) or not members:
            raise SeatingError("teams: team %(team)s has no players", team=team_name)
        resolved = []
        for member in members:
            try:
                player = setup.player(member)
            except RuleError:
                raise SeatingError("teams: %(name)s in team %(team)s is not in players",
                                name=describe(member), team=team_name) from None
            if player in placed:
                raise SeatingError("teams: %(player)s is in more than one team", player=player)
            placed.add(player)
            resolved.append(player)
        sides.append(Side(team_name, tuple(resolved)))
    missing = [p for p in clean if p not in placed]
    if missing:
        if len(missing) == 1:
            raise SeatingError("teams: %(player)s is in no team", player=missing[0])
        raise SeatingError("teams: %(players)s are in no team", players=Both(missing))
    return Setup(tuple(clean), tuple(sides), teams=True)


def describe(value: Any) -> str:
    """A short, safe rendering of a value for a message: one line, control characters escaped.

    >>> describe("Anna"), describe("a\\nb")
    ("'Anna'", "'a\\\\nb'")

    Also what Python will not write out (only a caller in Python can pass it: JSON refuses it
    when a log is read): an integer of over 4,300 digits (sys.set_int_max_str_digits), or
    lists nested thousands deep.

    >>> describe(10 ** 5000), describe([10 ** 5000])
    ('a number too long to show', 'a number too long to show')
    """
    if isinstance(value, str):
        text = "'" + "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in value) + "'"
    else:
        try:
            text = repr(value)
        except ValueError:
            return Text("a number too long to show")
        except RecursionError:
            return Text("a value nested too deeply to show")
    return text if len(text) <= 40 else text[:37] + "..."


# --- rule settings --------------------------------------------------------------------

Check = Callable[[Any], Any]


@dataclass(frozen=True)
class Setting:
    """One key of a game's `rules`: its default, how to check a value, and how to say so."""

    default: Any
    check: Check
    expects: str  # e.g. Text("1 or 3"); used in "rules.columns must be 1 or 3"
    label: str = ""  # what a player reads on the "open a table" form, a Text
    choices: tuple[Any, ...] = ()  # offered on the form, when the values are few
    names: tuple[str, ...] = ()  # what the form calls each choice (Texts), when not the value itself
    # A setting that depends on an earlier one (a game's `form`): `only` lists the values of
    # `depends` under which it exists at all (elsewhere it is refused whenever present, whatever
    # its value, and left out of the rules); `defaults` gives its default by that value, where
    # it is not `default`.
    depends: str | None = None
    only: tuple[Any, ...] = ()
    defaults: Mapping[Any, Any] | None = None
    offered: bool = True  # shown on the "open a table" form (False: only logs and rematches set it)
    # what the form's first choice says, a choice that leaves the key out so that `defaults`
    # decide (a Text): a choice checked in advance went in with whatever the other setting became
    usual: str = ""

    def applies(self, rules: Mapping[str, Any]) -> bool:
        """Whether the setting exists under `rules` (the settings it depends on, parsed)."""
        return not self.only or rules.get(self.depends) in self.only

    def default_for(self, rules: Mapping[str, Any]) -> Any:
        if self.defaults and rules.get(self.depends) in self.defaults:
            return self.defaults[rules[self.depends]]
        return self.default


def integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def one_of(*options: Any) -> Check:
    def check(value: Any) -> Any:
        for option in options:
            if type(value) is type(option) and value == option:
                return value
        raise ValueError
    return check


def whole_number(minimum: int, maximum: int | None = None, multiple_of: int = 1) -> Check:
    def check(value: Any) -> int:
        number = integer(value)
        if number < minimum or (maximum is not None and number > maximum) or number % multiple_of:
            raise ValueError
        return number
    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def money(value: Any) -> Decimal:
    """A stake: a decimal string with at most two decimals, 0 or more."""
    if not isinstance(value, str) or len(value) > 12:
        raise ValueError
    try:
        amount = Decimal(value.strip())
        # past Decimal's 28 digits ("1e27", five characters) quantize itself fails: a 500 of
        # the new-table form and of /import
        exact = amount.is_finite() and amount >= 0 and amount == amount.quantize(Decimal("0.01"))
    except InvalidOperation:
        raise ValueError from None
    if not exact:
        raise ValueError
    return amount


def currency_code(value: Any) -> str:
    if not isinstance(value, str) or len(value) != 3 or not value.isascii() or not value.isalpha():
        raise ValueError
    return value.upper()


MUST_BE = Text("rules.%(key)s: must be %(expects)s, not %(value)s")
# what the new-table form says of a value its setting refuses (SettingText.form)
CHOOSE = Text("%(setting)s: “%(value)s” is not one of the choices: pick one on the form.")
TYPE = Text("%(setting)s: “%(value)s” will not do: it must be %(expects)s.")


def parse_rules(raw: Any, settings: Mapping[str, Setting]) -> dict[str, Any]:
    """Defaults for missing keys; a RuleError naming `rules.key` for a bad or unknown one, or
    for one that does not exist under the setting it depends on (then it is left out)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise RuleError("rules: must be an object of settings, like {\"columns\": 3}")
    rules = {}
    for key in raw:
        if key not in settings:
            raise RuleError("rules.%(key)s: this game has no such setting (settings: %(known)s)",
                            key=key, known=", ".join(settings) or Text("none"))
    for key, setting in settings.items():
        value = raw.get(key)
        if not setting.applies(rules):
            if value is not None:
                raise RuleError("rules.%(key)s: only with %(depends)s %(only)s, not %(value)s",
                                key=key, depends=setting.depends, only=Either(setting.only),
                                value=rules.get(setting.depends))
            continue
        if value is None:
            rules[key] = setting.check(setting.default_for(rules))
            continue
        try:
            rules[key] = setting.check(value)
        except ValueError:
            raise RuleError(SettingText(key, MUST_BE, CHOOSE if setting.choices else TYPE,
                                        key=key, expects=Text.of(setting.expects), value=describe(value))) from None
    return rules


# --- the engine contract ----------------------------------------------------------------


@dataclass(frozen=True)
class Statistics:
    """A game's own figures on the players' pages: what `count(state, result)` counts for each
    player of a finished game ({player: {count: n}}), and how the counts become figures.

    `shown` names the figures in the order a page shows them, with their labels; each is a
    count summed over games unless `averages` makes it a total divided by a count or `best`
    the highest. `key` is the figure charted game by game, under `trend`; `note` explains
    whose figures they are when that is not obvious. `points`, when a game's result points are
    not what a player reads as its score (net points, settled against the others), words them
    for the page's list of games: the result's points in, a Plural out."""

    count: Callable[[Any, dict], dict[str, dict[str, int]]] = lambda state, result: {}
    shown: Mapping[str, Text] = dataclass_field(default_factory=dict)
    key: str | None = None
    trend: Text | None = None
    averages: Mapping[str, tuple[str, str]] = dataclass_field(default_factory=dict)
    best: frozenset[str] = frozenset()
    note: Text | None = None
    points: Callable[[int], Text] | None = None

    def figure(self, key: str, counts: Mapping[str, int]) -> float | int | None:
        """One figure from a player's counts (summed over games).

        >>> Statistics(averages={"average": ("points", "turns")}).figure("average", {"points": 7, "turns": 2})
        3.5
        """
        if key in self.averages:
            total, count = (counts.get(k, 0) for k in self.averages[key])
            return round(total / count, 1) if count else None
        return counts.get(key, 0)


@dataclass(frozen=True)
class Engine:
    """What the log reader, the service and the screens ask of a game: its engine module's
    names (`Engine.of(module)`), the optional ones taking the defaults below.

    - `name` is the log's `game`, `title` what players see; `settings` its rules; `events`
      each event type with the keys it may carry (besides type/at/by/note).
    - `start(setup, rules)`: the state before the first event; RuleError (naming `players` or
      `teams`) when the seating does not suit the game.
    - `apply(state, event)`: the state after `event`, or RuleError; `state` is never changed.
    - `result(state)`: LOG-FORMAT.md's result object (provisional while unfinished).
    - `writers(state)`: who may enter the next event (None: anyone seated; empty: game over).
    """

    name: str
    title: str
    settings: Mapping[str, Setting]
    events: Mapping[str, frozenset[str]]
    start: Callable[[Setup, Mapping[str, Any]], Any]
    apply: Callable[[Any, Mapping[str, Any]], Any]
    result: Callable[[Any], dict[str, Any]]
    writers: Callable[[Any], frozenset[str] | None]
    # a turn entered step by step before it becomes one event: `verify_draft(state, payload)`
    # checks a step (RuleError) and returns it as the engine reads it; None: entered in one go
    verify_draft: Callable[[Any, Any], Any] | None = None
    # the engine seats the teams itself (partners opposite): `default_teams(players, rules)`
    default_teams: Callable[[list[str], Mapping[str, Any]], list[dict] | None] | None = None
    # the sizes of team the host may have drawn by lot for `count` players seated, each a
    # draw of its own (2: pairs); none: the game has no teams to draw
    team_draws: Callable[[int], tuple[int, ...]] = lambda count: ()
    # whether `count` players seated can only play in teams (the host is not offered "everyone
    # for themselves", a game that could not start)
    teams_needed: Callable[[int], bool] = lambda count: False
    # the rules of the next game at the table, when they move on (the first deal passes on)
    rematch_rules: Callable[[Any], dict[str, Any]] | None = None
    # how many players the game seats under these rules, when that is one number: a table
    # opened with more names is refused at once
    seats: Callable[[Mapping[str, Any]], int] | None = None
    # what its records keep of how an entry was made, scoring nothing (a cell's dice, a turn's
    # throws): left out when two logs are compared as games (service.normal_game)
    details: frozenset[str] = frozenset()
    statistics: Statistics = Statistics()

    @classmethod
    def of(cls, module: Any) -> "Engine":
        """A game's engine module as the contract (an optional name it lacks takes the default)."""
        return cls(**{key: getattr(module, key) for key in cls.__dataclass_fields__ if hasattr(module, key)})


def number(value: Fraction | int) -> int | float:
    """A points figure for JSON: whole numbers as ints, otherwise two decimals at most
    (halves rounded away from zero, as money is).

    >>> number(Fraction(7, 2)), number(Fraction(1, 3)), number(Fraction(-1, 8))
    (3.5, 0.33, -0.13)
    """
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    hundredths = abs(value) * 100
    cents = int(hundredths + Fraction(1, 2))
    return (cents if value > 0 else -cents) / 100


def require(condition: bool, message: str, /, **values: Any) -> None:
    if not condition:
        raise RuleError(message, **values)


def require_seating(condition: bool, message: str, /, **values: Any) -> None:
    """As `require`, for the players and teams a game needs (SeatingError)."""
    if not condition:
        raise SeatingError(message, **values)


def field(event: Mapping[str, Any], key: str, check: Check, expects: str, default: Any = ...) -> Any:
    """Read and check one event key, with a message naming it (`expects` is words a player
    reads: a Text, so the screens translate it)."""
    expects = Text.of(expects)
    value = event.get(key)
    if value is None:
        if default is ...:
            raise RuleError("%(key)s is missing (it must be %(expects)s)", key=key, expects=expects)
        return default
    try:
        return check(value)
    except ValueError:
        raise RuleError("%(key)s must be %(expects)s, not %(value)s", key=key, expects=expects,
                        value=describe(value)) from None
