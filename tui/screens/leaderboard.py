"""The leaderboard: every rated player of one game, best first (Left/Right: another game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from harena.core.engine import available_games
from harena.core.ratings import BOT_RATINGS
from harena.tui.screens.help import HelpKeys
from harena.tui.screens.quiet import QuietFocus
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.pick_list import PickList
from harena.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from harena.tui.app import HarenaApp


class LeaderboardScreen(QuietFocus, HelpKeys, Screen[None]):
    HELP_TITLE = "ratings"
    BINDINGS = [
        Binding("up,k", "move(-1)", "scroll", key_display="↑↓"),
        Binding("down,j", "move(1)", show=False),
        Binding(
            "left,h",
            "game(-1)",
            "game",
            key_display="←→",
            tooltip="the leaderboard of another game",
        ),
        Binding("right,l,tab", "game(1)", show=False),
        Binding("escape,q", "close", "back"),
        Binding("question_mark", "help", "help", tooltip="this help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games = [(g.name, g.title) for g in available_games()]
        self.game_index = 0

    @property
    def harena(self) -> HarenaApp:
        return cast("HarenaApp", self.app)

    def compose(self) -> ComposeResult:
        yield HeaderLine("", id="header")
        yield Panel(
            "Rank  Rating  Games  Player", PickList("Nobody is rated at this game yet.", id="board")
        )
        yield StatusLine(id="status")
        yield KeyBar(self.BINDINGS, id="keys")

    def on_mount(self) -> None:
        self.reset()

    def reset(self) -> None:
        """The ratings as they are now, a game of yours first: the screen is kept per app."""
        ratings = self.harena.lobby.ratings
        rated = [
            i
            for i, (name, _) in enumerate(self.games)
            if ratings.of(self.harena.identity, name) is not None
        ]
        self.game_index = rated[0] if rated else 0  # a game of yours first
        self.draw()

    def lines(self) -> list[str]:
        ratings = self.harena.lobby.ratings
        name = self.games[self.game_index][0] if self.games else ""
        out = []
        for rank, (identity, rating) in enumerate(ratings.board(name), start=1):
            you = " (you)" if identity == self.harena.identity else ""
            out.append(f"{rank:>4}  {rating.value:>6.0f}  {rating.games:>5}  {rating.name}{you}")
        return out

    def draw(self) -> None:
        title = self.games[self.game_index][1] if self.games else "no games"
        self.query_one(HeaderLine).set_text(f"harena · ratings · {title}")
        self.query_one(PickList).set_lines(self.lines())
        bots = ", ".join(f"{k} {v:.0f}" for k, v in BOT_RATINGS.items())
        counted = "counted" if self.harena.lobby.ratings.count_bots else "not counted"
        self.query_one(StatusLine).show_info(
            f"Elo from 1500; bots fixed ({bots}); bot games {counted}"
        )

    def action_move(self, delta: int) -> None:
        self.query_one(PickList).move(delta)

    def action_game(self, delta: int) -> None:
        if self.games:
            self.game_index = (self.game_index + delta) % len(self.games)
            self.draw()

    def action_close(self) -> None:
        self.dismiss()
