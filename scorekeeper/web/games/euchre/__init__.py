"""Euchre on the table screen: the race to the target, the deal, the hand picker's preview,
and a hand entry that is refused when its deal was entered already."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from functools import cached_property

from flask import g, request

from .... import service
from ....games import euchre
from ....games.base import RuleError
from ...context import table_blueprint
from ...i18n import pgettext
from ...writes import answer, board, digits, idem
from .. import Screen

bp = table_blueprint("euchre", __name__)

SUITS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RED_SUITS = frozenset({"diamonds", "hearts"})
MAX_PIPS = 15  # a longer race is drawn as a bar


# --- the board ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamView:
    name: str
    members: tuple[str, ...]
    index: int  # position in the log's teams: the team's colour on every phone
    score: int
    mine: bool
    won: bool
    carried: int = 0  # Railroad: points carried in from the last game (counted in `score`)


@dataclass(frozen=True)
class EuchreView:
    """What the Euchre templates read: the race, the deal, and the words of hands and suits."""

    played: service.Played
    teams: tuple[TeamView, ...]  # in the log's order, the same on every phone
    target: int
    pips: bool
    hand_number: int  # the hand about to be dealt, counting from 1
    deals: int  # hands and redeals so far: the entry is refused when this has moved on
    dealer: str | None
    leader: str | None
    players: tuple[tuple[str, int], ...]  # (name, team index) in seat order
    me: str | None
    form: str  # partnership, two-handed, three-handed or railroad
    red = RED_SUITS

    @property
    def lone_hands(self) -> bool:
        """Whether a player may go alone: in the partnership forms only."""
        return self.form in euchre.PARTNERSHIPS

    @property
    def slam(self) -> bool:
        """A Railroad slam: the winner took two games."""
        return max((self.played.result.get("games") or {}).values(), default=1) == 2

    @cached_property
    def statistics(self) -> dict[str, Any]:
        return statistics(self.played)

    def line(self, recorded: service.Recorded, event: dict | None) -> HandLine:
        return hand_line(self.played, recorded, event)

    def current(self, recorded: service.Recorded, event: dict | None) -> dict | None:
        return current_event(self.played, recorded, event)

    @staticmethod
    def suit(suit: str | None) -> str:
        return suit_sign(suit)

    @staticmethod
    def suit_name(suit: str | None) -> str:
        return suit_name(suit)


def team_index(state: euchre.State) -> dict[str, int]:
    """Each player's team, as its position among the teams."""
    return {member: number for number, side in enumerate(state.setup.sides) for member in side.members}


def view(ctx, played: service.Played) -> EuchreView | None:
    state: euchre.State = played.state
    if state is None:
        return None
    score = state.score()
    me = ctx.who.name if ctx.who.name in state.setup.players else None
    mine = state.setup.side_of(me).name if me else None
    carried = state.starting()
    teams = [TeamView(side.name, side.members, number, score[side.name], side.name == mine,
                      side.name == state.winner, carried.get(side.name, 0))
             for number, side in enumerate(state.setup.sides)]
    upcoming = euchre.next_deal(state)
    players = team_index(state)
    return EuchreView(played, tuple(teams), state.rules["target"], state.rules["target"] <= MAX_PIPS,
                     len(state.hands) + 1, len(state.deals), upcoming[0] if upcoming else None,
                     upcoming[1] if upcoming else None,
                     tuple((player, players[player]) for player in state.setup.players), me, str(state.form))


# --- the tray: the hand being chosen ------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A tricks button: what the hand scores with so many tricks, and for whom."""

    tricks: int
    team: int  # the team index that scores (its colour)
    points: int
    also: tuple[int, ...]  # every other team scoring as much (three-handed: both defenders)
    word: str  # "march", "made" or "euchred"

    @property
    def teams(self) -> tuple[int, ...]:
        return (self.team, *self.also)


@dataclass(frozen=True)
class Tray:
    """The hand this phone is choosing: who named trump (or a redeal), who went alone, trump,
    the makers' tricks — and what that hand makes of the game."""

    redeal: bool
    maker: str | None
    alone: bool
    defender: str | None
    trump: str | None
    tricks: int | None
    maker_team: int | None
    partner: str | None
    defenders: tuple[str, ...]
    choices: tuple[Choice, ...]
    leader: str | None
    next_dealer: str
    score: tuple[int, ...] | None  # every team's score after the hand chosen
    ends: bool
    team_names: tuple[str, ...] = ()

    @property
    def scorers(self) -> str:
        """The teams the chosen hand scores for (both defenders of a three-handed euchre)."""
        return " & ".join(self.team_names[team] for team in self.chosen.teams) if self.chosen else ""

    @property
    def chosen(self) -> Choice | None:
        return self.choices[self.tricks] if self.tricks is not None and self.tricks < len(self.choices) else None


