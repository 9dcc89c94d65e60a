"""Move clocks: a table's time policy, and when a seat's time runs out.

A clock is table policy, never a rule: the rules core is never told about time. Everything here is
a pure function of the policy and times passed in (seconds since the epoch); the server reads the
wall clock and calls `Table.expire(now)` at the deadline this module computes.

- `per_decision`: seconds a seat has for each decision.
- `bank`: seconds a seat has for the whole game; drawn on once `per_decision` (if any) is used up.
  An empty bank leaves `BANK_GRACE` per decision, so a player who takes their seat back can still
  move (docs/rulings.md, move clocks).
- `stand_in_after`: a seated player gone (no session) this long while awaited is stood in for.
- `window`: seconds a reaction window with a person in it stays open at most: it closes once
  every person asked has answered (core/windows.py; 0: the table waits for each answer's key).

When time runs out, the table's `bot` kind plays the seat until its player takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from harena.core import windows
from harena.core.windows import WINDOW_SECONDS

BANK_GRACE = 60.0  # seconds per decision once a bank is empty
CHOICES = {  # what the create-table form offers, in seconds (0: off)
    "clock": (0, 60, 300, 3600, 86400),
    "bank": (0, 600, 3600, 86400, 3 * 86400),
    "stand_in_after": (0, 600, 3600, 86400),
    "window": windows.CHOICES,
}


@dataclass(frozen=True)
class ClockPolicy:
    per_decision: float = 0.0  # 0: no clock per decision
    bank: float = 0.0  # 0: no bank
    stand_in_after: float = 0.0  # 0: nobody is stood in for being away
    bot: str | None = None  # the bot kind that stands in; None: the game's best
    window: float = WINDOW_SECONDS  # a reaction window's longest time (core/windows.py)

    @property
    def timed(self) -> bool:
        """Whether decisions have a time limit (a clock or a bank)."""
        return self.per_decision > 0 or self.bank > 0

    @property
    def active(self) -> bool:
        return self.timed or self.stand_in_after > 0

    def to_record(self) -> dict[str, float | str | None]:
        return {
            "clock": self.per_decision,
            "bank": self.bank,
            "stand_in_after": self.stand_in_after,
            "bot": self.bot,
            "window": self.window,
        }

    @classmethod
    def from_record(cls, data: dict[str, object] | None) -> ClockPolicy:
        if not data:
            return cls()
        bot = data.get("bot")
        window = data.get("window", WINDOW_SECONDS)  # older tables: the default
        return cls(
            _seconds(data.get("clock")),
            _seconds(data.get("bank")),
            _seconds(data.get("stand_in_after")),
            bot if isinstance(bot, str) else None,
            _seconds(window),
        )


def _seconds(value: object) -> float:
    return (
        float(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
        else 0.0
    )


def allowance(policy: ClockPolicy, bank_left: float) -> float | None:
    """Seconds a decision may take, from when it began; None: no limit."""
    if not policy.timed:
        return None
    if policy.bank > 0:
        return policy.per_decision + (bank_left if bank_left > 0 else BANK_GRACE)
    return policy.per_decision


def charged(policy: ClockPolicy, elapsed: float) -> float:
    """What a decision that took `elapsed` seconds takes from the bank."""
    if policy.bank <= 0:
        return 0.0
    return max(elapsed - policy.per_decision, 0.0)


def time_deadline(policy: ClockPolicy, began: float, bank_left: float) -> float | None:
    """When the decision begun at `began` runs out of time; None: never."""
    limit = allowance(policy, bank_left)
    return None if limit is None else began + limit


def away_deadline(policy: ClockPolicy, gone_since: float | None) -> float | None:
    """When a player gone since `gone_since` is stood in for; None: never (or not gone)."""
    if policy.stand_in_after <= 0 or gone_since is None:
        return None
    return gone_since + policy.stand_in_after


def coarse(seconds: float) -> str:
    """A countdown that changes rarely: `2d`, `5h`, `12m`, then tens of seconds, `<10s`."""
    seconds = max(seconds, 0.0)
    if seconds >= 2 * 86400:
        return f"{int(seconds // 86400)}d"
    if seconds >= 2 * 3600:
        return f"{int(seconds // 3600)}h"
    if seconds >= 120:
        return f"{int(seconds // 60)}m"
    if seconds >= 10:
        return f"{int(seconds // 10) * 10}s"
    return "<10s"


def waited(seconds: float) -> str:
    """How long a table has waited, to the minute: `now`, `12m`, `5h`, `3d`."""
    if seconds < 60:
        return "now"
    if seconds < 2 * 3600:
        return f"{int(seconds // 60)}m"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def span(seconds: float) -> str:
    """A setting's length in its largest whole unit: `1d`, `3h`, `5m`, `90s`."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def describe(policy: ClockPolicy, *, reaction_windows: bool = False) -> str:
    """`clock 5m, bank 1h, stand-in after 1d`, or '' without a clock; a game with reaction
    windows always says how long they stay open (`reaction window 10s`, `reaction window off`)."""
    parts = []
    if policy.per_decision:
        parts.append(f"clock {span(policy.per_decision)}")
    if policy.bank:
        parts.append(f"bank {span(policy.bank)}")
    if policy.stand_in_after:
        parts.append(f"stand-in after {span(policy.stand_in_after)}")
    if reaction_windows:
        parts.append(f"reaction window {span(policy.window) if policy.window else 'off'}")
    return ", ".join(parts)


