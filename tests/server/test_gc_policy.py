"""server/hosting/gc_policy.py: no automatic full collections; one soon after sessions end."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest

from harena.server.hosting import gc_policy


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 0.01)
    monkeypatch.setattr(gc_policy, "MIN_INTERVAL", 0.05)
    monkeypatch.setattr(gc_policy, "_screen_cost", 1e-6)  # garbage never piles up here
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    monkeypatch.setattr(gc_policy, "_dying", [])  # earlier tests' apps still closing


async def test_full_collections_only_run_after_sessions_end(quick) -> None:
    gc_policy.configure()
    gc_policy.configure()  # idempotent
    assert gc.get_threshold()[2] == gc_policy.NEVER
    await asyncio.sleep(0.1)
    done = gc_policy.collections()
    await asyncio.sleep(0.1)
    assert gc_policy.collections() == done  # nothing ended: nothing collected
    gc_policy.session_ended()
    gc_policy.session_ended()  # sessions ending together: one collection
    await asyncio.sleep(0.1)
    assert gc_policy.collections() == done + 1


async def test_collections_are_rate_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gc_policy, "_screen_cost", 1e-6)  # garbage never piles up here
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 0.01)
    monkeypatch.setattr(gc_policy, "MIN_INTERVAL", 0.3)
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    gc_policy.session_ended()
    await asyncio.sleep(0.05)
    gc_policy.session_ended()  # the next one waits for MIN_INTERVAL since the last
    done = gc_policy.collections()
    await asyncio.sleep(0.05)
    assert gc_policy.collections() == done
    await asyncio.sleep(0.4)
    assert gc_policy.collections() == done + 1


async def test_a_session_end_collects_its_app() -> None:
    import weakref

    from tests.server.session_apps import serve
    from tests.sshscreen import ScreenClient

    gc_policy.configure()
    with pytest.MonkeyPatch.context() as patch:
        # Long enough for the app's own tasks to finish after its session (2 s in production).
        patch.setattr(gc_policy, "COLLECT_DELAY", 1.0)
        patch.setattr(gc_policy, "MIN_INTERVAL", 0.3)
        patch.setattr(gc_policy, "FREEZE_DELAY", 30.0)  # frozen, it would wait for a deep one
        patch.setattr(gc_policy, "PROMOTED_LIMIT", 10**9)  # (a collection now would freeze it)
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            async with serve(Path(tmp)) as (port, recorder):
                client = await ScreenClient.connect(port)
                await client.wait_for_text("keys:")
                app = weakref.ref(recorder.live_apps()[0])
                await client.close()
                for _ in range(400):  # a loaded machine may take seconds to end a session
                    if app() is None:
                        break
                    await asyncio.sleep(0.02)
                assert app() is None  # collected without anyone calling gc.collect()


async def test_a_closed_screen_is_taken_apart_then_collected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from harena.core.lobby import Lobby
    from harena.server.hosting import dismantle
    from harena.server.hosting.textual_fixes import install, mark_server_app
    from harena.tui.screens.help import HelpScreen
    from harena.tui.screens.lobby import LobbyScreen
    from tests.tui.harness import session, until

    install()
    monkeypatch.setattr(dismantle, "DELAY", 0.05)
    closed: list[tuple[bool, int, bool]] = []

    def screen_closed(born: float | None, widgets: int = 0, taken_apart: bool = False) -> float:
        closed.append((born is not None, widgets, taken_apart))
        return 1.0

    monkeypatch.setattr(gc_policy, "screen_closed", screen_closed)
    charged: list[tuple[object, float]] = []
    monkeypatch.setattr(
        dismantle.loop_share, "charge", lambda app, seconds: charged.append((app, seconds))
    )
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    table.sit("bob", "bob")
    async with session(lobby, "ann", "ann") as (app, pilot):
        mark_server_app(app)
        table_screen, seats = app.screen, app.screen.query_one("#seats")
        app._mouse_down_widget = seats  # as a click on it leaves it: dropped before it is cleared
        await pilot.press("escape")  # the table screen is closed for the lobby
        await until(lambda: isinstance(app.screen, LobbyScreen))
        await until(lambda: bool(closed))
        [(with_born, widgets, taken_apart)] = closed  # with the time the screen was made, its size,
        assert with_born and widgets > 3 * gc_policy.DIALOG_WIDGETS  # (a table screen is big)
        assert taken_apart  # and taken apart, widgets and all:
        assert table_screen.__dict__ == seats.__dict__ == dismantle.TOMBSTONE
        assert app._mouse_down_widget is None
        assert any(
            who is app and seconds > 0 for who, seconds in charged
        )  # the clearing is its cost
        await pilot.press("question_mark")  # the app goes on
        await until(lambda: isinstance(app.screen, HelpScreen))


async def test_young_generations_are_collected_once_a_burst_of_writes_is_out() -> None:
    gc_policy.configure()
    await asyncio.sleep(gc_policy.YOUNG_DELAY * 3)  # whatever an earlier test left scheduled
    done = gc_policy.young_collections()
    for _ in range(10):  # ten screens of one move, written one after another
        garbage = [[n] for n in range(50)]  # young objects to collect
        gc_policy.output_sent()
        await asyncio.sleep(gc_policy.YOUNG_DELAY / 10)
    assert gc_policy.young_collections() == done  # not while the writes go on
    await asyncio.sleep(gc_policy.YOUNG_DELAY * 3)
    assert gc_policy.young_collections() == done + 1  # once, when they stopped
    assert gc.get_count()[0] < len(garbage)
    await asyncio.sleep(gc_policy.YOUNG_DELAY * 3)
    assert gc_policy.young_collections() == done + 1  # quiet: nothing more scheduled


async def test_scheduled_collections_do_not_keep_the_callers_app_alive(quick) -> None:
    """A timer handle keeps the context it was made in until its time, cancelled or not; an
    ending session's context holds its app."""
    import contextvars

    owner: contextvars.ContextVar[object] = contextvars.ContextVar("owner")
    gc_policy.configure()

    def from_inside_an_app() -> None:
        owner.set(object())
        gc_policy.session_ended()
        gc_policy.output_sent()

    contextvars.copy_context().run(from_inside_an_app)
    handles = [gc_policy._scheduled, gc_policy._young]
    assert all(handle is not None and owner not in handle._context for handle in handles)


