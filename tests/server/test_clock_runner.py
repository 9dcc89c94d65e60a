"""The clock runner (server/runners/clock_runner.py) closes a reaction window when its time is up:
nobody presses a key for a window they cannot use, and no test drives it by hand."""

from __future__ import annotations

import asyncio

from harena.core.clocks import ClockPolicy
from harena.core.lobby import Lobby
from harena.core.spartacus import market
from harena.core.spartacus.state import Phase
from harena.server.runners.clock_runner import ClockRunner
from tests.core.spartacus.helpers import clear_table, give

IDS = ("id-ann", "id-bob", "id-cat")


async def test_a_reaction_window_closes_by_itself_when_its_time_is_up() -> None:
    lobby = Lobby(new_seed=lambda: 3)
    table = lobby.create_table(IDS[0], "ann", "spartacus", 3, policy=ClockPolicy(window=0.3))
    table.sit(IDS[1], "bob")
    table.sit(IDS[2], "cat")
    game = table.game
    while game.state.phase is Phase.HOUSES:
        seat = game.awaited()[0]
        table.act(IDS[seat], game.prompts_for(seat)[0].choices[0].id)
    game.state.intrigue = None
    for seat, p in enumerate(game.state.players):
        clear_table(game, seat)
        p.denarii, p.influence = 10, 4
    give(game, 1, "slander", hand=True)  # bob is asked, holds nothing that answers
    market.start(game)
    game.state_changed()
    runner = ClockRunner(lobby)
    try:
        for seat in range(3):
            table.act(IDS[seat], "close")
        for seat in range(3):
            table.act(IDS[seat], f"bid:{3 if seat == 0 else 0}")
        assert game.state.window is not None and runner.pending == 1
        for _ in range(100):
            await asyncio.sleep(0.05)
            if game.state.window is None:
                break
        assert game.state.window is None  # nobody pressed a key
        assert game.state.market.auction is not None and runner.pending == 0
    finally:
        runner.close()
