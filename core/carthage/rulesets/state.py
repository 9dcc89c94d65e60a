"""What the Modular Rulesets add to a game's state (`CarthageState.rulesets`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from harena.core.carthage.hexgrid import Hex


@dataclass
class RulesetState:
    # Retain: Action card instance -> the seats whose cubes are on it, in the order placed
    cubes: dict[int, list[int]] = field(default_factory=dict)
    # Actuate: Initiate and Actuate purchases in the Favor phase of round `starter_round`
    starter_buys: int = 0
    starter_round: int = 0
    # a Favor Action waiting for its second choice (its prompt kind), and whose it is
    pick: str | None = None
    pick_seat: int = 0
    renovate_from: Hex | None = None
    # Naked and Afraid: the seats still to be asked while a revealed card waits to resolve
    window: list[int] = field(default_factory=list)
    # Strict Discipline: the seats still to be asked at the end of this Action phase
    strict: list[int] = field(default_factory=list)
    # the round whose end-of-Actions rulesets have been started
    end_round: int = 0
