"""The course of a game drawn: one labelled sparkline per player and measure, with its figures
and the round's marks, as Rich renderables the review screen shows and the one-shot commands
print as text.

A column is a round (the first: the start), so lines of one block read down together; Textual's
own sparkline draws each (`textual.renderables.sparkline`), one bucket per column. Marks:
Carthage `x` where a gladiator fell (nothing drawn after); Spartacus a line of events under the
Houses' figures, `A` an auction won, `S` a Scheme that landed, `*` both.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO

from rich.color import Color
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.renderables.sparkline import Sparkline

from harena.core.review.course import Course, Mark, PlayerCourse, Series

NAME_WIDTH = 24
FIGURES_WIDTH = 24  # "15 to -1, min -1 max 17"
GAP = 1
LOW, HIGH = Color.parse("red"), Color.parse("green")  # more is better, for every measure
EVENT_MARKS = {
    frozenset({Mark.AUCTION}): "A",
    frozenset({Mark.SCHEME}): "S",
    frozenset({Mark.AUCTION, Mark.SCHEME}): "*",
}
LEGEND = {
    "carthage": "x: eliminated in that round",
    "spartacus": "A: won an auction, S: a Scheme landed, *: both",
}


class AsciiSparkline(Sparkline[int]):
    """The same sparkline in plain ASCII, for a terminal that is not UTF-8."""

    BARS = "_.,:-=+#"


def plot_width(course: Course, width: int) -> int:
    """Columns for the plots: one per round, fewer (each a bucket of rounds) when narrow."""
    room = max(8, width - NAME_WIDTH - FIGURES_WIDTH - 2 * GAP - 2)
    return min(len(course.rounds), room)


def column_of(index: int, count: int, columns: int) -> int:
    """The column the `index`-th of `count` values falls in, as the sparkline buckets them."""
    return index * columns // count


def course_renderable(
    course: Course, names: Sequence[str], *, width: int = 80, unicode: bool = True
) -> RenderableType:
    """Every measure as a block of one line per player (`names`: each seat's player, shown
    with its gladiator or House), then the marks' legend."""
    columns = plot_width(course, width)
    last = course.rounds[-1]
    blocks: list[RenderableType] = []
    for measure in course.measures:
        blocks.append(Text(f"{measure}, from the start to round {last}", style="bold"))
        grid = _grid(columns)
        for player in course.players:
            series = player.measure(measure)
            grid.add_row(
                _label(player, names, course.game, unicode),
                _plot(series, player, course, columns, unicode),
                _figures(series, player, course),
            )
        blocks.append(grid)
    if course.game == "spartacus":
        blocks.append(Text("Auctions won and Schemes landed", style="bold"))
        grid = _grid(columns)
        for player in course.players:
            grid.add_row(
                _label(player, names, course.game, unicode),
                _events(player, course, columns, unicode),
                "",
            )
        blocks.append(grid)
    legend = LEGEND.get(course.game)
    if legend:
        blocks.append(Text(legend, style="dim"))
    return Group(*blocks)


def course_text(
    course: Course, names: Sequence[str], *, width: int = 80, unicode: bool = True
) -> str:
    """The same drawing as plain text, for `ssh host review N` and `harena review`."""
    out = StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False, emoji=False)
    console.print(course_renderable(course, names, width=width, unicode=unicode))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


LABELS = {"carthage": "{piece} ({who})", "spartacus": "{who}/{piece}"}
"""A player as each game's screens name them: "Blue Retiarius (ann)", "ann/Glaber"."""


def player_label(seat: int, piece: str, names: Sequence[str], game: str) -> str:
    """The player and their gladiator or House, as the game's own screens say it."""
    who = names[seat] if 0 <= seat < len(names) else ""
    return LABELS.get(game, "{who}/{piece}").format(who=who, piece=piece) if who else piece


def _grid(columns: int) -> Table:
    grid = Table.grid(padding=(0, GAP))
    grid.add_column(width=NAME_WIDTH, no_wrap=True, overflow="ellipsis")
    grid.add_column(width=columns, no_wrap=True)
    grid.add_column(width=FIGURES_WIDTH, no_wrap=True, overflow="ellipsis")
    return grid


def _label(player: PlayerCourse, names: Sequence[str], game: str, unicode: bool) -> Text:
    label = player_label(player.seat, player.piece, names, game)
    if len(label) > NAME_WIDTH:
        label = label[: NAME_WIDTH - 1] + "…" if unicode else label[: NAME_WIDTH - 3] + "..."
    return Text(label, no_wrap=True)


def _plot(
    series: Series, player: PlayerCourse, course: Course, columns: int, unicode: bool
) -> RenderableType:
    """The values known, and a gladiator's `x` in the column of the round it fell in."""
    known = series.known
    count = len(series.values)
    fell = any(Mark.ELIMINATED in marks for marks in player.marks.values())
    mark = Text("x" if fell else "", style="bold red")
    if fell:
        known = known[:-1]  # its last figure is in the numbers; the column shows the fall
    if not known:
        return mark
    drawn = column_of(len(known) - 1, count, columns) + 1
    kind = Sparkline if unicode else AsciiSparkline
    line = Table.grid(padding=0)
    # A column as wide as the sparkline: its __rich_measure__ gives its height as the maximum.
    line.add_column(width=drawn, no_wrap=True)
    line.add_column(no_wrap=True)
    line.add_row(kind(known, width=drawn, min_color=LOW, max_color=HIGH), mark)
    return line


def _figures(series: Series, player: PlayerCourse, course: Course) -> str:
    """ "15 to 2, min 2 max 17": the first and last values and the range the line spans."""
    known = series.known
    if not known:
        return ""
    return f"{known[0]} to {known[-1]}, min {min(known)} max {max(known)}"


def _events(player: PlayerCourse, course: Course, columns: int, unicode: bool) -> Text:
    """One character per column: the marks of the rounds in it, `·` when none."""
    cells = [set[Mark]() for _ in range(columns)]
    count = len(course.rounds)
    for index, round_ in enumerate(course.rounds):
        if index == 0:
            continue  # the start: nothing has happened yet
        cells[column_of(index, count, columns)].update(player.marks.get(round_, ()))
    none = "·" if unicode else "."
    return Text("".join(EVENT_MARKS.get(frozenset(c), none) for c in cells))
