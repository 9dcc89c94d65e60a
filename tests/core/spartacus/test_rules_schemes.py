"""rules: Set Up Schemes, Seeking Support, Successful Schemes, Reactions, Canceling, Guards."""

from __future__ import annotations

import pytest

from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import SchemeStep
from tests.core.spartacus.helpers import choices, clear_table, dice, give, kinds, started


def _turn(house: str = "batiatus", seed: int = 1, influence: int = 4) -> tuple[Spartacus, int]:
    game = started(4, seed=seed)
    s = game.state
    seat = next(i for i, p in enumerate(s.players) if p.house == house)
    s.intrigue.turn = seat
    for i, p in enumerate(s.players):
        clear_table(game, i)
        p.influence = influence
        p.denarii = 10
    game.state_changed()
    return game, seat


def _others(seat: int) -> list[int]:
    return [(seat + k) % 4 for k in (1, 2, 3)]


def test_a_scheme_within_your_influence_resolves_and_pays_its_cost() -> None:
    """rules: Successful Schemes - effects occur immediately, costs are paid, card discarded."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "bribe-the-magistrate", hand=True)  # needs 2, costs 3: +1 Influence
    game.act(seat, f"scheme:{card}")
    p = game.state.players[seat]
    assert p.influence == 5 and p.denarii == 7
    assert card in game.state.intrigue_discard and game.state.intrigue.scheme is None


def test_a_scheme_names_its_target_which_can_be_yourself() -> None:
    """rules: Set Up Schemes - "declaring a target (which can be yourself)": Slander too."""
    game, seat = _turn()
    card = give(game, seat, "slander", hand=True)
    victim = _others(seat)[0]
    game.act(seat, f"scheme:{card}")
    assert kinds(game) == {seat: "prepare_scheme"}
    assert {f"target:{t}" for t in range(4)} <= set(choices(game, seat))
    game.act(seat, f"target:{victim}")
    assert game.state.players[victim].influence == 3


def test_the_targets_list_the_others_clockwise_and_yourself_last() -> None:
    """rules: Set Up Schemes - "declaring a target (which can be yourself)"; ruling
    (docs/rulings.md): the first key aims at another House, yours comes last and, for a
    Scheme that harms its target (Poison, Slave Revolt, Slander), needs a second press."""
    game, seat = _turn()
    card = give(game, seat, "poison", hand=True)
    game.act(seat, f"scheme:{card}")
    (prompt,) = [p for p in game.prompts_for(seat) if p.kind == "prepare_scheme"]
    assert [c.id for c in prompt.choices] == [f"target:{t}" for t in [*_others(seat), seat]]
    assert prompt.confirm == (f"target:{seat}",)
    assert "your own House: it harms you" in prompt.choices[-1].label
    shown = [p for p in game.view(seat)["prompts"] if p["kind"] == "prepare_scheme"]
    assert shown[0]["confirm"] == [f"target:{seat}"]


def test_a_scheme_that_helps_its_target_needs_no_second_press() -> None:
    """ruling: only a Scheme that takes from its target asks twice when aimed at yourself."""
    from harena.core.spartacus.schemes import harms_target

    content = started(4).content
    harmful = {c.id for c in content.intrigue if c.kind.value == "scheme" and harms_target(c)}
    assert {"poison", "slave-revolt", "slander", "assassination"} <= harmful
    assert not {"bribe-the-magistrate"} & harmful


def test_closing_the_market_a_bank_sale_and_an_execution_ask_for_a_second_press() -> None:
    """ruling: what cannot be undone is marked for a second press (Prompt.confirm)."""
    from tests.core.spartacus.helpers import at_the_market, give

    game = at_the_market()
    for seat in range(game.players):
        give(game, seat, "crixus")
    markets = [p for p in game.open_prompts() if p.kind == "open_market"]
    assert markets
    for p in markets:
        sales = tuple(c.id for c in p.choices if c.id.startswith("bank:"))
        assert sales  # Crixus, at least
        assert set(p.confirm) == {"close", *sales}  # the Bank never sells back
        assert not any(c.startswith("offer:") for c in p.confirm)  # an offer can be refused
    from tests.core.spartacus.test_rules_arena import _arena, _finish, _two_fighters

    game = _arena()
    _two_fighters(game)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="yield")
    (thumbs,) = [p for p in game.open_prompts() if p.kind == "thumbs"]
    assert thumbs.confirm == ("thumbs:down",)


def test_slander_at_yourself_costs_you_the_influence() -> None:
    """rules: Set Up Schemes - a target "which can be yourself"."""
    game, seat = _turn()
    card = give(game, seat, "slander", hand=True)
    before = game.state.players[seat].influence
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{seat}")
    while kinds(game).get(seat) is None and game.state.intrigue.scheme is not None:
        other = next(iter(kinds(game)))
        game.act(other, "pass")
    assert game.state.players[seat].influence == before - 1


def test_a_scheme_above_your_influence_needs_support_which_is_final() -> None:
    """rules: Seeking Support - their Influence adds to yours, without moving the markers."""
    game, seat = _turn(influence=3)
    card = give(game, seat, "favour-of-the-senate", hand=True)  # needs 5
    game.act(seat, f"scheme:{card}")
    assert kinds(game) == {seat: "prepare_scheme"}
    game.act(seat, "ask:show")
    assert kinds(game) == {o: "support_scheme" for o in _others(seat)}  # all at once
    a, b, c = _others(seat)
    game.act(a, "support")
    assert "support" not in choices(game, a)  # final once given
    assert game.view(b)["board"]["intrigue"]["scheme"]["answers"][a] is None  # revealed together
    assert game.log_for(b)[-1] == f"{game.name_of(a)} has answered"
    game.act(b, "refuse")
    game.act(c, "refuse")
    s = game.state
    assert s.players[seat].influence == 4 and s.players[a].influence == 3
    assert card in s.intrigue_discard


def test_a_hidden_scheme_asking_for_support_shows_nothing_but_the_request() -> None:
    """rules: Seeking Support - you don't need to show the Scheme or tell the truth."""
    game, seat = _turn(influence=2)
    card = give(game, seat, "public-disgrace", hand=True)  # needs 7: 8 with everyone's support
    victim = _others(seat)[1]
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{victim}")
    game.act(seat, "ask:hide")
    for other in _others(seat):
        view = game.view(other)
        scheme = view["board"]["intrigue"]["scheme"]
        assert scheme["card"] is None and scheme["target"] is None
        assert view["prompts"][0]["text"] == "Batiatus asks your support for a hidden Scheme"
        assert view["log"][-1] == "Batiatus asks for support for a Scheme"
    assert game.view(seat)["board"]["intrigue"]["scheme"]["card"] == "public-disgrace"


