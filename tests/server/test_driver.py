"""SSHDriver without SSH: a real Textual app (or a stub) wired to an in-memory channel."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Label

from harena.server.common.limits import EventBudget
from harena.server.hosting.textual_fixes import install, mark_server_app
from harena.server.transport.driver import MAX_COLS, MAX_ROWS, SSHDriver

install()


class Recorder(App[None]):
    """Records every input event it receives."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[events.Event] = []
        self.changed = asyncio.Event()

    def compose(self) -> ComposeResult:
        yield Label("é recorder")

    def _record(self, event: events.Event) -> None:
        self.seen.append(event)
        self.changed.set()

    def on_key(self, event: events.Key) -> None:
        self._record(event)

    def on_paste(self, event: events.Paste) -> None:
        self._record(event)

    def on_resize(self, event: events.Resize) -> None:
        self._record(event)

    def on_app_focus(self, event: events.AppFocus) -> None:
        self._record(event)

    def on_app_blur(self, event: events.AppBlur) -> None:
        self._record(event)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._record(event)

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        self._record(event)

    def keys(self) -> list[str]:
        return [event.key for event in self.seen if isinstance(event, events.Key)]

    async def wait_for(self, predicate: Any, timeout: float = 3.0) -> None:
        async def wait() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)


class Channel:
    """Stands in for the SSH channel: collects output, tells when the driver started."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.driver: SSHDriver | None = None
        self.started = asyncio.Event()

    def send(self, data: bytes) -> None:
        self.out.extend(data)

    def on_start(self, driver: SSHDriver) -> None:
        self.driver = driver
        self.started.set()


@asynccontextmanager
async def running(
    app: Recorder, size: tuple[int, int] = (80, 24), mouse: bool = True
) -> AsyncIterator[tuple[Channel, SSHDriver]]:
    channel = Channel()
    mark_server_app(app)
    app.driver_class = SSHDriver.bind(channel.send, channel.on_start)
    task = asyncio.create_task(app.run_async(size=size, mouse=mouse))
    await asyncio.wait_for(channel.started.wait(), 5)
    assert channel.driver is not None
    try:
        yield channel, channel.driver
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


# ---------------------------------------------------------------- terminal modes


async def test_start_enters_application_mode_and_exit_restores_the_terminal():
    app = Recorder()
    async with running(app) as (channel, driver):
        for _ in range(100):
            if "é recorder".encode() in channel.out:
                break
            await asyncio.sleep(0.02)
        start = bytes(channel.out)
    end = bytes(channel.out)
    for mode in (b"1049h", b"25l", b"1000h", b"1002h", b"1006h", b"2004h", b"1004h", b"7l"):
        assert b"\x1b[?" + mode in start, mode
    assert b"\x1b[?1003h" not in end and b"\x1b[?1015h" not in end  # no all-motion tracking
    assert start.index(b"\x1b[?1049h") < start.index("é recorder".encode())  # frames are utf-8
    tail = end[end.rindex(b"\x1b[?1049l") - 80 :]
    for mode in (b"1000l", b"1002l", b"1006l", b"2004l", b"1004l", b"7h"):
        assert b"\x1b[?" + mode in tail, mode
    assert start.startswith(b"\x1b[22;2t") and b"\x1b[23;2t" in tail  # the window title saved, back
    assert end.endswith(b"\x1b[?1049l\x1b[?25h")  # main screen back, cursor visible, last
    assert driver.bytes_sent == len(end)


async def test_no_mouse_modes_when_mouse_is_off():
    app = Recorder()
    async with running(app, mouse=False) as (channel, _):
        pass
    assert b"\x1b[?1000h" not in channel.out and b"\x1b[?1000l" not in channel.out


async def test_initial_size_and_resize_events():
    app = Recorder()
    async with running(app, size=(100, 30)) as (_, driver):
        await app.wait_for(lambda: app.size == (100, 30))
        driver.resize(120, 40)
        await app.wait_for(lambda: app.size == (120, 40))
        driver.resize(10**6, 10**6)  # a hostile window-change
        await app.wait_for(lambda: app.size == (MAX_COLS, MAX_ROWS))
        driver.resize(0, 0)  # some clients send 0x0: fall back to 80x24
        await app.wait_for(lambda: app.size == (80, 24))


# ---------------------------------------------------------------- input


async def test_keys_escape_paste_focus_and_mouse():
    app = Recorder()
    async with running(app) as (_, driver):
        driver.feed(b"a\x1b[A\x03\t")
        await app.wait_for(lambda: app.keys() == ["a", "up", "ctrl+c", "tab"])
        driver.feed(b"\x1b")
        assert driver._escape_timer is not None  # armed only while an escape is pending
        await app.wait_for(lambda: app.keys()[-1:] == ["escape"])
        assert driver._escape_timer is None
        count = len(app.keys())
        driver.feed(b"\x1b")  # the start of a sequence, the rest in the next packet
        driver.feed(b"[B")
        await app.wait_for(lambda: app.keys()[-1:] == ["down"])
        assert app.keys()[count:] == ["down"]
        driver.feed(b"\x1bx")  # Esc then x in one packet (harena binds no Alt+x): at once
        await app.wait_for(lambda: app.keys()[-2:] == ["escape", "x"])
        assert driver._escape_timer is None
        driver.feed(b"\xc3")  # one character split across two packets
        driver.feed(b"\xa9")
        await app.wait_for(lambda: app.keys()[-1:] == ["é"])
        driver.feed(b"\x1b[200~two\nlines\x1b[201~")
        await app.wait_for(lambda: any(isinstance(e, events.Paste) for e in app.seen))
        paste = next(e for e in app.seen if isinstance(e, events.Paste))
        assert paste.text == "two\nlines"
        driver.feed(b"\x1b[O\x1b[I")
        await app.wait_for(lambda: isinstance(app.seen[-1], events.AppFocus))
        assert any(isinstance(e, events.AppBlur) for e in app.seen)
        driver.feed(b"\x1b[<0;5;3M")
        await app.wait_for(lambda: isinstance(app.seen[-1], events.MouseDown))
        assert (app.seen[-1].screen_x, app.seen[-1].screen_y) == (4, 2)
        assert driver._escape_timer is None


async def test_size_reports_in_the_input_are_ignored():
    app = Recorder()
    async with running(app) as (_, driver):
        driver.feed(b"\x1b[?2048;1$y\x1b[48;30;100;600;1000t" + b"k")
        await app.wait_for(lambda: app.keys()[-1:] == ["k"])
        assert app.size == (80, 24)


async def test_input_after_stop_is_dropped():
    app = Recorder()
    async with running(app) as (_, driver):
        pass
    driver.feed(b"\x1b")
    driver.feed(b"abc")
    assert driver._escape_timer is None


# ---------------------------------------------------------------- output


async def test_writes_outside_a_frame_are_flushed():
    app = Recorder()
    async with running(app) as (channel, _):
        for _ in range(100):  # the first screen is out: the startup hold is over
            if "é recorder".encode() in channel.out:
                break
            await asyncio.sleep(0.02)
        channel.out.clear()
        app.bell()  # Textual writes the bell without calling flush()
        await asyncio.sleep(0.01)
        assert b"\x07" in channel.out


# ---------------------------------------------------------------- server-side effects


async def test_open_url_and_file_delivery_do_nothing_on_the_server(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    app = Recorder()
    async with running(app) as (_, driver):
        app.open_url("https://example.com")
        app.deliver_text(io.StringIO("secret"), save_directory=tmp_path, save_filename="x.txt")
        await app.wait_for(lambda: any(isinstance(e, events.DeliveryFailed) for e in app.seen))
        assert not driver.can_suspend
    assert opened == []
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- fuzzing (a stub app)


class StubApp:
    """Just enough of an App for the driver: collects what it is sent."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def post_message(self, message: Message) -> bool:
        self.messages.append(message)
        return True


