"""Partial updates rendered by `server.partial_render` paint the same cells as Textual's own."""

from __future__ import annotations

import random

from rich.color import ColorSystem
from textual.geometry import Region

from harena.core.lobby import Lobby
from harena.server.hosting import partial_render
from harena.server.hosting.textual_fixes import install
from harena.server.transport.screen_buffer import ScreenBuffer
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.seats import SeatsPanel
from tests.tui.harness import session, until

install()


def painted(update: object, size: tuple[int, int]) -> tuple[list[list[str]], list[list[str]]]:
    """The cells an update writes (on an empty screen buffer)."""
    buffer = ScreenBuffer(*size)
    if update is not None:
        buffer.apply(update, ColorSystem.EIGHT_BIT)
    return buffer._target_chars, buffer._target_keys


async def test_any_dirty_regions_paint_what_textual_paints() -> None:
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    table.sit("bob", "bob")
    table.say("bob", "bob", "wide 世界 chat, long enough to wrap in the chat panel of the table")
    async with session(lobby, "ann", "ann") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        compositor = app.screen._compositor
        width, height = app.size
        rng = random.Random(7)
        original = partial_render.textual_render_partial_update
        assert original is not None
        for round_ in range(200):
            if round_ % 10 == 0:
                app.screen.query_one(SeatsPanel).refresh()  # some widgets with dirty lines
                await pilot.pause()
            regions = set()
            for _ in range(rng.randint(1, 4)):
                x, y = rng.randrange(width), rng.randrange(height)
                regions.add(Region(x, y, rng.randint(1, width - x), rng.randint(1, height - y)))
            compositor._dirty_regions = set(regions)
            ours = painted(partial_render.render_partial_update(compositor), (width, height))
            compositor._dirty_regions = set(regions)
            theirs = painted(original(compositor), (width, height))
            assert ours == theirs, regions


async def test_a_full_frame_paints_what_textual_paints() -> None:
    """`full_render`: the first frame, rendering only each cell's front-most widget, paints the
    same cells as Textual's full update (the table screen with a wide character, and the
    lobby), at two sizes."""
    from textual.strip import Strip

    from harena.server.hosting import full_render
    from harena.tui.screens.lobby import LobbyScreen

    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    table.sit("bob", "bob")
    table.say("bob", "bob", "wide 世界 chat, long enough to wrap in the chat panel of the table")
    original = full_render.textual_render_full_update
    assert original is not None
    for who, screen_type in (("ann", TableScreen), ("cid", LobbyScreen)):
        for size in ((80, 24), (101, 31)):
            async with session(lobby, who, who, size=size) as (app, pilot):
                await until(lambda: isinstance(app.screen, screen_type))  # noqa: B023
                await pilot.pause()
                compositor = app.screen._compositor
                ours = full_render.render_full_update(compositor)
                theirs = original(compositor)
                assert painted(ours, size) == painted(theirs, size)
                assert all(isinstance(s, Strip) for line in ours.strips for s in line)
