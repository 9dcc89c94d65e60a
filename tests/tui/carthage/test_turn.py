"""A whole first turn of Carthage played through the TUI by keys: enter the arena, draw, play a
"/" card choosing its side, move step by step onto a token that strikes and knocks back, buy in
the Favor phase (the script of the other seats: tests/tui/carthage/script.py)."""

from __future__ import annotations

from harena.tui.boards.carthage.board import ArenaView
from harena.tui.widgets.lines_panel import LogPanel
from tests.tui.carthage import script
from tests.tui.carthage.helpers import (
    board,
    move_cursor,
    press_choice,
    prompt_bar,
    prompt_kind,
    status,
    table_screen,
    until_prompt,
    until_synced,
)
from tests.tui.harness import session, until


def at(table, seat: int) -> list[int] | None:
    return table.view_for(script.ALICE)["game"]["board"]["players"][seat]["at"]


def log_text(app) -> str:
    return "\n".join(table_screen(app).query_one(LogPanel).lines)


def hex_of(choice_id: str) -> tuple[int, int]:
    q, r = choice_id.removeprefix("hex:").split(",")
    return int(q), int(r)


async def test_a_full_first_turn_by_keys() -> None:
    lobby, table = script.new_table()
    async with session(lobby, script.ALICE, "alice") as (app, pilot):
        script.run_others(table)
        await until_prompt(app, "place_gladiator")
        # Entering the arena: the legal hexes are ringed, the cursor starts on one; Enter picks.
        assert " o " in board(app).query_one("#arena").text
        await move_cursor(pilot, app, (4, -2))
        # issue 36: a hex is named as the arena shows it, the same in the prompt, under the
        # cursor and in the log; never by its coordinates
        assert status(app).startswith("2 NE, 2 E of the centre (outer edge)")
        labels = [label for _, label in prompt_bar(app).choices]
        assert "2 NE, 2 E of the centre" in labels
        assert all(label.endswith(" of the centre") for label in labels), labels
        # ... and the arena draws each offered hex of the page shown with its number key
        marks = board(app).query_one(ArenaView).hints
        first = prompt_bar(app).choices[0][0]  # "hex:q,r"
        assert marks[hex_of(first)] == "1"
        await pilot.press("right_square_bracket")  # the next page: other hexes get the keys
        await until(lambda: board(app).query_one(ArenaView).hints[hex_of(first)] == "o")
        assert "1" in board(app).query_one(ArenaView).hints.values()
        await pilot.press("left_square_bracket")
        await pilot.press("enter")
        assert at(table, script.ALICE_SEAT) == [4, -2]
        await until(lambda: "enters the arena at 2 NE, 2 E of the centre" in log_text(app))

        # The draw: alice's hand is on her screen, by name, with icons and text.
        script.run_others(table)
        await until_prompt(app, "play_card")
        hand = board(app).query_one("#hand").text
        assert "Sica Feint" in hand and "»/†" in hand
        assert "You draw" in log_text(app)

        # Cards without a move first, until Blue stands next to the token.
        while at(table, 0) != [3, -2]:
            await press_choice(pilot, app, script.alice_plan(table))
            script.run_others(table)
            await until_prompt(app, "play_card")

        # Sica Feint: a "/" card; its side is the next prompt.
        await press_choice(pilot, app, script.hand_cards(table, script.ALICE)["sica-feint"])
        await until_prompt(app, "choose_side")
        assert [label for _, label in prompt_bar(app).choices] == ["Move 2", "Damage 1"]
        await pilot.press("1")
        await until_prompt(app, "move_step")
        # Step by step: the direction keys are shown in the prompt and on the arena.
        assert "SW (z)" in [label for _, label in prompt_bar(app).choices]
        assert "z" in board(app).query_one("#arena").text
        await pilot.press("q")  # not a direction key: nothing moves
        assert at(table, script.ALICE_SEAT) == [4, -2]
        await pilot.press("z")
        assert at(table, script.ALICE_SEAT) == [3, -1]
        # The second step with the cursor onto the Damage & Knockback token.
        await until_prompt(app, "move_step")
        await move_cursor(pilot, app, script.TOKEN)
        assert "Damage & Knockback token, face up" in status(app)
        await pilot.press("enter")
        assert at(table, script.ALICE_SEAT) == [2, -1]
        # Blue, beside the token, took the Damage and was knocked back one hex.
        assert at(table, 0) == [4, -3]
        await until_synced(app, table, script.ALICE)
        assert "Yellow Thracian takes the Damage & Knockback token" in log_text(app)
        assert "Blue Retiarius is knocked back NE" in log_text(app)
        players = board(app).query_one("#players").text
        assert "A14" in players.splitlines()[0]  # Blue: 15 Armor, 1 Damage
        assert "Y↯" in board(app).query_one("#arena").text  # Yellow on the token

        # The rest of the round, then the Favor phase.
        for _ in range(20):
            script.run_others(table)
            await until_synced(app, table, script.ALICE)
            kind = prompt_kind(app)
            if kind == "favor":
                break
            choice = script.alice_plan(table)
            if kind == "focus_card":
                choice = "skip"
            await press_choice(pilot, app, choice)
        assert prompt_kind(app) == "favor"
        favor = table.view_for(script.ALICE)["game"]["board"]["players"][script.ALICE_SEAT]["favor"]
        buy = script.alice_plan(table)
        label = dict(prompt_bar(app).choices)[buy]
        # Buying asks for a second press; Esc backs out.
        await press_choice(pilot, app, buy)
        assert "Press again or Enter to confirm, Esc to cancel: " in status(app)
        await pilot.press("escape")
        assert status(app) == "Cancelled: nothing was chosen"
        assert table_screen(app).view["table"]["you"] == script.ALICE_SEAT  # still at the table
        await press_choice(pilot, app, buy)
        await pilot.press("enter")  # Enter confirms too
        spent = table.view_for(script.ALICE)["game"]["board"]["players"][script.ALICE_SEAT]["favor"]
        assert spent < favor
        assert f"You chose: {label}" == status(app)
        await until(lambda: "Yellow Thracian buys" in log_text(app))
        await until_synced(app, table, script.ALICE)
        if prompt_kind(app) == "favor":  # Favor left for more: pass, pressing its key twice
            await press_choice(pilot, app, "pass")
            await press_choice(pilot, app, "pass")
            await until(lambda: "Yellow Thracian passes" in log_text(app))
