"""`harena serve` end to end: real SSH clients with a PTY, screens read through pyte."""

from __future__ import annotations

import asyncio
import gc
import random

import asyncssh
import pytest

from harena.server.hosting import dismantle
from harena.server.service.ssh_server import GUEST_PREFIX, HarenaServer, ServerConfig
from harena.server.transport.hostkey import fingerprint
from harena.server.transport.session import live_sessions
from tests.server.leaks import collect_all
from tests.server.players import new_key, player
from tests.sshscreen import ScreenClient


async def create_table(client: ScreenClient) -> None:
    """From the lobby: n, the next game (High Card; Carthage is first), then Enter on the
    defaults (2 players, no bots)."""
    await client.wait_for_text("new table")
    client.send("n")
    await client.wait_for_text("New table")
    client.send("\x1b[C")
    await client.wait_for_text("High Card")
    client.send("\r")
    await client.wait_for_text("Table 1")


async def test_the_lobby_is_the_first_screen(make_server):
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    text = ann.screen_text()
    assert "Tables" in text and "No tables yet" in text
    assert "n  new table" in text and "?  help" in text
    assert "Online (1)" in text


async def test_two_players_at_one_table_see_each_others_moves_but_not_each_others_hands(
    make_server,
):
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await create_table(ann)
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")  # take the free seat at the selected table
    await bob.wait_for_text("Table 1")
    await ann.wait_for_text("bob")
    game = server.lobby.table("1").game
    ann_hand, bob_hand = (list(h) for h in game.state.hands)
    await ann.wait_for_text("hand: " + ", ".join(map(str, ann_hand)))
    await bob.wait_for_text("hand: " + ", ".join(map(str, bob_hand)))
    assert f"you drew {ann_hand}" not in bob.screen_text()
    assert f"you drew {bob_hand}" not in ann.screen_text()

    ann.send("1")  # play the lowest card
    await bob.wait_for_text("seat 0 plays a card")
    await ann.wait_for_text(f"you play {ann_hand[0]} face down")
    assert f"you play {ann_hand[0]}" not in bob.screen_text()
    assert "has played: yes, no" in bob.screen_text()


async def test_a_resize_re_lays_the_screen(make_server):
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    assert len(ann.lines()[0]) <= 80
    ann.resize(120, 40)
    await ann.wait_until(
        lambda: ann.lines()[0].endswith("? help") and len(ann.lines()[0]) > 100, 5, "a wider header"
    )
    await ann.wait_until(
        lambda: "q  quit" in ann.lines()[-1] or "q  quit" in ann.lines()[-2],
        5,
        "key bar at the bottom",
    )
    ann.resize(60, 20)
    await ann.wait_for_text("Please enlarge")
    ann.resize(80, 24)
    await ann.wait_for_text("you are ann")


async def test_a_dropped_player_keeps_the_seat_and_the_same_key_lands_back_in_it(make_server):
    server = await make_server()
    ann_key = new_key()
    ann = await player(server, "ann", ann_key)
    await create_table(ann)
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await bob.wait_for_text("Table 1")
    await ann.close()
    await bob.wait_for_text("offline")
    assert server.lobby.table("1").seats[0].identity == fingerprint(ann_key)

    again = await player(server, "ann", ann_key)
    await again.wait_for_text("Table 1")  # straight back to the seat, not the lobby
    await again.wait_for_text("you: ann")
    await bob.wait_until(lambda: "offline" not in bob.screen_text(), 5, "ann back online")


async def test_the_same_key_twice_shows_the_same_seat_and_may_take_over(make_server):
    server = await make_server()
    key = new_key()
    first = await player(server, "ann", key)
    await create_table(first)
    second = await player(server, "ann", key)
    await second.wait_for_text("Table 1")
    await second.wait_for_text("Connected elsewhere")
    assert len(server.sessions[fingerprint(key)]) == 2
    second.send("t")
    await first.wait_closed(10)
    assert "took this seat over" in first.stderr.decode()
    assert not second.closed