def test_a_scheme_nobody_could_support_enough_is_not_offered() -> None:
    game, seat = _turn(influence=1)
    card = give(game, seat, "public-disgrace", hand=True)  # needs 7, the table has 4
    assert f"scheme:{card}" not in choices(game, seat)


def test_a_scheme_without_enough_support_returns_to_the_hand_and_is_not_asked_again() -> None:
    """ruling (docs/rulings.md): not launched, back to the hand; not offered again this turn."""
    game, seat = _turn(influence=2)
    card = give(game, seat, "favour-of-the-senate", hand=True)  # needs 5
    game.act(seat, f"scheme:{card}")
    game.act(seat, "ask:hide")
    for other in _others(seat):
        game.act(other, "refuse")
    assert card in game.state.players[seat].hand
    assert f"scheme:{card}" not in choices(game, seat) and f"sell:{card}" in choices(game, seat)


def test_solonius_pays_two_denarii_per_missing_influence() -> None:
    """Solonius: pays denarii to launch Schemes above his Influence (at most 3 points)."""
    game, seat = _turn("solonius", influence=3)
    card = give(game, seat, "favour-of-the-senate", hand=True)  # needs 5
    game.act(seat, f"scheme:{card}")
    assert "buy" in choices(game, seat)
    game.act(seat, "buy")
    p = game.state.players[seat]
    assert p.influence == 4 and p.denarii == 10 - 4


