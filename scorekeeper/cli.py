"""The `scorekeeper` command: Flask's own commands plus replay, schema, serve, export, import, backup, restore."""

from __future__ import annotations

import errno
import json
import os
import sys
from contextlib import contextmanager

import click
from flask.cli import FlaskGroup, NoAppException, with_appcontext

from . import configured_app, create_app
from .gamelog import LogError, parse_json, replay as replay_log
from .settings import SettingError


class Refusal(click.ClickException):
    """A command refuses what it was asked: one line on stderr, exit status 2 (`fail`)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(" ".join(self.format_message().split()), err=True)


class Unusable(Refusal, NoAppException):
    """The app cannot be made here — its instance folder, its database or a setting: a refusal
    (every command used to end in a traceback)."""


def load_app():
    """The app, for the commands that need one (the instance folder made, the database migrated);
    for a command marked `settings_only`, its settings alone (no database opened); for one marked
    `reads_a_database` (backup, export), only where a database already is: a
    wrong SCOREKEEPER_INSTANCE (a typo, or none, run from another folder) was made into a new
    instance folder with an empty database and a secret key before the command refused it."""
    import sqlite3

    command = click.get_current_context(silent=True)
    command = command and command.command
    make = configured_app if getattr(command, "settings_only", False) else create_app
    try:
        if getattr(command, "reads_a_database", False):
            database = configured_app(make_folder=False).config["DATABASE"]
            if not os.path.isfile(database):
                raise Unusable(f"there is no database at {database}: is SCOREKEEPER_INSTANCE the server's "
                               f"instance folder? (docs/deploy.md)")
        return make()
    except SettingError as error:
        raise Unusable(str(error)) from None
    except OSError as error:
        where = error.filename or os.environ.get("SCOREKEEPER_INSTANCE") or "the instance folder"
        raise Unusable(f"cannot use {where}: {error.strerror or error} (the instance folder: "
                       f"SCOREKEEPER_INSTANCE)") from None
    except sqlite3.Error as error:
        raise Unusable(f"cannot open the database {configured_app().config['DATABASE']}: {error} (a read-only "
                       f"folder or disk, a full disk, or a file that is no database?)") from None


class Commands(FlaskGroup):
    """Flask's group, whose mistakes on the command line are refusals too: a backup FILE that
    is missing or a folder, a --game that is no number, a command that does not exist printed
    click's usage, a hint and the error, four lines."""

    def make_context(self, *args, **kwargs):
        with one_line_usage():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with one_line_usage():
            return super().invoke(ctx)

    # Flask made the whole app to look for the app's own commands (there are none): `scorekeeper
    # --help` made the instance folder and database, migrated a live one after an upgrade, and
    # printed "Error: …" over the help where the app could not be made
    # (other packages' commands still come: Flask's own way, private, so a Flask without it
    # leaves them out rather than failing every command)
    def get_command(self, ctx, name):
        getattr(self, "_load_plugin_commands", lambda: None)()
        return click.Group.get_command(self, ctx, name)

    def list_commands(self, ctx):
        getattr(self, "_load_plugin_commands", lambda: None)()
        return click.Group.list_commands(self, ctx)


@contextmanager
def one_line_usage():
    """A click.UsageError raised within, as a Refusal: its message and where --help is, in one line
    (a bare `scorekeeper`, which asks for help, still gets it; a refusal, such as an instance folder
    that cannot be used, a NoAppException and so a UsageError too, says its own line)."""
    try:
        yield
    except click.UsageError as error:
        if isinstance(error, (Refusal, click.exceptions.NoArgsIsHelpError)):
            raise
        path = error.ctx.command_path if error.ctx else "scorekeeper"
        raise Refusal(f"{error.format_message()} (see {path} --help)") from None


# load_dotenv=False: Flask read a .env or .flaskenv of the current folder or any folder above it
# (SCOREKEEPER_BASE_URL, SCOREKEEPER_LIMITS=off …) whenever python-dotenv was installed (with the
# test extra, not without): a setting from no place the docs name. `-e FILE` still reads one.
@click.group(cls=Commands, create_app=load_app, add_version_option=False, load_dotenv=False,
             help="Scorekeeper: score dice and card games at the pub table.")
def cli() -> None:
    pass


def fail(message: str) -> None:
    """A refusal: one line on stderr, nothing on stdout, exit status 2."""
    click.echo(" ".join(message.split()), err=True)
    sys.exit(2)


def say(text: str) -> None:
    """A command's answer on standard output; one that cannot be written there (a full disk under
    `> schema.json`) is a refusal, not a traceback."""
    try:
        click.echo(text)
        sys.stdout.flush()
    except OSError as error:
        if error.errno == errno.EPIPE:  # `| head`: click's own quiet exit
            raise
        fail(f"cannot write the output: {error.strerror or error}")


