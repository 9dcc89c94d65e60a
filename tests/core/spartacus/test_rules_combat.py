"""rules: Combat Basics - initiative, movement, attack, damage, the Rule of One, defeat."""

from __future__ import annotations

import re

from harena.core.spartacus.combat import legal_losses
from harena.core.spartacus.state import Fighter
from tests.core.spartacus.combat_helpers import fight, more_dice, place
from tests.core.spartacus.helpers import choices, kinds


def test_initiative_sums_the_speed_dice_rerolls_ties_and_the_winner_chooses() -> None:
    """rules: Initiative; FAQ 3 - sum all Speed dice, roll again on a tie, choose 1st or 2nd."""
    game = fight("veteran", "secutor", 3, 3, 6, 1, 1, 5)  # 6 v 6 tie, then 2 v 5
    assert kinds(game) == {2: "initiative"}
    assert sorted(choices(game, 2)) == ["first", "second"]
    game.act(2, "second")
    assert kinds(game) == {1: "fight"}
    log = game.log_for(None)
    assert any("rolls 3 3 = 6" in line and "rolls 6 = 6" in line for line in log)


def test_a_combatant_moves_up_to_one_hex_per_speed_die() -> None:
    """rules: Movement - up to the number of dice in the Speed pile."""
    game = fight("veteran", "secutor", 6, 6, 1)
    game.act(1, "first")
    moves = [c for c in choices(game, 1) if c.startswith("step:")]
    assert moves and "attack" not in choices(game, 1)
    game.act(1, moves[0])
    game.act(1, next(c for c in choices(game, 1) if c.startswith("step:")))
    assert not any(c.startswith("step:") for c in choices(game, 1))  # 2 Speed dice: 2 hexes
    assert choices(game, 1) == ["end"]
    # the log names a step by its direction, as the map shows it: no hex coordinates (issue 36)
    step = moves[0].removeprefix("step:")
    assert f"moves {step}" in game.log_for(None)[-2]
    assert not any(re.search(r"-?\d+,-?\d+", line) for line in game.log_for(None))


def test_an_attack_pairs_sorted_dice_and_ties_go_to_the_defender() -> None:
    """rules: Attack; FAQ 2 - a wound when the attack die is higher; ties to the defender."""
    game = fight("veteran", "secutor", 6, 6, 1)
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 6, 4, 2, 5, 4, 1, 1)  # ATK 6 4 2 against DEF 5 4 1 1: 6>5, 4=4, 2>1
    game.act(1, "attack")
    assert game.log_for(None)[-1].endswith("6 4 2 against 5 4 1 1: 2 wounds")
    assert game.state.arena.fight.damage == 2 and kinds(game) == {2: "lose_die"}


def test_unopposed_attack_dice_wound_on_3_or_more() -> None:
    """FAQ 2 - every attack die left unopposed scores a wound on 3 or more."""
    game = fight("dimachaerus", "retiarius-recruit", 6, 6, 1)  # ATK 4 against DEF 1
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 5, 3, 2, 1, 6)  # 5 v 6 no; 3 wounds on 3+: yes; 2 and 1: no
    game.act(1, "attack")
    assert any("1 wound" in line for line in game.log_for(None)[-3:])


def test_the_wounded_side_chooses_its_dice_under_the_rule_of_one() -> None:
    """rules: Damage, Rule of One; FAQ 4."""
    game = fight("dimachaerus", "veteran", 6, 6, 1, 1)  # veteran 3/3/2
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 6, 6, 6, 6, 1, 1, 1)  # 4 wounds
    game.act(1, "attack")
    assert kinds(game) == {2: "lose_die"}
    order = ["lose:atk", "lose:atk", "lose:def"]
    for choice in order:
        game.act(2, choice)
    vet = game.state.arena.fighters[1]
    assert (vet.atk, vet.defence, vet.spd) == (1, 2, 2)
    assert sorted(choices(game, 2)) == ["lose:def", "lose:spd"]  # not the last Attack die


def test_rule_of_one_in_pools() -> None:
    f = Fighter(0, 0, atk=1, defence=3, spd=1)
    assert legal_losses(f) == ["def"]
    f.defence = 1
    assert legal_losses(f) == ["atk", "def", "spd"]


def test_one_empty_pool_is_a_yield() -> None:
    """rules: Defeat - Surrender: one pile to zero."""
    game = fight("dimachaerus", "house-slave", 6, 6, 1)  # slave 1/1/1
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 6, 1, 1, 1, 5)  # 6 > 5: one wound only
    game.act(1, "attack")
    a = game.state.arena
    assert a.fight is None and a.outcome == "yield" and a.loser == 1
    assert kinds(game) == {0: "thumbs"}


def test_two_empty_pools_are_a_wound_and_three_a_decapitation() -> None:
    """rules: Defeat - Wound: two piles (exhausted, wounded marker); Decapitation: three."""
    game = fight("dimachaerus", "house-slave", 6, 6, 1)
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 6, 6, 1, 1, 5)  # 2 wounds
    game.act(1, "attack")
    a = game.state.arena
    assert a.outcome == "wound"
    slave = game.state.players[2].assets[0]
    assert slave.wounded and slave.exhausted
    game2 = fight("dimachaerus", "house-slave", 6, 6, 1)
    game2.act(1, "first")
    place(game2, (0, 0), (0, 1))
    more_dice(game2, 6, 6, 6, 1, 5)  # 3 wounds
    game2.act(1, "attack")
    assert game2.state.arena is None  # a decapitation: no thumbs to turn
    assert not game2.state.players[2].assets


