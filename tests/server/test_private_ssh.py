"""Private tables over real SSH with several keys (issue 41): a stranger's lobby, `status`,
`table N`, watching and `join` attempts never reveal one (their screens and command outputs
are compared byte for byte with a server that has no such table); an invitee gets in by name
and by code; a revoked code is refused exactly as a wrong one."""

from __future__ import annotations

from harena.core.privacy import Privacy, new_code
from harena.server.service.command_replies import WRONG_CODE
from harena.server.transport.hostkey import fingerprint
from harena.server.transport.ssh_address import SshAddress
from tests.server.players import new_key, player

ADDRESS = SshAddress("games.example.org", 2222)  # both servers print the same commands


async def run(server, key, command: str, *, terminal: bool = False, name: str = "cat"):
    """(exit status, every byte received, stderr) of `ssh [-t] host COMMAND`."""
    options = {} if terminal else {"term_type": None}
    client = await player(server, name, key, command=command, **options)
    await client.wait_closed()
    await client.close()
    return client.exit_status, bytes(client.raw), bytes(client.stderr)


async def lobby_screens(server, key, name: str = "cat") -> list[str]:
    """The stranger's lobby as it opens, then after each of the keys that watch (`w`), sit
    (Enter), invite (`i`) and list the finished tables (`f`)."""
    client = await player(server, name, key)
    await client.wait_for_text("Online (1)")
    await client.wait_quiet()
    screens = [client.screen_text()]
    for key_pressed in ("j", "w", "\r", "i", "f", "j", "w"):
        client.send(key_pressed)
        await client.wait_quiet(0.15)
        screens.append(client.screen_text())
    await client.close()
    return screens


def public_tables(server) -> None:
    """The same two public tables on any server: dan's, with a bot and a free seat."""
    for _ in range(2):
        server.lobby.create_table("dan-key", "dan", "highcard", 3, bots=1)


async def test_a_stranger_sees_exactly_what_a_server_without_the_private_table_shows(make_server):
    plain = await make_server(data="plain", public_address=ADDRESS)
    hidden = await make_server(data="hidden", public_address=ADDRESS)
    ann, cat = new_key(), new_key()
    for server in (plain, hidden):
        server.lobby._new_seed = lambda: 7  # the same deals: a table watched looks the same
    public_tables(plain)
    # On the other server ann's private table is made between dan's two: no number is taken.
    hidden.lobby.create_table("dan-key", "dan", "highcard", 3, bots=1)
    secret = hidden.lobby.create_table(
        fingerprint(ann), "ann", "highcard", 3, bots=1, privacy=Privacy()
    )
    hidden.lobby.create_table("dan-key", "dan", "highcard", 3, bots=1)
    secret.invite(fingerprint(ann), "bob-key", "bob")
    code = secret.add_code(fingerprint(ann))
    revoked = secret.add_code(fingerprint(ann))
    secret.revoke_codes(fingerprint(ann))
    code = secret.add_code(fingerprint(ann))
    assert sorted(t.id for t in hidden.lobby.tables.values() if t.privacy is None) == ["1", "2"]

    seen, shown = await lobby_screens(hidden, cat), await lobby_screens(plain, cat)
    assert seen == shown
    assert "#1" in seen[0] and "#2" in seen[0] and "#3" not in seen[0]
    for command, terminal in [
        ("status", False),
        ("help", False),
        (f"table {secret.id}", True),  # open it, or watch it
        ("table 3", True),
        (f"join {new_code()}", True),  # a wrong code ...
        (f"join {revoked}", True),  # ... and a revoked one: the same answer
    ]:
        seen = await run(hidden, cat, command, terminal=terminal)
        assert seen == await run(plain, cat, command, terminal=terminal), command
    assert seen[0] != 0 and seen[2].decode().strip() == WRONG_CODE
    assert code not in str(hidden.lobby.view())  # (the public view has no codes at all)


async def test_an_invitee_gets_in_by_name_and_a_code_holder_by_the_code(make_server):
    server = await make_server(public_address=ADDRESS)
    ann, bob, eve = new_key(), new_key(), new_key()
    table = server.lobby.create_table(
        fingerprint(ann), "ann", "highcard", 3, privacy=Privacy("invited")
    )
    table.invite(fingerprint(ann), fingerprint(bob), "bob")

    _, out, _ = await run(server, bob, "status", name="bob")
    assert out.decode().splitlines()[-2:] == [
        "You are invited to:",
        f"  #{table.id} High Card with ann · ssh -t -p 2222 games.example.org table {table.id}",
    ]

    bob_in = await player(server, "bob", bob)
    await bob_in.wait_for_text(f"#{table.id}")
    await bob_in.wait_for_text("invited")
    bob_in.send("\r")  # Enter: sits
    await bob_in.wait_for_text("you: bob")
    assert table.seat_of(fingerprint(bob)) == 1
    await bob_in.close()

    code = table.add_code(fingerprint(ann))
    eve_in = await player(server, "eve", eve, command=f"join {code.upper()}")
    await eve_in.wait_for_text("you: eve")
    assert table.seat_of(fingerprint(eve)) == 2 and table.status == "playing"
    await eve_in.close()

    table.revoke_codes(fingerprint(ann))
    late = new_key()
    status, _, err = await run(server, late, f"join {code}", terminal=True, name="zed")
    assert status != 0 and err.decode().strip() == WRONG_CODE
    assert table.seat_of(fingerprint(late)) is None


async def test_nobody_watches_a_table_whose_creator_chose_so(make_server):
    server = await make_server(public_address=ADDRESS)
    ann, bob = new_key(), new_key()
    table = server.lobby.create_table(
        fingerprint(ann), "ann", "highcard", 2, bots=1, privacy=Privacy("nobody")
    )
    table.invite(fingerprint(ann), fingerprint(bob), "bob")
    bob_in = await player(server, "bob", bob, command=f"table {table.id}")
    await bob_in.wait_for_text("nobody watches this table")
    assert fingerprint(bob) not in table.spectators
    await bob_in.close()
