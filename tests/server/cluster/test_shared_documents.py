"""Shared documents (ratings, player settings, bans) are written by compare-and-set on their KV
revision: two nodes writing at once both count, none overwrites the other with a stale copy."""

from __future__ import annotations

import asyncio

import pytest

from harena.core.ratings import START
from harena.core.table import Table
from harena.server.cluster.node import ClusterStore
from harena.server.service.ssh_server import HarenaServer


def finished(table_id: str, first: str, second: str, seed: int) -> Table:
    """A game of highcard between two keys, played to its end (each plays their highest card)."""
    table = Table.create("highcard", 2, seed, {"rounds": "1"}, table_id=table_id)
    table.sit(first, first)
    table.sit(second, second)
    while table.game.result() is None:
        seat = table.game.awaited()[0]
        table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[-1].id)
    return table


async def test_two_nodes_rating_games_at_once_lose_no_update(make_node) -> None:
    a: HarenaServer = await make_node("a")
    b: HarenaServer = await make_node("b")
    games = 12
    # ann plays on both nodes: each node's copy of her rating is stale once the other rated.
    on_a = [finished(f"a{i}", "key-ann", "key-bob", i) for i in range(games)]
    on_b = [finished(f"b{i}", "key-ann", "key-cat", i) for i in range(games)]

    def rate_all(server: HarenaServer, tables: list[Table]) -> None:
        for table in tables:
            server.lobby.ratings.rate(table)

    await asyncio.gather(asyncio.to_thread(rate_all, a, on_a), asyncio.to_thread(rate_all, b, on_b))

    assert a.cluster is not None
    saved = await asyncio.to_thread(ClusterStore(a.cluster).read_document, "ratings.json")
    people = saved["games"]["highcard"]
    assert people["key-ann"][1] == 2 * games  # every game of hers counted
    assert people["key-bob"][1] == games and people["key-cat"][1] == games
    assert len(saved["rated"]) == 2 * games
    # Elo of two is zero-sum: a lost update would leave the points out of balance.
    assert sum(value for value, _, _ in people.values()) == pytest.approx(3 * START)
    for _ in range(100):  # and every node shows them (the document is watched)
        await asyncio.sleep(0.02)
        shown = [s.lobby.ratings.of("key-ann", "highcard") for s in (a, b)]
        if all(r is not None and r.games == 2 * games for r in shown):
            break
    for server in (a, b):
        for key, (value, played, _) in people.items():
            rating = server.lobby.ratings.of(key, "highcard")
            assert rating is not None and (rating.value, rating.games) == (value, played)


async def test_settings_changed_on_two_nodes_at_once_are_both_kept(make_node) -> None:
    a: HarenaServer = await make_node("a")
    b: HarenaServer = await make_node("b")

    def change(server: HarenaServer, identity: str) -> None:
        for minutes in range(1, 11):
            server.lobby.settings.set(identity, "notice_after", minutes)
            server.lobby.settings.set(identity, "bell", minutes % 2 == 1)

    await asyncio.gather(
        asyncio.to_thread(change, a, "key-ann"), asyncio.to_thread(change, b, "key-bob")
    )

    assert a.cluster is not None
    saved = await asyncio.to_thread(ClusterStore(a.cluster).read_document, "players.json")
    assert saved == {
        "key-ann": {"notice_after": 10, "bell": False},
        "key-bob": {"notice_after": 10, "bell": False},
    }


async def test_bans_made_on_two_nodes_from_stale_copies_are_both_kept(make_node) -> None:
    a: HarenaServer = await make_node("a")
    b: HarenaServer = await make_node("b")
    # No await between them: b has not heard of a's bans when it makes its own.
    for i in range(4):
        a.bans.ban_key(f"SHA256:a{i}", f"a{i}")
        b.bans.ban_key(f"SHA256:b{i}", f"b{i}")
    b.bans.unban("SHA256:a0")  # lifting one on the other node lifts only that one

    assert a.cluster is not None
    saved = await asyncio.to_thread(ClusterStore(a.cluster).read_document, "bans.json")
    assert sorted(saved["keys"]) == sorted(
        f"SHA256:{p}{i}" for p in "ab" for i in range(4) if f"{p}{i}" != "a0"
    )
    for _ in range(100):  # both nodes' copies follow the document
        await asyncio.sleep(0.02)
        if a.bans.keys == b.bans.keys == saved["keys"]:
            break
    assert a.bans.keys == b.bans.keys == saved["keys"]
