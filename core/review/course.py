"""The course of a finished game, round by round, rebuilt from its records for the review.

Carthage: each gladiator's Armor and Favor at the start and at the end of every round, and the
round it was eliminated in. Spartacus: each House's Influence and denarii (its denarii are
secret during play: a review is of a finished game, where everything is revealed), the rounds
it won an auction in and those a Scheme of its landed in.

Figures are read from the game's own board views at each round's last position (the replay's
positions, core/replays.py), marks from the game's log lines of that round: the same words the
players read, so the drawing agrees with the log.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from harena.core.engine import Event, Game
from harena.core.replays import Replay


class Mark(Enum):
    """Something that happened to a player in a round, drawn over its line."""

    ELIMINATED = "eliminated"  # Carthage: the gladiator fell this round
    AUCTION = "auction"  # Spartacus: won an auction (a lot or the Host title)
    SCHEME = "scheme"  # Spartacus: a Scheme of theirs landed (not cancelled, not failed)


@dataclass(frozen=True)
class Series:
    """One measure of one player: its value at the start (index 0) and after each round;
    None after the round a gladiator was eliminated in (nothing left to measure)."""

    measure: str  # "Armor", "Favor", "Influence", "denarii"
    values: tuple[int | None, ...]

    @property
    def known(self) -> list[int]:
        return [v for v in self.values if v is not None]


@dataclass(frozen=True)
class PlayerCourse:
    seat: int
    piece: str  # the gladiator or House, as the game names it ("Red Dimachaerus", "Glaber")
    series: tuple[Series, ...]
    marks: dict[int, tuple[Mark, ...]] = field(default_factory=dict)  # round -> its marks

    def measure(self, name: str) -> Series:
        return next(s for s in self.series if s.measure == name)


@dataclass(frozen=True)
class Course:
    """A game's course: `rounds[i]` is the round the i-th value of every series ends (0: the
    start, before the first move)."""

    game: str
    rounds: tuple[int, ...]
    players: tuple[PlayerCourse, ...]
    winners: tuple[int, ...]

    @property
    def measures(self) -> list[str]:
        return [s.measure for s in self.players[0].series] if self.players else []


class NotOver(ValueError):
    """Only a finished game has a course to review."""


def round_ends(replay: Replay) -> list[tuple[int, int]]:
    """(round, position) of the start (round 0: the first position of the first round played,
    once any setup is done) and of every round's last position."""
    rounds = [replay.round_at(p) for p in range(replay.last + 1)]
    first = next((p for p, r in enumerate(rounds) if r >= 1), 0)
    ends = [(0, first)]
    for position in range(first, replay.last + 1):
        if position == replay.last or rounds[position + 1] != rounds[position]:
            ends.append((rounds[position], position))
    return ends


def events_by_round(replay: Replay) -> dict[int, list[Event]]:
    """The game's events, each under the round of the move that caused it (those before any
    move: the start's round)."""
    events = replay.game_at(replay.last).events
    by_round: dict[int, list[Event]] = {}
    begin = 0
    for step in replay.steps:
        by_round.setdefault(step.round, []).extend(events[begin : step.events])
        begin = step.events
    return by_round


def course_of(replay: Replay) -> Course:
    """The course of the finished game `replay` holds (reveal=True: every seat's figures)."""
    final = replay.game_at(replay.last)
    result = final.result()
    if result is None:
        raise NotOver("the game is not over yet")
    reader = COURSES.get(replay.config.game)
    if reader is None:
        raise NotOver(f"{final.title} has no course to draw")
    ends = round_ends(replay)
    rounds = tuple(r for r, _ in ends)
    figures = [reader.figures(replay.game_at(position)) for _, position in ends]
    names = reader.pieces(final)
    marks = reader.marks(final, events_by_round(replay))
    players = []
    for seat in range(final.players):
        own = marks.get(seat, {})
        fell = min((r for r, m in own.items() if Mark.ELIMINATED in m), default=None)
        series = tuple(
            Series(
                measure,
                tuple(
                    None if fell is not None and round_ > fell else f[seat][i]
                    for round_, f in zip(rounds, figures, strict=True)
                ),
            )
            for i, measure in enumerate(reader.measures)
        )
        players.append(PlayerCourse(seat, names[seat], series, own))
    return Course(replay.config.game, rounds, tuple(players), tuple(result.winners))


