"""The NATS link's publish from the server's thread: batched (one hop to the NATS thread per turn
of the server's loop, one wakeup of the other loop per burst), so it must still send every
message on its own subject, in the order asked, never wait out a loop held for an answer, and
drop quietly once the link is closed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from harena.server.cluster.inbox import Inbox
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


def _subscribe(link: NatsLink, subjects: list[str], got: list[tuple[str, bytes]]) -> None:
    async def subscribe() -> None:
        assert link.nc is not None

        async def heard(msg) -> None:  # type: ignore[no-untyped-def]
            got.append((msg.subject, msg.data))

        for subject in subjects:
            await link.nc.subscribe(subject, cb=heard)
        await link.nc.flush()

    link.call(subscribe)


async def test_what_one_turn_of_the_loop_publishes_goes_in_one_hop_each_on_its_subject(
    make_link: Callable[[str], NatsLink],
) -> None:
    sender, receiver = make_link("sender"), make_link("receiver")
    got: list[tuple[str, bytes]] = []
    seats = [f"t.view.1.{seat}" for seat in range(5)]
    _subscribe(receiver, seats, got)
    hops = sender.hand_overs
    for seat, subject in enumerate(seats):  # a move's views, one per seat, in one turn
        sender.publish(subject, f"view of seat {seat}".encode())
        await_nothing = time.monotonic() + 0.002
        while time.monotonic() < await_nothing:  # the NATS thread could take the GIL here
            pass
    assert sender.hand_overs == hops  # nothing handed over before the turn ends
    await asyncio.sleep(0)  # the turn ends
    assert sender.hand_overs == hops + 1
    for _ in range(200):
        if len(got) == len(seats):
            break
        await asyncio.sleep(0.025)
    # Batched hops, never merged messages: each seat's view alone, on that seat's subject.
    assert got == [(subject, f"view of seat {seat}".encode()) for seat, subject in enumerate(seats)]


async def test_a_publish_while_the_loop_waits_for_an_answer_goes_at_once(
    make_link: Callable[[str], NatsLink],
) -> None:
    """Two nodes asking each other: the answer is published while the loop is held in
    `Inbox.wait`, whose turn does not end until its own answer comes."""
    sender, receiver = make_link("sender"), make_link("receiver")
    got: list[tuple[str, bytes]] = []
    _subscribe(receiver, ["t.answer"], got)
    inbox = Inbox.of(asyncio.get_running_loop())
    sender.publish("t.answer", b"queued before the wait")  # for the end of this turn

    async def answered() -> None:
        while len(got) < 2:
            await asyncio.sleep(0.01)

    inbox.post(lambda: sender.publish("t.answer", b"an answer, published in the wait"))
    inbox.wait(receiver.spawn(answered()), timeout=5.0)  # TimeoutError if they waited
    assert [data for _, data in got] == [
        b"queued before the wait",
        b"an answer, published in the wait",
    ]


async def test_the_loop_is_woken_once_for_all_a_nats_thread_posts_in_one_turn(
    make_link: Callable[[str], NatsLink],
) -> None:
    link = make_link("receiver")
    loop = asyncio.get_running_loop()
    inbox = Inbox.of(loop)
    ran: list[int] = []
    posts, wakeups = inbox.posts, inbox.wakeups

    async def a_burst_arrives() -> None:  # on the NATS thread: a read's messages, in one turn
        for n in range(5):
            inbox.post(lambda n=n: ran.append(n))

    await asyncio.wrap_future(link.spawn(a_burst_arrives()))
    for _ in range(200):
        if len(ran) == 5:
            break
        await asyncio.sleep(0.01)
    assert ran == [0, 1, 2, 3, 4]
    assert (inbox.posts - posts, inbox.wakeups - wakeups) == (5, 1)
