"""`harena replay TABLE [--data DIR]`: a saved table's replay screen in this terminal.

It reads the table's files only (as `harena export` does), so it works while the server runs;
a finished game is revealed, one in play is shown as a spectator saw it. Archived tables are
read too. The only file it writes is a finished game's review (`i`), kept beside its records.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from harena.core.store import Store, StoreError
from harena.core.table import Table
from harena.server.common.logs import TERMINAL_LOG, logging_to_file
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.reviews import Reviews


class ReplayError(Exception):
    """The table cannot be replayed (no such table, or its files do not load)."""


def load_for_replay(table_id: str, data: Path) -> Table:
    """The table, live or archived, as its files hold it (read only)."""
    if (Path(data) / "tables" / table_id).is_dir():
        archived = False
    elif (Path(data) / "archive" / table_id).is_dir():
        archived = True
    else:
        raise ReplayError(f"there is no table {table_id} under {data}")
    try:
        return Table.load(Store(data).load(table_id, archived=archived), None)
    except StoreError as exc:
        raise ReplayError(f"table {table_id} cannot be read: {exc}") from exc


def replay_locally(table_id: str, data: Path) -> int:
    table = load_for_replay(table_id, data)
    with logging_to_file(Path(data) / TERMINAL_LOG):  # not over the replay screen
        return asyncio.run(_run(table, data))


async def _run(table: Table, data: Path) -> int:
    from harena.tui.replay_app import ReplayApp
    from harena.tui.terminal import utf8_terminal

    workers = BotWorkers(1)  # the finished game's review (i) is weighed off the screen's loop
    reviews = Reviews(workers, Store(data))
    unicode = utf8_terminal(os.environ, os.environ.get("TERM", ""))
    app = ReplayApp(table, unicode=unicode, reviewer=reviews)
    try:
        await app.run_async()
    finally:
        reviews.close()
        workers.close()
    return app.return_code or 0
