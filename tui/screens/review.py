"""How a finished game went: its course drawn, then where it turned for the player asking.

The course (core/review/course.py) is drawn at once; the turning points come from the search
bot, which reviews the table off the loop (tui/review_calls.py): the status line shows how far
it is, or why there is nothing (the bots are busy: `r` asks again). A number jumps the replay to
that decision, the moment before it was made. At a table whose creator allowed the bot's advice,
Tab shows every other player's turning points too (a finished game hides nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.console import Group
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from harena.core.review.course import Course
from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import DecisionReview, TableReview
from harena.core.table_like import TableLike
from harena.tui import review_calls
from harena.tui.review_calls import Unanswered
from harena.tui.review_text import (
    TURNING_POINTS,
    course_for,
    course_names,
    every_seat,
    point_lines,
    reviewable,
    seat_heading,
    seat_labels,
    seats_reviewed,
)
from harena.tui.screens.help import HelpKeys
from harena.tui.screens.quiet import QuietFocus
from harena.tui.widgets.course_plot import course_renderable
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar
from harena.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from textual.app import App


class ReviewScreen(QuietFocus, HelpKeys, Screen[int | None]):
    """Dismissed with a replay position when it was opened from the replay (`jumps=False`);
    else a number opens the replay at that position over it."""

    DEFAULT_CSS = """
    ReviewScreen #review-body {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    ReviewScreen #course, ReviewScreen #points {
        height: auto;
        padding: 0 1;
    }
    ReviewScreen #points {
        margin-top: 1;
    }
    """

    HELP_TITLE = "how it went"
    BINDINGS = [
        Binding(
            "1",
            "jump(1)",
            "replay there",
            key_display="1-5",
            tooltip="the replay at that turning point, the moment before the choice",
        ),
        *(Binding(str(n), f"jump({n})", show=False) for n in range(2, TURNING_POINTS + 1)),
        Binding(
            "down", "scroll(1)", "scroll", key_display="↑↓", tooltip="scroll (PgUp/PgDn: a page)"
        ),
        Binding("up", "scroll(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding(
            "tab",
            "next_seat",
            "next player",
            show=False,
            tooltip="another player's turning points (at a table that allows the bot's advice)",
        ),
        Binding(
            "r",
            "ask_again",
            "ask again",
            show=False,
            tooltip="ask the search bot again (it was busy)",
        ),
        Binding("escape,q", "close", "close"),
        Binding("question_mark", "help", "help", tooltip="this help"),
    ]
    HELP_EXTRA = [
        ("x", "Armor and Favor lines: the round the gladiator was eliminated in"),
        ("A S *", "Spartacus: a round the House won an auction, a Scheme of it landed, both"),
        ("min max", "the lowest and highest value of the line; it is drawn between them"),
        ("% less", "the search bot's estimate of the chance to win lost by that choice, from "
         "what that player knew then (never from hidden cards)"),
    ]  # fmt: skip

    def __init__(
        self,
        table: TableLike,
        identity: str | None,
        reviewer: Reviewer | None,
        *,
        jumps: bool = True,
    ) -> None:
        super().__init__()
        self.table = table
        self.identity = identity
        self.reviewer = reviewer  # who weighs the game (None: nobody here)
        self.jumps = jumps
        self.course: Course | None = None  # worked out off the loop (`_draw_course`)
        self.labels = seat_labels(table)
        self.asker = table.seat_of(identity)
        self.seats = seats_reviewed(table.game.players, self.asker, every_seat(table))
        self.shown = 0  # index into self.seats
        self.reviews: dict[int, TableReview | Unanswered] = {}
        self.progress: float | None = None  # while the bot reviews

    def compose(self) -> ComposeResult:
        yield HeaderLine(f"Table {self.table.id} · how it went · {self.table.game.title}")
        with VerticalScroll(id="review-body"):
            yield Static(self._course(), id="course")
            yield Static(self._points(), id="points")
        yield StatusLine(id="status")
        several = len(self.seats) > 1  # Tab on the bar only when it shows someone else
        yield KeyBar(
            [
                replace(b, show=several) if b.action == "next_seat" else b
                for b in self.BINDINGS
                if isinstance(b, Binding)
            ],
            id="keys",
        )

    def on_mount(self) -> None:
        self.run_worker(self._draw_course(), group="course")
        self._ask()

    async def _draw_course(self) -> None:
        self.course = await course_for(self.table)
        if self.is_attached:
            self.query_one("#course", Static).update(self._course())

    # -- what is shown ----------------------------------------------------------------------------

    def _course(self) -> Group | Content:
        if self.course is None:
            return Content("Drawing the course of the game...")
        unicode = getattr(self.app, "unicode", True)
        width = max(40, self.app.size.width - 3)
        names = course_names(self.table)
        return Group(course_renderable(self.course, names, width=width, unicode=unicode))

    @property
    def seat(self) -> int | None:
        return self.seats[self.shown] if self.seats else None

    def turning_points(self) -> list[DecisionReview]:
        review = self.reviews.get(self.seat) if self.seat is not None else None
        if not isinstance(review, TableReview) or self.seat is None:
            return []
        return review.turning_points(self.seat, TURNING_POINTS)

    def _points(self) -> Content:
        seat = self.seat
        if seat is None:
            return Content("Only the players of this table see where it turned for them.")
        label = self.labels[seat]
        lines = [Content.styled(seat_heading(seat, self.asker, label), "bold")]
        review = self.reviews.get(seat)
        width = max(40, self.app.size.width - 6)
        if review is None:
            lines.append(Content("  the search bot is reviewing the decisions..."))
        elif isinstance(review, Unanswered):
            lines.append(Content(f"  {review.text}"))
        elif not self.turning_points():
            who = "you" if seat == self.asker else label
            lines.append(Content(f"  the search bot would have chosen as {who} did, every time"))
        who = "you" if seat == self.asker else label
        for number, point in enumerate(self.turning_points(), start=1):
            first, second = point_lines(point, who, width - 3)
            lines.append(Content.assemble((f"{number:>2}", "bold reverse"), f" {first}"))
            lines.append(Content(f"   {second}"))
        return Content("\n").join(lines)

    def _draw(self) -> None:
        self.query_one("#points", Static).update(self._points())
        status = self.query_one(StatusLine)
        seat = self.seat
        review = None if seat is None else self.reviews.get(seat)
        if seat is not None and review is None:
            done = f": {round(self.progress * 100)}%" if self.progress is not None else ""
            status.show_info(f"The search bot is reviewing the decisions{done}")
        elif isinstance(review, Unanswered) and review.retry:
            status.show_info("r: ask the search bot again")
        elif self.turning_points():
            status.show_info("1-5: the replay at that moment")
        else:
            status.clear()

    # -- asking the search bot ----------------------------------------------------------------------

    def _ask(self) -> None:
        seat = self.seat
        if seat is None:
            self._draw()
            return
        if seat in self.reviews:
            self._draw()
            return
        self.progress = None
        self._draw()
        self.run_worker(self._review(seat), group="review", exclusive=True)

    async def _review(self, seat: int) -> None:
        answer = await review_calls.ask_review(self.reviewer, self.table, seat, self._progressed)
        self.reviews[seat] = answer
        self.progress = None
        if self.is_attached:
            self._draw()

    def _progressed(self, fraction: float) -> None:
        self.progress = min(max(fraction, 0.0), 1.0)
        if self.is_attached:
            self._draw()

    # -- keys -------------------------------------------------------------------------------------

    def action_jump(self, number: int) -> None:
        points = self.turning_points()
        if not 1 <= number <= len(points):
            self.query_one(StatusLine).show_error(
                f"no turning point {number}"
                + (f": there are {len(points)}" if points else " to jump to yet")
            )
            return
        position = points[number - 1].position
        if not self.jumps:
            self.dismiss(position)
            return
        from harena.tui.screens.replay import ReplayScreen

        self.app.push_screen(
            ReplayScreen.for_table(
                self.table, self.identity, position=position, reviewer=self.reviewer
            )
        )

    def action_scroll(self, lines: int) -> None:
        body = self.query_one("#review-body", VerticalScroll)
        body.scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        body = self.query_one("#review-body", VerticalScroll)
        body.scroll_relative(y=pages * max(1, body.size.height - 1), animate=False)

    def action_next_seat(self) -> None:
        if len(self.seats) < 2:
            self.query_one(StatusLine).show_error(
                "only your own turning points: this table's creator did not allow the bot's advice"
            )
            return
        self.shown = (self.shown + 1) % len(self.seats)
        self._ask()

    def action_ask_again(self) -> None:
        seat = self.seat
        if seat is None:
            return
        review = self.reviews.get(seat)
        if isinstance(review, Unanswered) and review.retry:
            del self.reviews[seat]
            self._ask()

    def action_close(self) -> None:
        self.dismiss(None)


def open_review(
    app: App[Any],
    table: TableLike,
    identity: str | None,
    reviewer: Reviewer | None,
    *,
    then: Callable[[int | None], None] | None = None,
) -> str | None:
    """Push the review of `table` (None), or say why there is none. `then`: opened from the
    replay, which hears the position to jump to."""
    why = reviewable(table)
    if why is not None:
        return why
    screen = ReviewScreen(table, identity, reviewer, jumps=then is None)
    app.push_screen(screen, then)
    return None
