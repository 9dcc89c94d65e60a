"""`harena export` / `import` (core/transfer.py): a table moves to another server intact."""

from __future__ import annotations

import msgpack
import pytest

from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.transfer import TransferError, export_table, import_table


def carthage_midgame(tmp_path):
    """A Carthage table with two bots a few dozen decisions in, and a chat line."""
    lobby = Lobby(Store(tmp_path / "a"))
    table = lobby.create_table("key-a", "ann", "carthage", 2, bots=1, bot_kind="random")
    table.say("key-a", "ann", "good luck")
    for _ in range(40):
        waiting = table.game.awaited()
        if not waiting or table.game.result() is not None:
            break
        seat = waiting[0]
        if table.seats[seat].bot is not None:
            table.play_bot(seat)
        else:
            table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[0].id)
    return lobby, table


def test_an_exported_table_imports_on_another_server_as_the_same_game(tmp_path):
    lobby, table = carthage_midgame(tmp_path)
    blob = export_table(lobby.store, table.id)
    other = Store(tmp_path / "b")
    Lobby(other).create_table("key-z", "zed", "highcard", 2)  # id 1 is taken there
    imported = import_table(other, blob)
    assert imported.id != table.id
    assert imported.game.snapshot() == table.game.snapshot()
    for seat in (0, 1, None):
        assert imported.game.view(seat) == table.game.view(seat)
    assert [s.identity for s in imported.seats] == [s.identity for s in table.seats]
    assert imported.creator == "key-a" and imported.chat[-1].text == "good luck"
    imported.close()
    again = Lobby.open(Store(tmp_path / "b")).table(imported.id)  # and it is saved there
    assert again.game.snapshot() == table.game.snapshot()


def test_an_archived_table_can_be_exported(tmp_path):
    now = [1_000_000.0]
    lobby = Lobby(Store(tmp_path / "a"), clock=lambda: now[0])
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    now[0] += 31 * 86400
    lobby.archive_idle(30 * 86400)
    imported = import_table(Store(tmp_path / "b"), export_table(lobby.store, table.id))
    assert imported.game.snapshot() == table.game.snapshot()


def test_a_file_that_is_not_an_export_or_plays_differently_is_refused(tmp_path):
    lobby, table = carthage_midgame(tmp_path)
    other = Store(tmp_path / "b")
    with pytest.raises(TransferError, match="not a harena table export"):
        import_table(other, b"hello")
    data = msgpack.unpackb(export_table(lobby.store, table.id), raw=False, strict_map_key=False)
    data["records"] = data["records"][:-3]  # a log that no longer builds the saved state
    with pytest.raises(TransferError, match="replays to a different game"):
        import_table(other, msgpack.packb(data, use_bin_type=True))
    assert other.table_ids() == []  # nothing half-imported


def test_an_imported_private_table_stays_private_and_takes_no_number(tmp_path):
    from harena.core.privacy import Privacy, is_private_id

    lobby = Lobby(Store(tmp_path / "a"))
    table = lobby.create_table("key-a", "ann", "highcard", 2, privacy=Privacy("nobody"))
    table.invite("key-a", "key-b", "bob")
    other = Store(tmp_path / "b")
    imported = import_table(other, export_table(lobby.store, table.id))
    assert is_private_id(imported.id) and imported.privacy == table.privacy
    assert Lobby(other).create_table("key-z", "zed", "highcard", 2).id == "1"
