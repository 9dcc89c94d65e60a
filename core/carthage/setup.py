"""Setting up a game of Carthage, from the Starting Player to the last gladiator placed
(rulebook: Setup 1-7, Arena Tokens, Token Rules).

The order is the rulebook's: Setup 1 draws the Starting Player; Setup 2 lets each player, from
the Starting Player clockwise, choose a gladiator (option `gladiators=by_seat` skips it: seat k
plays the k-th colour); Setup 3, 6 and 7 shuffle decks and lay out the Theater and Action cards;
Setup 4 lays the Arena tokens, either a printed layout (option `tokens`) or, with
`tokens=players_choose`, the rule for later games: the Last Player picks the tokens, then each
player in turn order places one; Setup 5 places the gladiators.
"""

from __future__ import annotations

from harena.core.carthage.cards import Gladiator
from harena.core.carthage.choices import HexChoice
from harena.core.carthage.hexgrid import Hex, hex_name
from harena.core.carthage.part import Part
from harena.core.carthage.state import (
    ROW_SIZE,
    THEATER_BURN,
    BoardToken,
    CarthageState,
    Phase,
    PlayerState,
)
from harena.core.engine import Choice, Prompt

PLAYERS_CHOOSE = "players_choose"
MIN_TOKENS = 4  # rulebook: Arena Tokens, "players plus one, with a minimum of 4"


