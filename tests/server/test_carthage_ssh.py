"""Carthage over SSH end to end: real SSH clients (asyncssh) whose screens are read through
pyte. Tables are made through the lobby's public API; everything a player does here, they do
by keys on the screen they see."""

from __future__ import annotations

import asyncio

import pytest

from harena.server.transport.hostkey import fingerprint
from tests.server.players import has_choices, new_key, play_by_screen, player
from tests.sshscreen import ScreenClient


def arena(client: ScreenClient) -> str:
    """The arena at 80x24: the left 38 columns of the first nine body rows."""
    return "\n".join(line[:38] for line in client.lines()[1:10])


def hand_panel(client: ScreenClient) -> str:
    """The hand column at 80x24: the five rows under its title, right of the Action row."""
    lines = client.lines()
    title = next((y for y, line in enumerate(lines) if "Hand: " in line), None)
    if title is None:
        return ""
    column = lines[title].index("Hand: ") - 1
    return "\n".join(line[column:] for line in lines[title + 1 : title + 6])


@pytest.mark.parametrize("seed", [None, 12])  # 12: round 1's Theater card asks a decision first
async def test_two_players_see_their_own_hands_and_each_others_moves(make_server, seed):
    server = await make_server()
    if seed is not None:
        server.lobby._new_seed = lambda: seed
    ann_key, bob_key = new_key(), new_key()
    table = server.lobby.create_table(
        fingerprint(ann_key), "ann", "carthage", 2, {"gladiators": "by_seat"}
    )
    table.sit(fingerprint(bob_key), "bob")
    ann = await player(server, "ann", ann_key)
    bob = await player(server, "bob", bob_key)
    await ann.wait_for_text("you: B Blue Retiarius (ann)")
    await bob.wait_for_text("you: R Red Dimachaerus (bob)")
    # Placement: whoever is asked presses Enter on the hex the cursor starts on.
    for _ in range(2):
        seat = table.game.view(None)["waiting"][0][0]
        first = (ann, bob)[seat]
        await first.wait_for_text("Place your gladiator")
        first.send("\r")
        # The gladiator appears on the other player's arena.
        other, letter = (bob, ann)[seat], "BR"[seat]
        await other.wait_until(
            lambda x=letter, o=other: x in arena(o), 5, "the entry on the other screen"
        )
    # The round's Theater card may ask for a decision before the hands are dealt (Turning
    # Moment: pass the Starting Player token): whoever is asked takes the first choice.
    for _ in range(5):
        if all(table.game.view(seat)["board"]["hand"] for seat in (0, 1)):
            break
        seat = table.game.view(None)["waiting"][0][0]
        asked = (ann, bob)[seat]
        await asked.wait_until(lambda c=asked: has_choices(c), 5, "the Theater decision")
        decision = table.game.view(seat)["decision"]
        asked.send("1")
        for _ in range(100):
            if table.game.view(seat)["decision"] != decision:
                break
            await asyncio.sleep(0.02)
    game = table.game.view(0)["board"], table.game.view(1)["board"]
    for client, seat in ((ann, 0), (bob, 1)):
        await client.wait_until(lambda c=client: "(no cards" not in hand_panel(c), 5, "a hand")
        mine = {card for _, card in game[seat]["hand"]}
        theirs = {card for _, card in game[1 - seat]["hand"]} - mine
        class_cards = {"trident-thrust": "Trident Thrust", "twin-cut": "Twin Cut"}
        for card in theirs & class_cards.keys():
            assert class_cards[card] not in hand_panel(client)
        for card in mine & class_cards.keys():
            assert class_cards[card] in hand_panel(client)
    # A card played by one appears on the other's screen.
    mover, watcher, who = (ann, bob, "B ann ") if has_choices(ann) else (bob, ann, "R bob ")
    await mover.wait_until(lambda: has_choices(mover), 5, "choices")
    mover.send("1")

    def mover_line() -> str:
        return next((line for line in watcher.lines() if line[39:].startswith(who)), "")

    # The other screen shows the card leave the mover's hand, without a key press.
    await watcher.wait_until(
        lambda: " H4 " in mover_line(), 5, "the card played on the other screen"
    )


def carthage_key(client: ScreenClient) -> str:
    """Enter on the hex the cursor offers, else the first choice of every list."""
    return "\r" if "Place your gladiator" in client.screen_text() else "1"


async def test_a_whole_game_against_a_bot_is_played_through_the_ssh_screen(make_server):
    server = await make_server()
    key = new_key()
    table = server.lobby.create_table(
        fingerprint(key), "ann", "carthage", 2, {"sudden_death": "10"}, bots=1
    )
    ann = await player(server, "ann", key)
    await ann.wait_for_text("Carthage")
    await play_by_screen(ann, carthage_key)
    await ann.wait_for_text("Winner:")
    assert table.game.result() is not None
    assert "last gladiator standing" in ann.screen_text()
    ann.send("\r")
    await ann.wait_for_text("Tables")
