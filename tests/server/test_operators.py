"""Operators over real SSH (server/operations/admin.py, the lobby's `o` key): close, delete, kick, ban,
notice; and that nobody else can do any of it."""

from __future__ import annotations

import asyncio
import json
import logging

import asyncssh
import pytest

from harena.core.engine import IllegalAction
from harena.server.operations.admin_socket import running, send, socket_path
from harena.server.operations.operators import BANS_FILE
from harena.server.transport.hostkey import fingerprint
from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table
from tests.sshscreen import ScreenClient


async def operator_command(client: ScreenClient, command: str, answer: str) -> None:
    """From the lobby: o, the command, Enter; wait for `answer` in the modal; Esc."""
    client.send("o")
    await client.wait_for_text("Operator")
    client.send(command + "\r")
    await client.wait_for_text(answer)
    client.send("\x1b")
    await client.wait_until(lambda: "Operator" not in client.screen_text(), 5, "the modal closed")


async def ops_server(make_server):
    op_key = new_key()
    server = await make_server(operators=frozenset({fingerprint(op_key)}))
    op = await player(server, "olga", op_key)
    await op.wait_for_text("you are olga")
    return server, op


async def test_an_operator_deletes_a_table_and_it_is_gone_for_every_session(make_server):
    server, op = await ops_server(make_server)
    ann = await player(server, "ann", new_key())
    await create_table(ann)  # ann sits at table 1
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("High Card")
    await operator_command(op, "delete 1", "table 1 deleted")
    await ann.wait_for_text("table 1 was deleted by an operator")
    assert "you are ann" in ann.screen_text()  # back in the lobby
    await bob.wait_until(
        lambda: "High Card" not in bob.screen_text(), 5, "the table left bob's list"
    )
    assert "1" not in server.lobby.tables
    assert not (server.config.data_dir / "tables" / "1").exists()
    assert (server.config.data_dir / "deleted" / "1-1" / "log").exists()  # kept, out of the way
    await server.stop()
    assert server.lobby.tables == {}


async def test_a_kicked_session_closes_cleanly_with_a_message(make_server):
    server, op = await ops_server(make_server)
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("you are bob")
    await operator_command(op, "kick bob", "closed 1 session of bob")
    await bob.wait_closed()
    assert "an operator closed your session" in bob.stderr.decode()
    assert b"\x1b[?1049l" in bob.raw  # the terminal was given back
    assert not op.closed


async def test_a_banned_key_is_refused_at_login_and_the_ban_survives_a_restart(make_server):
    server, op = await ops_server(make_server)
    bob_key = new_key()
    bob = await player(server, "bob", bob_key)
    await bob.wait_for_text("you are bob")
    await operator_command(op, "ban bob", "banned key")
    await bob.wait_closed()
    assert "banned" in bob.stderr.decode()
    with pytest.raises(asyncssh.DisconnectError, match="this key is banned"):
        await player(server, "bob", bob_key)
    saved = json.loads((server.config.data_dir / BANS_FILE).read_text())
    assert fingerprint(bob_key) in saved["keys"]

    await server.stop()
    again = await make_server()
    with pytest.raises(asyncssh.DisconnectError, match="this key is banned"):
        await player(again, "bob", bob_key)
    carol = await player(again, "carol", new_key())  # everyone else still gets in
    await carol.wait_for_text("you are carol")


async def test_a_banned_address_is_refused_before_login(make_server):
    server, op = await ops_server(make_server)
    path = socket_path(server.config.data_dir)
    ok, text = await asyncio.to_thread(send, path, ["ban", "127.0.0.0/8"])
    assert ok and text == "banned address 127.0.0.0/8; closed 1 session", text
    await op.wait_closed()  # every test client comes from 127.0.0.1
    assert "banned" in op.stderr.decode()
    with pytest.raises(asyncssh.DisconnectError, match="address is banned"):
        await player(server, "bob", new_key())
    with pytest.raises(asyncssh.DisconnectError, match="address is banned"):
        await player(server, "guest")  # no key: refused before any login method
    ok, text = await asyncio.to_thread(send, path, ["unban", "127.0.0.1/8"])
    assert ok, text
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("you are bob")


