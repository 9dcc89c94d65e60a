"""Running HarenaApps under Textual's Pilot the way the server does, and reading their screens."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from harena.core.lobby import Lobby
from harena.server.hosting.textual_fixes import install, mark_server_app
from harena.server.transport.driver import SSHDriver
from harena.tui.app import HarenaApp

SIZE = (80, 24)


@asynccontextmanager
async def session(
    lobby: Lobby, identity: str, name: str, *, size: tuple[int, int] = SIZE, **options: Any
) -> AsyncIterator[tuple[HarenaApp, Pilot[None]]]:
    """One connected player: the server connects the identity around the app's life."""
    lobby.connect(identity, name)
    app = HarenaApp(lobby, identity, name, **options)
    try:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            yield app, pilot
    finally:
        lobby.disconnect(identity)


@asynccontextmanager
async def driven_session(
    lobby: Lobby, identity: str, name: str, *, size: tuple[int, int] = SIZE
) -> AsyncIterator[tuple[HarenaApp, SSHDriver]]:
    """One connected player whose app runs on the server's SSH driver (its output dropped), for
    tests that type raw bytes (`driver.feed`) rather than keys."""
    install()
    lobby.connect(identity, name)
    app = HarenaApp(lobby, identity, name)
    mark_server_app(app)
    started: asyncio.Future[SSHDriver] = asyncio.get_running_loop().create_future()
    app.driver_class = SSHDriver.bind(lambda data: None, started.set_result)
    task = asyncio.create_task(app.run_async(size=size))
    try:
        driver = await asyncio.wait_for(started, 5)
        yield app, driver
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        lobby.disconnect(identity)


def screen_text(app: HarenaApp, *, styles: bool = False) -> str:
    """What the terminal shows (modals drawn over the screens below them): plain text, or with
    `styles` its colours and styles too, as escape codes."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor" if styles else None,
        record=True,
        legacy_windows=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text(styles=styles)


async def until(condition: Callable[[], Any], timeout: float = 3.0) -> None:
    """Let every app on the loop work until `condition()` holds (views arrive asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the screen to change")
        await asyncio.sleep(0.01)
