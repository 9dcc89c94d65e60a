"""Carthage, the rules state machine: setup, prompts and choices (rulebook: Setup, Round Order).

The pieces: `state` (what changes), `resolve` (effects step by step), `phases` (the round),
`prompts` (every open decision as choices), `view` (what each seat may know). This module ties
them to the engine contract and registers the game.

Choice ids: placement "hex:q,r"; Action phase "play:<instance>", "side:0"/"side:1"; effect
decisions "dir:NE", "target:<seat>", "discard:<instance>", "focus:<instance>"/"skip",
"start:<seat>"; Favor phase "buy:<slot>", "initiate", "focus", "evaluate",
"lobby:<theater card id>", "pass", then "focus:<instance>" after Focus, "reveal"/"hide" after a
Lobby and "buy:<slot>"/"decline" after an Evaluate.
"""

from __future__ import annotations

from typing import Any

from harena.core.bots import RandomBot
from harena.core.carthage.beast_rules import BeastRules
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.content import Content, default_content
from harena.core.carthage.equipment_rules import EquipmentRules
from harena.core.carthage.essedari.actions import default_essedari
from harena.core.carthage.essedari.chariot import EssedariMode, check_essedari, essedari_result
from harena.core.carthage.phases import RoundFlow
from harena.core.carthage.prompts import open_prompts
from harena.core.carthage.rulesets.catalog import OPTION_NAMES, RECOMMENDED_MOST
from harena.core.carthage.rulesets.rules import RulesetRules
from harena.core.carthage.setup import PLAYERS_CHOOSE, GameSetup
from harena.core.carthage.state import CarthageState, Phase, Wait
from harena.core.carthage.teams import MODES, OPTION, TeamMode, player_count_problem, seating
from harena.core.carthage.view import board_view
from harena.core.engine import Game, GameConfigError, OptionSpec, Prompt, Result, register

_LAYOUTS = tuple(layout.id.replace("-", "_") for layout in default_content().layouts)


@register
class Carthage(GameSetup, RoundFlow, RulesetRules, EquipmentRules, BeastRules, Game):
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
    bots = {"heuristic": HeuristicBot, "random": RandomBot}  # the first is what tables offer first
    # Uniformly random gladiators seldom fight and keep healing: under the printed rules a 4-player
    # random game can run for thousands of rounds. Simulations end them with sudden death from
    # round 10 (docs/rulings.md); `--option sudden_death=off` plays the printed rules.
    simulation_options = {"sudden_death": "10"}
    label_kind = "gladiator"

    state: CarthageState

    def prepare(self) -> None:
        self.content: Content = default_content()
        self.arena = self.content.arena
        self.token_defs = {t.id: t for t in self.content.tokens}
        self._programs = {}
        self.gladiator_names = {g.colour.value: g.name for g in self.content.gladiators}
        self.gladiator_classes = {
            g.colour.value: g.gladiator_class.value for g in self.content.gladiators
        }
        self.card_names = {c.id: c.name for c in self.content.cards.values()}
        self.card_texts = {c.id: c.text for c in self.content.cards.values()}
        self.prepare_rulesets()
        self.teams = seating(self.config.options.get(OPTION, "off"), self.players)
        self.team_mode = TeamMode(self, self.teams)
        self.essedari = default_essedari()
        self.essedari_mode = EssedariMode(self)

    @classmethod
    def check_config(cls, players: int, options: dict[str, str]) -> None:
        problem = player_count_problem(options.get(OPTION, "off"), players) or check_essedari(
            players, options
        )
        if problem:
            raise GameConfigError(problem)

    def sudden_death_round(self) -> int | None:
        value = self.config.options.get("sudden_death", "off")
        return None if value == "off" else int(value)

    def shuffle(self, items: list) -> None:  # type: ignore[type-arg]
        self.rng.shuffle(items)

    # -- the contract -----------------------------------------------------------------------------

    def prompts(self) -> list[Prompt]:
        return open_prompts(self)

    def apply(self, seat: int, choice: str) -> None:
        s = self.state
        if s.stack and s.stack[-1].wait is not None:
            self.decide(choice)
        elif self.apply_ruleset_choice(seat, choice):
            pass  # a Modular Ruleset's prompt
        elif not s.stack and self.beast_waiting():
            self.apply_beast(seat, choice)
        elif s.phase is Phase.GLADIATORS:
            self.choose_gladiator(seat, choice.removeprefix("gladiator:"))
        elif s.phase is Phase.RULESET_PICK:
            self.team_mode.pick_ruleset(seat, choice)
        elif s.phase is Phase.TOKEN_PICK:
            self.pick_token(choice)
        elif s.phase is Phase.TOKEN_PLACEMENT:
            self.place_token(seat, choice)
        elif s.phase is Phase.PLACEMENT:
            if self.place_gladiator(seat, choice):
                self.start_round()
        elif s.phase is Phase.ACTION:
            if choice.startswith("side:"):
                self.choose_side(int(choice.removeprefix("side:")))
            elif choice.startswith("equip:"):
                _, equipment_id, instance = choice.split(":")
                self.use_equipment(seat, equipment_id, int(instance))
            else:
                self.play_card(seat, int(choice.removeprefix("play:")))
        elif s.phase is Phase.FAVOR:
            self.apply_favor(seat, choice)
        self.advance()

    def apply_favor(self, seat: int, choice: str) -> None:
        s = self.state
        if s.lobby_reveal is not None:
            self.reveal_lobby(choice == "reveal")
        elif s.focus_pick is not None:
            s.focus_pick = None
            self.focus(seat, int(choice.removeprefix("focus:")))
        elif s.evaluate_buy is not None:
            s.evaluate_buy = None
            if choice != "decline":
                self.buy(seat, int(choice.removeprefix("buy:")))
        elif self.apply_ruleset_favor(seat, choice):
            pass  # a Modular Ruleset's Favor Action (Initiate is counted there, then below)
        elif choice == "pass":
            self.pass_favor(seat)
            s.turn = (seat + 1) % self.players
        elif choice == "initiate":
            self.initiate(seat)
        elif choice == "evaluate":
            self.evaluate(seat)
        elif choice.startswith("buy:"):
            self.buy(seat, int(choice.removeprefix("buy:")))
        elif choice == "focus":
            self.favor_focus(seat)
        elif choice.startswith("ready:"):
            self.ready(seat, choice.removeprefix("ready:"))
        elif choice.startswith("lobby:"):
            self.lobby(seat, choice.removeprefix("lobby:"))

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
        return self.name_of(seat)

    def waiting_kind(self) -> Wait | None:
        s = self.state
        return s.stack[-1].wait if s.stack else None