async def test_a_client_without_a_pty_is_refused_with_a_message(make_server):
    server = await make_server()
    client = await player(server, "ann", new_key(), term_type=None)
    await client.wait_closed()
    assert "needs an interactive terminal" in client.stderr.decode()
    assert client.exit_status == 1


async def test_exec_and_sftp_are_refused(make_server):
    server = await make_server()
    for options in ({"command": "cat /etc/passwd"}, {"subsystem": "sftp", "term_type": None}):
        client = await player(server, "ann", new_key(), **options)
        await client.wait_closed()
        assert "harena" in client.stderr.decode() and client.exit_status == 1
        assert "root:" not in client.raw.decode(errors="replace")


async def test_forwarding_is_refused(make_server):
    server = await make_server()
    async with asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="eve",
        client_keys=[new_key()],
        agent_path=None,
        known_hosts=None,
    ) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.start_server(lambda *a: None, "127.0.0.1", 0)


async def test_a_garbage_byte_stream_breaks_nothing(make_server, caplog):
    server = await make_server()
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("you are bob")
    noisy = await player(server, "mallory", new_key())
    await noisy.wait_for_text("you are mallory")
    rng = random.Random(7)
    pieces = [
        b"\x1b[",
        b"\x1b[<",
        b"\x1b]",
        b"\x1bO",
        b"\x1b[200~",
        b"\xff\xfe",
        b"\x00",
        b"\x1b\x1b[M",
    ]
    quit_keys = {0x03, 0x11, ord("q")}  # Ctrl+C, Ctrl+Q and q are real keys that end a session
    for _ in range(50):
        noise = bytes(
            b
            for b in (rng.randrange(256) for _ in range(rng.randrange(1, 60)))
            if b not in quit_keys
        )
        noisy.send(rng.choice(pieces) + noise)
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.5)
    assert not noisy.closed
    bob.send("c")
    bob.send("still here\r")
    await bob.wait_for_text("still here")
    late = await player(server, "carol", new_key())
    await late.wait_for_text("still here")
    assert "crashed" not in caplog.text


async def test_guests_get_in_without_a_key_and_an_allow_list_closes_the_server(
    make_server, tmp_path
):
    server = await make_server()
    guest = await player(server, "visitor", None)
    await guest.wait_for_text("you are visitor")
    assert any(identity.startswith(GUEST_PREFIX) for identity in server.sessions)
    await guest.close()
    await server.stop()

    listed = new_key()
    allow = tmp_path / "authorized_keys"
    allow.write_bytes(listed.export_public_key())
    config = ServerConfig(port=0, keys_dir=tmp_path / "keys", data_dir=None, allow_file=allow)
    closed = HarenaServer(config)
    await closed.start()
    try:
        ok = await player(closed, "ann", listed)
        await ok.wait_for_text("you are ann")
        await ok.close()
        for key in (new_key(), None):
            with pytest.raises(asyncssh.PermissionDenied):
                await player(closed, "eve", key)
    finally:
        await closed.stop()


async def test_connections_per_address_are_capped(make_server):
    server = await make_server(max_per_ip=2)
    first = await player(server, "a", new_key())
    second = await player(server, "b", new_key())
    with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError, ConnectionError)):
        third = await player(server, "c", new_key())  # refused once logged in
        await third.wait_closed()
    assert server.refused["max_per_ip"] == 1
    await first.close()
    await asyncio.sleep(0.2)
    again = await player(server, "c", new_key())
    await again.wait_for_text("you are c")
    await second.close()


async def test_idle_spectators_are_disconnected_but_seated_players_stay(make_server):
    server = await make_server(idle_timeout=1.0)
    seated = await player(server, "ann", new_key())
    await create_table(seated)
    idler = await player(server, "ida", new_key())
    await idler.wait_for_text("you are ida")
    await idler.wait_closed(6)
    assert "idle" in idler.stderr.decode()
    assert not seated.closed