class SeatTimes:
    """A table's time: since when each awaited seat has waited, when the clock of its present
    choice began, what is left in each bank, and since when each seated player has been gone.
    The table tells it what happened and when; it never reads a clock itself.

    A seat awaited again right after its own choice (the steps of one move) has waited since the
    first step: the lobby shows the whole wait. Each choice gets a fresh clock (`decided`).
    `waiting_since` may hold None: a wait from a log older than timed records (read as the
    table's last change by whoever shows it).
    """

    def __init__(self, policy: ClockPolicy, seats: int) -> None:
        self.policy = policy
        self.banks = [policy.bank] * seats
        self.waiting_since: dict[int, float | None] = {}
        self.clock_began: dict[int, float] = {}
        self.gone_since: dict[int, float] = {}  # runtime only

    def track(self, awaited: list[int], at: float | None) -> None:
        """The seats awaited now, after a change at `at`."""
        for seat in [s for s in self.waiting_since if s not in awaited]:
            del self.waiting_since[seat]
            self.clock_began.pop(seat, None)
        for seat in awaited:
            if seat not in self.waiting_since:
                self.waiting_since[seat] = at
                if at is not None:
                    self.clock_began[seat] = at

    def decided(self, seat: int, awaited: list[int], at: float | None) -> None:
        """`seat` chose at `at`: if it is awaited again, its next choice has a fresh clock."""
        self.clock_began.pop(seat, None)
        self.track(awaited, at)
        if seat in self.waiting_since and at is not None:
            self.clock_began[seat] = at

    def used(self, seat: int, now: float) -> list[list[float]]:
        """[[seat, seconds from its bank]] for the choice `seat` makes at `now` (saved with the
        move, so a reload charges exactly what was charged)."""
        began = self.clock_began.get(seat)
        if self.policy.bank <= 0 or began is None:
            return []
        cost = charged(self.policy, now - began)
        return [[seat, round(cost, 3)]] if cost > 0 else []

    def charge(self, used: object) -> None:
        """Take a saved move's `used` from the banks (a malformed one is ignored)."""
        for item in used if isinstance(used, list) else []:
            if isinstance(item, list) and len(item) == 2:
                seat, cost = item
                if (
                    isinstance(seat, int)
                    and 0 <= seat < len(self.banks)
                    and isinstance(cost, (int, float))
                ):
                    self.banks[seat] = max(self.banks[seat] - cost, 0.0)

    def ran_out(self, seat: int, why: str) -> None:
        if why == "clock" and self.policy.bank > 0:
            self.banks[seat] = 0.0  # what ran out was the bank

    def taken_back(self, seat: int, at: float) -> None:
        """The player plays again: a fresh clock for the choice before them."""
        if seat in self.waiting_since:
            self.clock_began[seat] = at

    def restarted(self, now: float, seated: list[int]) -> None:
        """After a load: time the server was down costs nobody (docs/rulings.md), so every
        running clock starts afresh and every seated player counts as gone from now."""
        for seat in self.waiting_since:
            self.clock_began[seat] = now
        self.gone_since = dict.fromkeys(seated, now)

    def running(self, now: float) -> dict[str, list[list[float]]]:
        """How long each running clock has run and each gone player has been gone, as of `now`:
        durations, which mean the same on any machine (a table moving to another node of a
        cluster carries these, never this machine's instants)."""
        return {
            "used": [[seat, round(now - began, 3)] for seat, began in self.clock_began.items()],
            "gone": [[seat, round(now - since, 3)] for seat, since in self.gone_since.items()],
        }

    def resumed(self, now: float, running: dict[str, object]) -> None:
        """Take up clocks handed over as `running` (durations) at `now` on this machine's clock:
        each awaited seat has exactly the time left it had; anything malformed is ignored (that
        clock starts afresh, as after a restart)."""
        for name, kept in (("used", self.clock_began), ("gone", self.gone_since)):
            items = running.get(name)
            for item in items if isinstance(items, list) else []:
                if not (isinstance(item, list) and len(item) == 2):
                    continue
                seat, seconds = item
                if (
                    isinstance(seat, int)
                    and seat in kept
                    and isinstance(seconds, (int, float))
                    and not isinstance(seconds, bool)
                    and seconds >= 0
                ):
                    kept[seat] = now - seconds

    def deadline(self, seat: int, connected: bool) -> tuple[float, str] | None:
        """When a bot stands in for the awaited player in `seat`, and why ("clock", "away")."""
        options = []
        began = self.clock_began.get(seat)
        if (
            began is not None
            and (at := time_deadline(self.policy, began, self.banks[seat])) is not None
        ):
            options.append((at, "clock"))
        if (
            not connected
            and (at := away_deadline(self.policy, self.gone_since.get(seat))) is not None
        ):
            options.append((at, "away"))
        return min(options) if options else None

    def to_snapshot(self) -> dict[str, object]:
        return {
            "policy": self.policy.to_record(),
            "banks": list(self.banks),
            "waiting": [[seat, since] for seat, since in self.waiting_since.items()],
        }

    @classmethod
    def from_snapshot(cls, snap: dict[str, object], seats: int) -> SeatTimes:
        policy = snap.get("policy")
        times = cls(ClockPolicy.from_record(policy if isinstance(policy, dict) else None), seats)
        banks = snap.get("banks")
        if isinstance(banks, list) and len(banks) == seats:
            times.banks = [float(b) for b in banks]
        waiting = snap.get("waiting")
        if isinstance(waiting, list):
            times.waiting_since = {int(seat): since for seat, since in waiting}
        return times
