"""The replay screen: a game stepped through from its log, with the table's own board plug-in.

A finished game is shown revealed (every line in full; Tab shows the board as each seat saw
it). A game in play is reviewed as the player's own seat saw it (a spectator: as spectators
did), from when they sat down, never more: core/replays.py builds each position's view.
Steps: a move (Left/Right), a turn ([ ]), a round (PageUp/PageDown), the start and the end
(Home/End). It reads the game; it sends nothing.
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import replace
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from harena.core.replays import Replay
from harena.core.review.reviewer import Reviewer
from harena.core.table_like import TableLike
from harena.tui.boards import BoardWidget, board_widget_for
from harena.tui.screens.help import HelpKeys
from harena.tui.screens.quiet import QuietFocus
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.seats import SeatsPanel
from harena.tui.widgets.status_line import StatusLine

log = logging.getLogger(__name__)


# A finished game's revealed replay is the same for everyone: built once per table (a long
# Spartacus game takes ~0.1-0.25 s to rebuild, on the loop every session shares).
_REVEALED: weakref.WeakKeyDictionary[TableLike, Replay] = weakref.WeakKeyDictionary()


def replay_of(table: TableLike, identity: str | None) -> Replay:
    """A finished table revealed; one in play as `identity`'s seat (or a spectator) saw it."""
    seat = table.seat_of(identity)
    over = table.status in ("over", "closed")
    if over:
        kept = _REVEALED.get(table)
        if kept is not None and kept.last == len(table.game.actions):
            return kept
        _REVEALED[table] = made = _replay(table, seat, over)
        return made
    return _replay(table, seat, over)


def _replay(table: TableLike, seat: int | None, over: bool) -> Replay:
    return Replay(
        table.game.config,
        table.game.actions,
        seat=None if over else seat,
        log_from=0 if over or seat is None else table.seats[seat].log_from,
        reveal=over,
        notes=table.notes,
        names=[s.name or f"seat {i}" for i, s in enumerate(table.seats)],
    )


