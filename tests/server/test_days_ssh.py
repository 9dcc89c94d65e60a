"""Play across days over real SSH: a decision that becomes yours rings the bell (a BEL byte in
the raw stream) and marks the table in the lobby; a clock that runs out makes the bot move,
the log says so, and the player takes the seat back; a review during play never sends another
seat's secret; ratings survive a restart; an idle table without a clock sends nothing."""

from __future__ import annotations

import asyncio
import re
import time

from harena.core.clocks import ClockPolicy
from harena.server.transport.hostkey import fingerprint
from tests.server.players import new_key, player

BEL = b"\x07"
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")  # OSC strings may end with BEL too


def bells(raw: bytes | bytearray) -> int:
    """The terminal bells in a raw stream: BEL bytes that do not end an OSC string."""
    return OSC.sub(b"", bytes(raw)).count(BEL)


async def in_the_lobby(server):
    """ann connected with a new key, her lobby drawn and quiet: (her client, her key)."""
    ann_key = new_key()
    ann = await player(server, "ann", ann_key)
    await ann.wait_for_text("lobby")
    await ann.wait_quiet(0.3)
    return ann, ann_key


async def test_a_decision_that_becomes_yours_rings_the_bell_and_marks_the_table(
    make_server,
) -> None:
    server = await make_server()
    ann, ann_key = await in_the_lobby(server)
    try:
        assert bells(ann.raw) == 0
        table = server.lobby.create_table("id-bob", "bob", "highcard", 2)
        table.sit(fingerprint(ann_key), "ann")  # the game starts: ann's decision
        await ann.wait_for_text("your move: #1 (y)")
        assert bells(ann.raw) == 1
        assert "YOU now" in ann.screen_text()
        ann.send("y")
        await ann.wait_for_text("Round 1: play a card face down")
        table.act("id-bob", table.game.prompts_for(0)[0].choices[0].id)  # bob is seat 0
        await ann.wait_quiet(0.3)
        assert bells(ann.raw) == 1  # still her same decision: no second bell
    finally:
        await ann.close()


def window_titles(raw: bytes | bytearray) -> list[str]:
    """The terminal window titles set in a raw stream (OSC 2), in order."""
    return [m.decode() for m in re.findall(rb"\x1b\]2;([^\x07\x1b]*)\x07", bytes(raw))]


async def test_the_window_title_says_whose_move_it_is_and_the_players_own_comes_back(
    make_server,
) -> None:
    # A player with harena in a background tab sees their move in the tab's title.
    server = await make_server()
    ann, ann_key = await in_the_lobby(server)
    try:
        assert bytes(ann.raw).startswith(b"\x1b[22;2t")  # the player's own title saved first
        assert window_titles(ann.raw) == ["harena"]
        table = server.lobby.create_table("id-bob", "bob", "highcard", 2)
        table.sit(fingerprint(ann_key), "ann")
        await ann.wait_for_text("your move: #1 (y)")
        await ann.wait_quiet(0.3)
        assert window_titles(ann.raw) == ["harena", f"harena · your move: #{table.id}"]
        ann.send("y")
        await ann.wait_for_text("Round 1: play a card face down")
        ann.send("1")
        await ann.wait_quiet(0.5)
        assert window_titles(ann.raw)[-1] == "harena"  # decided: nothing waits for her
        ann.send("\x1b[27u")  # Esc: the lobby
        await ann.wait_for_text("you are ann")
        ann.send("q")
        await ann.wait_for_text("Quit harena?")
        ann.send("y")
        await ann.wait_closed()
        assert b"\x1b[23;2t" in bytes(ann.raw)  # the player's own title back
    finally:
        await ann.close()


async def test_a_clock_that_runs_out_makes_the_bot_move_and_the_seat_is_taken_back(
    make_server,
) -> None:
    server = await make_server(bot_delay=0.05)
    ann_key, bob_key = new_key(), new_key()
    table = server.lobby.create_table(
        fingerprint(ann_key),
        "ann",
        "highcard",
        2,
        {"rounds": "3"},
        policy=ClockPolicy(per_decision=1.5),
    )
    table.sit(fingerprint(bob_key), "bob")
    ann = await player(server, "ann", ann_key)
    bob = await player(server, "bob", bob_key)
    try:
        await ann.wait_for_text("your time:")
        bob.send("1")  # bob plays in time; ann does not
        await ann.wait_for_text("ann ran out of time", timeout=6)
        await ann.wait_for_text("A bot plays for you (your time ran out)")
        await ann.wait_until(lambda: table.game.state.round == 2, 5, "the bot's card")
        assert table.seats[0].stand_in == "clock"
        ann.send("t")
        await ann.wait_for_text("ann takes their seat back")
        assert table.seats[0].stand_in is None
        assert table.game.state.round == 2 and table.game.state.played[0] is None
        ann.send("1")  # her own choice again
        await ann.wait_until(lambda: table.game.state.played[0] is not None, 5, "ann's card")
    finally:
        await ann.close()
        await bob.close()


