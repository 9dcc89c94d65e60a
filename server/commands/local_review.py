"""`harena review TABLE [--data DIR] [--player NAME]`: a saved finished table's review, printed.

It reads the table's files only (as `harena replay` does), so it works while the server runs:
the course of the game drawn as text, then the turning points of every seat (the one who reads
the data folder holds every record anyway), or of the player named.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from harena.core.store import Store
from harena.core.table import Table
from harena.server.commands.local_replay import ReplayError, load_for_replay
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.reviews import Reviews

WIDEST = 120  # a wider terminal gets no more columns: the plots read best short


def review_locally(
    table_id: str, data: Path, player: str | None = None, *, out: TextIO | None = None
) -> int:
    from harena.tui.review_text import reviewable
    from harena.tui.terminal import utf8_terminal

    out = out or sys.stdout
    table = load_for_replay(table_id, data)
    why = reviewable(table)
    if why is not None:
        raise ReplayError(f"table {table_id}: {why}")
    names = table.seat_names()
    if player is None:
        seats = list(range(table.game.players))
    elif player in names:
        seats = [names.index(player)]
    else:
        raise ReplayError(
            f"nobody named {player} played at table {table_id}: {', '.join(names)} did"
        )
    width = min(max(shutil.get_terminal_size((80, 24)).columns, 80), WIDEST)
    unicode = utf8_terminal(os.environ, os.environ.get("TERM", ""))
    text = asyncio.run(_review_text(table, data, seats, width=width, unicode=unicode))
    head = f"Table {table.id} · {table.game.title} · how it went"
    print(head if unicode else head.replace("·", "-"), text, sep="\n\n", file=out)
    return 0


async def _review_text(
    table: Table, data: Path, seats: list[int], *, width: int, unicode: bool
) -> str:
    """The review weighed in a worker process of its own and kept in the table's folder, as the
    server keeps it (a second `harena review`, or the server, finds it done)."""
    from harena.tui.review_text import table_review_text

    workers = BotWorkers(1)
    reviews = Reviews(workers, Store(data))
    try:
        return await table_review_text(
            table,
            seats,
            None,
            reviews,
            width=width,
            unicode=unicode,
            on_progress=_progress_on_stderr(),
        )
    finally:
        reviews.close()
        workers.close()


def _progress_on_stderr() -> Callable[[float], None]:
    """How far the search bot is, on one line of the terminal (nothing when not one)."""
    live = sys.stderr.isatty()

    def progress(fraction: float) -> None:
        if live:
            end = "\n" if fraction >= 1 else ""
            print(
                f"\rthe search bot is reviewing: {round(fraction * 100)}%", end=end, file=sys.stderr
            )

    return progress