def read_source(source: str) -> str:
    try:
        if source == "-":
            return sys.stdin.read()
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError:  # a database or a picture given for a log: Python's codec error said nothing
        fail(f"{'standard input' if source == '-' else source} is not a JSON document: it is not UTF-8 text")
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror or error}")
        raise  # unreachable: fail exits


# replay and schema are the rules alone: no app, so no instance folder or database made (and
# a log folded in a few milliseconds, not after the app's ~60 ms of making)
@cli.command(with_appcontext=False)
@click.argument("file", metavar="FILE")
def replay(file: str) -> None:
    """Fold a scorekeeper-log/1 game log through the rules and print the result as JSON.

    FILE is a path, or - to read standard input. A log that breaks a rule exits with
    status 2 and one line on stderr naming the first bad event.
    """
    try:
        result = replay_log(parse_json(read_source(file)))
    except LogError as error:
        fail(str(error))
        return
    say(json.dumps(result, ensure_ascii=False))


@cli.command(with_appcontext=False)
def schema() -> None:
    """Print the JSON Schema of scorekeeper-log/1 (every registered game's part included)."""
    from .gamelog import log_schema

    say(json.dumps(log_schema(), ensure_ascii=False, indent=1))


@cli.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each holds thousands of live phones).")
@click.option("--firewalled-to-proxy", "firewalled", is_flag=True,
              help="With TRUSTED_PROXIES on an address other than the loopback: a firewall lets only "
                   "the proxy reach this port (else anyone could forge X-Forwarded-For, and serve "
                   "refuses to start). Also SCOREKEEPER_FIREWALLED_TO_PROXY=1.")
def serve(host: str, port: int, workers: int, firewalled: bool) -> None:
    """Start the production server and print the address phones should open, with a QR code.

    One address holds at most 64 connections and makes 10 requests a second (a burst of 20) of
    the whole server, a request's body must arrive within 20 s, and the open-files limit is
    raised to the hard limit (docs/deploy.md).
    """
    from .serve import Unservable, run

    try:
        run(host, port, workers, firewalled)
    except Unservable as refusal:
        raise Refusal(str(refusal)) from None


@cli.command("export")
@click.argument("table_code")
@click.option("--game", "number", type=int, default=None, help="Which game of the table (default: the last).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default="-",
              help="Where to write the log (default: standard output).")
@with_appcontext
def export_command(table_code: str, number: int | None, output: str) -> None:
    """Write one game of a table (by its short code) as a scorekeeper-log/1 JSON document."""
    from . import service, store
    from flask import current_app

    db = store.connect(current_app.config["DATABASE"], node=current_app.config.get("NODE") or "")
    rows = list(db["tables"].rows_where("code = ?", [table_code.strip().upper()]))
    if not rows:
        fail(f"no table has the code {table_code}")
    games = service.games_of(db, rows[0]["id"])
    chosen = [g for g in games if number is None or g["number"] == number]
    if not chosen:
        fail(f"table {table_code} has no game {number}")
    text = json.dumps(service.load(db, chosen[-1]).log(), ensure_ascii=False, indent=1)
    try:
        with click.open_file(output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror or error}")


@cli.command("import")
@click.argument("file", metavar="FILE")
@click.option("--played-at", "played_at", metavar="CODE", default=None,
              help="The code of the table the game was played at: its host can then confirm the game's money.")
@with_appcontext
def import_command(file: str, played_at: str | None) -> None:
    """Read a scorekeeper-log/1 game log (- for stdin) into a new table and print its code.

    A log that breaks a rule is refused like replay does: exit status 2, one line on stderr.
    An imported game's money counts in the statistics only once the host of the table named
    with --played-at confirms it on that table's history page.
    """
    from . import service, store
    from flask import current_app

    db = store.connect(current_app.config["DATABASE"], node=current_app.config.get("NODE") or "")
    try:
        table = service.import_log(db, parse_json(read_source(file)), played_at=played_at)
    except (LogError, service.Refused) as error:
        fail(str(error))
        return
    say(table["code"])