def pieces_of(game: Game) -> list[str]:
    """Each seat's gladiator or House, as the game names it (its board view, any moment)."""
    reader = COURSES.get(game.name)
    return reader.pieces(game) if reader is not None else ["" for _ in range(game.players)]


Figures = list[tuple[int, ...]]  # per seat: one value per measure
Marks = dict[int, dict[int, tuple[Mark, ...]]]  # seat -> round -> marks


@dataclass(frozen=True)
class CourseReader:
    """What a game's course reads: its measures, from a position's board view, and its marks,
    from the log."""

    measures: tuple[str, ...]
    figures: Callable[[Game], Figures]
    pieces: Callable[[Game], list[str]]
    marks: Callable[[Game, dict[int, list[Event]]], Marks]


# -- Carthage -------------------------------------------------------------------------------------


def _carthage_figures(game: Game) -> Figures:
    return [(p["armor"], p["favor"]) for p in game.board_view(None)["players"]]


def _carthage_pieces(game: Game) -> list[str]:
    return [str(p["name"]) for p in game.board_view(None)["players"]]


def _carthage_marks(game: Game, by_round: dict[int, list[Event]]) -> Marks:
    """The round each gladiator was eliminated in: the log's "X is eliminated!" line."""
    names = _carthage_pieces(game)
    marks: Marks = {}
    for round_, events in by_round.items():
        for event in events:
            for seat, name in enumerate(names):
                if event.seats is None and event.text == f"{name} is eliminated!":
                    _add(marks, seat, round_, Mark.ELIMINATED)
    return marks


# -- Spartacus ------------------------------------------------------------------------------------


def _spartacus_figures(game: Game) -> Figures:
    public = game.board_view(None)["players"]
    # A House's denarii from its own seat's view: the spectator's may hide them (the Market).
    return [
        (p["influence"], game.board_view(seat)["players"][seat]["denarii"])
        for seat, p in enumerate(public)
    ]


def _spartacus_pieces(game: Game) -> list[str]:
    return [str(p["name"]) for p in game.board_view(None)["players"]]


_LAUNCH = re.compile(
    r"(?P<who>.+?) launches (?P<card>.+?)(?: against .+| for themselves| at their own House)"
)  # schemes.py `_launch` and `aim`


def _spartacus_marks(game: Game, by_round: dict[int, list[Event]]) -> Marks:
    """Auctions won ("X buys CARD for N", "X pays N and becomes the Host") and Schemes that
    landed: a launch ("X launches CARD ...") not followed by its cancelling ("X's CARD is
    cancelled by ...") or its failing ("X cannot pay for CARD: it fails")."""
    seats = {name: seat for seat, name in enumerate(_spartacus_pieces(game))}
    marks: Marks = {}
    for round_, events in by_round.items():
        launched: tuple[str, str] | None = None  # whose Scheme, which card
        for event in events:
            text = event.text if event.seats is None else ""
            won = _auction_winner(text, seats)
            if won is not None:
                _add(marks, won, round_, Mark.AUCTION)
            if launched is not None and _stops(text, *launched):
                launched = None
            match = _LAUNCH.match(text)
            if match and match["who"] in seats:
                if launched is not None:
                    _add(marks, seats[launched[0]], round_, Mark.SCHEME)
                launched = (match["who"], match["card"])
        if launched is not None:
            _add(marks, seats[launched[0]], round_, Mark.SCHEME)
    return marks


def _auction_winner(text: str, seats: dict[str, int]) -> int | None:
    for name, seat in seats.items():
        if text.startswith(f"{name} buys ") or (
            text.startswith(f"{name} pays ") and text.endswith(" and becomes the Host")
        ):
            return seat
    return None


def _stops(text: str, name: str, card: str) -> bool:
    """Whether `text` says the Scheme `card` of House `name` did not land."""
    return text.startswith(f"{name}'s {card} is cancelled by ") or text == (
        f"{name} cannot pay for {card}: it fails"
    )


def _add(marks: Marks, seat: int, round_: int, mark: Mark) -> None:
    now = marks.setdefault(seat, {}).get(round_, ())
    if mark not in now:
        marks[seat][round_] = (*now, mark)


COURSES: dict[str, CourseReader] = {
    "carthage": CourseReader(
        ("Armor", "Favor"), _carthage_figures, _carthage_pieces, _carthage_marks
    ),
    "spartacus": CourseReader(
        ("Influence", "denarii"), _spartacus_figures, _spartacus_pieces, _spartacus_marks
    ),
}
"""The games a review draws, by name: a game plugs in its reader here."""
