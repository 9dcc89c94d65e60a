"""Tables kept in JetStream: rebuilt exactly from the stream, acknowledged only once stored,
and fenced so a node that lost a table can never write to it again."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harena.core.store import StoreError
from harena.core.table import SNAPSHOT_EVERY, Table
from harena.server.cluster.link import NatsLink
from harena.server.cluster.natsd import LocalNats
from harena.server.cluster.table_store import Fenced, JetStreamTables, decode


def tables_for(link: NatsLink, node: str) -> JetStreamTables:
    return JetStreamTables(link, node=node).ensure()


def bot_table(store: JetStreamTables, moves: int) -> Table:
    table = Table.create("carthage", 2, 1234, store=store, table_id=store.new_table_id())
    table.set_bot(0, "heuristic")
    table.set_bot(1, "random")
    for _ in range(moves):
        if not table.play_bot_step():
            break
    return table


def highcard(store: JetStreamTables) -> Table:
    table = Table.create("highcard", 2, 7, store=store, table_id=store.new_table_id())
    table.sit("key-ann", "Ann")
    table.sit("key-bob", "Bob")
    return table


def last_record(link: NatsLink, store: JetStreamTables, table_id: str) -> dict:
    async def get():
        assert link.js is not None
        return await link.js.get_last_msg(store.stream, store.subject(table_id))

    return decode(link.call(get).data)


def test_a_table_rebuilt_from_the_stream_equals_the_original(make_link: Callable) -> None:
    store = tables_for(make_link("a"), "a")
    table = bot_table(store, 3 * SNAPSHOT_EVERY)
    assert table.records.count > 2 * SNAPSHOT_EVERY  # snapshots were taken: the rebuild uses one
    loaded = store.read(table.id)
    assert loaded.snapshot is not None and 0 < len(loaded.records) < SNAPSHOT_EVERY

    other = tables_for(make_link("b"), "b").open_table(table.id)

    assert other.snapshot_data() | {"log_bytes": 0} == table.snapshot_data() | {"log_bytes": 0}
    for seat in (0, 1, None):
        identity = None if seat is None else table.seats[seat].identity
        assert other.view_for(identity) == table.view_for(identity)
    assert other.game.actions == table.game.actions


def test_a_move_returns_only_once_jetstream_holds_its_record(make_link: Callable) -> None:
    link = make_link("a")
    store = tables_for(link, "a")
    table = highcard(store)
    choice = table.game.prompts()[0].choices[0].id

    table.act("key-ann", choice)

    record = last_record(make_link("reader"), store, table.id)
    assert (record["t"], record["seat"], record["choice"]) == ("act", 0, choice)


def test_with_nats_down_a_move_is_refused_and_changes_nothing(
    make_link: Callable, nats_server: LocalNats
) -> None:
    link = make_link("a")
    store = tables_for(link, "a")
    table = highcard(store)
    before = table.view_for("key-ann")
    choice = table.game.prompts()[0].choices[0].id

    nats_server.kill()
    with pytest.raises(StoreError):
        table.act("key-ann", choice)

    assert table.view_for("key-ann") == before
    assert table.game.actions == []


def test_a_second_owner_fences_the_first_which_can_never_append_again(
    make_link: Callable,
) -> None:
    first = tables_for(make_link("a"), "a")
    table = highcard(first)
    ann_card = table.game.prompts()[0].choices[0].id
    table.act("key-ann", ann_card)

    second = tables_for(make_link("b"), "b")
    taken = second.open_table(table.id)  # b claims it (as after a's lease lapsed)
    bob_card = taken.game.prompts()[0].choices[0].id
    taken.act("key-bob", bob_card)

    # a wakes up and tries to go on: JetStream refuses, and keeps refusing.
    for _ in range(2):
        with pytest.raises(Fenced):
            table.act("key-bob", bob_card)
        with pytest.raises(Fenced):
            table.say("key-ann", "Ann", "still here?")
    assert last_record(make_link("reader"), second, table.id)["t"] == "act"
    again = tables_for(make_link("c"), "c").open_table(table.id)
    played = [(a.seat, a.choice) for a in again.game.actions]
    assert again.game.actions == taken.game.actions and played == [(0, ann_card), (1, bob_card)]


def test_two_nodes_cannot_both_create_one_table(make_link: Callable) -> None:
    a, b = tables_for(make_link("a"), "a"), tables_for(make_link("b"), "b")
    Table.create("highcard", 2, 1, store=a, table_id="7")
    with pytest.raises(Fenced):
        Table.create("highcard", 2, 2, store=b, table_id="7")


def test_table_ids_are_never_handed_out_twice(make_link: Callable) -> None:
    a, b = tables_for(make_link("a"), "a"), tables_for(make_link("b"), "b")
    ids = [store.new_table_id() for _ in range(3) for store in (a, b)]
    assert ids == ["1", "2", "3", "4", "5", "6"]
