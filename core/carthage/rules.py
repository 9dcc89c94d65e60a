"""Carthage, the rules state machine: setup, prompts and choices (rulebook: Setup, Round Order).

The pieces: `state` (what changes), `resolve` (effects step by step), `phases` (the round),
`prompts` (every open decision as choices), `view` (what each seat may know). This module ties
them to the engine contract and registers the game.

Choice ids (typed where the rules read what they pick: `choices.py`, so `apply` takes the
Choice the prompt made rather than parsing its id): placement "hex:q,r"; Action phase "play:<instance>", "side:0"/"side:1"; effect
decisions "dir:NE", "target:<seat>", "discard:<instance>", "focus:<instance>"/"skip",
"start:<seat>"; Favor phase "buy:<slot>", "initiate", "focus", "evaluate",
"lobby:<theater card id>", "pass", then "focus:<instance>" after Focus, "reveal"/"hide" after a
Lobby and "buy:<slot>"/"decline" after an Evaluate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from harena.core.bots import RandomBot
from harena.core.carthage.action_phase import ActionPhase
from harena.core.carthage.beast_rules import BeastRules
from harena.core.carthage.board import Board
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.content import Content, default_content
from harena.core.carthage.equipment_rules import EquipmentRules
from harena.core.carthage.essedari.actions import default_essedari
from harena.core.carthage.essedari.chariot import EssedariMode, check_essedari, essedari_result
from harena.core.carthage.favor_phase import FavorPhase
from harena.core.carthage.flow import Flow
from harena.core.carthage.hooks import plug_features
from harena.core.carthage.part import Part
from harena.core.carthage.prompts import open_prompts
from harena.core.carthage.resolve import EffectResolver
from harena.core.carthage.rulesets.catalog import OPTION_NAMES, RECOMMENDED_MOST
from harena.core.carthage.rulesets.conditions import ActiveConditions
from harena.core.carthage.rulesets.favor_actions import FavorActions
from harena.core.carthage.rulesets.naked import NakedAndAfraid
from harena.core.carthage.rulesets.rules import RulesetRules
from harena.core.carthage.rulesets.table import RulesetTable
from harena.core.carthage.setup import PLAYERS_CHOOSE, SetupRules
from harena.core.carthage.state import CarthageState, Phase, Wait
from harena.core.carthage.teams import MODES, OPTION, TeamMode, player_count_problem, seating
from harena.core.carthage.theater_phase import TheaterPhase
from harena.core.carthage.view import board_view
from harena.core.engine import (
    Choice,
    Game,
    GameConfigError,
    IllegalAction,
    OptionSpec,
    Prompt,
    Result,
    register,
)

_LAYOUTS = tuple(layout.id.replace("-", "_") for layout in default_content().layouts)


@register
class Carthage(Game):
    name = "carthage"
    title = "Carthage"
    min_players = 1  # only with essedari=solo (check_config); the free-for-all takes 2 to 5
    max_players = 5
    options = (
        OptionSpec(
            "tokens",
            "Arena tokens",
            (*_LAYOUTS, PLAYERS_CHOOSE),
            "first_match",
            "first_match: the First Match layout (rulebook: Setup 4); players_choose: the Last "
            "Player picks the tokens and everyone places them (Arena Tokens); the others: the "
            "Quick Start scenarios",
        ),
        OptionSpec(
            "gladiators",
            "Gladiators",
            ("choose", "by_seat"),
            "choose",
            "choose: from the Starting Player clockwise, each player chooses a gladiator "
            "(rulebook: Setup 2); by_seat: seat 1 plays Blue, seat 2 Red, and so on",
        ),
        OptionSpec(
            "sudden_death",
            "Sudden death",
            ("off", "10", "15", "20", "30"),
            "off",
            "not in the rulebook: from this round on every gladiator loses 1, 2, 3 ... Armor "
            "at the end of each round's fighting, so the game cannot last for ever",
        ),
        OptionSpec(
            "rulesets",
            "Rulesets",
            OPTION_NAMES,
            "",
            "the Modular Rulesets in play (rulebook: Modular Rulesets), any of the 17; the "
            "rulebook recommends 4 at most",
            multi=True,
            warn_above=RECOMMENDED_MOST,
        ),
        OptionSpec(
            "equipment",
            "Equipment",
            ("off", "on"),
            "off",
            "Mini Expansion #2: 3 Equipment cards per gladiator, used in place of an Action "
            "card after discarding a Starting card, Readied in the Favor phase for their cost",
        ),
        OptionSpec(
            "legends",
            "Legend cards",
            ("off", "on"),
            "off",
            "Mini Expansion #1: 15 Legend cards shuffled into the Action Deck",
        ),
        OptionSpec(
            "beasts",
            "Arena Beasts",
            ("off", "on"),
            "off",
            "an eliminated player may return as one of 8 Arena Beasts; Beasts never win",
        ),
        OptionSpec(
            OPTION,
            "Teams",
            MODES,
            "off",
            "rulebook: Player Modes. off: every gladiator for themself; 2v2: two teams of two "
            "(4 players); 2v2_chained: 2 vs 2, teammates never more than 1 hex apart; 2v3: a "
            "team of two, with 4 Modular Rulesets of its own, against a team of three (5 players)",
        ),
        OptionSpec(
            "essedari",
            "Essedari",
            ("off", "solo", "coop"),
            "off",
            "solo (1 player) or coop (2-4 players): together against the built-in Essedari "
            "Maximo for 8 rounds; no Theater cards, random tokens (rulebook: Essedari Maximo, "
            "docs/essedari.md)",
        ),
    )
    State = CarthageState
    bots: ClassVar[dict[str, Any]] = {
        "heuristic": HeuristicBot,
        "random": RandomBot,
    }  # the first is what tables offer first
    # Uniformly random gladiators seldom fight and keep healing: under the printed rules a 4-player
    # random game can run for thousands of rounds. Simulations end them with sudden death from
    # round 10 (docs/rulings.md); `--option sudden_death=off` plays the printed rules.
    simulation_options: ClassVar[dict[str, str]] = {"sudden_death": "10"}
    label_kind = "gladiator"

    def prepare(self) -> None:
        self.content: Content = default_content()
        self.arena = self.content.arena
        self.token_defs = {t.id: t for t in self.content.tokens}
        self.gladiator_names = {g.colour.value: g.name for g in self.content.gladiators}
        self.gladiator_classes = {
            g.colour.value: g.gladiator_class.value for g in self.content.gladiators
        }
        self.card_names = {c.id: c.name for c in self.content.cards.values()}
        self.card_texts = {c.id: c.text for c in self.content.cards.values()}
        self.teams = seating(self.config.options.get(OPTION, "off"), self.players)
        self.essedari = default_essedari()
        self.assemble()

    def assemble(self) -> None:
        """Build the pieces of the rules, each bound to this game."""
        # The pieces of the rules (core/carthage/part.py); each calls the others by name.
        self.board = Board(self)
        self.resolver = EffectResolver(self)
        self.flow = Flow(self)
        self.theater_phase = TheaterPhase(self)
        self.action_phase = ActionPhase(self)
        self.favor_phase = FavorPhase(self)
        self.setup_rules = SetupRules(self)
        # The rules that vary by table option: one policy object each.
        self.team_mode = TeamMode(self, self.teams)
        self.essedari_mode = EssedariMode(self)
        # The optional features; each does nothing when its option is off.
        self.beast_rules = BeastRules(self)
        self.equipment_rules = EquipmentRules(self)
        self.ruleset_table = RulesetTable(self)
        self.ruleset_table.prepare_rulesets()
        self.favor_actions = FavorActions(self)
        self.conditions = ActiveConditions(self)
        self.naked = NakedAndAfraid(self)
        self.rulesets = RulesetRules(self)
        self.hooks = plug_features(self)  # where they plug into the round (hooks.py)
        self._pieces: tuple[Part | TeamMode | EssedariMode, ...] = (
            self.board, self.resolver, self.flow, self.theater_phase, self.action_phase,
            self.favor_phase, self.setup_rules, self.team_mode, self.essedari_mode,
            self.beast_rules, self.equipment_rules, self.ruleset_table, self.favor_actions,
            self.conditions, self.naked, self.rulesets,
        )  # fmt: skip
        if "_state" in vars(self):  # a copy, or a game rebuilt: the pieces take its state
            self.state = self._state
        # Who applies a choice made at each phase's own prompt.
        self.phase_choices: dict[Phase, Callable[[int, Choice], None]] = {
            Phase.GLADIATORS: self.setup_rules.apply_gladiator,
            Phase.RULESET_PICK: self.team_mode.pick_ruleset,
            Phase.TOKEN_PICK: self.setup_rules.apply_token_pick,
            Phase.TOKEN_PLACEMENT: self.setup_rules.place_token,
            Phase.PLACEMENT: self.setup_rules.apply_placement,
            Phase.ACTION: self.action_phase.apply,
            Phase.FAVOR: self.favor_phase.apply,
        }

    @property
    def state(self) -> CarthageState:
        return self._state

    @state.setter
    def state(self, state: CarthageState) -> None:
        """Every piece holds the state too (`Part`): the rules read it more than anything, so
        it is a plain attribute of theirs rather than a look-up through their weak reference
        to the game. Whoever replaces the state (setup, restore, a copy) sets it here."""
        self._state = state
        for piece in self._pieces:
            piece.state = state

    def __copy__(self) -> Carthage:
        """A shallow copy (tests/core/secrecy.py forks games so) gets pieces of its own: a
        piece bound to the original would play the copy's moves on the original's state."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.assemble()
        return twin

    def _rebuild(self) -> None:
        """As the engine's (a rules error: the game is replayed from its log), then the pieces
        are bound to this game again: the replayed game they were bound to is gone."""
        super()._rebuild()
        self.assemble()

    def setup(self) -> CarthageState:
        return self.setup_rules.setup()

    @classmethod
    def check_config(cls, players: int, options: dict[str, str]) -> None:
        problem = player_count_problem(options.get(OPTION, "off"), players) or check_essedari(
            players, options
        )
        if problem:
            raise GameConfigError(problem)

    # -- the contract -----------------------------------------------------------------------------

    def prompts(self) -> list[Prompt]:
        self._offered = open_prompts(self)
        return self._offered

    def offered(self, seat: int, choice: str) -> Choice:
        """The Choice the open prompt made for `choice` (act() has checked it is offered):
        what the rules apply, so they never work out from its id what it picks."""
        for prompts in (getattr(self, "_offered", []), None):
            for prompt in self.prompts() if prompts is None else prompts:
                if prompt.seat == seat:
                    for offer in prompt.choices:
                        if offer.id == choice:
                            return offer
        raise IllegalAction(f"{choice!r} is not offered to seat {seat}")

    def apply(self, seat: int, choice: str) -> None:
        """Apply a choice the open prompt offered: an effect's decision, a Modular Ruleset's or
        a Beast's before the phase's own (the order `prompts.open_prompts` asks them in)."""
        s = self.state
        chosen = self.offered(seat, choice)
        if s.stack and s.stack[-1].wait is not None:
            self.resolver.decide(chosen)
        elif self.rulesets.apply_ruleset_choice(seat, chosen):
            pass  # a Modular Ruleset's prompt
        elif not s.stack and self.beast_rules.beast_waiting():
            self.beast_rules.apply_beast(seat, chosen)
        else:
            self.phase_choices[s.phase](seat, chosen)
        self.flow.advance()

    def board_view(self, seat: int | None) -> dict[str, Any]:
        return board_view(self, seat)

    def result(self) -> Result | None:
        s = self.state
        if s.essedari is not None:
            return essedari_result(s.essedari, self.players)
        if s.winner is None:
            return None
        team = self.team_mode.winning_team()
        if team is not None and self.teams is not None:
            lost = [self.teams.name(k) for k in range(len(self.teams.members)) if k != team]
            reason = f"{self.teams.name(team)} wins: {' and '.join(lost)} eliminated"
            # rulebook: Arena Beasts, those players "can no longer win the game"
            winners = tuple(m for m in self.teams.members[team] if not s.players[m].returned)
            return Result(winners, reason)
        return Result((s.winner,), "last gladiator standing")

    def round_number(self) -> int:
        return self.state.round

    def seat_label(self, seat: int) -> str:
        return self.board.name_of(seat)

    def waiting_kind(self) -> Wait | None:
        s = self.state
        return s.stack[-1].wait if s.stack else None
