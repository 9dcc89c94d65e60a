"""rules: Combat Basics (pp. 14-16 of the manual; FAQ 1-4) on the Arena hex board.

Each round both combatants roll their Speed dice and sum them (ties roll again); the winner
chooses to act first or second. Acting, a combatant moves up to one hex per Speed die and
attacks an adjacent opponent once, in either order. An attack rolls ATK against DEF, both
sorted high to low and paired: a wound per attack die higher than its defence die (ties to the
defender), and every unopposed attack die wounds on 3 or more. The wounded side gives up one
die per wound, choosing the pools under the Rule of One (no pool below 1 while another has
more than 1). Pools at zero: one = yield, two = wound, three = decapitation. Cards and
equipment override: extra dice, rerolls, keener unopposed strikes.

Choice ids: "first", "second", "step:<NE|E|SE|SW|W|NW>", "attack", "end", "lose:<atk|def|spd>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import counted
from harena.core.spartacus.board import distance
from harena.core.spartacus.cards import ExtraDice, KeenStrike, Pool, Reroll, Roll
from harena.core.spartacus.choices import LoseDie, Say, StepTo, Word
from harena.core.spartacus.state import (
    QUIET_ROUNDS,
    UNOPPOSED_WOUNDS_FROM,
    ArenaState,
    Fight,
    Fighter,
)

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

POOLS = ("atk", "def", "spd")
_POOL_NAMES = {"atk": "Attack", "def": "Defense", "spd": "Speed"}
_FIELD = {"atk": "atk", "def": "defence", "spd": "spd"}


def arm(game: Spartacus, fighter: Fighter) -> None:
    """The fighter's pools: the card's dice plus extra dice from the card and its equipment."""
    card = game.card(fighter.card)
    fighter.atk, fighter.defence, fighter.spd = card.atk, card.defence, card.spd
    for effect in effects_of(game, fighter):
        if isinstance(effect, ExtraDice):
            name = _FIELD[effect.pool.value]
            setattr(fighter, name, getattr(fighter, name) + effect.count)


def effects_of(game: Spartacus, fighter: Fighter) -> list[object]:
    out = list(game.card(fighter.card).combat)
    for e in fighter.equipment:
        out.extend(game.card(e).combat)
    return out


def pools(fighter: Fighter) -> dict[str, int]:
    return {"atk": fighter.atk, "def": fighter.defence, "spd": fighter.spd}


def legal_losses(fighter: Fighter) -> list[str]:
    """rules: Rule of One - a pool may drop below 1 only when every other pool is down to 1."""
    have = pools(fighter)
    out = []
    for name, n in have.items():
        if n > 1 or (n == 1 and all(m <= 1 for other, m in have.items() if other != name)):
            out.append(name)
    return out


def zeros(fighter: Fighter) -> int:
    return sum(1 for n in pools(fighter).values() if n == 0)


def roll(game: Spartacus, fighter: Fighter, dice: int, kind: Roll) -> list[int]:
    """Roll `dice` dice and apply the fighter's rerolls for this kind of roll, highest first."""
    faces = [game.rng.roll() for _ in range(dice)]
    for effect in effects_of(game, fighter):
        if isinstance(effect, Reroll) and effect.roll is kind:
            low = sorted(
                (i for i, f in enumerate(faces) if f <= effect.at_most), key=lambda i: faces[i]
            )
            for i in low[: effect.count]:
                faces[i] = game.rng.roll()
    return sorted(faces, reverse=True)


def threshold(game: Spartacus, fighter: Fighter) -> int:
    keen = [e.threshold for e in effects_of(game, fighter) if isinstance(e, KeenStrike)]
    return min(keen, default=UNOPPOSED_WOUNDS_FROM)


# --- the round ------------------------------------------------------------------------------------


def begin(game: Spartacus, arena: ArenaState) -> None:
    arena.fight = Fight()
    next_round(game, arena)


