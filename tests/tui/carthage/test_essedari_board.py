"""The Carthage board in solo and co-op (issue 14): the Essedari Maximo's chariot on the arena,
his Armor, the round counter (x of 8), and in co-op his telegraphed next Action, at 80x24 and
larger, in Unicode and ASCII."""

from __future__ import annotations

import pytest

from harena.core.lobby import Lobby
from tests.tui.carthage.helpers import board, move_cursor, until_prompt
from tests.tui.harness import screen_text, session, until


async def test_solo_shows_his_chariot_armor_and_round_but_not_his_next_action() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table(
        "id-alice", "alice", "carthage", 1, {"essedari": "solo", "gladiators": "by_seat"}
    )
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await until_prompt(app, "place_gladiator")
        await pilot.press("enter")
        await until_prompt(app, "play_card")
        ess = table.view_for("id-alice")["game"]["board"]["essedari"]
        await until(
            lambda: f"Round 1 of 8 · Ж Armor {ess['armor']}/15 · act 1/5" in screen_text(app)
        )
        text = screen_text(app)
        assert "ЖЖ" in text  # his chariot on the arena
        assert "Next:" not in text and "Last:" in text  # solo: only what he already did
        # the cursor on his hex names him
        await move_cursor(pilot, app, tuple(ess["at"]))
        await until(lambda: "the Essedari Maximo, Armor" in screen_text(app))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_coop_telegraphs_his_next_action(size: tuple[int, int]) -> None:
    lobby = Lobby(new_seed=lambda: 7)
    table = lobby.create_table(
        "id-alice", "alice", "carthage", 2, {"essedari": "coop", "gladiators": "by_seat"}, bots=1
    )
    async with session(lobby, "id-alice", "alice", size=size, unicode=False) as (app, pilot):
        for _ in range(
            4
        ):  # alice places her gladiator; the bot places its own (no bot runner here)
            for seat in table.bots_to_move():
                table.play_bot(seat)
            prompts = table.view_for("id-alice")["game"]["prompts"]
            if prompts and prompts[0]["kind"] == "place_gladiator":
                await until_prompt(app, "place_gladiator")
                await pilot.press("enter")
        for seat in table.bots_to_move():
            table.play_bot(seat)
        ess = table.view_for("id-alice")["game"]["board"]["essedari"]
        await until(lambda: f"Next: {ess['next']['name']}" in screen_text(app))
        text = screen_text(app)
        if size == (80, 24):
            assert "Round 1 of 8 - # Armor 30/30 - act 1/5" in text
        else:  # room to name him
            assert "Round 1 of 8 - # Essedari Maximo Armor 30/30 - action 1/5" in text
        assert "##" in text and "Ж" not in text  # ASCII: his chariot is '#'
        assert board(app).has_class("-chariot")