async def test_a_closed_table_takes_no_moves_and_moves_to_the_finished_list(make_server):
    server, op = await ops_server(make_server)
    ann = await player(server, "ann", new_key())
    await create_table(ann)
    await operator_command(op, "close 1", "table 1 closed")
    await ann.wait_for_text("This table was closed by an operator: no more moves")
    assert "play" not in ann.screen_text().split("This table was closed")[1]  # no choices offered
    with pytest.raises(IllegalAction, match="this table was closed: closed by an operator"):
        server.lobby.table("1").act(
            next(s.identity for s in server.all_sessions() if s.name == "ann"), "0"
        )
    assert server.lobby.view()["tables"] == []
    assert [t["id"] for t in server.lobby.view()["finished"]] == ["1"]


async def test_a_notice_shows_in_every_lobby(make_server):
    server, op = await ops_server(make_server)
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    await operator_command(op, "notice restart at 20:00 UTC", "notice: restart at 20:00 UTC")
    for client in (op, ann):
        await client.wait_for_text("Notice: restart at 20:00 UTC")
    late = await player(server, "late", new_key())
    await late.wait_for_text("Notice: restart at 20:00 UTC")
    await operator_command(op, "notice", "notice cleared")
    await ann.wait_until(lambda: "Notice" not in ann.screen_text(), 5, "the notice gone")


async def test_a_non_operator_can_do_none_of_it(make_server):
    server, op = await ops_server(make_server)
    bob = await player(server, "bob", new_key())
    await create_table(bob)
    bob.send("\x1b")  # back to the lobby, keeping the seat
    await bob.wait_for_text("you are bob")
    bob.send("o")
    await bob.wait_for_text("only operators may do that on this server")
    assert "Operator" not in bob.screen_text()
    # Nor by calling what the operator key calls: the server checks the key, not the screen.
    session = next(
        iter(server.sessions[next(i for i in server.sessions if i != fingerprint_of(server, op))])
    )
    for command in (
        ["delete", "1"],
        ["kick", "olga"],
        ["ban", "olga"],
        ["notice", "hi"],
        ["close", "1"],
    ):
        assert server.run_operator_command(session, command) == (
            False,
            "you are not an operator on this server",
        )
    assert "1" in server.lobby.tables and server.lobby.notice == "" and not server.bans.keys
    assert not op.closed


def fingerprint_of(server, client: ScreenClient) -> str:
    """The identity of the (only) session whose name is the client's (olga)."""
    return next(s.identity for s in server.all_sessions() if s.name == "olga")


async def test_errors_say_what_to_type(make_server):
    _server, op = await ops_server(make_server)
    await operator_command(op, "delete 99", "there is no table 99")
    await operator_command(op, "kick nobody", "no session 'nobody'")
    await operator_command(op, "frobnicate", "no command 'frobnicate'")
    await operator_command(op, "import x", "import runs on the host")
    await operator_command(op, "sessions", "olga")


