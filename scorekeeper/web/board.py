"""The live part of a table screen: the whole board (first load, a reconnect, a phone that fell
behind, any change but an entry or an undo), or only the parts a run of entries (or an undo)
touched, as htmx partials (`<hx-partial>`) — an entry's answer and a live update carry a few
cells, not the pad.

A board is made of parts: elements with an id, each rendered by a macro of
`templates/_parts.html` (the stamp, the game, the tray, the history) or of the game's own
`games/<game>/_parts.html` (a pad's cells, totals, turn line); the whole board is
made of the same macros. A change that wrote one entry names it (`store.changed`); each game's
screen module says which parts its entries touch (`touched`), or the board says the whole.

Every message is made of `<hx-partial>`s — the whole board is one (`#board`'s content, with the
invitation beside it) — and names the change it brings a board to (the stamp's `data-change`);
a message of parts also the change it starts from (`data-base`): a phone showing another change
than that applies nothing and asks for the whole board (static/app.js), so a board never mixes
two states. The tray, the way a phone enters its turn, is one part, always swapped whole.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import islice, takewhile
from typing import Any, Iterable

from flask import current_app

from .. import service, store
from ..games.base import RuleError
from ..gamelog import paced
from .context import TableContext
from .games import screen
from .i18n import _

MAX_BEHIND = 16  # changes one message of parts may cover; a phone further behind gets the whole board
GENERIC = "_parts.html"
Part = tuple  # (macro name, its arguments…)


def variables(ctx: TableContext, change: int, tapped: Any = None) -> dict[str, Any]:
    """What the board's templates read, for the whole board and for its parts alike; `tapped`,
    what this phone's tray shows of a turn it has not sent (its form's fields: GET …/tray)."""
    played = ctx.played
    values = {"ctx": ctx, "change": change, "table": ctx.table, "who": ctx.who, "played": played,
              "view": ctx.view, "engine": played.engine, "result": played.result,
              "tapped": tray_view(ctx, tapped or {}), "asked": tapped or {}}
    current_app.update_template_context(values)
    return values


def tray_view(ctx: TableContext, args: Any) -> Any:
    """What the game's tray shows of what this phone tapped (its screen's `tray_view`)."""
    made = screen(ctx.played.row["game"]).tray_view
    return made(ctx, args) if made and ctx.played.game is not None and ctx.can_write else None


def whole(ctx: TableContext, change: int, tapped: Any = None, slice_: float | None = None,
          how: str = "innerHTML") -> str:
    """The whole board as this kind of viewer sees it now, claiming `change` (taken before the
    state is read, so the board is never older than it says), with the page header's code and
    name and the invitation beside it; `slice_`, as `rendered`; `how`, its swap, which may
    scroll the page (`since`)."""
    values = variables(ctx, change, tapped)
    env = current_app.jinja_env
    out = partial(rendered("_board.html", values, slice_), "board", how)
    generic = env.get_template(GENERIC).make_module(values)
    out += swap(str(generic.where()).strip())
    if not ctx.who.read_only:
        out += swap(str(generic.invite()).strip())
    return SPACE.sub(" ", out)


def inner(ctx: TableContext, change: int) -> str:
    """The board's content for the table page itself."""
    return SPACE.sub(" ", rendered("_board.html", variables(ctx, change)))


def rendered(name: str, values: dict, slice_: float | None = None) -> str:
    """A template rendered in pieces, the worker's other requests running between them every
    `slice_` seconds (`gamelog.Pace`; None: its SLICE): a twelve-player dice pad of three
    columns is 72 KB, 18 ms of one worker here."""
    return "".join(paced(current_app.jinja_env.get_template(name).generate(values), slice_=slice_))


# seconds a phone's own answer renders between two chances for the worker's other requests:
# the bound on any request's hold (~50 ms), so that a whole board (an undo, a correction,
# a phone far behind) ends before it: the largest, a twelve-player pad of three columns (72
# KB), takes 18 ms on the slow machine of docs/performance.md.
# Issue 25: under an attacker's streams an answer paced every 5 ms came back from each chance
# 30–150 ms later, as every ready request of the worker ran first
ANSWER_SLICE = 0.05


