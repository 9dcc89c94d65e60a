"""What a screen makes of a view, made once for every session given that very view.

A table builds one view per seat and one for all its spectators, and hands the same object to
every session of that seat (`core/table/views.py`); the lobby hands every session the same
public view. Each session's screen then made the same lines from it again: at a table watched
by a hundred spectators, the seats panel, the board and the log were made a hundred times
per move, and each panel compared them with the lines it drew a hundred times.

`MadeOnce` keeps the results of one pure function by the identity of the objects it was made
from (and plain values beside them, compared by equality). Secrecy holds by construction: a
result is returned only for the very objects it was made from, and a view object only ever
reaches the sessions of the seat it was made for, so a seat's private lines can reach no
other seat's screen, and two tables' spectators never share what either was shown
(`tests/tui/test_made_once.py`). An entry holds its objects, so their ids are not reused
while it lives; a few entries are kept, since the deliveries of one change (one view per
seat, and the spectators') reach the sessions interleaved.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from operator import is_
from typing import Generic, TypeVar

V = TypeVar("V")

KEPT = 16
"""Results kept per function: every seat's view of a change, and the spectators', at once."""


class MadeOnce(Generic[V]):
    """The last few results of one pure function of some objects (by identity) and plain
    values (by equality)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._made: OrderedDict[tuple[tuple[int, ...], Hashable], tuple[tuple[object, ...], V]]
        self._made = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, objects: tuple[object, ...], plain: Hashable, make: Callable[[], V]) -> V:
        """`make()`, or what it gave for these very `objects` and equal `plain` values."""
        key = (tuple(map(id, objects)), plain)
        found = self._made.get(key)
        if found is not None and all(map(is_, found[0], objects)):
            self._made.move_to_end(key)
            self.hits += 1
            return found[1]
        self.misses += 1
        value = make()
        self._made[key] = (objects, value)
        self._made.move_to_end(key)
        if len(self._made) > self._kept:
            self._made.popitem(last=False)
        return value

    def clear(self) -> None:
        self._made.clear()
