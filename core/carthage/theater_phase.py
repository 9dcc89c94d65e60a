"""Phase 1 of a round of Carthage: the Theater phase (rulebook: Phase 1)."""

from __future__ import annotations

from harena.core.carthage.cards import Recipients, TheaterTiming
from harena.core.carthage.part import Part
from harena.core.carthage.state import (
    Frame,
    Phase,
    Source,
)


class TheaterPhase(Part):
    """A new round: tokens turn face up, and a Theater card is drawn and resolved."""

    def start_round(self) -> None:
        s = self.state
        s.round += 1
        s.phase = Phase.THEATER
        s.hooks.clear()
        for hook in self.game.hooks.round_starts:
            hook()
        for p in s.players:
            p.favor = 0  # rulebook: Setup 3, Favor resets at the beginning of each Round
        if s.initiator is not None:  # rulebook: Favor Options, Initiate
            s.starting = s.initiator
            s.initiator = None
        self.game.emit(
            f"Round {s.round}: {self.game.board.name_of(s.starting)} is the Starting Player"
        )
        occupied = {p.at for p in s.players if p.alive}
        for h, token in s.tokens.items():  # Phase 1 A
            if not token.face_up and h not in occupied:
                token.face_up = True
        if self.game.essedari_mode.active:
            self.game.essedari_mode.start_round()  # no Theater cards against him
        else:
            self.draw_theater()

    def draw_theater(self) -> None:
        s = self.state
        if not s.theater_deck:
            # ruling: an empty Theater deck is rebuilt from its discard pile (docs/rulings.md)
            s.theater_deck = s.theater_discard
            s.theater_discard = []
            self.game.rng.shuffle(s.theater_deck)
            self.game.emit("The Theater deck is reshuffled")
        card_id = s.theater_deck.pop()  # Phase 1 B
        s.lobbied = None
        s.theater_discard.append(card_id)
        s.theater_card = card_id
        card = self.content.theater(card_id)
        self.game.emit(f"Theater: {card.name} - {card.text}")
        if card.timing is TheaterTiming.NOW:  # Phase 1 C
            self.resolve_theater(card_id)
        else:
            s.after_actions = card_id

    def resolve_theater(self, card_id: str) -> None:
        """Each recipient resolves the card's effects, in turn order from the Starting Player
        (rulebook: Theater Card Clarifying Rules, Favored Underdog)."""
        s = self.state
        card = self.content.theater(card_id)
        recipients = self.recipients(card.recipients) if card.recipients else [s.starting]
        for seat in reversed(recipients):  # the stack runs the first recipient first
            s.stack.append(Frame(seat, Source.THEATER, card_id))

    def recipients(self, who: Recipients) -> list[int]:
        s = self.state
        n = len(s.players)
        order = [(s.starting + k) % n for k in range(n) if s.players[(s.starting + k) % n].alive]
        if who is Recipients.ALL:
            return order
        if who is Recipients.STARTING_PLAYER:
            return [s.starting]
        if who is Recipients.OUTER_EDGE:
            return [i for i in order if (at := s.players[i].at) and self.arena.is_edge(at)]
        if who is Recipients.INNER_CIRCLE:
            return [i for i in order if (at := s.players[i].at) and self.arena.in_inner_circle(at)]
        if who is Recipients.MOST_FAVOR:
            best = max(s.players[i].favor for i in order)
            return [i for i in order if s.players[i].favor == best]
        armors = [s.players[i].armor for i in order]
        best = min(armors) if who is Recipients.LEAST_ARMOR else max(armors)
        return [i for i in order if s.players[i].armor == best]