def tray(ctx: TableContext, change: int, tapped: Any, asked: int | None = None) -> str:
    """This phone's tray alone, with what it tapped (GET …/tray) on its board of change `asked`.
    Tapped on a board that an entry has left behind since (a tray asked late: sent again after a
    proxy's 429, or answered after the entry's own answer), it belonged to a turn now entered:
    the tray comes as the entry left it, or a late answer put five old dice back on a phone
    that then took no more."""
    if asked is not None and asked < change and entered_since(ctx, asked, change):
        tapped = {}
    values = variables(ctx, change, tapped)
    html = SPACE.sub(" ", str(current_app.jinja_env.get_template(GENERIC).make_module(values).tray()).strip())
    # a partial, aimed at the tray by its id (the form that asked may be redrawn meanwhile); a
    # game whose tray holds fields being typed in morphs it, keeping the caret where it is
    return partial(html, "tray", screen(ctx.played.row["game"]).tray_swap)


def entered_since(ctx: TableContext, base: int, change: int) -> bool:
    """Whether an entry (any event of the game) was written after change `base` up to `change`;
    past MAX_BEHIND changes, taken as yes."""
    rows = store.changes_since(ctx.db, ctx.table["id"], base, change, MAX_BEHIND + 1)
    return len(rows) > MAX_BEHIND or any(event_id is not None for _, event_id, _ in rows)


def parts(ctx: TableContext, base: int, change: int, tapped: Any = None, answer: bool = False) -> str | None:
    """The parts the changes after `base` up to `change` touched, rendered as they stand now, as
    htmx partials; None when only the whole board will do. `answer`: the answer to this phone's
    own write, the last change, which its screen reader is not told again (`render`)."""
    if base >= change:
        return None
    rows = store.changes_since(ctx.db, ctx.table["id"], base, change, MAX_BEHIND + 1)
    if not rows or len(rows) > MAX_BEHIND or any(event_id is None and noted != store.DRAFT
                                                  for _, event_id, noted in rows):
        return None
    played = ctx.played
    game = screen(played.row["game"])
    # steps of the turn being entered (its draft: a throw kept, a point tallied), which the
    # game says the parts of; with no entry among the changes, they alone
    stepped = []
    if any(event_id is None for _, event_id, _ in rows):
        if game.drafted is None or played.game is None or played.finished:
            return None
        stepped = game.drafted(ctx, played)
        rows = [row for row in rows if row[1] is not None]
        if not rows:
            return render(ctx, change, [("stamp",), *stepped], base, [], tapped, [])
    wanted = {event_id for _, event_id, _ in rows}
    events = list(reversed(list(takewhile(lambda recorded: recorded.id >= min(wanted), reversed(played.history)))))
    events = [recorded for recorded in events if recorded.id in wanted]
    if (len(events) != len(wanted) or any(recorded.kind not in ("entry", "undo") for recorded in events)
            or played.game is None or played.last_event_id != max(wanted)):
        # a correction, an entry of another game, or a state already past `change` (another
        # process wrote meanwhile): the whole board
        return None
    told = took_back(played, events)
    if told is None:
        return None
    standing, undone = told
    # the game started or unstarted by these changes (its first entry, or its first taken back)
    had = len(played.entries) - len(standing) + sum(1 for _, (entry,) in undone if entry.id < events[0].id)
    first = (had == 0) != (not played.entries)
    if first and sits_out(ctx):  # a seat told with them that it plays from the next game
        return None
    chosen = list(stepped)
    for then, entries in [*undone, *([(played, standing)] if standing else [])]:
        got = game.touched(ctx, then, entries) if game.touched else [("stamp",), ("game",), ("tray",), ("history",)]
        if got is None:
            return None
        chosen += got
    if undone:  # the tray whole, faces too: the phone on turn again had none (`had_pad`)
        chosen = [("tray",) if part[0] == "tray" else part for part in chosen]
    if first:
        chosen = [*chosen, *follow_the_first(ctx)]
    if played.finished or any(then.finished for then, _ in undone):  # the end, or an end taken back
        if ctx.who.seat and not ctx.who.host:
            # a seat's own entries are its to undo and correct until the end, the host's alone
            # after it (policy._changing): their buttons, on its cells and history rows, go
            # with the end and come back when it is taken back — the whole board, once a game
            return None
        chosen = [*chosen, *(game.ended if game.touched and game.ended is not None else [("game",)]), ("settle",)]
    answered = {event_id for made, event_id, _ in rows if made == change} if answer else set()
    told = [recorded for recorded in events if recorded.id not in answered]
    return render(ctx, change, chosen, base, events, tapped, told)


