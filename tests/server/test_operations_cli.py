"""The host-side commands (server/commands/operations_cli.py): health, export, import, and a real
`harena serve --config` process with JSON logs."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path

import asyncssh

from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.server.commands.cli import main
from harena.server.operations.admin_socket import send, socket_path
from harena.server.operations.operators import OperatorsError, load_operators
from harena.server.transport.hostkey import fingerprint
from tests.server.players import new_key, player


async def test_health_sees_the_ssh_banner_of_a_running_server(make_server, capsys):
    server = await make_server()
    assert await asyncio.to_thread(main, ["health", "--port", str(server.port)]) == 0
    assert "healthy: SSH-2.0-" in capsys.readouterr().out


def test_health_fails_on_a_closed_port_and_on_something_that_is_not_ssh(capsys):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, not listening: connections are refused
        assert main(["health", "--port", str(port), "--timeout", "1"]) == 1
    assert "unhealthy" in capsys.readouterr().err
    with socket.socket() as talker:
        talker.bind(("127.0.0.1", 0))
        talker.listen()
        port = talker.getsockname()[1]

        def answer() -> None:
            conn, _ = talker.accept()
            conn.sendall(b"HTTP/1.0 200 OK\r\n\r\n")
            conn.close()

        import threading

        thread = threading.Thread(target=answer)
        thread.start()
        assert main(["health", "--port", str(port), "--timeout", "2"]) == 1
        thread.join()
    assert "sent no SSH banner" in capsys.readouterr().err


def test_export_then_import_on_another_data_folder_restores_the_same_game(tmp_path, capsys):
    lobby = Lobby(Store(tmp_path / "a"))
    table = lobby.create_table("key-a", "ann", "carthage", 2, bots=1)
    for _ in range(30):
        seat = table.game.awaited()[0]
        if table.seats[seat].bot:
            table.play_bot(seat)
        else:
            table.act("key-a", table.game.prompts_for(seat)[0].choices[-1].id)
    lobby.close()
    out = tmp_path / "t.harena"
    assert main(["export", table.id, "--data", str(tmp_path / "a"), "-o", str(out)]) == 0
    assert main(["import", str(out), "--data", str(tmp_path / "b")]) == 0
    assert "imported as table 1 (Carthage, playing)" in capsys.readouterr().out
    restored = Lobby.open(Store(tmp_path / "b")).table("1")
    assert restored.game.snapshot() == table.game.snapshot()
    assert main(["export", "99", "--data", str(tmp_path / "a"), "-o", str(out)]) == 1
    assert "there is no table 99, live or archived" in capsys.readouterr().err


async def test_import_goes_through_the_running_server_which_lists_the_table_at_once(
    make_server, tmp_path, capsys
):
    source = Lobby(Store(tmp_path / "src"))
    table = source.create_table("key-a", "ann", "highcard", 2)
    source.close()
    out = tmp_path / "t.harena"
    assert main(["export", table.id, "--data", str(tmp_path / "src"), "-o", str(out)]) == 0
    server = await make_server()
    bob = await player(server, "bob", new_key())
    await bob.wait_for_text("No tables yet")
    assert (
        await asyncio.to_thread(main, ["import", str(out), "--data", str(server.config.data_dir)])
        == 0
    )
    assert "imported as table 1 (High Card, waiting)" in capsys.readouterr().out
    await bob.wait_for_text("High Card")
    assert server.lobby.table("1").seats[0].name == "ann"


def test_operators_come_from_an_authorized_keys_file_and_the_config_list(tmp_path):
    a, b, c = new_key(), new_key(), new_key()
    keys_file = tmp_path / "operators"
    keys_file.write_text(
        f"# the operators\n{a.export_public_key().decode()}"
        f'from="10.0.0.0/8" {b.export_public_key().decode()}\n'
    )
    found = load_operators(keys_file, [fingerprint(c)])
    assert found == {fingerprint(a), fingerprint(b), fingerprint(c)}
    keys_file.write_text("ssh-ed25519 not-base64\n")
    try:
        load_operators(keys_file, [])
    except OperatorsError as error:
        assert f"{keys_file}:1: not a public key" in str(error)
    else:
        raise AssertionError("a bad key was accepted")


async def test_a_real_serve_process_reads_its_config_and_logs_json_lines(tmp_path):
    key = new_key()
    config = tmp_path / "harena.toml"
    config.write_text(
        f'port = 0\nkeys = "{tmp_path / "keys"}"\ndata = "{tmp_path / "data"}"\n'
        f'log-format = "json"\noperator-keys = ["{fingerprint(key)}"]\n'
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "harena.server.commands.cli",
        "serve",
        "--config",
        str(config),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        port = 0
        while not port:
            line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
            assert line, "serve ended before listening"
            if "listening on" in line:
                port = int(line.rsplit(":", 1)[1])
        conn = await asyncssh.connect(
            "127.0.0.1", port, username="olga", client_keys=[key], known_hosts=None, agent_path=None
        )
        conn.close()
        await conn.wait_closed()
        events: dict[str, dict] = {}
        while not {"connect", "login", "disconnect"} <= set(events):
            line = await asyncio.wait_for(proc.stderr.readline(), 20)
            assert line, "serve ended"
            entry = json.loads(line)
            events.setdefault(entry.get("event", ""), entry)
        assert (
            events["login"]["key"] == fingerprint(key) and events["login"]["address"] == "127.0.0.1"
        )
        assert "(operator)" in events["login"]["message"]
        assert events["disconnect"]["key"] == fingerprint(key)
    finally:
        proc.terminate()
        await proc.wait()
    assert not (Path(tmp_path) / "data" / "admin.sock").exists()  # removed on a clean stop


def test_admin_without_a_running_server_says_so(tmp_path, capsys):
    assert main(["admin", "--data", str(tmp_path), "tables"]) == 1
    assert f"no server is running on {tmp_path}" in capsys.readouterr().err


async def test_admin_finds_the_data_folder_in_the_config_file(make_server, tmp_path, capsys):
    server = await make_server()
    config = tmp_path / "harena.toml"
    config.write_text(f'data = "{server.config.data_dir}"\n')
    assert (
        await asyncio.to_thread(main, ["admin", "--config", str(config), "notice", "hello", "all"])
        == 0
    )
    assert capsys.readouterr().out == "notice: hello all\n"
    assert server.lobby.notice == "hello all"


async def test_a_table_untouched_for_the_archive_time_is_archived_when_the_server_starts(
    make_server, tmp_path
):
    import os
    import time

    data = tmp_path / "data"
    lobby = Lobby(Store(data))
    old = lobby.create_table("key-a", "ann", "highcard", 2)
    recent = lobby.create_table("key-b", "bob", "highcard", 2)
    lobby.close()
    long_ago = time.time() - 31 * 86400
    os.utime(data / "tables" / old.id / "log", (long_ago, long_ago))
    server = await make_server()  # the default: 30 days
    assert list(server.lobby.tables) == [recent.id]
    assert (data / "archive" / old.id / "log").exists()
    ok, text = await asyncio.to_thread(send, socket_path(data), ["tables"])
    assert ok and text.startswith(f"{recent.id:<5} highcard   waiting  touched")
