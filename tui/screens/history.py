"""A player's finished games (date, game, players, result), newest first; Enter replays one."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from harena.tui.screens.help import HelpKeys
from harena.tui.screens.quiet import QuietFocus
from harena.tui.screens.replay import ReplayScreen
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.pick_list import PickList
from harena.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from harena.core.lobby import Lobby
    from harena.core.table_like import TableLike
    from harena.tui.app import HarenaApp


def finished_games(lobby: Lobby, identity: str) -> list[TableLike]:
    """The finished (or closed) tables where `identity` held a seat, newest first."""
    mine = [
        t
        for t in lobby.tables.values()
        if t.status in ("over", "closed") and t.seat_of(identity) is not None
    ]
    return sorted(mine, key=lambda t: (-t.touched, t.id))


def result_text(table: TableLike, identity: str) -> str:
    result = table.game.result()
    if result is None:
        return f"closed: {table.closed}"
    winners = [table.seats[s].name or f"seat {s}" for s in result.winners]
    you = table.seat_of(identity)
    head = (
        "you won"
        if you in result.winners and len(winners) == 1
        else ("you shared the win" if you in result.winners else "won by " + ", ".join(winners))
    )
    return head


def history_line(table: TableLike, identity: str) -> str:
    """`2026-11-30  #12  Carthage   ann, bob, heuristic bot   you won`"""
    day = time.strftime("%Y-%m-%d", time.gmtime(table.touched))
    players = ", ".join(s.name or "-" for s in table.seats)
    return f"{day}  #{table.id:<4} {table.game.title[:12]:<12} {players[:28]:<28} {result_text(table, identity)}"


class HistoryScreen(QuietFocus, HelpKeys, Screen[None]):
    HELP_TITLE = "your games"
    BINDINGS = [
        Binding("up,k", "move(-1)", "select", key_display="↑↓"),
        Binding("down,j", "move(1)", show=False),
        Binding(
            "enter", "replay", "replay", tooltip="replay the selected game, everything revealed"
        ),
        Binding("escape,q", "close", "back"),
        Binding("question_mark", "help", "help", tooltip="this help"),
    ]

    @property
    def harena(self) -> HarenaApp:
        return cast("HarenaApp", self.app)

    def compose(self) -> ComposeResult:
        self.tables: list[TableLike] = []
        yield HeaderLine("", id="header")
        games = PickList("No finished games yet.", id="games")
        yield Panel("Date        Table Game         Players                      Result", games)
        yield StatusLine(id="status")
        yield KeyBar(self.BINDINGS, id="keys")

    def on_mount(self) -> None:
        self.reset()

    def reset(self) -> None:
        """The games as they are now: the screen is kept per app and shown again."""
        self.tables = finished_games(self.harena.lobby, self.harena.identity)
        self.query_one(HeaderLine).set_text(f"harena · your finished games ({len(self.tables)})")
        self.query_one(PickList).set_lines(
            [history_line(t, self.harena.identity) for t in self.tables]
        )

    def action_move(self, delta: int) -> None:
        self.query_one(PickList).move(delta)

    def action_replay(self) -> None:
        if not self.tables:
            self.query_one(StatusLine).show_error("no finished game to replay yet")
            return
        table = self.tables[self.query_one(PickList).index]
        self.app.push_screen(
            ReplayScreen.for_table(table, self.harena.identity, reviewer=self.harena.lobby.reviewer)
        )

    def action_close(self) -> None:
        self.dismiss()