def since(ctx: TableContext, base: int, change: int, tapped: Any = None, answer: bool = False,
          slice_: float | None = None) -> str:
    """What a phone whose board shows `base` is sent to bring it to `change`: the parts these
    changes touched (`parts`); or, when only the whole board will do, the whole board scrolled
    where these changes want the phone to look (`scrolled`); or "" when the whole board as
    any phone of its kind gets it will do."""
    found = parts(ctx, base, change, tapped, answer)
    if found:
        return found
    how = scrolled(ctx, base, change)
    fixed = [] if answer or how else corrections(ctx, base, change)
    if not how and not fixed:
        return ""
    out = whole(ctx, change, tapped, slice_, how or "innerHTML")
    if how == SHOW_SETTLEMENT:  # the end, to a screen reader too: who won (`render`) — not to
        # the writer of the last entry, whose focus goes to the settlement, which says it; its
        # line is emptied (it kept the last turn line it heard: "Your turn!" after the end)
        out += partial("" if answer else headline(out), "said", "innerHTML")
    elif how == TO_THE_TOP and not answer:  # a rematch: a screen reader still held who won the last game
        out += partial(began(ctx, change), "said", "innerHTML")
    elif fixed:  # a correction, told as an entry is (not to its writer: it chose it)
        said = current_app.jinja_env.get_template(GENERIC).make_module(variables(ctx, change)).said(fixed)
        out += partial(SPACE.sub(" ", str(said).strip()), "said", "innerHTML")
    return out


def began(ctx: TableContext, change: int) -> str:
    """What a screen reader is told of a new game begun (a rematch): that it began, and whose
    turn it is where the game's parts have a turn line (`render`). Not to the phone that began
    it: its focus goes to the new game's tray, which its turn line names (static/app.js)."""
    return SPACE.sub(" ", _("Rematch") + turn_said(own_parts(ctx, variables(ctx, change)), "· "))


def own_parts(ctx: TableContext, values: dict):
    """The game's own parts of a board message (its _parts.html), else the shared ones."""
    return current_app.jinja_env.select_template([f"games/{ctx.played.row['game']}/_parts.html",
                                                  GENERIC]).make_module(values)


def turn_said(own, lead: str = "") -> str:
    """Whose turn it is, for #said, in the words of the game's turn part (`own`: `own_parts`),
    which the message's gzip finds there; "" where the game has no turn line. A span of its
    own: a phone whose focus the new tray takes, which its turn line names, leaves it out
    (static/app.js)."""
    turn = getattr(own, "turn", None)
    return "" if turn is None else f' <span data-turn>{lead}{INSIDE.sub("", str(turn()).strip())}</span>'


def corrections(ctx: TableContext, base: int, change: int) -> list:
    """The corrections of the game shown among the changes after `base` up to `change` (none
    when the phone is too far behind to be told each): a whole board brings them, and a screen
    reader at the table heard nothing of a cell that changed under it."""
    rows = store.changes_since(ctx.db, ctx.table["id"], base, change, MAX_BEHIND + 1)
    if not rows or len(rows) > MAX_BEHIND:
        return []
    wanted = {event_id for _, event_id, _ in rows if event_id is not None}
    if not wanted:
        return []
    newest = takewhile(lambda recorded: recorded.id >= min(wanted), reversed(ctx.played.history))
    return [recorded for recorded in reversed(list(newest)) if recorded.id in wanted and recorded.kind == "correct"]


