"""The NATS link's publish from the server's thread: batched (one wakeup per burst), so it must
still send every message, in the order asked, and drop quietly once the link is closed."""

from __future__ import annotations

import threading
from collections.abc import Callable

from harena.server.cluster.link import NatsLink


def test_a_burst_published_from_another_thread_arrives_whole_and_in_order(
    make_link: Callable[[str], NatsLink],
) -> None:
    sender, receiver = make_link("sender"), make_link("receiver")
    got: list[bytes] = []
    done = threading.Event()
    count = 500

    async def subscribe() -> None:
        assert receiver.nc is not None

        async def heard(msg) -> None:  # type: ignore[no-untyped-def]
            got.append(msg.data)
            if len(got) == count:
                done.set()

        await receiver.nc.subscribe("t.burst", cb=heard)
        await receiver.nc.flush()

    receiver.call(subscribe)
    for i in range(count):  # from this thread, as the server's loop does: none waits
        sender.publish("t.burst", str(i).encode(), {"n": str(i)} if i % 2 else None)
    assert done.wait(10), f"{len(got)} of {count} arrived"
    assert got == [str(i).encode() for i in range(count)]
    done.clear()
    count += 1
    sender.publish("t.burst", b"later")  # a later burst (the first one is sent): sent too
    assert done.wait(10) and got[-1] == b"later"


def test_a_publish_after_the_link_closed_is_dropped_without_an_error(
    make_link: Callable[[str], NatsLink],
) -> None:
    link = make_link("closing")
    link.close()
    link.publish("t.late", b"x")  # a view for a screen of a node shutting down: nothing to do
    link.publish("t.late", b"y")
