"""The loop-lag sampler (server/hosting/loop_lag.py): a loop held up shows as lag."""

from __future__ import annotations

import asyncio
import time

from harena.server.hosting.loop_lag import BUCKETS, LoopLag, monitor


async def test_a_blocked_loop_shows_as_lag_in_the_histogram() -> None:
    lag = LoopLag(interval=0.01)
    seen: list[float] = []
    lag.observers.append(seen.append)
    started = time.monotonic()
    lag.start()
    lag.start()  # idempotent: one timer
    await asyncio.sleep(0.03)
    time.sleep(0.06)  # a callback holding the loop for 60 ms
    await asyncio.sleep(0.03)
    lag.stop()
    assert not lag.running
    assert lag.count == len(seen) >= 2
    assert lag.max >= 0.05 and max(seen) == lag.max  # the timer due during the block ran late
    histogram = lag.histogram()
    assert [bound for bound, _count in histogram] == [*BUCKETS, float("inf")]
    assert sum(count for _bound, count in histogram) == lag.count
    assert sum(count for bound, count in histogram if bound >= 0.05) >= 1
    assert [at for at, _lag in lag.samples_since(started)] == sorted(
        at for at, _lag in lag.samples_since(started)
    )
    assert len(lag.samples_since(started)) == lag.count
    assert not lag.samples_since(time.monotonic())
    count = lag.count
    await asyncio.sleep(0.03)
    assert lag.count == count  # stopped: no more samples


def test_the_process_has_one_shared_sampler() -> None:
    assert monitor() is monitor()