def scrolled(ctx: TableContext, base: int, change: int) -> str | None:
    """Where a whole board after change `base` up to `change` scrolls its page: a new game
    begun since (a rematch), to its top, where its pad and tray are (the page stood at the
    settlement, and a host's, long with the seat list and the QR code, stayed there); the
    game ended since (a seated player's board at its end: `parts`), to its settlement — a pad
    of 15 rows left who won, who pays whom and the Rematch under the fold, with no sign the
    game was over. Else None: a board sent again for anything else (a seat let in, a
    correction) leaves its phone where it is."""
    if base >= change:
        return None
    played = ctx.played
    ended = played.entries[-1][0].id if played.finished and played.entries else None
    began, ended = store.game_changes_between(ctx.db, ctx.table["id"], base, change, service.NEW_GAME, ended)
    return TO_THE_TOP if began else SHOW_SETTLEMENT if ended else None


def took_back(played: Any, events: list) -> tuple[list, list] | None:
    """Of a run of entries and undos: the entries that stand (the game's last), and for each
    entry an undo among them took back, the game as it stood with that entry (as corrected)
    and the entry — an undo changes what the entry it took back had changed (issue 25: the
    attacker's host entered and undid a cell 8 times a second, and every undo sent each of its
    streams the whole board). The entries taken back are applied again to the game before the
    standing ones, which they all followed when no standing entry comes before an undo and no
    entry taken back was made on another. None when the game cannot be told so: the whole
    board then."""
    targets = [recorded.target for recorded in events if recorded.kind == "undo"]
    standing = [recorded for recorded in events if recorded.kind == "entry" and recorded.id not in targets]
    if [recorded.id for recorded, _ in played.entries[len(played.entries) - len(standing):]] != [r.id for r in standing]:
        return None
    if not targets:
        return standing, []
    # no standing entry before an undo, and no entry taken back made on another one taken back
    # (entries taken back "above" the game the standing ones followed: at most one at a time)
    above, stood = sum(1 for target in targets if target < events[0].id), False
    for recorded in events:
        if above > 1:
            return None
        if recorded.kind == "undo":
            above -= 1
            if stood:
                return None
        elif recorded.id in targets:
            above += 1
        else:
            stood = True
    base = played.state if not standing else played.previous if len(standing) == 1 else None
    if base is None:
        return None
    kept = played.entries[:len(played.entries) - len(standing)]
    undone = []
    for target in targets:
        event = entry = None
        for recorded in reversed(played.history):
            if recorded.kind == "correct" and recorded.target == target and event is None:
                event = recorded.event
            elif recorded.id == target:
                entry = recorded
                break
        if entry is None or entry.kind != "entry":
            return None
        event = entry.event if event is None else event
        try:
            state = played.game.apply(base, event)
        except RuleError:
            return None
        undone.append((replace(played, entries=kept + ((entry, event),), state=state,
                               result=played.engine.result(state)), [entry]))
    return standing, undone


def sits_out(ctx: TableContext) -> bool:
    """Whether this viewer sits at a seat that is none of the game's players: a game's first
    entry tells it that it plays from the next game (templates/_board.html), in a card where
    its board had none."""
    who = ctx.who
    return who.seat is not None and who.name not in ctx.played.header.get("players", ())


def follow_the_first(ctx: TableContext) -> list[Part]:
    """What else a game's first entries change on this viewer's board (templates/_board.html):
    the join form of a phone without a seat (a new seat now plays from the next game; a host
    who only keeps score has none once the game has begun) and the host's seat list (it
    folds, and teams are no longer drawn). Issue 27: at a venue's start every table's first
    entry sent its host and onlookers the whole board; issue 25: an attacker's host entering
    and undoing one cell got a whole board each time, and an honest game's first and last
    entries were the whole boards its p99 was made of."""
    who = ctx.who
    return ([("join",)] if not who.read_only and not who.seat and not who.removed else []) + (
        [("seats",)] if ctx.may("seats") else [])


