"""A table whose creator allows hints: the choice is saved with the table, listed, and such a
game is never rated (a bot may have chosen for its players). A guided game allows them."""

from __future__ import annotations

from pathlib import Path

from harena.core.guide import create_guided_table
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import Table


def play_out(table: Table) -> None:
    while table.game.result() is None:
        for seat in table.game.awaited():
            identity = table.seats[seat].identity
            assert identity is not None
            table.act(identity, table.game.prompts_for(seat)[0].choices[0].id)


def test_hints_are_saved_with_the_table_and_listed(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path))
    hinted = lobby.create_table("key-a", "ann", "highcard", 2, hints=True)
    plain = lobby.create_table("key-a", "ann", "highcard", 2)
    assert hinted.summary()["hints"] is True and "hints" not in plain.summary()
    hinted.save_snapshot()
    lobby.close()
    again = Lobby.open(Store(tmp_path))
    assert again.tables[hinted.id].hints and not again.tables[plain.id].hints
    listed = {t["id"]: t for t in again.view()["tables"]}
    assert listed[hinted.id].get("hints") and not listed[plain.id].get("hints")


def test_a_table_with_hints_is_never_rated_and_one_without_is(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), new_seed=lambda: 1)  # a game with a winner
    for hints in (True, False):
        table = lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"}, hints=hints)
        table.sit("key-b", "bob")
        play_out(table)
        assert table.game.result() is not None and len(table.game.result().winners) == 1
        games = lobby.ratings.of("key-a", "highcard")
        assert (games.games if games else 0) == (0 if hints else 1)


def test_a_guided_game_allows_hints() -> None:
    lobby = Lobby()
    table = create_guided_table(lobby, "key-a", "ann", "carthage")
    assert table.hints and table.summary()["hints"]
