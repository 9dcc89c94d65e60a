"""The round of Carthage: Theater phase, Action phase, Favor phase (rulebook: Round Order).

`advance()` runs the game forward until some seat must decide something: it resolves the effect
stack, then moves the phase on. Turn order is seat order (clockwise), from the Starting Player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.carthage.beasts import BeastTiming
from harena.core.carthage.cards import Recipients, TheaterTiming, TokenKind
from harena.core.carthage.resolve import EffectResolver
from harena.core.carthage.state import (
    EVALUATE_BASE_COST,
    FOCUS_COST,
    HAND_SIZE,
    INITIATE_COST,
    LOBBY_COST,
    ROW_SIZE,
    SETUP_PHASES,
    Frame,
    InPlay,
    Lobbied,
    Phase,
    Source,
)

if TYPE_CHECKING:
    from harena.core.engine import Choice


class RoundFlow(EffectResolver):
    """The phase half of the Carthage rules; mixed into `rules.Carthage`."""

    if TYPE_CHECKING:  # equipment_rules.EquipmentRules and beast_rules.BeastRules

        def clear_conditions(self) -> None: ...
        def mark_hobbled(self, frame: Frame) -> None: ...
        def ready_choices(self, seat: int) -> list[Choice]: ...
        def beast_waiting(self) -> bool: ...
        def beast_actions(self, timing: BeastTiming) -> None: ...

    def shuffle(self, items: list) -> None:  # type: ignore[type-arg]
        raise NotImplementedError  # provided by rules.Carthage (self.rng)

    def advance(self) -> None:
        s = self.state
        while s.phase is not Phase.OVER:
            if s.stack:
                if not self.run_frames():
                    return
                continue
            if self.beast_waiting():
                return  # beast_rules: an eliminated player chooses a Beast, or where it enters
            if s.phase in SETUP_PHASES or self.ruleset_waits():
                return  # setup, or a Modular Ruleset's prompt: one decision at a time
            if s.phase is Phase.THEATER:
                self.begin_action_phase()
            elif s.phase is Phase.ACTION:
                if s.in_play is not None:
                    return  # a "/" card waits for its side
                if self.essedari_mode.opponent_turn():
                    continue
                seat = self.next_seat(self.may_play)
                if seat is None:
                    self.end_action_phase()
                    continue
                s.turn = seat
                return
            elif s.phase is Phase.AFTER_ACTIONS:
                if self.end_of_actions():  # Modular Rulesets at the end of the Action phase
                    continue
                self.king_of_the_hill()
                self.sudden_death()
                if s.phase is not Phase.OVER:
                    self.begin_favor_phase()
            elif s.phase is Phase.FAVOR:
                if (
                    s.focus_pick is not None
                    or s.evaluate_buy is not None
                    or s.lobby_reveal is not None
                ):
                    return
                seat = self.next_buyer()
                if seat is None:
                    self.end_favor_phase()
                    self.start_round()
                    continue
                s.turn = seat
                return

    def next_seat(self, wants: object) -> int | None:
        """The first living seat from `turn` clockwise for which `wants(seat)` holds."""
        s = self.state
        n = len(s.players)
        for k in range(n):
            seat = (s.turn + k) % n
            if s.players[seat].alive and wants(seat):  # type: ignore[operator]
                return seat
        return None

    def may_play(self, seat: int) -> bool:
        """A card in hand (and, against the Essedari Maximo, not yet played in this lap)."""
        return bool(self.state.players[seat].hand) and self.essedari_mode.may_play(seat)

    # -- Phase 1: Theater ---------------------------------------------------------------------------

    def start_round(self) -> None:
        s = self.state
        s.round += 1
        s.phase = Phase.THEATER
        s.hooks.clear()
        self.clear_conditions()  # Gear conditions last this round's Action phase at most
        for p in s.players:
            p.favor = 0  # rulebook: Setup 3, Favor resets at the beginning of each Round
        if s.initiator is not None:  # rulebook: Favor Options, Initiate
            s.starting = s.initiator
            s.initiator = None
        self.emit(f"Round {s.round}: {self.name_of(s.starting)} is the Starting Player")
        occupied = {p.at for p in s.players if p.alive}
        for h, token in s.tokens.items():  # Phase 1 A
            if not token.face_up and h not in occupied:
                token.face_up = True
        if self.essedari_mode.active:
            self.essedari_mode.start_round()  # no Theater cards against him
        else:
            self.draw_theater()

    def draw_theater(self) -> None:
        s = self.state
        if not s.theater_deck:
            # ruling: an empty Theater deck is rebuilt from its discard pile (docs/rulings.md)
            s.theater_deck = s.theater_discard
            s.theater_discard = []
            self.shuffle(s.theater_deck)
            self.emit("The Theater deck is reshuffled")
        card_id = s.theater_deck.pop()  # Phase 1 B
        s.lobbied = None
        s.theater_discard.append(card_id)
        s.theater_card = card_id
        card = self.content.theater(card_id)
        self.emit(f"Theater: {card.name} - {card.text}")
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
            return [i for i in order if self.arena.is_edge(s.players[i].at)]  # type: ignore[arg-type]
        if who is Recipients.INNER_CIRCLE:
            return [i for i in order if self.arena.in_inner_circle(s.players[i].at)]  # type: ignore[arg-type]
        if who is Recipients.MOST_FAVOR:
            best = max(s.players[i].favor for i in order)
            return [i for i in order if s.players[i].favor == best]
        armors = [s.players[i].armor for i in order]
        best = min(armors) if who is Recipients.LEAST_ARMOR else max(armors)
        return [i for i in order if s.players[i].armor == best]

    # -- Phase 2: Actions ---------------------------------------------------------------------------

    def begin_action_phase(self) -> None:
        s = self.state
        s.phase = Phase.ACTION
        s.turn = s.starting
        self.start_of_actions()  # Modular Rulesets: Battle Hardened, Featured Match
        n = len(s.players)
        for k in range(n):
            seat = (s.starting + k) % n
            if s.players[seat].alive:
                self.draw(seat, HAND_SIZE)
        self.beast_actions(BeastTiming.START)

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
                self.shuffle(p.deck)
                self.emit(f"{self.name_of(seat)} shuffles the discard pile into a new deck")
            drawn.append(p.deck.pop())
        p.hand.extend(drawn)
        names = ", ".join(self.card_name(i) for i in drawn)
        self.emit(
            f"You draw {names}",
            seats=[seat],
            redacted=f"{self.name_of(seat)} draws {len(drawn)} cards",
        )

    def play_card(self, seat: int, instance: int) -> None:
        """rulebook: Phase 2 B - one card at a time, resolved at once."""
        s = self.state
        p = s.players[seat]
        p.hand.remove(instance)
        s.in_play = InPlay(seat, instance, None, fifth=not p.hand)
        s.turn = (seat + 1) % len(s.players)
        card = self.content.card(s.cards[instance])
        self.emit(f"{self.name_of(seat)} plays {card.name}: {card.text}")
        if not card.is_slash:
            self.choose_side(0)
        self.essedari_mode.card_played(seat)

    def choose_side(self, side: int) -> None:
        s = self.state
        assert s.in_play is not None
        s.in_play.side = side
        card_id = s.cards[s.in_play.instance]
        if self.content.card(card_id).is_slash:
            text = self.content.card(card_id).sides[side].text
            self.emit(f"{self.name_of(s.in_play.seat)} chooses {text}")
        frame = Frame(s.in_play.seat, Source.CARD, card_id, side)
        self.mark_hobbled(frame)
        s.stack.append(frame)
        self.card_revealed()  # Modular Rulesets: the Naked and Afraid window

    def end_action_phase(self) -> None:
        """rulebook: Phase 2 C - a late Theater card resolves now."""
        s = self.state
        s.phase = Phase.AFTER_ACTIONS
        if s.after_actions is not None:
            card_id, s.after_actions = s.after_actions, None
            self.resolve_theater(card_id)
        self.beast_actions(BeastTiming.END)  # on top: the Beasts act before the late card

    def king_of_the_hill(self) -> None:
        """ruling: King of the Hill scores "at the end of the Round" as the fighting ends, just
        before the Favor phase, so its Favor can be spent before the reset (docs/rulings.md)."""
        s = self.state
        for h, token in s.tokens.items():
            kind = self.token_defs[token.token]
            if kind.kind is TokenKind.KING_OF_THE_HILL:
                seat = self.occupant(h)
                if seat is not None and s.players[seat].alive:  # a Beast never activates it
                    self.emit(f"{self.name_of(seat)} is King of the Hill")
                    self.change_favor(seat, kind.value)

    def sudden_death(self) -> None:
        """Table option, not in the rulebook (docs/rulings.md): from round N on, the crowd
        loses patience and every gladiator loses (round - N + 1) Armor as the fighting ends,
        in turn order from the Starting Player, so every game ends with one winner."""
        s = self.state
        limit = self.sudden_death_round()
        if limit is None or s.round < limit:
            return
        loss = s.round - limit + 1
        self.emit(f"Sudden death: the crowd demands blood, every gladiator loses {loss} Armor")
        n = len(s.players)
        for seat in [(s.starting + k) % n for k in range(n)]:
            if s.phase is not Phase.OVER and s.players[seat].alive:  # gladiators, not Beasts
                self.lose_armor(seat, loss, "loses")

    def sudden_death_round(self) -> int | None:
        raise NotImplementedError  # rules.Carthage reads its option

    # -- Phase 3: Favor -----------------------------------------------------------------------------

    def begin_favor_phase(self) -> None:
        """rulebook: Phase 3 A - beginning with the Last Player (to the right of the Starting
        Player), clockwise. Against the Essedari Maximo the last round has none."""
        if self.essedari_mode.rounds_over():
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
            seat = self.next_seat(lambda i: not s.players[i].passed)
            if seat is None:
                return None
            if self.can_buy_anything(seat):
                return seat
            self.pass_favor(seat)

    def can_buy_anything(self, seat: int) -> bool:
        s = self.state
        favor = s.players[seat].favor
        return favor > 0 and (
            any(self.row_cost(seat, i) <= favor for i in s.row)
            or (s.initiator is None and favor >= INITIATE_COST)
            or (favor >= FOCUS_COST and self.may_focus(seat))
            or self.may_evaluate(seat)
            or (favor >= LOBBY_COST and bool(self.lobby_pool()))
            or bool(self.ruleset_favor_choices(seat))
            or bool(self.ready_choices(seat))
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
        self.emit(f"{self.name_of(seat)} passes")

    def spend(self, seat: int, cost: int) -> None:
        self.state.players[seat].favor -= cost
        self.state.turn = (seat + 1) % len(self.state.players)

    def buy(self, seat: int, slot: int) -> None:
        """rulebook: Favor Options, Purchase - to the discard pile; refill the row at once."""
        s = self.state
        instance = s.row[slot]
        card = self.content.card(s.cards[instance])
        cost = self.row_cost(seat, instance)  # Retain cubes may add to it
        self.spend(seat, cost)
        self.pay_retainers(seat, instance)
        s.players[seat].discard.append(instance)
        if s.action_deck:
            s.row[slot] = s.action_deck.pop()
        else:
            del s.row[slot]  # ruling: an exhausted Action deck leaves the slot empty
        self.emit(f"{self.name_of(seat)} buys {card.name} for {cost} Favor")

    def initiate(self, seat: int) -> None:
        self.spend(seat, INITIATE_COST)
        self.state.initiator = seat
        self.emit(f"{self.name_of(seat)} Initiates: Starting Player next round")

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
        self.return_cubes(s.row)
        s.evaluated.extend(s.row)
        s.row = [s.action_deck.pop() for _ in range(min(ROW_SIZE, len(s.action_deck)))]
        self.emit(f"{self.name_of(seat)} Evaluates: a new Action row")
        if self.affordable_row(seat):
            s.evaluate_buy = seat

    def affordable_row(self, seat: int) -> list[int]:
        s = self.state
        favor = s.players[seat].favor
        return [k for k, i in enumerate(s.row) if self.row_cost(seat, i) <= favor]

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
            self.emit("The card lobbied before goes back to the Theater discard pile")
        index = len(s.theater_discard) - 1 - s.theater_discard[::-1].index(card_id)
        del s.theater_discard[index]
        s.theater_deck.append(card_id)
        s.lobbied = Lobbied(seat, False, index)
        s.lobby_reveal = seat
        self.emit(f"{self.name_of(seat)} Lobbies the crowd")

    def reveal_lobby(self, reveal: bool) -> None:
        s = self.state
        assert s.lobbied is not None
        s.lobby_reveal = None
        s.lobbied.revealed = reveal
        seat = s.lobbied.seat
        name = self.content.theater(s.theater_deck[-1]).name
        if reveal:
            self.emit(f"{self.name_of(seat)} reveals the lobbied card: {name}")
        else:
            self.emit(
                f"You put {name} on top of the Theater deck",
                seats=[seat],
                redacted=f"{self.name_of(seat)} keeps the lobbied card secret",
            )

    def end_favor_phase(self) -> None:
        """rulebook: Phase 3 B - everyone's Favor goes back to 0."""
        for p in self.state.players:
            p.favor = 0
            p.passed = False
