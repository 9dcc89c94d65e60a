"""The Essedari Maximo's rules, as the policy the rules ask at named points (`EssedariMode`):
who he is, where he blocks, whom a Damage may hit, what his Armor and Favor do, his turn before
each lap, the rounds he grants. With the table option `essedari` off (`active` False) every
answer is the free-for-all's, and the rules ask nothing else of him.

rulebook: Essedari Maximo (set up, rules), Co-op Rules, Solo Rules. Where those are silent the
rulings are in docs/essedari.md, each with its test in tests/core/carthage/test_essedari*.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from harena.core.carthage.hexgrid import Hex, distance, hex_name, ring
from harena.core.carthage.part import bind
from harena.core.carthage.state import BoardToken, CarthageState, Frame, Phase
from harena.core.engine import Result

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage

NAME = "Essedari Maximo"
OPTION = "essedari"


def mode_of(options: dict[str, str]) -> Mode | None:
    value = options.get(OPTION, "off")
    return None if value == "off" else Mode(value)


class EssedariMode:
    """The built-in opponent (see the module docstring). His content is the game's `essedari`
    (tests give him a deck of their own there)."""

    state: CarthageState  # the game's, handed over by `Carthage.state` (as to a `Part`)

    def __init__(self, game: Carthage) -> None:
        self.game = bind(game)
        self.mode = mode_of(game.config.options)

    @property
    def content(self) -> EssedariContent:
        return self.game.essedari

    @property
    def active(self) -> bool:
        """He is in the arena (set up once the gladiators are chosen)."""
        return self.state.essedari is not None

    # -- who he is ----------------------------------------------------------------------------

    @property
    def chariot(self) -> int:
        """His target id: one past the last seat, so "target:<id>" choices name him and no
        player list can be indexed with it by mistake."""
        return len(self.state.players)

    def is_chariot(self, seat: int | None) -> bool:
        return self.state.essedari is not None and seat == self.chariot

    def chariot_hex(self) -> Hex | None:
        ess = self.state.essedari
        return None if ess is None else self.track[ess.pos]

    @property
    def track(self) -> tuple[Hex, ...]:
        return track(self.game.arena)

    def name_of(self, seat: int) -> str | None:
        """His name for his id, None for a seat."""
        return NAME if self.is_chariot(seat) else None

    # -- set up (rulebook: How to Set Up Essedari Maximo) --------------------------------------

    def remove_theater(self, state: CarthageState) -> None:
        """ "Remove the Theater Cards from the game." (after the rest of Setup)"""
        if self.mode is not None:
            state.theater_deck.clear()
            state.theater_discard.clear()

    def enter(self) -> bool:
        """Once every gladiator is chosen: his tokens, his place, his deck. False: off."""
        game = self.game
        s = self.state
        mode = self.mode
        if mode is None:
            return False
        rules = self.content.modes[mode]
        s.turn = s.starting
        # "Choose at random your Arena Tokens and place them on the inside edge of the Inner
        # Circle ... players plus one, with a minimum of 4 ... Co-op ... 3 ... Solo. Pillar
        # Tokens are not permitted."
        count = max(rules.min_tokens, game.players + 1)
        pool = [t for t in game.content.token_pool() if game.token_defs[t].kind.counts_toward_setup]
        game.rng.shuffle(pool)
        inner_radius = max(distance(game.arena.centre, h) for h in game.arena.inner_circle)
        spots = list(ring(game.arena.centre, inner_radius))
        game.rng.shuffle(spots)
        s.tokens = {h: BoardToken(t) for h, t in zip(spots[:count], pool[:count], strict=False)}
        # "place anywhere along the outside edge of the Inner Circle"
        pos = game.rng.below(len(self.track))
        deck = list(rules.deck)
        game.rng.shuffle(deck)
        armor = rules.armor * (game.players if mode is Mode.COOP else 1)
        s.essedari = EssedariState(mode, pos, armor, armor, deck)
        at = self.track[pos]
        game.emit(
            f"The {NAME} enters the arena at {hex_name(at, game.arena.centre)} with {armor} Armor"
        )
        s.phase = Phase.PLACEMENT
        return True

    # -- the round ------------------------------------------------------------------------------

    def start_round(self) -> None:
        """A new round against him (there is no Theater card to draw)."""
        ess = self.state.essedari
        assert ess is not None
        ess.actions = 0
        ess.lap_open = False
        ess.lapped.clear()
        ess.netted, ess.net_next = ess.net_next, []
        self.game.emit(f"Round {self.state.round} of {self.content.rounds} against the {NAME}")

    def may_play(self, seat: int) -> bool:
        """Whether `seat` has not yet played in this lap of turns."""
        ess = self.state.essedari
        return ess is None or seat not in ess.lapped

    def opponent_turn(self) -> bool:
        """rulebook: "Each Round the Essedari Maximo will take 5 Actions in Turn Order as a
        normal player" and "takes the Engage Action BEFORE the Starting Player": before each
        lap of turns he acts once. True when he acted or a new lap began."""
        game = self.game
        s = self.state
        ess = s.essedari
        if ess is None:
            return False
        someone = any(
            s.players[i].alive and game.action_phase.may_play(i) for i in range(game.players)
        )
        if ess.lap_open and someone:
            return False
        if ess.lap_open:  # everyone with a card has played: the lap is over
            ess.lap_open = False
            ess.lapped.clear()
        per_round = self.content.actions_per_round
        if ess.actions >= per_round and not any(p.alive and p.hand for p in s.players):
            return False
        ess.lap_open = True
        s.turn = s.starting
        if ess.actions < per_round:
            self.chariot_acts()
        return True

    def card_played(self, seat: int) -> None:
        if self.state.essedari is not None:
            self.state.essedari.lapped.append(seat)

    def rounds_over(self) -> bool:
        """The players "are granted 8 Rounds": the last one ends with its fighting (True: the
        game is over, no Favor phase)."""
        s = self.state
        if s.essedari is not None and s.round >= self.content.rounds:
            self.essedari_over(
                False, f"{self.content.rounds} rounds ended with the {NAME} standing"
            )
            return True
        return False

    # -- his Action -----------------------------------------------------------------------------

    def draw_action(self) -> ChariotAction:
        ess = self.state.essedari
        assert ess is not None
        action_id = ess.deck.pop()
        ess.discard.append(action_id)
        if not ess.deck:  # refilled at once, so co-op can always show the next one
            ess.deck, ess.discard = ess.discard, []
            self.game.rng.shuffle(ess.deck)
        return self.content.action(action_id)

    def round_damage(self, action: ChariotAction) -> int:
        ess = self.state.essedari
        assert ess is not None
        bonus = self.content.modes[ess.mode].damage_bonus[self.state.round - 1]
        return action.damage + bonus

    def chariot_acts(self) -> None:
        game = self.game
        s = self.state
        ess = s.essedari
        assert ess is not None
        action = self.draw_action()
        ess.actions += 1
        ess.current = action.id
        damage = self.round_damage(action)
        game.emit(
            f"The {NAME} ({ess.actions}/{self.content.actions_per_round}): {action.name}, {action_text(action, damage)}"
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
                        game.emit(f"The {NAME} sweeps past {game.board.name_of(other)}")
                        game.board.lose_armor(other, damage, "takes")
            if s.phase is Phase.OVER:
                return
        if action.attack is not Attack.NONE:
            self.throw(action, damage, hit)
        end = self.track[ess.pos]
        game.emit(f"The {NAME} is at {hex_name(end, game.arena.centre)}")

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
        game = self.game
        ess = self.state.essedari
        assert ess is not None
        if ess.mode is Mode.COOP:
            # rulebook: Co-op Rules, "the player is trampled to death and instantly eliminated"
            game.emit(f"The {NAME} tramples {game.board.name_of(seat)} to death!")
            game.board.eliminate(seat)
            return
        if action.crush and last:
            # rulebook: Solo Rules, Crushed - "the player instantly loses the game"
            game.emit(f"The {NAME} ends on {game.board.name_of(seat)}: crushed!")
            game.board.eliminate(seat)
            return
        if action.trample:
            # rulebook: Solo Rules, Trample - "they receive 3 Damage"
            game.emit(f"The {NAME} tramples {game.board.name_of(seat)}")
            game.board.lose_armor(seat, self.content.trample_damage, "takes")

    def throw(self, action: ChariotAction, damage: int, hit: set[int]) -> None:
        """Javelin, Arrow or Net at the nearest player in reach, one he has not hit this Action
        first (ties: the weakest, then turn order from the Starting Player). rulebook: Solo
        Rules, Javelin - "If a player is within 1 Range ... lose 2 Favor": a player his drive-by
        has just hit is still within it. ruling (docs/essedari.md): the Action's Damage reaches
        a player once, so such a player loses the Favor (or is netted) but takes no more."""
        game = self.game
        s = self.state
        ess = s.essedari
        assert ess is not None
        at = self.track[ess.pos]
        n = game.players
        order = {(s.starting + k) % n: k for k in range(n)}
        reach = action.attack.reach
        targets = {
            seat: distance(p.at, at) for seat, p in enumerate(s.players)
            if p.alive and p.at is not None and distance(p.at, at) <= reach
        }  # fmt: skip
        if not targets:
            game.emit(f"The {NAME}'s {action.attack.value} finds nobody in range")
            return
        seat = min(targets, key=lambda t: (t in hit, targets[t], s.players[t].armor, order[t]))
        game.emit(f"The {NAME} throws his {action.attack.value} at {game.board.name_of(seat)}")
        if action.attack is Attack.NET:
            # rulebook: Solo Rules, Net - "they can not activate any Movement the next Round"
            ess.net_next.append(seat)
            game.emit(f"{game.board.name_of(seat)} is netted: no Movement next round")
        if damage and seat not in hit:
            game.board.lose_armor(seat, damage, "takes")
        if action.favor_loss and s.players[seat].alive:
            game.board.change_favor(seat, -action.favor_loss)

    # -- players against him --------------------------------------------------------------------

    def blocks(self, h: Hex | None) -> bool:
        """His hex is occupied: nobody moves or is knocked onto it."""
        return h is not None and h == self.chariot_hex()

    def damage_targets(self, frame: Frame, reach: int, targets: list[int]) -> list[int]:
        """The gladiators a Damage may hit (`targets`), and him if he is in reach."""
        him = self.chariot_hex()
        if him is None:
            return targets
        game = self.game
        at = self.state.players[frame.owner].at
        assert at is not None
        if frame.move_dir is not None:  # straight ahead: whoever comes first on the line
            for h in game.arena.ray(at, frame.move_dir, reach):
                if h == him:
                    return [self.chariot]
                if game.board.occupant(h) is not None:
                    break
            return targets
        return [*targets, self.chariot] if distance(at, him) <= reach else targets

    def wound(self, seat: int, amount: int, verb: str) -> bool:
        """Armor lost by him (True), or by a seat (False: the printed rules apply)."""
        ess = self.state.essedari
        if ess is None or seat != self.chariot:
            return False
        ess.armor -= amount
        self.game.emit(f"The {NAME} {verb} {amount}: Armor {max(ess.armor, 0)}")
        if ess.armor <= 0:
            self.essedari_over(True, f"the {NAME} is defeated in round {self.state.round}")
        return True

    def steps_allowed(self, seat: int, steps: int) -> int:
        """A netted player's Move does nothing this round."""
        ess = self.state.essedari
        if ess is not None and seat in ess.netted and steps:
            self.game.emit(f"{self.game.board.name_of(seat)} is netted and cannot Move")
            return 0
        return steps

    def is_teammate(self, seat: int, other: int) -> bool:
        # Co-op Rules: "Players may deal Damage to their teammates if desired": every player
        return self.active and other != seat and other != self.chariot and seat != self.chariot

    def last_standing(self, alive: list[int]) -> None:
        """A gladiator has fallen: with nobody left he has won."""
        if not alive:
            self.essedari_over(False, f"the {NAME} has eliminated every gladiator")

    def essedari_over(self, won: bool, reason: str) -> None:
        s = self.state
        assert s.essedari is not None
        s.essedari.won = won
        s.essedari.reason = reason
        s.phase = Phase.OVER
        s.stack.clear()
        self.game.emit(("Victory: " if won else "Defeat: ") + reason)


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
