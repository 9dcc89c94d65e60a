"""How many subscribers answer one request on a table's subject: a table must have exactly one
(its owner's) whatever moved it, so one request gets one answer."""

from __future__ import annotations

import asyncio

from harena.server.cluster import wire
from harena.server.cluster.link import NatsLink


async def answers_to_one_request(link: NatsLink, table_id: str, wait: float = 0.5) -> list[dict]:
    """Every answer to one ping sent on table `table_id`'s request subject within `wait`
    seconds (a NATS request keeps only the first; this keeps them all)."""

    async def ask() -> list[dict]:
        assert link.nc is not None
        inbox = link.nc.new_inbox()
        heard: list[dict] = []

        async def answered(msg) -> None:
            heard.append(wire.unpack(msg.data))

        sub = await link.nc.subscribe(inbox, cb=answered)
        request = {"op": "ping", "identity": None, "args": {}, "node": "probe"}
        await link.nc.publish(f"harena.tbl.{table_id}.req", wire.pack(request), reply=inbox)
        await link.nc.flush()
        await asyncio.sleep(wait)
        await sub.unsubscribe()
        return heard

    return await link.acall(ask)  # (the nodes answer on this loop: it must run meanwhile)