def run_stub(chunks: list[bytes]) -> StubApp:
    async def main() -> StubApp:
        stub = StubApp()
        out = bytearray()
        unpaced = EventBudget(rate=1e9, burst=10**9)  # parsing under test here, not pacing
        driver = SSHDriver(stub, send=out.extend, size=(80, 24), events_budget=unpaced)
        driver.start_application_mode()
        for chunk in chunks:
            driver.feed(chunk)
        for _ in range(50):  # let a pending escape resolve
            if driver._escape_timer is None:
                break
            await asyncio.sleep(0.02)
        driver.feed(b"\x1b[Z")  # a known key (shift+tab) must still come through
        await asyncio.sleep(0)
        driver.stop_application_mode()
        driver.close()
        assert driver._escape_timer is None
        assert out.endswith(b"\x1b[?25h")
        return stub

    return asyncio.run(main())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=64), max_size=6))
def test_random_bytes_never_break_the_driver(chunks):
    stub = run_stub(chunks)
    keys = [m.key for m in stub.messages if isinstance(m, events.Key)]
    assert keys and keys[-1] == "shift+tab"


@pytest.mark.parametrize(
    ("chunks", "keys"),
    [
        ([b"\x1b2"], ["escape", "2"]),  # Textual alone: the Option character "™"
        ([b"\x1b", b"2"], ["escape", "2"]),  # the Esc ends one read, 2 starts the next
        ([b"x" * 15 + b"\x1b2"], ["x"] * 15 + ["escape", "2"]),  # split between parse slices
        ([b"\x1bq"], ["escape", "q"]),  # Textual alone: Alt+q, after the escape delay
        ([b"\x1bf", b"\x1bb"], ["escape", "f", "escape", "b"]),  # not ctrl+right, ctrl+left
        ([b"\x1b]"], ["escape", "right_square_bracket"]),  # not an OSC: harena asks for none
        ([b"hi\x1b2\x1b\x1bq"], ["h", "i", "escape", "2", "escape", "escape", "q"]),
        # unchanged: sequences, an Esc before one, Esc then a control character
        ([b"\x1b[A\x1bOB"], ["up", "down"]),
        ([b"\x1b", b"[A"], ["up"]),
        ([b"\x1b\x1b[A"], ["escape", "up"]),
        ([b"\x1b\x7f"], ["ctrl+w"]),  # Alt+Backspace: the chat input's delete-word
        ([b"\x1b[200~x\x1b[201~"], []),
    ],
)
def test_esc_then_a_character_is_the_esc_key_then_that_character(chunks, keys):
    """harena binds no Alt key: Esc then `2` typed fast (one packet, or the Esc at the end of
    one) is Esc, then 2, at once; escape sequences parse as before."""
    stub = run_stub(chunks)
    assert [m.key for m in stub.messages if isinstance(m, events.Key)] == [*keys, "shift+tab"]
    pastes = [m.text for m in stub.messages if isinstance(m, events.Paste)]
    assert pastes == (["x"] if b"\x1b[200~" in chunks[0] else [])


