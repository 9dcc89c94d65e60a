"""A cluster's stand-in for a table another node runs (server/cluster/remote.py) is a
`TableLike` (core/table_like.py) as a `Table` is: the lobby and the screens use it the same way,
and what only the table's own node does, a stand-in declines in its own way."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.table import Table
from harena.core.table_like import TableLike
from harena.server.cluster.host import public_state
from harena.server.cluster.remote import RemoteTable


def _stand_in_for(table: Table) -> RemoteTable:
    """A stand-in listing `table` as node "b" describes it in the registry. No screen asks
    it for a view here, so it never calls its node."""
    node: Any = None
    return RemoteTable(node, table.id, public_state(table, "b", "run-1", 0.0))


def _played_out() -> Table:
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 3, bots=2)
    while table.play_bot_step() or table.game.prompts():
        for prompt in table.game.prompts():
            if prompt.seat == 0:
                table.act("key-a", prompt.choices[0].id)
    return table


def _protocol_members() -> set[str]:
    declared = {name for name in vars(TableLike) if not name.startswith("_")}
    return declared | set(inspect.get_annotations(TableLike))


def test_a_table_and_a_stand_in_each_have_every_member_the_protocol_declares() -> None:
    table = Lobby().create_table("key-a", "ann", "highcard", 2)
    stand_in = _stand_in_for(table)
    for name in sorted(_protocol_members()):
        for kind in (table, stand_in):  # (looked up, not read: a stand-in's game asks its node)
            assert hasattr(type(kind), name) or name in vars(kind), f"{type(kind)} lacks {name}"


def test_a_stand_in_names_the_seats_as_the_table_does() -> None:
    """Two bots of one level are numbered on every node (the `status` reply reads it)."""
    table = Lobby().create_table("key-a", "ann", "highcard", 3, bots=2, bot_kinds=["random"] * 2)
    assert _stand_in_for(table).seat_names() == table.seat_names()


def test_an_operator_closing_a_stand_in_is_told_which_node_runs_it() -> None:
    table = Lobby().create_table("key-a", "ann", "highcard", 2)
    with pytest.raises(IllegalAction, match="runs on node b"):
        _stand_in_for(table).close_game("op", "closed by an operator")


def test_a_finished_game_is_rated_where_it_runs_and_not_by_a_lobby_listing_its_stand_in() -> None:
    table = _played_out()
    assert table.status == "over"
    here = Lobby()
    table.rate(here.ratings)
    assert table.id in here.ratings.rated_tables
    elsewhere = Lobby()
    stand_in = _stand_in_for(table)
    elsewhere.list_table(stand_in)
    stand_in.rate(elsewhere.ratings)
    assert elsewhere.ratings.rated_tables == set()
    assert table.id in elsewhere.tables and table.id not in elsewhere.run_here


def test_bots_and_clocks_at_a_stand_in_have_nothing_to_do() -> None:
    table = Lobby().create_table("key-a", "ann", "highcard", 2, bots=1)
    stand_in = _stand_in_for(table)
    assert stand_in.bots_to_move() == [] and not stand_in.play_bot_step()
    assert stand_in.expire() == [] and stand_in.next_deadline() is None
    with pytest.raises(IllegalAction, match="play on node b"):
        stand_in.play_bot(1)
