"""A finished table's review in words: whose turning points are shown, how each reads, and the
whole review as text for `ssh host review N` and `harena review TABLE`.

A turning point reads as a player says it: the round, what was chosen, what the search bot
would have chosen, and what it cost, "about 12% less chance to win".
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence

from harena.core.replays import Replay
from harena.core.review.course import COURSES, Course, course_of, pieces_of
from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import DecisionReview, TableReview
from harena.core.table_like import TableLike
from harena.tui import review_calls
from harena.tui.review_calls import Progress, Unanswered
from harena.tui.widgets.course_plot import course_text, player_label

TURNING_POINTS = 5
"""The decisions listed per seat, the worst first."""


# A finished game's course is the same for everyone: worked out once per table.
_COURSES: weakref.WeakKeyDictionary[TableLike, Course] = weakref.WeakKeyDictionary()


def reviewable(table: TableLike) -> str | None:
    """Why `table` has no review to show (None: it has one)."""
    if table.closed is not None:
        return "a review is for a finished game: this one was closed before its end"
    if table.status not in ("over", "closed") or table.game.result() is None:
        return "a review is for a finished game: this one is not over"
    if table.game.name not in COURSES:
        return f"{table.game.title} has no review"
    return None


async def course_for(table: TableLike) -> Course:
    """The course of finished `table`, worked out once, in a thread: a long Spartacus game
    takes 0.1-0.3 s, which the loop every session shares must not wait for. The thread
    rebuilds the game from its own copy of the records (a replay screen's, on the loop, is
    never touched from another thread)."""
    kept = _COURSES.get(table)
    if kept is None:
        config, actions = table.game.config, list(table.game.actions)
        kept = await asyncio.to_thread(lambda: course_of(Replay(config, actions, reveal=True)))
        _COURSES[table] = kept
    return kept


def every_seat(table: TableLike) -> bool:
    """Whether the table's creator allowed the bot's advice: then every seat's turning points
    are shown once the game is over."""
    return bool(table.summary().get("hints"))


def course_names(table: TableLike) -> list[str]:
    """Each seat's player as the game's screens name them beside a House or gladiator (a
    Spartacus bot is "bot/Glaber": its House tells it apart)."""
    names = table.seat_names()
    if table.game.name != "spartacus":
        return names
    return [
        "bot" if seat.bot is not None else name
        for seat, name in zip(table.seats, names, strict=True)
    ]


def seat_labels(table: TableLike) -> list[str]:
    """Each seat as its game's screens name it: "Blue Retiarius (ann)", "ann/Glaber"."""
    names, game = course_names(table), table.game
    return [player_label(s, p, names, game.name) for s, p in enumerate(pieces_of(game))]


def seats_reviewed(players: int, seat: int | None, every_seat: bool) -> list[int]:
    """Whose turning points a person sees: their own seat's; every seat's where the table
    allows it (its creator allowed the bot's advice), their own first."""
    if every_seat:
        return sorted(range(players), key=lambda s: s != seat)
    return [] if seat is None else [seat]


def chance_lost(drop: float) -> str:
    """ "about 12% less chance to win" (never "0%": a point listed lost something)."""
    return f"about {max(1, round(drop * 100))}% less chance to win"


def clipped(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def point_lines(point: DecisionReview, who: str, width: int = 76) -> tuple[str, str]:
    """The two lines of a turning point: what was chosen, then the bot's choice and the cost.
    `who`: "you", or the player's name."""
    cost = chance_lost(point.drop)
    when = f"round {point.round}" if point.round else "setup"
    first = f"{when}: {who} chose {point.chosen.label}"
    bot = "the search bot would choose "
    room = width - len(bot) - len(cost) - 2
    second = f"{bot}{clipped(point.best.label, max(room, 8))}: {cost}"
    return clipped(first, width), clipped(second, width)


def seat_heading(seat: int, asker: int | None, label: str) -> str:
    """ "Where it turned for you · ann/Glaber"; another's: "Where it turned for ann/Glaber"."""
    return f"Where it turned for you · {label}" if seat == asker else f"Where it turned for {label}"


def points_text(
    review: TableReview | Unanswered, seat: int, asker: int | None, label: str
) -> list[str]:
    """A seat's turning points, numbered, or why there are none."""
    lines = [f"{seat_heading(seat, asker, label)}:"]
    if isinstance(review, Unanswered):
        return [*lines, f"  {review.text}"]
    points = review.turning_points(seat, TURNING_POINTS)
    if not points:
        who = "you" if seat == asker else label
        return [*lines, f"  the search bot would have chosen as {who} did at every decision"]
    who = "you" if seat == asker else label
    for number, point in enumerate(points, start=1):
        first, second = point_lines(point, who)
        lines += [f"{number:>2} {first}", f"   {second}"]
    return lines


def review_text(
    course: Course,
    names: Sequence[str],
    reviews: Sequence[tuple[int, TableReview | Unanswered]],
    asker: int | None,
    labels: Sequence[str],
    *,
    width: int = 80,
    unicode: bool = True,
) -> str:
    """The course drawn, then each reviewed seat's turning points (`labels`: each seat's
    "ann/Glaber")."""
    blocks = [course_text(course, names, width=width, unicode=unicode)]
    for seat, review in reviews:
        blocks.append("\n".join(points_text(review, seat, asker, labels[seat])))
    text = "\n\n".join(blocks)
    return text if unicode else text.replace("…", "...").replace("·", "-")


async def table_review_text(
    table: TableLike,
    seats: Sequence[int],
    asker: int | None,
    reviewer: Reviewer | None,
    *,
    width: int = 80,
    unicode: bool = True,
    on_progress: Progress | None = None,
) -> str:
    """A finished table's review as text: its course, then the turning points of `seats`
    (the search bot asked for each)."""
    course = await course_for(table)
    reviews = []
    for seat in seats:
        answer = await review_calls.ask_review(
            reviewer, table, seat, on_progress or (lambda fraction: None)
        )
        reviews.append((seat, answer))
    labels = seat_labels(table)
    text = review_text(
        course, course_names(table), reviews, asker, labels, width=width, unicode=unicode
    )
    if not seats:
        text += "\n\nOnly the players of this table see where it turned for them."
    return text