def render(ctx: TableContext, change: int, chosen: Iterable[Part], base: int, events: list, tapped: Any,
           told: list) -> str:
    values = variables(ctx, change, tapped)
    generic = current_app.jinja_env.get_template(GENERIC).make_module(values)
    own = own_parts(ctx, values)
    out, done, settled = [], set(), None
    chosen = list(chosen)
    # a piece of a part (a part with arguments: a row of the score sheet) goes with the part
    # chosen whole beside it (an undo's sheet, then the row of the entry made instead: twice)
    wholes = {part[0] for part in chosen if len(part) == 1}
    for part in chosen:
        if part in done or (len(part) > 1 and part[0] in wholes):
            continue
        done.add(part)
        name, *args = part
        if name == "history":
            out += history(ctx, generic, events)
            continue
        if name == "join":  # gone from the board when there is no seat left to take
            html = str(generic.join()).strip()
            out.append(swap(html) if html else partial("", "join", "delete"))
            continue
        html = str((getattr(own, name, None) or getattr(generic, name))(*args)).strip()
        if name == "stamp":
            html = html.replace(" data-change=", f' data-base="{base}" data-change=', 1)
        if name == "settle" and ctx.played.finished:  # the game's end: into view (`since`)
            out.append(partial(html, "settle", SETTLE_IN_VIEW))
            settled = html
            continue
        # a piece added where its part is (a row at the sheet's end) is a partial of its own
        out.append(html if html.startswith("<hx-partial") else swap(html))
    # what a screen reader says (templates/table.html: #said): the entries `told`, and whose turn
    # it is now where the game's parts have a turn line — its words as the turn part has them,
    # which the message's gzip finds there. Not to a writer of its own entry alone: it chose
    # what it wrote, and its focus, back on the tray the turn line names (app.js), says whose
    # turn it is (said twice, and its answer past 1 KB)
    if told:
        said = str(generic.said(told)).strip()
        if ctx.played.finished:  # the end: who won, as the settlement's heading says it
            said += " " + headline(settled or str(generic.settle()))
        else:
            said += turn_said(own)
        out.append(partial(SPACE.sub(" ", said), "said", "innerHTML"))
    elif ctx.played.finished:  # the writer of the last entry: its line emptied (`since`)
        out.append(partial("", "said", "innerHTML"))
    return SPACE.sub(" ", "".join(out))


def history(ctx: TableContext, parts, events: list) -> list[str]:
    """The history's newest rows after `events` (entries, or an undo, that end it): their rows
    on top, the rows that fall off gone, the row of an entry an undo took back struck through.
    A row never changes otherwise while only entries and undos follow it (a correction sends
    the whole board). The fold of the earlier rows is on the page already: it shows once the
    game's first row has fallen off (app.css)."""
    played, shown = ctx.played, ctx.recent_rows
    first = min(recorded.id for recorded in events)
    # the newest rows only: a game of 2,000 events is not walked for each entry
    newest = list(islice(reversed(played.history), len(events) + shown))
    before = [recorded for recorded in newest if recorded.id < first][:shown]
    after = newest[:shown]
    if not before:
        return [swap(str(parts.history()).strip())]
    kept = {recorded.id for recorded in before}
    out = [partial(str(parts.history_row(recorded)).strip(), "history-rows", "afterbegin")
           for recorded in reversed(after) if recorded.id not in kept]
    out += [partial("", f"h{recorded.id}", "delete") for recorded in before if recorded not in after]
    # the row of an entry taken back, struck through where it stays
    taken = kept.intersection(recorded.target for recorded in events if recorded.kind == "undo")
    return out + [swap(str(parts.history_row(recorded)).strip()) for recorded in after if recorded.id in taken]


def headline(html: str) -> str:
    """Who won, as the settlement in `html` (the settlement, or a board holding it) heads it,
    with what stands above its heading (a "Winners" line), in words alone: what a screen reader
    is told at the end (#said). Read from what was rendered already, not rendered again."""
    found = HEADLINE.search(html)
    return " ".join(TAG.sub(" ", found.group(1)).split()) if found else ""


def swap(html: str) -> str:
    """A part in place of the element with its id."""
    return partial(html, ID.match(html).group(1))


