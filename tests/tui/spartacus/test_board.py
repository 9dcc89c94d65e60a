"""The Spartacus board at the table (Pilot): names, your House, the other Houses, gifts by `g`,
the Houses by Tab, the help, and the Arena drawn as hexes."""

from __future__ import annotations

from harena.core.spartacus import arena, market
from harena.core.spartacus.state import Phase
from harena.tui.screens.give import GiveScreen
from harena.tui.screens.help import HelpScreen
from harena.tui.widgets.prompt_bar import PAGE_SIZE, SLOT_KEYS
from tests.core.spartacus.helpers import clear_table, give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import (
    press_choice,
    prompt_bar,
    slot_of,
    status,
    table_screen,
    until_prompt,
    until_unguarded,
)
from tests.tui.spartacus.helpers import PLAYERS, game_of, new_table

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)


def at_the_auction(seed: int = 1) -> tuple:
    """Everyone has closed the Open Market: the first lot is up for hidden bids."""
    lobby, table = new_table(seed)
    game = game_of(table)
    game.state.intrigue = None
    for seat, p in enumerate(game.state.players):
        p.denarii = 10 + seat
    market.start(game)
    game.state_changed()
    for seat in range(3):
        table.act(PLAYERS[seat][0], "close")
    return lobby, table


async def test_your_house_in_full_and_the_others_as_the_rules_show_them() -> None:
    """Your House: Influence on the track, hand limit, exact denarii, your Intrigue cards with
    their texts, your assets with dice; another House: its hand only as a count."""
    lobby, table = new_table(seed=2)
    game = game_of(table)
    for p in game.state.players:
        p.hand.clear()
    give(game, 0, "blackmail", hand=True)
    give(game, 1, "assassination", hand=True)
    give(game, 0, "scutum")
    game.state_changed()
    async with session(lobby, ANN, "ann") as (app, pilot):
        text = screen_text(app)
        assert "Scutum             equipment ready" in text  # never "equipmentready"
        assert "you: ann/Batiatus" in text and "Your House: ann/Batiatus" in text
        assert "Inf 4/12" in text and "hand 1/5" in text
        assert f"hand 1/5 {game.state.players[0].denarii} denarii" in text
        assert "Blackmail (scheme 6+) The target pays" in text  # its text, cut to 80 columns
        assert "Thracian Recruit   A2 D2 S1 ready" in text  # an asset with its dice and state
        assert "bob/Glaber" in text and "cat/Solonius" in text
        assert "Assassination" not in text  # bob's hand is bob's
        await pilot.press("tab")
        text = screen_text(app)
        assert "House: bob/Glaber" in text and "1 Intrigue card in hand, face down" in text
        assert "Assassination" not in text and "Showing bob/Glaber" in status(app)


async def test_hidden_denarii_read_hidden_and_a_bid_only_has_bid() -> None:
    lobby, table = at_the_auction()
    game = game_of(table)
    table.act(BOB, "bid:7")
    async with session(lobby, ANN, "ann") as (app, _pilot):
        text = screen_text(app)
        assert "hidden" in text and f"{game.state.players[1].denarii}d" not in text
        assert "bob/Glaber has bid" in text and "bid 7" not in text
        assert f"{game.state.players[0].denarii}d*" in text  # yours, marked as seen by you only
    async with session(lobby, BOB, "bob") as (app, _pilot):
        assert "bob/Glaber bid 7 (you; secret)" in screen_text(app)


async def test_a_gift_is_made_with_g_and_never_from_the_numbered_choices() -> None:
    """Bids and gifts both count denarii: the bid's numbers stay bids, the gift has its key."""
    lobby, table = at_the_auction()
    game = game_of(table)
    async with session(lobby, ANN, "ann") as (app, pilot):
        await until_prompt(app, "bid")
        labels = [label for _, label in prompt_bar(app).choices]
        assert labels and all(
            label.endswith(("denarii", "denarius")) and "to " not in label for label in labels
        )
        before = [p.denarii for p in game.state.players]
        await pilot.press("g")
        assert isinstance(app.screen, GiveScreen)
        assert "Give denarii to whom?" in screen_text(app) and "cat/Solonius" in screen_text(app)
        await pilot.press("2")  # cat/Solonius
        await pilot.press("3", "enter")
        await until(lambda: game.state.players[2].denarii == before[2] + 3)
        assert game.state.players[0].denarii == before[0] - 3
        assert table_screen(app).view["game"]["prompts"][0]["kind"] == "bid"  # still to bid
        assert "give 3 denarii to cat/Solonius" in status(app)
        # Esc backs out without giving anything.
        await pilot.press("g", "1", "escape", "escape")
        assert game.state.players[1].denarii == before[1]


async def test_the_help_lists_every_key_and_symbol() -> None:
    lobby, _table = new_table()
    async with session(lobby, ANN, "ann", size=(80, 40)) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(f"{keys} {what}" for keys, what in app.screen.entries)  # it scrolls
        for words in (
            "give denarii",
            "next House",
            "w e a d z x",
            "Champion",
            "dice pools",
            "hidden",
        ):
            assert words in text, words


