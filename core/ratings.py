"""Ratings: an Elo rating per identity (key) and game, updated when a game ends.

A game of several players counts as every pair of them playing each other: a winner beats each
player who did not win, and two winners (or two who did not win) draw. Each player's change is
`K / (n - 1)` times the sum over their opponents of (score - expected score), with expected
score `1 / (1 + 10 ** ((theirs - mine) / 400))`, all from the ratings before the game; so a
two-player game is plain Elo with K = 32. Bots have fixed ratings (`BOT_RATINGS`) and never
change; a game with a bot counts only if the server says so (`count_bots`). Guests are not rated
and are left out of the pairs. A closed game (an operator ended it) has no result: not rated;
nor is a game at a table that allows hints (the hard bot may have chosen for its players).

Saved in the data folder's `ratings.json` (through core/store.py), with the tables already
rated, so a restart neither loses nor repeats a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harena.core.store import Store, StoreError

if TYPE_CHECKING:
    from harena.core.table import Table

log = logging.getLogger(__name__)

FILE = "ratings.json"
START = 1500.0
K = 32.0
BOT_RATINGS = {"random": 1000.0, "heuristic": 1400.0}
OTHER_BOT = 1200.0
GUEST_PREFIX = "guest:"  # as server/service/ssh_server.py names guests


@dataclass
class Rating:
    value: float = START
    games: int = 0
    name: str = ""  # the name last played under, for the leaderboard


def expected(mine: float, theirs: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** ((theirs - mine) / 400.0)))


def changes(ratings: list[float], winners: set[int], fixed: set[int], k: float = K) -> list[float]:
    """Each player's rating change (0 for the `fixed` ones: bots), from ratings before the game."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        if i in fixed:
            out.append(0.0)
            continue
        total = 0.0
        for j in range(n):
            if j == i:
                continue
            score = 0.5 if (i in winners) == (j in winners) else (1.0 if i in winners else 0.0)
            total += score - expected(ratings[i], ratings[j])
        out.append(k / (n - 1) * total)
    return out


class Ratings:
    def __init__(
        self,
        store: Store | None = None,
        *,
        count_bots: bool = False,
        rated: Callable[[str], bool] = lambda identity: not identity.startswith(GUEST_PREFIX),
    ) -> None:
        self._store = store
        self.count_bots = count_bots
        self._is_rated = rated
        self.games: dict[str, dict[str, Rating]] = {}
        self.rated_tables: set[str] = set()
        self._load(store.read_document(FILE) if store is not None else None)

    def replace(self, data: Any) -> None:
        """The ratings as another server of a cluster saved them."""
        self._load(data)

    def _load(self, data: Any) -> None:
        self.games, self.rated_tables = {}, set()
        if isinstance(data, dict):
            for game, people in data.get("games", {}).items():
                self.games[game] = {
                    i: Rating(float(r[0]), int(r[1]), str(r[2])) for i, r in people.items()
                }
            self.rated_tables = set(data.get("rated", []))

    def _data(self) -> dict[str, Any]:
        return {
            "games": {
                g: {i: [r.value, r.games, r.name] for i, r in people.items()}
                for g, people in self.games.items()
            },
            "rated": sorted(self.rated_tables),
        }

    def of(self, identity: str, game: str) -> Rating | None:
        return self.games.get(game, {}).get(identity)

    def board(self, game: str) -> list[tuple[str, Rating]]:
        """(identity, rating) of everyone rated at `game`, best first."""
        return sorted(
            self.games.get(game, {}).items(), key=lambda pair: (-pair[1].value, pair[1].name)
        )

    def rate(self, table: Table) -> dict[str, float]:
        """Rate a finished table once; returns each rated identity's change (empty: not rated).

        The game is applied to the ratings as saved now, not to this server's copy: in a cluster
        another node may have rated a game since, and its update must not be lost (the store
        re-reads and applies this game again if someone else wrote meanwhile)."""
        if table.id in self.rated_tables or table.game.result() is None or table.closed:
            return {}
        if self._store is None:
            return self._apply(table)
        out: dict[str, float] = {}
        mine = self._data()

        def change(fresh: Any) -> dict[str, Any]:
            # Each try works on its own copy: in a cluster this runs on the NATS thread while
            # the watched document may replace this server's copy on the loop's.
            scratch = Ratings(count_bots=self.count_bots, rated=self._is_rated)
            scratch._load(fresh if fresh is not None else mine)  # (none, or damaged: ours)
            out.clear()
            out.update(scratch._apply(table))
            return scratch._data()

        try:
            self._load(self._store.update_document(FILE, change))
        except StoreError as exc:  # expected (a cluster's storage away): no traceback
            log.warning("ratings not saved (%s): shown on this server only", exc)
            return self._apply(table)  # shown here at least, as the game was played
        return out

    def _apply(self, table: Table) -> dict[str, float]:
        """Apply one finished table to these ratings (once: a table already rated is not)."""
        result = table.game.result()
        if table.id in self.rated_tables or result is None or table.hints:
            return {}  # a table with hints is never rated: a bot helped its players
        self.rated_tables.add(table.id)  # judged once, rated or not
        game = table.game.name
        people: list[
            tuple[int, str | None, float]
        ] = []  # (seat, identity or None for a bot, rating)
        for seat, held in enumerate(table.seats):
            if held.bot is not None:
                people.append((seat, None, BOT_RATINGS.get(held.bot, OTHER_BOT)))
            elif held.identity is not None and self._is_rated(held.identity):
                rating = self.of(held.identity, game)
                people.append((seat, held.identity, START if rating is None else rating.value))
        humans = [p for p in people if p[1] is not None]
        bots = len(people) - len(humans)
        if not humans or len(people) < 2 or (bots and not self.count_bots):
            return {}
        winners = {i for i, (seat, _, _) in enumerate(people) if seat in result.winners}
        fixed = {i for i, (_, identity, _) in enumerate(people) if identity is None}
        deltas = changes([r for _, _, r in people], winners, fixed)
        out = {}
        for (seat, identity, before), delta in zip(people, deltas, strict=False):
            if identity is None:
                continue
            entry = self.games.setdefault(game, {}).setdefault(identity, Rating())
            entry.value, entry.games, entry.name = (
                before + delta,
                entry.games + 1,
                table.seats[seat].name,
            )
            out[identity] = delta
        log.info(
            "table %s rated: %s",
            table.id,
            ", ".join(
                f"{table.seats[s].name} {d:+.1f}"
                for (s, i, _), d in zip(people, deltas, strict=False)
                if i
            ),
        )
        return out
