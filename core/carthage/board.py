"""The board of Carthage (`game.board`): the primitive changes, a step, damage, knockback, Armor, Favor, Focus,
elimination, and the look-ups they need (who stands where, what blocks a hex).

rulebook: Action Cards; Arena Token Definitions; How to Win. `resolve.EffectResolver` builds on
these to run whole cards step by step.
"""

from __future__ import annotations

from collections.abc import Iterator

from harena.core.carthage.cards import TokenKind, TokenTrigger
from harena.core.carthage.effects import Hook
from harena.core.carthage.hexgrid import DIRECTIONS, Direction, Hex, distance
from harena.core.carthage.part import Part
from harena.core.carthage.state import (
    MAX_ARMOR,
    MAX_FAVOR,
    MIN_PLAYER_CARDS,
    BoardToken,
    Frame,
    Phase,
    Source,
)


class Board(Part):
    """`game.board`: the look-ups on the board (who stands where) and the primitive changes to
    it, shared by effects and phases."""

    # -- lookups ------------------------------------------------------------------------------------

    def name_of(self, seat: int) -> str:
        """The seat's gladiator ("Blue Retiarius"), or "Seat 2" before it has chosen one; an
        Arena Beast is "Lion (Blue Retiarius)"; the Essedari Maximo is himself."""
        chariot = self.game.essedari_mode.name_of(seat)
        if chariot is not None:
            return chariot
        p = self.state.players[seat]
        name = self.game.gladiator_names.get(p.colour, f"Seat {seat + 1}")
        if p.beast is not None and not p.alive:
            return f"{self.content.beast(p.beast).name} ({name})"
        return name

    def class_of(self, seat: int) -> str:
        """The seat's gladiator class ("Retiarius"), or "" before it has chosen one."""
        colour = self.state.players[seat].colour
        return self.game.gladiator_classes.get(colour, "")

    def card_name(self, instance: int) -> str:
        return self.game.card_names[self.state.cards[instance]]

    def occupant(self, h: Hex) -> int | None:
        for seat, p in enumerate(self.state.players):
            if p.at == h:
                return seat
        return None

    def is_pillar(self, h: Hex) -> bool:
        token = self.state.tokens.get(h)
        return token is not None and self.token_defs[token.token].kind.blocks

    def edge_closed(self, h: Hex) -> bool:
        hooks = self.state.hooks  # this round's Theater hooks: most rounds, none
        return bool(hooks) and Hook.EDGE_CLOSED.value in hooks and self.arena.is_edge(h)

    def can_enter(self, h: Hex | None) -> bool:
        """rulebook: Action Cards, Movement ("may not move onto an occupied space"); Pillar
        ("cannot be occupied and cannot be passed through")."""
        return (
            h is not None
            and not self.is_pillar(h)
            and self.occupant(h) is None
            and not self.edge_closed(h)
            and not self.game.essedari_mode.blocks(h)
        )

    def can_be_knocked_to(self, seat: int, h: Hex | None) -> bool:
        """Whether a knockback may carry `seat` onto `h` (the Chained Match adds the chain)."""
        return self.can_enter(h) and h is not None and self.game.team_mode.keeps_chain(seat, h)

    def step_directions(self, frame: Frame) -> Iterator[Direction]:
        """The directions the frame's owner may step in now, in `Direction` order; lazily: the
        resolver asks only whether there is one (a gladiator boxed in loses its steps)."""
        at = self.state.players[frame.owner].at
        assert at is not None
        if frame.move_dir is not None:  # a straight Move keeps its line
            dirs: tuple[Direction, ...] = (frame.move_dir,)
        else:
            dirs = DIRECTIONS
        keeps_chain = self.game.team_mode.keeps_chain
        for d in dirs:
            h = self.arena.step(at, d)
            if self.can_enter(h) and h is not None and keeps_chain(frame.owner, h):
                yield d

    def damage_targets(self, frame: Frame, reach: int) -> list[int]:
        """Opponents within `reach` hexes (rulebook: General Clarifying Rules, Range). After a
        straight Move only the opponent straight ahead may be hit (Horned Charge)."""
        at = self.state.players[frame.owner].at
        assert at is not None
        if frame.move_dir is not None:
            ahead = self.arena.ray(at, frame.move_dir, reach)
            found = [s for s in map(self.occupant, ahead) if s is not None][:1]
            targets = [s for s in found if self.may_hit(frame.owner, s)]
        else:
            targets = [
                seat
                for seat, p in enumerate(self.state.players)
                if seat != frame.owner and p.at is not None and distance(at, p.at) <= reach
                and self.may_hit(frame.owner, seat)
            ]  # fmt: skip
        return self.game.essedari_mode.damage_targets(frame, reach, targets)

    def may_hit(self, attacker: int, seat: int) -> bool:
        """Gladiators hit gladiators and Arena Beasts; a Beast hunts gladiators only
        (ruling, docs/rulings.md: Beasts never fight each other)."""
        if self.state.players[seat].alive:
            return True
        return self.game.beast_rules.is_beast(seat) and not self.game.beast_rules.is_beast(attacker)

    def opponents(self, seat: int) -> list[int]:
        return [s for s, p in enumerate(self.state.players) if s != seat and p.alive]

    def may_focus(self, seat: int) -> bool:
        """ruling: Focus never leaves a player fewer cards than a full hand (docs/rulings.md)."""
        p = self.state.players[seat]
        return bool(p.discard) and len(p.deck) + len(p.discard) + len(p.hand) > MIN_PLAYER_CARDS

    # -- primitives -------------------------------------------------------------------------------

    def step(self, seat: int, direction: Direction) -> None:
        """One hex of Movement; a face-up token entered resolves at once."""
        p = self.state.players[seat]
        assert p.at is not None
        beast = self.game.beast_rules.is_beast(
            seat
        )  # rulebook: Arena Beasts occupy but never activate tokens,
        if not beast:  # and tokens do not flip when a Beast moves off them
            self.leave(p.at)
        p.at = self.arena.step(p.at, direction)
        assert p.at is not None
        self.game.emit(f"{self.name_of(seat)} steps {direction.name}")
        for hook in self.game.hooks.stepped:
            hook(seat)
        if not p.alive:
            return
        token = self.state.tokens.get(p.at)
        if token is not None and token.face_up and not beast:
            kind = self.token_defs[token.token]
            if kind.kind.trigger is TokenTrigger.ENTER:
                self.game.emit(f"{self.name_of(seat)} takes the {kind.name} token")
                self.state.stack.append(Frame(seat, Source.TOKEN, token.token))

    def leave(self, h: Hex) -> None:
        """rulebook: How to Use the Arena Tokens - a token is flipped face down when left."""
        token: BoardToken | None = self.state.tokens.get(h)
        if token is not None and self.token_defs[token.token].kind.flips_when_left:
            token.face_up = False

    def deal_damage(self, frame: Frame, target: int, amount: int) -> None:
        # rulebook: Theater cards do not affect Arena Beasts, neither their bite nor their hide
        beasts = self.game.beast_rules.is_beast(frame.owner) or self.game.beast_rules.is_beast(
            target
        )
        if Hook.DAMAGE_PLUS_ONE.value in self.state.hooks and not beasts:
            amount += 1
        amount = self.damage_taken(target, amount)
        frame.hit = True
        frame.target = target
        self.game.emit(
            f"{self.name_of(frame.owner)} deals {amount} Damage to {self.name_of(target)}"
        )
        self.lose_armor(target, amount, "takes")

    def knock_back(self, seat: int, direction: Direction, spaces: int) -> None:
        """rulebook: Knockback - X STRAIGHT spaces away; not off the Arena, onto a gladiator or
        a Pillar. ruling: a knockback stopped short deals 1 more Damage, a Spiked Pillar 1 more
        on top; landing on a face-up Crocodile costs 1 Armor; no other token triggers."""
        p = self.state.players[seat]
        assert p.at is not None
        if self.game.equipment_rules.knockback_immune(seat):
            self.game.emit(f"{self.name_of(seat)} stands firm: no Knockback")
            return
        beast = self.game.beast_rules.is_beast(seat)
        start = at = p.at
        extra = 0
        for _ in range(spaces):
            nxt = self.arena.step(at, direction)
            if not self.can_be_knocked_to(seat, nxt):
                extra = 1
                if nxt is not None:
                    token = self.state.tokens.get(nxt)
                    if (
                        token is not None
                        and self.token_defs[token.token].kind is TokenKind.SPIKED_PILLAR
                    ):
                        extra += self.token_defs[token.token].value
                break
            if not beast:
                self.leave(at)
            assert nxt is not None  # (can_be_knocked_to is False off the arena)
            at = nxt
        p.at = at
        if at != start:
            hexes = distance(start, at)
            self.game.emit(
                f"{self.name_of(seat)} is knocked back {direction.name}"
                + (f" {hexes} hexes" if hexes > 1 else "")
            )
            token = self.state.tokens.get(at)
            if token is not None and token.face_up and not beast:
                kind = self.token_defs[token.token]
                if kind.kind is TokenKind.CROCODILE:
                    self.game.emit(f"the Crocodile bites {self.name_of(seat)}")
                    self.lose_armor(seat, kind.value, "loses")
        if extra and (p.alive or beast):
            extra = self.damage_taken(seat, extra)
            self.game.emit(
                f"{self.name_of(seat)} cannot be knocked back further: {extra} more Damage"
            )
            self.lose_armor(seat, extra, "takes")

    def damage_taken(self, seat: int, amount: int) -> int:
        """The Damage `seat` takes of `amount` (Heavy Scutum halves it: hooks.damage_taken)."""
        for hook in self.game.hooks.damage_taken:
            amount = hook(seat, amount)
        return amount

    def gain_armor(self, seat: int, amount: int) -> None:
        p = self.state.players[seat]
        p.armor = min(MAX_ARMOR, p.armor + amount)
        self.game.emit(f"{self.name_of(seat)} gains {amount} Armor ({p.armor})")

    def lose_armor(self, seat: int, amount: int, verb: str) -> None:
        if self.game.essedari_mode.wound(seat, amount, verb):
            return  # the Essedari Maximo's Armor
        p = self.state.players[seat]
        if self.game.beast_rules.is_beast(seat) and p.at is not None:
            self.game.beast_rules.wound_beast(seat, amount)
            return
        if not p.alive:
            return
        p.armor -= amount
        self.game.emit(f"{self.name_of(seat)} {verb} {amount}: Armor {p.armor}")
        if p.armor <= 0:
            self.eliminate(seat)

    def change_favor(self, seat: int, amount: int) -> None:
        if self.game.essedari_mode.is_chariot(seat):
            return  # he has no Favor to lose
        p = self.state.players[seat]
        p.favor = max(0, min(MAX_FAVOR, p.favor + amount))
        verb = "gains" if amount > 0 else "loses"
        self.game.emit(f"{self.name_of(seat)} {verb} {abs(amount)} Favor ({p.favor})")

    def focus(self, seat: int, instance: int) -> None:
        p = self.state.players[seat]
        p.discard.remove(instance)
        p.focus.append(instance)
        self.game.emit(f"{self.name_of(seat)} Focuses {self.card_name(instance)}")

    def eliminate(self, seat: int) -> None:
        """rulebook: How to Win - eliminated at once at 0 Armor or less; the last gladiator
        standing wins, so the game ends the moment one is left (All or Nothing: the opponent
        falls first, and its player has already won)."""
        s = self.state
        p = s.players[seat]
        p.alive = False
        if p.at is not None:
            self.leave(p.at)
            p.at = None
        s.eliminated.append(seat)
        self.game.emit(f"{self.name_of(seat)} is eliminated!")
        alive = [i for i, q in enumerate(s.players) if q.alive]
        if s.starting == seat:
            s.starting = self.next_alive(seat)
        if s.initiator == seat:
            s.initiator = None
        self.last_standing(alive, seat)

    def last_standing(self, alive: list[int], fallen: int) -> None:
        """rulebook: How to Win - the last gladiator (or team: teams.py) standing wins; else
        the fallen player may return as an Arena Beast (beast_rules). Against the Essedari
        Maximo the game ends otherwise (essedari/chariot.py)."""
        s = self.state
        if self.game.essedari_mode.active:
            self.game.essedari_mode.last_standing(alive)
            return
        winner = self.game.team_mode.standing_winner(alive)
        if winner is not None:
            s.winner = winner
            s.phase = Phase.OVER
            self.game.emit(self.game.team_mode.victory_text(winner))
        else:
            self.game.beast_rules.offer_beast(fallen)

    # -- what the Essedari Maximo changes (core/carthage/essedari/chariot.py) ------------------

    def knockable(self, seat: int) -> bool:
        """ruling (docs/essedari.md): a chariot is not knocked back."""
        return not self.game.essedari_mode.is_chariot(seat) and self.state.players[seat].alive

    def pass_card_to(self, seat: int | None) -> int | None:
        """Whose discard pile a passed card goes to (None: its own player's). rulebook: a
        card passed to the Essedari Maximo "goes in the Discard Pile of the player"."""
        return None if self.game.essedari_mode.is_chariot(seat) else seat

    def steps_allowed(self, seat: int, steps: int) -> int:
        """How many of a Move's steps `seat` may take (the Net stops them)."""
        return self.game.essedari_mode.steps_allowed(seat, steps)

    def may_hold_back(self, frame: Frame, targets: list[int]) -> bool:
        """Whether the card's player may decline to deal this Damage ("target:none"): when a
        teammate is among its targets (rulebook: 2 VS 2, "Teammates may Damage one another if
        they choose"; Co-op Rules, "if desired")."""
        return any(self.is_teammate(frame.owner, t) for t in targets)

    def is_teammate(self, seat: int, other: int) -> bool:
        """Whether `other` is a gladiator on `seat`'s side (the team modes, co-op)."""
        return self.game.essedari_mode.is_teammate(seat, other) or self.game.team_mode.is_teammate(
            seat, other
        )

    def next_alive(self, seat: int) -> int:
        """The next living gladiator clockwise after `seat` (turn order is seat order)."""
        n = len(self.state.players)
        for k in range(1, n + 1):
            if self.state.players[(seat + k) % n].alive:
                return (seat + k) % n
        return seat
