"""Carthage's team modes: 2 vs 2, the 2 vs 2 Chained Match and 2 vs 3 (rulebook: Player Modes).

The table option `teams` picks the mode; `seating` says who is on which team. Seats sit
clockwise in seat order and turn order is seat order, so teams alternate turns whoever starts:
2 vs 2 is Team 1 = seats 1 and 3, Team 2 = seats 2 and 4 ("Team 1 player A, Team 2 player A,
Team 1 player B, Team 2 player B"); 2 vs 3 is Team 1 = seats 1, 3, 5 (the three) and Team 2 =
seats 2, 4 (the two), alternating as far as five seats allow.

`TeamMode` is the policy the rules ask wherever a mode changes the answer (who wins, who is a
teammate, where a gladiator may step, be knocked, be switched or be placed, who may use a
Modular Ruleset); with no teams it answers as the free-for-all. It also runs 2 vs 3's setup
step, in which the team of two chooses its Modular Rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harena.core.carthage.chain import chain_holds, chain_via
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.part import bind
from harena.core.carthage.rulesets.catalog import OPTION_NAMES, default_rulesets, ruleset_id
from harena.core.carthage.state import CarthageState, Phase
from harena.core.engine import Choice, Prompt, split_multi

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage

OPTION = "teams"
OFF = "off"
TWO_V_TWO = "2v2"
CHAINED = "2v2_chained"
TWO_V_THREE = "2v3"
MODES = (OFF, TWO_V_TWO, CHAINED, TWO_V_THREE)
MODE_NAMES = {TWO_V_TWO: "2 vs 2", CHAINED: "2 vs 2 Chained Match", TWO_V_THREE: "2 vs 3"}
PLAYERS_NEEDED = {TWO_V_TWO: 4, CHAINED: 4, TWO_V_THREE: 5}
SEATING = {
    TWO_V_TWO: ((0, 2), (1, 3)),
    CHAINED: ((0, 2), (1, 3)),
    TWO_V_THREE: ((0, 2, 4), (1, 3)),
}
EXCLUSIVE_RULESETS = 4  # rulebook: 2 VS 3 Mode, "The team of 2 selects 4 Modular Rulesets"
# The Modular Rulesets by their option names (the rulesets' catalogue, in the rulebook's order).
RULESETS = OPTION_NAMES


def ruleset_name(ruleset: str) -> str:
    """ "the_southern_winds" -> "The Southern Winds" (the catalogue's printed name)."""
    return default_rulesets()[ruleset_id(ruleset)].name


@dataclass(frozen=True)
class Teams:
    """Who plays with whom: `members[k]` are team k's seats, in seat order."""

    mode: str
    members: tuple[tuple[int, ...], ...]

    @property
    def chained(self) -> bool:
        return self.mode == CHAINED

    @property
    def exclusive_team(self) -> int | None:
        """The team that owns the chosen Modular Rulesets (2 vs 3: the team of two)."""
        return 1 if self.mode == TWO_V_THREE else None

    def team_of(self, seat: int) -> int:
        return next(k for k, seats in enumerate(self.members) if seat in seats)

    def teammates(self, seat: int) -> tuple[int, ...]:
        return tuple(m for m in self.members[self.team_of(seat)] if m != seat)

    def name(self, team: int) -> str:
        return f"Team {team + 1}"


def seating(mode: str, players: int) -> Teams | None:
    """The teams of `mode` at a table of `players` (None: every gladiator for themself)."""
    if mode == OFF or PLAYERS_NEEDED.get(mode) != players:
        return None
    return Teams(mode, SEATING[mode])


def player_count_problem(mode: str, players: int) -> str | None:
    """Why `mode` cannot be played by `players`, or None when it can."""
    needed = PLAYERS_NEEDED.get(mode)
    if needed is None or needed == players:
        return None
    return f"Carthage {MODE_NAMES[mode]} (teams={mode}) needs {needed} players, not {players}"


class TeamMode:
    """The team modes' rules, asked by the rules at named points (see the module docstring);
    every answer is the free-for-all's when `teams` is None."""

    state: CarthageState  # the game's, handed over by `Carthage.state` (as to a `Part`)

    def __init__(self, game: Carthage, teams: Teams | None) -> None:
        self.game = bind(game)
        self.teams = teams

    # -- who wins (rulebook: 2 VS 2, "The game ends once both members of a team are eliminated")

    def standing_winner(self, alive: list[int]) -> int | None:
        """The winner once `alive` are left, None while the fight goes on."""
        if self.teams is None:
            return alive[0] if len(alive) == 1 else None
        standing = {self.teams.team_of(seat) for seat in alive}
        return alive[0] if len(standing) == 1 else None

    def victory_text(self, winner: int) -> str:
        name_of = self.game.board.name_of
        if self.teams is None:
            return f"{name_of(winner)} is the last gladiator standing and wins!"
        teams = self.teams
        won = teams.team_of(winner)
        lost = ", ".join(teams.name(k) for k in range(len(teams.members)) if k != won)
        return f"{self.team_label(won)} wins: every gladiator of {lost} has fallen!"

    def team_label(self, team: int) -> str:
        """ "Team 1 (Blue Retiarius, Green Murmillo)"."""
        assert self.teams is not None
        names = ", ".join(self.game.board.name_of(seat) for seat in self.teams.members[team])
        return f"{self.teams.name(team)} ({names})"

    def winning_team(self) -> int | None:
        s = self.state
        if self.teams is None or s.winner is None:
            return None
        return self.teams.team_of(s.winner)

    def is_teammate(self, seat: int, other: int) -> bool:
        """Gladiators of one team (a Beast, out of the fight for its team, is nobody's)."""
        if self.teams is None:
            return False
        players = self.state.players
        return (
            seat != other
            and 0 <= other < len(players)
            and players[seat].alive
            and players[other].alive
            and self.teams.team_of(seat) == self.teams.team_of(other)
        )

    # -- the chain (rulebook: 2 VS 2 Chained Match) ---------------------------------------------

    def chain_partner(self, seat: int) -> Hex | None:
        """Where `seat`'s chained teammate stands (None: no chain binds `seat` now)."""
        if self.teams is None or not self.teams.chained:
            return None
        for mate in self.teams.teammates(seat):
            p = self.state.players[mate]
            if p.alive and p.at is not None:
                return p.at
        return None

    def keeps_chain(self, seat: int, h: Hex) -> bool:
        """Whether `seat` standing on `h` keeps its chain (always true off the Chained Match).
        ruling: a step that would break the chain is not offered, and the chain stops a
        knockback as a Pillar would (docs/rulings.md)."""
        partner = self.chain_partner(seat)
        return partner is None or chain_holds(
            self.game.arena, self.game.board.is_pillar, h, partner
        )

    def swap_allowed(self, seat: int, other: int) -> bool:
        """rulebook: Chained Match, teammates "CANNOT have more than 1 Hex space between them for
        the entirety of the game": a switch of places (Curved Sica) that would leave either of
        the two out of its chain does not happen (docs/rulings.md)."""
        if self.teams is None or not self.teams.chained:
            return True
        players = self.state.players
        after = {seat: players[other].at, other: players[seat].at}
        for who in (seat, other):
            at = after[who]
            if not players[who].alive or at is None:
                continue
            for mate in self.teams.teammates(who):
                mate_at = after.get(mate, players[mate].at)
                if players[mate].alive and mate_at is not None:
                    if not chain_holds(self.game.arena, self.game.board.is_pillar, at, mate_at):
                        return False
        return True

    def chain_allows_pillar_at(self, h: Hex) -> bool:
        """Whether a Pillar may be put on `h` without breaking a chain (for Renovate, which moves
        Arena tokens: the rulesets branch asks this before offering a hex)."""
        if self.teams is None or not self.teams.chained:
            return True
        game = self.game
        s = game.state

        def pillar_here(x: Hex) -> bool:
            return x == h or game.board.is_pillar(x)

        for a, b in (team for team in self.teams.members if len(team) == 2):
            pa, pb = s.players[a], s.players[b]
            if pa.alive and pb.alive and pa.at is not None and pb.at is not None:
                if not chain_holds(game.arena, pillar_here, pa.at, pb.at):
                    return False
        return True

    def placement_hexes(self, hexes: list[Hex]) -> list[Hex]:
        """Where the seat to place may enter, of Setup 5's `hexes`. ruling (docs/rulings.md):
        the second of a chained pair enters within the chain. On the outside edge and not next
        to another gladiator (Setup 5) if any such hex keeps it; else anywhere not next to
        another gladiator; else anywhere free within the chain."""
        game = self.game
        seat = game.state.turn
        partner = self.chain_partner(seat)
        if partner is None:
            return hexes
        keep = [h for h in hexes if self.keeps_chain(seat, h)]
        if keep:
            return keep
        taken = [p.at for p in game.state.players if p.at is not None]
        free = [
            h for h in game.arena.hexes
            if h not in taken and not game.board.is_pillar(h) and self.keeps_chain(seat, h)
        ]  # fmt: skip
        apart = [h for h in free if not any(t in game.arena.neighbours(h) for t in taken)]
        return apart or free or hexes

    # -- 2 vs 3: the team of two chooses its Modular Rulesets -----------------------------------

    def team_setup_pending(self) -> bool:
        """After the gladiators are chosen: 2 vs 3 asks the team of two for its 4 rulesets."""
        s = self.state
        if self.teams is None or self.teams.exclusive_team is None:
            return False
        if len(s.team_rulesets) >= EXCLUSIVE_RULESETS or not self.team_ruleset_choices():
            return False  # (a table playing nearly every ruleset for everyone leaves fewer)
        s.phase = Phase.RULESET_PICK
        s.turn = self.ruleset_picker()
        if not s.team_rulesets:
            self.game.emit(
                f"{self.team_label(self.teams.exclusive_team)} chooses {EXCLUSIVE_RULESETS} Modular Rulesets"
            )
        return True

    def ruleset_picker(self) -> int:
        """ruling: the two take turns, the first of them in turn order from the Starting Player
        first, so each chooses two (docs/rulings.md)."""
        s = self.state
        assert self.teams is not None and self.teams.exclusive_team is not None
        pair = self.teams.members[self.teams.exclusive_team]
        n = len(s.players)
        order = [seat for seat in ((s.starting + k) % n for k in range(n)) if seat in pair]
        return order[len(s.team_rulesets) % len(order)]

    def team_ruleset_choices(self) -> tuple[Choice, ...]:
        """The rulesets the team of two may still pick: not picked yet, not the whole table's."""
        table_wide = set(split_multi(self.game.config.options.get("rulesets", "")))
        return tuple(
            Choice(f"ruleset:{r}", f"{ruleset_name(r)}: {default_rulesets()[ruleset_id(r)].text}")
            for r in RULESETS
            if r not in self.state.team_rulesets and r not in table_wide
        )

    def team_ruleset_prompt(self) -> Prompt:
        s = self.state
        choices = self.team_ruleset_choices()
        text = f"Choose a Modular Ruleset for your team ({len(s.team_rulesets)} of {EXCLUSIVE_RULESETS})"
        return Prompt(s.turn, "pick_ruleset", text, choices)

    def pick_ruleset(self, seat: int, chosen: Choice) -> None:
        game = self.game
        ruleset = chosen.id.removeprefix("ruleset:")
        game.state.team_rulesets.append(ruleset)
        game.emit(f"{game.board.name_of(seat)} chooses the {ruleset_name(ruleset)} ruleset")
        if (
            ruleset == "battle_hardened"
            and self.teams is not None
            and self.teams.exclusive_team is not None
        ):
            # ruling: "Every player begins the game with 20 Armor" - every player who may use it
            for mate in self.teams.members[self.teams.exclusive_team]:
                player = game.state.players[mate]
                player.armor = max(player.armor, game.conditions.starting_armor())
        game.setup_rules.after_gladiators()

    def may_use_ruleset(self, seat: int, ruleset: str) -> bool:
        """rulebook: 2 VS 3 Mode - the team of two "may exclusively use" the rulesets it chose;
        the team of three is still affected by them. The rulesets branch asks this before it
        offers a ruleset's Favor Action (or grants an Active Condition's gain) to `seat`."""
        teams = self.teams
        if teams is None or teams.exclusive_team is None or ruleset not in self.state.team_rulesets:
            return True
        return teams.team_of(seat) == teams.exclusive_team

    # -- what everyone sees -------------------------------------------------------------------

    def team_view(self) -> dict[str, Any] | None:
        """Public: the mode, the teams, the chosen rulesets and each chain's hex."""
        teams = self.teams
        if teams is None:
            return None
        game = self.game
        s = game.state
        chains = []
        if teams.chained:
            for a, b in (team for team in teams.members if len(team) == 2):
                pa, pb = s.players[a], s.players[b]
                if pa.alive and pb.alive and pa.at is not None and pb.at is not None:
                    via = chain_via(game.arena, game.board.is_pillar, pa.at, pb.at)
                    chains.append({"seats": [a, b], "via": None if via is None else [via.q, via.r]})
        exclusive = teams.exclusive_team
        return {
            "mode": teams.mode,
            "title": MODE_NAMES[teams.mode],
            "members": [list(seats) for seats in teams.members],
            "names": [teams.name(k) for k in range(len(teams.members))],
            "chained": teams.chained,
            "chains": chains,
            "rulesets": list(s.team_rulesets),
            "ruleset_names": [ruleset_name(r) for r in s.team_rulesets],
            "exclusive_team": exclusive,
            "winning_team": self.winning_team(),
        }