def partial(html: str, target: str, how: str | None = None) -> str:
    """htmx's <hx-partial>: its content (parsed alone, so a table's cell or row is one too)
    swapped into the element with the id `target`, `how` (the page's default: outerHTML)."""
    swap = f' hx-swap="{how}"' if how else ""
    return f'<hx-partial id="{target}"{swap}>{html}</hx-partial>'


# htmx's `show`: the swapped settlement (or the board's, on a whole board) scrolled to the top of
# the screen, under the page header (app.css: #settle's scroll-margin-top)
SETTLE_IN_VIEW = "outerHTML show:top"
SHOW_SETTLEMENT = "innerHTML show:top showTarget:#settle"
TO_THE_TOP = "innerHTML scroll:top scrollTarget:window"
ID = re.compile(r'<[a-z]+\b[^>]*?\sid="([^"]+)"')
INSIDE = re.compile(r"^<[a-z]+\b[^>]*>|</[a-z]+>$")  # an element's tags, around what it holds
HEADLINE = re.compile(r'id="settle"[^>]*>(.*?</h2>)', re.S)
TAG = re.compile(r"<[^>]+>")
SPACE = re.compile(r"\s*\n\s*|  +(?=<)")  # no <pre> or <textarea> on a board: a line break, or spaces before a tag, is one space


def message(ctx: TableContext, base: int | None, hub, tapped: Any = None, done: Any = None,
            answer: bool = False) -> tuple[str, int]:
    """What a phone whose board shows `base` (None: unknown) needs now, and the change it
    brings the board to, answering its own request (a write's answer, polling): read with the
    request's own connection, never the live streams' shared one (`Hub.query`: issue 25, an
    honest entry's answer waited 100–300 ms in line behind the streams of an attacker's table);
    made once per process for every phone of one kind, and never waiting for a stream making
    the same (with `tapped`, an answer's own tray: for this phone alone). `done`: the write
    this answers (service.Committed), whose change and game it shows rather than the table's
    last. `answer`: a write's own answer — also one that wrote no event (a rematch) —, which
    tells its screen reader less than a poll (`parts`, `since`)."""
    db = ctx.db
    change = store.last_change(db, ctx.table["id"]) if done is None else done.change
    played = done.played if done is not None else None

    def render_whole() -> str:
        return whole(ctx.again(db, played), change, tapped, ANSWER_SLICE)

    def render_parts() -> str:
        return since(ctx.again(db, played), base, change, tapped, answer, ANSWER_SLICE) or render_whole()

    behind = base is not None and base < change
    if tapped:
        return render_parts() if behind else render_whole(), change
    if behind:
        key = (ctx.table["id"], base, change, ctx.kind, *(("answer",) if answer else ()))
        return hub.board(key, render_parts, wait=False), change
    return hub.board((ctx.table["id"], change, ctx.kind), render_whole, wait=False), change


def board(ctx: TableContext, change: int, hub) -> str:
    """The whole board a live stream sends (rendered with the streams' shared connection)."""
    return hub.board((ctx.table["id"], change, ctx.kind), lambda: hub.query(lambda db: whole(ctx.again(db), change)))


def streamed(ctx: TableContext, base: int | None, change: int, hub) -> tuple[tuple, str, int] | float:
    """What a live stream whose phone shows `base` (None: unknown) sends to bring it to
    `change` (the table's last: Hub.marks): (the key its message is made once under, for every
    stream of this kind in the process — Hub.board, Hub.packed —, the message, `change`); or,
    when this table's streams were sent another change less than Hub.send_every ago, how many
    seconds to wait before asking again (issue 25: an attacker's host entered and undid a cell 8
    times a second, every undo a whole board for every stream): the changes meanwhile come with
    the next message."""
    table_id = ctx.table["id"]
    wait = hub.send_wait(table_id, change)
    if wait > 0:
        return wait
    if base is not None and base < change:
        key = (table_id, base, change, ctx.kind, "parts")
        html = hub.board(key, lambda: hub.query(lambda db: since(ctx.again(db), base, change)))
        if html:
            return key, html, change
    return (table_id, change, ctx.kind), board(ctx, change, hub), change
