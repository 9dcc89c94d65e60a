"""A finished table's review in words: whose turning points are shown, how each reads, and the
whole review as text for `ssh host review N` and `harena review TABLE`.

A turning point reads as a player says it: the round, what was chosen, what the search bot
would have chosen, and what it cost, "about 12% less chance to win".
"""

from __future__ import annotations

from collections.abc import Sequence

from harena.core.review.course import Course
from harena.core.review.verdict import DecisionReview, TableReview
from harena.tui.review_calls import Unanswered
from harena.tui.widgets.course_plot import course_text

TURNING_POINTS = 5
"""The decisions listed per seat, the worst first."""


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
    return "Where it turned for you" if seat == asker else f"Where it turned for {label}"


def points_text(
    review: TableReview | Unanswered, seat: int, asker: int | None, label: str
) -> list[str]:
    """A seat's turning points, numbered, or why there are none."""
    lines = [f"{seat_heading(seat, asker, label)} ({label}):"]
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
    return text if unicode else text.replace("…", "...")