async def test_garbage_piling_up_is_collected_before_the_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client toggling a dialog makes a closed screen per toggle: once freeing them would take
    PAUSE_TARGET, they are collected at once, not a minute later in one long pause."""
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 0.01)
    monkeypatch.setattr(gc_policy, "MIN_INTERVAL", 60.0)
    monkeypatch.setattr(gc_policy, "MIN_GAP", 0.0)
    monkeypatch.setattr(gc_policy, "SOON", 0.01)
    monkeypatch.setattr(gc_policy, "_screen_cost", gc_policy.PAUSE_TARGET / 40)  # 40 screens' worth
    # An earlier test's ended app still alive would bring collections every COLLECT_DELAY.
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    monkeypatch.setattr(gc_policy, "_last_full", time.monotonic())
    done = gc_policy.collections()
    assert gc_policy.garbage_limit() == 40
    for _ in range(gc_policy.garbage_limit() - 1):
        gc_policy.screen_closed()
    await asyncio.sleep(0.05)
    assert gc_policy.collections() == done  # a few screens wait for the interval
    gc_policy.screen_closed()
    await asyncio.sleep(0.05)
    assert gc_policy.collections() == done + 1


async def test_what_lives_before_the_first_session_is_frozen_out_of_collections() -> None:
    gc_policy.configure()
    assert gc.get_freeze_count() > 10_000  # modules, classes: never walked again


class Cyclic:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def deep_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Collections, deep ones included, as soon as they are due (none on a timer)."""
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 0.01)
    monkeypatch.setattr(gc_policy, "MIN_INTERVAL", 0.0)
    monkeypatch.setattr(gc_policy, "DEEP_INTERVAL", 0.0)
    monkeypatch.setattr(gc_policy, "SOON", 0.01)
    monkeypatch.setattr(gc_policy, "MAX_INTERVAL", 1e6)
    monkeypatch.setattr(gc_policy, "_connected", lambda: 1)  # a player is connected