async def test_a_review_during_play_never_sends_another_seats_secret(make_server) -> None:
    server = await make_server()
    ann_key, bob_key = new_key(), new_key()
    table = server.lobby.create_table(fingerprint(ann_key), "ann", "highcard", 2)
    table.sit(fingerprint(bob_key), "bob")
    table.act(fingerprint(bob_key), table.game.prompts_for(1)[0].choices[-1].id)
    table.act(fingerprint(ann_key), table.game.prompts_for(0)[0].choices[0].id)
    table.act(fingerprint(bob_key), table.game.prompts_for(1)[0].choices[0].id)  # bob's card hidden
    mine = set(table.game.log_for(0))
    secrets = {e.text for e in table.game.events if e.seats == (1,)} - mine
    hand = f"[{', '.join(map(str, table.game.state.hands[1]))}]"
    ann = await player(server, "ann", ann_key)
    try:
        await ann.wait_for_text("Table 1")
        ann.send("v")
        await ann.wait_for_text("review")
        for key in [
            "home",
            *["right"] * 4,
            "right_square_bracket",
            "left_square_bracket",
            "end",
            "tab",
        ]:
            ann.send(
                {
                    "home": "\x1b[H",
                    "end": "\x1b[F",
                    "right": "\x1b[C",
                    "right_square_bracket": "]",
                    "left_square_bracket": "[",
                    "tab": "\t",
                }[key]
            )
            await ann.wait_quiet(0.15)
        raw = bytes(ann.raw).decode("utf-8", "replace")
        assert secrets and not any(s in raw for s in secrets)
        assert hand not in raw
    finally:
        await ann.close()


async def test_ratings_survive_a_restart_and_show_in_the_online_list(make_server) -> None:
    server = await make_server(data="rated")
    ann_key, bob_key = new_key(), new_key()
    ann_id, bob_id = fingerprint(ann_key), fingerprint(bob_key)
    table = server.lobby.create_table(ann_id, "ann", "highcard", 2, {"rounds": "1"})
    table.sit(bob_id, "bob")
    table.act(ann_id, table.game.prompts_for(0)[0].choices[-1].id)
    table.act(bob_id, table.game.prompts_for(1)[0].choices[0].id)
    rating = server.lobby.ratings.of(ann_id, "highcard")
    assert rating is not None and rating.games == 1
    await server.stop()
    again = await make_server(data="rated")
    assert again.lobby.ratings.of(ann_id, "highcard").value == rating.value
    ann = await player(again, "ann", ann_key)
    try:
        await ann.wait_for_text(f"ann        H{round(rating.value)}")
    finally:
        await ann.close()


async def test_an_idle_table_without_a_clock_sends_nothing_and_one_with_a_clock_little(
    make_server,
) -> None:
    server = await make_server()
    ann_key, bob_key = new_key(), new_key()
    plain = server.lobby.create_table(fingerprint(ann_key), "ann", "highcard", 2)
    plain.sit("id-bob", "bob")
    ann = await player(server, "ann", ann_key)
    try:
        await ann.wait_for_text("Round 1")
        await ann.wait_quiet(0.5)
        before = ann.bytes_received
        await asyncio.sleep(2.0)
        assert ann.bytes_received == before
    finally:
        await ann.close()
    timed = server.lobby.create_table(
        fingerprint(bob_key), "bob", "highcard", 2, policy=ClockPolicy(per_decision=3600)
    )
    timed.sit("id-cat", "cat")
    bob = await player(server, "bob", bob_key)
    try:
        await bob.wait_for_text("(your time: 59m, cat: 59m)")
        await bob.wait_quiet(0.5)
        before, start = bob.bytes_received, time.monotonic()
        await asyncio.sleep(2.0)
        # the countdown ticks every 10 s and changes once a minute at this length: nothing yet
        assert bob.bytes_received == before, time.monotonic() - start
    finally:
        await bob.close()


async def test_the_server_setting_decides_whether_games_with_bots_are_rated(tmp_path) -> None:
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    for counted in (False, True):
        server = HarenaServer(
            ServerConfig(
                port=0,
                keys_dir=tmp_path / "keys",
                data_dir=tmp_path / f"d{counted}",
                rate_bot_games=counted,
            )
        )
        table = server.lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"}, bots=1)
        table.play_bot(1)
        table.act("key-a", table.game.prompts_for(0)[0].choices[0].id)
        assert table.status == "over"
        assert (server.lobby.ratings.of("key-a", "highcard") is not None) is counted
        server.lobby.close()
