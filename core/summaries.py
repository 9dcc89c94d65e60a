"""Rules summaries for learning at the table: one screen of our own words per phase of a game.

A game keeps them in its `data/summaries.toml`, one table per summary key (docs/cards.md,
"Rules summaries"). They are read and checked like the game's other data files: every key the
game names must be there and no other, and each summary must fit one 80x24 screen (at most
`MAX_LINES` lines of `MAX_WIDTH` columns) in plain printable ASCII, so that no terminal cuts or
mangles it. Which summary fits a moment of play is the game's own pure function of its board
view (`key_for`), so a screen needs nothing but the view to pick it.

The games with summaries are listed in `SUMMARY_MODULES`; each module has `summaries()`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harena.core.datafile import Where, check_keys, get_str, read_data_file

__all__ = ["MAX_LINES", "MAX_WIDTH", "Summaries", "Summary", "load_summaries", "summaries_for"]

FILE = "summaries.toml"
MAX_LINES = 18  # an 80x24 screen less the modal's border, footer and a line to spare
MAX_WIDTH = 74  # 80 columns less the modal's border, padding and a column each side
MAX_TITLE = 60  # the title shares the border with the page number

SUMMARY_MODULES = {
    "carthage": "harena.core.carthage.summaries",
    "spartacus": "harena.core.spartacus.summaries",
}

BoardView = Mapping[str, Any]


@dataclass(frozen=True)
class Summary:
    """One screen of rules: a title and its text lines (blank lines included)."""

    key: str
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Summaries:
    """A game's summaries in the order of play, and how to pick one from a board view."""

    pages: tuple[Summary, ...]
    key_for: Callable[[BoardView], str]

    def index_for(self, board: BoardView) -> int:
        """The page for the moment `board` shows."""
        key = self.key_for(board)
        return next(i for i, page in enumerate(self.pages) if page.key == key)

    def page(self, key: str) -> Summary:
        return self.pages[[p.key for p in self.pages].index(key)]


def summaries_for(game: str) -> Summaries | None:
    """The summaries of the game named `game`, or None for a game that has none."""
    module = SUMMARY_MODULES.get(game)
    if module is None:
        return None
    summaries: Callable[[], Summaries] = importlib.import_module(module).summaries
    return summaries()


def load_summaries(
    package: str,
    keys: tuple[str, ...],
    key_for: Callable[[BoardView], str],
    data_dir: str | Path | None,
    where: type[Where],
) -> Summaries:
    """Read `package`'s summaries.toml (or `data_dir`'s) and check it against `keys`, the
    summaries the game shows; the error is the game's own data error (`where.Error`)."""
    raw = read_data_file(package, FILE, data_dir, where)
    top = where(FILE)
    unknown = sorted(set(raw) - set(keys))
    if unknown:
        raise top.error(f"unknown summary {unknown[0]!r} (the game's summaries: {', '.join(keys)})")
    missing = [key for key in keys if key not in raw]
    if missing:
        raise top.error(
            f"missing summary {missing[0]!r} (every one of {', '.join(keys)} is needed)"
        )
    return Summaries(
        tuple(_parse(key, raw[key], top.at(f"summary {key!r}")) for key in keys), key_for
    )


def _parse(key: str, raw: Any, where: Where) -> Summary:
    check_keys(raw, where, {"title", "text"})
    title = get_str(raw, "title", where)
    if len(title) > MAX_TITLE:
        raise where.error(f"the title has {len(title)} characters, at most {MAX_TITLE} fit")
    _check_ascii(title, where.at("title"))
    lines = get_str(raw, "text", where).rstrip().splitlines()
    while lines and not lines[0].strip():
        del lines[0]
    if len(lines) > MAX_LINES:
        raise where.error(f"{len(lines)} lines of text, at most {MAX_LINES} fit an 80x24 screen")
    for number, line in enumerate(lines, 1):
        place = where.at(f"line {number}")
        line = line.rstrip()
        if len(line) > MAX_WIDTH:
            raise place.error(
                f"{len(line)} characters, at most {MAX_WIDTH} fit an 80x24 screen: {line[:20]!r}..."
            )
        _check_ascii(line, place)
    return Summary(key, title, tuple(line.rstrip() for line in lines))


def _check_ascii(text: str, where: Where) -> None:
    """Plain printable ASCII only: every terminal shows it, with or without UTF-8."""
    for column, char in enumerate(text, 1):
        if not " " <= char <= "~":
            raise where.error(
                f"column {column}: {char!r} is not plain ASCII (write it with ASCII letters, "
                "so that every terminal shows it)"
            )