class SetupRules(Part):
    """Setup 1-7 and the table's set-up options (see the module docstring): `game.setup_rules`."""

    def setup(self) -> CarthageState:
        content = self.content
        n = self.game.players
        # ruling: nobody at the table can be asked who bled last; the Starting Player is drawn
        starting = self.game.rng.below(n)
        cards = list(content.action_deck())
        if self.game.config.options.get("legends", "off") == "on":
            # rulebook: Theater Legend Cards, "Simply add these into the Action deck"
            cards += content.legend_deck()
        action_deck = list(range(len(cards)))
        self.game.rng.shuffle(action_deck)  # rulebook: Setup 7
        row = [action_deck.pop() for _ in range(ROW_SIZE)]
        theater = list(content.theater_deck())
        self.game.rng.shuffle(theater)  # rulebook: Setup 6
        burned = [theater.pop() for _ in range(THEATER_BURN)]
        state = CarthageState(
            cards=cards,
            players=[PlayerState("", []) for _ in range(n)],
            tokens={},
            action_deck=action_deck,
            row=row,
            evaluated=[],
            theater_deck=theater,
            theater_discard=burned,
            starting=starting,
            turn=starting,
            phase=Phase.GLADIATORS,
        )
        self.game.state = state
        self.game.emit(f"{self.game.board.name_of(starting)} is the Starting Player")
        if self.game.config.options.get("gladiators", "choose") == "by_seat":
            for seat, gladiator in enumerate(content.gladiators[:n]):
                self.take_gladiator(seat, gladiator)
        self.after_gladiators()
        self.game.essedari_mode.remove_theater(state)
        return state

    # -- Setup 2: choose your gladiator --------------------------------------------------------

    def free_gladiators(self) -> list[Gladiator]:
        taken = {p.colour for p in self.state.players}
        return [g for g in self.content.gladiators if g.colour.value not in taken]

    def choose_gladiator(self, seat: int, colour: str) -> None:
        gladiator = self.content.gladiator(colour)
        self.game.emit(f"{self.game.board.name_of(seat)} chooses the {gladiator.name}")
        self.take_gladiator(seat, gladiator)
        self.state.turn = (seat + 1) % self.game.players
        self.after_gladiators()

    def take_gladiator(self, seat: int, gladiator: Gladiator) -> None:
        """The player board and its Starting Deck, shuffled (rulebook: Setup 2-3)."""
        s = self.state
        deck = list(range(len(s.cards), len(s.cards) + len(gladiator.starting_deck)))
        s.cards.extend(gladiator.starting_deck)
        self.game.rng.shuffle(deck)
        s.players[seat] = PlayerState(
            gladiator.colour.value, deck, armor=self.game.conditions.starting_armor()
        )
        s.chosen += 1

    def after_gladiators(self) -> None:
        s = self.state
        if s.chosen < self.game.players or self.game.essedari_mode.enter():
            return
        if self.game.team_mode.team_setup_pending():
            return
        s.turn = s.starting
        layout_id = self.game.config.options.get("tokens", "first_match")
        if layout_id == PLAYERS_CHOOSE:
            s.phase = Phase.TOKEN_PICK
            s.turn = self.last_player()
            self.game.emit(
                f"{self.game.board.name_of(s.turn)}, the Last Player, picks the Arena tokens"
            )
            return
        layout = self.content.layout(layout_id.replace("_", "-"))
        s.tokens = {p.at: BoardToken(p.token) for p in layout.for_players(self.game.players)}
        s.phase = Phase.PLACEMENT  # rulebook: Setup 4 (First Match) or a Quick Start scenario

    def last_player(self) -> int:
        """The player to the right of the Starting Player (counter-clockwise)."""
        return (self.state.starting - 1) % self.game.players

    # -- Setup 4, later games: the Last Player picks the tokens, everyone places them ----------

    def tokens_needed(self) -> int:
        return max(MIN_TOKENS, self.game.players + 1)

    def pickable_tokens(self) -> list[str]:
        """Token ids with a copy left in the box. Non-pillars stop at the Inner Circle's size
        (they must all fit in it); pillars stop at their count in the box."""
        s = self.state
        counted = sum(self.token_defs[t].kind.counts_toward_setup for t in s.token_pool)
        room = len(self.arena.inner_circle) - counted
        out = []
        for token in self.content.tokens:
            left = token.count - s.token_pool.count(token.id)
            if left > 0 and (not token.kind.counts_toward_setup or room > 0):
                out.append(token.id)
        return out

    def may_stop_picking(self) -> bool:
        s = self.state
        counted = sum(self.token_defs[t].kind.counts_toward_setup for t in s.token_pool)
        return counted >= self.tokens_needed()

    def apply_gladiator(self, seat: int, chosen: Choice) -> None:
        self.choose_gladiator(seat, chosen.id.removeprefix("gladiator:"))

    def apply_token_pick(self, seat: int, chosen: Choice) -> None:
        self.pick_token(chosen.id)

    def apply_placement(self, seat: int, chosen: Choice) -> None:
        assert isinstance(chosen, HexChoice)
        if self.place_gladiator(seat, chosen.at):
            self.game.theater_phase.start_round()

    def pick_token(self, choice: str) -> None:
        s = self.state
        if choice == "done":
            s.phase = Phase.TOKEN_PLACEMENT
            s.turn = s.starting
            names = ", ".join(self.token_defs[t].name for t in s.token_pool)
            self.game.emit(f"The Arena tokens are {names}; players place them in turn order")
            return
        token_id = choice.removeprefix("take:")
        s.token_pool.append(token_id)
        self.game.emit(f"{self.game.board.name_of(s.turn)} picks {self.token_defs[token_id].name}")

    def token_hexes(self, token_id: str) -> list[Hex]:
        """rulebook: Token Rules. Tokens go inside the Inner Circle, pillars anywhere; one token
        must be on the centre, so the last one goes there if it is still free. A pillar may not
        take the Inner Circle hexes the tokens still to be placed need."""
        s = self.state
        if self.arena.centre not in s.tokens and len(s.token_pool) == 1:
            return [self.arena.centre]
        free = [h for h in self.arena.hexes if h not in s.tokens]
        if self.token_defs[token_id].kind.inner_circle_only:
            return [h for h in free if self.arena.in_inner_circle(h)]
        needed = sum(self.token_defs[t].kind.inner_circle_only for t in s.token_pool)
        spare = sum(self.arena.in_inner_circle(h) for h in free) - needed
        return [h for h in free if spare > 0 or not self.arena.in_inner_circle(h)]

    def place_token(self, seat: int, chosen: Choice) -> None:
        s = self.state
        if not isinstance(chosen, HexChoice):  # "back", or "token:<id>" to hold
            s.token_held = None if chosen.id == "back" else chosen.id.removeprefix("token:")
            return
        assert s.token_held is not None
        at = chosen.at
        s.tokens[at] = BoardToken(s.token_held)
        s.token_pool.remove(s.token_held)
        name = self.token_defs[s.token_held].name
        self.game.emit(
            f"{self.game.board.name_of(seat)} places {name} at {hex_name(at, self.arena.centre)}"
        )
        s.token_held = None
        s.turn = (seat + 1) % self.game.players
        if not s.token_pool:
            s.phase = Phase.PLACEMENT
            s.turn = s.starting

    # -- Setup 5: placing your gladiator -------------------------------------------------------

    def placement_hexes(self) -> list[Hex]:
        """rulebook: Setup 5 - on the outside edge, not adjacent to another gladiator (the
        Chained Match keeps the chain: teams.TeamMode.placement_hexes)."""
        taken = [p.at for p in self.state.players if p.at is not None]
        return self.game.team_mode.placement_hexes(
            [
                h
                for h in self.arena.hexes
                if self.arena.is_edge(h)
                and not self.game.board.is_pillar(h)
                and h not in taken
                and not any(t in self.arena.neighbours(h) for t in taken)
            ]
        )

    def place_gladiator(self, seat: int, at: Hex) -> bool:
        """Place `seat`'s gladiator; True when the last one is placed and play begins."""
        s = self.state
        s.players[seat].at = at
        self.game.emit(
            f"{self.game.board.name_of(seat)} enters the arena at {hex_name(at, self.arena.centre)}"
        )
        s.placed += 1
        s.turn = (s.turn + 1) % self.game.players
        return s.placed == self.game.players

    # -- prompts ---------------------------------------------------------------------------------

    def setup_prompt(self) -> Prompt:
        s = self.state
        if s.phase is Phase.RULESET_PICK:
            return self.game.team_mode.team_ruleset_prompt()
        if s.phase is Phase.GLADIATORS:
            choices = tuple(
                Choice(f"gladiator:{g.colour.value}", f"{g.name}: {self.deck_text(g)}")
                for g in self.free_gladiators()
            )
            return Prompt(s.turn, "choose_gladiator", "Choose your gladiator", choices)
        if s.phase is Phase.TOKEN_PICK:
            choices = tuple(
                Choice(f"take:{t}", self.token_defs[t].name) for t in self.pickable_tokens()
            )
            if self.may_stop_picking():
                choices += (Choice("done", "Done: place these tokens"),)
            picked = len(s.token_pool)
            text = f"Pick the Arena tokens ({picked} picked, at least {self.tokens_needed()} besides pillars)"
            return Prompt(s.turn, "pick_tokens", text, choices)
        if s.phase is Phase.TOKEN_PLACEMENT:
            if s.token_held is None:
                kinds = dict.fromkeys(s.token_pool)
                choices = tuple(Choice(f"token:{t}", self.token_defs[t].name) for t in kinds)
                return Prompt(s.turn, "place_token", "Take a token to place", choices)
            name = self.token_defs[s.token_held].name
            choices = tuple(
                HexChoice.of(h, self.arena.centre) for h in self.token_hexes(s.token_held)
            )
            if len(dict.fromkeys(s.token_pool)) > 1:
                choices += (Choice("back", "Take another token"),)
            return Prompt(s.turn, "place_token", f"Place {name}", choices)
        choices = tuple(HexChoice.of(h, self.arena.centre) for h in self.placement_hexes())
        return Prompt(s.turn, "place_gladiator", "Place your gladiator on the outer edge", choices)

    def deck_text(self, gladiator: Gladiator) -> str:
        """What sets this Starting Deck apart: its class cards."""
        own = [c for c in dict.fromkeys(gladiator.starting_deck) if self.is_class_card(c)]
        return (
            ", ".join(f"{self.game.card_names[c]} ({self.game.card_texts[c]})" for c in own)
            or "the basic deck"
        )

    def is_class_card(self, card_id: str) -> bool:
        return sum(card_id in g.starting_deck for g in self.content.gladiators) == 1
