"""Per-connection and per-address limits (server/common/limits.py)."""

from __future__ import annotations

from harena.server.common.limits import ConnectionCounter, InputRateLimiter, StartupSlots


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_pasted_chat_line_passes_whole():
    limiter = InputRateLimiter(rate=2048, burst=16384, clock=FakeClock())
    line = ("hello, friends! " * 20).encode()  # a 320-byte paste
    assert limiter.admit(b"\x1b[200~" + line + b"\x1b[201~") == b"\x1b[200~" + line + b"\x1b[201~"


def test_a_flood_is_cut_to_the_rate_and_the_excess_counted():
    clock = FakeClock()
    limiter = InputRateLimiter(rate=1000, burst=4000, clock=clock)
    assert len(limiter.admit(b"x" * 10_000)) == 4000
    assert limiter.dropped == 6000
    clock.now += 1.0
    assert len(limiter.admit(b"x" * 10_000)) == 1000
    clock.now += 0.5
    assert len(limiter.admit(b"y" * 10)) == 10  # typing goes on after the flood


def test_connections_per_address_are_capped_and_released():
    counter = ConnectionCounter(limit=2)
    assert counter.try_open("10.0.0.1") and counter.try_open("10.0.0.1")
    assert not counter.try_open("10.0.0.1")
    assert counter.try_open("10.0.0.2")
    counter.close("10.0.0.1")
    assert counter.try_open("10.0.0.1")
    counter.close("10.0.0.1")
    counter.close("10.0.0.1")
    assert counter.count("10.0.0.1") == 0


def test_a_new_login_pushes_out_the_oldest_pending_one_of_its_address():
    slots = StartupSlots(limit=10, per_address=2)
    assert slots.admit("silent1", "10.0.0.1") == []
    assert slots.admit("silent2", "10.0.0.1") == []
    assert slots.admit("real", "10.0.0.1") == ["silent1"]
    assert slots.pending("10.0.0.1") == 2
    slots.done("real")  # logged in: no longer pending
    assert slots.pending("10.0.0.1") == 1


def test_a_full_startup_table_pushes_out_the_busiest_address_not_the_newcomer():
    slots = StartupSlots(limit=3, per_address=3)
    for name in ("a1", "a2"):
        slots.admit(name, "10.0.0.1")
    slots.admit("b1", "10.0.0.2")
    assert slots.admit("c1", "10.0.0.3") == ["a1"]
    assert slots.pending() == 3


def test_a_login_that_began_to_authenticate_outlives_silent_sockets():
    slots = StartupSlots(limit=10, per_address=2)
    slots.admit("real", "10.0.0.1")
    slots.engage("real")  # it speaks SSH
    slots.admit("silent1", "10.0.0.1")
    assert slots.admit("silent2", "10.0.0.1") == ["silent1"]
    assert slots.admit("silent3", "10.0.0.1") == ["silent2"]
