"""`ssh host COMMAND` over real SSH (core/commands.py, server/service/command_replies.py): `status` and
`ratings` print and exit, `table N` and `play GAME` open the TUI there, anything else is
refused with the list of what is accepted. Every command the server tells a player to type
names the server as they reached it (or as `--public-address` says), and works as printed."""

from __future__ import annotations

import re

from harena.server.service.command_replies import PLAY_TABLES_PER_KEY, rename
from harena.server.transport.hostkey import fingerprint
from harena.server.transport.ssh_address import SshAddress
from tests.server.players import new_key, player
from tests.sshscreen import ScreenClient

TYPED = re.compile(r"ssh (-t )?-p (\d+) (\S+) (table \d+|play [a-z]+|status)")
"""A command line as the server prints it for the test server (never on port 22)."""


async def type_it(line: str, key, name: str = "ann") -> ScreenClient:
    """Run the command `line` shows, as a player who copies it: its host, port and words."""
    typed = TYPED.search(line)
    assert typed is not None, line
    terminal, port, host, command = typed.groups()
    return await ScreenClient.connect(
        int(port),
        host,
        username=name,
        agent_path=None,
        client_keys=[key],
        command=command,
        **({} if terminal else {"term_type": None}),
    )


async def run(server, key, command, **options):
    """Run `command` without a PTY (as `ssh host status` does); (exit status, stdout, stderr)."""
    client = await player(server, "ann", key, term_type=None, command=command, **options)
    await client.wait_closed()
    out = bytes(client.raw).decode()
    err = client.stderr.decode()
    return client.exit_status, out.replace(err, ""), err


async def test_status_prints_the_tables_waiting_for_you_and_exits(make_server):
    server = await make_server()
    key = new_key()
    ann = fingerprint(key)
    status, out, err = await run(server, key, "status")
    assert status == 0 and not err
    assert "No table is waiting for your decision." in out

    server.lobby.create_table(ann, "ann", "highcard", 2, bots=1)  # all play at once: ann too
    quiet = server.lobby.create_table(ann, "ann", "highcard", 2)  # waits for a second player
    status, out, err = await run(server, key, "status")
    assert status == 0 and not err
    assert "1 table waits for your decision:" in out
    assert (
        "#1" in out
        and "High Card with" in out
        and "High Card with random bot ·" in out
        and "waited now" in out
    )
    opens = f"Open the first: ssh -t -p {server.port} 127.0.0.1 table 1"
    assert opens in out
    assert f"#{quiet.id}" in out.split("Your other tables:")[1]
    assert "\x1b" not in out  # plain text: no TUI was started
    assert not server.sessions  # and nobody counts as online
    copied = await type_it(opens, key)  # the command printed is one that works
    await copied.wait_for_text("Table 1")
    await copied.wait_for_text("you: ann")


async def test_ratings_prints_every_games_leaderboard(make_server):
    server = await make_server()
    key, other = new_key(), new_key()
    lobby = server.lobby
    table = lobby.create_table(fingerprint(key), "ann", "highcard", 2)
    table.sit(fingerprint(other), "bob")
    while table.game.result() is None:
        seat = table.game.awaited()[0]
        table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[-1].id)
    status, out, err = await run(server, key, "ratings")
    assert status == 0 and not err
    assert "Carthage: rank, rating, games, player" in out
    assert "nobody is rated at this game yet" in out
    high = out.split("High Card:")[1]
    assert "ann (you)" in high and "bob" in high
    status, out, _ = await run(server, key, "ratings highcard")
    assert status == 0 and "Carthage" not in out and "ann (you)" in out


async def test_table_n_opens_that_table_your_seat_or_watching(make_server):
    server = await make_server()
    ann_key, bob_key = new_key(), new_key()
    server.lobby.create_table(fingerprint(ann_key), "ann", "highcard", 2, bots=1)
    ann = await player(server, "ann", ann_key, command="table 1")
    await ann.wait_for_text("Table 1")
    await ann.wait_for_text("you: ann")
    bob = await player(server, "bob", bob_key, command="table 1")
    await bob.wait_for_text("Table 1")
    await bob.wait_until(
        lambda: fingerprint(bob_key) in server.lobby.table("1").spectators, 5, "bob watching"
    )
    assert server.lobby.table("1").seat_of(fingerprint(bob_key)) is None


async def test_table_n_needs_a_terminal_and_an_existing_table(make_server):
    server = await make_server()
    key = new_key()
    server.lobby.create_table(fingerprint(key), "ann", "highcard", 2, bots=1)
    status, _, err = await run(server, key, "table 1")
    assert status == 1 and f"connect with ssh -t -p {server.port} 127.0.0.1 table 1" in err
    client = await player(server, "ann", key, command="table 99")
    await client.wait_closed()
    err = client.stderr.decode()
    assert client.exit_status == 1 and "there is no table 99" in err
    assert f"(ssh -p {server.port} 127.0.0.1 status lists yours)" in err
    listed = await type_it(err, key)
    await listed.wait_closed()
    assert (
        listed.exit_status == 0 and "1 table waits for your decision" in bytes(listed.raw).decode()
    )