async def test_garbage_born_before_the_last_freeze_waits_for_a_deep_collection(
    monkeypatch: pytest.MonkeyPatch, deep_soon: None
) -> None:
    """Every collection freezes what survived it; what was made before and is thrown away later
    needs the frozen generation walked too: a deep collection, rarer."""
    monkeypatch.setattr(gc_policy, "_last_activity", 0.0)  # no player typing
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    old = Cyclic()
    probe = weakref.ref(old)
    born_before = time.monotonic()
    gc_policy.screen_closed(time.monotonic())
    await asyncio.sleep(0.05)  # a plain collection: `old` survives it and is frozen
    del old
    deep = gc_policy.deep_collections()
    for _ in range(gc_policy.FROZEN_LIMIT - 1):
        gc_policy.screen_closed(born_before)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep  # plain collections do not walk frozen objects
    assert probe() is not None
    gc_policy.screen_closed(born_before)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep + 1
    assert probe() is None


async def test_a_new_session_is_frozen_without_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gc_policy, "FREEZE_DELAY", 0.01)
    gc_policy.configure()
    await asyncio.sleep(0.02)
    made = [Cyclic() for _ in range(1000)]  # what a session made at start-up
    frozen, full = gc.get_freeze_count(), gc_policy.collections()
    gc_policy.session_started()
    await asyncio.sleep(0.05)
    assert gc.get_freeze_count() >= frozen + len(made)
    assert gc_policy.collections() == full


async def test_what_young_collections_promote_is_frozen_without_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bench/hostile.py --scenario cycles: a full collection every 5 s for what young collections
    # had promoted walked it all (40-60 ms, clients coming and going) and freed nothing.
    monkeypatch.setattr(gc_policy, "YOUNG_DELAY", 0.001)
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    full = gc_policy.collections()
    kept = []
    for _ in range(gc_policy.PROMOTED_LIMIT):
        kept.append(Cyclic())
        gc.collect(1)  # a generation-1 collection: what lives is promoted to the old one
    gc_policy.output_sent()
    await asyncio.sleep(0.05)
    assert not any(obj is kept[0] for obj in gc.get_objects())  # in no generation: frozen
    assert gc_policy.collections() == full


async def test_a_screen_a_server_app_shows_is_frozen_without_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bench/hostile.py --floods wEsc: the table screens hostile sessions kept open, unfrozen,
    # were walked by every full collection (30,000-50,000 objects: 13-63 ms).
    from harena.core.lobby import Lobby
    from harena.server.hosting.textual_fixes import install, mark_server_app
    from harena.tui.screens.table import TableScreen
    from harena.tui.table_pace import BUILDS
    from tests.tui.harness import session, until

    install()
    monkeypatch.setattr(gc_policy, "FREEZE_DELAY", 0.01)
    gc_policy.configure()
    lobby = Lobby()
    lobby.create_table("bob", "bob", "highcard", 2)
    async with session(lobby, "ann", "ann") as (app, pilot):
        mark_server_app(app)
        monkeypatch.setattr(BUILDS, "_free_at", 0.0)  # whatever an earlier test built is done
        full = gc_policy.collections()
        await pilot.press("w")  # watch the table
        await until(lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        await asyncio.sleep(0.05)
        assert not any(obj is screen for obj in gc.get_objects())  # in no generation: frozen
        assert gc_policy.collections() == full


async def test_a_deep_collection_waits_until_no_player_is_typing(
    monkeypatch: pytest.MonkeyPatch, deep_soon: None
) -> None:
    """A deep collection walks the whole heap (more than the 50 ms a pause may take): while
    clients type, connect or leave it is put off, until QUIET seconds pass without any, or
    until the frozen garbage passes FROZEN_HARD_LIMIT."""
    monkeypatch.setattr(gc_policy, "QUIET", 0.3)
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    long_ago = time.monotonic() - 10.0  # born before the last freeze
    deep, deferred = gc_policy.deep_collections(), gc_policy.deferred_deep_collections()
    for _ in range(3):  # keys keep coming while the frozen garbage is due for a deep collection
        gc_policy.activity()
        for _ in range(gc_policy.FROZEN_LIMIT):
            gc_policy.screen_closed(long_ago)
        await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep
    assert gc_policy.deferred_deep_collections() > deferred
    await asyncio.sleep(0.5)  # quiet now
    assert gc_policy.deep_collections() == deep + 1

    monkeypatch.setattr(gc_policy, "QUIET", 60.0)  # never quiet: only too much garbage forces it
    gc_policy.activity()
    for _ in range(gc_policy.FROZEN_HARD_LIMIT - 1):
        gc_policy.screen_closed(long_ago)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep + 1
    gc_policy.screen_closed(long_ago)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep + 2


async def test_an_ended_session_taken_apart_weighs_what_is_left_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 60.0)
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    gc_policy.session_ended(time.monotonic(), taken_apart=True)
    assert gc_policy._garbage == gc_policy.TAKEN_APART_GARBAGE
    gc_policy.session_ended(time.monotonic())
    assert gc_policy._garbage == gc_policy.TAKEN_APART_GARBAGE + gc_policy.SESSION_GARBAGE