def next_round(game: Spartacus, arena: ArenaState) -> None:
    fight = arena.fight
    assert fight is not None
    if fight.round:
        fight.quiet = 0 if fight.struck else fight.quiet + 1
    fight.round += 1
    fight.struck = False
    if fight.quiet >= QUIET_ROUNDS:
        _settle_by_speed(game, arena)
        return
    winner = _initiative(game, arena, f"Round {fight.round}: initiative")
    fight.chooser = winner


def _initiative(game: Spartacus, arena: ArenaState, what: str) -> int:
    """FAQ 3 - both roll all their Speed dice and sum them; roll again on a tie."""
    a, b = arena.fighters
    while True:
        ra = roll(game, a, a.spd, Roll.INITIATIVE)
        rb = roll(game, b, b.spd, Roll.INITIATIVE)
        shown = [f"{who(game, f)} rolls {_dice(r)} = {sum(r)}" for f, r in ((a, ra), (b, rb))]
        game.emit(f"{what}: {', '.join(shown)}")
        fight = arena.fight
        if fight is not None:
            fight.roll_kind, fight.roll_dice, fight.roll_by = (
                "initiative",
                [list(ra), list(rb)],
                None,
            )
        if sum(ra) != sum(rb):
            return 0 if sum(ra) > sum(rb) else 1


def _settle_by_speed(game: Spartacus, arena: ArenaState) -> None:
    """ruling: after QUIET_ROUNDS rounds in a row without an attack the crowd has seen
    enough; a Speed roll-off decides and the loser yields. A fight in which blows are struck
    always ends by the rules: every attack has a chance to wound, and wounds only remove dice."""
    game.emit(
        f"{QUIET_ROUNDS} rounds without an attack: the crowd has seen enough, "
        "a roll-off of Speed decides it"
    )
    winner = _initiative(game, arena, "Roll-off")
    arena.loser = 1 - winner
    arena.outcome = "yield"
    arena.fight = None


def who(game: Spartacus, fighter: Fighter) -> str:
    return f"{game.name_of(fighter.seat)}'s {game.card(fighter.card).name}"


def _dice(faces: list[int]) -> str:
    return " ".join(map(str, faces)) or "-"


def prompts(game: Spartacus, arena: ArenaState) -> list[Prompt]:
    fight = arena.fight
    assert fight is not None
    if fight.chooser is not None:
        seat = arena.fighters[fight.chooser].seat
        order = (Say.of(Word.FIRST, "Act first"), Say.of(Word.SECOND, "Act second"))
        return [Prompt(seat, "initiative", "You won the initiative", order)]
    if fight.defender is not None:
        f = arena.fighters[fight.defender]
        have = pools(f)
        choices = tuple(
            LoseDie.of(p, f"{_POOL_NAMES[p]} ({have[p]} -> {have[p] - 1})") for p in legal_losses(f)
        )
        return [
            Prompt(f.seat, "lose_die", f"{counted(fight.damage, 'wound')}: give up a die", choices)
        ]
    me = arena.fighters[fight.order[fight.acting]]
    other = arena.fighters[1 - fight.order[fight.acting]]
    out: list[Choice] = []
    # rules: Combat Round - "moves and attacks (or vice versa)": move then attack, or attack
    # then move, never move, attack and move on.
    if fight.moves > 0 and not (fight.attacked and fight.moved_first):
        for name, h in game.content.board.steps[me.at]:
            if h != other.at:
                out.append(StepTo.of(name, f"Move {name} to {h.q},{h.r}"))
    if not fight.attacked and distance(me.at, other.at) == 1:
        out.append(Say.of(Word.ATTACK, f"Attack {who(game, other)}"))
    out.append(Say.of(Word.END, "End your action"))
    text = f"Fight round {fight.round}: {counted(fight.moves, 'move')} left" + (
        "" if not fight.attacked else ", attacked"
    )
    return [Prompt(me.seat, "fight", text, tuple(out))]


