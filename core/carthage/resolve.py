"""Resolving effects one operation at a time: movement hex by hex, damage, knockback, tokens.

A card side, a token or a Theater card becomes a flat *program* (`build_program`): its effects in
order, with Strike Bonus and Conditional turned into gates that skip what they hold. A `Frame`
on the state's stack runs one program for one gladiator; when an effect needs a decision the
frame records what it waits for (`Frame.wait`) and the rules ask the owner through a prompt.
A face-up token entered mid-move pushes its own frame on top, so it resolves at once and the
card goes on afterwards (rulebook: How to Use the Arena Tokens).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harena.core.carthage.choices import DiscardChoice, FocusCard, SeatChoice, StepChoice
from harena.core.carthage.effects import (
    Armor,
    Condition,
    Conditional,
    Damage,
    DiscardCard,
    Effect,
    Favor,
    FocusFromDiscard,
    FocusThisCard,
    Gear,
    Knockback,
    Move,
    OpponentLosesFavor,
    PassCard,
    PassStartingPlayer,
    RuleHook,
    StrikeBonus,
    Target,
)
from harena.core.carthage.hexgrid import Direction, knockback_directions
from harena.core.carthage.part import Part
from harena.core.carthage.state import Frame, Phase, Source, Wait
from harena.core.engine import Choice
from harena.core.plural import counted

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


@dataclass(frozen=True, slots=True)
class Gate:
    """Skip the next `length` operations unless the last Damage hit (`needs_hit`: Strike
    Bonus) or `when` holds (Conditional)."""

    length: int
    needs_hit: bool = False
    when: Condition | None = None


Op = Effect | Gate


def build_program(effects: tuple[Effect, ...]) -> tuple[Op, ...]:
    ops: list[Op] = []
    for effect in effects:
        if isinstance(effect, StrikeBonus):
            inner = build_program(effect.effects)
            ops.append(Gate(len(inner), needs_hit=True))
            ops.extend(inner)
        elif isinstance(effect, Conditional):
            inner = build_program(effect.effects)
            ops.append(Gate(len(inner), when=effect.when))
            ops.extend(inner)
        else:
            ops.append(effect)
    return tuple(ops)


class EffectResolver(Part):
    """Runs frames one operation at a time (see the module docstring): `game.resolver`."""

    def __init__(self, game: Carthage) -> None:
        super().__init__(game)
        self._programs: dict[tuple[Source, str, int], tuple[Op, ...]] = {}

    def program(self, frame: Frame) -> tuple[Op, ...]:
        key = (frame.source, frame.ref, frame.side)
        prog = self._programs.get(key)
        if prog is None:
            if frame.source is Source.CARD:
                effects = self.content.card(frame.ref).sides[frame.side].effects
            elif frame.source is Source.TOKEN:
                effects = self.token_defs[frame.ref].effects
            elif frame.source is Source.RULESET:
                effects = self.game.rulesets.ruleset_effects(frame.ref)
            elif frame.source is Source.EQUIPMENT:
                effects = self.content.equipment_card(frame.ref).effects
            elif frame.source is Source.BEAST:
                effects = self.content.beast(frame.ref).effects
            else:
                effects = self.content.theater(frame.ref).effects
            prog = self._programs[key] = build_program(effects)
        return prog

    # -- running frames ---------------------------------------------------------------------------

    def run_frames(self) -> bool:
        """Resolve the stack until a frame waits for a decision (False) or it is empty (True)."""
        s = self.state
        while s.stack:
            if s.phase is Phase.OVER:
                return True
            frame = s.stack[-1]
            if frame.wait is not None or any(held(frame) for held in self.game.hooks.frame_held):
                return False
            if not self.game.beast_rules.frame_can_run(frame):
                self.finish_frame()
                continue
            prog = self.program(frame)
            if frame.pc >= len(prog):
                self.finish_frame()
                continue
            self.run_op(frame, prog[frame.pc])
        return True

    def finish_frame(self) -> None:
        """Pop the top frame; an Action card's frame sends the card where it belongs."""
        s = self.state
        frame = s.stack.pop()
        if frame.source is not Source.CARD or s.in_play is None:
            return
        instance, owner = s.in_play.instance, s.players[frame.owner]
        s.in_play = None
        name = self.game.board.card_name(instance)
        if frame.focus_card:
            owner.focus.append(instance)
            self.game.emit(f"{self.game.board.name_of(frame.owner)} Focuses {name}")
        elif frame.pass_to is not None:
            s.players[frame.pass_to].discard.append(instance)
            self.game.emit(
                f"{name} goes to {self.game.board.name_of(frame.pass_to)}'s discard pile"
            )
        else:
            owner.discard.append(instance)

    def run_op(self, frame: Frame, op: Op) -> None:
        """Run one operation of the frame's program: `_OP_RULES` names the rule for each kind."""
        rule = _OP_RULES.get(type(op))
        if rule is None:  # pragma: no cover - content validation admits nothing else
            raise TypeError(f"no rule for effect {op!r}")
        rule(self, frame, op)

    # -- one rule per operation (registered in _OP_RULES at the end of the module) ----------------

    def _gate(self, frame: Frame, op: Gate) -> None:
        if op.needs_hit:
            ok = frame.hit
        else:
            fifth = self.state.in_play is not None and self.state.in_play.fifth
            ok = fifth if op.when is Condition.PLAYED_FIFTH else not fifth
        frame.pc += 1 if ok else 1 + op.length

    def _gear(self, frame: Frame, op: Gear) -> None:
        self.game.equipment_rules.run_gear(frame, op)

    def _move(self, frame: Frame, op: Move) -> None:
        board = self.game.board
        if frame.hobbled:
            frame.pc += 1  # Weighted Bola (equipment_rules.mark_hobbled)
            self.game.emit(f"{board.name_of(frame.owner)} cannot Move: tangled in the Bola")
            return
        if frame.left is None:
            frame.left = board.steps_allowed(frame.owner, op.steps)
        if frame.left > 0 and next(board.step_directions(frame), None) is not None:
            frame.wait = Wait.MOVE_STEP
            return
        if frame.left > 0:
            # ruling: boxed in, the remaining steps are lost (docs/rulings.md)
            self.game.emit(
                f"{board.name_of(frame.owner)} is boxed in: {counted(frame.left, 'step')} lost"
            )
        frame.left = None
        frame.pc += 1

    def _damage(self, frame: Frame, op: Damage) -> None:
        board = self.game.board
        targets = board.damage_targets(frame, op.reach)
        if len(targets) > 1 or (targets and board.may_hold_back(frame, targets)):
            frame.damage = op.amount
            frame.wait = Wait.TARGET
            return
        frame.hit = False
        if targets:
            board.deal_damage(frame, targets[0], op.amount)
        else:
            self.game.emit(
                f"{board.name_of(frame.owner)}'s Damage {op.amount} finds nobody in reach"
            )
        frame.pc += 1

    def _knockback(self, frame: Frame, op: Knockback) -> None:
        target = frame.target
        frame.pc += 1
        if not frame.hit or target is None or not self.game.board.knockable(target):
            return
        if op.along_move and frame.move_dir is not None:
            dirs: tuple[Direction, ...] = (frame.move_dir,)
        else:
            my_at, target_at = self.state.players[frame.owner].at, self.state.players[target].at
            assert my_at is not None and target_at is not None
            dirs = knockback_directions(my_at, target_at)
        if len(dirs) > 1:
            frame.pc -= 1
            frame.damage = op.spaces
            frame.wait = Wait.KNOCKBACK
            return
        self.game.board.knock_back(target, dirs[0], op.spaces)

    def _armor(self, frame: Frame, op: Armor) -> None:
        frame.pc += 1
        if op.amount > 0:
            self.game.board.gain_armor(frame.owner, op.amount)
        else:
            self.game.board.lose_armor(frame.owner, -op.amount, "loses")

    def _favor(self, frame: Frame, op: Favor) -> None:
        frame.pc += 1
        self.game.board.change_favor(frame.owner, op.amount)

    def _opponent_loses_favor(self, frame: Frame, op: OpponentLosesFavor) -> None:
        if op.target is Target.ANY:
            choices = self.game.board.opponents(frame.owner)
            if len(choices) > 1:
                frame.damage = op.amount
                frame.wait = Wait.OPPONENT
                return
            frame.target = choices[0] if choices else None
        elif not frame.hit:
            frame.target = None
        frame.pc += 1
        if frame.target is not None:
            self.game.board.change_favor(frame.target, -op.amount)

    def _pass_card(self, frame: Frame, op: PassCard) -> None:
        frame.pc += 1
        frame.pass_to = self.game.board.pass_card_to(frame.target)

    def _focus_this_card(self, frame: Frame, op: FocusThisCard) -> None:
        frame.pc += 1
        frame.focus_card = True

    def _discard_card(self, frame: Frame, op: DiscardCard) -> None:
        if frame.left is None:
            frame.left = op.count
        if frame.left > 0 and self.state.players[frame.owner].hand:
            frame.wait = Wait.DISCARD
            return
        frame.left = None
        frame.pc += 1

    def _focus_from_discard(self, frame: Frame, op: FocusFromDiscard) -> None:
        if self.game.board.may_focus(frame.owner):
            frame.wait = Wait.FOCUS
            return
        frame.pc += 1

    def _pass_starting_player(self, frame: Frame, op: PassStartingPlayer) -> None:
        if len(self.game.board.opponents(frame.owner)) > 0:
            frame.wait = Wait.START_PLAYER
            return
        frame.pc += 1

    def _rule_hook(self, frame: Frame, op: RuleHook) -> None:
        frame.pc += 1
        if op.hook.value not in self.state.hooks:
            self.state.hooks.append(op.hook.value)

    # -- decisions --------------------------------------------------------------------------------

    def decide(self, chosen: Choice) -> None:
        """Apply the choice the waiting top frame's prompt made (prompts._effect_prompt):
        `_DECISIONS` names the rule for each kind of wait."""
        frame = self.state.stack[-1]
        wait, frame.wait = frame.wait, None
        if wait is not None:
            _DECISIONS[wait](self, frame, self.program(frame)[frame.pc], chosen)

    def _step_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, StepChoice)
        if isinstance(op, Move) and op.straight:
            frame.move_dir = chosen.direction
        assert frame.left is not None
        frame.left -= 1
        self.game.board.step(frame.owner, chosen.direction)

    def _target_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, SeatChoice)
        board = self.game.board
        if isinstance(op, Gear):  # Twin Blades, a teammate beside
            mate = self.game.equipment_rules.twin_blades_ask(frame)
            assert mate is not None
            frame.asked.append(mate)
            if chosen.seat is None:
                frame.spared.append(mate)
                self.game.emit(f"{board.name_of(frame.owner)} spares {board.name_of(mate)}")
            return
        frame.pc += 1
        frame.hit = False
        if chosen.seat is None:
            self.game.emit(f"{board.name_of(frame.owner)} holds back the Damage {frame.damage}")
        else:
            board.deal_damage(frame, chosen.seat, frame.damage)

    def _knockback_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, StepChoice) and frame.target is not None
        frame.pc += 1
        self.game.board.knock_back(frame.target, chosen.direction, frame.damage)

    def _opponent_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, SeatChoice) and chosen.seat is not None
        frame.pc += 1
        frame.target = chosen.seat
        self.game.board.change_favor(frame.target, -frame.damage)

    def _discard_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, DiscardChoice)
        board = self.game.board
        me = self.state.players[frame.owner]
        me.hand.remove(chosen.instance)
        me.discard.append(chosen.instance)
        self.game.emit(f"{board.name_of(frame.owner)} discards {board.card_name(chosen.instance)}")
        assert frame.left is not None
        frame.left -= 1

    def _focus_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        frame.pc += 1
        if isinstance(chosen, FocusCard):  # else "skip"
            self.game.board.focus(frame.owner, chosen.instance)

    def _start_player_chosen(self, frame: Frame, op: Op, chosen: Choice) -> None:
        assert isinstance(chosen, SeatChoice) and chosen.seat is not None
        frame.pc += 1
        self.state.starting = chosen.seat
        self.game.emit(f"{self.game.board.name_of(chosen.seat)} is now the Starting Player")