def test_anyone_may_cancel_any_scheme_with_a_reaction_but_without_support() -> None:
    """rules: Canceling a Scheme - you can cancel any Scheme, even if you are not the target;
    Reactions need their Influence and cannot receive support."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target, bystander, weak = _others(seat)
    counter = give(game, bystander, "counter-plot", hand=True)  # needs 2
    informant = give(game, weak, "informant", hand=True)  # needs 5: too much for 4
    give(game, target, "rumours", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    # everyone with a card is asked at once (docs/rulings.md, the reaction window)
    assert kinds(game) == {target: "reaction", bystander: "reaction", weak: "reaction"}
    assert choices(game, weak) == ["pass"]  # the Informant needs 5 Influence
    game.act(target, "pass")
    assert f"react:{counter}" in choices(game, bystander)
    game.act(bystander, f"react:{counter}")
    assert game.state.intrigue.scheme is not None  # secret until all are in
    game.act(weak, "pass")
    assert game.state.intrigue.scheme is None
    assert game.state.players[target].denarii == 10
    assert informant in game.state.players[weak].hand
    assert card in game.state.intrigue_discard and counter in game.state.intrigue_discard


@pytest.mark.parametrize("at_self", [False, True], ids=["at another", "at yourself"])
def test_the_schemer_is_never_asked_to_react_to_their_own_scheme(at_self: bool) -> None:
    """rules: Reactions are "countermeasures ... in response to other events"; Canceling a
    Scheme: they are "played immediately after an attempt to launch a Scheme", another's
    attempt: a schemer who thinks better of it withdraws before launching (docs/rulings.md,
    the reaction window). So the schemer holding a Counter-Plot is not asked, even when the
    Scheme is aimed at their own House."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "slander", hand=True)
    give(game, seat, "counter-plot", hand=True)
    target, bystander, _ = _others(seat)
    give(game, target, "rumours", hand=True)
    give(game, bystander, "counter-plot", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{seat if at_self else target}")
    assert kinds(game) == {
        target: "reaction",
        bystander: "reaction",
    }  # every card but the schemer's


def test_the_first_reply_clockwise_from_the_schemer_cancels_and_the_rest_keep_their_cards() -> None:
    """rules: Canceling a Scheme - Reactions "are played immediately after an attempt to
    launch a Scheme"; ruling (docs/rulings.md): the replies are secret until all are in, then
    taken clockwise from the schemer's left; a later reactor keeps its card, and nothing
    tells it tried."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target, bystander, last = _others(seat)
    first = give(game, bystander, "counter-plot", hand=True)
    second = give(game, last, "counter-plot", hand=True)
    give(game, target, "rumours", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    game.act(last, f"react:{second}")
    assert game.view(seat)["log"][-1] == f"{game.name_of(last)} has answered"
    game.act(bystander, f"react:{first}")
    game.act(target, "pass")
    assert first in game.state.intrigue_discard and second in game.state.players[last].hand
    assert not any(f"{game.name_of(last)}'s Counter" in line for line in game.log_for(seat))


def test_a_dominus_with_no_cards_and_no_guards_is_not_asked_to_react() -> None:
    """Public knowledge only: an empty hand and no ready Guard cannot react."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target, bystander, _ = _others(seat)
    give(game, bystander, "rumours", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert kinds(game) == {bystander: "reaction"}


def test_a_reaction_you_lack_the_influence_for_is_not_offered() -> None:
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target = _others(seat)[0]
    informant = give(game, target, "informant", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert choices(game, target) == ["pass"]
    assert informant in game.state.players[target].hand


def test_guards_cancel_on_4_to_6_and_the_target_may_try_guard_after_guard() -> None:
    """rules: Guards - discard a Guard and roll: 4-6 cancels; 1-3 fails, try another."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target = _others(seat)[0]
    in_hand = give(game, target, "guard", hand=True)
    on_table = give(game, target, "guard")
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert f"guard-hand:{in_hand}" in choices(game, target)
    assert f"guard-table:{on_table}" in choices(game, target)
    dice(game, 2, 5)
    for other in _others(seat)[1:]:
        if kinds(game).get(other):
            game.act(other, "pass")
    game.act(target, f"guard-hand:{in_hand}")
    assert game.state.intrigue.scheme is not None
    assert kinds(game) == {target: "reaction"}  # may try again, asked alone
    game.act(target, f"guard-table:{on_table}")
    assert game.state.intrigue.scheme is None
    assert game.state.players[target].denarii == 10
    assert not game.state.players[target].assets


def test_only_the_target_may_use_guards() -> None:
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target, bystander, _ = _others(seat)
    give(game, bystander, "guard", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert choices(game, bystander) == ["pass"]


def test_an_exhausted_guard_on_the_table_cannot_be_used() -> None:
    """rules: Exhausted cards cannot be used."""
    game, seat = _turn(influence=4)
    card = give(game, seat, "extortion", hand=True)
    target = _others(seat)[0]
    give(game, target, "guard", exhausted=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    assert game.state.players[target].denarii == 7  # nobody could react: resolved at once


def test_the_schemer_picks_the_victim_of_a_poison() -> None:
    game, seat = _turn(influence=4)
    card = give(game, seat, "poison", hand=True)
    target = _others(seat)[2]
    a = give(game, target, "crixus")
    b = give(game, target, "veteran")
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{target}")
    for other in _others(seat):
        if kinds(game).get(other) == "reaction":
            game.act(other, "pass")
    assert game.state.intrigue.scheme.step is SchemeStep.PICK
    assert sorted(choices(game, seat)) == sorted([f"pick:{a}", f"pick:{b}"])
    game.act(seat, f"pick:{a}")
    crixus = game.state.players[target].assets[0]
    assert crixus.wounded and crixus.exhausted


def _scheme_twin(card: str, answer: str) -> tuple[Spartacus, list[object]]:
    """Extortion against the target; the bystander holds `card` and answers `answer`."""
    game, seat = _turn(influence=4)
    scheme = give(game, seat, "extortion", hand=True)
    target, bystander, last = _others(seat)
    ref = give(game, bystander, card, hand=True)
    give(game, target, "rumours", hand=True)
    give(game, last, "rumours", hand=True)
    game.act(seat, f"scheme:{scheme}")
    game.act(seat, f"target:{target}")
    game.act(bystander, f"react:{ref}" if answer == "play" else "pass")
    others = (seat, target, last, None)
    seen: list[object] = [game.view(s) for s in others]
    game.act(target, "pass")
    seen += [game.view(s) for s in others]
    return game, seen


@pytest.mark.parametrize("answer", ["play", "pass"])
def test_who_holds_a_reaction_to_a_scheme_is_hidden_until_the_replies_are_in(answer: str) -> None:
    """rules: Canceling a Scheme; ruling (docs/rulings.md): every Dominus who could react by
    public facts is asked alike, so two games differing only in whether the bystander holds
    a Counter-Plot (and plays it, or passes) look the same to the others until all replies
    are in."""
    holder, seen_holder = _scheme_twin("counter-plot", answer)
    other, seen_other = _scheme_twin("rumours", "pass")
    assert seen_holder == seen_other
    for game in (holder, other):
        game.act(_others(game.state.intrigue.turn)[2], "pass")  # all in: revealed
    schemer = holder.state.intrigue.turn
    assert (holder.view(schemer) == other.view(schemer)) is (answer == "pass")
