"""Who sits at a table and what they say: a seat, a chat line, and the text a player may give
them (a name, a line of chat)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from harena.core.bots import bot_seat_names

CHAT_KEPT = 100  # chat lines kept in memory and in snapshots
CHAT_SHOWN = 20  # chat lines carried in a view
CHAT_MAX_CHARS = 300


@dataclass
class Seat:
    identity: str | None = None  # SSH key fingerprint of the player holding it
    name: str = ""
    bot: str | None = None  # bot kind, when a bot plays this seat
    # The game's event index when the present occupant sat down: the seat's private log lines
    # before it were someone else's and read redacted (docs/rulings.md, taking over a seat).
    log_from: int = 0
    # Why a bot plays for the player holding this seat ("clock": time ran out, "away": gone
    # past the table's stand-in time), until they take it back; None: they play themselves.
    stand_in: str | None = None
    connected: bool = False  # runtime only: never saved
    # A seat the creator keeps for a friend (core/table/kept.py): their key and the name the
    # server knows them by. Nobody else may sit in it; a bot may hold it until they come.
    kept_for: str | None = None
    kept_name: str = ""

    @property
    def free(self) -> bool:
        return self.identity is None and self.bot is None


@dataclass
class ChatLine:
    at: float
    name: str
    text: str


def seat_names(seats: list[Seat]) -> list[str]:
    """Each seat's name as screens show it: the player's, a bot's by its level ("normal bot",
    numbered when two share one: core/bots.py), "" for a free seat."""
    bots = bot_seat_names([s.bot for s in seats])
    return [bot or s.name for s, bot in zip(seats, bots, strict=True)]


def seat_index(seats: list[Seat], identity: str | None) -> int | None:
    """Which of `seats` `identity` sits in (None: none, or no identity)."""
    if identity is None:
        return None
    for index, seat in enumerate(seats):
        if seat.identity == identity:
            return index
    return None


def clean_text(text: str, limit: int) -> str:
    """Printable, single-line, bounded: what a chat line or a name may hold."""
    kept = "".join(
        ch if unicodedata.category(ch)[0] != "C" else " " for ch in str(text)[: limit * 4]
    )
    return " ".join(kept.split())[:limit]
