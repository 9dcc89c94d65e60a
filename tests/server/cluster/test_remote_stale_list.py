"""A choice made on one node for a table another node runs carries the stamp of the list its
screen showed (issue 36): the owner refuses it, nothing done, if that list has changed."""

from __future__ import annotations

import asyncio

from harena.core.engine import choices_stamp
from harena.core.table import STALE_LIST
from harena.server.cluster.remote import RemoteTable
from tests.server.cluster.test_remote_play import until


async def answer(remote: RemoteTable, choice: str, shown: str) -> str | None:
    heard: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
    remote.act_soon("id-ann", choice, 0, heard.set_result, shown)
    return await asyncio.wait_for(heard, 5)


async def test_the_owner_refuses_a_choice_from_a_list_that_changed(make_node) -> None:
    a = await make_node("a")
    b = await make_node("b")
    table = a.lobby.create_table("id-ann", "ann", "highcard", 2)  # run by a
    table.sit("id-bob", "bob")
    remote = await until(b, table.id)
    assert isinstance(remote, RemoteTable)
    prompt = table.view_for("id-ann")["game"]["prompts"][0]
    choice = prompt["choices"][0][0]
    other_list = choices_stamp(prompt["kind"], prompt["choices"][1:])
    assert await answer(remote, choice, other_list) == STALE_LIST
    assert table.game.version == 0  # nothing was done
    assert await answer(remote, choice, choices_stamp(prompt["kind"], prompt["choices"])) is None
    assert table.game.version == 1
