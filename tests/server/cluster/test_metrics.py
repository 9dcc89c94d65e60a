"""A cluster node's metrics (issue 39): the tables it holds and the claims that brought them, its
lease renewals, the NATS round trip and the messages it sends and hears by kind, scraped from
two real nodes on a real nats-server while a player on one plays a table the other runs."""

from __future__ import annotations

from harena.server.operations.metrics_http import MetricsAddress
from tests.server.cluster.test_remote_play import sit_from_lobby, until
from tests.server.metrics_scrape import scrape_until
from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table

ANY_PORT = MetricsAddress("127.0.0.1", 0)


async def test_a_nodes_figures_follow_its_tables_leases_and_messages(make_node):
    a = await make_node("a", metrics=ANY_PORT)
    b = await make_node("b", metrics=ANY_PORT)
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    await until(b, "1")
    bob = await player(b, "bob", new_key())
    await sit_from_lobby(bob)  # asked of node a by node b, the view sent back
    await ann.wait_for_text("bob")
    ann.send("1")  # a move: its view goes to bob's node
    await bob.wait_for_text("seat 0 plays a card")
    # bob's node subscribes to his views without waiting (NATS may be away), so the first one
    # may come in the answer to his sit instead: his own move's view comes as a message.
    bob.send("1")
    await ann.wait_for_text("seat 1 plays a card")

    owner = await scrape_until(
        a, lambda f: f("harena_node_lease_renewals_total", result="renewed") > 0, "a renewal"
    )
    assert owner("harena_node_tables_held") == 1
    assert owner("harena_node_claims_total", result="new") == 1
    assert owner("harena_node_claims_total", result="lost") == 0
    assert owner("harena_nats_connected") == 1
    assert owner("harena_nats_messages_total", direction="received", kind="tbl") >= 1
    assert owner("harena_nats_messages_total", direction="sent", kind="view") >= 1
    assert owner("harena_nats_messages_total", direction="sent", kind="reply") >= 1
    kinds = {dict(labels)["kind"] for name, labels in owner.samples if "messages" in name}
    assert kinds <= {"tbl", "view", "lobby", "node", "reply", "other"}  # never a subject's id
    assert owner("harena_tables", game="highcard", state="playing") == 1

    other = await scrape_until(  # (the count of a view heard may trail bob's screen a moment)
        b,
        lambda f: (
            f("harena_nats_round_trip_seconds_count") > 0
            and f("harena_nats_messages_total", direction="received", kind="view") > 0
        ),
        "a NATS round trip and a view heard",
    )
    assert other("harena_node_tables_held") == 0
    assert other("harena_nats_messages_total", direction="sent", kind="tbl") >= 1
    assert other("harena_nats_messages_total", direction="received", kind="view") >= 1
    assert other("harena_tables", game="highcard", state="playing") == 1  # listed, run by a
    assert other("harena_sessions", state="seated") == 1
    await ann.close()
    await bob.close()
