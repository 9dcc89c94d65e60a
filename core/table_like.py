"""What a screen, the lobby and the server may ask of a table, wherever it runs.

Two kinds stand behind it: a `Table` run in this process (core/table/), and in a cluster a
stand-in for a table another node runs (server/cluster/remote.py), which sends choices to that
node and shows the views it publishes. Every user is typed against `TableLike` and never asks
which kind it holds: what only the table's own process does (bots, clocks, ratings, automatic
passes) is a method both kinds have, which does nothing on a stand-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from harena.core.bots import Bot
    from harena.core.engine import Event, Game
    from harena.core.privacy import Privacy
    from harena.core.ratings import Ratings
    from harena.core.table import Seat

Subscriber = Callable[[dict[str, Any]], None]
"""Hears each new view of its seat (a plain callback: the server adapts it to its loop)."""

Answered = Callable[[str | None], None]
"""Hears once a choice or a chat line is made (None) or refused (why, as a player reads it)."""


class TableSubscription(Protocol):
    """What `TableLike.subscribe` returns: close it when the screen goes."""

    def close(self) -> None: ...


class WaitTimes(Protocol):
    """The part of a table's clocks the lobby reads (core/clocks.py `SeatTimes`)."""

    waiting_since: dict[int, float | None]


class TableLike(Protocol):
    """A table as its users see it: public facts, per-seat views, seats, choices, chat, and
    clocks as they are shown."""

    # -- public facts (the lobby's list, "your move" marks) -------------------------------------

    id: str
    seats: list[Seat]
    spectators: dict[str, str]  # identity -> display name
    started: bool
    creator: str | None
    closed: str | None  # why an operator ended it early
    removed: str | None  # why it left this server (deleted, archived, moved)
    privacy: Privacy | None  # None: open to everyone; else invite-only (core/privacy.py)
    touched: float  # when a record was last saved
    listeners: list[Callable[[TableLike], None]]  # hear every change, before any view

    @property
    def status(self) -> str: ...

    @property
    def times(self) -> WaitTimes: ...

    @property
    def clock_shift(self) -> float:
        """How far the clock of the process running the table is ahead of this one's."""
        ...

    @property
    def game(self) -> Game:
        """The game (a stand-in's is a read-only copy: history and replay screens)."""
        ...

    @property
    def notes(self) -> list[tuple[int, str]]: ...

    @property
    def subscriber_count(self) -> int: ...

    def summary(self) -> dict[str, Any]: ...

    def seat_names(self) -> list[str]:
        """Each seat's name as screens show it ("" for a free seat)."""
        ...

    def seat_of(self, identity: str | None) -> int | None: ...

    def awaiting(self, identity: str) -> float | None: ...

    # -- views -----------------------------------------------------------------------------------

    def view_for(self, identity: str | None) -> dict[str, Any]: ...

    def subscribe(self, identity: str | None, callback: Subscriber) -> TableSubscription: ...

    # -- what a player does ------------------------------------------------------------------------

    def sit(self, identity: str, name: str, seat: int | None = None) -> int: ...

    def watch(self, identity: str, name: str) -> None: ...

    def leave(self, identity: str) -> None: ...

    def set_connected(self, identity: str, connected: bool) -> None: ...

    def remove_player(self, by: str, seat: int) -> str: ...

    def close_game(self, by: str, reason: str) -> None:
        """End the game early (an operator's call)."""
        ...

    def take_back(self, identity: str) -> None: ...

    def release_seat(self, by: str, seat: int) -> str:
        """The creator stops keeping a seat for a friend (core/table/kept.py); their name."""
        ...

    def answer_rematch(self, identity: str, yes: bool) -> None:
        """Play again, or not, at a finished game (core/table/rematch.py)."""
        ...

    def act(
        self, identity: str, choice: str, decision: int | None = None, shown: str | None = None
    ) -> list[Event]: ...

    def act_soon(
        self,
        identity: str,
        choice: str,
        decision: int | None,
        answered: Answered,
        shown: str | None = None,
    ) -> None: ...

    def say(self, identity: str, name: str, text: str) -> None: ...

    def say_soon(self, identity: str, name: str, text: str, answered: Answered) -> None: ...

    # -- privacy: who may know of it, sit and watch (core/privacy.py) ------------------------------

    def knows(self, identity: str | None) -> bool:
        """Whether `identity` may know the table exists (operators aside: the lobby's call)."""
        ...

    def watches(self, identity: str | None) -> bool:
        """Whether `identity` may watch it."""
        ...

    def invite(self, by: str, identity: str, name: str) -> None: ...

    def add_code(self, by: str) -> str: ...

    def revoke_codes(self, by: str) -> int: ...

    def join_by_code(self, identity: str, name: str, code: str) -> int | None: ...

    # -- what only the table's own process does (a stand-in does nothing) -------------------------

    def pass_automatically(self, passes: Callable[[str], bool]) -> None: ...

    def rate(self, ratings: Ratings) -> None:
        """Rate the game if it is over (a stand-in's is rated where it runs)."""
        ...

    def next_deadline(self) -> float | None: ...

    def expire(self, now: float | None = None) -> list[int]: ...

    def bots_to_move(self) -> list[int]: ...

    def may_deal(self) -> bool: ...

    def humans_asked(self) -> bool: ...

    def play_bot_step(self, off_loop: Callable[[int], None] | None = None) -> bool: ...

    def bot_of(self, seat: int) -> Bot: ...

    def play_bot(self, seat: int, choice: str | None = None) -> list[Event]: ...

    # -- leaving ---------------------------------------------------------------------------------

    def mark_removed(self, reason: str) -> None: ...

    def close(self) -> None: ...
