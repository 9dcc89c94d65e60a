"""The eleven Favor Actions (rulebook: Modular Rulesets - Favor Actions), bought in the Favor
phase beside the four of the Game Board.

Each is a choice in the Favor menu ("actuate", "taunt:<seat>" ...). Those that need a second
choice (which card, which token, which hex) open their own small prompt (`RulesetState.pick`),
with "back" to return to the menu unpaid; they are paid when that choice is made. Campaign pays
at once: its burn is done the moment it is bought. Rulings: docs/rulings.md, "Favor Actions".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from harena.core.carthage.cards import CardSet
from harena.core.carthage.choices import FocusCard, HexChoice, LobbyCard
from harena.core.carthage.hexgrid import Hex, hex_name
from harena.core.carthage.part import Part
from harena.core.carthage.rulesets.catalog import FAVOR_ACTIONS
from harena.core.carthage.state import MAX_ARMOR, Frame, Source
from harena.core.engine import Choice, Prompt

BACK = Choice("back", "Back to the Favor menu")
# the Favor Actions that ask a second question, and its prompt kind
SECOND_CHOICE = {
    "discipline": "discipline_card", "intimidate": "intimidate_card", "renovate": "renovate_token",
    "repair": "repair_card", "retain": "retain_card",
}  # fmt: skip


class FavorActions(Part):
    # -- Retain: the cubes on the Action row ---------------------------------------------------

    def row_cost(self, seat: int, instance: int) -> int:
        """rulebook: Retain - "This card now costs all opponents +1 Favor", per cube; your own
        cubes cost you nothing."""
        card = self.content.card(self.state.cards[instance])
        cubes = self.state.rulesets.cubes.get(instance, [])
        return card.cost + sum(1 for owner in cubes if owner != seat)

    def pay_retainers(self, seat: int, instance: int) -> None:
        """rulebook: Retain - the extra Favor goes to the cubes' owners, and the cubes go home."""
        for owner in self.state.rulesets.cubes.pop(instance, []):
            if owner != seat:
                self.game.emit(
                    f"{self.game.board.name_of(seat)} pays 1 Favor to {self.game.board.name_of(owner)} for a Retain cube"
                )
                self.game.board.change_favor(owner, 1)

    def return_cubes(self, instances: list[int]) -> None:
        """rulebook: Retain - "When a card is ... Evaluated, cubes are immediately returned to
        the player(s), and no reward (Favor) is granted"."""
        for instance in instances:
            if self.state.rulesets.cubes.pop(instance, None):
                self.game.emit(
                    f"The Retain cubes on {self.game.board.card_name(instance)} go back to their owners"
                )

    def cubes_left(self, seat: int) -> int:
        placed = sum(owners.count(seat) for owners in self.state.rulesets.cubes.values())
        return self.game.ruleset_table.ruleset("retain").value - placed

    # -- the menu -------------------------------------------------------------------------------

    def actuate_cost(self) -> int:
        """rulebook: Actuate - "1 Favor + X according to the amount of times Initiate & Actuate
        have been purchased this round"."""
        s = self.state
        bought = (
            self.state.rulesets.starter_buys if self.state.rulesets.starter_round == s.round else 0
        )
        return self.game.ruleset_table.ruleset("actuate").cost + bought

    def count_starter_buy(self) -> None:
        s = self.state
        if self.state.rulesets.starter_round != s.round:
            self.state.rulesets.starter_round, self.state.rulesets.starter_buys = (
                s.round,
                0,
            )
        self.state.rulesets.starter_buys += 1

    def ruleset_favor_choices(self, seat: int) -> list[Choice]:
        """The Favor Actions `seat` may buy now, each only when it would do something."""
        s = self.state
        rulesets = self.game.ruleset_table
        if not rulesets.active_rulesets and not s.team_rulesets:
            return []  # no Modular Ruleset in play
        favor = s.players[seat].favor
        return [
            Choice(choice_id, f"{rulesets.ruleset(name).name} ({cost}): {label}")
            for name, choice_id, label, cost in self._menu(seat)
            if rulesets.usable_by(name, seat) and favor >= cost
        ]

    def _menu(self, seat: int) -> Iterator[tuple[str, str, str, int]]:
        """(Favor Action, choice id, label, cost) of each action that would do something for
        `seat` now, in the order of the menu; whether it is in play and affordable is
        `ruleset_favor_choices`'s to say."""
        s = self.state
        me = s.players[seat]
        rulesets = self.game.ruleset_table

        def plain(name: str, label: str) -> tuple[str, str, str, int]:
            return name, name, label, rulesets.ruleset(name).cost

        if s.initiator is not None and s.initiator != seat:
            label = "take the Starting Player token from the Initiator"
            yield "actuate", "actuate", label, self.actuate_cost()
        if s.theater_deck or s.lobbied is not None:
            yield plain("campaign", "burn 4 Theater cards, then Lobby free")
        if rulesets.step_free(seat):
            yield plain("outbreak", "step 1 hex now")
        if me.discard:
            yield plain("concentrate", "shuffle your discard pile into your deck")
        if self.game.board.may_focus(seat) and me.armor > rulesets.ruleset("discipline").armor:
            yield plain("discipline", "Focus a card for 1 Armor")
        if self.intimidate_targets(seat):
            yield plain("intimidate", "Focus an opponent's discarded card")
        if me.armor < MAX_ARMOR:
            yield plain("ordinance", "gain 1 Armor")
        if self.renovate_moves():
            yield plain("renovate", "move an Arena token 1 hex")
        if me.discard:
            yield plain("repair", "a discarded card back on top of your deck")
        if s.row and self.cubes_left(seat) > 0:
            yield plain("retain", f"a cube on a row card ({self.cubes_left(seat)} left)")
        taunt = rulesets.ruleset("taunt")
        for foe in self.game.board.opponents(seat):
            if s.players[foe].favor > 0:
                label = f"{self.game.board.name_of(foe)} loses {taunt.value} Favor"
                yield "taunt", f"taunt:{foe}", label, taunt.cost

    def apply_ruleset_favor(self, seat: int, choice: str) -> bool:
        """Apply a Favor Action chosen from the menu; False: not one (the base game's)."""
        s = self.state
        me = s.players[seat]
        if choice == "initiate":
            self.count_starter_buy()  # Actuate counts it; favor_phase.initiate does the rest
            return False
        name = choice.partition(":")[0]
        if name not in FAVOR_ACTIONS:
            return False
        rule = self.game.ruleset_table.ruleset(name)
        if name in SECOND_CHOICE:
            self.state.rulesets.pick, self.state.rulesets.pick_seat = (
                SECOND_CHOICE[name],
                seat,
            )
            return True
        if name == "actuate":
            cost = self.actuate_cost()
            self.game.favor_phase.spend(seat, cost)
            self.count_starter_buy()
            s.initiator = seat
            self.game.emit(
                f"{self.game.board.name_of(seat)} Actuates for {cost} Favor: Starting Player next round"
            )
        elif name == "campaign":
            self.game.favor_phase.spend(seat, rule.cost)
            self.campaign(seat, rule.value)
        elif name == "outbreak":
            self.game.favor_phase.spend(seat, rule.cost)
            self.game.emit(f"{self.game.board.name_of(seat)} buys Outbreak: {rule.value} Movement")
            s.stack.append(Frame(seat, Source.RULESET, "outbreak"))
        elif name == "concentrate":
            self.game.favor_phase.spend(seat, rule.cost)
            me.deck.extend(me.discard)
            me.discard = []
            self.game.rng.shuffle(me.deck)
            self.game.emit(
                f"{self.game.board.name_of(seat)} Concentrates: the discard pile is shuffled into the deck"
            )
        elif name == "ordinance":
            self.game.favor_phase.spend(seat, rule.cost)
            self.game.emit(f"{self.game.board.name_of(seat)} buys Ordinance")
            self.game.board.gain_armor(seat, rule.value)
        elif name == "taunt":
            foe = int(choice.removeprefix("taunt:"))
            self.game.favor_phase.spend(seat, rule.cost)
            self.game.emit(f"{self.game.board.name_of(seat)} Taunts {self.game.board.name_of(foe)}")
            self.game.board.change_favor(foe, -rule.value)
        return True

    def campaign(self, seat: int, burn: int) -> None:
        """rulebook: Campaign - the top 4 Theater cards to the discard pile, then a free Lobby.
        ruling: a card lobbied before (perhaps secretly) goes back to where it was in the pile
        first, as a new Lobby would send it back, so Campaign never shows a secret Lobby."""
        s = self.state
        if s.lobbied is not None:
            s.theater_discard.insert(s.lobbied.index, s.theater_deck.pop())
            s.lobbied = None
            self.game.emit("The card lobbied before goes back to the Theater discard pile")
        burned = [s.theater_deck.pop() for _ in range(min(burn, len(s.theater_deck)))]
        s.theater_discard.extend(burned)
        names = (
            ", ".join(self.content.theater(c).name for c in burned) or "nothing (the deck is empty)"
        )
        self.game.emit(
            f"{self.game.board.name_of(seat)} Campaigns: {names} to the Theater discard pile"
        )
        if s.theater_discard:
            self.state.rulesets.pick, self.state.rulesets.pick_seat = (
                "campaign_lobby",
                seat,
            )

    # -- the second choices ---------------------------------------------------------------------

    def intimidate_targets(self, seat: int) -> list[tuple[int, str]]:
        """(opponent, card id) pairs `seat` can afford. rulebook: Intimidate - "not permitted to
        be used on any of the 10 cards from the initial Starting Player Decks"; ruling: nor when
        it would leave the opponent fewer cards than a hand (the Focus rule, docs/rulings.md)."""
        s = self.state
        if not self.game.ruleset_table.active("intimidate"):
            return []
        budget = s.players[seat].favor - self.game.ruleset_table.ruleset("intimidate").cost
        out = []
        for foe in self.game.board.opponents(seat):
            if not self.game.board.may_focus(foe):
                continue
            for card_id in dict.fromkeys(s.cards[i] for i in s.players[foe].discard):
                card = self.content.card(card_id)
                if card.card_set is not CardSet.STARTING and card.cost <= budget:
                    out.append((foe, card_id))
        return out

    def renovate_moves(self) -> dict[Hex, list[Hex]]:
        """Token hex -> the hexes it may move to. ruling: neither hex may hold a gladiator or
        another token, and a token other than a pillar stays inside the Inner Circle (rulebook:
        Token Rules)."""
        s = self.state
        if not self.game.ruleset_table.active("renovate"):
            return {}
        occupied = {p.at for p in s.players if p.alive and p.at is not None}
        out: dict[Hex, list[Hex]] = {}
        for h, token in s.tokens.items():
            if h in occupied:
                continue
            inner_only = self.token_defs[token.token].kind.inner_circle_only
            pillar = self.game.board.is_pillar(h)
            free = [
                n for n in self.arena.neighbours(h)
                if n not in s.tokens and n not in occupied and (not inner_only or self.arena.in_inner_circle(n))
                and (not pillar or self.game.team_mode.chain_allows_pillar_at(n))
            ]  # fmt: skip
            if free:
                out[h] = free
        return out

    def favor_pick_prompt(self) -> Prompt | None:
        """The open second choice of a Favor Action, if any (`_PICK_PROMPTS` per pick)."""
        pick, seat = self.state.rulesets.pick, self.state.rulesets.pick_seat
        if pick is None:
            return None
        text, choices = _PICK_PROMPTS[pick](self, seat)
        back = () if pick == "campaign_lobby" else (BACK,)  # Campaign is paid already
        return Prompt(seat, pick, text, (*choices, *back))

    def _campaign_lobby_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        return "Campaign: Lobby which Theater card (free)?", tuple(
            LobbyCard.of(c, f"Lobby {self.content.theater(c).name} (free)")
            for c in dict.fromkeys(self.game.favor_phase.lobby_pool())
        )

    def _discipline_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        return "Discipline: Focus which card (1 Favor, 1 Armor)?", tuple(
            FocusCard.of(i, self.game.board.card_name(i)) for i in self.state.players[seat].discard
        )

    def _intimidate_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        base = self.game.ruleset_table.ruleset("intimidate").cost
        return "Intimidate: Focus which opponent's card?", tuple(
            Choice(
                f"take:{foe}:{card_id}",
                f"{self.game.board.name_of(foe)}'s {self.game.card_names[card_id]} ({base + self.content.card(card_id).cost})",
            )
            for foe, card_id in self.intimidate_targets(seat)
        )

    def _renovate_token_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        tokens, centre = self.state.tokens, self.arena.centre
        return "Renovate: move which Arena token?", tuple(
            HexChoice.of(
                h, centre, f"{self.token_defs[tokens[h].token].name} at {hex_name(h, centre)}"
            )
            for h in self.renovate_moves()
        )

    def _renovate_to_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        origin = self.state.rulesets.renovate_from
        assert origin is not None
        name = self.token_defs[self.state.tokens[origin].token].name
        return f"Renovate: move {name} to which hex?", tuple(
            HexChoice.of(h, self.arena.centre) for h in self.renovate_moves().get(origin, [])
        )

    def _repair_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        return "Repair: which card goes back on top of your deck?", tuple(
            Choice(f"repair:{i}", self.game.board.card_name(i))
            for i in self.state.players[seat].discard
        )

    def _retain_prompt(self, seat: int) -> tuple[str, tuple[Choice, ...]]:
        s = self.state
        return "Retain: put a cube on which card?", tuple(
            Choice(
                f"retain:{slot}",
                f"{self.game.board.card_name(i)} ({self.content.card(s.cards[i]).cost})",
            )
            for slot, i in enumerate(s.row)
        )

    def apply_favor_pick(self, seat: int, chosen: Choice) -> None:
        """Apply the second choice of a Favor Action (`_PICK_RULES` names the rule per pick)."""
        pick = self.state.rulesets.pick
        assert pick is not None  # rules.apply_ruleset_choice calls only while a pick is open
        self.state.rulesets.pick = None
        if chosen.id == "back":
            self.state.rulesets.renovate_from = None
            return
        _PICK_RULES[pick](self, seat, chosen)

    def _campaign_lobby(self, seat: int, chosen: Choice) -> None:
        assert isinstance(chosen, LobbyCard)
        self.game.favor_phase.lobby(seat, chosen.card, cost=0)

    def _discipline(self, seat: int, chosen: Choice) -> None:
        rule = self.game.ruleset_table.ruleset("discipline")
        self.game.favor_phase.spend(seat, rule.cost)
        self.game.emit(f"{self.game.board.name_of(seat)} uses Discipline")
        assert isinstance(chosen, FocusCard)
        self.game.board.focus(seat, chosen.instance)
        self.game.board.lose_armor(seat, rule.armor, "loses")

    def _intimidate(self, seat: int, chosen: Choice) -> None:
        s = self.state
        _, foe_text, card_id = chosen.id.split(":")
        foe = int(foe_text)
        pile = s.players[foe].discard
        instance = next(i for i in pile if s.cards[i] == card_id)
        cost = self.game.ruleset_table.ruleset("intimidate").cost + self.content.card(card_id).cost
        self.game.favor_phase.spend(seat, cost)
        pile.remove(instance)
        s.players[foe].focus.append(instance)
        self.game.emit(
            f"{self.game.board.name_of(seat)} Intimidates {self.game.board.name_of(foe)} for {cost} Favor: "
            f"{self.game.card_names[card_id]} is Focused"
        )

    def _renovate_token(self, seat: int, chosen: Choice) -> None:
        assert isinstance(chosen, HexChoice)
        self.state.rulesets.renovate_from = chosen.at
        self.state.rulesets.pick = "renovate_to"

    def _renovate_to(self, seat: int, chosen: Choice) -> None:
        s = self.state
        origin = self.state.rulesets.renovate_from
        assert origin is not None
        self.state.rulesets.renovate_from = None
        assert isinstance(chosen, HexChoice)
        to = chosen.at
        self.game.favor_phase.spend(seat, self.game.ruleset_table.ruleset("renovate").cost)
        token = s.tokens.pop(origin)
        s.tokens[to] = token
        name = self.token_defs[token.token].name
        self.game.emit(
            f"{self.game.board.name_of(seat)} Renovates: {name} moves from {hex_name(origin, self.arena.centre)} to {hex_name(to, self.arena.centre)}"
        )

    def _repair(self, seat: int, chosen: Choice) -> None:
        me = self.state.players[seat]
        instance = int(chosen.id.removeprefix("repair:"))
        self.game.favor_phase.spend(seat, self.game.ruleset_table.ruleset("repair").cost)
        me.discard.remove(instance)
        me.deck.append(instance)  # the end of a deck is its top
        self.game.emit(
            f"{self.game.board.name_of(seat)} Repairs {self.game.board.card_name(instance)}: on top of the deck"
        )

    def _retain(self, seat: int, chosen: Choice) -> None:
        slot = int(chosen.id.removeprefix("retain:"))
        instance = self.state.row[slot]
        self.game.favor_phase.spend(seat, self.game.ruleset_table.ruleset("retain").cost)
        self.state.rulesets.cubes.setdefault(instance, []).append(seat)
        self.game.emit(
            f"{self.game.board.name_of(seat)} Retains {self.game.board.card_name(instance)} with a cube"
        )


# Each second choice (`RulesetState.pick`): its question and choices, and the rule that
# applies the answer.
_PICK_PROMPTS: dict[str, Callable[[FavorActions, int], tuple[str, tuple[Choice, ...]]]] = {
    "campaign_lobby": FavorActions._campaign_lobby_prompt,
    "discipline_card": FavorActions._discipline_prompt,
    "intimidate_card": FavorActions._intimidate_prompt,
    "renovate_token": FavorActions._renovate_token_prompt,
    "renovate_to": FavorActions._renovate_to_prompt,
    "repair_card": FavorActions._repair_prompt,
    "retain_card": FavorActions._retain_prompt,
}
_PICK_RULES: dict[str, Callable[[FavorActions, int, Choice], None]] = {
    "campaign_lobby": FavorActions._campaign_lobby,
    "discipline_card": FavorActions._discipline,
    "intimidate_card": FavorActions._intimidate,
    "renovate_token": FavorActions._renovate_token,
    "renovate_to": FavorActions._renovate_to,
    "repair_card": FavorActions._repair,
    "retain_card": FavorActions._retain,
}


__all__ = ["FavorActions"]
