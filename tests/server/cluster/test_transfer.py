"""A single server's data folder moves into a cluster with one command, and `harena export` /
`harena import` work against a cluster: the round trip gives back the same game."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import Table
from harena.server.commands.cli import main

TOLD = {"key-ann": {"1": 3.0}}  # ann was told of table 1's wait that began at 3.0


def played_table(data) -> Table:  # type: ignore[no-untyped-def]
    """Table 1 of a single server's folder: Carthage, ann against a bot, 40 moves in."""
    lobby = Lobby(Store(data))
    table = lobby.create_table("key-ann", "ann", "carthage", 2, bots=1, bot_kind="random")
    for _ in range(40):
        if not table.play_bot_step():
            prompt = next(p for p in table.game.prompts() if p.seat == 0)
            table.act("key-ann", prompt.choices[0].id)
    Store(data).write_document("players.json", {"key-ann": {"bell": True}})
    Store(data).write_document("notices.json", {"sent": {"key-ann": [5.0]}, "told": TOLD})
    table.close()
    return table


async def test_a_data_folder_moves_into_a_cluster_and_a_table_back_out(
    tmp_path, nats_server, make_node
):
    single = tmp_path / "single"
    before = played_table(single)
    snapshot = before.snapshot_data()

    assert main(["cluster", "import", "--data", str(single), "--cluster", nats_server.url]) == 0

    node = await make_node("a", bot_delay=60)  # (the bot would move on at once)
    node.cluster.claim_free()
    table = node.lobby.table("1")
    assert isinstance(table, Table)
    assert table.game.actions == before.game.actions
    assert table.view_for("key-ann")["game"] == before.view_for("key-ann")["game"]
    assert node.lobby.settings.get("key-ann", "bell") is True
    assert node.notices.book.load().told == TOLD  # a wait told there is not told again here

    exported = tmp_path / "t1.harena"
    url = nats_server.url
    assert main(["export", "1", "--cluster", url, "--output", str(exported)]) == 0
    back = tmp_path / "back"
    assert main(["import", str(exported), "--data", str(back)]) == 0
    again = Table.load(Store(back).load("1"), None)
    assert again.game.actions == before.game.actions
    assert {k: v for k, v in again.snapshot_data().items() if k != "log_bytes"} == {
        k: v for k, v in snapshot.items() if k != "log_bytes"
    }

    assert main(["import", str(exported), "--cluster", url]) == 0  # a second copy, a new id
    node.cluster.claim_free()
    assert node.lobby.table("2").game.actions == before.game.actions
