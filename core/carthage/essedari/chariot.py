"""The Essedari Maximo's rules, as overrides of the free-for-all's hooks; mixed into
`rules.Carthage` first, so every method falls through to the printed rules (`super()`) when
the table option `essedari` is off.

rulebook: Essedari Maximo (set up, rules), Co-op Rules, Solo Rules. Where those are silent the
rulings are in docs/essedari.md, each with its test in tests/core/carthage/test_essedari*.py.
"""

from __future__ import annotations

from typing import Any

from harena.core.carthage.essedari.actions import (
    Attack,
    ChariotAction,
    EssedariContent,
    Mode,
    default_essedari,
)
from harena.core.carthage.essedari.path import planned_path
from harena.core.carthage.essedari.state import EssedariState
from harena.core.carthage.essedari.track import track
from harena.core.carthage.hexgrid import Hex, distance, ring
from harena.core.carthage.primitives import Primitives
from harena.core.carthage.state import BoardToken, Frame, Phase
from harena.core.engine import Result, Rng

NAME = "Essedari Maximo"
OPTION = "essedari"


def mode_of(options: dict[str, str]) -> Mode | None:
    value = options.get(OPTION, "off")
    return None if value == "off" else Mode(value)


class EssedariRules(Primitives):
    """The built-in opponent (see the module docstring)."""

    rng: Rng
    players: int
    config: Any
    essedari: EssedariContent

    # -- who he is ----------------------------------------------------------------------------

    @property
    def chariot(self) -> int:
        """His target id: one past the last seat, so "target:<id>" choices name him and no
        player list can be indexed with it by mistake."""
        return len(self.state.players)

    def chariot_hex(self) -> Hex | None:
        ess = self.state.essedari
        return None if ess is None else self.track[ess.pos]

    @property
    def track(self) -> tuple[Hex, ...]:
        return track(self.arena)

    def name_of(self, seat: int) -> str:
        if self.state.essedari is not None and seat == self.chariot:
            return NAME
        return super().name_of(seat)

    # -- set up (rulebook: How to Set Up Essedari Maximo) --------------------------------------

    def setup(self) -> Any:
        state = super().setup()  # type: ignore[misc]
        if mode_of(self.config.options) is not None:
            # "Remove the Theater Cards from the game."
            state.theater_deck.clear()
            state.theater_discard.clear()
        return state

    def after_gladiators(self) -> None:
        s = self.state
        mode = mode_of(self.config.options)
        if mode is None or s.chosen < self.players:
            super().after_gladiators()  # type: ignore[misc]
            return
        rules = self.essedari.modes[mode]
        s.turn = s.starting
        # "Choose at random your Arena Tokens and place them on the inside edge of the Inner
        # Circle ... players plus one, with a minimum of 4 ... Co-op ... 3 ... Solo. Pillar
        # Tokens are not permitted."
        count = max(rules.min_tokens, self.players + 1)
        pool = [t for t in self.content.token_pool() if self.token_defs[t].kind.counts_toward_setup]
        self.rng.shuffle(pool)
        inner_radius = max(distance(self.arena.centre, h) for h in self.arena.inner_circle)
        spots = list(ring(self.arena.centre, inner_radius))
        self.rng.shuffle(spots)
        s.tokens = {h: BoardToken(t) for h, t in zip(spots[:count], pool[:count], strict=False)}
        # "place anywhere along the outside edge of the Inner Circle"
        pos = self.rng.below(len(self.track))
        deck = list(rules.deck)
        self.rng.shuffle(deck)
        armor = rules.armor * (self.players if mode is Mode.COOP else 1)
        s.essedari = EssedariState(mode, pos, armor, armor, deck)
        at = self.track[pos]
        self.emit(f"The {NAME} enters the arena at {at.q},{at.r} with {armor} Armor")
        s.phase = Phase.PLACEMENT

    # -- the round ------------------------------------------------------------------------------

    def draw_theater(self) -> None:
        if self.state.essedari is None:
            super().draw_theater()  # type: ignore[misc]

    def start_round(self) -> None:
        super().start_round()  # type: ignore[misc]
        ess = self.state.essedari
        if ess is not None:
            ess.actions = 0
            ess.lap_open = False
            ess.lapped.clear()
            ess.netted, ess.net_next = ess.net_next, []
            self.emit(f"Round {self.state.round} of {self.essedari.rounds} against the {NAME}")

    def may_play(self, seat: int) -> bool:
        ess = self.state.essedari
        return super().may_play(seat) and (ess is None or seat not in ess.lapped)  # type: ignore[misc]

    def opponent_turn(self) -> bool:
        """rulebook: "Each Round the Essedari Maximo will take 5 Actions in Turn Order as a
        normal player" and "takes the Engage Action BEFORE the Starting Player": before each
        lap of turns he acts once. True when he acted or a new lap began."""
        s = self.state
        ess = s.essedari
        if ess is None:
            return False
        someone = any(s.players[i].alive and self.may_play(i) for i in range(self.players))
        if ess.lap_open and someone:
            return False
        if ess.lap_open:  # everyone with a card has played: the lap is over
            ess.lap_open = False
            ess.lapped.clear()
        per_round = self.essedari.actions_per_round
        if ess.actions >= per_round and not any(p.alive and p.hand for p in s.players):
            return False
        ess.lap_open = True
        s.turn = s.starting
        if ess.actions < per_round:
            self.chariot_acts()
        return True

    def play_card(self, seat: int, instance: int) -> None:
        super().play_card(seat, instance)  # type: ignore[misc]
        if self.state.essedari is not None:
            self.state.essedari.lapped.append(seat)

    def begin_favor_phase(self) -> None:
        """The players "are granted 8 Rounds": the last one ends with its fighting."""
        s = self.state
        if s.essedari is not None and s.round >= self.essedari.rounds:
            self.essedari_over(
                False, f"{self.essedari.rounds} rounds ended with the {NAME} standing"
            )
            return
        super().begin_favor_phase()  # type: ignore[misc]

    # -- his Action -----------------------------------------------------------------------------

    def draw_action(self) -> ChariotAction:
        ess = self.state.essedari
        assert ess is not None
        action_id = ess.deck.pop()
        ess.discard.append(action_id)
        if not ess.deck:  # refilled at once, so co-op can always show the next one
            ess.deck, ess.discard = ess.discard, []
            self.rng.shuffle(ess.deck)
        return self.essedari.action(action_id)

    def round_damage(self, action: ChariotAction) -> int:
        ess = self.state.essedari
        assert ess is not None
        bonus = self.essedari.modes[ess.mode].damage_bonus[self.state.round - 1]
        return action.damage + bonus

    def chariot_acts(self) -> None:
        s = self.state
        ess = s.essedari
        assert ess is not None
        action = self.draw_action()
        ess.actions += 1
        ess.current = action.id
        damage = self.round_damage(action)
        self.emit(
            f"The {NAME} ({ess.actions}/{self.essedari.actions_per_round}): {action.name}, {action_text(action, damage)}"
        )
        hit: set[int] = set()
        path = self.chariot_path(action)
        for k, (pos, h) in enumerate(path):
            seat = self.standing_on(h)
            if seat is not None:
                self.run_over(seat, action, k == len(path) - 1)
            ess.pos = pos if pos is not None else ess.pos
            if damage:
                for other in self.adjacent_players(h):
                    if other not in hit:
                        hit.add(other)
                        self.emit(f"The {NAME} sweeps past {self.name_of(other)}")
                        self.lose_armor(other, damage, "takes")
            if s.phase is Phase.OVER:
                return
        if action.attack is not Attack.NONE:
            self.throw(action, damage, hit)
        end = self.track[ess.pos]
        self.emit(f"The {NAME} is at {end.q},{end.r}")

    def chariot_path(self, action: ChariotAction) -> list[tuple[int | None, Hex]]:
        """The hexes he enters, each with his track position there (None mid-dash)."""
        ess = self.state.essedari
        assert ess is not None
        gladiators = frozenset(p.at for p in self.state.players if p.alive and p.at is not None)
        return planned_path(self.track, ess.pos, action, ess.mode, gladiators)

    def standing_on(self, h: Hex) -> int | None:
        for seat, p in enumerate(self.state.players):
            if p.alive and p.at == h:
                return seat
        return None

    def adjacent_players(self, h: Hex) -> list[int]:
        return [
            seat for seat, p in enumerate(self.state.players)
            if p.alive and p.at is not None and distance(p.at, h) == 1
        ]  # fmt: skip

    def run_over(self, seat: int, action: ChariotAction, last: bool) -> None:
        ess = self.state.essedari
        assert ess is not None
        if ess.mode is Mode.COOP:
            # rulebook: Co-op Rules, "the player is trampled to death and instantly eliminated"
            self.emit(f"The {NAME} tramples {self.name_of(seat)} to death!")
            self.eliminate(seat)
            return
        if action.crush and last:
            # rulebook: Solo Rules, Crushed - "the player instantly loses the game"
            self.emit(f"The {NAME} ends on {self.name_of(seat)}: crushed!")
            self.eliminate(seat)
            return
        if action.trample:
            # rulebook: Solo Rules, Trample - "they receive 3 Damage"
            self.emit(f"The {NAME} tramples {self.name_of(seat)}")
            self.lose_armor(seat, self.essedari.trample_damage, "takes")

    def throw(self, action: ChariotAction, damage: int, hit: set[int]) -> None:
        """Javelin, Arrow or Net at the nearest player in reach he has not hit this Action
        (ties: the weakest, then turn order from the Starting Player)."""
        s = self.state
        at = self.track[s.essedari.pos]  # type: ignore[union-attr]
        n = self.players
        order = {(s.starting + k) % n: k for k in range(n)}
        reach = action.attack.reach
        targets = [
            seat for seat, p in enumerate(s.players)
            if p.alive and p.at is not None and seat not in hit and distance(p.at, at) <= reach
        ]  # fmt: skip
        if not targets:
            self.emit(f"The {NAME}'s {action.attack.value} finds nobody in range")
            return
        seat = min(
            targets, key=lambda t: (distance(s.players[t].at, at), s.players[t].armor, order[t])
        )  # type: ignore[arg-type]
        self.emit(f"The {NAME} throws his {action.attack.value} at {self.name_of(seat)}")
        if action.attack is Attack.NET:
            # rulebook: Solo Rules, Net - "they can not activate any Movement the next Round"
            s.essedari.net_next.append(seat)  # type: ignore[union-attr]
            self.emit(f"{self.name_of(seat)} is netted: no Movement next round")
        if damage:
            self.lose_armor(seat, damage, "takes")
        if action.favor_loss and s.players[seat].alive:
            self.change_favor(seat, -action.favor_loss)

    # -- players against him --------------------------------------------------------------------

    def can_enter(self, h: Hex | None) -> bool:
        return super().can_enter(h) and (h is None or h != self.chariot_hex())

    def damage_targets(self, frame: Frame, reach: int) -> list[int]:
        targets = super().damage_targets(frame, reach)
        him = self.chariot_hex()
        if him is None:
            return targets
        at = self.state.players[frame.owner].at
        assert at is not None
        if frame.move_dir is not None:  # straight ahead: whoever comes first on the line
            for h in self.arena.ray(at, frame.move_dir, reach):
                if h == him:
                    return [self.chariot]
                if self.occupant(h) is not None:
                    break
            return targets
        return targets + [self.chariot] if distance(at, him) <= reach else targets

    def lose_armor(self, seat: int, amount: int, verb: str) -> None:
        ess = self.state.essedari
        if ess is None or seat != self.chariot:
            super().lose_armor(seat, amount, verb)
            return
        ess.armor -= amount
        self.emit(f"The {NAME} {verb} {amount}: Armor {max(ess.armor, 0)}")
        if ess.armor <= 0:
            self.essedari_over(True, f"the {NAME} is defeated in round {self.state.round}")

    def change_favor(self, seat: int, amount: int) -> None:
        if self.state.essedari is not None and seat == self.chariot:
            return  # he has no Favor to lose
        super().change_favor(seat, amount)

    def knockable(self, seat: int) -> bool:
        if self.state.essedari is not None and seat == self.chariot:
            return False  # ruling (docs/essedari.md): a chariot is not knocked back
        return super().knockable(seat)

    def pass_card_to(self, seat: int | None) -> int | None:
        # rulebook: "the card does not pass to the Essedari Maximo, but goes in the Discard
        # Pile of the player"
        if self.state.essedari is not None and seat == self.chariot:
            return None
        return super().pass_card_to(seat)

    def steps_allowed(self, seat: int, steps: int) -> int:
        ess = self.state.essedari
        if ess is not None and seat in ess.netted and steps:
            self.emit(f"{self.name_of(seat)} is netted and cannot Move")
            return 0
        return super().steps_allowed(seat, steps)

    def may_hold_back(self, frame: Frame, targets: list[int]) -> bool:
        # Co-op Rules: "Players may deal Damage to their teammates if desired": only if desired
        if self.state.essedari is not None and any(t != self.chariot for t in targets):
            return True
        return super().may_hold_back(frame, targets)

    def last_standing(self, alive: list[int], fallen: int) -> None:
        if self.state.essedari is None:
            super().last_standing(alive, fallen)
        elif not alive:
            self.essedari_over(False, f"the {NAME} has eliminated every gladiator")

    def essedari_over(self, won: bool, reason: str) -> None:
        s = self.state
        assert s.essedari is not None
        s.essedari.won = won
        s.essedari.reason = reason
        s.phase = Phase.OVER
        s.stack.clear()
        self.emit(("Victory: " if won else "Defeat: ") + reason)


