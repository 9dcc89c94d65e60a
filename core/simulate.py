"""Headless bot-vs-bot games: speed, length and who wins, for `harena simulate` and benchmarks."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from harena.core.bots import LEVELS, MAX_DEALS, bot_seed, decide, standing_move
from harena.core.engine import Game, GameConfigError, Rng, game_class, make_config

MAX_DECISIONS = 200_000  # a game still running after this many choices is reported as stuck


@dataclass
class SimulationReport:
    game: str
    games: int
    players: int
    seed: int
    bots: list[str]
    games_per_s: float
    median_ms_per_game: float
    mean_rounds: float
    wins_by_seat: list[int]
    errors: list[str] = field(default_factory=list)
    mean_decisions: float = 0.0
    options: dict[str, str] = field(default_factory=dict)  # as played, defaults filled in
    label_kind: str | None = None  # "house": what wins_by_label counts
    wins_by_label: dict[str, int] = field(default_factory=dict)  # "Batiatus": 46
    # games with per-seat counts (Spartacus: offers, trades, bank_sales, bribes, asks): totals per bot kind
    # over every seat that kind played, e.g. {"heuristic": {"offers": 310, ...}}
    stats_by_bot: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def parse_bots(spec: str, players: int) -> list[str]:
    """ "random" for every seat, or one kind per seat: "heuristic,random". A level names its
    kind: "easy", "normal" (heuristic), "hard" (search)."""
    kinds = [LEVELS.get(k.strip(), k.strip()) for k in spec.split(",") if k.strip()]
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise GameConfigError(f"--bots names {len(kinds)} kinds for {players} players")
    return kinds


def game_seed(seed: int, index: int) -> int:
    """The seed of the index-th game of a run: the same run always plays the same games."""
    return Rng.from_seed(seed * 7919 + index).next64() >> 1


def play_to_the_end(
    game: Game, bots: list[Any], timed: Callable[[int, float], None] | None = None
) -> Game:
    """Let `bots` (one per seat) play `game` to its end, each from its own seat's view; a game
    still running after MAX_DECISIONS raises RuntimeError (a stuck game is a bug to report).
    Before each decision the bots may deal (`standing_move`), as at a server's table.
    `timed(seat, seconds)` hears how long each decision took (bench/bot_strength.py)."""
    seats = dict(enumerate(bots))
    deals = 0
    while game.result() is None:
        if game.version >= MAX_DECISIONS:
            raise RuntimeError(f"still running after {MAX_DECISIONS} decisions")
        deal = standing_move(game, seats)
        if deal is not None:
            deals += 1
            if deals > MAX_DEALS:
                raise RuntimeError(f"bots made {MAX_DEALS} deals in a row: {deal}")
            game.act(*deal)
            continue
        deals = 0
        seat = game.awaited()[0]
        began = time.perf_counter()
        choice = decide(game, seat, bots[seat])
        if timed is not None:
            timed(seat, time.perf_counter() - began)
        game.act(seat, choice)
    return game


def simulate(
    name: str,
    games: int,
    players: int,
    seed: int,
    bots: list[str],
    options: dict[str, str] | None = None,
) -> SimulationReport:
    cls = game_class(name)
    options = {**cls.simulation_options, **(options or {})}
    played = make_config(name, players, seed, options).options  # a bad request fails here, once
    unknown = sorted(set(bots) - set(cls.bots))
    if unknown:
        raise GameConfigError(
            f"no bot {', '.join(unknown)} for {cls.title}; it has {', '.join(cls.bots) or 'none'}"
        )
    tally = _Tally(wins=[0] * players)
    started = time.perf_counter()
    for index in range(games):
        this_seed = game_seed(seed, index)
        begin = time.perf_counter()
        try:
            game = cls(make_config(name, players, this_seed, options))
            play_to_the_end(
                game, [cls.bots[kind](bot_seed(this_seed, s)) for s, kind in enumerate(bots)]
            )
        except Exception as exc:  # a simulation reports broken games instead of stopping
            tally.errors.append(f"game {index} (seed {this_seed}): {type(exc).__name__}: {exc}")
            continue
        tally.count(game, bots, time.perf_counter() - begin)
    elapsed = time.perf_counter() - started
    return SimulationReport(
        game=name,
        games=games,
        players=players,
        seed=seed,
        bots=bots,
        games_per_s=round(len(tally.durations) / elapsed, 2) if elapsed > 0 else 0.0,
        median_ms_per_game=_rounded(statistics.median, tally.durations, 3, scale=1000),
        mean_rounds=_rounded(statistics.fmean, tally.rounds, 2),
        wins_by_seat=tally.wins,
        errors=tally.errors,
        mean_decisions=_rounded(statistics.fmean, tally.decisions, 1),
        options=dict(played),
        label_kind=cls.label_kind,
        wins_by_label=dict(sorted(tally.by_label.items())),
        stats_by_bot=tally.stats,
    )


@dataclass
class _Tally:
    """What the games of one run add up to, counted as each ends."""

    wins: list[int]  # per seat
    by_label: dict[str, int] = field(default_factory=dict)  # wins per House (label_kind)
    durations: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stats: dict[str, dict[str, int]] = field(default_factory=dict)  # per bot kind

    def count(self, game: Game, bots: list[str], seconds: float) -> None:
        self.durations.append(seconds)
        result = game.result()
        assert result is not None
        for winner in result.winners:
            self.wins[winner] += 1
            if game.label_kind is not None:
                label = game.seat_label(winner)
                self.by_label[label] = self.by_label.get(label, 0) + 1
        self.rounds.append(game.round_number())
        self.decisions.append(game.version)
        seat_stats = getattr(game, "seat_stats", None)
        for seat, counts in enumerate(seat_stats() if seat_stats else []):
            totals = self.stats.setdefault(bots[seat], {})
            for key, n in counts.items():
                totals[key] = totals.get(key, 0) + n


def _rounded(
    average: Callable[[list[Any]], float], values: list[Any], digits: int, scale: float = 1
) -> float:
    """An average of what the games measured, 0.0 when no game ended."""
    return round(average(values) * scale, digits) if values else 0.0
