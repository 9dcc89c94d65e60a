"""AppSession end to end: a real asyncssh server and client, asserting on what a player sees."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest

from harena.server.transport.driver import SSHDriver
from harena.server.transport.session import (
    CRASH_MESSAGE,
    EXEC_MESSAGE,
    NO_PTY_MESSAGE,
    SessionInfo,
    live_sessions,
    shutdown_all,
)
from tests.server.leaks import freed
from tests.server.session_apps import AppRecorder, KeyApp, serve
from tests.sshscreen import ScreenClient


async def test_app_appears_at_80x24_with_session_info(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(
            port, username="alice", term_type="xterm-256color", env={"COLORTERM": "truecolor"}
        )
        await client.wait_for_text("user=alice")
        lines = client.lines()
        assert lines[0].startswith(
            "user=alice id=SHA256:test term=xterm-256color colorterm=truecolor size=80x24"
        )
        assert lines[0].endswith("R>|") and len(lines[0]) == 80
        assert len(lines) == 24
        info = recorder.live_apps()[0].info
        assert isinstance(info, SessionInfo)
        assert info.peer[0] == "127.0.0.1" and info.peer[1] > 0
        assert info.color_system == "truecolor"
        # Pitfall 5: never LinuxDriver, whatever the app asked for.
        assert isinstance(recorder.live_apps()[0]._driver, SSHDriver)
        await client.close()


async def test_keys_escape_arrows_ctrl_c_paste_and_garbage(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        client.send("a\x1b[A\x1b[B")
        await client.wait_for_text("keys: a up down")
        client.send("\x1b")  # a lone Esc is resolved by the escape delay, not by the next key
        await client.wait_for_text("keys: a up down escape")
        client.send("\x03")  # Ctrl+C is a key like any other
        await client.wait_for_text("escape ctrl+c")
        client.send("\x1b[200~pasted ü text\x1b[201~")
        await client.wait_for_text("paste: pasted ü text")
        client.send(
            b"\xff\xfe\x1b[999;999;999;999;999M\x1b[<0;-5;-5M\x1b[48;1;1;1;1t\x1b]\x00\x9b\xc3"
        )
        await asyncio.sleep(0.3)  # let the escape delay flush whatever the garbage left pending
        client.send("z")
        await client.wait_for_text("last: z")
        assert not client.closed
        # The in-band resize report in the garbage must not have resized the app.
        assert recorder.live_apps()[0].size == (80, 24)
        await client.close()


async def test_client_signal_and_break_are_ignored(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        assert client._chan is not None
        client._chan.send_signal("INT")
        client._chan.send_break(100)
        client.send("k")
        await client.wait_for_text("keys: k")
        assert not client.closed
        await client.close()


async def test_resize_relays_the_screen(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("R>|")
        assert client.lines()[0].endswith("R>|") and len(client.lines()[0]) == 80
        client.resize(100, 30)
        await client.wait_for_text("size: 100x30")
        await client.wait_until(lambda: len(client.lines()[0]) == 100, what="right edge at col 100")
        assert client.lines()[0].endswith("R>|")
        client.resize(60, 20)
        await client.wait_for_text("size: 60x20")
        await client.wait_until(lambda: client.lines()[0][57:60] == "R>|", what="right edge at 60")
        await client.close()


async def test_session_without_pty_is_refused(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(port, term_type=None)
        await client.wait_closed()
        assert NO_PTY_MESSAGE in client.stderr.decode()
        assert client.exit_status == 1
        assert recorder.apps == []


async def test_exec_is_refused(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(port, command="ls -la")
        await client.wait_closed()
        assert EXEC_MESSAGE in client.stderr.decode()
        assert client.exit_status == 1
        assert recorder.apps == []


async def test_sftp_subsystem_is_refused(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(port, term_type=None, subsystem="sftp")
        await client.wait_closed()
        assert "no sftp subsystem" in client.stderr.decode()
        assert client.exit_status == 1
        assert recorder.apps == []


async def test_a_crash_ends_only_its_own_session(tmp_path, caplog):
    caplog.set_level(logging.ERROR)
    async with serve(tmp_path) as (port, _):
        doomed = await ScreenClient.connect(port, username="doomed")
        other = await ScreenClient.connect(port, username="other")
        await doomed.wait_for_text("user=doomed")
        await other.wait_for_text("user=other")
        doomed.send("x")
        await doomed.wait_closed()
        assert CRASH_MESSAGE in doomed.stderr.decode()
        assert doomed.exit_status == 1
        assert "boom (test crash)" in caplog.text
        other.send("k")
        await other.wait_for_text("keys: k")
        assert not other.closed
        await other.close()


async def test_app_exit_closes_the_channel_and_restores_the_terminal(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        client.send("q")
        await client.wait_closed()
        assert client.exit_status == 0
        tail = bytes(client.raw[-200:])
        assert tail.rfind(b"\x1b[?1049l") > tail.rfind(b"\x1b[?1049h")  # main screen back
        assert tail.rfind(b"\x1b[?25h") > tail.rfind(b"\x1b[?25l")  # cursor visible
        assert b"\x1b[?1000l" in tail and b"\x1b[?2004l" in tail


async def test_sys_stdout_is_untouched_when_sessions_stop_out_of_order(tmp_path):
    stdout, stderr = sys.stdout, sys.stderr
    async with serve(tmp_path) as (port, _):
        clients = [await ScreenClient.connect(port, username=f"u{i}") for i in range(3)]
        for i, client in enumerate(clients):
            await client.wait_for_text(f"user=u{i}")
        assert sys.stdout is stdout and sys.stderr is stderr
        clients[1].send("p")  # print() inside an app must not land in another app
        await clients[1].wait_for_text("keys: p")
        for index in (1, 0, 2):
            await clients[index].close()
            await asyncio.sleep(0.05)
            assert sys.stdout is stdout and sys.stderr is stderr
        for _ in range(100):
            if not live_sessions():
                break
            await asyncio.sleep(0.02)
    assert sys.stdout is stdout and sys.stderr is stderr


async def test_no_app_or_task_survives_50_connect_disconnect_cycles(tmp_path):
    tasks_before = asyncio.all_tasks()
    async with serve(tmp_path, keep_sessions=False) as (port, recorder):
        for i in range(50):
            client = await ScreenClient.connect(port)
            await client.wait_for_text("keys:")
            if i % 2:
                client.send("hello")  # some sessions with input, some without
            await client.close()
        for _ in range(200):
            if not live_sessions():
                break
            await asyncio.sleep(0.02)
        assert live_sessions() == []
        assert len(recorder.apps) == 50
        assert await freed(recorder.apps) == []
        leftover = {task for task in asyncio.all_tasks() - tasks_before if not task.done()} - {
            asyncio.current_task()
        }
        assert leftover == set(), leftover


async def test_idle_session_receives_nothing(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        await client.wait_quiet(0.3)
        before = client.bytes_received
        await asyncio.sleep(1.5)
        assert client.bytes_received == before
        await client.close()


async def test_stuck_client_is_dropped_past_the_buffer_threshold(tmp_path):
    async with serve(tmp_path, max_write_buffer=16 * 1024) as (port, recorder):
        client = await ScreenClient.connect(port, window=8 * 1024)
        await client.wait_for_text("keys:")
        session = recorder.sessions[0]
        client.pause_reading()
        for i in range(40):  # every resize repaints the whole screen (several KB)
            client.resize(80 + i % 2 * 40, 24 + i % 2 * 16)
            await asyncio.sleep(0.01)
            if session.dropped_for_backlog:
                break
        assert session.dropped_for_backlog
        assert session.task is not None
        await asyncio.wait_for(session.task, 5)
        assert live_sessions() == []
        await client.close()


async def test_a_normal_client_is_not_dropped(tmp_path):
    async with serve(tmp_path, max_write_buffer=16 * 1024) as (port, recorder):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        for i in range(10):
            client.resize(80 + i % 2 * 40, 24 + i % 2 * 16)
            await client.wait_for_text(f"size: {80 + i % 2 * 40}x")
        assert not recorder.sessions[0].dropped_for_backlog
        assert not client.closed
        await client.close()


async def test_shutdown_all_exits_every_app(tmp_path):
    async with serve(tmp_path) as (port, _):
        clients = [await ScreenClient.connect(port, username=f"s{i}") for i in range(2)]
        for i, client in enumerate(clients):
            await client.wait_for_text(f"user=s{i}")
        await shutdown_all(timeout=5)
        assert live_sessions() == []
        for client in clients:
            await client.wait_closed()
            assert client.exit_status == 0


@pytest.mark.parametrize("term", ["xterm", "linux"])
def test_session_info_color_system(term):
    info = SessionInfo("u", ("h", 1), term, None, (80, 24))
    assert info.color_system == "standard"


async def test_a_failing_app_factory_ends_only_that_session(tmp_path, caplog):
    caplog.set_level(logging.ERROR)
    calls = 0

    def flaky_factory(info: SessionInfo) -> KeyApp:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ValueError("factory exploded")
        return KeyApp(info)

    async with serve(tmp_path, AppRecorder(flaky_factory)) as (port, _):
        failed = await ScreenClient.connect(port)
        await failed.wait_closed()
        assert CRASH_MESSAGE in failed.stderr.decode() and failed.exit_status == 1
        assert "factory exploded" in caplog.text
        working = await ScreenClient.connect(port)
        await working.wait_for_text("keys:")
        await working.close()


async def test_keys_typed_before_the_app_is_ready_are_not_lost(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        client.send("ab")  # right away: the app is still starting
        await client.wait_for_text("keys: a b")
        await client.close()


async def test_eof_from_the_client_exits_the_app(tmp_path):
    async with serve(tmp_path) as (port, _recorder):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        assert client._chan is not None
        client._chan.write_eof()
        await client.wait_closed()
        assert client.exit_status == 0
        assert live_sessions() == []


class StuckApp(KeyApp):
    """An app whose key handler never returns: it can no longer process `exit()`."""

    async def on_key(self, event) -> None:
        await asyncio.sleep(3600)


async def test_an_app_that_cannot_exit_is_cancelled_after_the_grace_period(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    tasks_before = asyncio.all_tasks()

    def factory(info: SessionInfo) -> KeyApp:
        return StuckApp(info) if info.username == "stuck" else KeyApp(info)

    async with serve(tmp_path, AppRecorder(factory), exit_grace=0.3) as (port, recorder):
        stuck = await ScreenClient.connect(port, username="stuck")
        other = await ScreenClient.connect(port, username="other")
        await stuck.wait_for_text("keys:")
        await other.wait_for_text("keys:")
        stuck.send("k")
        other.send("o")  # a stuck (awaiting) handler in one app does not stall the others
        await other.wait_for_text("keys: o")
        await stuck.close()
        session = recorder.sessions[0]
        assert session.task is not None
        await asyncio.wait([session.task], timeout=5)
        assert session.task.done()
        assert "did not exit" in caplog.text
        await other.close()
        for _ in range(100):
            if not live_sessions():
                break
            await asyncio.sleep(0.02)
        assert live_sessions() == []
        await asyncio.sleep(0.1)
        leftover = {t for t in asyncio.all_tasks() - tasks_before if not t.done()}
        assert leftover == set(), leftover


async def test_the_first_screen_is_sent_once(tmp_path):
    async with serve(tmp_path) as (port, _):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        await client.wait_quiet(0.3)
        # Textual paints the first screen fully twice; only the last paint goes out.
        assert bytes(client.raw).count(b"user=player") == 1
        assert client.bytes_received < 4000  # 80x24, 256 colours: ~2.8 KB (two paints: ~6 KB)
        await client.close()


async def test_request_exit_with_a_message(tmp_path):
    async with serve(tmp_path) as (port, recorder):
        client = await ScreenClient.connect(port)
        await client.wait_for_text("keys:")
        recorder.sessions[0].request_exit("harena: the server is restarting.")
        await client.wait_closed()
        assert client.exit_status == 0
        raw = bytes(client.raw)
        assert raw.rindex(b"harena: the server is restarting.") > raw.rindex(b"\x1b[?1049l")
