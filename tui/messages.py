"""Messages that carry fresh views from the shared core into one app (table views are calls:
see `HarenaApp.subscribe_table`).

They are created inside the receiving app's own context (see `HarenaApp.relay`), never in the
context of whoever changed the table, so no other app is captured or kept alive by them.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message


class LobbyChanged(Message, bubble=False):
    """The lobby's view changed: tables, who is online, lobby chat."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__()
        self.view = view