def apply(game: Spartacus, arena: ArenaState, chosen: Choice) -> None:
    fight = arena.fight
    assert fight is not None
    match chosen:
        case Say(word=Word.FIRST | Word.SECOND as word):
            chooser = fight.chooser
            assert chooser is not None
            fight.chooser = None
            first = word is Word.FIRST
            fight.order = [chooser, 1 - chooser] if first else [1 - chooser, chooser]
            game.emit(f"{game.name_of(arena.fighters[chooser].seat)} chooses to act {word.value}")
            _activate(arena, 0)
        case StepTo(direction=direction):
            me = arena.fighters[fight.order[fight.acting]]
            me.at = dict(game.content.board.steps[me.at])[direction]
            fight.moves -= 1
            fight.moved_first = fight.moved_first or not fight.attacked
            # by its direction alone, as players say it: no hex of the map has a name on screen
            game.emit(f"{who(game, me)} moves {direction}")
        case Say(word=Word.ATTACK):
            _attack(game, arena)
        case Say(word=Word.END):
            if fight.acting == 0:
                _activate(arena, 1)
            else:
                next_round(game, arena)
        case LoseDie(pool=pool):
            _lose(game, arena, pool)


def _activate(arena: ArenaState, position: int) -> None:
    fight = arena.fight
    assert fight is not None
    fight.acting = position
    fight.moves = arena.fighters[fight.order[position]].spd
    fight.attacked = False
    fight.moved_first = False


def _attack(game: Spartacus, arena: ArenaState) -> None:
    """FAQ 2 - ATK against DEF, sorted and paired; unopposed dice wound on 3+."""
    fight = arena.fight
    assert fight is not None
    fight.attacked = fight.struck = True
    me_index = fight.order[fight.acting]
    me, other = arena.fighters[me_index], arena.fighters[1 - me_index]
    attack = roll(game, me, me.atk, Roll.ATTACK)
    defence = roll(game, other, other.defence, Roll.DEFENSE)
    wounds = sum(1 for a, d in zip(attack, defence, strict=False) if a > d)
    keen = threshold(game, me)
    wounds += sum(1 for a in attack[len(defence) :] if a >= keen)
    dice: list[list[int]] = [[], []]
    dice[me_index], dice[1 - me_index] = list(attack), list(defence)
    fight.roll_kind, fight.roll_dice, fight.roll_by = "attack", dice, me_index
    game.emit(
        f"{who(game, me)} attacks: {_dice(attack)} against {_dice(defence)}: {counted(wounds, 'wound')}"
    )
    if wounds:
        fight.damage = wounds
        fight.defender = 1 - me_index
        _take(game, arena)


def _take(game: Spartacus, arena: ArenaState) -> None:
    """Give up dice until the damage is taken; ask only when the choice matters."""
    fight = arena.fight
    assert fight is not None and fight.defender is not None
    f = arena.fighters[fight.defender]
    while fight.damage > 0 and zeros(f) < 3:
        legal = legal_losses(f)
        if len(legal) > 1 and any(pools(f)[p] > 1 for p in legal):
            return  # prompt lose_die
        _remove(game, f, legal[0])
        fight.damage -= 1
    fight.damage = 0
    fight.defender = None
    if zeros(f):
        arena.loser = arena.fighters.index(f)
        arena.outcome = ("yield", "wound", "decapitation")[zeros(f) - 1]
        arena.fight = None


def _remove(game: Spartacus, f: Fighter, pool: str) -> None:
    setattr(f, _FIELD[pool], getattr(f, _FIELD[pool]) - 1)
    article = "an" if _POOL_NAMES[pool][0] in "AEIOU" else "a"
    game.emit(f"{who(game, f)} loses {article} {_POOL_NAMES[pool]} die")


def _lose(game: Spartacus, arena: ArenaState, pool: str) -> None:
    fight = arena.fight
    assert fight is not None and fight.defender is not None
    _remove(game, arena.fighters[fight.defender], pool)
    fight.damage -= 1
    _take(game, arena)


__all__ = ["POOLS", "Pool", "apply", "arm", "begin", "legal_losses", "prompts", "zeros"]
