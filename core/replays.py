"""Replays: a game's positions rebuilt from its config and moves, viewed as one seat saw them.

Position `n` is the game after its first `n` moves. A finished game is shown revealed: the log
with every line as its own seats read it (every hand, bid and bet) and the board as any seat saw
it. During play, a player reviews only what their seat saw: `view(seat, log_from)` at each past
position, the game's own per-seat view (checked for secrecy in tests/core/secrecy.py), from the
position where they sat down on; never a position before that, never another seat's board.

Steps are one move (decision), one turn (moves until another seat chooses) and one round (the
game's `round_number()` changes). Positions are rebuilt from a snapshot every `CHECKPOINT`
moves, so any step costs at most that many moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harena.core.engine import LOG_TAIL, Action, Event, Game, GameConfig, game_class, restore

CHECKPOINT = 32


@dataclass(frozen=True)
class Step:
    """What move `index` (1-based position after it) did."""

    seat: int
    choice: str
    round: int  # round_number() after the move
    events: int  # the game's events after the move


class Replay:
    def __init__(
        self,
        config: GameConfig,
        actions: list[Action],
        *,
        seat: int | None = None,
        log_from: int = 0,
        reveal: bool = False,
        notes: list[tuple[int, str]] | None = None,
        names: list[str] | None = None,
    ) -> None:
        """
        Args:
            seat: whose view (a review; None: a spectator's); ignored with `reveal`.
            log_from: the reviewer's seat's `log_from` (its lines before it are someone else's).
            reveal: the game is over: every line in full and any seat's board.
            notes: the table's own log lines (a bot standing in) at their event indices.
            names: the players, to say whose a private line was once all is revealed.
        """
        self.config = config
        self.actions = list(actions)
        self.seat = seat
        self.log_from = log_from
        self.reveal = reveal
        self.notes = sorted(notes or [])
        self.names = list(names or [f"seat {i}" for i in range(config.players)])
        self.steps: list[Step] = []
        self._checkpoints: dict[int, bytes] = {}
        game = game_class(config.game)(config)
        self._start_events = len(game.events)
        self._start_round = game.round_number()
        for index, action in enumerate(self.actions):
            if index % CHECKPOINT == 0:
                self._checkpoints[index] = game.snapshot()
            game.act(action.seat, action.choice)
            self.steps.append(
                Step(action.seat, action.choice, game.round_number(), len(game.events))
            )
        if len(self.actions) % CHECKPOINT == 0:  # the end is a checkpoint's place: it needs one
            self._checkpoints[len(self.actions)] = game.snapshot()
        self._cached: tuple[int, Game] | None = (len(self.actions), game)
        self.first = 0 if reveal else self._first_seen(log_from)

    @property
    def last(self) -> int:
        return len(self.actions)

    def _first_seen(self, log_from: int) -> int:
        """The first position the reviewer's seat was theirs at."""
        for position in range(self.last + 1):
            if self._events_at(position) + self._notes_before(position) >= log_from:
                return position
        return self.last

    def _events_at(self, position: int) -> int:
        return self._start_events if position == 0 else self.steps[position - 1].events

    def _notes_before(self, position: int) -> int:
        count, events = 0, self._events_at(position)
        for index, _ in self.notes:
            if index <= events + count:
                count += 1
        return count

    def round_at(self, position: int) -> int:
        return self._start_round if position == 0 else self.steps[position - 1].round

    # -- positions ------------------------------------------------------------------------------

    def game_at(self, position: int) -> Game:
        """The game after `position` moves (a fresh object each time it changes: do not act on it)."""
        position = self.clamp(position)
        if self._cached is not None and self._cached[0] == position:
            return self._cached[1]
        start = (position // CHECKPOINT) * CHECKPOINT
        if (
            self._cached is not None
            and max(start, position - CHECKPOINT) <= self._cached[0] < position
        ):
            at, game = self._cached  # onward from where we are: the usual step forward
        else:
            at, game = start, restore(self._checkpoints[start])
        for action in self.actions[at:position]:
            game.act(action.seat, action.choice)
        self._cached = (position, game)
        return game

    def clamp(self, position: int) -> int:
        return min(max(position, self.first), self.last)

    def view_at(self, position: int, board_seat: int | None = None) -> dict[str, Any]:
        """The game view at `position`: the reviewer's seat's (a review), or `board_seat`'s board
        with the whole log (a finished game); no choices either way."""
        game = self.game_at(position)
        seat = self.seat if not self.reveal else board_seat
        events = game.events
        game.events = self._with_notes(events)
        try:
            view = game.view(seat, log_from=self.log_from if not self.reveal else 0)
            if self.reveal:  # the tail, as a live view carries: what the log panel shows
                view["log"] = [self._revealed(e) for e in game.events[-LOG_TAIL:]]
        finally:
            game.events = events
        return {**view, "prompts": [], "decision": None}

    def _revealed(self, event: Event) -> str:
        """A line in full; a private one says whose it was: `[ann] you drew [3, 5, 9]`."""
        if event.seats is None:
            return event.text
        return f"[{', '.join(self.names[s] for s in event.seats if 0 <= s < len(self.names))}] {event.text}"

    def _with_notes(self, events: list[Event]) -> list[Event]:
        if not self.notes:
            return events
        merged = list(events)
        for index, text in self.notes:
            if index <= len(merged):
                merged.insert(index, Event(text))
        return merged

    # -- steps ------------------------------------------------------------------------------------

    def next_turn(self, position: int) -> int:
        """After the moves of the seat that makes the next move, until another seat's."""
        if position >= self.last:
            return self.last
        seat = self.steps[position].seat
        while position < self.last and self.steps[position].seat == seat:
            position += 1
        return position

    def previous_turn(self, position: int) -> int:
        """Back to the start of the turn before this position (or of this one, mid-turn)."""
        position = self.clamp(position)
        if position <= self.first:
            return self.first
        seat = self.steps[position - 1].seat
        while position > self.first and self.steps[position - 1].seat == seat:
            position -= 1
        return self.clamp(position)

    def next_round(self, position: int) -> int:
        current = self.round_at(position)
        while position < self.last and self.round_at(position) == current:
            position += 1
        return position

    def previous_round(self, position: int) -> int:
        """The first position of this round, or of the round before when already there."""
        position = self.clamp(position)
        if position > self.first and self.round_at(position - 1) != self.round_at(position):
            position -= 1
        current = self.round_at(position)
        while position > self.first and self.round_at(position - 1) == current:
            position -= 1
        return position
