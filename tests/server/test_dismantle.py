"""server/hosting/dismantle.py: an ended session's app is taken apart, so reference counting frees it."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from typing import Any

import asyncssh
import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Label

from harena.server.hosting import dismantle, gc_policy
from tests.server.leaks import collect_all
from tests.server.players import new_key, player
from tests.tui.harness import until


def app_garbage() -> Counter[str]:
    """The cyclic garbage now waiting for a collection, by type: the server's, the app's and the
    SSH layer's (the test's own client connection and terminal are left out)."""
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kinds = Counter(
            type(obj).__qualname__
            for obj in gc.garbage
            if type(obj).__module__.startswith(
                ("textual", "rich", "harena", "asyncssh", "asyncio", "builtins")
            )
            and not isinstance(obj, asyncssh.SSHClientConnection)
        )
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
        gc.collect()  # what was saved is garbage again: free it
    return kinds


@pytest.mark.parametrize("taken_apart", [True, False])
async def test_an_ended_session_leaves_almost_no_garbage_once_taken_apart(
    make_server, monkeypatch: pytest.MonkeyPatch, taken_apart: bool
) -> None:
    monkeypatch.setattr(dismantle, "DELAY", 0.05)
    if not taken_apart:  # the control: the same session left whole for the collector
        monkeypatch.setattr(dismantle, "dismantle", lambda app, done=None: done and done(False))
    ended: list[bool] = []
    monkeypatch.setattr(
        gc_policy,
        "session_ended",
        lambda born, app=None, taken_apart=False: ended.append(taken_apart),
    )
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    ann.send("?")  # a second screen, shown and closed
    await ann.wait_for_text("Keys")
    ann.send("\x1b[27u")
    await ann.wait_for_text("you are ann")
    await asyncio.sleep(0.2)
    collect_all()  # whatever earlier tests or the start-up left
    await ann.close()
    await until(lambda: bool(ended), timeout=10.0)
    assert ended == [taken_apart]
    garbage = app_garbage()
    if taken_apart:
        # Nothing of the app's widgets, caches (a cache's ring is lists), stylesheet or
        # animator, of the session, the SSH connection or its TCP transport. What is left is
        # the test's own client's transport (asyncio's cycle: a method of it kept on it).
        assert sum(garbage.values()) <= 4, garbage.most_common(10)
        assert garbage["_SelectorSocketTransport"] <= 1, garbage.most_common(10)
        for kind in ("Strip", "Styles", "FIFOCache", "BoxModel", "Animator", "HarenaSession",
                     "SSHServerConnection", "SSHServerChannel", "list"):  # fmt: skip
            assert garbage[kind] == 0, kind
    else:
        assert sum(garbage.values()) > 2000, garbage.most_common(10)


class Small(App[None]):
    def compose(self) -> ComposeResult:
        yield Label("one", id="one")
        yield Label("two", id="two")


async def test_only_the_pumps_an_app_made_are_cleared_and_a_late_message_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dismantle, "DELAY", 0.01)
    tracked, other = Small(), Small()
    dismantle.track(tracked)
    async with tracked.run_test():
        label = tracked.query_one("#one", Label)
    async with other.run_test():
        stranger = other.query_one("#one", Label)
    done: list[bool] = []
    dismantle.dismantle(tracked, done.append)
    await until(lambda: bool(done))
    assert done == [True]
    assert label.__dict__ == dismantle.TOMBSTONE
    assert tracked.__dict__ == dismantle.TOMBSTONE
    assert not label.is_attached
    assert label.post_message(Message()) is False  # a late message to it is dropped
    assert stranger.__dict__ != dismantle.TOMBSTONE  # made under another app: untouched
    assert stranger.id == "one"


class BusyPump:
    """Stands in for a pump whose task is still running."""

    def __init__(self, task: asyncio.Future[None]) -> None:
        self._task = task
        self._timers: tuple[()] = ()
        self.state = "kept"


async def test_a_busy_app_is_cleared_once_it_rests_or_left_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dismantle, "DELAY", 0.01)
    monkeypatch.setattr(dismantle, "RETRY", 0.01)
    monkeypatch.setattr(dismantle, "TRIES", 5)
    loop = asyncio.get_running_loop()

    async def ended_with_busy_pump(resolve_after: float | None) -> tuple[bool, BusyPump]:
        app, task = Small(), loop.create_future()
        pump = BusyPump(task)
        dismantle.track(app)
        dismantle._pumps[app].add(pump)
        if resolve_after is not None:
            loop.call_later(resolve_after, task.set_result, None)
        done: list[bool] = []
        dismantle.dismantle(app, done.append)
        await until(lambda: bool(done))
        return done[0], pump

    left = dismantle.left_whole()
    apart, pump = await ended_with_busy_pump(resolve_after=0.02)  # rests after a check or two
    assert apart and pump.__dict__ == dismantle.TOMBSTONE
    apart, pump = await ended_with_busy_pump(resolve_after=None)  # never rests
    assert not apart and pump.state == "kept"
    assert dismantle.left_whole() == left + 1


async def test_an_untracked_app_is_left_whole() -> None:
    done: list[bool] = []
    app = Small()
    dismantle.dismantle(app, done.append)
    assert done == [False] and app.__dict__ != dismantle.TOMBSTONE


def mouse_over_the_screen() -> str:
    """SGR mouse reports: the pointer moved across an 80x24 screen, and a click."""
    moves = "".join(f"\x1b[<35;{x};{y}M" for y in range(1, 25, 3) for x in range(1, 81, 9))
    return moves + "\x1b[<0;10;5M\x1b[<0;10;5m"


@pytest.fixture
def closed(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each screen closed was taken apart, as `gc_policy` is told."""
    told: list[bool] = []
    screen_closed = gc_policy.screen_closed

    def record(born: float | None = None, widgets: int = 0, taken_apart: bool = False) -> float:
        told.append(taken_apart)
        return screen_closed(born, widgets, taken_apart)

    monkeypatch.setattr(gc_policy, "screen_closed", record)
    return told