@cli.command()
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False))
@with_appcontext
def backup(file: str) -> None:
    """Copy the live database to FILE, consistently, while the server keeps running.

    The copy is one self-contained SQLite file, readable by its owner only, checked before it
    replaces FILE: FILE always holds a whole backup, the new one or the one it had. To restore
    it, stop the server and run `scorekeeper restore FILE` (never copy it over the database: a
    crash's -wal beside it would be replayed into the copy).
    """
    import os
    import sqlite3
    import tempfile

    from flask import current_app

    # Reliability (tests/reliability/test_backup.py): a bad path or an existing non-database
    # FILE used to end in a traceback, a failure half-way left FILE half-written, and FILE
    # could be the live database itself. Now: a temporary file beside FILE, SQLite's online
    # backup into it, an integrity check, fsync, and an atomic rename over FILE.
    database = os.path.abspath(current_app.config["DATABASE"])
    path = os.path.abspath(file)
    if os.path.exists(path) and os.path.samefile(path, database):
        fail(f"{file} is the live database itself: back it up to another file")
    # a wrong SCOREKEEPER_INSTANCE (or none, run from another folder) made a new, empty
    # database there and "Backed up" it: a backup of nothing, taken for the pub's
    empty = sqlite3.connect(database, timeout=30)
    try:
        tables = empty.execute("SELECT count(*) FROM tables").fetchone()[0]
    finally:
        empty.close()
    if not tables:
        fail(f"{database} holds no table, so there is nothing to back up: is SCOREKEEPER_INSTANCE "
             f"the server's instance folder? (docs/deploy.md)")
    try:
        handle, temporary = tempfile.mkstemp(prefix=".backup-", suffix=".db", dir=os.path.dirname(path))
        os.close(handle)
    except OSError as error:
        fail(f"cannot write {file}: {error.strerror or error}")
        return
    try:
        source = sqlite3.connect(database, timeout=30)
        target = sqlite3.connect(temporary)
        try:
            source.backup(target)  # one read transaction: a consistent snapshot of the live file
            target.execute("PRAGMA journal_mode = DELETE")  # no -wal file needed beside the copy
            if target.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("the copy does not pass SQLite's integrity check")
        finally:
            target.close()
            source.close()
        with open(temporary, "rb") as copy:
            os.fsync(copy.fileno())
        os.replace(temporary, path)
        directory = os.open(os.path.dirname(path), os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except (OSError, sqlite3.Error) as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        fail(f"cannot back up to {file}: {getattr(error, 'strerror', None) or error}")
    say(f"Backed up to {file}")


@cli.command()
@click.argument("file", metavar="[FILE]", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--from-replica", "url", metavar="URL", default=None,
              help="Instead of FILE: the newest copy of the Litestream replica at URL (a folder, or an "
                   "S3-compatible URL: the REPLICA_URL of the server that died), e.g. on a fresh machine.")
@with_appcontext
def restore(file: str | None, url: str | None) -> None:
    """Put a backup (from `scorekeeper backup`, or a replica's newest copy) in the place of the database.

    Refused while the server runs on it; the backup must pass SQLite's integrity check; the
    stale -wal and -shm a crash leaves beside the database are removed, and the backup is
    swapped in atomically. The live updates' clock goes on from the replaced database (from a
    replica, from the time too: it may lack the last changes phones saw): phones still open get
    the whole board as restored. Keep instance/secret_key (or SECRET_KEY in config.py): it signs
    the phones' cookies, and no replica holds it.
    """
    import time

    from flask import current_app

    from . import replica, store

    if (file is None) == (url is None):
        fail("name a backup FILE or --from-replica URL (one of them)")
    database = os.path.abspath(current_app.config["DATABASE"])
    if file is not None and os.path.exists(database) and os.path.samefile(file, database):
        # put back over itself, its -wal (a crash's newest entries) would be removed
        fail(f"{file} is the database itself: name a backup made with `scorekeeper backup`")
    began = time.monotonic()
    try:
        if url is None:
            store.restore(os.path.abspath(file), database)
        else:
            copy = replica.restore_from(url, os.path.dirname(database))
            try:
                store.restore(copy, database, behind=True)
            finally:
                for path in (copy, copy + "-wal", copy + "-shm"):
                    if os.path.exists(path):
                        os.unlink(path)
    except RuntimeError as error:
        fail(str(error))
    except OSError as error:  # no room for the replica's copy beside the database
        fail(f"cannot restore into {os.path.dirname(database)}: {error.strerror or error}")
    took = time.monotonic() - began
    say(f"Restored {file or url} in {took:.1f} s; start the server again")


# restore puts a backup in the place of a database that may be too damaged to open (or migrate,
# as making the whole app does: "file is not a database" refused the restore meant to mend it)
restore.settings_only = True
backup.reads_a_database = export_command.reads_a_database = True


@cli.command("init-db")
def init_db() -> None:
    """Create or migrate the database in the instance folder."""
    from flask import current_app

    from . import store

    # the app made for this command migrated it already (every start does); said here as well
    db = store.connect(current_app.config["DATABASE"])
    try:
        store.migrate(db)
    finally:
        db.conn.close()
    say(f"Database ready: {current_app.config['DATABASE']}")


def main() -> None:
    cli(prog_name="scorekeeper")