def action_text(action: ChariotAction, damage: int) -> str:
    """His Action as players read it, with this round's Damage."""
    return action.text.replace(f"Damage {action.damage}", f"Damage {damage}")


ADVANCED = ("rulesets", "equipment", "legends", "beasts", "teams")
"""Table options the Essedari Maximo is never played with ("Remove any Advanced Mode cards from
play (Equipment, Theater Legend, Modular Rulesets, etc.)"; the team modes are other Player Modes)."""


def check_essedari(players: int, options: dict[str, str]) -> str | None:
    """What is wrong with this player count for the mode, or None."""
    mode = mode_of(options)
    if mode is None:
        return (
            None if players >= 2 else "Carthage takes 2 to 5 players; 1 player plays essedari=solo"
        )
    advanced = [name for name in ADVANCED if options.get(name, "off") not in ("off", "")]
    if advanced:
        return (
            f"essedari={mode.value} is played without the advanced cards and modes (rulebook: How to "
            f"Set Up Essedari Maximo): turn off {', '.join(advanced)}"
        )
    rules = default_essedari().modes[mode]
    if not rules.min_players <= players <= rules.max_players:
        low, high = rules.min_players, rules.max_players
        span = (
            f"{low} player" + ("" if low == 1 else "s")
            if low == high
            else f"{low} to {high} players"
        )
        return f"essedari={mode.value} takes {span}, not {players}"
    return None


def essedari_result(ess: EssedariState, players: int) -> Result | None:
    """Everyone wins together or nobody does (rulebook: teammates "either defeat the Essedari
    Maximo, or be eliminated by him")."""
    if ess.won is None:
        return None
    return Result(tuple(range(players)) if ess.won else (), ess.reason)
