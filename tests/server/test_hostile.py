"""A hostile client against `harena serve` (issue 12): real SSH clients, each attack's fix."""

from __future__ import annotations

import asyncio
import logging
import time

import asyncssh
import pytest

from harena.server.service.ssh_server import INPUT_WINDOW, HarenaServer
from tests.server.players import new_key, player
from tests.sshscreen import ScreenClient

REFUSED = (asyncssh.DisconnectError, asyncssh.ChannelOpenError, ConnectionError)


def session_of(server: HarenaServer, client_name: str):
    for sessions in server.sessions.values():
        for session in sessions:
            if session.info is not None and session.info.username == client_name:
                return session
    raise LookupError(client_name)


async def test_a_flood_of_keys_reaches_the_app_at_the_event_budget_and_others_play_on(make_server):
    server = await make_server(input_events=20, input_event_burst=10)
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("you are bob")
    mallory = await player(server, "mallory", new_key())
    await mallory.wait_for_text("you are mallory")
    driver = session_of(server, "mallory")._driver
    started = time.monotonic()
    mallory.send(b"jk" * 8000)  # a 16 KB burst, within the byte limit
    for _ in range(10):
        mallory.send(b"jk" * 100)
        await asyncio.sleep(0.1)
    bob.send("c")
    bob.send("still here\r")
    await bob.wait_for_text("bob: still here")
    elapsed = time.monotonic() - started
    assert driver.events_passed <= 10 + 20 * elapsed + 2  # the burst, then the rate
    assert not mallory.closed


async def test_input_the_server_has_not_read_stays_with_the_client(make_server):
    # A flood of one-byte packets while the session's input waits: the server holds at most
    # its channel window of them (each held packet costs memory), the rest waits at the client.
    server = await make_server(input_events=5, input_event_burst=5)
    mallory = await player(server, "mallory", new_key())
    await mallory.wait_for_text("you are mallory")
    chan = mallory._chan
    assert chan is not None
    sent = 200_000
    for _ in range(sent // 2):
        chan.write(b"jk")
    await asyncio.sleep(1.0)
    held_by_client = chan.get_write_buffer_size()
    assert held_by_client >= sent - 2 * INPUT_WINDOW - 8192, held_by_client
    await mallory.close()


async def test_a_chat_line_typed_at_once_arrives_whole_at_the_event_budget(make_server):
    server = await make_server(input_events=30, input_event_burst=10)
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    ann.send("c")
    await ann.wait_for_text("Enter sends")
    ann.send("typed faster than the budget, none of it lost\r")
    await ann.wait_for_text("ann: typed faster than the budget, none of it lost", timeout=8)


async def test_keys_while_the_app_exits_end_the_session_cleanly(make_server, caplog):
    """`?` pressed while the app exits once crashed it ("internal error"): input stops as the
    exit begins."""
    server = await make_server()
    for _ in range(4):
        ann = await player(server, "ann", new_key())
        await ann.wait_for_text("you are ann")
        ann.send("q")
        await ann.wait_for_text("Quit harena?")
        ann.send("y" + "?" * 20)
        await ann.wait_closed()
        assert b"internal error" not in ann.stderr
    assert "crashed" not in caplog.text


async def test_bare_sockets_that_never_speak_do_not_lock_a_client_out(make_server):
    server = await make_server(max_per_ip=3, max_startups_per_ip=3)
    sockets = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
    await asyncio.sleep(0.2)
    ann = await player(server, "ann", new_key())  # the oldest pending login gives way
    await ann.wait_for_text("you are ann")
    assert server.refused["max_startups"] == 1
    assert server.startups.pending("127.0.0.1") == 2  # two silent sockets are still waiting
    for _reader, writer in sockets:
        writer.close()


async def test_the_global_cap_refuses_connections_past_it(make_server):
    server = await make_server(max_connections=2)
    ann = await player(server, "ann", new_key())
    bob = await player(server, "bob", new_key())
    with pytest.raises(REFUSED):
        await player(server, "cat", new_key())
    assert server.refused["max_connections"] == 1
    await ann.close()
    await asyncio.sleep(0.2)
    cat = await player(server, "cat", new_key())
    await cat.wait_for_text("you are cat")
    await bob.close()


async def test_channels_per_connection_are_counted(make_server):
    server = await make_server(max_channels=2)
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    conn = ann._conn
    assert conn is not None
    second, _ = await conn.create_session(
        asyncssh.SSHClientSession, term_type="xterm", encoding=None
    )
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_session(asyncssh.SSHClientSession, term_type="xterm", encoding=None)
    assert server.refused["max_channels"] == 1
    second.close()
    await second.wait_closed()
    await asyncio.sleep(0.2)
    third, _ = await conn.create_session(
        asyncssh.SSHClientSession, term_type="xterm", encoding=None
    )
    third.close()


async def test_connections_per_key_are_capped(make_server):
    server = await make_server(max_per_key=1)
    key = new_key()
    ann = await player(server, "ann", key)
    await ann.wait_for_text("you are ann")
    with pytest.raises(REFUSED):
        await player(server, "ann", key)
    assert server.refused["max_per_key"] == 1


async def test_only_the_variables_the_server_reads_are_kept_and_bounded(make_server):
    server = await make_server()
    env = {f"JUNK{i}": "x" * 30_000 for i in range(50)}
    env.update(LANG="en_US.UTF-8", LC_ALL="C.UTF-8", COLORTERM="truecolor", LC_HUGE="y" * 10_000)
    ann = await player(server, "ann", new_key(), env=env)
    await ann.wait_for_text("you are ann")
    session = session_of(server, "ann")
    assert dict(session.info.env) == {
        "LANG": "en_US.UTF-8",
        "LC_ALL": "C.UTF-8",
        "COLORTERM": "truecolor",
    }
    assert sum(len(v) for v in session._chan.get_environment_bytes().values()) < 100


async def test_a_name_online_under_another_key_is_marked_everywhere(make_server):
    server = await make_server()
    ann_key = new_key()
    ann = await player(server, "ann", ann_key)
    await ann.wait_for_text("you are ann")
    impostor = await player(server, "ann", new_key())
    await impostor.wait_for_text("you are ann~2")
    await ann.wait_for_text("ann~2")  # in the online list
    impostor.send("c")
    await impostor.wait_for_text("Enter sends")
    impostor.send("hello\r")
    await ann.wait_for_text("ann~2: hello")
    again = await player(server, "ann", ann_key)  # the same key keeps its name
    await again.wait_for_text("you are ann")
    assert "you are ann~" not in again.screen_text()


async def test_a_term_with_newlines_and_escapes_is_logged_escaped(make_server, caplog):
    caplog.set_level(logging.INFO)
    server = await make_server()
    evil = "xterm\n2026-01-01 INFO forged line\x1b]0;owned\x07"
    client = await ScreenClient.connect(
        server.port, username="eve", term_type=evil, client_keys=[new_key()], agent_path=None
    )
    await client.wait_for_text("you are eve")
    messages = [record.getMessage() for record in caplog.records]
    assert any("forged line" in m for m in messages)  # it is logged...
    assert not any("\n" in m or "\x1b" in m or "\x07" in m for m in messages)  # ...escaped
