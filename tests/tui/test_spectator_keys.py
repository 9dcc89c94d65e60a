"""A spectator's key bar lists only the keys that do something for them (issue 36): no number
keys to choose, no `g give`, no `l leave seat`, in both games, at 80x24."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.boards.carthage.board import ArenaView
from harena.tui.widgets.key_bar import KeyBar
from tests.tui.harness import session, until
from tests.tui.screen_keys import prompt_bar, table_screen
from tests.tui.spartacus.helpers import new_table


def key_bar(app) -> str:
    return table_screen(app).query_one(KeyBar).text


async def test_a_spectator_of_spartacus_is_offered_no_key_of_a_player() -> None:
    lobby, table = new_table()
    async with (
        session(lobby, "id-ann", "ann") as (ann, _),
        session(lobby, "id-dan", "dan") as (dan, keys),
    ):
        await keys.press("w")
        await until(lambda: "dan" in table.summary()["spectators"])
        bar = key_bar(dan)
        for useless in ("choose", "give", "leave seat"):
            assert useless not in bar, bar
        for useful in ("house", "chat", "rules", "lobby", "help"):
            assert useful in bar, bar
        idle = prompt_bar(dan).text  # nor does the line that says what is going on
        assert "Tab: a House in full" in idle and "give" not in idle and "ask" not in idle
        player = key_bar(ann)  # a player's bar keeps them
        for key in ("choose", "give", "leave seat"):
            assert key in player, player


async def test_a_spectator_of_carthage_may_move_the_hex_cursor_and_nothing_else() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table("id-ann", "ann", "carthage", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-dan", "dan") as (dan, keys):
        await keys.press("w")
        await until(lambda: "dan" in table.summary()["spectators"])
        bar = key_bar(dan)
        assert "hex" in bar and "lobby" in bar, bar
        for useless in ("choose", "step", "leave seat"):
            assert useless not in bar, bar
        # nor the step keys' compass in the arena's corner (a player's arena has it)
        arena = table_screen(dan).query_one(ArenaView).text
        assert "w e" not in arena and "z x" not in arena