def _newest(values: list[str], was: str) -> str | None:
    """Of checkboxes that allow one at a time, the one just ticked (or the one left)."""
    ticked = [value for value in values if value != was]
    return ticked[-1] if ticked else (was if was in values else None)


def tray_view(ctx, args) -> Tray | None:
    played = ctx.played
    state: euchre.State = played.state
    if not ctx.writes_now or played.finished:
        return None
    setup = state.setup
    index = team_index(state)
    getlist = getattr(args, "getlist", lambda key: list(args.get(key) or []))
    next_dealer = euchre.left_of(setup, state.dealer)
    redeal = bool(args.get("redeal")) and not args.get("reset")
    maker = None if args.get("reset") or redeal else (args.get("lone") or args.get("maker"))
    if maker not in setup.players:
        return Tray(redeal, None, False, None, None, None, None, None, (), (), None, next_dealer, None, False)
    lone = bool(args.get("lone")) or args.get("alone") == "1"
    alone = lone and str(state.form) in euchre.PARTNERSHIPS
    defenders = tuple(p for p in setup.players if setup.side_of(p) is not setup.side_of(maker))
    defender = _newest(getlist("defender"), str(args.get("was_defender", "")))
    defender = defender if defender in defenders and str(state.form) in euchre.PARTNERSHIPS else None
    trump = _newest(getlist("trump"), str(args.get("was_trump", "")))
    trump = trump if trump in SUITS else None
    choices = []
    for tricks in range(euchre.TRICKS + 1):
        scores = euchre.hand_scores(state, maker, tricks, alone, defender)
        teams = [index[setup.side(team).members[0]] for team in scores]
        word = "march" if tricks == euchre.TRICKS else "made" if tricks >= 3 else "euchred"
        choices.append(Choice(tricks, teams[0], next(iter(scores.values())), tuple(teams[1:]), word))
    tricks = args.get("tricks")
    tricks = int(tricks) if isinstance(tricks, str) and digits(tricks) and int(tricks) <= euchre.TRICKS else None
    score, ends = None, False
    if tricks is not None:
        chosen = choices[tricks]
        score = tuple(state.score()[side.name] + (chosen.points if number in chosen.teams else 0)
                      for number, side in enumerate(setup.sides))
        ends = any(points >= state.rules["target"] for points in score)
    return Tray(False, maker, alone, defender, trump, tricks, index[maker], euchre.partner_of(setup, maker),
                defenders, tuple(choices), euchre.leader(setup, state.dealer, maker, alone, defender), next_dealer,
                score, ends, tuple(side.name for side in setup.sides))


# --- the history ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLine:
    """One entry as the history shows it."""

    redeal: bool
    maker: str | None = None
    tricks: int | None = None
    alone: bool = False
    defender_alone: str | None = None
    trump: str | None = None
    outcome: str | None = None
    maker_team: int | None = None  # team indexes: the colours
    team: str | None = None
    team_index: int | None = None
    points: int | None = None
    dealer: str | None = None  # known for entries of the game as it stands
    score: tuple[int, ...] | None = None  # both teams after it, in the log's team order
    undone: bool = False
    corrected: bool = False  # the host replaced what was entered


def deals_by_entry(played: service.Played) -> dict[int, tuple[Any, tuple[int, ...]]]:
    """Entry id -> (the Hand or Redeal it became, the score after it). Every entry of the
    game folds into exactly one deal, in order. Made once per fold (issue 25: made for every
    row, a history of 2,000 deals took 2.5–5 s)."""
    return played.derived("euchre.deals", _deals_by_entry)


def _deals_by_entry(played: service.Played) -> dict[int, tuple[Any, tuple[int, ...]]]:
    state: euchre.State = played.state
    names = [side.name for side in state.setup.sides]
    score = state.starting()  # railroad laps may carry points in
    found = {}
    for (recorded, _), deal in zip(played.entries, state.deals):
        if isinstance(deal, euchre.Hand):
            for side in deal.scored:  # two sides in a three-handed euchre
                score[side] += deal.points
        found[recorded.id] = (deal, tuple(score[name] for name in names))
    return found


def current_event(played: service.Played, recorded: service.Recorded, event: dict | None) -> dict | None:
    """An entry as it stands now (after the host's corrections); None once undone. The
    events of undo and correction rows are shown as given."""
    if recorded.kind != "entry":
        return event
    return played.current(recorded.id)