async def test_play_game_sits_you_at_a_new_table_with_bots_and_is_capped_per_key(make_server):
    server = await make_server()
    key = new_key()
    ann = await player(server, "ann", key, command="play highcard")
    await ann.wait_for_text("Table 1")
    await ann.wait_for_text("you: ann")
    table = server.lobby.table("1")
    assert table.seat_of(fingerprint(key)) == 0
    assert [seat.bot is not None for seat in table.seats] == [False, True]
    await ann.close()
    for _ in range(PLAY_TABLES_PER_KEY - 1):
        server.lobby.create_table(fingerprint(key), "ann", "highcard", 2, bots=1)
    again = await player(server, "ann", key, command="play highcard")
    await again.wait_closed()
    assert again.exit_status == 1
    err = again.stderr.decode()
    assert f"you have {PLAY_TABLES_PER_KEY} tables in play already" in err
    assert f"open one with ssh -t -p {server.port} 127.0.0.1 table N" in err
    assert len(server.lobby.tables) == PLAY_TABLES_PER_KEY


async def test_anything_else_is_refused_with_the_list(make_server):
    server = await make_server()
    for command in (
        "status; cat /etc/passwd",
        "table 1 && id",
        "bash",
        "status\nstatus",
        "ratings " + "x" * 300,
    ):
        status, out, err = await run(server, new_key(), command)
        assert status == 1, command
        assert "Accepted commands:" in err and f"ssh -p {server.port} 127.0.0.1 play" in err
        assert "HOST" not in err, command
        assert "root:" not in out and "uid=" not in out
    client = await player(server, "ann", new_key(), command="rm -rf /")  # with a PTY too
    await client.wait_closed()
    assert client.exit_status == 1 and "unknown command `rm`" in client.stderr.decode()
    # lines end as a terminal needs
    assert f"\r\n  ssh -p {server.port} 127.0.0.1 table N" in client.stderr.decode()


async def test_the_commands_name_the_public_address_when_the_operator_gives_one(make_server):
    # Behind NAT or a container's mapped port, the socket's own address is not what players
    # type: `--public-address` is.
    server = await make_server(public_address=SshAddress("play.example.org", 2022))
    key = new_key()
    server.lobby.create_table(fingerprint(key), "ann", "highcard", 2, bots=1)
    status, out, _ = await run(server, key, "status")
    assert status == 0 and "Open the first: ssh -t -p 2022 play.example.org table 1" in out
    status, _, err = await run(server, key, "bash")
    assert status == 1 and "\n  ssh -p 2022 play.example.org status" in err
    bob = await player(server, "bob", new_key())  # in the lobby: its help lists them too
    await bob.wait_for_text("you are bob")
    bob.send("?")
    await bob.wait_for_text("Keys: lobby")
    bob.send("\x1b[F")  # End: the last lines of the help
    await bob.wait_for_text("-p 2022 play.example.org status")


async def test_a_player_registers_a_webhook_from_the_lobby_over_ssh(make_server):
    server = await make_server()
    assert server.notices.running and server.lobby.notice_channels == ("webhook",)
    key = new_key()
    ann = await player(server, "ann", key)
    await ann.wait_for_text("you are ann")
    ann.send("a")
    await ann.wait_for_text("Notices while you are away")
    assert "this server sends no e-mail" in ann.screen_text()
    ann.send("https://ntfy.sh/#ann\r")
    await ann.wait_for_text("Saved: webhook ntfy.sh")  # the save says what was kept
    settings = server.lobby.settings
    assert settings.get(fingerprint(key), "notice_webhook") == "https://ntfy.sh/#ann"


async def test_help_lists_every_command_and_says_whose_name_you_show(make_server):
    server = await make_server()
    status, out, err = await run(server, new_key(), "help")
    assert status == 0 and not err
    for usage in ("table N", "play ", "status", "ratings [GAME]", "rename NAME", "help"):
        assert f"ssh -p {server.port} 127.0.0.1 {usage}" in out, usage
    assert "Your name is your key's" in out


async def test_one_key_shows_one_name_whatever_user_name_it_connects_as(make_server):
    """Issue 36: the same key connecting as `root@` showed "you are root" in the lobby while
    its seat said ann. A key's name is the one it first chose, until `rename`."""
    server = await make_server()
    key = new_key()
    ann = await player(server, "ann", key)
    await ann.wait_for_text("you are ann")
    await ann.close()
    await ann.wait_closed()
    again = await player(server, "root", key)
    await again.wait_for_text("you are ann")
    assert "root" not in "\n".join(again.lines())
    other = await player(server, "ann", new_key())  # another key asking for ann
    await other.wait_for_text("you are ann~2")
    await again.close()
    await other.close()


async def test_rename_changes_the_name_between_games_and_never_to_anothers(make_server):
    server = await make_server()
    key, bob_key = new_key(), new_key()
    bob = await player(server, "bob", bob_key)
    await bob.wait_for_text("you are bob")
    await bob.close()
    await bob.wait_closed()
    status, out, err = await run(server, key, "rename Annia")
    assert status == 0 and not err and "Your name is now Annia" in out
    status, _, err = await run(server, key, "rename Bob")
    assert status == 1 and "another player is called Bob" in err
    table = server.lobby.create_table(fingerprint(key), "Annia", "highcard", 2)
    status, _, err = await run(server, key, "rename Ann")
    assert status == 1 and f"your seat at #{table.id} has your name" in err
    ann = await player(server, "root", key)  # back at the table it sits at
    await ann.wait_for_text("you: Annia")
    # (one more connection of this key would pass the per-key limit: asked directly)
    done, said = rename(server.lobby, fingerprint(key), "Ann", guest=False)
    assert not done and "close your harena sessions first" in said
    await ann.close()