@pytest.mark.parametrize(
    "chunk",
    [
        b"\x1b" * 100,
        b"\x1b[" + b"9" * 200 + b"M",
        b"\x1b[<99999999999;1;1M",
        b"\x1b[200~" + b"x" * 5000,
    ],
)
def test_pathological_sequences(chunk):
    run_stub([chunk])


# ---------------------------------------------------------------- startup hold (pitfall 10)


async def test_startup_hold_ends_at_the_first_full_paint(monkeypatch):
    out = bytearray()
    driver = SSHDriver(StubApp(), send=out.extend, size=(80, 24))
    driver.start_application_mode()
    modes = bytes(out)
    assert modes.startswith(b"\x1b[22;2t\x1b[?1049h")  # modes go out at once, frames are held
    with driver.painting(full_screen=False):
        driver.write("PARTIAL")  # Textual building the screen: held
    driver.write("\x07")  # not part of a paint: kept
    assert bytes(out) == modes
    with driver.painting(full_screen=True):
        driver.write("FULL")
    # The first full paint ends the hold: everything it supersedes is dropped.
    assert bytes(out) == modes + b"\x07FULL"
    with driver.painting(full_screen=False):
        driver.write("LATER")
    driver.flush()
    assert bytes(out).endswith(b"LATER")
    driver.stop_application_mode()


async def test_startup_hold_ends_after_a_timeout(monkeypatch):
    monkeypatch.setattr("harena.server.transport.driver.STARTUP_HOLD", 0.05)
    out = bytearray()
    driver = SSHDriver(StubApp(), send=out.extend, size=(80, 24))
    driver.start_application_mode()
    with driver.painting(full_screen=False):
        driver.write("ONLY-PAINT")  # a partial paint, and no full one comes
    assert b"ONLY-PAINT" not in out
    await asyncio.sleep(0.1)
    assert out.endswith(b"ONLY-PAINT")
    driver.stop_application_mode()
    assert out.endswith(b"\x1b[?25h")


# ---------------------------------------------------------------- compositor paints (screen buffer)


def full_paint(text: str, size: tuple[int, int] = (80, 24)) -> Any:
    from rich.segment import Segment
    from textual._compositor import LayoutUpdate
    from textual.geometry import Region
    from textual.strip import Strip

    width, height = size
    rows = [[Strip([Segment(text.ljust(width)[:width])])]] + [
        [Strip.blank(width)] for _ in range(height - 1)
    ]
    return LayoutUpdate(rows, Region(0, 0, width, height))


async def test_the_first_screen_is_sent_whole_then_only_what_changes():
    from rich.color import ColorSystem

    out = bytearray()
    driver = SSHDriver(StubApp(), send=out.extend, size=(80, 24))
    driver.start_application_mode()
    modes = bytes(out)
    driver.paint(full_paint("the table"), (0, 0), ColorSystem.EIGHT_BIT)  # ends the hold
    frame = bytes(out)[len(modes) :]
    assert frame.startswith(b"\x1b[0m\x1b[2J") and b"the table" in frame
    assert len(frame) < 40  # the blank rows are not sent
    sent = len(out)
    driver.paint(full_paint("the table"), (0, 0), ColorSystem.EIGHT_BIT)  # Textual repaints
    assert len(out) == sent  # nothing changed, nothing sent
    driver.paint(full_paint("the tablE"), (0, 0), ColorSystem.EIGHT_BIT)
    assert bytes(out)[sent:] == b"\x1b[8CE\x1b[1;1H"  # 8 columns right, E, cursor back
    driver.resize(100, 30)  # the client's screen is unknown now: clear and paint again
    driver.paint(full_paint("the table", (100, 30)), (0, 0), ColorSystem.EIGHT_BIT)
    assert b"\x1b[2J" in bytes(out)[sent:] and bytes(out).endswith(b"\x1b[1;1H")
    driver.stop_application_mode()
