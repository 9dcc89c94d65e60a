"""Phase 2 of a round of Carthage: the Action phase, and what ends the fighting (rulebook:
Phase 2; King of the Hill; the table's sudden death)."""

from __future__ import annotations

from harena.core.carthage.cards import TokenKind
from harena.core.carthage.choices import ChooseSide, PlayCard, UseEquipment
from harena.core.carthage.part import Part
from harena.core.carthage.state import (
    HAND_SIZE,
    Frame,
    InPlay,
    Phase,
    Source,
)
from harena.core.engine import Choice


class ActionPhase(Part):
    """Hands drawn, cards played one at a time in turn order, then the end of the fighting."""

    def may_play(self, seat: int) -> bool:
        """A card in hand (and, against the Essedari Maximo, not yet played in this lap)."""
        return bool(self.state.players[seat].hand) and self.game.essedari_mode.may_play(seat)

    def begin_action_phase(self) -> None:
        s = self.state
        s.phase = Phase.ACTION
        s.turn = s.starting
        for hook in self.game.hooks.actions_start:
            hook()
        n = len(s.players)
        for k in range(n):
            seat = (s.starting + k) % n
            if s.players[seat].alive:
                self.draw(seat, HAND_SIZE)
        for hook in self.game.hooks.hands_drawn:
            hook()

    def draw(self, seat: int, count: int) -> None:
        """rulebook: Phase 2 A - when the deck runs out mid-draw, keep what was drawn, shuffle
        the discard pile into a new deck and draw the rest."""
        p = self.state.players[seat]
        drawn: list[int] = []
        while len(drawn) < count:
            if not p.deck:
                if not p.discard:
                    break
                p.deck, p.discard = p.discard, []
                self.game.rng.shuffle(p.deck)
                self.game.emit(
                    f"{self.game.board.name_of(seat)} shuffles the discard pile into a new deck"
                )
            drawn.append(p.deck.pop())
        p.hand.extend(drawn)
        names = ", ".join(self.game.board.card_name(i) for i in drawn)
        self.game.emit(
            f"You draw {names}",
            seats=[seat],
            redacted=f"{self.game.board.name_of(seat)} draws {len(drawn)} cards",
        )

    def play_card(self, seat: int, instance: int) -> None:
        """rulebook: Phase 2 B - one card at a time, resolved at once."""
        s = self.state
        p = s.players[seat]
        p.hand.remove(instance)
        s.in_play = InPlay(seat, instance, None, fifth=not p.hand)
        s.turn = (seat + 1) % len(s.players)
        card_id = s.cards[instance]
        card = self.content.card(card_id)
        text = self.game.card_texts[card_id]  # card.text, worked out once per game
        self.game.emit(f"{self.game.board.name_of(seat)} plays {card.name}: {text}")
        if not card.is_slash:
            self.choose_side(0)
        self.game.essedari_mode.card_played(seat)

    def choose_side(self, side: int) -> None:
        s = self.state
        assert s.in_play is not None
        s.in_play.side = side
        card_id = s.cards[s.in_play.instance]
        if self.content.card(card_id).is_slash:
            text = self.content.card(card_id).sides[side].text
            self.game.emit(f"{self.game.board.name_of(s.in_play.seat)} chooses {text}")
        frame = Frame(s.in_play.seat, Source.CARD, card_id, side)
        for chosen in self.game.hooks.card_chosen:
            chosen(frame)
        s.stack.append(frame)
        for revealed in self.game.hooks.card_revealed:
            revealed()

    def end_action_phase(self) -> None:
        """rulebook: Phase 2 C - a late Theater card resolves now."""
        s = self.state
        s.phase = Phase.AFTER_ACTIONS
        if s.after_actions is not None:
            card_id, s.after_actions = s.after_actions, None
            self.game.theater_phase.resolve_theater(card_id)
        for hook in self.game.hooks.actions_end:  # on top: the Beasts act before the late card
            hook()

    def king_of_the_hill(self) -> None:
        """ruling: King of the Hill scores "at the end of the Round" as the fighting ends, just
        before the Favor phase, so its Favor can be spent before the reset (docs/rulings.md)."""
        s = self.state
        for h, token in s.tokens.items():
            kind = self.token_defs[token.token]
            if kind.kind is TokenKind.KING_OF_THE_HILL:
                seat = self.game.board.occupant(h)
                if seat is not None and s.players[seat].alive:  # a Beast never activates it
                    self.game.emit(f"{self.game.board.name_of(seat)} is King of the Hill")
                    self.game.board.change_favor(seat, kind.value)

    def sudden_death(self) -> None:
        """Table option, not in the rulebook (docs/rulings.md): from round N on, the crowd
        loses patience and every gladiator loses (round - N + 1) Armor as the fighting ends,
        in turn order from the Starting Player, so every game ends with one winner."""
        s = self.state
        limit = self.sudden_death_round()
        if limit is None or s.round < limit:
            return
        loss = s.round - limit + 1
        self.game.emit(f"Sudden death: the crowd demands blood, every gladiator loses {loss} Armor")
        n = len(s.players)
        for seat in [(s.starting + k) % n for k in range(n)]:
            if s.phase is not Phase.OVER and s.players[seat].alive:  # gladiators, not Beasts
                self.game.board.lose_armor(seat, loss, "loses")

    def sudden_death_round(self) -> int | None:
        value = self.game.config.options.get("sudden_death", "off")
        return None if value == "off" else int(value)

    def apply(self, seat: int, chosen: Choice) -> None:
        """A choice at the Action phase's prompts (prompts._action_prompt)."""
        if isinstance(chosen, ChooseSide):
            self.choose_side(chosen.side)
        elif isinstance(chosen, UseEquipment):
            self.game.equipment_rules.use_equipment(seat, chosen.equipment, chosen.instance)
        else:
            assert isinstance(chosen, PlayCard)
            self.play_card(seat, chosen.instance)
