"""The `scorekeeper` command: Flask's own commands plus replay, serve, export, import, backup."""

from __future__ import annotations

import json
import sys

import click
from flask.cli import FlaskGroup

from . import create_app
from .gamelog import LogError, parse_json, replay as replay_log


@click.group(cls=FlaskGroup, create_app=create_app, add_version_option=False,
             help="Scorekeeper: score dice and card games at the pub table.")
def cli() -> None:
    pass


def fail(message: str) -> None:
    """A refusal: one line on stderr, nothing on stdout, exit status 2."""
    click.echo(" ".join(message.split()), err=True)
    sys.exit(2)


def read_source(source: str) -> str:
    try:
        if source == "-":
            return sys.stdin.read()
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read {source}: {getattr(error, 'strerror', None) or error}")
        raise  # unreachable: fail exits


@cli.command()
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
    click.echo(json.dumps(result, ensure_ascii=False))


def main() -> None:
    cli(prog_name="scorekeeper")
