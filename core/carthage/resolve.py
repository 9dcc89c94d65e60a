"""Resolving effects one operation at a time: movement hex by hex, damage, knockback, tokens.

A card side, a token or a Theater card becomes a flat *program* (`build_program`): its effects in
order, with Strike Bonus and Conditional turned into gates that skip what they hold. A `Frame`
on the state's stack runs one program for one gladiator; when an effect needs a decision the
frame records what it waits for (`Frame.wait`) and the rules ask the owner through a prompt.
A face-up token entered mid-move pushes its own frame on top, so it resolves at once and the
card goes on afterwards (rulebook: How to Use the Arena Tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
from harena.core.carthage.primitives import Primitives
from harena.core.carthage.state import Frame, Phase, Source, Wait


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


class EffectResolver(Primitives):
    """The effect half of the Carthage rules; mixed into `rules.Carthage`."""

    _programs: dict[tuple[Source, str, int], tuple[Op, ...]]

    if TYPE_CHECKING:  # equipment_rules.EquipmentRules and beast_rules.BeastRules

        def run_gear(self, frame: Frame, op: Gear) -> None: ...
        def frame_can_run(self, frame: Frame) -> bool: ...
        def twin_blades_ask(self, frame: Frame) -> int | None: ...

    def program(self, frame: Frame) -> tuple[Op, ...]:
        key = (frame.source, frame.ref, frame.side)
        prog = self._programs.get(key)
        if prog is None:
            if frame.source is Source.CARD:
                effects = self.content.card(frame.ref).sides[frame.side].effects
            elif frame.source is Source.TOKEN:
                effects = self.token_defs[frame.ref].effects
            elif frame.source is Source.RULESET:
                effects = self.ruleset_effects(frame.ref)
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
            if frame.wait is not None or self.holds_frame(frame):  # held: Naked and Afraid
                return False
            if not self.frame_can_run(frame):
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
        name = self.card_name(instance)
        if frame.focus_card:
            owner.focus.append(instance)
            self.emit(f"{self.name_of(frame.owner)} Focuses {name}")
        elif frame.pass_to is not None:
            s.players[frame.pass_to].discard.append(instance)
            self.emit(f"{name} goes to {self.name_of(frame.pass_to)}'s discard pile")
        else:
            owner.discard.append(instance)

    def run_op(self, frame: Frame, op: Op) -> None:
        s = self.state
        me = s.players[frame.owner]
        if isinstance(op, Gate):
            if op.needs_hit:
                ok = frame.hit
            else:
                fifth = s.in_play is not None and s.in_play.fifth
                ok = fifth if op.when is Condition.PLAYED_FIFTH else not fifth
            frame.pc += 1 if ok else 1 + op.length
        elif isinstance(op, Move) and frame.hobbled:
            frame.pc += 1  # Weighted Bola (equipment_rules.mark_hobbled)
            self.emit(f"{self.name_of(frame.owner)} cannot Move: tangled in the Bola")
        elif isinstance(op, Gear):
            self.run_gear(frame, op)
        elif isinstance(op, Move):
            if frame.left is None:
                frame.left = self.steps_allowed(frame.owner, op.steps)
            if frame.left > 0 and self.step_directions(frame):
                frame.wait = Wait.MOVE_STEP
                return
            if frame.left > 0:
                # ruling: boxed in, the remaining steps are lost (docs/rulings.md)
                self.emit(f"{self.name_of(frame.owner)} is boxed in: {frame.left} step(s) lost")
            frame.left = None
            frame.pc += 1
        elif isinstance(op, Damage):
            targets = self.damage_targets(frame, op.reach)
            if len(targets) > 1 or (targets and self.may_hold_back(frame, targets)):
                frame.damage = op.amount
                frame.wait = Wait.TARGET
                return
            frame.hit = False
            if targets:
                self.deal_damage(frame, targets[0], op.amount)
            else:
                self.emit(f"{self.name_of(frame.owner)}'s Damage {op.amount} finds nobody in reach")
            frame.pc += 1
        elif isinstance(op, Knockback):
            target = frame.target
            frame.pc += 1
            if not frame.hit or target is None or not self.knockable(target):
                return
            if op.along_move and frame.move_dir is not None:
                dirs: tuple[Direction, ...] = (frame.move_dir,)
            else:
                assert me.at is not None and s.players[target].at is not None
                dirs = knockback_directions(me.at, s.players[target].at)  # type: ignore[arg-type]
            if len(dirs) > 1:
                frame.pc -= 1
                frame.damage = op.spaces
                frame.wait = Wait.KNOCKBACK
                return
            self.knock_back(target, dirs[0], op.spaces)
        elif isinstance(op, Armor):
            frame.pc += 1
            if op.amount > 0:
                self.gain_armor(frame.owner, op.amount)
            else:
                self.lose_armor(frame.owner, -op.amount, "loses")
        elif isinstance(op, Favor):
            frame.pc += 1
            self.change_favor(frame.owner, op.amount)
        elif isinstance(op, OpponentLosesFavor):
            if op.target is Target.ANY:
                choices = self.opponents(frame.owner)
                if len(choices) > 1:
                    frame.damage = op.amount
                    frame.wait = Wait.OPPONENT
                    return
                frame.target = choices[0] if choices else None
            elif not frame.hit:
                frame.target = None
            frame.pc += 1
            if frame.target is not None:
                self.change_favor(frame.target, -op.amount)
        elif isinstance(op, PassCard):
            frame.pc += 1
            frame.pass_to = self.pass_card_to(frame.target)
        elif isinstance(op, FocusThisCard):
            frame.pc += 1
            frame.focus_card = True
        elif isinstance(op, DiscardCard):
            if frame.left is None:
                frame.left = op.count
            if frame.left > 0 and me.hand:
                frame.wait = Wait.DISCARD
                return
            frame.left = None
            frame.pc += 1
        elif isinstance(op, FocusFromDiscard):
            if self.may_focus(frame.owner):
                frame.wait = Wait.FOCUS
                return
            frame.pc += 1
        elif isinstance(op, PassStartingPlayer):
            if len(self.opponents(frame.owner)) > 0:
                frame.wait = Wait.START_PLAYER
                return
            frame.pc += 1
        elif isinstance(op, RuleHook):
            frame.pc += 1
            if op.hook.value not in s.hooks:
                s.hooks.append(op.hook.value)
        else:  # pragma: no cover - content validation admits nothing else
            raise TypeError(f"no rule for effect {op!r}")

    # -- decisions --------------------------------------------------------------------------------

    def decide(self, choice: str) -> None:
        """Apply `choice` to the waiting top frame (the choice is already known to be legal)."""
        s = self.state
        frame = s.stack[-1]
        wait, frame.wait = frame.wait, None
        op = self.program(frame)[frame.pc]
        if wait is Wait.MOVE_STEP:
            direction = Direction[choice.removeprefix("dir:")]
            if isinstance(op, Move) and op.straight:
                frame.move_dir = direction
            assert frame.left is not None
            frame.left -= 1
            self.step(frame.owner, direction)
        elif wait is Wait.TARGET and isinstance(op, Gear):  # Twin Blades, a teammate beside
            mate = self.twin_blades_ask(frame)
            assert mate is not None
            frame.asked.append(mate)
            if choice == "target:none":
                frame.spared.append(mate)
                self.emit(f"{self.name_of(frame.owner)} spares {self.name_of(mate)}")
        elif wait is Wait.TARGET:
            frame.pc += 1
            frame.hit = False
            if choice == "target:none":
                self.emit(f"{self.name_of(frame.owner)} holds back the Damage {frame.damage}")
            else:
                self.deal_damage(frame, int(choice.removeprefix("target:")), frame.damage)
        elif wait is Wait.KNOCKBACK:
            frame.pc += 1
            assert frame.target is not None
            self.knock_back(frame.target, Direction[choice.removeprefix("dir:")], frame.damage)
        elif wait is Wait.OPPONENT:
            frame.pc += 1
            frame.target = int(choice.removeprefix("target:"))
            self.change_favor(frame.target, -frame.damage)
        elif wait is Wait.DISCARD:
            instance = int(choice.removeprefix("discard:"))
            me = s.players[frame.owner]
            me.hand.remove(instance)
            me.discard.append(instance)
            self.emit(f"{self.name_of(frame.owner)} discards {self.card_name(instance)}")
            assert frame.left is not None
            frame.left -= 1
        elif wait is Wait.FOCUS:
            frame.pc += 1
            if choice != "skip":
                self.focus(frame.owner, int(choice.removeprefix("focus:")))
        elif wait is Wait.START_PLAYER:
            frame.pc += 1
            s.starting = int(choice.removeprefix("start:"))
            self.emit(f"{self.name_of(s.starting)} is now the Starting Player")