# The rule that runs each kind of operation. Strike Bonus and Conditional never reach it:
# build_program turns them into Gates.
_OP_RULES: dict[type, Callable[[EffectResolver, Frame, Any], None]] = {
    Gate: EffectResolver._gate,
    Gear: EffectResolver._gear,
    Move: EffectResolver._move,
    Damage: EffectResolver._damage,
    Knockback: EffectResolver._knockback,
    Armor: EffectResolver._armor,
    Favor: EffectResolver._favor,
    OpponentLosesFavor: EffectResolver._opponent_loses_favor,
    PassCard: EffectResolver._pass_card,
    FocusThisCard: EffectResolver._focus_this_card,
    DiscardCard: EffectResolver._discard_card,
    FocusFromDiscard: EffectResolver._focus_from_discard,
    PassStartingPlayer: EffectResolver._pass_starting_player,
    RuleHook: EffectResolver._rule_hook,
}

# The rule that applies the answer to each kind of wait (`Frame.wait`).
_DECISIONS: dict[Wait, Callable[[EffectResolver, Frame, Op, Choice], None]] = {
    Wait.MOVE_STEP: EffectResolver._step_chosen,
    Wait.TARGET: EffectResolver._target_chosen,
    Wait.KNOCKBACK: EffectResolver._knockback_chosen,
    Wait.OPPONENT: EffectResolver._opponent_chosen,
    Wait.DISCARD: EffectResolver._discard_chosen,
    Wait.FOCUS: EffectResolver._focus_chosen,
    Wait.START_PLAYER: EffectResolver._start_player_chosen,
}