async def beside_bobs_table(make_server: Any, game: str) -> Any:
    """ann's terminal, in the lobby of a server where bob waits at a table of `game`."""
    server = await make_server()
    server.lobby.connect("id-bob", "bob")
    server.lobby.create_table("id-bob", "bob", game, 2)
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    return ann


async def test_a_screen_taken_apart_under_the_mouse_and_focus_leaves_the_app_working(
    make_server, monkeypatch: pytest.MonkeyPatch, closed: list[bool]
) -> None:
    # The app keeps the widget clicked and the one focused when the terminal lost focus, and a
    # removal queues a hover check holding the screen removed: dropped or waited for first.
    # Taken apart at once (no `DELAY`), this crashed the app before either was handled.
    monkeypatch.setattr(dismantle, "DELAY", 0.0)
    monkeypatch.setattr(dismantle, "RETRY", 0.01)
    ann = await beside_bobs_table(make_server, "highcard")
    for done in (1, 2):  # (dialogs are kept, not closed: tui/screens/kept.py)
        ann.send("w")  # bob's table, watched
        await ann.wait_for_text("Table chat")
        ann.send(mouse_over_the_screen())
        ann.send("\x1b[O")  # the terminal loses focus
        await asyncio.sleep(0.3)
        ann.send("\x1b[27u")  # the table left
        await until(lambda done=done: len(closed) == done, timeout=5.0)
        ann.send("\x1b[I" + mouse_over_the_screen())  # focus back, the pointer over the lobby
        await asyncio.sleep(0.3)
    assert closed == [True, True]
    ann.send("?")
    await ann.wait_for_text("Keys")
    assert "internal error" not in "\n".join(ann.lines())
    await ann.close()


async def test_a_table_screen_left_is_taken_apart_scrollbars_and_all(
    make_server, monkeypatch: pytest.MonkeyPatch, closed: list[bool]
) -> None:
    # A widget's scrollbars are attached to it without being among its children: missed, they
    # and what they held (~270 objects a table screen) were left for a deep collection.
    monkeypatch.setattr(dismantle, "DELAY", 0.05)
    ann = await beside_bobs_table(make_server, "carthage")
    collect_all()  # whatever earlier tests or the start-up left
    ann.send("w")  # bob's table, watched
    await ann.wait_for_text("Table 1 · Carthage")
    ann.send("\x1b[27u")  # and left
    await until(lambda: bool(closed), timeout=5.0)
    assert closed == [True]
    garbage = app_garbage()
    assert sum(garbage.values()) < 20, garbage.most_common(10)
    await ann.close()


async def test_a_table_screen_left_just_before_the_session_ends_counts_no_garbage(
    make_server, monkeypatch: pytest.MonkeyPatch, closed: list[bool]
) -> None:
    # The app's own dismantling takes the screen apart with it. Counted as left whole, every
    # flooding client's last table screen was frozen garbage, and eight of them leaving called
    # for a 160 ms deep collection (bench/hostile.py --floods wEsc).
    monkeypatch.setattr(dismantle, "DELAY", 1.0)  # the screen's check comes after the app ended
    ann = await beside_bobs_table(make_server, "highcard")
    ann.send("w")  # bob's table, watched
    await ann.wait_for_text("Table chat")
    ann.send("\x1b[27u")  # and left
    await ann.wait_for_text("you are ann")
    await ann.close()
    await until(lambda: bool(closed), timeout=10.0)
    assert closed == [True]
