"""Readings harena makes where the rules are silent (docs/rulings.md, Spartacus)."""

from __future__ import annotations

from harena.core.spartacus import arena
from harena.core.spartacus.state import ArenaStep
from tests.core.spartacus.helpers import (
    at_the_market,
    choices,
    clear_table,
    give,
    kinds,
    offer_price,
    started,
)


def test_a_gift_while_denarii_are_hidden_shows_the_amount_only_to_the_two_players() -> None:
    game = at_the_market()
    game.act(0, "close")
    game.act(0, "give:1:4")
    assert (
        game.log_for(0)[-1]
        == game.log_for(1)[-1]
        == f"{game.name_of(0)} gives 4 denarii to {game.name_of(1)}"
    )
    assert game.log_for(2)[-1] == f"{game.name_of(0)} gives denarii to {game.name_of(1)}"


def test_denarii_promised_in_a_hidden_bid_cannot_be_given_away() -> None:
    game = at_the_market()
    for seat in range(4):
        game.act(seat, "close")
    game.act(0, "bid:7")
    gifts = [c.id for p in game.prompts_for(0) if p.standing for c in p.choices]
    assert max(int(c.split(":")[2]) for c in gifts if c.startswith("give:1:")) == 3


def test_a_champion_changing_hands_moves_one_influence_with_it() -> None:
    game = at_the_market()
    star = give(game, 0, "crixus", champion=True)
    game.act(0, "offer:1")
    game.act(0, f"offer-card:{star}")
    offer_price(game, 0, -5)
    game.act(0, "offer-send")
    before = [p.influence for p in game.state.players]
    game.act(1, "accept:0")
    after = [p.influence for p in game.state.players]
    assert after[0] == before[0] - 1 and after[1] == before[1] + 1


def test_a_scheme_whose_cost_can_no_longer_be_paid_fails() -> None:
    game = started(4, seed=1)
    s = game.state
    seat = s.intrigue.turn
    for i in range(4):
        clear_table(game, i)
    s.players[seat].influence = 4
    s.players[seat].denarii = 3
    card = give(game, seat, "bribe-the-magistrate", hand=True)  # costs 3 on success
    other = (seat + 1) % 4
    give(game, other, "guard", hand=True)  # someone who may react, so the window opens
    game.act(seat, f"scheme:{card}")
    game.act(seat, "give:2:1" if seat != 2 else "give:3:1")  # now short of the cost
    game.act(other, "pass")
    assert s.players[seat].influence == 4 and card in s.intrigue_discard
    assert "cannot pay" in game.log_for(None)[-1]


def test_the_host_may_send_their_own_combatant_without_an_invitation_to_answer() -> None:
    game = started(4, seed=1)
    s = game.state
    s.intrigue = None
    s.host = 3
    for i in range(4):
        clear_table(game, i)
    mine = give(game, 3, "veteran")
    give(game, 0, "secutor")
    arena.start(game)
    game.state_changed()
    game.act(3, "invite:3")
    assert s.arena.step is ArenaStep.COMBATANT and kinds(game) == {3: "choose_combatant"}
    game.act(3, f"fighter:{mine}")
    assert "invite:3" not in choices(game, 3)


def test_no_gift_slips_into_a_resolving_scheme() -> None:
    """A Scheme being resolved (its victim being picked) cannot be dodged by a gift."""
    game = started(4, seed=1)
    s = game.state
    seat = s.intrigue.turn
    for i in range(4):
        clear_table(game, i)
        s.players[i].influence = 4
    card = give(game, seat, "poison", hand=True)
    target = (seat + 2) % 4
    give(game, target, "crixus")
    give(game, target, "veteran")
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert kinds(game) == {seat: "choose_victim"}
    assert not any(p.kind == "give_denarii" for p in game.open_prompts())


def test_a_gift_is_one_choice_that_never_blocks_and_never_shows_in_waiting() -> None:
    """rules: Setup 5 (any time). While denarii are hidden, an open "how much?" prompt would
    block the auction and tell everyone the giver holds at least 1 denarius: a gift is one
    standing choice, so the game never waits for it and "waiting" never names a giver."""
    game = at_the_market()
    for seat in range(4):
        game.act(seat, "close")
    waiting_before = [game.view(s)["waiting"] for s in range(4)]
    assert all(kinds(game).get(s) == "bid" for s in range(4))
    game.act(1, "give:2:1")
    assert [game.view(s)["waiting"] for s in range(4)] == waiting_before
    standing = [p for p in game.prompts_for(1) if p.standing]
    assert [p.kind for p in standing] == ["give_denarii"]
    assert all(c.id.startswith("give:") for c in standing[0].choices)
    assert not any(
        c.id.startswith("give:") for p in game.prompts_for(1) if not p.standing for c in p.choices
    )


def test_a_hidden_schemes_number_of_steps_leaves_no_trace_in_other_views() -> None:
    """A hidden Scheme aimed at its schemer takes fewer steps than one aimed at another House;
    what others receive must not count them (issue: the view's version counter did)."""
    game = started(4, seed=1)
    assert "version" not in game.view(0) and "version" not in game.view(None)
