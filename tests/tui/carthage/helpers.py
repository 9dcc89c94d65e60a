"""Driving a Carthage table screen by keys, as a player would."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from harena.tui.app import HarenaApp
from harena.tui.boards.carthage.board import CarthageBoard
from tests.tui.harness import until
from tests.tui.screen_keys import (  # noqa: F401  (the Carthage tests import them from here)
    press_choice,
    prompt_bar,
    prompt_kind,
    slot_of,
    status,
    table_screen,
    until_prompt,
)


def board(app: HarenaApp) -> CarthageBoard:
    return table_screen(app).query_one(CarthageBoard)


async def move_cursor(pilot: Pilot[Any], app: HarenaApp, target: tuple[int, int]) -> None:
    """Arrow keys until the hex cursor is on `target`."""
    for _ in range(30):
        q, r = board(app).cursor
        if (q, r) == target:
            return
        if r != target[1]:
            key = "up" if target[1] < r else "down"
        else:
            key = "left" if target[0] < q else "right"
        await pilot.press(key)
    raise AssertionError(f"the cursor did not reach {target}")


async def until_synced(app: HarenaApp, table: Any, identity: str) -> None:
    """Wait until the screen shows the table as it is now (views arrive asynchronously)."""
    await until(lambda: table_screen(app).view["game"] == table.view_for(identity)["game"])