async def test_the_fight_is_drawn_on_hexes_and_stepped_by_direction_keys() -> None:
    lobby, table = new_table(seed=1)
    game = game_of(table)
    s = game.state
    s.intrigue = None
    for seat in range(3):
        clear_table(game, seat)
    s.host = 0
    give(game, 0, "veteran")
    give(game, 1, "secutor")
    arena.start(game)
    game.state_changed()
    answers = {
        "invite": "invite:1",
        "invitation": "accept",
        "choose_equipment": "equip:none",
        "bet": "bet:none",
        "initiative": "first",
    }
    while s.arena is not None and (s.arena.fight is None or s.arena.fight.chooser is not None):
        seat = game.awaited()[0]
        prompt = next(p for p in game.prompts_for(seat) if not p.standing)
        offered = [c.id for c in prompt.choices]
        choice = answers.get(prompt.kind, offered[0])
        choice = choice if choice in offered else offered[0]  # (the host, invited second)
        table.act(PLAYERS[seat][0], choice)
    assert s.phase is Phase.ARENA
    mover = game.awaited()[0]
    identity, name = PLAYERS[mover]
    async with session(lobby, identity, name) as (app, pilot):
        text = screen_text(app)
        assert "Arena" in text and "initiative [" in text  # the Speed dice as rolled
        assert "G1" in text and "B2" in text  # both combatants on the hexes (bob was invited first)
        steps = [cid for cid, _ in prompt_bar(app).choices if cid.startswith("step:")]
        assert steps and all(
            "(" in label for cid, label in prompt_bar(app).choices if cid.startswith("step:")
        )
        direction = steps[0].removeprefix("step:")
        key = {"NW": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "SE": "x"}[direction]
        before = list(s.arena.fighters[[f.seat for f in s.arena.fighters].index(mover)].at)
        await pilot.press(key)
        await until(
            lambda: (
                list(s.arena.fighters[[f.seat for f in s.arena.fighters].index(mover)].at) != before
            )
        )


async def test_closing_the_open_market_is_pressed_twice() -> None:
    """Closing is for good (offers withdrawn, no more trades this Market): the first press
    asks, the second (or Enter) closes, Esc keeps you in."""
    lobby, table = new_table(seed=1)
    game = game_of(table)
    game.state.intrigue = None
    market.start(game)
    game.state_changed()
    async with session(lobby, ANN, "ann") as (app, pilot):
        await until_prompt(app, "open_market")
        await until_unguarded(app)
        index = slot_of(app, "close")
        for _ in range(index // PAGE_SIZE):
            await pilot.press("right_square_bracket")
        key = SLOT_KEYS[index % PAGE_SIZE]
        await pilot.press(key)
        assert "Press again or Enter to confirm, Esc to cancel: " in status(app)
        assert not game.state.market.closed[0]
        await pilot.press("escape")
        assert "Cancelled" in status(app) and not game.state.market.closed[0]
        await pilot.press(key)
        await pilot.press(key)
        await until(lambda: game.state.market.closed[0])


async def test_a_scheme_lists_the_others_first_and_asks_twice_before_harming_yourself() -> None:
    """rules: Set Up Schemes - a target "which can be yourself"; ruling (docs/rulings.md): the
    others come first, your House last, and a harmful Scheme aimed at it takes a second
    press (Esc keeps it unaimed); aimed at another House it goes at the first press."""
    lobby, table = new_table(seed=1)
    game = game_of(table)
    game.state.players[0].influence = 5
    poison = give(game, 0, "poison", hand=True)
    game.state_changed()
    async with session(lobby, ANN, "ann") as (app, pilot):
        await until_prompt(app, "intrigue_turn")
        await press_choice(pilot, app, f"scheme:{poison}")
        await until_prompt(app, "prepare_scheme")
        await until_unguarded(app)
        ids = [cid for cid, _ in prompt_bar(app).choices]
        assert ids == ["target:1", "target:2", "target:0"]
        assert "1  bob/Glaber" in screen_text(app)
        await pilot.press(SLOT_KEYS[2])  # your own House
        assert "Press again or Enter to confirm, Esc to cancel: " in status(app)
        # at 80 columns the keys to answer are never what is cut off
        assert (
            "Press again or Enter to confirm, Esc to cancel: ann/Batiatus (your own House: i…"
            in (screen_text(app))
        )
        assert game.state.intrigue.scheme.target == -1
        await pilot.press("escape")
        assert game.state.intrigue.scheme.target == -1
        await pilot.press(SLOT_KEYS[0])  # bob: no second press
        await until(
            lambda: game.state.intrigue.scheme is None or game.state.intrigue.scheme.target == 1
        )
        assert game.state.intrigue.scheme is None or game.state.intrigue.scheme.target == 1