def hand_line(played: service.Played, recorded: service.Recorded, event: dict | None) -> HandLine:
    """The entry `event` as it stands now, with what it scored and the score after it; an
    undone entry as it was entered."""
    if not event or played.state is None:
        return HandLine(redeal=False)
    now = current_event(played, recorded, event)
    undone = now is None
    corrected = not undone and now != event
    event = event if undone else now
    state: euchre.State = played.state
    index = team_index(state)
    known = deals_by_entry(played).get(recorded.id) if recorded.kind == "entry" else None
    if event.get("type") == "redeal":
        dealer = known[0].dealer if known else None
        return HandLine(redeal=True, dealer=dealer, score=known[1] if known else None,
                        undone=undone, corrected=corrected)
    try:
        maker = state.setup.player(event.get("maker"))
        tricks = int(event.get("tricks"))
        alone = bool(event.get("alone"))
        defender = state.setup.player(event["defender_alone"]) if event.get("defender_alone") else None
        party, points = euchre.award(tricks, alone, defender is not None, state.form)
    except (RuleError, TypeError, ValueError):
        # a record this engine cannot read (its maker no player here): who and the tricks as stored
        stored = event.get("maker")
        tricks = event.get("tricks")
        tricks = int(tricks) if (isinstance(tricks, int) and not isinstance(tricks, bool)) or (isinstance(tricks, str) and digits(tricks)) else None
        return HandLine(redeal=False, maker=str(stored) if stored is not None else None, tricks=tricks,
                        undone=undone, corrected=corrected)
    makers = state.setup.side_of(maker)
    team = makers if party is euchre.Party.MAKERS else next(s for s in state.setup.sides if s is not makers)
    scored = known[0].scored if known and isinstance(known[0], euchre.Hand) else (team.name,)
    # a three-handed euchre scores both defenders: neither one's colour
    name, colour = (team.name, index[team.members[0]]) if len(scored) == 1 else (" & ".join(scored), None)
    return HandLine(False, maker, tricks, alone, defender, _trump(event.get("trump")), euchre.outcome(tricks).value,
                    index[maker], name, colour, points,
                    known[0].dealer if known else None, known[1] if known else None, undone, corrected)


def _trump(value: Any) -> str | None:
    """The suit as SUITS names it: the engine takes " Hearts" too."""
    suit = value.strip().lower() if isinstance(value, str) else None
    return suit if suit in SUITS else None


def suit_sign(suit: str | None) -> str:
    return SUITS.get(suit or "", "")


def suit_name(suit: str | None) -> str:
    """What a suit's sign says, in the phone's language (its title and label)."""
    names = {"clubs": pgettext("card suit", "clubs"), "diamonds": pgettext("card suit", "diamonds"),
             "hearts": pgettext("card suit", "hearts"), "spades": pgettext("card suit", "spades")}
    return names.get(suit or "", "")


def statistics(played: service.Played) -> dict[str, Any]:
    """For the end screen: per team its marches, euchres it made, lone hands; hands per trump."""
    state: euchre.State = played.state
    trumps = {suit: {"hands": 0, "made": 0} for suit in SUITS}
    for hand in state.hands:
        if hand.trump:
            trumps[hand.trump.value]["hands"] += 1
            trumps[hand.trump.value]["made"] += hand.outcome is not euchre.Outcome.EUCHRED
    return {"teams": euchre.tally(state), "trumps": {suit: n for suit, n in trumps.items() if n["hands"]},
            "hands": len(state.hands), "redeals": len(state.deals) - len(state.hands),
            "next_dealer": euchre.rematch_rules(state)["first_dealer"]}


# --- entering a hand ------------------------------------------------------------------------------


@bp.post("/euchre/hand")
def hand():
    """The hand the tray chose (its fields, as `tray_view` reads them) or a redeal, built inside
    the write, after its key and its board are checked: a hand another phone entered first is
    refused as such, a retry answers as the first did."""
    ctx = g.ctx
    if ctx.played.row["game"] != "euchre":
        raise service.Refused("This table is not playing a Euchre game yet.", 409)

    def enter_hand(change: service.Write) -> int:
        now = ctx.again(change.db)
        if now.played.state is None:
            raise service.Refused("This table is not playing a Euchre game yet.", 409)
        service.require("write", ctx.who, now.played)
        chosen = tray_view(now, request.form)
        if chosen is not None and chosen.redeal:
            return change.submit({"type": "redeal"})
        if chosen is None or chosen.maker is None or chosen.tricks is None:
            raise service.Refused("Tap who named trump and the tricks the makers took.", 400)
        event = {"type": "hand", "maker": chosen.maker, "tricks": chosen.tricks}
        if chosen.alone:
            event["alone"] = True
        if chosen.defender:
            event["defender_alone"] = chosen.defender
        if chosen.trump:
            event["trump"] = chosen.trump
        return change.submit(event)

    service.write(ctx.db, ctx.table, ctx.who, enter_hand, idem(), board())
    return answer()


SCREEN = Screen(view, blueprints=(bp,), tray_view=tray_view)
