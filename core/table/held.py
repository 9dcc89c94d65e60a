"""The table's held reaction windows: while a game's reaction window (core/windows.py) asks a
person, the table holds each answer until every person asked has answered or the window's time
is up, then gives them all to the game at once (so nobody learns anything from who answered
when). After a restart, or a move to another node, a window opens afresh for its full time; the
answers held in it are saved ("hold" records) and held again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harena.core import windows
from harena.core.engine import IllegalAction

if TYPE_CHECKING:
    from harena.core.table.front import Table


class HeldWindows:
    """The part of a `Table` that holds answers to its open reaction window."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.open: windows.HeldWindow | None = None  # a window with a person in it
        self.saved: dict[int, str] = {}  # answers held when it was saved: filled by a load
        self.closing = False  # its answers are being given to the game (`close`)
        # Whether a player passes every reaction window automatically (their `auto_pass`
        # setting, core/players.py); the lobby gives it (`pass_automatically`)
        self.passes: Callable[[str], bool] = lambda identity: False

    def holds(self, seat: int, choice: str, decision: int | None) -> bool:
        """A person's answer to an open reaction window is held until it closes (the answer
        may change meanwhile); a choice that is not an answer to it goes on to the game. The
        last person's answer closes the window at once."""
        table, window = self.table, self.open
        if window is None or table.closed:
            return False
        prompt = windows.window_prompts(table.game).get(seat)
        if prompt is None or not any(c.id == choice for c in prompt.choices):
            return False
        if decision is not None and decision != table.game.decision_number(seat):
            raise IllegalAction("the game moved on since your screen was drawn; choose again")
        # Saved first, as a move is: an answer the player saw held survives a restart or a
        # failover (no view but this seat's changes, and records are never shown to players).
        table._save({"t": "hold", "seat": seat, "choice": choice}, touch=False)
        window.held[seat] = choice
        table.records.changed()
        if window.answered_by(self.persons_asked()):
            self.close(table._clock())  # everyone has answered: nobody waits
        else:
            table._notify()  # only this seat's view changes: the others are not sent anything
        return True

    def plays_for_themselves(self, seat: int) -> bool:
        held = self.table.seats[seat]
        return held.identity is not None and held.bot is None and held.stand_in is None

    def persons_asked(self) -> list[int]:
        """The persons an open reaction window waits for (bots answer at once)."""
        asked = windows.window_prompts(self.table.game)
        return [s for s in asked if self.plays_for_themselves(s)]

    def _lone_person(self) -> int | None:
        """The seat of the only person at the table when every other seat is a bot (a guided
        game, `harena play`) and nobody watches: no other person is there to learn anything
        from a window's timing (a spectator would learn that the hand holds nothing)."""
        seats = self.table.seats
        if self.table.spectators:
            return None
        persons = [s for s in range(len(seats)) if seats[s].bot is None]
        if len(persons) == 1 and self.plays_for_themselves(persons[0]):
            return persons[0]
        return None

    def track(self, now: float, *, settle: bool = True) -> None:
        """Open a window when a game's reaction window asks a person (for at most the table's
        time), close it once every person asked has answered, forget it once the game has
        none. `settle=False` (loading): nothing is answered or closed, only held."""
        table = self.table
        if self.closing:
            return  # `close` tracks the next window once every answer is in
        if not table.started or table.closed:
            self.open = None
            return
        asked = windows.window_prompts(table.game)
        lone = self._lone_person()
        if settle and lone is not None and lone in asked and windows.only_default(asked[lone]):
            default = asked[lone].default
            assert default is not None
            table._act(lone, default, None, by=None, notify=False)  # tracks the window again
            return
        if not any(self.plays_for_themselves(s) for s in asked):
            self.open = None
        elif self.open is None and table.policy.window > 0:
            self.open = windows.HeldWindow(now + table.policy.window)
        if self.open is not None:
            self._pass_for_who_asked()
            if settle and self.open.answered_by(self.persons_asked()):
                self.close(now)  # everyone passes automatically

    def restarted(self, now: float) -> None:
        """After a load: a window the game has open now opens afresh, the answers saved in it
        held again (a person's only: a seat a bot took since answers at once)."""
        self.open = None
        self.track(now, settle=False)  # nothing is saved while loading
        held, self.saved = self.saved, {}
        if self.open is not None:
            asked = windows.window_prompts(self.table.game)
            self.open.held.update(
                (seat, choice) for seat, choice in held.items()
                if seat in asked and self.plays_for_themselves(seat)
            )  # fmt: skip
            self.due_if_answered(now)

    def due_if_answered(self, now: float) -> None:
        """A window every person has answered while nothing may be saved (a load) is due now:
        the clock closes it (server/runners/clock_runner.py)."""
        if self.open is not None and self.open.answered_by(self.persons_asked()):
            self.open.closes = min(self.open.closes, now)

    def pass_automatically(self, passes: Callable[[str], bool]) -> None:
        """See `Table.pass_automatically`."""
        self.passes = passes
        if self.open is not None:
            self._pass_for_who_asked()
            self.due_if_answered(self.table._clock())

    def _pass_for_who_asked(self) -> None:
        """A person who passes automatically has "Let it be" held for them the moment a window
        asks them: held like any answer (only their own view shows it), so they may change it
        until the window closes, and nobody else can tell what they hold."""
        assert self.open is not None
        held, seats = self.open.held, self.table.seats
        for seat, prompt in windows.window_prompts(self.table.game).items():
            identity = seats[seat].identity
            if (seat not in held and identity is not None and self.plays_for_themselves(seat)
                    and prompt.default is not None and self.passes(identity)):  # fmt: skip
                held[seat] = prompt.default

    def close(self, now: float) -> None:
        """Every person asked has answered, or the window's time is up: each gets their held
        answer, or the default, in seat order (bots have answered already), then the next
        window (if the game opens one) is tracked and everyone hears once."""
        table, window = self.table, self.open
        assert window is not None
        self.closing = True
        try:
            done: set[int] = set()
            for seat in sorted(windows.window_prompts(table.game)):
                prompt = windows.window_prompts(table.game).get(seat)
                if prompt is None or seat in done or not self.plays_for_themselves(seat):
                    continue
                done.add(seat)
                choice = windows.answer_for(prompt, window.held.get(seat))
                by = table.seats[seat].identity if window.held.get(seat) == choice else None
                table._act(seat, choice, None, by=by, notify=False)  # None: the table's default
        finally:
            self.closing = False
            self.open = None
        self.track(now)
        table._notify()

    def answered(self, seat: int) -> bool:
        """Whether the open window holds an answer from `seat` to a prompt it still shows."""
        if self.open is None:
            return False
        prompt = windows.window_prompts(self.table.game).get(seat)
        return prompt is not None and seat in self.open.held

    def view(self, seat: int | None) -> dict[str, Any]:
        """An open reaction window: when it closes (the same for everyone) and, to its seat
        alone, the answer the table holds for it."""
        window = self.open
        if window is None:
            return {}
        shown: dict[str, Any] = {"closes": window.closes, "seconds": self.table.policy.window}
        if seat is not None and seat in window.held:
            shown["answer"] = window.held[seat]
        return {"window": shown}
