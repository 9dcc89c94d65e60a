"""Reviews and hints, weighed in the bot worker processes so the server's loop never does it.

A finished table's review (core/review/turns.py) goes to the workers a few decisions at a time
(`SHARE`): each share is one task, so progress is told after each, and search bots' thoughts
take their turns between shares (they wait for a free worker the same way). A share starts
from the game where the last one left it (its snapshot), so the game is replayed once. Each
decision is weighed once: what is done is kept beside the table's records (a `KeptShelf`,
awaited: the table's folder on one server, JetStream in a cluster, so every node finds what
another weighed; without one, in memory while the server runs) and a later request, even one
cut short, goes on from there. A shelf that cannot be reached costs only the keeping: the
review is still shown, and weighed again when next asked.

One review runs at a time (`at_once`): another table's request meanwhile is refused with a
`Busy` saying so, a second request for the same table joins the one running. A hint is one
thought of the hard bot (1 s), refused when every worker is busy rather than kept waiting.

For the screens: `await reviews.request(table, seat, on_progress)` -> TableReview | Busy
(`seat` None: every seat, once all is revealed), `await reviews.kept(table, seat)` ->
TableReview | None (already computed, no weighing), `await reviews.hint(table, seat)` -> Hint |
Busy. A review already kept is shown even by a server without workers.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from harena.core.engine import Action, GameConfig, game_class, restore
from harena.core.review.kept import KeptReview, KeptShelf, ReviewShelf, kept_shelf
from harena.core.review.reviewer import Progress, Reviewer
from harena.core.review.turns import (
    HINT_BUDGET,
    REVIEW_SEED,
    ReviewBudget,
    decisions,
    hint,
    review_onward,
)
from harena.core.review.verdict import Busy, DecisionReview, Hint, TableReview
from harena.core.store import StoreError
from harena.core.table_like import TableLike
from harena.server.runners.bot_workers import BotWorkers

log = logging.getLogger(__name__)

# Per decision at most 24 worlds or 1 s, whichever ends first: a 60-decision game within a
# minute on one worker (bench/review.py measures what a budget costs).
SERVER_BUDGET = ReviewBudget(seconds=1.0)
SHARE = 4  # decisions a worker weighs in one task
GRACE = 15.0  # seconds a share may take past its budget: replaying, a snapshot, a busy machine
MEMORY = 64  # reviews kept in memory without a shelf

BUSY_REVIEWING = "the reviewers are busy with another game; try again in a minute"
BUSY_HINT = "the hard bot is busy thinking for other tables; ask again in a moment"
NO_WORKERS = "this server runs no bot workers, so it cannot weigh games (--bot-workers)"
NOT_OVER = "a game is reviewed once it is over"


@dataclass
class _Job:
    seats: frozenset[int] | None
    listeners: list[Progress] = field(default_factory=list)
    task: asyncio.Task[TableReview | Busy] | None = None

    def covers(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def tell(self, done: int, total: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(done, total)
            except Exception:  # a screen that went away must not stop the review
                log.exception("a review's progress listener failed")


# -- in a worker ---------------------------------------------------------------------------------


def positions_in_worker(
    config: GameConfig, actions: list[Action], seats: frozenset[int] | None
) -> list[int]:
    return decisions(config, actions, seats)


def share_in_worker(
    start: bytes | None,
    config: GameConfig,
    actions: list[Action],
    positions: list[int],
    budget: ReviewBudget,
    seed: int,
) -> tuple[list[DecisionReview], bytes]:
    """Weigh `positions` from the game `start` was taken of (None: the first move); the
    weighed decisions and the game where they left it."""
    game = restore(start) if start is not None else game_class(config.game)(config)
    found = review_onward(game, actions, positions, budget, seed)
    return found, game.snapshot()


def hint_in_worker(blob: bytes, seat: int, log_from: int, seed: int) -> Hint:
    return hint(restore(blob), seat, HINT_BUDGET, seed, log_from=log_from)


# -- on the loop ---------------------------------------------------------------------------------


class Reviews:
    """The server's `Reviewer` (core/review/reviewer.py)."""

    def __init__(
        self,
        workers: BotWorkers | None,
        shelf: KeptShelf | ReviewShelf | None = None,
        *,
        budget: ReviewBudget = SERVER_BUDGET,
        at_once: int = 1,
        seed: int = REVIEW_SEED,
    ) -> None:
        self.workers = workers
        self.shelf = kept_shelf(shelf)  # (a `Store` given: its file, read and written at once)
        self.budget = budget
        self.at_once = at_once
        self.seed = seed
        self._jobs: dict[str, _Job] = {}
        self._memory: OrderedDict[str, KeptReview] = OrderedDict()

    @property
    def running(self) -> int:
        return len(self._jobs)

    async def kept(self, table: TableLike, seat: int | None) -> TableReview | None:
        """The review already computed for `seat` (None: every seat), here or on the shelf,
        without weighing; None while some of it is still to weigh."""
        review = await self._kept(table, _seats(seat))
        seats = range(table.game.players) if seat is None else [seat]
        return review.table_review(table.id, _seats(seat)) if review.covers(seats) else None

    async def request(
        self, table: TableLike, seat: int | None, on_progress: Progress | None = None
    ) -> TableReview | Busy:
        """`seat`'s decisions (None: every seat's, for a game revealed to all) weighed against
        the search bot's best, from what was kept and what the workers weigh now;
        `on_progress(done, total)` on the loop as shares come back. Busy when it cannot."""
        if table.game.result() is None:
            return Busy(NOT_OVER)
        job = self._jobs.get(table.id)
        if job is None:
            done = await self.kept(table, seat)  # (kept by whoever weighed it: no worker needed)
            if done is not None:
                if on_progress is not None:
                    on_progress(len(done.decisions), len(done.decisions))
                return done
            job = self._jobs.get(table.id)  # (one may have begun while the shelf answered)
        if self.workers is None:
            return Busy(NO_WORKERS)
        if job is not None and not job.covers(seat):
            return Busy(BUSY_REVIEWING)
        if job is None:
            if len(self._jobs) >= self.at_once:
                return Busy(BUSY_REVIEWING)
            job = self._jobs[table.id] = _Job(_seats(seat))
            job.task = asyncio.ensure_future(self._review(table, job))
            job.task.add_done_callback(lambda _: self._jobs.pop(table.id, None))
        if on_progress is not None:
            job.listeners.append(on_progress)
        assert job.task is not None
        result = await asyncio.shield(job.task)  # one who leaves does not stop it for others
        if isinstance(result, Busy) or job.seats == _seats(seat):
            return result
        return (await self._kept(table, _seats(seat))).table_review(table.id, _seats(seat))

    async def _review(self, table: TableLike, job: _Job) -> TableReview | Busy:
        assert self.workers is not None
        game = table.game
        config, actions = game.config, list(game.actions)
        kept = await self._kept(table, job.seats, again=False)  # (`request` just read it)
        try:
            todo = await self.workers.run(GRACE, positions_in_worker, config, actions, job.seats)
            missing = kept.missing(todo)
            done = len(todo) - len(missing)
            job.tell(done, len(todo))
            start: bytes | None = None
            for at in range(0, len(missing), SHARE):
                share = missing[at : at + SHARE]
                found, start = await self.workers.run(
                    len(share) * (self.budget.seconds or 5.0) + GRACE,
                    share_in_worker, start, config, actions, share, self.budget,
                    self.seed,
                )  # fmt: skip
                kept.add(share, found)
                done += len(share)
                job.tell(done, len(todo))
            kept.complete |= set(range(game.players) if job.seats is None else job.seats)
        except (TimeoutError, BrokenProcessPool) as exc:
            log.warning("table %s: a review was cut short (%s)", table.id, type(exc).__name__)
            return Busy("the review took too long and was stopped; try again in a minute")
        except Exception:
            log.exception("table %s: a review failed", table.id)
            return Busy("the review failed (see the server's log); try again later")
        finally:
            await self._keep(table.id, kept)
        return kept.table_review(table.id, job.seats)

    async def hint(self, table: TableLike, seat: int) -> Hint | Busy:
        """What the hard bot would choose for `seat` now and its chance to win with it,
        thought in a worker within 1 s; Busy rather than a wait when every worker is taken."""
        if self.workers is None:
            return Busy(NO_WORKERS)
        if self.workers.busy:
            return Busy(BUSY_HINT)
        game = table.game
        seconds = HINT_BUDGET.seconds or 1.0
        try:
            return await self.workers.run(
                seconds + GRACE, hint_in_worker, game.snapshot(), seat,
                table.seats[seat].log_from, self.seed,
            )  # fmt: skip
        except (TimeoutError, BrokenProcessPool):
            return Busy("the hint took too long; ask again in a moment")
        except Exception:
            log.exception("table %s: a hint failed", table.id)
            return Busy("no hint this time (see the server's log)")

    def close(self) -> None:
        """Stop the reviews running (the server stops; what they weighed so far is kept)."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()

    # -- kept reviews ------------------------------------------------------------------------------

    async def _kept(
        self, table: TableLike, seats: frozenset[int] | None, *, again: bool = True
    ) -> KeptReview:
        """What is weighed of `table`'s game: from memory when that covers `seats` (None:
        every seat), else with what the shelf holds added (another node may have weighed it);
        not `again`: the shelf is read only if this game is not in memory at all."""
        game = table.game
        moves = len(game.actions)
        memory = self._memory.get(table.id)
        if memory is None or memory.game != game.name or memory.moves != moves:
            memory = None
        wanted = range(game.players) if seats is None else seats
        if memory is not None and (memory.covers(wanted) or self.shelf is None or not again):
            return memory
        stored = None
        if self.shelf is not None:
            try:
                stored = await self.shelf.read_review(table.id)
            except (OSError, StoreError) as exc:
                log.warning("table %s: its review could not be read (%s)", table.id, exc)
        review = KeptReview.from_plain(stored, game.name, moves)
        if memory is not None:
            memory.merge(review)
            review = memory
        self._remember(table.id, review)
        return review

    async def _keep(self, table_id: str, review: KeptReview) -> None:
        self._remember(table_id, review)
        if self.shelf is None:
            return
        try:
            await self.shelf.write_review(table_id, review.to_plain())
        except (OSError, StoreError) as exc:  # kept in memory; weighed again after a restart
            log.warning("table %s: its review could not be saved (%s)", table_id, exc)

    def _remember(self, table_id: str, review: KeptReview) -> None:
        self._memory[table_id] = review
        self._memory.move_to_end(table_id)
        while len(self._memory) > MEMORY:
            self._memory.popitem(last=False)


def _seats(seat: int | None) -> frozenset[int] | None:
    return None if seat is None else frozenset([seat])


def as_reviewer(reviews: Reviews) -> Reviewer:
    """The server's reviews as the screens type them (mypy checks that they conform)."""
    return reviews
