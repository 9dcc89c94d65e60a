"""rules: Intrigue Phase - your turn, house and card abilities, the hand limit, gifts."""

from __future__ import annotations

from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import (
    HOUSES,
    choices,
    choose_houses,
    clear_table,
    coins,
    give,
    kinds,
    new_game,
    started,
)


def _turn(house: str = "batiatus", seed: int = 1) -> tuple[Spartacus, int]:
    """A game in its first Intrigue phase, on the turn of `house`, with empty hands."""
    game = started(4, seed=seed)
    s = game.state
    seat = next(i for i, p in enumerate(s.players) if p.house == house)
    assert s.intrigue is not None
    s.intrigue.turn = seat
    for p in s.players:
        s.intrigue_discard.extend(p.hand)
        p.hand.clear()
    game.state_changed()
    return game, seat


def test_intrigue_turns_go_clockwise_from_the_host() -> None:
    """rules: Intrigue Phase - begins with the Host and proceeds clockwise."""
    game = started(4, seed=3)
    s = game.state
    order = []
    while s.phase is Phase.INTRIGUE:
        assert s.intrigue is not None
        seat = s.intrigue.turn
        order.append(seat)
        while s.intrigue is not None and s.intrigue.turn == seat:
            if "end" in choices(game, seat):
                game.act(seat, "end")
            else:
                game.act(seat, choices(game, seat)[0])  # discard to the hand limit
    assert order == [(s.host + k) % 4 for k in range(4)]


def test_trading_a_card_pays_its_denarii_value() -> None:
    """rules: Trade Cards for Denarii."""
    game, seat = _turn()
    card = give(game, seat, "blackmail", hand=True)
    before = game.state.players[seat].denarii
    game.act(seat, f"sell:{card}")
    assert game.state.players[seat].denarii == before + 2
    assert card in game.state.intrigue_discard


def test_at_the_end_of_the_turn_you_discard_to_the_hand_limit() -> None:
    """rules: Maximum Hand Size - at the end of your turn, discard the excess."""
    game, seat = _turn()
    game.state.players[seat].influence = 4  # limit 5 in the reference table
    for _ in range(7):
        give(game, seat, "guard", hand=True)
    game.act(seat, "end")
    assert kinds(game) == {seat: "discard_to_limit"}
    game.act(seat, choices(game, seat)[0])
    assert game.state.intrigue.turn == seat
    game.act(seat, choices(game, seat)[0])
    assert len(game.state.players[seat].hand) == 5
    assert game.state.intrigue.turn != seat


def test_a_guard_put_on_the_table_never_returns_to_the_hand() -> None:
    """rules: Guards - on the table they cannot return to your hand."""
    game, seat = _turn()
    guard = give(game, seat, "guard", hand=True)
    game.act(seat, f"post:{guard}")
    p = game.state.players[seat]
    assert guard not in p.hand and any(a.card == guard for a in p.assets)
    assert not any(c.endswith(str(guard)) and c.startswith("post") for c in choices(game, seat))


def test_a_slave_ability_exhausts_it() -> None:
    """rules: Use Special Card Abilities - often requiring the card to be Exhausted."""
    game, seat = _turn()
    clear_table(game, seat)
    accountant = give(game, seat, "accountant")
    before = game.state.players[seat].denarii
    game.act(seat, f"exhaust:{accountant}")
    assert game.state.players[seat].denarii == before + 2
    assert game.state.players[seat].assets[0].exhausted
    assert f"exhaust:{accountant}" not in choices(game, seat)


def test_batiatus_profits_from_his_gladiators_and_their_glory() -> None:
    """Batiatus: exhaust a gladiator for 2 (once a turn); one with Favor for 2 per Favor
    (a Champion counts 3)."""
    game, seat = _turn("batiatus")
    clear_table(game, seat)
    plain = give(game, seat, "veteran")
    star = give(game, seat, "crixus", favor=1, champion=True)
    before = game.state.players[seat].denarii
    assert f"power:batiatus-glory:{plain}" not in choices(game, seat)
    game.act(seat, f"power:batiatus-glory:{star}")
    game.act(seat, f"power:batiatus-training:{plain}")
    assert game.state.players[seat].denarii == before + 2 * 4 + 2
    assert all(a.exhausted for a in game.state.players[seat].assets)


def test_glaber_draws_with_his_guards_and_sacrifices_one_a_turn_for_influence() -> None:
    game, seat = _turn("glaber")
    clear_table(game, seat)
    g1, g2 = give(game, seat, "guard"), give(game, seat, "guard")
    game.act(seat, f"power:glaber-patrol:{g1}")
    assert len(game.state.players[seat].hand) == 1
    assert f"power:glaber-patrol:{g2}" not in choices(game, seat)  # once a turn (balance)
    influence = game.state.players[seat].influence
    denarii = game.state.players[seat].denarii
    game.act(seat, f"power:glaber-example:{g1}")  # an exhausted guard may still be sacrificed
    assert game.state.players[seat].influence == influence + 1
    assert game.state.players[seat].denarii == denarii - 5
    assert not any(c.startswith("power:glaber-example") for c in choices(game, seat))  # once a turn
    assert [a.card for a in game.state.players[seat].assets] == [g2]


def test_glaber_makes_no_example_from_6_influence() -> None:
    """houses.toml (balance, docs/rulings.md): Make an Example only below 6 Influence."""
    game, seat = _turn("glaber")
    clear_table(game, seat)
    give(game, seat, "guard")
    game.state.players[seat].influence = 5
    game.state_changed()
    assert any(c.startswith("power:glaber-example") for c in choices(game, seat))
    game.state.players[seat].influence = 6
    game.state_changed()
    assert not any(c.startswith("power:glaber-example") for c in choices(game, seat))


def test_tullius_exhausts_slaves_to_cycle_cards() -> None:
    game, seat = _turn("tullius")
    clear_table(game, seat)
    slave = give(game, seat, "house-slave")
    junk = give(game, seat, "guard", hand=True)
    game.act(seat, f"power:tullius-errands:{slave}:{junk}")
    hand = game.state.players[seat].hand
    assert junk not in hand and len(hand) == 1 and junk in game.state.intrigue_discard


def test_solonius_draws_for_coin_once_a_turn() -> None:
    game, seat = _turn("solonius")
    before = game.state.players[seat].denarii
    game.act(seat, "power:solonius-whispers:-")
    assert (
        game.state.players[seat].denarii == before - 1 and len(game.state.players[seat].hand) == 1
    )
    assert "power:solonius-whispers:-" not in choices(game, seat)


def test_a_gift_is_standing_nobody_waits_for_it_and_only_the_transfer_is_enforced() -> None:
    """rules: Setup 5 - denarii can change hands between players at any time."""
    game, seat = _turn()
    other = (seat + 1) % 4
    standing = [p for p in game.prompts_for(other) if p.standing]
    assert standing and standing[0].kind == "give_denarii"
    assert game.awaited() == [seat]  # the game waits only for the player whose turn it is
    before = coins(game)
    have = game.state.players[other].denarii
    game.act(other, f"give:{seat}:2")  # whom and how much in one choice: nothing to wait for
    assert game.awaited() == [seat]
    assert game.state.players[other].denarii == have - 2
    assert coins(game) == before
    assert any("gives 2 denarii" in line for line in game.log_for(None))


def test_houses_can_be_chosen_in_any_order() -> None:
    game = new_game(4, seed=8)
    choose_houses(game, tuple(reversed(HOUSES)))
    assert sorted(p.house for p in game.state.players) == sorted(HOUSES)
