"""Phase 3 of a round of Carthage: the Favor phase (rulebook: Phase 3; Favor Options)."""

from __future__ import annotations

from harena.core.carthage.choices import BuyCard, FocusCard, LobbyCard, ReadyEquipment
from harena.core.carthage.part import Part
from harena.core.carthage.prompts import favor_choices
from harena.core.carthage.state import (
    EVALUATE_BASE_COST,
    FOCUS_COST,
    INITIATE_COST,
    LOBBY_COST,
    ROW_SIZE,
    Lobbied,
    Phase,
)
from harena.core.engine import Choice


class FavorPhase(Part):
    """Each player in turn buys with their Favor until everyone has passed."""

    def begin_favor_phase(self) -> None:
        """rulebook: Phase 3 A - beginning with the Last Player (to the right of the Starting
        Player), clockwise. Against the Essedari Maximo the last round has none."""
        if self.game.essedari_mode.rounds_over():
            return
        s = self.state
        s.phase = Phase.FAVOR
        s.evaluations = 0
        for p in s.players:
            p.passed = not p.alive
        n = len(s.players)
        s.turn = next(
            (s.starting - k) % n for k in range(1, n + 1) if s.players[(s.starting - k) % n].alive
        )

    def next_buyer(self) -> int | None:
        """The next seat still buying; one with nothing it can afford passes at once."""
        s = self.state
        while True:
            seat = self.game.flow.next_seat(lambda i: not s.players[i].passed)
            if seat is None:
                return None
            if self.can_buy_anything(seat):
                return seat
            self.pass_favor(seat)

    def can_buy_anything(self, seat: int) -> bool:
        """Favor to spend and something it buys: the Favor menu's own list (prompts)."""
        return (
            self.state.players[seat].favor > 0
            and next(favor_choices(self.game, seat), None) is not None
        )

    def evaluate_cost(self) -> int:
        """ruling: Evaluate costs 2 + X, X the Evaluates already bought this Favor phase."""
        return EVALUATE_BASE_COST + self.state.evaluations

    def may_evaluate(self, seat: int) -> bool:
        s = self.state
        return bool(s.action_deck) and s.players[seat].favor >= self.evaluate_cost()

    def pass_favor(self, seat: int) -> None:
        p = self.state.players[seat]
        p.passed = True
        p.favor = 0  # rulebook: Phase 3 A, "Once a player has passed ... reset to 0 Favor"
        self.game.emit(f"{self.game.board.name_of(seat)} passes")

    def spend(self, seat: int, cost: int) -> None:
        self.state.players[seat].favor -= cost
        self.state.turn = (seat + 1) % len(self.state.players)

    def buy(self, seat: int, slot: int) -> None:
        """rulebook: Favor Options, Purchase - to the discard pile; refill the row at once."""
        s = self.state
        instance = s.row[slot]
        card = self.content.card(s.cards[instance])
        cost = self.game.favor_actions.row_cost(seat, instance)  # Retain cubes may add to it
        self.spend(seat, cost)
        self.game.favor_actions.pay_retainers(seat, instance)
        s.players[seat].discard.append(instance)
        if s.action_deck:
            s.row[slot] = s.action_deck.pop()
        else:
            del s.row[slot]  # ruling: an exhausted Action deck leaves the slot empty
        self.game.emit(f"{self.game.board.name_of(seat)} buys {card.name} for {cost} Favor")

    def initiate(self, seat: int) -> None:
        self.spend(seat, INITIATE_COST)
        self.state.initiator = seat
        self.game.emit(f"{self.game.board.name_of(seat)} Initiates: Starting Player next round")

    def favor_focus(self, seat: int) -> None:
        """rulebook: Favor Options, Focus - paid first, then the card is picked (its own prompt,
        so the Favor menu stays short)."""
        self.spend(seat, FOCUS_COST)
        self.state.focus_pick = seat

    def evaluate(self, seat: int) -> None:
        """rulebook: Favor Options, Evaluate - the row to the Focus Discard Pile, 5 new cards,
        and the evaluator may buy one of them before anyone else."""
        s = self.state
        self.spend(seat, self.evaluate_cost())
        s.evaluations += 1
        self.game.favor_actions.return_cubes(s.row)
        s.evaluated.extend(s.row)
        s.row = [s.action_deck.pop() for _ in range(min(ROW_SIZE, len(s.action_deck)))]
        self.game.emit(f"{self.game.board.name_of(seat)} Evaluates: a new Action row")
        if self.affordable_row(seat):
            s.evaluate_buy = seat

    def affordable_row(self, seat: int) -> list[int]:
        s = self.state
        favor = s.players[seat].favor
        return [
            k for k, i in enumerate(s.row) if self.game.favor_actions.row_cost(seat, i) <= favor
        ]

    def lobby_pool(self) -> list[str]:
        """The Theater discard pile as a Lobby chooses from it: with the card an earlier Lobby
        put on the deck back where it was, since a new Lobby returns that one first. The same
        for every seat, so the menu does not tell a secret Lobby's card."""
        s = self.state
        if s.lobbied is None:
            return s.theater_discard
        pile = list(s.theater_discard)
        pile.insert(s.lobbied.index, s.theater_deck[-1])
        return pile

    def lobby(self, seat: int, card_id: str, cost: int = LOBBY_COST) -> None:
        """rulebook: Favor Options, Lobby - a Theater discard on top of the deck, face down.
        ruling (docs/rulings.md): "the card which was most recently Lobbied will be the next and
        only card played", so the card an earlier Lobby put there goes back to the pile first."""
        s = self.state
        self.spend(seat, cost)  # 0: the free Lobby of Campaign
        if s.lobbied is not None:
            s.theater_discard.insert(s.lobbied.index, s.theater_deck.pop())
            self.game.emit("The card lobbied before goes back to the Theater discard pile")
        index = len(s.theater_discard) - 1 - s.theater_discard[::-1].index(card_id)
        del s.theater_discard[index]
        s.theater_deck.append(card_id)
        s.lobbied = Lobbied(seat, False, index)
        s.lobby_reveal = seat
        self.game.emit(f"{self.game.board.name_of(seat)} Lobbies the crowd")

    def reveal_lobby(self, reveal: bool) -> None:
        s = self.state
        assert s.lobbied is not None
        s.lobby_reveal = None
        s.lobbied.revealed = reveal
        seat = s.lobbied.seat
        name = self.content.theater(s.theater_deck[-1]).name
        if reveal:
            self.game.emit(f"{self.game.board.name_of(seat)} reveals the lobbied card: {name}")
        else:
            self.game.emit(
                f"You put {name} on top of the Theater deck",
                seats=[seat],
                redacted=f"{self.game.board.name_of(seat)} keeps the lobbied card secret",
            )

    def end_favor_phase(self) -> None:
        """rulebook: Phase 3 B - everyone's Favor goes back to 0."""
        for p in self.state.players:
            p.favor = 0
            p.passed = False

    def apply(self, seat: int, chosen: Choice) -> None:
        """A choice at the Favor phase's prompts (prompts._favor_prompt)."""
        s = self.state
        choice = chosen.id
        if s.lobby_reveal is not None:
            self.reveal_lobby(choice == "reveal")
        elif isinstance(chosen, FocusCard):  # the card a paid Focus takes
            s.focus_pick = None
            self.game.board.focus(seat, chosen.instance)
        elif s.evaluate_buy is not None:
            s.evaluate_buy = None
            if isinstance(chosen, BuyCard):  # else "decline"
                self.buy(seat, chosen.slot)
        elif self.game.favor_actions.apply_ruleset_favor(seat, choice):
            pass  # a Modular Ruleset's Favor Action (Initiate is counted there, then below)
        elif isinstance(chosen, BuyCard):
            self.buy(seat, chosen.slot)
        elif isinstance(chosen, ReadyEquipment):
            self.game.equipment_rules.ready(seat, chosen.equipment)
        elif isinstance(chosen, LobbyCard):
            self.lobby(seat, chosen.card)
        elif choice == "pass":
            self.pass_favor(seat)
            s.turn = (seat + 1) % self.game.players
        elif choice == "initiate":
            self.initiate(seat)
        elif choice == "evaluate":
            self.evaluate(seat)
        elif choice == "focus":
            self.favor_focus(seat)