async def test_compression_is_offered(make_server):
    server = await make_server()
    client = await player(server, "ann", new_key(), compression_algs=["zlib@openssh.com"])
    await client.wait_for_text("you are ann")


async def test_clients_get_aes_not_chacha20_and_a_chacha20_only_client_is_told_why(make_server):
    server = await make_server()
    client = await player(server, "ann", new_key())  # asyncssh prefers chacha20, as OpenSSH does
    await client.wait_for_text("you are ann")
    assert client._conn is not None
    assert client._conn.get_extra_info("send_cipher").startswith("aes")
    await client.close()
    with pytest.raises(asyncssh.KeyExchangeFailed, match="encryption"):
        await player(server, "bob", new_key(), encryption_algs=["chacha20-poly1305@openssh.com"])


async def test_a_restart_brings_every_table_back_and_the_same_host_key(make_server, tmp_path):
    server = await make_server()
    key = new_key()
    ann = await player(server, "ann", key)
    await create_table(ann)
    old_fingerprint = server.fingerprint
    await server.stop()
    await ann.wait_closed()
    assert "your seat is kept" in ann.stderr.decode()
    assert b"\x1b[?1049l" in ann.raw  # the player's terminal was given back

    restarted = await make_server()
    assert restarted.fingerprint == old_fingerprint
    again = await player(restarted, "ann", key)
    await again.wait_for_text("Table 1")
    await again.wait_for_text("you: ann")


async def test_no_task_session_or_subscription_survives_50_connections(make_server):
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await create_table(ann)
    table = server.lobby.table("1")
    await asyncio.sleep(0.3)
    tasks_before = len(asyncio.all_tasks())
    lobby_subs, table_subs = server.lobby.subscriber_count, table.subscriber_count
    for i in range(50):
        client = await player(server, f"p{i}", new_key())
        await client.wait_for_text("you are")
        if i % 5 == 0:
            client.send("w")  # some watch the table (a table subscription)
            await client.wait_for_text("Table 1")
        await client.close()
    for _ in range(200):  # ended, and each app taken apart (held until then)
        if (
            len(live_sessions()) == 1
            and not any(s for s in server.sessions.values() if len(s) > 1)
            and dismantle.pending() == 0
        ):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    collect_all()
    assert dismantle.pending() == 0
    assert len(live_sessions()) == 1
    assert server.lobby.subscriber_count == lobby_subs
    assert table.subscriber_count == table_subs
    assert len(asyncio.all_tasks()) <= tasks_before + 1
    from harena.tui.app import HarenaApp

    assert sum(isinstance(o, HarenaApp) for o in gc.get_objects()) == 1
    assert len(server.sessions) == 1  # only ann is still connected


async def test_a_client_that_never_logs_in_is_dropped_after_the_login_timeout(make_server):
    server = await make_server(login_timeout=1.0)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    banner = await reader.readline()
    assert banner.startswith(b"SSH-2.0-")
    started = asyncio.get_running_loop().time()
    while await asyncio.wait_for(reader.read(4096), 10):  # the key exchange offer, then EOF
        pass
    assert asyncio.get_running_loop().time() - started < 5
    writer.close()


async def test_a_terminal_that_is_not_utf8_gets_only_ascii_bytes(make_server):
    server = await make_server()
    ann = await player(server, "ann", new_key(), env={"LANG": "C"})
    await ann.wait_for_text("you are ann")
    await create_table(ann)
    await ann.wait_for_text("Table 1 . High Card . waiting")  # "·" sent as "."
    assert max(ann.raw) < 0x80  # borders, ellipses and arrows arrive as ASCII
    assert "-Players---" in ann.screen_text()


