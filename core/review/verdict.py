"""What a review says of a game's decisions: the shapes the reviewer, the screens and the
one-shot commands share. Values are a seat's estimated chance to win (0 to 1), as the search
bot scores a playout's end, made only from what that seat knew when it chose."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Estimate:
    """One choice of a decision and how it was judged."""

    choice: str  # the choice's id, as in the game's records
    label: str  # the choice as the seat's prompt showed it
    value: float  # estimated chance to win after it, 0 to 1


@dataclass(frozen=True)
class DecisionReview:
    """One decision of one seat: the choice made against the search bot's best."""

    position: int  # replay position before the move (Replay.view_at(position) shows it open)
    seat: int
    round: int  # the game's round when it was made
    chosen: Estimate
    best: Estimate

    @property
    def drop(self) -> float:
        """How much the choice made lost against the best, in chance to win (0 when best)."""
        return max(0.0, self.best.value - self.chosen.value)


@dataclass(frozen=True)
class TableReview:
    """Every reviewed decision of a finished table, in the order they were made."""

    table_id: str
    game: str
    decisions: tuple[DecisionReview, ...]

    def turning_points(self, seat: int, count: int = 5) -> list[DecisionReview]:
        """`seat`'s decisions that lost most, worst first; none that lost nothing."""
        own = [d for d in self.decisions if d.seat == seat and d.drop > 0.0]
        return sorted(own, key=lambda d: (-d.drop, d.position))[:count]


@dataclass(frozen=True)
class Hint:
    """What the hard bot would choose now, for a learner who asks."""

    choice: str
    label: str
    value: float  # its estimated chance to win with it


@dataclass(frozen=True)
class Busy:
    """No review or hint now (the reviewers are busy, the game is not over, ...): `message`
    tells the player why and when to ask again."""

    message: str
