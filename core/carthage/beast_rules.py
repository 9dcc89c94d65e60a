"""The rules of Arena Beasts (rulebook: Arena Beasts), as `game.beast_rules`: active when the
table turns option `beasts` on.

An eliminated player (`alive` False) may take an Arena Beast: `PlayerState.beast` names it, its
Armor is the player's Armor track and it stands on `at`. A Beast is no gladiator: it draws no
cards, buys nothing, is no Theater recipient and can never win (the game still ends when one
gladiator is left). It acts once a round in turn order, at the start or end of the Action phase
(its data says which), occupies tokens without activating them, and leaves them face up. If it
is slain its player may choose another Beast, one not yet in the arena or slain.
"""

from __future__ import annotations

from harena.core.carthage.beasts import Beast, BeastEntry, BeastTiming
from harena.core.carthage.choices import HexChoice
from harena.core.carthage.hexgrid import Hex, hex_name
from harena.core.carthage.part import Part
from harena.core.carthage.state import Frame, Phase, Source
from harena.core.engine import Choice, Prompt


class BeastRules(Part):
    def beasts_on(self) -> bool:
        return self.game.config.options.get("beasts", "off") == "on"

    def is_beast(self, seat: int) -> bool:
        if not 0 <= seat < len(self.state.players):
            return False  # the Essedari Maximo (his own id past the seats) is no Beast
        p = self.state.players[seat]
        return not p.alive and p.beast is not None

    def free_beasts(self) -> list[Beast]:
        s = self.state
        taken = {p.beast for p in s.players} | set(s.slain_beasts)
        return [b for b in self.content.beasts if b.id not in taken]

    def offer_beast(self, seat: int) -> None:
        """An eliminated player (or one whose Beast was slain) "may choose" a Beast."""
        s = self.state
        if self.beasts_on() and s.phase is not Phase.OVER and self.free_beasts():
            s.beast_offers.append(seat)

    def beast_waiting(self) -> bool:
        """A Beast choice or entry is open (it waits until the effect stack is empty)."""
        s = self.state
        return bool(s.beast_offers) or any(p.beast is not None and p.at is None for p in s.players)

    # -- choosing and entering ----------------------------------------------------------------

    def beast_prompt(self) -> Prompt:
        s = self.state
        for seat, p in enumerate(s.players):
            if p.beast is not None and p.at is None:
                beast = self.content.beast(p.beast)
                hexes = self.beast_entry_hexes(beast)
                hexes_offered = tuple(HexChoice.of(h, self.arena.centre) for h in hexes)
                text = f"The {beast.name} enters the arena: where?"
                return Prompt(seat, "place_beast", text, hexes_offered)
        seat = s.beast_offers[0]
        choices = tuple(Choice(f"beast:{b.id}", f"{b.name}: {b.text}") for b in self.free_beasts())
        choices += (Choice("decline", "Stay out of the arena"),)
        return Prompt(seat, "choose_beast", "Return to the arena as an Arena Beast?", choices)

    def apply_beast(self, seat: int, chosen: Choice) -> None:
        s = self.state
        p = s.players[seat]
        choice = chosen.id
        if isinstance(chosen, HexChoice):
            assert p.beast is not None and p.at is None
            p.at = at = chosen.at
            name = self.content.beast(p.beast).name
            self.game.emit(f"The {name} enters the arena at {hex_name(at, self.arena.centre)}")
            return
        s.beast_offers.pop(0)
        if choice == "decline":
            self.game.emit(f"{self.game.board.name_of(seat)} stays out of the arena")
            return
        beast = self.content.beast(choice.removeprefix("beast:"))
        p.beast = beast.id
        p.returned = True  # rulebook: Arena Beasts, "can no longer win the game"
        p.armor = beast.armor  # rulebook: "use the Armor tracking area on their Player Board"
        self.game.emit(
            f"{self.game.gladiator_names.get(p.colour, self.game.board.name_of(seat))} returns as the {beast.name}"
        )

    def beast_entry_hexes(self, beast: Beast) -> list[Hex]:
        free = [
            h
            for h in self.arena.hexes
            if not self.game.board.is_pillar(h) and self.game.board.occupant(h) is None
        ]
        if beast.enters is BeastEntry.EDGE:
            wanted = [h for h in free if self.arena.is_edge(h)]
        else:
            wanted = [h for h in free if self.arena.in_inner_circle(h)]
        return wanted or free  # ruling: a full edge lets it in anywhere free

    # -- acting -------------------------------------------------------------------------------

    def beast_actions(self, timing: BeastTiming) -> None:
        """Every Beast of this timing acts, in turn order from the Starting Player (frames
        pushed last-first so the first runs first)."""
        s = self.state
        n = len(s.players)
        order = [(s.starting + k) % n for k in range(n)]
        acting = [
            (seat, beast) for seat in order
            if self.is_beast(seat) and s.players[seat].at is not None
            and (beast := s.players[seat].beast) is not None
            and self.content.beast(beast).acts is timing
        ]  # fmt: skip
        for seat, beast in reversed(acting):
            s.stack.append(Frame(seat, Source.BEAST, beast))

    def frame_can_run(self, frame: Frame) -> bool:
        """A gladiator's frame runs while it lives; a Beast's while that Beast is in the arena."""
        p = self.state.players[frame.owner]
        if frame.source is Source.BEAST:
            return p.beast == frame.ref and p.at is not None
        return p.alive

    def wound_beast(self, seat: int, amount: int) -> None:
        """rulebook: "Arena Beasts have an Armor Track and can be eliminated"."""
        p = self.state.players[seat]
        assert p.beast is not None
        p.armor -= amount
        name = self.content.beast(p.beast).name
        self.game.emit(f"The {name} takes {amount}: Armor {p.armor}")
        if p.armor > 0:
            return
        self.state.slain_beasts.append(p.beast)
        p.beast = None
        p.at = None  # ruling: its token stays as it is (Arena Tokens do not flip for a Beast)
        p.armor = 0
        self.game.emit(f"The {name} is slain!")
        self.offer_beast(seat)