async def test_a_player_can_open_no_command_palette_and_save_no_screenshot(
    make_server, tmp_path, monkeypatch
):
    """HarenaApp itself keeps its sessions off the server machine (textual_fixes once patched
    Textual's screenshot methods and palette command for that: they duplicated these)."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    lobby = ann.screen_text()
    ann.send("\x10")  # ctrl+p: Textual's command palette, with its "Screenshot" command
    await ann.wait_quiet(0.3)
    assert ann.screen_text() == lobby
    [session] = live_sessions()
    app = session._app
    assert app is not None and not app.ENABLE_COMMAND_PALETTE
    assert app.save_screenshot() == ""
    assert app.deliver_screenshot() is None
    app.action_screenshot()
    await ann.wait_quiet(0.2)
    assert list(workdir.iterdir()) == []
    await ann.close()


async def test_a_session_starts_with_one_full_frame(make_server, monkeypatch):
    """The first screen is drawn whole once (server/hosting/textual_fixes.py): not again for
    the blank default screen below it, nor for the repaint asked for as it came to the top."""
    from textual._compositor import Compositor

    frames: list[tuple[int, int]] = []
    full_update = Compositor.render_full_update

    def counted(self: Compositor, *args, **kwargs):
        frames.append(tuple(self.size))
        return full_update(self, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_full_update", counted)
    server = await make_server()
    ann_key, bob_key = new_key(), new_key()
    table = server.lobby.create_table(fingerprint(ann_key), "ann", "highcard", 2)
    table.sit(fingerprint(bob_key), "bob")
    ann = await player(server, "ann", ann_key)  # seated: the table is the first screen
    await ann.wait_for_text("Table 1")
    await ann.wait_quiet(0.3)
    assert frames == [(80, 24)]
    cid = await player(server, "cid", new_key())  # the lobby
    await cid.wait_for_text("Tables")
    await cid.wait_quiet(0.3)
    assert frames == [(80, 24)] * 2
    ann.resize(100, 30)  # the new size is drawn
    await ann.wait_until(
        lambda: ann.screen_text().splitlines()[0].rstrip().endswith(" " * 40 + "? help"),
        5,
        "the table at 100 columns",
    )
    await ann.wait_quiet(0.3)
    assert "Table 1" in ann.screen_text() and "Tables" in cid.screen_text()
    await ann.close()
    await cid.close()


async def test_a_new_screen_is_not_styled_again_when_first_shown(make_server, monkeypatch):
    """Its widgets were styled as they mounted (server/hosting/textual_fixes.py): Textual's
    restyling of the whole screen as it comes to the top is skipped the first time."""
    from textual.app import App
    from textual.screen import Screen

    restyled: list[str] = []
    update_styles = App.update_styles

    def counted(self: App, node, animate: bool = True) -> None:
        if isinstance(node, Screen):
            restyled.append(type(node).__name__)
        update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", counted)
    server = await make_server()
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("Tables")
    await ann.wait_quiet(0.3)
    assert restyled == []
    ann.send("?")  # the help: a new screen, first shown
    await ann.wait_for_text("Keys")
    await ann.wait_quiet(0.3)
    assert restyled == []
    ann.send("\x1b")
    await ann.wait_for_text("No tables yet")
    await ann.close()


FIRST_CONNECTION = """
import asyncio, sys
from pathlib import Path
from harena.server.service.ssh_server import HarenaServer, ServerConfig
from tests.server.players import new_key, player

async def main() -> None:
    server = HarenaServer(ServerConfig(port=0, keys_dir=Path(sys.argv[1]), data_dir=None))
    await server.start()
    before = set(sys.modules)
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("Tables")
    await ann.wait_quiet(0.2)
    print(" ".join(sorted(m for m in set(sys.modules) - before if m.startswith(("harena", "textual")))))
    await ann.close()
    await server.stop()

asyncio.run(main())
"""


def test_the_first_connection_imports_no_screens(tmp_path):
    """The server imports the screens, boards and what Textual imports on its first run as it
    starts (ssh_server.load_screens): the first player does not wait for ~100 modules."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CONNECTION, str(tmp_path / "keys")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
