"""The Modular Rulesets on screen at 80x24: chosen in the create-table form's checklist, listed
on the table screen with their text on `?`, Retain cubes on the Action row, and the Naked and
Afraid key while its window is open."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.checklist import ChecklistScreen
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session

TO_RULESETS = ["down"] * 5  # Game, Players, Arena tokens, Gladiators, Sudden death, Rulesets


async def test_the_create_form_ticks_rulesets_in_a_checklist_and_warns_above_4() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", *TO_RULESETS)
        assert isinstance(app.screen, CreateTableScreen)
        assert "Rulesets" in screen_text(app) and "< none >" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, ChecklistScreen)
        text = screen_text(app)
        assert "[ ] actuate" in text and "[ ] the southern winds" in text  # all 17 fit in 24 rows
        await pilot.press("space", *["down"] * 9, "space", "enter")  # actuate, retain
        assert isinstance(app.screen, CreateTableScreen)
        assert "2: actuate, retain" in screen_text(app) and "Warning" not in screen_text(app)
        await pilot.press("enter")  # on the list field Enter opens the list again
        await pilot.press("down", "space", "down", "space", "down", "space", "enter")
        text = screen_text(app)
        assert "Warning: 5 rulesets: more than 4 is not recommended" in text
        await pilot.press("up", "enter")  # on another field Enter creates the table, as asked
        assert isinstance(app.screen, TableScreen)
        assert (
            app.screen.table.game.config.options["rulesets"]
            == "actuate,campaign,outbreak,concentrate,retain"
        )


async def test_escape_leaves_the_checklist_without_changing_the_choice() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", *TO_RULESETS, "enter", "space", "escape")
        assert isinstance(app.screen, CreateTableScreen)
        assert "< none >" in screen_text(app)


def naked_table(lobby: Lobby):
    """Alice (Blue, seat 0) beside Bob (Red, seat 1), who is to play All or Nothing; a Retain
    cube of each on the row's first card. Arranged by hand, as the rules tests arrange theirs."""
    from harena.core.carthage.hexgrid import Hex
    from harena.core.carthage.state import Phase

    table = lobby.create_table(
        "id-alice",
        "alice",
        "carthage",
        2,
        {"gladiators": "by_seat", "rulesets": "naked_and_afraid,retain"},
    )
    table.sit("id-bob", "bob")
    game = table.game
    s = game.state
    for p, at in zip(s.players, [Hex(0, 0), Hex(1, 0)], strict=False):
        p.at = at
    s.tokens = {}
    s.placed, s.phase, s.round = 2, Phase.ACTION, 1
    s.cards.append("all-or-nothing")
    s.players[1].hand = [len(s.cards) - 1]
    s.players[0].hand = [s.players[0].deck.pop()]
    s.turn = 1
    s.rulesets.cubes[s.row[0]] = [0, 1]
    game.state_changed()
    return table


async def test_the_table_lists_its_rulesets_shows_retain_cubes_and_takes_the_naked_key() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = naked_table(lobby)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        text = screen_text(app)
        assert (
            "Log · Rules: Retain, Naked and Afra" in text
        )  # the log panel's title, in rulebook order
        assert "[BR]" in board(app).query_one("#row").text  # one Blue and one Red cube
        await pilot.press("question_mark")
        help_text = app.screen.text
        assert (
            "Naked and Afraid" in help_text and "for 3 Armor" in help_text and "Retain" in help_text
        )
        await pilot.press("escape")
        await pilot.press("n")
        assert "no Naked and Afraid step to take now" in status(app)
        play = next(c.id for c in table.game.prompts()[0].choices if c.id.startswith("play:"))
        table.act("id-bob", play)  # Bob reveals All or Nothing: Alice's window opens
        await until_prompt(app, "naked_and_afraid")
        assert "(n)" in screen_text(app)  # the key is on the prompt bar
        await pilot.press("n")
        await until_prompt(app, "move_step")
        await pilot.press("a")  # west, away from Bob
        await until(lambda: table.game.state.players[0].at == Hex(-1, 0))
        assert table.game.state.players[0].armor == 12  # dodged: 3 Armor, not 7


from harena.core.carthage.hexgrid import Hex  # noqa: E402
from tests.tui.carthage.helpers import board, status, until_prompt  # noqa: E402
from tests.tui.harness import until  # noqa: E402


def test_renovate_picks_its_hexes_with_the_cursor() -> None:
    from harena.tui.boards.carthage import keys

    game = {
        "seat": 0,
        "prompts": [{"kind": "renovate_to", "choices": [["hex:2,-1", "2,-1"], ["back", "Back"]]}],
        "board": {"players": [{"at": [0, 0]}]},
    }
    assert keys.hex_choice(game, (2, -1)) == ("hex:2,-1", "")
    assert keys.hex_choice(game, (3, 0))[0] is None
    assert keys.hints(game) == {(2, -1): "o"} and keys.back_choice(game) == "back"