class ReplayScreen(QuietFocus, HelpKeys, Screen[None]):
    DEFAULT_CSS = """
    ReplayScreen #body {
        height: 1fr;
    }
    ReplayScreen #left {
        width: 34;
    }
    ReplayScreen #log-panel {
        height: 8;
    }
    """

    HELP_TITLE = "replay"
    BINDINGS = [
        Binding(
            "right,l", "step(1)", "move", key_display="←→", tooltip="one move forward (Left: back)"
        ),
        Binding("left,h", "step(-1)", show=False),
        Binding(
            "right_square_bracket",
            "turn(1)",
            "turn",
            key_display="[]",
            tooltip="the next turn (another seat chooses); [ back",
        ),
        Binding("left_square_bracket", "turn(-1)", show=False),
        Binding(
            "pagedown",
            "round(1)",
            "round",
            key_display="PgUp/Dn",
            tooltip="the next round (PageUp: back)",
        ),
        Binding("pageup", "round(-1)", show=False),
        Binding(
            "home",
            "jump(0)",
            "start",
            tooltip="the start of the game (End: its end, with any moves made since)",
        ),
        Binding("end", "jump(1)", show=False),
        Binding(
            "tab",
            "next_seat",
            "seat",
            tooltip="a finished game: the board as the next player saw it",
        ),
        Binding(
            "i",
            "how_it_went",
            "review",  # short: the bar must fit 80 columns
            tooltip="a finished game: how it went, its course drawn and where it turned for you",
        ),
        Binding("escape,q", "close", "close"),
        Binding("question_mark", "help", "help", tooltip="this help"),
    ]

    def __init__(
        self,
        table: TableLike,
        replay: Replay,
        *,
        title: str = "",
        identity: str | None = None,
        position: int | None = None,
        reviewer: Reviewer | None = None,
    ) -> None:
        """`position`: where to open (a turning point of the review); None: the end.
        `reviewer`: who weighs the finished game for its review (`i`); None: nobody here."""
        super().__init__()
        self.table = table
        self.reviewer = reviewer
        self.identity = identity  # whose review (End catches up with moves made since)
        self.replay = replay
        self.position = replay.last if position is None else replay.clamp(position)
        self.board_seat: int | None = None if not replay.reveal else 0
        self.board_class = board_widget_for(table.game.name)
        self._title = title or f"Table {table.id} · {table.game.title}"

    @classmethod
    def for_table(
        cls,
        table: TableLike,
        identity: str | None,
        *,
        position: int | None = None,
        reviewer: Reviewer | None = None,
    ) -> ReplayScreen:
        over = table.status in ("over", "closed")
        title = f"Table {table.id} · {'replay' if over else 'review'}"
        return cls(
            table,
            replay_of(table, identity),
            title=title,
            identity=identity,
            position=position,
            reviewer=reviewer,
        )

    def compose(self) -> ComposeResult:
        view = self.view()
        yield HeaderLine(self._header(), id="header")
        if self.board_class.OWNS_BODY:
            yield self.board_class(id="body")
        else:
            with Horizontal(id="body"):
                with Vertical(id="left"):
                    yield Panel("Players", SeatsPanel(id="seats"), rows=len(view["table"]["seats"]))
                with Vertical(id="right"):
                    yield Panel(self.board_class.TITLE, self.board_class(id="board"))
                    yield Panel("Log", LogPanel(id="log"), id="log-panel")
        yield StatusLine(id="status")
        yield KeyBar(self._bar_bindings(), id="keys")

    def on_mount(self) -> None:
        self.set_class(not getattr(self.app, "unicode", True), "-ascii")
        self.draw()

    def _bar_bindings(self) -> list[Binding]:
        """The keys on the bar: `i` only for a finished game with a review."""
        from harena.tui.review_text import reviewable

        shown = self.replay.reveal and reviewable(self.table) is None
        return [
            replace(b, show=shown) if b.action == "how_it_went" else b
            for b in self.BINDINGS
            if isinstance(b, Binding)
        ]

    # -- what is shown ----------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The table view the board plug-in draws at this position."""
        replay = self.replay
        seat = replay.seat if not replay.reveal else self.board_seat
        summary = self.table.summary()
        summary.pop("clock", None)
        table = {
            **summary,
            "seats": [{k: v for k, v in s.items() if k != "stand_in"} for s in summary["seats"]],
            "status": "over" if replay.reveal else "playing",
            "spectators": [],
            "you": seat,
            "removed": None,
            "chat": [],
        }
        if replay.reveal and self.position < replay.last:
            table["status"] = "playing"
        return {"table": table, "game": replay.view_at(self.position, self.board_seat)}

    def _header(self) -> str:
        replay = self.replay
        whose = ""
        if replay.reveal and self.board_seat is not None:
            whose = f" · board as {replay.names[self.board_seat]} saw it"
        elif not replay.reveal:
            whose = (
                " · as your seat saw it" if replay.seat is not None else " · as spectators saw it"
            )
        return f"{self._title}{whose}"

    def position_text(self) -> str:
        replay, n = self.replay, self.position
        text = f"move {n}/{replay.last} · round {replay.round_at(n)}"
        if n > 0:
            step = replay.steps[n - 1]
            text += f" · last: {replay.names[step.seat]}"
        if n == replay.first and replay.first > 0:
            text += " · (you sat down here)"
        return text

    def draw(self) -> None:
        view = self.view()
        board = self.query_one(BoardWidget)
        self.query_one(HeaderLine).set_text(self._header())
        if not board.OWNS_BODY:
            self.query_one(SeatsPanel).show(view)
        board.show(view)
        self.query_one(LogPanel).set_lines(board.log_lines(view))
        self.query_one(StatusLine).show_info(self.position_text())

    def _go(self, position: int) -> None:
        position = self.replay.clamp(position)
        if position != self.position:
            self.position = position
            self.draw()

    # -- keys -------------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self._go(self.position + delta)

    def action_turn(self, delta: int) -> None:
        replay = self.replay
        self._go(
            replay.next_turn(self.position) if delta > 0 else replay.previous_turn(self.position)
        )

    def action_round(self, delta: int) -> None:
        replay = self.replay
        self._go(
            replay.next_round(self.position) if delta > 0 else replay.previous_round(self.position)
        )

    def action_jump(self, end: int) -> None:
        if end and len(self.table.game.actions) > self.replay.last and self.table.removed is None:
            # The game moved on since the review opened: catch up (as this seat sees it).
            self.replay = replay_of(self.table, self.identity)
            if self.replay.reveal and self.board_seat is None:
                self.board_seat = 0  # it ended meanwhile: everything may be shown now
            self.position = -1  # redraw even if the number were the same
        self._go(self.replay.last if end else self.replay.first)

    def action_next_seat(self) -> None:
        if not self.replay.reveal or self.board_seat is None:
            self.query_one(StatusLine).show_error("during play you see only your own seat's board")
            return
        self.board_seat = (self.board_seat + 1) % self.table.game.players
        self.draw()

    def action_how_it_went(self) -> None:
        from harena.tui.screens.review import open_review

        def jump(position: int | None) -> None:
            if position is not None:
                self._go(position)

        why = open_review(self.app, self.table, self.identity, self.reviewer, then=jump)
        if why is not None:
            self.query_one(StatusLine).show_error(why)

    def action_close(self) -> None:
        self.dismiss()
