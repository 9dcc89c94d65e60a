"""Reading the tables of a game's TOML data files, refusing anything wrong with a message that
names the file, the entry and the field ("actions.toml: card 'slash', field 'cost': ...").

Owners replace the data files with the printed cards of their own copy, so every mistake must
say where it is without anyone reading code. Each game subclasses `Where` with its own error
type (`Where.Error`), and keeps the game-specific parsing (effects, cards) in its own schema.
"""

from __future__ import annotations

import re
import tomllib
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

E = TypeVar("E", bound=Enum)
W = TypeVar("W", bound="Where")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MISSING: Any = object()


class DataFileError(ValueError):
    """A data file is malformed or inconsistent; the message says where and why."""


class Where:
    """A place in a data file, for messages: "market.toml: card 'crixus', field 'atk'"."""

    Error: ClassVar[type[DataFileError]] = DataFileError

    def __init__(self, file: str, *path: str) -> None:
        self.file = file
        self.path = path

    def at(self: W, part: str) -> W:
        return type(self)(self.file, *self.path, part)

    def error(self, message: str) -> DataFileError:
        place = ", ".join(self.path)
        return self.Error(f"{self.file}: {place + ': ' if place else ''}{message}")


def read_data_file(
    package: str, name: str, data_dir: str | Path | None, where: type[Where]
) -> dict[str, Any]:
    """The one place a game's content is read: a TOML file from `package`'s data folder, or from
    `data_dir` (an owner's own cards). A missing or broken file is the game's data error."""
    try:
        if data_dir is None:
            text = (resources.files(package) / "data" / name).read_text(encoding="utf-8")
        else:
            text = (Path(data_dir) / name).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except FileNotFoundError:
        raise where.Error(f"{name}: missing from {data_dir or 'the package data'}") from None
    except tomllib.TOMLDecodeError as err:
        raise where.Error(f"{name}: not valid TOML: {err}") from None


def check_keys(table: Any, where: Where, known: set[str] | frozenset[str]) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise where.error(f"expected a table, got {describe(table)}")
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise where.error(
            f"unknown field {unknown[0]!r} (known fields: {', '.join(sorted(known))})"
        )
    return table


def get_int(table: dict[str, Any], key: str, where: Where, default: Any = MISSING,
            minimum: int | None = None, maximum: int | None = None) -> int:  # fmt: skip
    value = get_any(table, key, where, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.error(f"field {key!r} must be a whole number, not {describe(value)}")
    if minimum is not None and value < minimum:
        raise where.error(f"field {key!r} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise where.error(f"field {key!r} must be at most {maximum}, not {value}")
    return value


def get_str(table: dict[str, Any], key: str, where: Where, default: Any = MISSING) -> str:
    value = get_any(table, key, where, default)
    if not isinstance(value, str) or (default is MISSING and not value.strip()):
        raise where.error(f"field {key!r} must be a non-empty string, not {describe(value)}")
    return value


def get_bool(table: dict[str, Any], key: str, where: Where, default: Any = MISSING) -> bool:
    value = get_any(table, key, where, default)
    if not isinstance(value, bool):
        raise where.error(f"field {key!r} must be true or false, not {describe(value)}")
    return value


def get_enum(enum: type[E], table: dict[str, Any], key: str, where: Where,
             default: Any = MISSING) -> E:  # fmt: skip
    value = get_any(table, key, where, default)
    if isinstance(value, enum):
        return value
    try:
        return enum(value)
    except (ValueError, TypeError):
        allowed = ", ".join(repr(m.value) for m in enum)
        raise where.error(f"field {key!r}: {value!r} is not one of {allowed}") from None


def get_list(table: dict[str, Any], key: str, where: Where, default: Any = MISSING) -> list[Any]:
    value = get_any(table, key, where, default)
    if not isinstance(value, list):
        raise where.error(f"field {key!r} must be a list, not {describe(value)}")
    return value


def get_id(table: dict[str, Any], key: str, where: Where) -> str:
    value = get_str(table, key, where)
    if not ID_PATTERN.match(value):
        raise where.error(f"field {key!r}: {value!r} is not an id (lower-case words joined by '-')")
    return value


def identify(raw: Any, where: W, what: str) -> tuple[str, W]:
    """An entry's id, and its place named by that id from now on ("card 'slash'")."""
    if not isinstance(raw, dict):
        raise where.error(f"expected a table, got {describe(raw)}")
    ident = get_id(raw, "id", where)
    return ident, type(where)(where.file, *where.path[:-1], f"{what} {ident!r}")


def entries(raw: dict[str, Any], key: str, where: Where) -> list[Any]:
    """The [[key]] tables of a file (at least one)."""
    items = get_list(raw, key, where)
    if not items:
        raise where.error(f"no [[{key}]] entries")
    return items


def unique(ids: list[str], where: Where, what: str) -> None:
    seen: set[str] = set()
    for ident in ids:
        if ident in seen:
            raise where.error(f"duplicate {what} id {ident!r}")
        seen.add(ident)


def describe(value: Any) -> str:
    """A value's kind in words, for messages."""
    return {dict: "a table", list: "a list", str: f"the string {value!r}", bool: "a boolean"}.get(
        type(value), f"{type(value).__name__} {value!r}"
    )


def get_any(table: dict[str, Any], key: str, where: Where, default: Any = MISSING) -> Any:
    """A field of any type (the caller checks it), or `default`; missing and no default: an
    error."""
    if key in table:
        return table[key]
    if default is MISSING:
        raise where.error(f"missing field {key!r}")
    return default
