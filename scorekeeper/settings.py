"""What `instance/config.py` may say: a mistake in it, or a setting of the wrong type, is one
line a person can act on (`SettingError`), before anything starts. Every one of them ended in a
traceback (`BASE_URL = 8000`, `NODE = 5`, a typo in the file), or started a server that
answered 500 to its first phone (`LIMITS = {"table": 5}`, `SECRET_KEY = 5`,
`FOLD_CACHE_BYTES = "64MB"`)."""

from __future__ import annotations

import os
import traceback
from typing import Any

from flask import Flask


class SettingError(ValueError):
    """A setting the app cannot run with, in one line a person can act on (the command line
    says it and exits, with no traceback)."""


def whole_number(name: str, value: Any) -> int:
    """A setting's whole number (unset: 0); SettingError, naming it, for anything else."""
    if value is None or value == "":
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    if text.isascii() and text.isdigit():
        return int(text)
    raise SettingError(f"{name} must be a whole number, not {value!r}")


TEXT = ("BASE_URL", "NODE", "REPLICA_URL", "REPLICA_SYNC")


def read_config_file(app: Flask) -> None:
    """The instance folder's config.py, when there is one; a line Python cannot run is a
    SettingError naming the file and the line."""
    path = os.path.join(app.instance_path, "config.py")
    try:
        app.config.from_pyfile("config.py", silent=True)
    except OSError:
        raise  # a file that cannot be read: the command line names it
    except Exception as error:  # what a typo in the file raises: SyntaxError, NameError, …
        line = getattr(error, "lineno", None) if isinstance(error, SyntaxError) else None
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename == path:
                line = frame.lineno
        where = f"{path}, line {line}" if line else path
        detail = error.msg if isinstance(error, SyntaxError) else str(error)
        raise SettingError(f"{where}: {type(error).__name__}: {detail}") from None


def check(config: dict[str, Any]) -> None:
    """Each setting of the wrong type, refused in one line; the numbers made whole numbers."""
    for name in TEXT:
        value = config.get(name)
        if value is not None and not isinstance(value, str):
            raise SettingError(f"{name} must be text in quotes, not {value!r}")
    base = (config.get("BASE_URL") or "").strip()
    if base and not base.startswith(("https://", "http://")):
        raise SettingError(f"BASE_URL must be an address phones open, starting with https:// or http://, "
                           f"not {base!r}")
    hosts = config.get("ALLOWED_HOSTS")
    if hosts is not None and not isinstance(hosts, str) and not (
            isinstance(hosts, (list, tuple, set, frozenset)) and all(isinstance(h, str) for h in hosts)):
        raise SettingError(f"ALLOWED_HOSTS must be host names, in one text separated by commas or a list "
                           f"of texts, not {hosts!r}")
    key = config.get("SECRET_KEY")
    if key is not None and not isinstance(key, (str, bytes)):
        raise SettingError(f"SECRET_KEY must be text or bytes, not {key!r}")
    if "FOLD_CACHE_BYTES" in config:
        config["FOLD_CACHE_BYTES"] = whole_number("FOLD_CACHE_BYTES", config["FOLD_CACHE_BYTES"])
    if config.get("LIMITS") is not None:
        config["LIMITS"] = limits(config["LIMITS"])


def limits(given: Any) -> dict[str, tuple[int, ...]]:
    """LIMITS: {kind: (per device, per address[, a minute])} for kinds the service knows."""
    from .service import LIMITS

    shape = (f"LIMITS must be {{kind: (per device, per address)}} an hour, a third number a minute, "
             f"for the kinds {', '.join(LIMITS)}")
    if not isinstance(given, dict):
        raise SettingError(f"{shape}; not {given!r}")
    taken = {}
    for kind, numbers in given.items():
        if kind not in LIMITS:
            raise SettingError(f"{shape}; not {kind!r}")
        if not isinstance(numbers, (tuple, list)) or len(numbers) not in (2, 3):
            raise SettingError(f"{shape}; not {kind!r}: {numbers!r}")
        taken[kind] = tuple(whole_number(f"LIMITS[{kind!r}]", number) for number in numbers)
    return taken
