"""The team modes on screen (rulebook: Player Modes): the team of each gladiator in the players
panel, the chain of the Chained Match on the arena (Unicode and ASCII), the mode and 2 vs 3's
rulesets, and the game-over text naming the winning team; with real tables and a real app."""

from __future__ import annotations

from typing import Any

import pytest

from harena.core.lobby import Lobby
from harena.core.table import Table
from harena.tui.boards.carthage import catalog, panels
from harena.tui.boards.carthage.arena import COMPACT, LARGE, arena_lines, plain, position
from harena.tui.boards.carthage.board import ArenaView
from harena.tui.widgets.game_over import GameOverPanel
from tests.tui.carthage.helpers import table_screen
from tests.tui.harness import screen_text, session, until

CHAINED = {"teams": "2v2_chained", "gladiators": "by_seat", "sudden_death": "10"}


def play_until(table: Table, done: Any, identity: str = "id-alice") -> None:
    """Bots and alice (her last choice each time) play until `done()`."""
    for _ in range(20_000):
        if done():
            return
        for seat in table.bots_to_move():
            table.play_bot(seat)
        prompts = table.view_for(identity)["game"]["prompts"]
        if prompts:
            table.act(identity, prompts[0]["choices"][-1][0])
    raise AssertionError("the table never got there")


def placed(table: Table) -> bool:
    return table.game.state.phase.value == "action"


def chained_table(seed: int = 4) -> tuple[Lobby, Table]:
    lobby = Lobby(new_seed=lambda: seed)
    table = lobby.create_table(
        "id-alice", "alice", "carthage", 4, CHAINED, bots=3, bot_kind="heuristic"
    )
    return lobby, table


def gap_cells(board: dict[str, Any], scale: Any, ascii_only: bool) -> dict[tuple[int, int], str]:
    """(x, y) -> character, for every hex's two gap columns of the drawn arena."""
    lines = plain(arena_lines(board, scale=scale, ascii_only=ascii_only, compass=False))
    out = {}
    for h in catalog.arena().hexes:
        x, y = position(catalog.arena(), scale, h)
        out[(x, y)] = lines[y][x]
        out[(x + scale.pitch - 1, y)] = lines[y][x + scale.pitch - 1]
    return out


def test_the_chain_is_drawn_through_the_gaps_between_chained_teammates() -> None:
    _, table = chained_table()
    play_until(table, lambda: placed(table))
    board = table.view_for("id-alice")["game"]["board"]
    chains = board["teams"]["chains"]
    assert len(chains) == 2 and all(c["via"] is not None for c in chains)  # two apart on the edge
    for scale in (COMPACT, LARGE):
        for ascii_only, glyphs in ((False, "─╱╲"), (True, "-/\\")):
            gaps = gap_cells(board, scale, ascii_only)
            drawn = [at for at, ch in gaps.items() if ch in glyphs]
            assert len(drawn) == 8, (scale, ascii_only)  # 2 chains x 2 links x 2 gaps
    free = dict(board, teams=dict(board["teams"], chains=[]))
    assert not [ch for ch in gap_cells(free, COMPACT, False).values() if ch in "─╱╲"]


def test_the_players_panel_numbers_each_gladiator_by_team() -> None:
    _, table = chained_table()
    view = table.view_for("id-alice")
    lines = plain(panels.player_lines(view, 42))
    assert [line[:2] for line in lines] == ["B1", "R2", "G1", "Y2"]
    assert all(len(line) == 42 for line in lines)
    segments = panels.player_lines(view, 42)
    assert segments[0][1][1] != segments[1][1][1]  # the two teams in different colours
    assert panels.teams_text(view) == "2 vs 2 Chained Match: Team 1 B G, Team 2 R Y"


def test_2v3_shows_the_team_of_two_and_its_rulesets() -> None:
    lobby = Lobby(new_seed=lambda: 2)
    table = lobby.create_table(
        "id-alice", "alice", "carthage", 5, {"teams": "2v3", "gladiators": "by_seat"}, bots=4
    )
    view = table.view_for("id-alice")
    assert panels.teams_text(view).endswith("Team 2's rulesets: being chosen")
    play_until(table, lambda: len(table.game.state.team_rulesets) == 4)
    text = panels.teams_text(table.view_for("id-alice"))
    assert text.startswith("2 vs 3: Team 1 B G P, Team 2 R Y; Team 2's rulesets: ")
    assert len(text.split(": ")[-1].split(", ")) == 4


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_chained_match_on_screen_shows_teams_chain_and_the_winning_team(
    size: tuple[int, int],
) -> None:
    lobby, table = chained_table()
    async with session(lobby, "id-alice", "alice", size=size) as (app, pilot):
        play_until(table, lambda: placed(table))
        screen = table_screen(app)
        await until(
            lambda: screen.view is not None and screen.view["game"]["board"]["phase"] == "action"
        )
        await pilot.pause()
        players = screen.query_one("#players", panels.LinesView).text.splitlines()
        assert [line[:2] for line in players] == ["B1", "R2", "G1", "Y2"]
        assert "alice (you)" in players[0]
        arena = screen.query_one(ArenaView).text
        assert sum(arena.count(ch) for ch in "─╱╲") == 8
        play_until(table, lambda: table.game.result() is not None)
        await until(lambda: screen.query(GameOverPanel))  # made as the game ends
        over = screen.query_one(GameOverPanel)
        await until(lambda: over.display and "Winner:" in over.text)
        won = table.game.team_mode.winning_team()
        assert f"Winner: Team {won + 1}, " in over.text
        assert f"Team {won + 1} wins: Team {2 - won} eliminated" in over.text
        await pilot.pause()
        assert "GAME OVER" in screen_text(app)
