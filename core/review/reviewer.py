"""What the screens and one-shot commands may ask of whoever weighs games: on a server, the
bot workers (server/runners/reviews.py `Reviews`). Declared here so tui/ types against it and
never imports server/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from harena.core.review.verdict import Busy, Hint, TableReview
from harena.core.table_like import TableLike

Progress = Callable[[int, int], None]
"""Hears (decisions weighed, decisions in the review), on the loop."""


class Reviewer(Protocol):
    async def kept(self, table: TableLike, seat: int | None) -> TableReview | None:
        """The review of `seat` (None: every seat) if already weighed and kept; no weighing."""
        ...

    async def request(
        self, table: TableLike, seat: int | None, on_progress: Progress | None = None
    ) -> TableReview | Busy:
        """`seat`'s decisions weighed (None: every seat's, for a game revealed to all)."""
        ...

    async def hint(self, table: TableLike, seat: int) -> Hint | Busy:
        """What the hard bot would choose for `seat` now, within about a second."""
        ...
