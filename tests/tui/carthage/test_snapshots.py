"""The Carthage table screen as text at 80x24 and 120x40 (compared with the files in
snapshots/; run with UPDATE_SNAPSHOTS=1 to rewrite them after a deliberate change)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harena.core.lobby import Lobby
from harena.core.table import Table
from tests.tui.carthage import script
from tests.tui.harness import screen_text, session

SNAPSHOTS = Path(__file__).parent / "snapshots"


def after_the_knockback() -> tuple[Lobby, Table]:
    """The scripted round, up to alice's next card after Blue was knocked back."""
    lobby, table = script.new_table()
    for _ in range(20):
        script.run_others(table)
        table.act(script.ALICE, script.alice_plan(table))
        if table.view_for(script.ALICE)["game"]["board"]["players"][script.ALICE_SEAT]["at"] == [
            2,
            -1,
        ]:
            break
    script.run_others(table)
    return lobby, table


def check_snapshot(name: str, text: str, folder: Path = SNAPSHOTS) -> None:
    path = folder / name
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        folder.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_table_screen_fits(size: tuple[int, int]) -> None:
    lobby, _table = after_the_knockback()
    async with session(lobby, script.ALICE, "alice", size=size) as (app, _pilot):
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
        # Header, the four gladiators, Theater, row, hand, log, chat, prompt, keys: all there.
        assert lines[0].startswith(" Table 1 · Carthage · playing · you: Y Yellow Thracian (alice)")
        for who in ("B s0", "R s1", "G s2", "Y alice (you)"):
            assert who in text
        assert "Theater:" in text and "Row: deck" in text and "Hand: deck" in text
        assert "Log" in text and "Chat" in text and "Round 1: play a card" in text
        assert "weadzx" in lines[-1] and "step" in lines[-1]
        # The arena: nine rows of hexes (5 to 9 a row), Yellow on the token, Blue knocked back.
        assert ("Y↯" in text or "Y ↯↯" in text) and " B " in text
        check_snapshot(f"table_{size[0]}x{size[1]}.txt", text)


async def test_plain_ascii_when_the_terminal_is_not_utf8() -> None:
    lobby, _table = after_the_knockback()
    async with session(lobby, script.ALICE, "alice", unicode=False) as (app, _pilot):
        arena = app.screen.query_one("#arena").text
        assert arena.isascii() and "Y<" in arena
        assert app.screen.query_one("#hand").text.isascii()
        assert app.screen.query_one("#players").text.isascii()
