"""Where the review screens and commands ask the search bot: the one place that calls the
reviewer (the turning points of a finished table, a learner's hint).

The reviewer runs in the bot worker processes, caches a table's review beside its records and
refuses politely when the workers are busy (server/runners/reviews.py): that is
`Unanswered(BUSY, retry=True)` here. Until it is connected, both calls answer
`Unanswered(NOT_CONNECTED)`: never a made-up estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harena.core.review.verdict import Hint, TableReview
from harena.core.table_like import TableLike

Progress = Callable[[float], None]
"""Hears how far a review is, 0 to 1, as it goes."""

NOT_CONNECTED = "the search bot gives no reviews or hints on this server"
BUSY = "the bots are busy thinking: ask again in a minute"


@dataclass(frozen=True)
class Unanswered:
    """No review or hint now, and the polite line that says why."""

    text: str
    retry: bool = False  # asking again later may answer (the workers were busy)


async def ask_review(
    table: TableLike, seat: int, on_progress: Progress
) -> TableReview | Unanswered:
    """The review of `seat`'s decisions at the finished `table` (a Busy reviewer: `BUSY`)."""
    return Unanswered(NOT_CONNECTED)


async def ask_hint(table: TableLike, seat: int) -> Hint | Unanswered:
    """What the hard bot would choose now for `seat`, from its own view (Busy: `BUSY`)."""
    return Unanswered(NOT_CONNECTED)
