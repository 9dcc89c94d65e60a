"""A table's review as it is kept beside its records: the decisions weighed so far, so each is
weighed once whoever asks next (a player for their seat, then everyone once all is revealed).
Plain data in and out; a shelf keeps it: the table's folder (core/store.py, through
`FileShelf`) or, in a cluster, JetStream (server/cluster/reviews.py), awaited so a server's
loop never waits on the network for it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from harena.core.codec import from_plain, to_plain
from harena.core.engine import Action, GameConfig
from harena.core.review.turns import DEFAULT_REVIEW, Progress, ReviewBudget, decisions, review_table
from harena.core.review.verdict import DecisionReview, TableReview

FORMAT = 1


class ReviewShelf(Protocol):
    """Where reviews are kept in a file: `Store` keeps them in the table's folder."""

    def read_review(self, table_id: str) -> dict[str, Any] | None: ...

    def write_review(self, table_id: str, review: dict[str, Any]) -> None: ...


class KeptShelf(ABC):
    """Where a server keeps reviews, awaited (a cluster's is across the network). Either may
    raise `StoreError` or `OSError`: the review is then weighed again, or not kept."""

    @abstractmethod
    async def read_review(self, table_id: str) -> dict[str, Any] | None: ...

    @abstractmethod
    async def write_review(self, table_id: str, review: dict[str, Any]) -> None: ...


class FileShelf(KeptShelf):
    """A `ReviewShelf` awaited: its file read or write is as short as a snapshot's, done at
    once as a table's own records are."""

    def __init__(self, shelf: ReviewShelf) -> None:
        self.shelf = shelf

    async def read_review(self, table_id: str) -> dict[str, Any] | None:
        return self.shelf.read_review(table_id)

    async def write_review(self, table_id: str, review: dict[str, Any]) -> None:
        self.shelf.write_review(table_id, review)


def kept_shelf(shelf: ReviewShelf | KeptShelf | None) -> KeptShelf | None:
    """`shelf` awaited (a `Store` is wrapped; a `KeptShelf` is one already)."""
    return shelf if shelf is None or isinstance(shelf, KeptShelf) else FileShelf(shelf)


@dataclass
class KeptReview:
    """The decisions of one finished game weighed so far. `weighed`: every position looked at
    (a decision the budget could not weigh is not asked again); `moves`: the game's length,
    so a review of another game's records is never taken for this one's; `complete`: seats
    whose every decision has been weighed."""

    game: str
    moves: int
    weighed: set[int] = field(default_factory=set)
    decisions: dict[int, DecisionReview] = field(default_factory=dict)
    complete: set[int] = field(default_factory=set)

    def missing(self, positions: Iterable[int]) -> list[int]:
        return sorted(set(positions) - self.weighed)

    def add(self, positions: Iterable[int], found: Iterable[DecisionReview]) -> None:
        self.weighed |= set(positions)
        self.decisions.update((d.position, d) for d in found)

    def covers(self, seats: Iterable[int]) -> bool:
        return set(seats) <= self.complete

    def merge(self, other: KeptReview) -> None:
        """Add what `other` (the same game's, weighed elsewhere: another node) holds."""
        if (other.game, other.moves) != (self.game, self.moves):
            return
        self.add(other.weighed, other.decisions.values())
        self.complete |= other.complete

    def table_review(self, table_id: str, seats: Iterable[int] | None) -> TableReview:
        """The decisions of `seats` (None: every seat), in the order they were made."""
        wanted = None if seats is None else set(seats)
        return TableReview(
            table_id,
            self.game,
            tuple(
                d for _, d in sorted(self.decisions.items()) if wanted is None or d.seat in wanted
            ),
        )

    def to_plain(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "moves": self.moves,
            "weighed": sorted(self.weighed),
            "decisions": [to_plain(d) for _, d in sorted(self.decisions.items())],
            "complete": sorted(self.complete),
        }

    @classmethod
    def from_plain(cls, data: Any, game: str, moves: int) -> KeptReview:
        """What was kept for this game, or an empty review when nothing usable was (another
        format, another game's, damaged)."""
        fresh = cls(game, moves)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return fresh
        if data.get("game") != game or data.get("moves") != moves:
            return fresh
        try:
            found = [from_plain(DecisionReview, d) for d in data["decisions"]]
            fresh.add((int(p) for p in data["weighed"]), found)
            fresh.complete = {int(seat) for seat in data["complete"]}
        except (KeyError, TypeError, ValueError):
            return cls(game, moves)
        return fresh


def review_kept(
    kept: KeptReview,
    config: GameConfig,
    actions: list[Action],
    *,
    table_id: str = "",
    seats: Iterable[int] | None = None,
    budget: ReviewBudget = DEFAULT_REVIEW,
    progress: Progress | None = None,
) -> TableReview:
    """`seats`' review (None: every seat), weighing here only what `kept` lacks and adding it
    to `kept` (for a one-shot command on this machine: keep `kept.to_plain()` afterwards)."""
    seats = None if seats is None else list(seats)
    todo = decisions(config, actions, seats)
    missing = kept.missing(todo)
    done = len(todo) - len(missing)
    if progress is not None:
        progress(done, len(todo))
    told = None if progress is None else (lambda n, _: progress(done + n, len(todo)))
    found = review_table(
        config, actions, seats=seats, budget=budget, positions=missing, progress=told
    )
    kept.add(missing, found.decisions)
    kept.complete |= set(range(config.players) if seats is None else seats)
    return kept.table_review(table_id, seats)
