"""`harena play GAME`: the same screens in this terminal, against bots, nothing saved but the
log, which goes to a file under the data folder while the screen owns the terminal."""

from __future__ import annotations

import asyncio
import getpass
import os
from contextlib import nullcontext
from pathlib import Path

from harena.core.engine import GameConfigError, game_class
from harena.core.guide import GuideError, create_guided_table
from harena.core.lobby import Lobby
from harena.server.common.logs import TERMINAL_LOG, logging_to_file
from harena.server.runners.bot_runner import BotRunner
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.reviews import Reviews

LOCAL_IDENTITY = "local-player"


def play_locally(
    game: str,
    *,
    bots: int,
    players: int | None,
    bot_delay: float,
    learn: bool = False,
    data: Path | None = None,
) -> int:
    """`learn`: a guided first game (core/guide.py), its own players and bots. `data`: the
    folder whose `logs/terminal.log` receives the log, from the first line to the last, while
    this terminal is the game's (None: stderr, as a test runs it)."""
    with nullcontext() if data is None else logging_to_file(data / TERMINAL_LOG):
        return _play(game, bots=bots, players=players, bot_delay=bot_delay, learn=learn)


def _play(game: str, *, bots: int, players: int | None, bot_delay: float, learn: bool) -> int:
    cls = game_class(game)
    name = _user_name()
    lobby = Lobby()
    if learn:
        try:
            table = create_guided_table(lobby, LOCAL_IDENTITY, name, game)
        except GuideError as error:
            raise GameConfigError(str(error)) from error
        return asyncio.run(_run(lobby, table.id, name, bot_delay))
    seats = players if players is not None else bots + 1
    if seats - 1 != bots:
        raise GameConfigError(f"{seats} seats leave room for {seats - 1} bots, not {bots}")
    kind = "heuristic" if "heuristic" in cls.bots else "random"
    table = lobby.create_table(LOCAL_IDENTITY, name, game, seats, bots=bots, bot_kind=kind)
    return asyncio.run(_run(lobby, table.id, name, bot_delay))


async def _run(lobby: Lobby, table_id: str, name: str, bot_delay: float) -> int:
    from harena.tui.app import HarenaApp
    from harena.tui.terminal import utf8_terminal

    workers = BotWorkers(1)  # a search bot thinks (and a hint is weighed) off the screen's loop
    runner = BotRunner(lobby, bot_delay, workers)
    reviews = Reviews(workers)  # hints while learning; the review of the game at its end
    lobby.reviewer = reviews
    lobby.connect(LOCAL_IDENTITY, name)
    try:
        unicode = utf8_terminal(os.environ, os.environ.get("TERM", ""))
        app = HarenaApp(lobby, LOCAL_IDENTITY, name, start_table=table_id, unicode=unicode)
        await app.run_async()
        return app.return_code or 0
    finally:
        reviews.close()
        runner.close()
        lobby.disconnect(LOCAL_IDENTITY)


def _user_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user database entry (containers)
        return "player"
