"""Input reaches an app at the session's pace (server/transport/driver.py, server/common/limits.py EventBudget,
server/hosting/loop_share.py): by events, not bytes; nothing typed lost; a held arrow coalesced."""

from __future__ import annotations

import asyncio
import contextvars

from textual import events
from textual._context import active_app

from harena.server.common.limits import EventBudget
from harena.server.hosting import loop_share
from harena.server.hosting.loop_share import LoopShare
from harena.server.transport.driver import MAX_BACKLOG, SSHDriver
from tests.server.test_driver import StubApp


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def keys_of(app: StubApp) -> list[str]:
    return [m.key for m in app.messages if isinstance(m, events.Key)]


def started_driver(app: StubApp, rate: float, burst: int, **options) -> SSHDriver:
    driver = SSHDriver(
        app,
        send=lambda data: None,
        size=(80, 24),
        events_budget=EventBudget(rate, burst),
        **options,
    )
    driver.start_application_mode()
    return driver


def test_the_event_budget_passes_a_burst_then_the_rate():
    clock = FakeClock()
    budget = EventBudget(rate=10, burst=3, clock=clock)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert abs(budget.wait() - 0.1) < 1e-9
    clock.now += 0.1
    assert budget.take() and not budget.take()


async def test_events_past_the_budget_wait_and_none_is_lost():
    app = StubApp()
    driver = started_driver(app, rate=50, burst=5)
    driver.feed(b"hello world, nothing lost")
    assert "".join(keys_of(app)) == "hello"  # the burst at once
    await asyncio.sleep(0.25)
    assert 5 < len(keys_of(app)) < 25  # then the rate: about 12 more
    await asyncio.sleep(0.6)
    assert (
        "".join(k if len(k) == 1 else " " if k == "space" else "," for k in keys_of(app))
        == "hello world, nothing lost"
    )
    driver.stop_application_mode()
    driver.close()


async def test_a_held_arrow_key_moves_once_per_turn_not_once_per_repeat():
    app = StubApp()
    driver = started_driver(app, rate=20, burst=1)
    driver.feed(b"\x1b[B" * 10 + b"jj" + b"\x1b[A" * 3)
    await asyncio.sleep(0.4)
    # The first down at once; the nine waiting become one; letters are text, never merged.
    assert keys_of(app) == ["down", "down", "j", "j", "up"]
    assert driver.events_coalesced == 8 + 2
    driver.stop_application_mode()
    driver.close()


async def test_a_flood_stops_the_channel_reading_and_resumes_it_once_drained():
    app = StubApp()
    calls: list[bool] = []
    driver = started_driver(app, rate=5000, burst=10, on_backlog=calls.append)
    driver.feed(b"jk" * (MAX_BACKLOG // 2 + 100))
    assert calls == [True]  # SSH flow control holds the client back: nothing dropped
    await asyncio.sleep(1.5)
    assert calls == [True, False]
    assert len(keys_of(app)) == MAX_BACKLOG + 200
    driver.stop_application_mode()
    driver.close()


async def test_no_input_passes_once_input_is_disabled():
    app = StubApp()
    driver = started_driver(app, rate=20, burst=1)
    driver.feed(b"ab")
    driver.disable_input()  # the session asks the app to exit
    driver.feed(b"?")
    await asyncio.sleep(0.2)
    assert keys_of(app) == ["a"]
    driver.close()


class Charged:
    """Stands for an app: loop time is charged to it by attribute."""


async def test_loop_time_is_charged_to_the_app_whose_context_runs():
    loop_share.install()
    app = Charged()
    context = contextvars.copy_context()
    context.run(active_app.set, app)

    def busy() -> None:
        end = asyncio.get_running_loop().time() + 0.03
        while asyncio.get_running_loop().time() < end:
            pass

    asyncio.get_running_loop().call_soon(busy, context=context)
    asyncio.get_running_loop().call_soon(busy)  # not in the app's context: not its time
    await asyncio.sleep(0.01)
    assert 0.03 <= loop_share.loop_seconds(app) < 0.05


def test_an_app_over_its_share_of_a_busy_loop_waits_until_it_paid_back():
    clock = FakeClock()
    app = Charged()
    share = LoopShare(app, share=0.1, window=1.0, clock=clock, busy_fraction=lambda: 0.9)
    assert share.allows()  # the first input: time before it is not counted
    setattr(app, loop_share.ATTRIBUTE, 0.25)  # one key cost 250 ms of loop
    assert not share.allows()  # 150 ms of debt, paid back at 10% a second
    clock.now += 1.0
    assert not share.allows()
    clock.now += 0.6
    assert share.allows()


def test_on_a_quiet_loop_no_one_waits_and_the_debt_is_forgiven():
    clock = FakeClock()
    app = Charged()
    load = [0.1]
    share = LoopShare(app, share=0.1, window=1.0, clock=clock, busy_fraction=lambda: load[0])
    assert share.allows()
    setattr(app, loop_share.ATTRIBUTE, 0.25)  # a player's screen repainted for a busy table
    assert share.allows()  # nobody else wanted the loop
    load[0] = 0.9
    clock.now += 0.01  # earns 1 ms
    setattr(app, loop_share.ATTRIBUTE, 0.2505)
    assert share.allows()  # the 250 ms were forgiven: only the last 0.5 ms count
    setattr(app, loop_share.ATTRIBUTE, 0.5)
    assert not share.allows()