def test_equipment_adds_dice_and_rerolls() -> None:
    """rules: Special Abilities - card and equipment rules take precedence."""
    game = fight("thracian-recruit", "veteran", 6, 6, 1, equip=("gladius",))
    recruit = game.state.arena.fighters[0]
    assert (recruit.atk, recruit.defence, recruit.spd) == (3, 2, 1)
    game2 = fight("thracian-recruit", "veteran", 6, 1, 1, equip=("trident",))
    game2.act(1, "first")
    place(game2, (0, 0), (0, 1))
    more_dice(game2, 1, 2, 6, 5, 1, 1, 1)  # rolls 1 2, both rerolled to 6 5; against 1 1 1
    game2.act(1, "attack")
    assert any("6 5 against 1 1 1" in line for line in game2.log_for(None))


def _play_rounds(game, rounds: int, *, attack: bool) -> None:
    """Both combatants stand adjacent; each action attacks (with dice that never wound) or
    just ends, for `rounds` rounds or until the fight is over."""
    for _ in range(rounds):
        fight_now = game.state.arena.fight
        if fight_now is None:
            return
        seat = next(iter(kinds(game)))
        game.act(seat, "first")
        for _ in range(2):
            seat = next(iter(kinds(game)))
            if attack:
                f = game.state.arena.fighters
                place(game, (f[0].at.q, f[0].at.r), (f[0].at.q, f[0].at.r + 1))
                me = next(x for x in f if x.seat == seat)
                other = next(x for x in f if x.seat != seat)
                more_dice(game, *[1] * me.atk, *[6] * other.defence)  # no wound
                game.act(seat, "attack")
            game.act(seat, "end")


def test_a_fight_has_no_round_limit_while_blows_are_struck() -> None:
    """rules: Defeat - "A combatant is defeated when one or more of their Dice Piles are
    reduced to zero": the fight goes on past 10 rounds while the combatants attack."""
    game = fight("veteran", "secutor", 6, 6, 1)
    _play_rounds(game, 14, attack=True)
    f = game.state.arena.fight
    assert f is not None and f.round == 15 and game.state.arena.outcome == ""
    assert not any("roll-off" in line for line in game.log_for(None))


def test_a_fight_without_attacks_is_settled_by_a_speed_roll_off() -> None:
    """ruling (docs/rulings.md): combatants who both stop attacking could fight for ever; after
    10 rounds in a row without an attack a roll-off of Speed decides and the loser yields."""
    game = fight("veteran", "secutor", 6, 6, 1)
    _play_rounds(game, 9, attack=False)
    assert game.state.arena.fight is not None and game.state.arena.fight.round == 10
    _play_rounds(game, 1, attack=False)
    assert game.state.arena.fight is None and game.state.arena.outcome == "yield"
    assert any("10 rounds without an attack" in line for line in game.log_for(None))


def test_one_attack_starts_the_count_of_quiet_rounds_again() -> None:
    """ruling: only rounds in a row without an attack count towards the roll-off."""
    game = fight("veteran", "secutor", 6, 6, 1)
    _play_rounds(game, 9, attack=False)
    _play_rounds(game, 1, attack=True)
    _play_rounds(game, 9, attack=False)
    f = game.state.arena.fight
    assert f is not None and f.round == 20 and f.quiet == 9


def _step_towards(game, seat: int, target: tuple[int, int]) -> str:
    from harena.core.spartacus.board import Hex, distance

    me = next(f for f in game.state.arena.fighters if f.seat == seat)
    steps = dict(game.content.board.steps[me.at])
    options = [c for c in choices(game, seat) if c.startswith("step:")]
    return min(options, key=lambda c: distance(steps[c.split(":")[1]], Hex(*target)))


def test_a_combatant_moves_then_attacks_and_may_not_move_on() -> None:
    """rules: Combat Round - "Each player moves and attacks (or vice versa)"."""
    game = fight("veteran", "secutor", 6, 6, 1)  # veteran 3/3/2 acts first
    game.act(1, "first")
    place(game, (0, 0), (0, 2))
    game.act(1, _step_towards(game, 1, (0, 2)))
    assert "attack" in choices(game, 1)
    more_dice(game, 1, 1, 1, 6, 6, 6, 6)  # no wounds
    game.act(1, "attack")
    assert choices(game, 1) == ["end"]  # 1 Speed die left, but moving on is not allowed


def test_a_combatant_attacks_then_moves_away() -> None:
    """rules: Combat Round - "moves and attacks (or vice versa)": attack first, then move."""
    game = fight("veteran", "secutor", 6, 6, 1)
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 1, 1, 1, 6, 6, 6, 6)
    game.act(1, "attack")
    steps = [c for c in choices(game, 1) if c.startswith("step:")]
    assert steps and "attack" not in choices(game, 1)
    game.act(1, steps[0])
    game.act(1, next(c for c in choices(game, 1) if c.startswith("step:")))
    assert choices(game, 1) == ["end"]  # both Speed dice used after the attack