async def test_harena_admin_reaches_the_running_server_through_a_private_socket(make_server):
    server, _op = await ops_server(make_server)
    ann = await player(server, "ann", new_key())
    await create_table(ann)
    path = socket_path(server.config.data_dir)
    assert path.stat().st_mode & 0o777 == 0o600
    proc = await asyncio.create_subprocess_exec(
        "harena",
        "admin",
        "--data",
        str(server.config.data_dir),
        "sessions",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, err
    assert "olga" in out.decode() and "ann" in out.decode() and "table 1" in out.decode()
    ok, text = await asyncio.to_thread(send, path, ["delete", "1"])
    assert ok and "deleted" in text
    await ann.wait_for_text("table 1 was deleted")
    ok, text = await asyncio.to_thread(send, path, ["delete", "1"])
    assert not ok and text == "there is no table 1"
    await server.stop()
    assert not path.exists() and not running(path)


async def test_a_probe_of_the_admin_socket_is_not_logged_and_a_huge_request_is_refused(
    make_server, caplog
):
    """`running` (harena admin finding a server, a second server checking the folder) connects
    and closes without a request: nothing to answer, nothing for the operator's log. A request
    past the cap is still answered as a bad one."""
    from harena.server.operations.admin_socket import MAX_REQUEST

    server, _op = await ops_server(make_server)
    path = socket_path(server.config.data_dir)
    with caplog.at_level(logging.INFO, logger="harena.server.operations.admin_socket"):
        caplog.clear()  # (the server's start, logged or not as other tests left the levels)
        for _ in range(3):
            assert await asyncio.to_thread(running, path)
        await asyncio.sleep(0.2)  # the server has handled the probes
    assert [r.getMessage() for r in caplog.records if r.name.endswith("admin_socket")] == []
    ok, text = await asyncio.to_thread(send, path, ["notice", "x" * (MAX_REQUEST + 1)])
    assert not ok and text.startswith("bad request")


async def test_a_second_server_on_the_same_data_refuses_to_start(make_server):
    from harena.server.operations.admin_socket import AdminSocketError

    first = await make_server()
    first.lobby.create_table("key-a", "ann", "highcard", 2)
    log_file = first.config.data_dir / "tables" / "1" / "log"
    with open(log_file, "ab") as f:
        f.write(b"\x00\x00\x01")  # as if the first server were half-way through a record
    size = log_file.stat().st_size
    with pytest.raises(AdminSocketError, match="another harena server is running"):
        await make_server()
    assert log_file.stat().st_size == size  # the second one never opened (or cut) the logs


async def test_a_tables_creator_removes_a_player_before_the_start(make_server):
    server = await make_server()
    ann = await player(server, "ann", new_key())
    ann.send("n")
    await ann.wait_for_text("New table")
    ann.send("\x1b[C")
    await ann.wait_for_text("High Card")
    ann.send("\x1b[B\x1b[C")  # players: 3
    await ann.wait_for_text("3")
    ann.send("\r")
    await ann.wait_for_text("Table 1")
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await bob.wait_for_text("Table 1")
    bob.send("\x1b")
    await bob.wait_for_text("you are bob")
    await bob.wait_quiet()
    bob.send("x")  # not bob's table: refused
    await bob.wait_for_text("only the table's creator may remove a player")
    ann.send("\x1b")
    await ann.wait_for_text("you are ann")
    ann.send("x")
    await ann.wait_for_text("Remove whom from table 1?")
    ann.send("1")  # bob, the one other player, listed first
    await ann.wait_for_text("bob removed from table 1")
    assert [s.name for s in server.lobby.table("1").seats] == ["ann", "", ""]


async def test_operators_get_in_on_a_closed_server_without_being_on_its_allow_list(
    make_server, tmp_path
):
    op_key, ann_key = new_key(), new_key()
    allow = tmp_path / "players"
    allow.write_bytes(ann_key.export_public_key())
    server = await make_server(operators=frozenset({fingerprint(op_key)}), allow_file=allow)
    op = await player(server, "olga", op_key)
    await op.wait_for_text("you are olga")
    ann = await player(server, "ann", ann_key)
    await ann.wait_for_text("you are ann")
    with pytest.raises(asyncssh.PermissionDenied):
        await player(server, "eve", new_key())


async def test_a_player_reading_the_help_when_the_table_is_deleted_lands_in_the_lobby_after(
    make_server,
):
    server, _op = await ops_server(make_server)
    ann = await player(server, "ann", new_key())
    await create_table(ann)
    ann.send("?")
    await ann.wait_for_text("Keys: table")
    await asyncio.to_thread(send, socket_path(server.config.data_dir), ["delete", "1"])
    await ann.wait_quiet()
    ann.send("\x1b")  # close the help
    await ann.wait_for_text("table 1 was deleted by an operator")
    assert "you are ann" in ann.screen_text()


async def test_banning_a_guest_bans_its_address_for_it_has_no_key(make_server):
    server, _op = await ops_server(make_server)
    gus = await player(server, "gus")
    await gus.wait_for_text("you are gus (guest)")
    ok, text = await asyncio.to_thread(send, socket_path(server.config.data_dir), ["ban", "gus"])
    assert ok and text == "banned address 127.0.0.1/32; closed 2 sessions", (
        text
    )  # olga is on 127.0.0.1 too
    await gus.wait_closed()
    assert server.bans.address_banned("127.0.0.1") and not server.bans.keys
