"""Typed choices: what a prompt offers carries what it picks, so the rules apply the choice the
prompt builder made instead of parsing its id again. The ids (what clients send and saved
action logs hold) are the same as ever: each is made here from the typed value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from harena.core.carthage.hexgrid import Direction, Hex, hex_name
from harena.core.engine import Choice


@dataclass(frozen=True, slots=True)
class HexChoice(Choice):
    """ "hex:q,r": where a gladiator, a token or a Beast goes."""

    at: Hex

    @classmethod
    def of(cls, at: Hex, centre: Hex, label: str | None = None) -> HexChoice:
        """The hex `at`, labelled by where it lies from the arena's `centre` (or `label`)."""
        if label is None:
            return _plain_hex_choice(at, centre)
        return cls(f"hex:{at.q},{at.r}", label, at)


@cache
def _plain_hex_choice(at: Hex, centre: Hex) -> HexChoice:
    """A hex labelled by itself: choices are immutable, so each is made once and shared (the
    placement prompts offer the same dozens of hexes over and over)."""
    return HexChoice(f"hex:{at.q},{at.r}", hex_name(at, centre), at)


@dataclass(frozen=True, slots=True)
class PlayCard(Choice):
    """ "play:<instance>": an Action card from hand."""

    instance: int

    @classmethod
    def of(cls, instance: int, label: str) -> PlayCard:
        return cls(f"play:{instance}", label, instance)


@dataclass(frozen=True, slots=True)
class ChooseSide(Choice):
    """ "side:<k>": a "/" card's side."""

    side: int

    @classmethod
    def of(cls, side: int, label: str) -> ChooseSide:
        return cls(f"side:{side}", label, side)


@dataclass(frozen=True, slots=True)
class UseEquipment(Choice):
    """ "equip:<equipment id>:<instance>": an Equipment card, after discarding a Starting card."""

    equipment: str
    instance: int

    @classmethod
    def of(cls, equipment: str, instance: int, label: str) -> UseEquipment:
        return cls(f"equip:{equipment}:{instance}", label, equipment, instance)


@dataclass(frozen=True, slots=True)
class BuyCard(Choice):
    """ "buy:<slot>": a card of the Action row."""

    slot: int

    @classmethod
    def of(cls, slot: int, label: str) -> BuyCard:
        return cls(f"buy:{slot}", label, slot)


@dataclass(frozen=True, slots=True)
class ReadyEquipment(Choice):
    """ "ready:<equipment id>": a face-down Equipment card turned face up."""

    equipment: str

    @classmethod
    def of(cls, equipment: str, label: str) -> ReadyEquipment:
        return cls(f"ready:{equipment}", label, equipment)


@dataclass(frozen=True, slots=True)
class LobbyCard(Choice):
    """ "lobby:<theater card id>": a Theater card put on top of the deck."""

    card: str

    @classmethod
    def of(cls, card: str, label: str) -> LobbyCard:
        return cls(f"lobby:{card}", label, card)


@dataclass(frozen=True, slots=True)
class FocusCard(Choice):
    """ "focus:<instance>": a card of the discard pile removed from the game."""

    instance: int

    @classmethod
    def of(cls, instance: int, label: str) -> FocusCard:
        return cls(f"focus:{instance}", label, instance)


@dataclass(frozen=True, slots=True)
class StepChoice(Choice):
    """ "dir:<direction>": a step of Movement, or which way a knockback goes."""

    direction: Direction

    @classmethod
    def of(cls, direction: Direction, label: str) -> StepChoice:
        return cls(f"dir:{direction.name}", label, direction)


@dataclass(frozen=True, slots=True)
class SeatChoice(Choice):
    """ "target:<seat>" (whom a Damage hits, who loses Favor; "target:none": nobody) and
    "start:<seat>" (who takes the Starting Player token)."""

    seat: int | None

    @classmethod
    def of(cls, prefix: str, seat: int | None, label: str) -> SeatChoice:
        return cls(f"{prefix}:{'none' if seat is None else seat}", label, seat)


@dataclass(frozen=True, slots=True)
class DiscardChoice(Choice):
    """ "discard:<instance>": a card from hand to the discard pile."""

    instance: int

    @classmethod
    def of(cls, instance: int, label: str) -> DiscardChoice:
        return cls(f"discard:{instance}", label, instance)
