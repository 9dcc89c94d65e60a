"""The Carthage table screen with the expansions on, at 80x24: each player's Equipment marks
(ready or face down), your own Equipment with its text, and an Arena Beast on the arena and in
the players panel."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.core.table import Table
from tests.tui.carthage.helpers import board, press_choice, until_prompt
from tests.tui.harness import screen_text, session, until


def seated_in_the_arena(table: Table) -> None:
    """Bots and alice play setup (placing gladiators) until the first card is to be played."""
    for _ in range(50):
        if table.game.state.phase.value == "action":
            return
        for seat in table.bots_to_move():
            table.play_bot(seat)
        prompts = table.view_for("id-alice")["game"]["prompts"]
        if prompts:
            table.act("id-alice", prompts[0]["choices"][0][0])
    raise AssertionError("setup did not finish")


async def test_equipment_and_a_beast_are_on_the_board_at_80x24() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    options = {"gladiators": "by_seat", "equipment": "on", "beasts": "on"}
    table = lobby.create_table("id-alice", "alice", "carthage", 3, options, bots=2)
    seated_in_the_arena(table)
    game = table.game
    s = game.state
    s.players[0].spent.append("fishermans-net")  # alice (Blue) has used one Equipment card
    s.players[0].hand.clear()  # an empty hand shows all her Equipment below it
    lion = s.players[2]
    lion.alive, lion.beast, lion.armor = False, "lion", 8
    lion.at = next(
        h
        for h in game.arena.hexes
        if game.board.occupant(h) is None
        and not game.board.is_pillar(h)
        and all(abs(h.q - p.at.q) + abs(h.r - p.at.r) > 2 for p in s.players[:2])
    )
    s.eliminated.append(2)
    game.state_changed()
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        await until(lambda: "BEAST" in screen_text(app))
        text = screen_text(app)
        assert "♞" in board(app).query_one("#arena").text  # the Beast on the arena
        assert "▣□▣" in text  # alice's Equipment: two ready, one face down
        hand = board(app).query_one("#hand").text
        assert "▣ Weighted Bola" in hand and "□ Fisherman's Net" in hand


async def test_your_equipment_text_shows_on_a_wide_terminal() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    options = {"gladiators": "by_seat", "equipment": "on"}
    table = lobby.create_table("id-alice", "alice", "carthage", 2, options, bots=1)
    seated_in_the_arena(table)
    table.game.state.players[0].spent.append("fishermans-net")
    table.game.state.players[0].hand.clear()
    table.game.state_changed()
    async with session(lobby, "id-alice", "alice", size=(140, 44)) as (app, _pilot):
        await until(lambda: "Fisherman's Net" in board(app).query_one("#hand").text)
        hand = board(app).query_one("#hand").text
        assert "Damage 2 (Range +2), Strike Bonus" in hand  # Weighted Bola's text
        assert "face down, Ready 3: Damage 3 (Range +2)" in hand


async def test_an_eliminated_player_chooses_a_beast_and_places_it_by_keys() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    options = {"gladiators": "by_seat", "beasts": "on"}
    table = lobby.create_table("id-alice", "alice", "carthage", 3, options, bots=2)
    seated_in_the_arena(table)
    game = table.game
    me = game.state.players[0]
    me.alive, me.at, me.armor = False, None, 0  # alice (Blue) has just fallen
    game.state.eliminated.append(0)
    game.state.beast_offers.append(0)
    game.state_changed()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await until_prompt(app, "choose_beast")
        assert "Return to the arena as an Arena Beast?" in screen_text(app)
        await press_choice(pilot, app, "beast:wolf")
        await until_prompt(app, "place_beast")
        await pilot.press("enter")  # the cursor starts on a hex the Wolf may enter
        await until(lambda: "BEAST" in screen_text(app))
        assert game.state.players[0].beast == "wolf" and game.state.players[0].at is not None
        assert "♞" in board(app).query_one("#arena").text
