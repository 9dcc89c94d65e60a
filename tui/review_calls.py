"""Where the review screens and commands ask the search bot: the one place that calls the
reviewer (the turning points of a finished table, a learner's hint).

The reviewer (core/review/reviewer.py; on a server, the bot workers of
server/runners/reviews.py) weighs games off the loop, keeps a table's review beside its records
and refuses politely when the workers are busy: that is `Unanswered(text, retry=True)` here.
Where nobody weighs games (no reviewer given), both calls answer `Unanswered(NOT_CONNECTED)`:
never a made-up estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import Busy, Hint, TableReview
from harena.core.table_like import TableLike

Progress = Callable[[float], None]
"""Hears how far a review is, 0 to 1, as it goes."""

NOT_CONNECTED = "nobody weighs games here (the server runs no bot workers)"
BUSY = "the bots are busy thinking: ask again in a minute"


@dataclass(frozen=True)
class Unanswered:
    """No review or hint now, and the polite line that says why."""

    text: str
    retry: bool = False  # asking again later may answer (the workers were busy)


async def ask_review(
    reviewer: Reviewer | None, table: TableLike, seat: int, on_progress: Progress
) -> TableReview | Unanswered:
    """The review of `seat`'s decisions at the finished `table` (a Busy reviewer: its line)."""
    if reviewer is None:
        return Unanswered(NOT_CONNECTED)

    def heard(done: int, total: int) -> None:
        on_progress(done / total if total else 1.0)

    answer = await reviewer.request(table, seat, heard)
    return Unanswered(answer.message, retry=True) if isinstance(answer, Busy) else answer


async def ask_hint(reviewer: Reviewer | None, table: TableLike, seat: int) -> Hint | Unanswered:
    """What the hard bot would choose now for `seat`, from its own view (Busy: its line)."""
    if reviewer is None:
        return Unanswered(NOT_CONNECTED)
    answer = await reviewer.hint(table, seat)
    return Unanswered(answer.message, retry=True) if isinstance(answer, Busy) else answer
