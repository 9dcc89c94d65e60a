"""A table's own options, beside its game's (core/engine.py `GameConfig.options`) and its clocks
(core/clocks.py `ClockPolicy`): what the creator chose about the table itself. Saved in the
create record and in snapshots; a rematch (core/table/rematch.py) carries the whole object to
the next table, so an option added here comes along without more code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harena.core.codec import from_plain, to_plain
from harena.core.engine import GameConfigError

DECLINED = ("bot", "free")
"""What a rematch does with the seat of a player who declines it: a bot plays it (the game
starts when everyone has answered), or it waits free for anyone to sit."""


@dataclass(frozen=True)
class TableOptions:
    declined: str = "bot"  # one of DECLINED

    def __post_init__(self) -> None:
        if self.declined not in DECLINED:
            raise GameConfigError(f"a declined seat is one of {', '.join(DECLINED)}")

    def to_record(self) -> dict[str, Any]:
        return dict(to_plain(self))

    @classmethod
    def from_record(cls, data: object) -> TableOptions:
        """Saved options; an older table (none saved) has the defaults."""
        if not isinstance(data, dict):
            return cls()
        try:
            options: TableOptions = from_plain(cls, data)
        except (TypeError, ValueError, GameConfigError):
            return cls()
        return options
