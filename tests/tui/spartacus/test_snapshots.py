"""The Spartacus table screen as text at 80x24 and 120x40 (compared with the files in
snapshots/; run with UPDATE_SNAPSHOTS=1 to rewrite them after a deliberate change), and in
plain ASCII for terminals that are not UTF-8."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.carthage.test_snapshots import check_snapshot
from tests.tui.harness import screen_text, session
from tests.tui.spartacus.test_board import ANN, BOB, at_the_auction


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_table_screen_fits(size: tuple[int, int]) -> None:
    lobby, table = at_the_auction()
    table.act(BOB, "bid:2")
    async with session(lobby, ANN, "ann", size=size) as (app, _pilot):
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
        assert lines[0].startswith(" Table 1 · Spartacus · playing · you: ann/Batiatus")
        for words in (
            "Houses",
            "Your House: ann/Batiatus",
            "Round 1: Market",
            "Lot: ",
            "Log",
            "Chat",
        ):
            assert words in text, words
        assert "bob/Glaber has bid" in text and "hidden" in text and "Bid for" in text
        check_snapshot(f"table_{size[0]}x{size[1]}.txt", text, Path(__file__).parent / "snapshots")


async def test_plain_ascii_when_the_terminal_is_not_utf8() -> None:
    lobby, _table = at_the_auction()
    async with session(lobby, ANN, "ann", unicode=False) as (app, _pilot):
        for panel in ("#houses", "#house", "#phase", "#arena"):
            text = app.screen.query_one(panel).text
            assert text.isascii(), (panel, text)
        assert "Inf 4/12 ####........" in app.screen.query_one("#house").text  # the Influence track