async def test_a_closed_screen_weighs_as_many_dialogs_as_its_widgets_make(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gc_policy, "COLLECT_DELAY", 60.0)
    monkeypatch.setattr(gc_policy, "MIN_INTERVAL", 60.0)
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_garbage", 0)
    assert gc_policy.screen_closed(time.monotonic(), 3) == 1.0  # a dialog
    assert gc_policy.screen_closed(time.monotonic(), 5 * gc_policy.DIALOG_WIDGETS) == 5.0
    assert gc_policy._garbage == 6.0


async def test_the_hourly_deep_collection_waits_for_a_moment_with_no_session_connected(
    monkeypatch: pytest.MonkeyPatch, deep_soon: None
) -> None:
    """The deep collection for garbage no one reported walks the whole heap for little: with
    players connected (even idle ones) it waits until none is, up to DEEP_LONGEST_WAIT, and
    then only if the frozen generation grew by FROZEN_GROWTH."""
    monkeypatch.setattr(gc_policy, "_last_activity", 0.0)  # no player typing
    monkeypatch.setattr(gc_policy, "_dying", [])
    connected = [1]
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_connected", lambda: connected[0])
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    monkeypatch.setattr(gc_policy, "MAX_INTERVAL", 0.0)  # the hourly one is due
    deep = gc_policy.deep_collections()
    gc_policy.screen_closed(time.monotonic())  # a collection runs
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep  # not the deep one: a player is connected
    connected[0] = 0
    gc_policy.session_ended(time.monotonic(), taken_apart=True)  # the last one leaves
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() > deep
    connected[0] = 1
    await asyncio.sleep(0.05)  # what was scheduled meanwhile has run
    deep = gc_policy.deep_collections()
    gc_policy.screen_closed(time.monotonic())
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep  # connected again: it waits
    monkeypatch.setattr(gc_policy, "DEEP_LONGEST_WAIT", 0.0)  # none left for hours,
    monkeypatch.setattr(gc_policy, "_frozen_after_deep", gc.get_freeze_count())  # nothing frozen
    gc_policy.screen_closed(time.monotonic())
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep  # so little can be garbage: it still waits
    grown = gc.get_freeze_count() - 2 * gc_policy.FROZEN_GROWTH
    monkeypatch.setattr(gc_policy, "_frozen_after_deep", grown)  # much frozen since: at last
    gc_policy.screen_closed(time.monotonic())
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() > deep


async def test_with_no_session_connected_a_little_frozen_garbage_is_enough_for_a_deep_collection(
    monkeypatch: pytest.MonkeyPatch, deep_soon: None
) -> None:
    """With nobody connected the heap is small, and a deep collection short."""
    monkeypatch.setattr(gc_policy, "_last_activity", 0.0)
    monkeypatch.setattr(gc_policy, "_dying", [])
    gc_policy.configure()
    monkeypatch.setattr(gc_policy, "_frozen_garbage", 0)
    long_ago = time.monotonic() - 10.0  # born before the last freeze
    deep = gc_policy.deep_collections()
    for _ in range(int(gc_policy.EMPTY_FROZEN_LIMIT) + 1):
        gc_policy.screen_closed(long_ago)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() == deep  # players connected: far below FROZEN_LIMIT
    monkeypatch.setattr(gc_policy, "_connected", lambda: 0)
    gc_policy.screen_closed(long_ago)
    await asyncio.sleep(0.05)
    assert gc_policy.deep_collections() > deep
